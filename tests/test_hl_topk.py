"""TopK (高阶API/排序操作) on the Python route: the page's Normal and Small examples, MERGE_SORT and RADIX_SELECT
against a stable numpy reference (largest / smallest, with and without init index, padded rows, finish rows),
and the host helpers (GetTopKMaxMinTmpSize, TopKTilingFunc) against the kernel's temporary need."""
from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from tests.api_support import T, abort_code, get, put
from toolkit.ascendc.dtypes import uint32_t
from toolkit.ascendc.highlevel import topk as K
from toolkit.ascendc.sysenums import TensorDataType

A_SRC, A_IDX, A_FIN, A_DV, A_DI, A_TMP = 0x0, 0x8000, 0xA000, 0xB000, 0xD000, 0x10000
BF16 = np.dtype(ml_dtypes.bfloat16)
NORMAL_X = np.array([
    [-18096.555, -11389.83, -43112.895, -21344.77, 57755.918, 50911.145, 24912.621, -12683.089, 45088.004, -39351.043,
     -30153.293, 11478.329, 12069.15, -9215.71, 45716.44, -21472.398, -37372.16, -17460.414, 22498.03, 21194.838,
     -51229.17, -51721.918, -47510.38, 47899.11, 43008.176, 5495.8975, -24176.97, -14308.27, 53950.695, 7652.6035,
     -45169.168, -26275.518],
    [-9196.681, -31549.518, 18589.23, -12427.927, 50491.81, -20078.11, -25606.107, -34466.773, -42512.805, 50584.48,
     35919.934, -17283.5, 6488.137, -12885.134, 1942.2147, -50611.96, 52671.477, 23179.662, 25814.875, -69.73492,
     33906.797, -34662.61, 46168.71, -52391.258, 57435.332, 50269.414, 40935.05, 21164.176, 4028.458, -29022.918,
     -46391.133, 1971.2042]], np.float32)
SMALL_X = np.array([
    [55492.18, 27748.229, -51100.11, 19276.926, 14828.149, -20771.824, 57553.4, -21504.092, -57423.414, 142.36443,
     -5223.254, 54669.473, 54519.184, 10165.924, -658.4564, 2264.2397, -52942.883],
    [-52849.074, 57778.72, 37069.496, 16273.109, -25150.637, -35680.5, -15823.097, 4327.308, -35853.86, -7052.2627,
     44148.117, -17515.457, -18926.059, -1650.6737, 21753.582, -2589.2822, 39390.4],
    [-17539.186, -15220.923, 29945.332, -4088.1514, 28482.525, 29750.484, -46082.03, 31141.16, 23140.047, 8461.174,
     39955.844, 29401.35, 53757.543, 33584.566, -3543.6284, -38318.344, 22212.41],
    [-9970.768, -9191.963, -17903.045, 2211.4912, 47037.562, -41114.824, 13305.985, 59926.07, -24316.797, -6462.8896,
     5699.733, -5873.5015, 15695.861, -38492.004, 19581.654, -36877.68, 27090.158]], np.float32)


def _run(ctx, x: np.ndarray, k: int, *, inner: int, largest: bool = True, init=False, finish=None, small=False,
         algo=K.TopKAlgo.MERGE_SORT, tmp=True, idx=None):
    rows, n = x.shape
    dt = x.dtype
    src = np.zeros((rows, inner), dt)
    src[:, :n] = x
    put(ctx, A_SRC, src)
    if idx is None:
        idx = np.tile(np.arange(inner, dtype=np.int32), (rows if small else 1, 1))
    put(ctx, A_IDX, idx)
    if finish is not None:
        put(ctx, A_FIN, np.array(finish + [False] * (32 - len(finish)), np.uint8))
    info = K.TopKInfo(rows, inner, n)
    mode = K.TopKMode.TOPK_NSMALL if small else K.TopKMode.TOPK_NORMAL
    radix = algo == K.TopKAlgo.RADIX_SELECT
    need = K.topk_tmp_bytes(inner, rows, k, dt.itemsize, small, radix)
    tl = [T(A_TMP, np.uint8, need)] if tmp else []
    K.TopK(T(A_DV, dt), T(A_DI, np.int32), T(A_SRC, dt), T(A_IDX, np.int32), T(A_FIN, np.uint8), *tl, k,
           K.TopkTiling(), info, largest, isInitIndex=init, isHasfinish=finish is not None, topkMode=mode,
           config=K.TopKConfig(algo, K.TopKOrder.UNSET, True))
    kp, kpi = (k, k) if small else (K.kpad(k, dt.itemsize), K.kpad(k, 4))
    v = get(ctx, A_DV, dt, rows * kp).reshape(rows, kp)[:, :k]
    i = get(ctx, A_DI, np.int32, rows * kpi).reshape(rows, kpi)[:, :k]
    return v, i


def _ref(x: np.ndarray, k: int, largest: bool) -> np.ndarray:
    key = x.astype(np.float64) if x.dtype.itemsize < 8 else x.astype(object)
    return np.array([sorted(range(x.shape[1]), key=lambda j: row[j], reverse=largest)[:k] for row in key])


def test_normal_mode_the_pages_example(ctx):
    v, i = _run(ctx, NORMAL_X, 5, inner=32, largest=False, init=True, finish=[False, True])
    _check_page_normal(v, i)
    put(ctx, A_SRC, NORMAL_X)                                   # the page's call, template arguments in order
    K.TopK[np.float32, True, True, False, K.TopKMode.TOPK_NORMAL, K.TopKConfig()](
        T(A_DV, np.float32), T(A_DI, np.int32), T(A_SRC, np.float32), T(A_IDX, np.int32), T(A_FIN, np.uint8),
        T(A_TMP, np.uint8, 1 << 14), 5, K.TopkTiling(), K.TopKInfo(2, 32, 32), False)
    _check_page_normal(get(ctx, A_DV, np.float32, 16).reshape(2, 8)[:, :5],
                       get(ctx, A_DI, np.int32, 16).reshape(2, 8)[:, :5])


def _check_page_normal(v, i):
    np.testing.assert_array_equal(v, np.array([[-51721.918, -51229.17, -47510.38, -45169.168, -43112.895],
                                               [-52391.258, -50611.96, -46391.133, -42512.805, -34662.61]], np.float32))
    np.testing.assert_array_equal(i, [[21, 20, 22, 30, 2], [32, 32, 32, 32, 32]])


def test_small_mode_the_pages_example(ctx):
    v, i = _run(ctx, SMALL_X, 8, inner=32, init=True, small=True,
                idx=np.tile(np.arange(32, dtype=np.int32), (4, 1)))
    np.testing.assert_array_equal(i, [[6, 0, 11, 12, 1, 3, 4, 13], [1, 10, 16, 2, 14, 3, 7, 13],
                                      [12, 10, 13, 7, 2, 5, 11, 4], [7, 4, 16, 14, 12, 6, 10, 3]])
    np.testing.assert_array_equal(v, np.take_along_axis(SMALL_X, i, 1))


def _values(dt, shape, seed=0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    dt = np.dtype(dt)
    if dt.kind == "f" or dt == BF16:
        x = (rng.integers(-50, 50, shape) * 0.5).astype(np.float32)
        return x.astype(dt)
    info = np.iinfo(dt)
    return rng.integers(max(int(info.min), -(1 << 40)), min(int(info.max), 1 << 40), shape, dtype=np.int64).astype(dt)


@pytest.mark.parametrize("dt", [np.float16, np.float32])
@pytest.mark.parametrize("largest", [True, False])
@pytest.mark.parametrize("init", [True, False])
@pytest.mark.parametrize("shape, inner, small", [((3, 100), 128, False), ((2, 256), 256, False),
                                                 ((5, 32), 32, True), ((3, 20), 32, True)])
def test_merge_sort_topk_against_a_stable_reference(ctx, dt, largest, init, shape, inner, small):
    x = _values(dt, shape, 1)
    k = min(7, shape[1])
    v, i = _run(ctx, x, k, inner=inner, largest=largest, init=init, small=small, tmp=not init)
    order = _ref(x, k, largest)
    np.testing.assert_array_equal(i, order)
    np.testing.assert_array_equal(v, np.take_along_axis(x, order, 1))


RADIX = [np.uint8, np.int8, np.uint16, np.int16, np.uint32, np.int32, np.float16, BF16, np.float32, np.uint64,
         np.int64]


@pytest.mark.parametrize("dt", RADIX, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("largest", [True, False])
@pytest.mark.parametrize("small", [False, True])
def test_radix_select_topk_every_type(ctx, dt, largest, small):
    x = _values(dt, (3, 30 if small else 50), 2)
    k = 5
    v, i = _run(ctx, x, k, inner=32 if small else 64, largest=largest, init=small, small=small,
                algo=K.TopKAlgo.RADIX_SELECT, idx=np.tile(np.arange(32 if small else 64, dtype=np.int32),
                                                          (3 if small else 1, 1)))
    order = _ref(x, k, largest)
    np.testing.assert_array_equal(i, order)
    np.testing.assert_array_equal(v.view(np.uint8), np.take_along_axis(x, order, 1).view(np.uint8))


def test_config_order_overrides_is_largest(ctx):
    x = _values(np.float32, (2, 32), 4)
    put(ctx, A_SRC, x)
    info = K.TopKInfo(2, 32, 32)
    K.TopK(T(A_DV, np.float32), T(A_DI, np.int32), T(A_SRC, np.float32), T(A_IDX, np.int32), T(A_FIN, np.uint8), 4,
           K.TopkTiling(), info, True, config=K.TopKConfig(K.TopKAlgo.RADIX_SELECT, K.TopKOrder.SMALLEST, False))
    np.testing.assert_array_equal(get(ctx, A_DI, np.int32, 16).reshape(2, 8)[:, :4], _ref(x, 4, False))


def test_topk_bad_parameters_fail_loudly(ctx):
    args = (T(A_DV, np.float32), T(A_DI, np.int32), T(A_SRC, np.float32), T(A_IDX, np.int32), T(A_FIN, np.uint8))
    assert abort_code(lambda: K.TopK(*args, 9, K.TopkTiling(), K.TopKInfo(1, 32, 8))) == "BAD_PARAMETER"   # k > n
    assert abort_code(lambda: K.TopK(*args, 1, K.TopkTiling(), K.TopKInfo(1, 48, 40))) == "BAD_PARAMETER"  # inner
    assert abort_code(lambda: K.TopK(*args, 1, K.TopkTiling(), K.TopKInfo(1, 64, 64),
                                     topkMode=K.TopKMode.TOPK_NSMALL)) == "BAD_PARAMETER"
    put(ctx, A_SRC, np.zeros(64, np.int32))
    iargs = (T(A_DV, np.int32), T(A_DI, np.int32), T(A_SRC, np.int32), T(A_IDX, np.int32), T(A_FIN, np.uint8))
    assert abort_code(lambda: K.TopK(*iargs, 1, K.TopkTiling(), K.TopKInfo(1, 32, 32))) == "BAD_PARAMETER"  # merge


def test_host_helpers_give_the_kernels_need():
    mx, mn = uint32_t(0), uint32_t(0)
    assert K.GetTopKMaxMinTmpSize(None, 64, 3, False, True, K.TopKMode.TOPK_NORMAL, True, 4, mx, mn)
    assert mx.value == mn.value == K.topk_tmp_bytes(64, 3, 64, 4, False, False)
    assert K.GetTopKMaxMinTmpSize(32, 4, 8, False, True, K.TopKMode.TOPK_NSMALL, True, TensorDataType.DT_INT32,
                                  K.TopKConfig(K.TopKAlgo.RADIX_SELECT), mx, mn)
    assert mn.value == K.topk_tmp_bytes(32, 4, 8, 4, True, True)
    assert not K.GetTopKMaxMinTmpSize(None, 48, 3, False, True, K.TopKMode.TOPK_NORMAL, True, 4, mx, mn)
    assert not K.GetTopKMaxMinTmpSize(None, 64, 3, False, True, K.TopKMode.TOPK_NSMALL, True, 4, mx, mn)
    t = K.TopKTilingFunc(None, 64, 2, 5, 2, True, K.TopKMode.TOPK_NORMAL, True)
    assert (t.innerDataSize, t.allDataSize, t.sortRepeat, t.kAlignTwoBytes, t.kAlignFourBytes) == (64, 128, 2, 16, 8)
    assert t.tmpLocalSize == K.topk_tmp_bytes(64, 2, 5, 2, False, False)


@pytest.mark.parametrize("algo", [K.TopKAlgo.MERGE_SORT, K.TopKAlgo.RADIX_SELECT])
@pytest.mark.parametrize("largest", [True, False])
@pytest.mark.parametrize("dt", [np.float16, np.float32])
def test_nan_first_and_inf_largest(ctx, algo, largest, dt):
    """The page: NaN first in either order, inf the largest value."""
    x = _values(dt, (2, 40), 5)
    x[0, 7] = np.nan
    x[1, 3] = -np.nan
    x[1, 30] = np.nan
    x[0, 20], x[1, 0] = np.inf, -np.inf
    v, i = _run(ctx, x, 4, inner=64, largest=largest, algo=algo)
    assert list(i[0][:1]) == [7] and list(i[1][:2]) == [3, 30]
    assert np.isnan(v[0, 0]) and np.isnan(v[1, :2]).all()
    rest = [sorted((j for j in range(40) if not np.isnan(x[r, j])), key=lambda j: float(x[r, j]),
                   reverse=largest)[:4 - (1 if r == 0 else 2)] for r in range(2)]
    assert list(i[0][1:]) == rest[0] and list(i[1][2:]) == rest[1]
    assert (x[0, i[0][1]] == np.inf) == largest and (x[1, i[1][2]] == -np.inf) == (not largest)
