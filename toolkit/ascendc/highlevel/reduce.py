"""``AscendC::`` reductions of the high-level library (高阶API/归约操作) over a row-major [outter, inner] matrix:
``Sum`` and ``Mean`` (the last axis, rows padded to 32 B: SumParams / MeanParams {outter, inner, n}) and
``ReduceXorSum`` (the saturated int16 sum of src0 ^ src1). The pattern reductions (ReduceSum / ReduceMax ...
with ``AscendC::Pattern::Reduce::AR`` / ``RA``) are :mod:`.reduce_pattern`.

Sum / Mean follow the pages: the sum of a row is the basic ReduceSum / ReduceRepeat binary tree (adjacent
pairs inside one 256 B repeat). A row longer than one repeat is summed repeat by repeat (one tree sum per
repeat into the temporary buffer) and the partial sums are tree-summed again, the order of the basic
ReduceSum count form (assumed: the pages show one repeat only). Rows of at most one repeat go through one
WholeReduceSum over every row (one repeat per row). Mean divides the sums by n (Divs); with
``accType = float`` for half input the rows are cast to float first and the mean cast back (RINT).

ReduceXorSum: ``(a | b) & ~(a & b)`` in int16 (Or, And, Not, And), cast to int32, the basic ReduceSum in int32
(exact), clamped to [-32768, 32767] (Maxs / Mins) and cast to int16. ``isReuseSource`` writes the
intermediate xor into src0 / src1 (the page: the sources' space is reused).

Temporary buffer: the sizes are :func:`sum_tmp_bytes`, :func:`mean_tmp_bytes`, :func:`xor_sum_tmp_bytes`,
which the host queries return (min = max; the vendor's formulas are not published)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from toolkit.ascendc import membase as MB
from toolkit.ascendc.dtypes import scalar_value
from toolkit.ascendc.regbase.types import RoundMode
from toolkit.ascendc.tensor import LocalTensor
from toolkit.engine.runtime import current

from .math_common import HighLevelApi, ceil_to
from .tmpbuf import carve, tmp_buffer

F16, F32 = np.dtype(np.float16), np.dtype(np.float32)
I16, I32 = np.dtype(np.int16), np.dtype(np.int32)
VL = 256                         #: bytes of one repeat
MAX_REPEAT = 255
GROUP = 16                       #: Mean through float: rows per float result block


@dataclass
class SumParams:
    outter: int = 1
    inner: int = 0
    n: int = 0


@dataclass
class MeanParams:
    outter: int = 1
    inner: int = 0
    n: int = 0


def _a32(n: int) -> int:
    return ceil_to(max(int(n), 0), 32)


def _partial_levels(n: int, size: int) -> list[int]:
    """Element counts of the partial-sum levels of an n-element tree sum (none within one repeat)."""
    lanes, out = VL // size, []
    while n > lanes:
        n = -(-n // lanes)
        out.append(n)
    return out


def sum_tmp_bytes(n: int, size: int) -> int:
    """Temporary bytes of a row sum: one 32 B aligned region per partial-sum level (at least 32 B)."""
    return max(32, sum(_a32(m * size) for m in _partial_levels(n, size)))


def tree_sum_rows(dst: LocalTensor, src: LocalTensor, rows: int, n: int, inner: int, work: list) -> None:
    """dst[r] = the binary-tree sum of src[r * inner : r * inner + n] (``inner`` elements: a multiple of 32 B)
    for r < rows; ``work``: tensors (of src's type) for the partial-sum levels."""
    size = src.dtype.itemsize
    lanes = VL // size
    if n <= lanes:
        rep_stride = inner * size // 32
        for r0 in range(0, rows, MAX_REPEAT):
            reps = min(MAX_REPEAT, rows - r0)
            MB.WholeReduceSum(dst[r0], src[r0 * inner], n, reps, 1, 1, rep_stride)
        return
    part, rest = work[0], work[1:]
    full, tail = divmod(n, lanes)
    count = full + (1 if tail else 0)
    for r in range(rows):
        row = src[r * inner]
        for f0 in range(0, full, MAX_REPEAT):
            reps = min(MAX_REPEAT, full - f0)
            MB.WholeReduceSum(part[f0], row[f0 * lanes], lanes, reps, 1, 1, 8)
        if tail:
            MB.WholeReduceSum(part[full], row[full * lanes], tail, 1, 1, 1, 8)
        tree_sum_rows(dst[r], part, 1, count, ceil_to(count, lanes), rest)


def disjoint(api: str, tmp: LocalTensor | None, need: int, *spans: tuple[LocalTensor, int]) -> None:
    """The part of a caller's sharedTmpBuffer the call uses must not overlap its operands (the pages)."""
    if tmp is None:
        return
    lo, hi = tmp.addr, tmp.addr + need
    for t, n in spans:
        if t.addr < hi and lo < t.addr + n * t.dtype.itemsize:
            current().report("BAD_PARAMETER", f"{api}: sharedTmpBuffer [{lo}, {hi}) overlaps an operand at UB "
                             f"{t.addr} (the page forbids it)")


def _levels(buf: LocalTensor, dt: np.dtype, n: int, off: int) -> tuple[list, int]:
    work = []
    for m in _partial_levels(n, dt.itemsize):
        t, off = carve(buf, dt, m, off)
        work.append(t)
    return work, off


def _shape(api: str, dst: LocalTensor, src: LocalTensor, params: Any) -> tuple[int, int, int]:
    ctx = current()
    dt = src.dtype
    if dt not in (F16, F32) or dst.dtype != dt:
        ctx.report("BAD_PARAMETER", f"{api}: half or float tensors of one type (got {src.dtype} -> {dst.dtype})")
    outter, inner, n = (int(scalar_value(getattr(params, f))) for f in ("outter", "inner", "n"))
    if outter < 1 or not 1 <= n <= inner or (inner * dt.itemsize) % 32:
        ctx.report("BAD_PARAMETER", f"{api}: outter >= 1, 1 <= n <= inner and inner * sizeof(T) a multiple of "
                   f"32 B (got outter {outter}, inner {inner}, n {n})")
    if inner != ceil_to(n * dt.itemsize, 32) // dt.itemsize:
        ctx.report("BAD_PARAMETER", f"{api}: inner must be n rounded up to 32 B ({n} -> "
                   f"{ceil_to(n * dt.itemsize, 32) // dt.itemsize}, got {inner})")
    if src.count < outter * inner or dst.count < outter:
        ctx.report("BAD_PARAMETER", f"{api}: src holds {src.count} elements (needs {outter * inner}), dst "
                   f"{dst.count} (needs {outter})")
    return outter, inner, n


def _split(rest: tuple) -> tuple[LocalTensor | None, Any]:
    tmp = rest[0] if len(rest) > 1 and isinstance(rest[0], LocalTensor) else None
    return tmp, rest[-1]


def _sum(dst: LocalTensor, src: LocalTensor, *rest: Any, isReuseSource: bool = False, **_: Any) -> None:
    """``Sum(dst, src, [sharedTmpBuffer], SumParams{outter, inner, n})``: dst[r] = the tree sum of row r."""
    api = "Sum"
    tmp, params = _split(rest)
    outter, inner, n = _shape(api, dst, src, params)
    buf = tmp_buffer(api, tmp, sum_tmp_bytes(n, src.dtype.itemsize))
    disjoint(api, tmp, sum_tmp_bytes(n, src.dtype.itemsize), (src, outter * inner), (dst, outter))
    work, _off = _levels(buf, src.dtype, n, 0)
    tree_sum_rows(dst, src, outter, n, inner, work)


def mean_tmp_bytes(n: int, size: int, acc_size: int) -> int:
    """Sum's levels in the accumulation type, plus (half through float) one float row and a block of 16 float results."""
    if acc_size <= size:
        return sum_tmp_bytes(n, size)
    return _a32(n * 4) + GROUP * 4 + sum_tmp_bytes(n, 4)


def _mean(dst: LocalTensor, src: LocalTensor, *rest: Any, accType: int = 0, isReuseSource: bool = False,
          **_: Any) -> None:
    """``Mean<T, accType>(dst, src, [sharedTmpBuffer], MeanParams)``: the row sums divided by n (half with a
    float accType: row by row through float)."""
    api = "Mean"
    tmp, params = _split(rest)
    outter, inner, n = _shape(api, dst, src, params)
    dt = src.dtype
    acc = int(accType) or dt.itemsize
    if acc < dt.itemsize:
        current().report("BAD_PARAMETER", f"{api}: accType narrower than T is not supported")
    buf = tmp_buffer(api, tmp, mean_tmp_bytes(n, dt.itemsize, acc))
    disjoint(api, tmp, mean_tmp_bytes(n, dt.itemsize, acc), (src, outter * inner), (dst, outter))
    if acc <= dt.itemsize:
        work, _off = _levels(buf, dt, n, 0)
        tree_sum_rows(dst, src, outter, n, inner, work)
        MB.Divs(dst, dst, dt.type(n), outter)
        return
    row, off = carve(buf, F32, n, 0)
    res, off = carve(buf, F32, GROUP, off)
    work, _off = _levels(buf, F32, n, off)
    for g0 in range(0, outter, GROUP):                 # 16 halves: dst stays 32 B aligned
        g = min(GROUP, outter - g0)
        for k in range(g):
            MB.Cast(row, src[(g0 + k) * inner], RoundMode.CAST_NONE, n)
            tree_sum_rows(res[k], row, 1, n, ceil_to(n, 8), work)
        MB.Divs(res, res, np.float32(n), g)
        MB.Cast(dst[g0], res, RoundMode.CAST_RINT, g)


def xor_sum_tmp_bytes(n: int, reuse: bool) -> int:
    """An int16 row (none when src0 is reused), the int32 row (its first half also holds a & b), ReduceSum's
    partial sums and the result block."""
    return (0 if reuse else _a32(n * 2)) + _a32(n * 4) + _a32(-(-n // 64) * 4) + 32


def _xor_sum(dst: LocalTensor, src0: LocalTensor, src1: LocalTensor, *rest: Any, isReuseSource: bool = False,
             **_: Any) -> None:
    """``ReduceXorSum(dst, src0, src1, [sharedTmpBuffer], calCount)``: dst[0] = sat16(sum(src0 ^ src1))."""
    api, ctx = "ReduceXorSum", current()
    tmp = rest[0] if len(rest) > 1 else None
    n = int(scalar_value(rest[-1]))
    if any(t.dtype != I16 for t in (dst, src0, src1)):
        ctx.report("BAD_PARAMETER", f"{api}: int16_t tensors only")
    if n < 1 or n > min(src0.count, src1.count):
        ctx.report("BAD_PARAMETER", f"{api}: calCount {n} must be in [1, {min(src0.count, src1.count)}]")
    reuse = bool(isReuseSource)
    buf = tmp_buffer(api, tmp, xor_sum_tmp_bytes(n, reuse))
    disjoint(api, tmp, xor_sum_tmp_bytes(n, reuse), (src0, n), (src1, n), (dst, 1))
    off = 0
    if reuse:
        x = src0
    else:
        x, off = carve(buf, I16, n, off)
    wide, off = carve(buf, I32, n, off)
    part, off = carve(buf, I32, -(-n // 64), off)
    res, off = carve(buf, I32, 8, off)
    y = wide.ReinterpretCast(I16)
    MB.And(y, src0, src1, n)
    MB.Or(x, src0, src1, n)
    MB.Not(y, y, n)
    MB.And(x, x, y, n)                         # a ^ b
    MB.Cast(wide, x, RoundMode.CAST_NONE, n)
    MB.ReduceSum(res, wide, part, n)
    MB.Maxs(res, res, np.int32(-32768), 1)
    MB.Mins(res, res, np.int32(32767), 1)
    MB.Cast(dst, res, RoundMode.CAST_NONE, 1)


Sum = HighLevelApi(_sum, "Sum")
Mean = HighLevelApi(_mean, "Mean")
ReduceXorSum = HighLevelApi(_xor_sum, "ReduceXorSum")


# -- host side ------------------------------------------------------------------------------------------------
def GetSumMaxMinTmpSize(n, typeSize, isReuseSource, maxValue, minValue) -> None:
    maxValue.value = minValue.value = sum_tmp_bytes(int(scalar_value(n)), int(scalar_value(typeSize)))


def GetMeanMaxMinTmpSize(n, srcTypeSize, accTypeSize, isReuseSource, maxSize, minSize) -> None:
    n, ts, acc = (int(scalar_value(v)) for v in (n, srcTypeSize, accTypeSize))
    maxSize.value = minSize.value = mean_tmp_bytes(n, ts, acc)


def GetMeanTmpBufferFactorSize(typeSize, maxLiveNodeCount, extraBuffer) -> None:
    """half (through float): the float row and its partial sums, 3 half-sized nodes; float: the partial sums
    (at most one node); extraBuffer: the float result block and alignment."""
    ts = int(scalar_value(typeSize))
    maxLiveNodeCount.value = 3 if ts == 2 else 1
    extraBuffer.value = 64


def GetReduceXorSumMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue) -> None:
    maxValue.value = minValue.value = xor_sum_tmp_bytes(int(srcShape.GetShapeSize()), bool(isReuseSource))
