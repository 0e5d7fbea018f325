"""The pattern reductions of the high-level library (高阶API/归约操作): ``ReduceSum / ReduceMean / ReduceMax /
ReduceMin / ReduceAny / ReduceAll / ReduceProd<T, pattern, isReuseSource>(dst, src, [sharedTmpBuffer],
srcShape[2], srcInnerPad)`` over a 2-D row-major [d0, d1] source, ``pattern`` AR (reduce d1: d0 results) or
RA (reduce d0: d1 results), and their host queries ``GetReduce<Op>MaxMinTmpSize``.

Layout (Ascend 950: srcInnerPad is reserved and the API derives the alignment from srcShape): the source is
dense, d1 elements per row (assumed from the 950 note; a 32 B multiple d1 is the padded case of the other
products as well). Algorithm (assumed: the pages give the results only), every step a MemBase call:

* the data is brought to an aligned [M, P] matrix whose M rows are reduced element-wise: for RA the source
  itself when d1 * sizeof(T) is a multiple of 32 B, else a Gather copy with rows padded to P (the pad lanes
  repeat the row's last element); for AR a Gather transpose [d1, P], P = d0 padded to 32 B;
* the M rows fold by halves (a binary tree over rows): with top = ceil(m / 2), rows [top, m) combine into
  rows [0, m - top) with one element-wise Add / Max / Min / Mul over (m - top) * P elements, the middle row
  of an odd m copied (Copy); the last level writes dst. ReduceMean divides the sums by the reduced length
  (Divs); ReduceAny / ReduceAll are Max / Min of the 0 / 1 inputs.

The first fold level reads the source and writes the temporary buffer (or, with isReuseSource, the source
itself: the page allows the API to change it). The Gather offsets are built in int32 (CreateVecIndex, Div,
Muls, Sub, Mins, Add), 2048 at a time. Temporary bytes: :func:`pattern_tmp_bytes` (also the host queries', min = max)."""
from __future__ import annotations

from typing import Any

import numpy as np

from toolkit.ascendc import membase as MB
from toolkit.ascendc.dtypes import TemplateValue, scalar_value
from toolkit.ascendc.membase.types import dts
from toolkit.ascendc.sysenums import TENSOR_DATA_TYPE_BYTES, ReducePattern, TensorDataType
from toolkit.ascendc.tensor import LocalTensor
from toolkit.engine.runtime import current

from .math_common import HighLevelApi, ceil_to
from .reduce import disjoint
from .tmpbuf import carve, tmp_buffer

I32, U32 = np.dtype(np.int32), np.dtype(np.uint32)
GATHER_CHUNK = 2048              #: elements gathered per offset table (3 int32 rows of it in the buffer)


class Pattern:
    """``AscendC::Pattern::Reduce::AR`` / ``RA`` for the Python route: ``ReduceSum[float, Pattern.Reduce.AR,
    True](...)`` (or the keyword ``pattern=ReducePattern.AR``)."""

    class Reduce:
        AR = TemplateValue("pattern", ReducePattern.AR.value)
        RA = TemplateValue("pattern", ReducePattern.RA.value)


_ALL = ("int8_t", "uint8_t", "int16_t", "uint16_t", "half", "bfloat16_t", "int32_t", "uint32_t", "float", "int64_t",
        "uint64_t")
#: API -> (element-wise op, Ascend 950 types)
OPS = {"ReduceSum": ("Add", ("int32_t", "uint32_t", "float", "int64_t", "uint64_t")),
       "ReduceMean": ("Add", ("float",)), "ReduceMax": ("Max", _ALL), "ReduceMin": ("Min", _ALL),
       "ReduceAny": ("Max", ("uint8_t", "float")), "ReduceAll": ("Min", ("uint8_t", "float")),
       "ReduceProd": ("Mul", ("float",))}


def _layout(pattern: int, d0: int, d1: int, size: int) -> tuple[int, int, bool]:
    """(rows M to fold, padded row length P, whether the data is gathered into the temporary buffer)."""
    blk = 32 // size if size < 32 else 1
    if pattern == ReducePattern.AR.value:
        return d1, ceil_to(d0, blk), True
    return d0, ceil_to(d1, blk), (d1 * size) % 32 != 0


def pattern_tmp_bytes(pattern: int, d0: int, d1: int, size: int, reuse: bool) -> int:
    """The gathered matrix and its three int32 offset rows, or (the source aligned, not reused) the first
    fold level's ceil(M / 2) rows; at least 32 B."""
    m, p, gathered = _layout(pattern, d0, d1, size)
    if gathered:
        return ceil_to(m * p * size, 32) + 3 * ceil_to(min(m * p, GATHER_CHUNK), 64) * 4
    if reuse or m <= 2:
        return 32
    return max(32, ceil_to(-(-m // 2) * p * size, 32))


def _offsets(off: LocalTensor, count: int, p: int, lim: int, q_mul: int, r_mul: int, size: int, k0: int = 0) -> None:
    """off[k - k0] = (q * q_mul + min(r, lim - 1) * r_mul) * size bytes, q = k div p, r = k mod p, for k0 <= k <
    k0 + count (3 int32 rows of ``count``)."""
    step = ceil_to(count, 64)
    q, c = off[step], off[2 * step]
    MB.CreateVecIndex(off, np.int32(k0), count)
    MB.Duplicate(c, np.int32(p), count)
    MB.Div(q, off, c, count)
    MB.Muls(c, q, np.int32(p), count)
    MB.Sub(off, off, c, count)                           # r
    MB.Mins(off, off, np.int32(lim - 1), count)
    MB.Muls(off, off, np.int32(r_mul * size), count)
    MB.Muls(q, q, np.int32(q_mul * size), count)
    MB.Add(off, off, q, count)


def _fold(op, dst: LocalTensor, cur: LocalTensor, out: LocalTensor, m: int, p: int, d: int) -> None:
    """Fold the m rows (length p) of ``cur`` by halves into ``out`` (cur itself once written); row 0 -> dst."""
    if m == 1:
        MB.Copy(dst, cur, d)
        return
    while m > 2:
        top = (m + 1) // 2
        k = m - top
        op(out, cur, cur[top * p], k * p)
        if top > k and out is not cur:
            MB.Copy(out[k * p], cur[k * p], p)
        cur, m = out, top
    op(dst, cur, cur[p], d)


def _args(api: str, rest: tuple) -> tuple[LocalTensor | None, int, int]:
    ctx = current()
    tmp = rest[0] if len(rest) == 3 else None
    shape = rest[-2]
    dims = [int(scalar_value(v)) for v in (shape if not hasattr(shape, "GetDims") else shape.GetDims())]
    if len(dims) != 2 or min(dims) < 1:
        ctx.report("BAD_PARAMETER", f"{api}: srcShape must hold two positive dimensions (got {dims})")
    return tmp, dims[0], dims[1]


def _pattern_reduce(api: str):
    op_name, types = OPS[api]
    allowed = dts(" ".join(types))

    def fn(dst: LocalTensor, src: LocalTensor, *rest: Any, pattern: Any = None, isReuseSource: bool = False,
           **_: Any) -> None:
        ctx = current()
        pat = int(getattr(pattern, "value", -1 if pattern is None else pattern))
        if pat not in (ReducePattern.AR.value, ReducePattern.RA.value):
            ctx.report("BAD_PARAMETER", f"{api}: pattern must be AscendC::Pattern::Reduce::AR or RA")
        tmp, d0, d1 = _args(api, rest)
        dt = src.dtype
        if dt not in allowed or dst.dtype != dt:
            ctx.report("BAD_PARAMETER", f"{api}: {dt} -> {dst.dtype} (Ascend 950 types: {', '.join(types)})")
        d = d0 if pat == ReducePattern.AR.value else d1
        if src.count < d0 * d1 or dst.count < d:
            ctx.report("BAD_PARAMETER", f"{api}: src holds {src.count} elements ({d0 * d1} needed), dst {dst.count} "
                       f"({d} needed)")
        reuse = bool(isReuseSource)
        m, p, gathered = _layout(pat, d0, d1, dt.itemsize)
        need = pattern_tmp_bytes(pat, d0, d1, dt.itemsize, reuse)
        buf = tmp_buffer(api, tmp, need)
        disjoint(api, tmp, need, (src, d0 * d1), (dst, d))
        op = getattr(MB, op_name)
        if gathered:
            cur, off = carve(buf, dt, m * p, 0)
            offs = LocalTensor(buf.addr + off, I32, 3 * ceil_to(min(m * p, GATHER_CHUNK), 64), buf.position)
            for k0 in range(0, m * p, GATHER_CHUNK):
                c = min(GATHER_CHUNK, m * p - k0)
                if pat == ReducePattern.AR.value:        # cur[j, i] = src[i, j]
                    _offsets(offs, c, p, d0, 1, d1, dt.itemsize, k0)
                else:                                    # cur[i, j] = src[i, j], pad lanes: src[i, d1 - 1]
                    _offsets(offs, c, p, d1, d1, 1, dt.itemsize, k0)
                MB.Gather(cur[k0], src, offs.ReinterpretCast(U32), 0, c)
            out = cur
        else:
            cur = src
            out = src if reuse or m <= 2 else carve(buf, dt, -(-m // 2) * p, 0)[0]
        _fold(op, dst, cur, out, m, p, d)
        if api == "ReduceMean":
            MB.Divs(dst, dst, np.float32(m), d)
    fn.__doc__ = (f"``{api}<T, pattern, isReuseSource>(dst, src, [sharedTmpBuffer], srcShape, srcInnerPad)`` "
                  f"({op_name} over the reduced axis).")
    return HighLevelApi(fn, api)


ReduceSum = _pattern_reduce("ReduceSum")
ReduceMean = _pattern_reduce("ReduceMean")
ReduceMax = _pattern_reduce("ReduceMax")
ReduceMin = _pattern_reduce("ReduceMin")
ReduceAny = _pattern_reduce("ReduceAny")
ReduceAll = _pattern_reduce("ReduceAll")
ReduceProd = _pattern_reduce("ReduceProd")
BY_NAME = {f.__name__: f for f in (ReduceSum, ReduceMean, ReduceMax, ReduceMin, ReduceAny, ReduceAll, ReduceProd)}


# -- host side ------------------------------------------------------------------------------------------------
def _host(api: str):
    def query(srcShape, dataType, pattern, isSrcInnerPad, isReuseSource, maxValue, minValue) -> None:
        dims = [int(d) for d in srcShape.GetDims()] + [1, 1]
        size = TENSOR_DATA_TYPE_BYTES.get(TensorDataType(getattr(dataType, "value", dataType)), 4) or 4
        pat = int(getattr(pattern, "value", pattern))
        maxValue.value = minValue.value = pattern_tmp_bytes(pat, dims[0], dims[1], size, bool(isReuseSource))
    query.__name__ = f"Get{api}MaxMinTmpSize"
    query.__doc__ = f"``{query.__name__}(srcShape, dataType, pattern, isSrcInnerPad, isReuseSource, max, min)``."
    return query


GetReduceSumMaxMinTmpSize = _host("ReduceSum")
GetReduceMeanMaxMinTmpSize = _host("ReduceMean")
GetReduceMaxMaxMinTmpSize = _host("ReduceMax")
GetReduceMinMaxMinTmpSize = _host("ReduceMin")
GetReduceAnyMaxMinTmpSize = _host("ReduceAny")
GetReduceAllMaxMinTmpSize = _host("ReduceAll")
GetReduceProdMaxMinTmpSize = _host("ReduceProd")
