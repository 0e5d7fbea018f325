"""The high-level sorting (高阶API/排序操作) on the Python route: Concat / Sort / Extract / MrgSort against the
pages' examples, the SortConfig Sort (radix and merge, every documented type, ascending and descending,
with and without indices) against a stable numpy argsort, the size helpers and the temporary-buffer rules.
TopK: tests/test_hl_topk.py; the .asc route: tests/hl/sort.asc (run here)."""
from __future__ import annotations

from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from tests.api_support import T, abort_code, get, put
from tests.asc_support import build_and_run, needs_compiler
from toolkit.ascendc import membase as MB
from toolkit.ascendc.dtypes import uint32_t
from toolkit.ascendc.highlevel import sort as S
from toolkit.ascendc.highlevel.shape import TensorShape
from toolkit.ascendc.sysenums import TensorDataType

HERE = Path(__file__).parent / "hl"
BF16 = np.dtype(ml_dtypes.bfloat16)
RADIX = [np.uint8, np.int8, np.uint16, np.int16, np.uint32, np.int32, np.float16, BF16, np.float32, np.uint64,
         np.int64]
A_SRC, A_IDX, A_DST, A_DIDX, A_TMP = 0x0, 0x4000, 0x8000, 0xC000, 0x10000


def _page_blocks(n: int) -> np.ndarray:
    """The pages' input: each block of 32 holds its values in descending order (31..0, 63..32, ...)."""
    return np.concatenate([np.arange(b + 31, b - 1, -1) for b in range(0, n, 32)])


def _entries(ctx, addr: int, dt, n: int) -> tuple[np.ndarray, np.ndarray]:
    raw = get(ctx, addr, np.uint8, 8 * n).reshape(n, 8)
    return raw[:, :np.dtype(dt).itemsize].copy().view(dt).ravel(), raw[:, 4:].copy().view(np.uint32).ravel()


@pytest.mark.parametrize("dt", [np.float16, np.float32])
def test_full_sort_and_extract_the_pages_example(ctx, dt):
    n = 128
    x = _page_blocks(n).astype(dt)
    put(ctx, A_SRC, x)
    put(ctx, A_IDX, x.astype(np.uint32))
    S.Concat(T(A_TMP, dt), T(A_SRC, dt), T(A_TMP + 0x1000, dt), n // 16)
    np.testing.assert_array_equal(get(ctx, A_TMP, dt, n), x)
    S.Sort[dt, True](T(A_DST, dt), T(A_TMP, dt), T(A_IDX, np.uint32), T(A_TMP + 0x2000, dt), n // 32)
    S.Extract(T(A_SRC + 0x1000, dt), T(A_DIDX, np.uint32), T(A_DST, dt), n // 32)
    want = np.arange(n - 1, -1, -1)
    np.testing.assert_array_equal(get(ctx, A_SRC + 0x1000, dt, n), want.astype(dt))
    np.testing.assert_array_equal(get(ctx, A_DIDX, np.uint32, n), want)


def test_sort_without_full_sort_orders_each_block(ctx):
    rng = np.random.default_rng(1)
    x = rng.standard_normal(96).astype(np.float32)
    x[5] = x[7]                                                        # equal scores keep their order
    put(ctx, A_SRC, x)
    put(ctx, A_IDX, np.arange(96, dtype=np.uint32))
    S.Sort(T(A_DST, np.float32), T(A_SRC, np.float32), T(A_IDX, np.uint32), T(A_TMP, np.float32), 3,
           isFullSort=False)
    v, i = _entries(ctx, A_DST, np.float32, 96)
    for b in range(3):
        ref = b * 32 + np.argsort(-x[b * 32:(b + 1) * 32].astype(np.float64), kind="stable")
        np.testing.assert_array_equal(i[b * 32:(b + 1) * 32], ref)
        np.testing.assert_array_equal(v[b * 32:(b + 1) * 32], x[ref])


def test_hl_mrgsort_the_pages_example_and_exhausted_counts(ctx):
    n = 128
    x = _page_blocks(n).astype(np.float16)
    put(ctx, A_SRC, x)
    put(ctx, A_IDX, x.astype(np.uint32))
    MB.Sort32(T(A_DST, np.float16), T(A_SRC, np.float16), T(A_IDX, np.uint32), n // 32)
    base = S.GetSortOffset[np.float16](n // 4)
    q = T(A_DST, np.float16)
    counts, done = [n // 4] * 4, [0, 0, 0, 0]
    MB.MrgSort(T(A_TMP, np.float16), MB.MrgSortSrcList(q, q[base], q[2 * base], q[3 * base]), counts, done, 0b1111, 1)
    v, i = _entries(ctx, A_TMP, np.float16, n)
    np.testing.assert_array_equal(v, np.arange(n - 1, -1, -1).astype(np.float16))
    np.testing.assert_array_equal(i, np.arange(n - 1, -1, -1))
    done = [uint32_t(0) for _ in range(4)]
    MB.MrgSort(T(A_TMP, np.float16), MB.MrgSortSrcList(q, q[base], q[2 * base], q[3 * base]), counts, done, 0b1111, 1,
               isExhaustedSuspension=True)
    assert [d.value for d in done] == [0, 0, 0, 32]                   # the last queue holds the largest scores


def test_sort_len_and_offset_are_in_elements_of_t():
    assert S.GetSortLen[np.float16](128) == 512 and S.GetSortLen[np.float32](128) == 256
    assert S.GetSortOffset(32, np.float16) == 128 and S.GetSortOffset(32, np.float32) == 64
    assert S.GetSortTmpSize(None, 128, 4) == 1024 and S.GetConcatTmpSize(None, 128, 2) == 0


def _data(dt, n: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    dt = np.dtype(dt)
    if dt.kind == "f" or dt == BF16:
        x = (rng.integers(-40, 40, n) * 0.25).astype(np.float32)
        x[: n // 8] = x[n // 2: n // 2 + n // 8]                     # repeated values: stability matters
        x[3] = np.inf
        x[4] = -np.inf
        return x.astype(dt)
    info = np.iinfo(dt)
    lo, hi = max(int(info.min), -(1 << 40)), min(int(info.max), 1 << 40)
    x = rng.integers(lo, hi, n, dtype=np.int64).astype(dt)
    x[: n // 8] = x[n // 2: n // 2 + n // 8]
    x[5], x[6] = info.min, info.max
    return x


def _ref(x: np.ndarray, desc: bool) -> np.ndarray:
    key = x.astype(np.float64) if x.dtype.itemsize < 8 else x.astype(object)
    order = sorted(range(x.size), key=lambda k: key[k], reverse=False)
    if desc:                                   # stable descending: equal keys keep their input order
        order = sorted(range(x.size), key=lambda k: key[k], reverse=True)
    return np.array(order, np.int64)


def _run_config(ctx, x, desc: bool, merge: bool, form: str, idx_dt=np.uint32):
    n = x.size
    dt = x.dtype
    put(ctx, A_SRC, x)
    src_idx = (np.arange(n) * 3 + 7).astype(idx_dt)
    put(ctx, A_IDX, src_idx)
    cfg = S.SortConfig(S.SortType.MERGE_SORT if merge else S.SortType.RADIX_SORT, desc)
    need = S.sort_tmp_bytes(n, dt.itemsize, merge)
    tmp = T(A_TMP, np.uint8, need)
    dst, src = T(A_DST, dt, n), T(A_SRC, dt, n)
    if form == "plain":
        S.Sort(dst, src, tmp, n, config=cfg)
    elif form == "dst_index":
        S.Sort(dst, T(A_DIDX, np.uint32, n), src, tmp, n, config=cfg)
    else:
        S.Sort(dst, T(A_DIDX, idx_dt, n), src, T(A_IDX, idx_dt, n), tmp, n, config=cfg)
    order = _ref(x, desc)
    np.testing.assert_array_equal(get(ctx, A_DST, dt, n).view(np.uint8), x[order].view(np.uint8))
    if form == "dst_index":
        np.testing.assert_array_equal(get(ctx, A_DIDX, np.uint32, n), order)
    elif form == "both":
        np.testing.assert_array_equal(get(ctx, A_DIDX, idx_dt, n), src_idx[order])


@pytest.mark.parametrize("dt", RADIX, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("desc", [False, True])
def test_radix_sort_every_type_is_a_stable_sort(ctx, dt, desc):
    _run_config(ctx, _data(dt, 200), desc, False, "dst_index")


@pytest.mark.parametrize("form, idx_dt", [("plain", np.uint32), ("dst_index", np.uint32),
                                           *(("both", u) for u in (np.uint32, np.int32, np.uint64, np.int64))])
def test_radix_sort_forms_and_index_types(ctx, form, idx_dt):
    _run_config(ctx, _data(np.int16, 77, 3), True, False, form, idx_dt)


@pytest.mark.parametrize("dt", [np.float16, np.float32])
@pytest.mark.parametrize("desc", [False, True])
@pytest.mark.parametrize("form", ["plain", "dst_index", "both"])
def test_merge_sort_is_a_stable_sort(ctx, dt, desc, form):
    _run_config(ctx, _data(dt, 160, 2), desc, True, form)


def test_radix_sort_the_pages_example(ctx):
    n = 1024
    x = np.arange(n - 1, -1, -1).astype(np.float16)
    put(ctx, A_SRC, x)
    put(ctx, A_IDX, np.arange(n, dtype=np.uint32))
    tmp = T(A_TMP, np.uint8, S.sort_tmp_bytes(n, 2, False))
    config = S.SortConfig(S.SortType.RADIX_SORT, False)
    S.Sort[np.float16, np.uint32, False, config](T(A_DST, np.float16, n), T(A_DIDX, np.uint32, n),
                                                  T(A_SRC, np.float16, n), T(A_IDX, np.uint32, n), tmp, n)
    np.testing.assert_array_equal(get(ctx, A_DST, np.float16, n), np.arange(n).astype(np.float16))
    np.testing.assert_array_equal(get(ctx, A_DIDX, np.uint32, n), np.arange(n - 1, -1, -1))


def test_sort_the_framework_buffer_and_zero_count(ctx):
    x = _data(np.float32, 64)
    put(ctx, A_SRC, x)
    S.Sort(T(A_DST, np.float32, 64), T(A_SRC, np.float32, 64), 64)              # default: RADIX_SORT ascending
    np.testing.assert_array_equal(get(ctx, A_DST, np.float32, 64), x[_ref(x, False)])
    S.Sort(T(A_DST, np.float32, 64), T(A_SRC, np.float32, 64), 0)


def test_sort_bad_parameters_fail_loudly(ctx):
    put(ctx, A_SRC, np.zeros(64, np.float32))
    merge = S.SortConfig(S.SortType.MERGE_SORT, False)
    assert abort_code(lambda: S.Sort(T(A_DST, np.float32, 64), T(A_SRC, np.float32, 64),
                                     T(A_TMP, np.uint8, 8192), 40, config=merge)) == "BAD_PARAMETER"
    assert abort_code(lambda: S.Sort(T(A_DST, np.float32, 64), T(A_SRC, np.float32, 64),
                                     T(A_TMP, np.uint8, 64), 64)) == "BAD_PARAMETER"           # tmp too small
    assert abort_code(lambda: S.Sort(T(A_DST, np.float32, 64), T(A_SRC, np.float32, 64),
                                     T(A_TMP, np.uint8, 1 << 16), 65)) == "BAD_PARAMETER"      # beyond the tensors


def test_full_sort_checks_its_operands(ctx):
    put(ctx, A_SRC, np.zeros(64, np.float32))
    put(ctx, A_IDX, np.zeros(64, np.uint32))
    args = (T(A_DST, np.float32), T(A_SRC, np.float32), T(A_IDX, np.uint32))
    assert abort_code(lambda: S.Sort(*args, T(A_TMP, np.float32, 64), 2, isFullSort=True)) == "BAD_PARAMETER"
    assert abort_code(lambda: S.Sort(*args, T(A_TMP, np.float32), 256, isFullSort=True)) == "BAD_PARAMETER"
    assert abort_code(lambda: S.Sort(T(A_DST, np.float32), T(A_SRC, np.float32), T(A_IDX, np.int32),
                                     T(A_TMP, np.float32), 2, isFullSort=True)) == "BAD_PARAMETER"


def test_sort_max_min_tmp_size_is_the_kernels_need(ctx):
    mx, mn = uint32_t(0), uint32_t(0)
    cfg = S.SortConfig(S.SortType.RADIX_SORT, True, False, True)
    S.GetSortMaxMinTmpSize(TensorShape([300]), TensorDataType.DT_INT32, TensorDataType.DT_UINT32, False, cfg, mx, mn)
    assert mx.value == mn.value == S.sort_tmp_bytes(300, 4, False)
    x = _data(np.int32, 300)
    put(ctx, A_SRC, x)
    S.Sort(T(A_DST, np.int32, 300), T(A_SRC, np.int32, 300), T(A_TMP, np.uint8, mn.value), 300, config=cfg)
    np.testing.assert_array_equal(get(ctx, A_DST, np.int32, 300), x[_ref(x, True)])
    S.GetSortMaxMinTmpSize(TensorShape([64]), TensorDataType.DT_FLOAT, TensorDataType.DT_UINT32, False,
                           S.SortConfig(S.SortType.MERGE_SORT), mx, mn)
    assert mn.value == S.merge_tmp_bytes(64, 4)


@needs_compiler
def test_vendor_style_sort_program_passes(tmp_path):
    run_ = build_and_run(HERE / "sort.asc", cache=tmp_path / "cache")
    assert run_.failure is None and run_.exit_status == 0, (run_.failure, run_.stdout, run_.stderr)
    assert "PASS" in run_.stdout
