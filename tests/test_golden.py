"""toolkit.harness.golden: CompareBf16 gate and printout, check_abs, check_rel_sum."""
import json

import ml_dtypes
import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from toolkit.harness.golden import CompareBf16, CompareFloat, check_abs, check_rel_sum


def _bits(values):
    return np.asarray(values, dtype=np.float32).astype(ml_dtypes.bfloat16).view(np.uint16)


def test_identical_arrays_pass():
    g = _bits(np.linspace(-2, 2, 1000))
    res = CompareBf16("k_out", g.copy(), g)
    assert (res.errors, res.precision, res.passed, res.n) == (0, 100.0, True, 1000)
    assert res.max_diff == 0.0
    assert res.lines == ["k_out precision 100.000000%, errors 0, max diff 0.000000 at 0"]
    assert res.to_json() == {"errors": 0, "max_diff": 0.0, "max_diff_index": 0,
                             "precision": 100.0}


def test_one_corrupted_element():
    g = _bits(np.full(8, 0.5))
    a = g.copy()
    a[3] = _bits([0.75])[0]
    res = CompareBf16("v_cache", a, g)
    assert res.errors == 1 and not res.passed
    assert res.lines == [
        "v_cache mismatch index 3, expected 0.500000, actual 0.750000, diff 0.250000",
        "v_cache precision 87.500000%, errors 1, max diff 0.250000 at 3",
    ]
    assert res.max_diff_index == 3 and res.max_diff == 0.25


def test_small_diff_within_tolerance_counts_in_max_only():
    g = _bits([1.0, 1.0])
    a = _bits([1.0, 1.0078125])  # one bf16 ulp above 1.0
    res = CompareBf16("k_cache", a, g)
    assert res.errors == 0 and res.passed
    assert res.max_diff == 0.0078125 and res.max_diff_index == 1
    assert len(res.lines) == 1


def test_more_than_twenty_mismatches_are_capped():
    g = _bits(np.zeros(50))
    a = _bits(np.ones(50))
    res = CompareBf16("k_out", a, g)
    assert res.errors == 50 and res.precision == 0.0
    assert len(res.lines) == 21
    assert all(" mismatch index " in line for line in res.lines[:20])
    assert res.lines[19].startswith("k_out mismatch index 19,")
    assert res.lines[20] == "k_out precision 0.000000%, errors 50, max diff 1.000000 at 0"


def test_empty_arrays():
    e = np.zeros(0, dtype=np.uint16)
    res = CompareBf16("v_out", e, e)
    assert (res.n, res.errors, res.precision, res.passed) == (0, 0, 100.0, True)
    assert res.lines == ["v_out precision 100.000000%, errors 0, max diff 0.000000 at 0"]


def test_max_diff_index_is_first_occurrence():
    g = _bits(np.zeros(10))
    a = g.copy()
    a[[2, 6, 8]] = _bits([0.5, 1.0, 1.0])
    res = CompareBf16("x", a, g)
    assert res.max_diff_index == 6 and res.max_diff == 1.0 and res.errors == 3
    assert [line.split(",")[0] for line in res.lines[:3]] == [
        "x mismatch index 2", "x mismatch index 6", "x mismatch index 8"]


def test_nan_is_an_error_with_infinite_diff():
    g = _bits([1.0, 2.0, np.inf])
    a = g.copy()
    a[1] = 0x7FC0  # NaN
    res = CompareBf16("x", a, g)
    assert res.errors == 1 and res.max_diff == np.inf and res.max_diff_index == 1
    assert res.lines[0] == "x mismatch index 1, expected 2.000000, actual nan, diff inf"
    assert res.to_json()["max_diff"] == "inf"
    json.dumps(res.to_json(), allow_nan=False)


def test_accepts_bfloat16_arrays_and_any_shape():
    g = np.ones((2, 3), dtype=ml_dtypes.bfloat16)
    a = g.copy()
    a[1, 2] = 3
    res = CompareBf16("x", a, g)
    assert res.errors == 1 and res.max_diff_index == 5


def test_tolerance_boundary():
    g = _bits([0.0])
    a = np.array([0x3D75], dtype=np.uint16)  # bf16 0.059814453125 < 6e-2
    assert CompareBf16("x", a, g).errors == 0
    a = np.array([0x3D76], dtype=np.uint16)  # bf16 0.06005859375 > 6e-2
    assert CompareBf16("x", a, g).errors == 1
    assert CompareBf16("x", a, g, tol=0.1).errors == 0


def test_check_abs():
    ref = np.array([0.0, 1.0, 2.0, 3.0])
    got = np.array([0.0, 1.05, 2.3, 2.7])
    res = check_abs(got, ref, atol=0.1)
    assert (res.passed, res.failures, res.worst_index, res.n) == (False, 2, 2, 4)
    assert abs(res.worst_error - 0.3) < 1e-12
    assert check_abs(got, ref, atol=0.31).passed
    nan = check_abs(np.array([1.0, np.nan]), np.array([1.0, 1.0]), atol=1.0)
    assert nan.failures == 1 and nan.worst_index == 1 and nan.worst_error == np.inf


def test_check_rel_sum():
    ref = np.array([1000.0, 0.0, -10.0])
    got = np.array([1000.9, 0.0009, -10.02])
    res = check_rel_sum(got, ref, rtol=1e-3)
    # |d| / (|ref| + 1): 0.9/1001, 0.0009/1, 0.02/11 -> only the last one exceeds 1e-3
    assert (res.passed, res.failures, res.worst_index) == (False, 1, 2)
    assert abs(res.worst_error - 0.02 / 11) < 1e-12
    assert check_rel_sum(got, ref, rtol=2e-3).passed
    empty = check_rel_sum(np.zeros(0), np.zeros(0))
    assert empty.passed and empty.n == 0


@given(st.lists(st.sampled_from([0x3F80, 0x3F81, 0x4000, 0xBF80, 0x7F80, 0xFF80, 0x7FC0, 0x0000, 0x4120]),
                min_size=0, max_size=60), st.integers(0, 2**31), st.integers(1, 9))
def test_compare_in_chunks_equals_one_pass(values, seed, chunk):
    """Chunked comparison (bounded temporaries) gives the same errors, first max index, lines."""
    g = np.array(values, dtype=np.uint16)
    a = g.copy()
    rng = np.random.default_rng(seed)
    hit = rng.random(g.size) < 0.4
    a[hit] = rng.choice(np.array([0x3F80, 0x4000, 0x7FC0, 0xFF80, 0x4121], dtype=np.uint16), int(hit.sum()))
    whole = CompareBf16("x", a, g, max_lines=5, chunk=max(g.size, 1))
    parts = CompareBf16("x", a, g, max_lines=5, chunk=chunk)
    assert parts == whole


def test_compare_float_prints_like_the_sample():
    golden = np.array([0.001, 0.002, 0.5, 0.25], np.float32)
    actual = np.array([0.001, 0.0045, np.nan, 0.25], np.float32)
    r = CompareFloat("output", actual, golden)
    assert r.errors == 1 and r.max_diff_index == 1                # the NaN is neither an error nor the max
    assert r.lines == ["output mismatch index 1, expected 0.002, actual 0.0045, diff 0.0025",
                       "output precision 75%, errors 1, max diff 0.0025 at 1"]
