"""Arange (高阶API/索引计算) and PhiloxRandom (高阶API/随机函数) on the Python route: progressions of every Ascend
950 type against the formula (exact for integers, the page's Adds steps for floats), PhiloxRandom against an
independent plain-Python Philox4x32 (the Random123 known-answer vectors for 10 rounds), the page's example
output, the stride mode, the 128-bit counter carry, bad parameters; and the vendor-style .asc program."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.asc_support import build_and_run, needs_compiler
from tests.hl_support import as_, run
from toolkit.ascendc.dtypes import uint32_t
from toolkit.ascendc.highlevel import index_random as IR

HERE = Path(__file__).parent / "hl"
MASK32 = 0xFFFFFFFF


def philox(ctr: list[int], key: list[int], rounds: int) -> list[int]:
    """Philox4x32: the round ``(hi(M1 c2) ^ c1 ^ k0, lo(M1 c2), hi(M0 c0) ^ c3 ^ k1, lo(M0 c0))``, key bumped
    by the Weyl constants after each round."""
    c, k = list(ctr), list(key)
    for _ in range(rounds):
        p0, p1 = 0xD2511F53 * c[0], 0xCD9E8D57 * c[2]
        c = [(p1 >> 32) ^ c[1] ^ k[0], p1 & MASK32, (p0 >> 32) ^ c[3] ^ k[1], p0 & MASK32]
        k = [(k[0] + 0x9E3779B9) & MASK32, (k[1] + 0xBB67AE85) & MASK32]
    return c


def plus(ctr: list[int], j: int) -> list[int]:
    v = (sum(w << (32 * i) for i, w in enumerate(ctr)) + j) % (1 << 128)
    return [(v >> (32 * i)) & MASK32 for i in range(4)]


def stream(ctr, key, rounds, n) -> np.ndarray:
    return np.array([w for j in range(-(-n // 4)) for w in philox(plus(ctr, j), key, rounds)][:n], np.uint32)


def test_reference_philox_matches_random123_known_answers():
    assert philox([0] * 4, [0, 0], 10) == [0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8]
    assert philox([MASK32] * 4, [MASK32] * 2, 10) == [0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD]
    assert philox([0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344], [0xA4093822, 0x299F31D0], 10) == \
        [0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1]


def test_philox_page_example_float_rounds_10():
    n = 1024
    y, res = run(lambda s, o, t: IR.PhiloxRandom[(IR_rounds(10),)](as_(o, np.float32), [0, 0], [0, 0, 0, 0], n),
                 np.zeros(8, np.uint32), n * 4, 0)
    assert not res.diagnostics.codes()
    got = y.view(np.float32)
    np.testing.assert_allclose(got[[0, 1, 2, -3, -2, -1]],
                               [0.31179297, 0.8263413, 0.6849456, 0.10521233, 0.29894042, 0.96700084], rtol=1e-7)
    want = (stream([0] * 4, [0, 0], 10, n) & 0x7FFFFF).astype(np.float64) * 2.0 ** -23
    assert np.array_equal(got.astype(np.float64), want)
    assert got.min() >= 0 and got.max() < 1


def IR_rounds(r: int):
    from toolkit.ascendc.dtypes import TemplateValue
    return TemplateValue("Rounds", r)


@pytest.mark.parametrize("dt", [np.uint32, np.int32])
@pytest.mark.parametrize("rounds,n", [(7, 37), (10, 1030), (7, 4)])
def test_philox_integer_words(dt, rounds, n):
    key, ctr = [0x12345678, 0x9ABCDEF0], [7, 0, 3, 0x80000000]
    y, res = run(lambda s, o, t: IR.PhiloxRandom(as_(o, dt), key, ctr, n, Rounds=rounds), np.zeros(8, np.uint32),
                 n * 4, 0)
    assert not res.diagnostics.codes()
    assert np.array_equal(y.view(np.uint32)[:n], stream(ctr, key, rounds, n))


def test_philox_counter_carries_across_128_bits():
    ctr, key = [MASK32 - 2, MASK32, MASK32, 4], [1, 2]
    y, res = run(lambda s, o, t: IR.PhiloxRandom(as_(o, np.uint32), key, ctr, 32), np.zeros(8, np.uint32), 128, 0)
    assert not res.diagnostics.codes()
    assert np.array_equal(y.view(np.uint32)[:32], stream(ctr, key, 7, 32))
    # the .asc bridge sends the counter as two 64-bit halves: the same numbers
    halves = [ctr[0] | ctr[1] << 32, ctr[2] | ctr[3] << 32]
    y2, _ = run(lambda s, o, t: IR.PhiloxRandom(as_(o, np.uint32), key, halves, 32), np.zeros(8, np.uint32), 128, 0)
    assert np.array_equal(y, y2)


def test_philox_stride_mode_is_a_window_of_the_continuous_stream():
    """The page's picture: [4, 8] continuous from counter 0 equals two stride calls (counter 0 and 1, stride 8,
    row 4, column 4), each giving its 4 columns of every row."""
    key = [5, 6]
    full = stream([0] * 4, key, 7, 32).reshape(4, 8)
    outs = []
    for c0 in (0, 1):
        p = IR.PhiloxRandomParams(8, 4, 4)
        y, res = run(lambda s, o, t: IR.PhiloxRandom(as_(o, np.uint32), key, [c0, 0, 0, 0], p),
                     np.zeros(8, np.uint32), 64, 0)
        assert not res.diagnostics.codes()
        outs.append(y.view(np.uint32)[:16].reshape(4, 4))
    assert np.array_equal(np.hstack(outs), full)
    p = IR.PhiloxRandomParams(1040, 3, 1028)                     # rows over one chunk of counters
    y, res = run(lambda s, o, t: IR.PhiloxRandom(as_(o, np.int32), key, [9, 0, 0, 0], p, Rounds=10),
                 np.zeros(8, np.uint32), 3 * 1028 * 4, 0)
    assert not res.diagnostics.codes()
    want = stream([9, 0, 0, 0], key, 10, 3 * 1040).reshape(3, 1040)[:, :1028]
    assert np.array_equal(y.view(np.uint32)[:3 * 1028].reshape(3, 1028), want)


@pytest.mark.parametrize("bad", [dict(Rounds=8), dict(params=IR.PhiloxRandomParams(6, 2, 8)),
                                 dict(params=IR.PhiloxRandomParams(8, 2, 6)), dict(dtype=np.int16)])
def test_philox_bad_parameters(bad):
    dt = bad.get("dtype", np.uint32)
    spec = bad.get("params", 16)
    _y, res = run(lambda s, o, t: IR.PhiloxRandom(as_(o, dt), [0, 0], [0] * 4, spec, Rounds=bad.get("Rounds", 7)),
                  np.zeros(8, np.uint32), 256, 0)
    assert "BAD_PARAMETER" in res.diagnostics.codes()


@pytest.mark.parametrize("dt,first,diff,n", [(np.float32, 1.5, 0.25, 300), (np.float32, -3.0, 0.1, 77),
                                             (np.float16, -8.0, 0.5, 40), (np.float16, 0.0, 0.125, 200),
                                             (np.int16, 3, 2, 100), (np.int32, -100, 7, 513), (np.int64, 1 << 40, 3, 70),
                                             (np.float32, 2.0, 0.0, 9), (np.int32, 5, 1, 1)])
def test_arange(dt, first, diff, n):
    dt = np.dtype(dt)
    y, res = run(lambda s, o, t: IR.Arange(as_(o, dt), first, diff, n), np.zeros(8, np.uint8), n * dt.itemsize, 0)
    assert not res.diagnostics.codes()
    got = y.view(dt)[:n]
    if dt.kind == "i":
        assert np.array_equal(got.astype(np.int64), first + diff * np.arange(n, dtype=np.int64))
        return
    # the page's steps in T: the first block by the scalar unit, each later element = block value + offset
    e = 16 if dt.itemsize == 2 else 8
    f, d = dt.type(first), dt.type(diff)
    head = np.array([f + d * dt.type(i) for i in range(e)], dt)
    want = np.empty(n, dt)
    for i in range(n):
        block = e if i < 8 * e else 8 * e
        base = head[i % e] if block == e else want[i % block]
        want[i] = head[i] if i < e else dt.type(base + d * dt.type(i - i % block))
    assert np.array_equal(got, want)
    exact = first + diff * np.arange(n, dtype=np.float64)
    assert np.all(np.abs(got.astype(np.float64) - exact) <= 3 * float(np.finfo(dt).eps) * np.abs(exact).max())


def test_arange_bad_parameters_and_host_query():
    for call in (lambda o: IR.Arange(as_(o, np.float32), 0.0, -1.0, 8), lambda o: IR.Arange(as_(o, np.float32), 0.0,
                                                                                             1.0, 0),
                 lambda o: IR.Arange(as_(o, np.uint32), 0, 1, 8)):
        _y, res = run(lambda s, o, t: call(o), np.zeros(8, np.uint8), 64, 0)
        assert "BAD_PARAMETER" in res.diagnostics.codes()
    for q in (IR.GetArangeMaxMinTmpSize, IR.GetArithProgressionMaxMinTmpSize):
        mx, mn = uint32_t(7), uint32_t(7)
        q(mx, mn)
        assert (mx.value, mn.value) == (0, 0)


@needs_compiler
def test_vendor_style_program_passes(tmp_path):
    run_ = build_and_run(HERE / "index_random.asc", cache=tmp_path / "cache")
    assert run_.failure is None and run_.exit_status == 0, (run_.failure, run_.stdout, run_.stderr)
    assert "PASS" in run_.stdout
