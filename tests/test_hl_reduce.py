"""The high-level reductions (高阶API/归约操作) on the Python route: Sum / Mean (the pages' binary tree: bit-exact
against a numpy tree written from the page, and within the tree's error bound of a float64 sum), ReduceXorSum
(exact, saturated), the pattern reductions ReduceSum / ReduceMean / ReduceMax / ReduceMin / ReduceAny /
ReduceAll / ReduceProd (AR and RA, aligned and dense unaligned rows, every Ascend 950 type, with and without
sharedTmpBuffer, isReuseSource), the pages' examples, the host queries against the kernel's needs, bad
parameters; and the vendor-style .asc program."""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from tests.asc_support import build_and_run, needs_compiler
from tests.hl_support import as_, run
from toolkit.ascendc import membase as MB
from toolkit.ascendc.dtypes import uint32_t
from toolkit.ascendc.highlevel import reduce as HR
from toolkit.ascendc.highlevel import reduce_pattern as RP
from toolkit.ascendc.highlevel.shape import TensorShape
from toolkit.ascendc.membase.types import BY_NAME
from toolkit.ascendc.sysenums import ReducePattern, TensorDataType

HERE = Path(__file__).parent / "hl"
F16, F32 = np.dtype(np.float16), np.dtype(np.float32)
AR, RA = RP.Pattern.Reduce.AR, RP.Pattern.Reduce.RA


def tree(x: np.ndarray) -> np.generic:
    """The page's sum: per 256 B repeat an adjacent-pair binary tree (pad lanes 0) in the element type; more
    than one repeat: the partial sums tree-summed the same way."""
    dt = x.dtype
    lanes = 256 // dt.itemsize
    chunks = []
    for k in range(0, max(x.size, 1), lanes):
        v = np.zeros(lanes, dt)
        part = x[k:k + lanes]
        v[:part.size] = part
        while v.size > 1:
            v = (v[0::2] + v[1::2]).astype(dt)
        chunks.append(v[0])
    p = np.array(chunks, dt)
    return p[0] if p.size == 1 else tree(p)


def tree_bound(x: np.ndarray) -> float:
    """|tree sum - exact sum| <= levels * u * sum |x| (u the unit roundoff of the type, 1 + levels per pass)."""
    levels = math.ceil(math.log2(max(x.size, 2))) + 2
    return levels * float(np.finfo(x.dtype).eps) * float(np.abs(x.astype(np.float64)).sum()) + 1e-30


def _padded(rows: int, n: int, dt, seed: int = 0) -> tuple[np.ndarray, int]:
    inner = -(-n * np.dtype(dt).itemsize // 32) * 32 // np.dtype(dt).itemsize
    x = np.zeros((rows, inner), dt)
    x[:, :n] = (np.random.default_rng(seed).standard_normal((rows, n)) * 4).astype(dt)
    return x, inner


@pytest.mark.parametrize("dt,rows,n", [(F32, 3, 5), (F32, 2, 64), (F32, 4, 300), (F16, 5, 130), (F16, 2, 3),
                                       (F32, 1, 4100), (F32, 260, 8)])
def test_sum_is_the_pages_binary_tree(dt, rows, n):
    x, inner = _padded(rows, n, dt, seed=n)
    mx, mn = uint32_t(0), uint32_t(0)
    HR.GetSumMaxMinTmpSize(n, dt.itemsize, False, mx, mn)
    assert mx.value == mn.value >= 32
    y, res = run(lambda s, o, t: HR.Sum(as_(o, dt), as_(s, dt), t, HR.SumParams(rows, inner, n)), x,
                 rows * dt.itemsize, mn.value)
    assert not res.diagnostics.codes()
    got = y.view(dt)[:rows]
    for r in range(rows):
        assert got[r] == tree(x[r, :n]), r                                           # bit-exact: the page's order
        assert abs(float(got[r]) - x[r, :n].astype(np.float64).sum()) <= tree_bound(x[r, :n])


def test_sum_and_mean_pages_examples():
    x = np.array([[1, 2, 3] + [0] * 13, [4, 5, 6] + [0] * 13], F16)
    y, res = run(lambda s, o, t: (HR.Sum(as_(o, F16), as_(s, F16), t, HR.SumParams(2, 16, 3)),
                                  HR.Mean(as_(o[64], F16), as_(s, F16), t, HR.MeanParams(2, 16, 3)),
                                  HR.Mean[F16, HR_acc(4)](as_(o[128], F16), as_(s, F16), HR.MeanParams(2, 16, 3))),
                 x, 256)
    assert not res.diagnostics.codes()
    assert list(y[:4].view(F16)) == [6, 15] and list(y[64:68].view(F16)) == [2, 5]
    assert list(y[128:132].view(F16)) == [2, 5]


def HR_acc(size: int):
    from toolkit.ascendc.dtypes import TemplateValue
    return TemplateValue("accType", size)


@pytest.mark.parametrize("dt,acc,rows,n", [(F32, 4, 3, 37), (F16, 2, 4, 100), (F16, 4, 20, 77), (F32, 4, 2, 700)])
def test_mean_sums_then_divides(dt, acc, rows, n):
    x, inner = _padded(rows, n, dt, seed=rows + n)
    mx, mn = uint32_t(0), uint32_t(0)
    HR.GetMeanMaxMinTmpSize(n, dt.itemsize, acc, False, mx, mn)
    y, res = run(lambda s, o, t: HR.Mean(as_(o, dt), as_(s, dt), t, HR.MeanParams(rows, inner, n), accType=acc),
                 x, rows * dt.itemsize, mn.value)
    assert not res.diagnostics.codes()
    got = y.view(dt)[:rows].astype(np.float64)
    adt = F32 if acc == 4 else dt
    for r in range(rows):
        want = np.array(tree(x[r, :n].astype(adt)) / adt.type(n), adt).astype(dt)  # sum, then one division
        assert got[r] == float(want), r
        exact = x[r, :n].astype(np.float64).mean()
        assert abs(got[r] - exact) <= tree_bound(x[r, :n].astype(adt)) / n + float(np.finfo(dt).eps) * abs(exact) * 2


def test_mean_factor_size_covers_the_kernel():
    live, extra = uint32_t(0), uint32_t(0)
    for ts, acc in ((2, 4), (4, 4)):
        HR.GetMeanTmpBufferFactorSize(ts, live, extra)
        mx, mn = uint32_t(0), uint32_t(0)
        for n in (64, 1000, 5000):
            HR.GetMeanMaxMinTmpSize(n, ts, acc, False, mx, mn)
            assert live.value * n * ts + extra.value >= mn.value


@pytest.mark.parametrize("reuse", [False, True])
@pytest.mark.parametrize("n", [32, 1, 333, 5000])
def test_reduce_xor_sum_exact(n, reuse):
    rng = np.random.default_rng(n)
    a = rng.integers(-30, 30, n).astype(np.int16)
    b = rng.integers(-30, 30, n).astype(np.int16)
    off = -(-n * 2 // 32) * 16
    x = np.zeros(2 * off, np.int16)
    x[:n], x[off:off + n] = a, b
    mx, mn = uint32_t(0), uint32_t(0)
    HR.GetReduceXorSumMaxMinTmpSize(TensorShape([n]), 2, reuse, mx, mn)
    y, res = run(lambda s, o, t: HR.ReduceXorSum(as_(o, np.int16), as_(s, np.int16), as_(s, np.int16)[off], t, n,
                                                 isReuseSource=reuse), x, 32, mn.value)
    assert not res.diagnostics.codes()
    assert int(y[:2].view(np.int16)[0]) == int(np.sum((a ^ b).astype(np.int64)))


def test_reduce_xor_sum_page_example_and_saturation():
    x = np.concatenate([np.zeros(32, np.int16), np.ones(32, np.int16)])
    y, res = run(lambda s, o, t: HR.ReduceXorSum[np.int16, False](as_(o, np.int16), as_(s, np.int16),
                                                                as_(s, np.int16)[32], t, 32), x, 32)
    assert not res.diagnostics.codes() and y[:2].view(np.int16)[0] == 32
    for fill, want in ((0x4000, 32767), (-0x4000, -32768)):
        x = np.concatenate([np.full(64, fill, np.int16), np.zeros(64, np.int16)])
        y, res = run(lambda s, o, t: HR.ReduceXorSum(as_(o, np.int16), as_(s, np.int16), as_(s, np.int16)[64], 64),
                     x, 32, 0)
        assert not res.diagnostics.codes() and y[:2].view(np.int16)[0] == want


# -- the pattern reductions ------------------------------------------------------------------------------------
_NP = {"ReduceSum": np.sum, "ReduceMean": np.mean, "ReduceMax": np.max, "ReduceMin": np.min, "ReduceAny": np.max,
       "ReduceAll": np.min, "ReduceProd": np.prod}


def _data(api: str, dt: np.dtype, shape: tuple, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    if api in ("ReduceAny", "ReduceAll"):
        return (rng.random(shape) < (0.8 if api == "ReduceAll" else 0.15)).astype(dt)
    if api == "ReduceProd":
        return rng.uniform(0.5, 1.5, shape).astype(dt)
    if dt.kind == "f" or dt == BY_NAME["bfloat16_t"]:
        return (rng.standard_normal(shape) * 8).astype(np.float32).astype(dt)
    info = np.iinfo(dt)
    lo, hi = (max(info.min, -1000), min(info.max, 1000)) if api == "ReduceSum" else (info.min, info.max)
    return rng.integers(lo, hi, shape, dtype=dt, endpoint=True)


def _reduce(api: str, dt, x: np.ndarray, pattern, tmp: bool = True, reuse: bool = False):
    d0, d1 = x.shape
    pat = pattern.value
    mx, mn = uint32_t(0), uint32_t(0)
    tdt = {v: k for k, v in _TDT.items()}[np.dtype(dt)]
    getattr(RP, f"Get{api}MaxMinTmpSize")(TensorShape([d0, d1]), tdt, ReducePattern(pat), True, reuse, mx, mn)
    fn = getattr(MB, api) if api in ("ReduceSum", "ReduceMax", "ReduceMin") else getattr(RP, api)
    d = d0 if pat == 0 else d1

    def body(s, o, t):
        args = (t,) if tmp else ()
        fn[np.dtype(dt), pattern, reuse](as_(o, dt), as_(s, dt), *args, [d0, d1], True)
    y, res = run(body, x, d * np.dtype(dt).itemsize, mn.value if tmp else 0)
    return y.view(dt)[:d], res


_TDT = {TensorDataType.DT_FLOAT: F32, TensorDataType.DT_FLOAT16: F16, TensorDataType.DT_INT8: np.dtype(np.int8),
        TensorDataType.DT_UINT8: np.dtype(np.uint8), TensorDataType.DT_INT16: np.dtype(np.int16),
        TensorDataType.DT_UINT16: np.dtype(np.uint16), TensorDataType.DT_INT32: np.dtype(np.int32),
        TensorDataType.DT_UINT32: np.dtype(np.uint32), TensorDataType.DT_INT64: np.dtype(np.int64),
        TensorDataType.DT_UINT64: np.dtype(np.uint64), TensorDataType.DT_BF16: BY_NAME["bfloat16_t"]}
_CASES = [(api, t) for api, (_op, types) in RP.OPS.items() for t in types]


@pytest.mark.parametrize("api,tname", _CASES)
@pytest.mark.parametrize("pattern", [AR, RA])
def test_pattern_reductions_every_type(api, tname, pattern):
    dt = BY_NAME[tname]
    for k, shape in enumerate(((5, 64), (7, 13))):             # 32 B rows and dense unaligned rows
        x = _data(api, dt, shape, seed=k + len(api) + pattern.value)
        got, res = _reduce(api, dt, x, pattern)
        assert not res.diagnostics.codes(), (shape, res.diagnostics.codes())
        axis = 1 if pattern.value == 0 else 0
        ints = dt.kind in "iu"
        wide = x.astype(np.int64 if dt.kind == "i" else np.uint64) if ints else x.astype(np.float64)
        want = _NP[api](wide, axis=axis)
        if api in ("ReduceMax", "ReduceMin", "ReduceAny", "ReduceAll") or ints:
            assert np.array_equal(got if ints else got.astype(np.float64), want.astype(dt) if ints else want), (
                shape, got, want)
        else:
            m = x.shape[1 - axis]
            levels = math.ceil(math.log2(max(m, 2))) + 1
            eps = float(np.finfo(np.float32).eps)
            scale = np.abs(wide).sum(axis=axis) / (m if api == "ReduceMean" else 1)
            bound = levels * eps * (np.abs(want) if api == "ReduceProd" else scale) + eps * np.abs(want) + 1e-30
            assert np.all(np.abs(got.astype(np.float64) - want) <= bound), (shape, got, want)


_PAGE = np.array([[0, 4, 2, 0, -1, 2, -1, 7], [0, 1, -9, 2, 2, 2, 8, 3]], F32)
_BITS = np.array([[0, 1, 1, 0, 1, 0, 1, 1], [0, 1, 0, 1, 0, 1, 1, 0]], F32)
_PROD = np.array([[1, 2, 3, 4, 5, 6, 7, 8], [1, 2, 0.5, 4, 0.5, 0.5, 5, 6]], F32)


@pytest.mark.parametrize("api,x,want", [("ReduceSum", _PAGE, [13, 9]), ("ReduceMean", _PAGE, [1.625, 1.125]),
                                        ("ReduceMax", _PAGE, [7, 8]), ("ReduceMin", _PAGE, [-1, -9]),
                                        ("ReduceAny", _BITS, [1, 1]), ("ReduceAll", _BITS, [0, 0]),
                                        ("ReduceProd", _PROD, [40320, 30])])
def test_pattern_pages_examples(api, x, want):
    got, res = _reduce(api, F32, x, AR, reuse=True)
    assert not res.diagnostics.codes() and list(got) == want


def test_reduce_max_page_unaligned_half_example():
    x = np.array([[0, 4, 2, 0, -1], [0, 1, -9, 2, 2]], F16)
    got, res = _reduce("ReduceMax", F16, x, AR, reuse=False)
    assert not res.diagnostics.codes() and list(got) == [4, 2]


@pytest.mark.parametrize("reuse", [False, True])
@pytest.mark.parametrize("tmp", [True, False])
def test_pattern_framework_buffer_and_reuse(tmp, reuse):
    x = _data("ReduceSum", F32, (9, 32), 3)
    got, res = _reduce("ReduceSum", F32, x, RA, tmp=tmp, reuse=reuse)
    assert not res.diagnostics.codes()
    np.testing.assert_allclose(got, x.astype(np.float64).sum(0), rtol=1e-5, atol=1e-4)


def test_pattern_tmp_query_is_the_kernels_minimum():
    x = _data("ReduceMin", F32, (6, 10), 1)
    mx, mn = uint32_t(0), uint32_t(0)
    RP.GetReduceMinMaxMinTmpSize(TensorShape([6, 10]), TensorDataType.DT_FLOAT, ReducePattern.AR, True, False, mx, mn)
    assert mx.value == mn.value == RP.pattern_tmp_bytes(0, 6, 10, 4, False)

    def body(s, o, t):
        MB.ReduceMin[F32, AR, False](as_(o, F32), as_(s, F32), _short(t, mn.value), [6, 10], True)
    _y, res = run(body, x, 64, mn.value)
    assert "BAD_PARAMETER" in res.diagnostics.codes()


def _short(t, size):
    from toolkit.ascendc.tensor import LocalTensor
    return LocalTensor(t.addr, t.dtype, size - 32, t.position)


@pytest.mark.parametrize("call,code", [
    (lambda d, s, t: RP.ReduceSum(d, s, t, [2, 8], True), "BAD_PARAMETER"),                     # no pattern
    (lambda d, s, t: RP.ReduceSum(d, s, t, [2, 2, 4], True, pattern=0), "BAD_PARAMETER"),       # 3-D
    (lambda d, s, t: RP.ReduceProd(as_(d, np.int32), as_(s, np.int32), t, [2, 8], True, pattern=1), "BAD_PARAMETER"),
    (lambda d, s, t: HR.Sum(d, s, t, HR.SumParams(2, 12, 3)), "BAD_PARAMETER"),                 # inner not 32 B
    (lambda d, s, t: HR.ReduceXorSum(d, s, s, t, 8), "BAD_PARAMETER"),                           # float tensors
    (lambda d, s, t: RP.ReduceMax(d, s, as_(d, np.uint8), [2, 8], True, pattern=0), "BAD_PARAMETER"),  # overlap
    (lambda d, s, t: HR.Sum(d, s, t, HR.SumParams(2, 8, 9)), "BAD_PARAMETER"),                  # n > inner
    (lambda d, s, t: HR.Sum(d, s, t, HR.SumParams(2, 8, 0)), "BAD_PARAMETER"),                  # n == 0
    (lambda d, s, t: HR.ReduceXorSum(as_(d, np.int16), as_(s, np.int16), as_(s, np.int16)[16], t, 0), "BAD_PARAMETER"),
    (lambda d, s, t: RP.ReduceMin(d, s, t, [0, 8], True, pattern=1), "BAD_PARAMETER"),         # empty shape
])
def test_bad_parameters(call, code):
    _y, res = run(lambda s, o, t: call(as_(o, F32), as_(s, F32), t), _PAGE, 64)
    assert code in res.diagnostics.codes()


def test_basic_forms_still_run():
    """The names shared with the basic API keep the basic forms (no pattern: the MemBase ReduceSum / Max)."""
    x = np.arange(64, dtype=F32)
    y, res = run(lambda s, o, t: (MB.ReduceSum(as_(o, F32), as_(s, F32), as_(t, F32), 64),
                                  MB.ReduceMax(as_(o[32], F32), as_(s, F32), as_(t, F32), 64)), x, 64)
    assert not res.diagnostics.codes()
    assert y[:4].view(F32)[0] == 2016 and y[32:36].view(F32)[0] == 63


@needs_compiler
def test_vendor_style_program_passes(tmp_path):
    run_ = build_and_run(HERE / "reduce.asc", cache=tmp_path / "cache")
    assert run_.failure is None and run_.exit_status == 0, (run_.failure, run_.stdout, run_.stderr)
    assert "PASS" in run_.stdout


PAGE_CALLS = r"""
#include <vector>
#include "kernel_operator.h"
template <typename T>
void page_calls(AscendC::LocalTensor<T> dstLocal, AscendC::LocalTensor<T> srcLocal, AscendC::LocalTensor<uint8_t> tmp,
                AscendC::LocalTensor<int16_t> d16, AscendC::LocalTensor<int16_t> src0Local,
                AscendC::LocalTensor<int16_t> src1Local, AscendC::LocalTensor<half> hLocal, uint32_t outter,
                uint32_t n, uint32_t inner)
{
    uint32_t shape[] = {2, 8};
    constexpr bool isReuse = true;
    AscendC::ReduceSum<float, AscendC::Pattern::Reduce::AR, isReuse>(dstLocal, srcLocal, tmp, shape, true);
    AscendC::ReduceMean<T, AscendC::Pattern::Reduce::AR, isReuse>(dstLocal, srcLocal, tmp, shape, true);
    AscendC::ReduceMax<float, AscendC::Pattern::Reduce::AR, isReuse>(dstLocal, srcLocal, tmp, shape, true);
    uint32_t shape2[2] = {2, 5};
    AscendC::ReduceMax<half, AscendC::Pattern::Reduce::AR, false>(hLocal, hLocal, tmp, shape2, true);
    AscendC::ReduceMin<float, AscendC::Pattern::Reduce::AR, isReuse>(dstLocal, srcLocal, tmp, shape, true);
    AscendC::ReduceAny<float, AscendC::Pattern::Reduce::AR, isReuse>(dstLocal, srcLocal, tmp, shape, true);
    AscendC::ReduceAll<float, AscendC::Pattern::Reduce::AR, isReuse>(dstLocal, srcLocal, tmp, shape, true);
    AscendC::ReduceProd<float, AscendC::Pattern::Reduce::AR, isReuse>(dstLocal, srcLocal, tmp, shape, true);
    AscendC::ReduceSum<float, AscendC::Pattern::Reduce::RA>(dstLocal, srcLocal, shape, true);
    AscendC::ReduceXorSum<int16_t, false>(d16, src0Local, src1Local, tmp, 32);
    AscendC::ReduceXorSum(d16, src0Local, src1Local, 32);
    AscendC::SumParams params;
    params.outter = outter;
    params.n = n;
    params.inner = inner;
    T scalar(0);
    AscendC::Duplicate<T>(dstLocal, scalar, 16);
    AscendC::Sum(dstLocal, srcLocal, tmp, params);
    AscendC::MeanParams meanParams;
    meanParams.outter = outter;
    meanParams.n = n;
    meanParams.inner = inner;
    AscendC::Mean<T, T>(dstLocal, srcLocal, tmp, meanParams);
    AscendC::Mean<half, float>(hLocal, hLocal, meanParams);
}
void host_calls()
{
    uint32_t maxValue = 0, minValue = 0, maxLiveNodeCnt = 0, extraBuf = 0;
    auto shape = AscendC::TensorShape({16, 32});
    AscendC::GetReduceSumMaxMinTmpSize(shape, AscendC::TensorDataType::DT_FLOAT, AscendC::ReducePattern::AR, true,
                                       false, maxValue, minValue);
    AscendC::GetReduceProdMaxMinTmpSize(shape, AscendC::TensorDataType::DT_FLOAT, AscendC::ReducePattern::RA, true,
                                        false, maxValue, minValue);
    std::vector<int64_t> shape_vec = {1024};
    AscendC::TensorShape xshape(shape_vec);
    AscendC::GetReduceXorSumMaxMinTmpSize(xshape, sizeof(int16_t), false, maxValue, minValue);
    AscendC::GetSumMaxMinTmpSize(3, 2, false, maxValue, minValue);
    AscendC::GetMeanMaxMinTmpSize(3, 2, 4, false, maxValue, minValue);
    AscendC::GetMeanTmpBufferFactorSize(2, maxLiveNodeCnt, extraBuf);
}
template void page_calls<float>(AscendC::LocalTensor<float>, AscendC::LocalTensor<float>, AscendC::LocalTensor<uint8_t>,
                                AscendC::LocalTensor<int16_t>, AscendC::LocalTensor<int16_t>, AscendC::LocalTensor<int16_t>,
                                AscendC::LocalTensor<half>, uint32_t, uint32_t, uint32_t);
"""


@needs_compiler
def test_the_pages_example_calls_compile(tmp_path):
    import subprocess

    from toolkit.asc.build import find_compiler
    from toolkit.asc.headers import INCLUDE
    src = tmp_path / "pages.cpp"
    src.write_text(PAGE_CALLS)
    done = subprocess.run([*find_compiler(), "-std=c++20", "-fsyntax-only", f"-I{INCLUDE}", str(src)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]


@pytest.mark.parametrize("api,tname,shape,pattern", [("ReduceSum", "float", (64, 300), AR),
                                                     ("ReduceMax", "int16_t", (300, 13), RA),
                                                     ("ReduceMin", "uint8_t", (33, 270), AR)])
def test_pattern_large_shapes_gather_in_chunks(api, tname, shape, pattern):
    dt = BY_NAME[tname]
    x = _data(api, dt, shape, 11)
    got, res = _reduce(api, dt, x, pattern)
    assert not res.diagnostics.codes()
    axis = 1 if pattern.value == 0 else 0
    want = _NP[api](x.astype(np.float64), axis=axis)
    if dt.kind == "f":
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-4)
    else:
        assert np.array_equal(got.astype(np.float64), want)
