"""``AscendC::`` SoftMax family (高阶API/激活函数/SoftMax接口, LogSoftMax接口): SoftMax, SimpleSoftMax,
LogSoftMax, SoftmaxGrad, SoftmaxGradFront, the SoftMaxTiling / LogSoftMaxTiling structs, the shape info and
the host-side size and tiling helpers.

The input is a [m, k] row-major tensor (k 32 B aligned); the reductions run over the first ``oriSrcK``
elements of each row (the original length, when the shape info gives one), the element-wise steps over all
k. A call works row by row, as the page's steps say (reducemax, broadcast to one 32 B block per row, sub,
exp, reducesum, broadcast, div), each step one MemBase call: ReduceMax / ReduceSum into a 32 B result, a
scalar read of it, Adds / Exp / Divs over the row, Duplicate of the value over the row's 32 B block of the
max / sum outputs. Half inputs are cast to float first (the computation is float; assumed, as the page's
mixed half/float overloads suggest) and the result cast back with round-to-nearest-even.

Temporary buffer (assumed layout, the pages state none): the 32 B reduce result, the ReduceSum work area
(one float per 64-element chunk, rounded up to 256 B), one float row for the intermediates and, for a half
input, one float row per cast input. The host helpers return that size for the row length (max = min: the
row-at-a-time algorithm cannot use more)."""
from __future__ import annotations

import math
from dataclasses import astuple, dataclass
from typing import Any

import numpy as np

from toolkit.ascendc import membase as MB
from toolkit.ascendc.dtypes import scalar_value
from toolkit.ascendc.membase.elementwise import MemBaseApi
from toolkit.ascendc.membase.params import RoundMode
from toolkit.ascendc.tensor import LocalTensor
from toolkit.engine.runtime import current

from .shape import TensorShape, rows_cols
from .tmpbuf import carve, tmp_buffer

F32 = np.dtype(np.float32)
INV_LN10 = 1.0 / math.log(10.0)


@dataclass
class SoftMaxTiling:
    srcM: int = 0
    srcK: int = 0
    srcSize: int = 0
    outMaxM: int = 0
    outMaxK: int = 0
    outMaxSize: int = 0
    splitM: int = 0
    splitK: int = 0
    splitSize: int = 0
    reduceM: int = 0
    reduceK: int = 0
    reduceSize: int = 0
    rangeM: int = 0
    tailM: int = 0
    tailSplitSize: int = 0
    tailReduceSize: int = 0


@dataclass
class LogSoftMaxTiling(SoftMaxTiling):
    """The LogSoftMax tiling: the SoftMaxTiling fields (the page's struct has the same ones)."""


@dataclass
class SoftMaxShapeInfo:
    srcM: int = 0
    srcK: int = 0
    oriSrcM: int = 0
    oriSrcK: int = 0


# -- sizes: one formula for the host helpers and the kernels' checks ---------------------------------------
def work_bytes(k: int) -> int:
    """ReduceSum's work area for a k-element row: one float per 64-element chunk, in whole 256 B vectors."""
    return max(1, -(-(-(-int(k) // 64) * 4) // 256)) * 256


def row_tmp_bytes(k: int, float_rows: int) -> int:
    """32 B reduce result + ReduceSum work + ``float_rows`` float rows of k elements (each 32 B aligned)."""
    return 32 + work_bytes(k) + float_rows * (-(-int(k) * 4 // 32) * 32)


def host_tmp_bytes(shape: TensorShape, inputs: int = 1) -> int:
    """What the host helpers return: the half-input layout (one float row per input plus one), which also
    covers a float input."""
    _, k = rows_cols(shape)
    return row_tmp_bytes(k, inputs + 1)


def _tiling_of(shape: TensorShape, dataTypeSize: Any, cls=SoftMaxTiling) -> SoftMaxTiling:
    m, k = rows_cols(shape)
    blk = 32 // max(int(scalar_value(dataTypeSize)), 1)
    return cls(m, k, m * k, m, blk, m * blk, 1, k, k, 1, blk, blk, m, 0, 0, 0)


def _fill(out: Any, t: SoftMaxTiling) -> SoftMaxTiling:
    if out is not None:
        for name, v in zip(t.__dataclass_fields__, astuple(t)):
            setattr(out, name, v)
    return t


# -- the row engine ----------------------------------------------------------------------------------------
class _Rows:
    """The [m, k] view of a call, its temporary buffer carved into the reduce result, the ReduceSum work and
    the float rows, and per-row access to the (float) sources."""

    def __init__(self, api: str, srcs: list[LocalTensor], tmp: LocalTensor | None, tiling: Any, info: Any):
        self.api = api
        info = info if info is not None else SoftMaxShapeInfo()
        m, k = int(info.srcM), int(info.srcK)
        if m == 0 or k == 0:
            m, k = int(tiling.srcM), int(tiling.srcK)
        ctx = current()
        if m <= 0 or k <= 0:
            ctx.report("BAD_PARAMETER", f"{api}: neither the shape info nor the tiling gives a shape (srcM {m}, srcK {k})")
        dt = srcs[0].dtype
        if dt.name not in ("float16", "float32"):
            ctx.report("BAD_PARAMETER", f"{api}: element type {dt} is not half or float")
        if (k * dt.itemsize) % 32:
            ctx.report("BAD_PARAMETER", f"{api}: the last axis ({k} elements) is not 32 B aligned")
        ori = int(info.oriSrcK)
        self.m, self.k, self.kr = m, k, ori if 0 < ori <= k else k
        self.narrow = dt != F32
        self.srcs = srcs
        rows = len(srcs) + 1 if self.narrow else 1
        buf = tmp_buffer(api, tmp, row_tmp_bytes(k, rows))
        self.red, off = carve(buf, F32, 8, 0)
        self.work, off = carve(buf, F32, work_bytes(k) // 4, off)
        self.rows = []
        for _ in range(rows):
            t, off = carve(buf, F32, k, off)
            self.rows.append(t)

    def load(self, r: int) -> list[LocalTensor]:
        """The sources' row r as float tensors (cast into the float rows for a half input)."""
        if not self.narrow:
            return [s[r * self.k] for s in self.srcs]
        for f, s in zip(self.rows[1:], self.srcs):
            MB.Cast(f, s[r * self.k], RoundMode.CAST_NONE, self.k)
        return self.rows[1:len(self.srcs) + 1]

    def reduce(self, kind: str, x: LocalTensor) -> float:
        """The row's max or sum (ReduceMax / ReduceSum into the 32 B result, then its scalar read)."""
        fn = MB.ReduceMax if kind == "max" else MB.ReduceSum
        fn(self.red, x, self.work, self.kr)
        return float(self.red.GetValue(0))

    def store(self, dst: LocalTensor, r: int, out: LocalTensor) -> None:
        """Row r of a float result to dst (cast back for a half dst; a float result is written in place)."""
        if dst.dtype != F32:
            MB.Cast(dst[r * self.k], out, RoundMode.CAST_RINT, self.k)

    def out_row(self, dst: LocalTensor, r: int) -> LocalTensor:
        return dst[r * self.k] if dst.dtype == F32 else self.rows[0]


def _block(t: LocalTensor | None, r: int, value: float) -> None:
    """Row r's 32 B block of a max / sum output, every element the value."""
    if t is not None:
        blk = 32 // t.dtype.itemsize
        MB.Duplicate(t[r * blk], value, blk)


def _block_value(t: LocalTensor, r: int) -> float:
    return float(t.GetValue(r * (32 // t.dtype.itemsize)))


def _parse(args: tuple, ntensors: int) -> tuple[list, LocalTensor | None, Any, list]:
    """(the data tensors, sharedTmpBuffer or None, the tiling, the arguments after it)."""
    data = list(args[:ntensors])
    rest = list(args[ntensors:])
    tmp = rest.pop(0) if rest and isinstance(rest[0], LocalTensor) else None
    if not rest:
        raise TypeError("missing the tiling argument")
    return data, tmp, rest[0], rest[1:]


def _softmax_rows(rows: _Rows, dst, sum_t, max_t, log: bool) -> None:
    for r in range(rows.m):
        (x,) = rows.load(r)
        w = rows.out_row(dst, r)
        mx = rows.reduce("max", x)
        MB.Adds(w, x, -mx, rows.k)
        MB.Exp(w, w, rows.k)
        sm = rows.reduce("sum", w)
        MB.Divs(w, w, sm, rows.k)
        if log:
            MB.Ln(w, w, rows.k)
            MB.Muls(w, w, INV_LN10, rows.k)
        _block(max_t, r, mx)
        _block(sum_t, r, sm)
        rows.store(dst, r, w)


def _softmax(dst, *args: Any, isReuseSource: bool = False, isBasicBlock: bool = False,
             isDataFormatNZ: bool = False) -> None:
    """``SoftMax(dst, sum, max, src[, sharedTmpBuffer], tiling[, shapeInfo])`` or ``SoftMax(dst, src
    [, sharedTmpBuffer], tiling[, shapeInfo])``: row softmax; max / sum of each row to its 32 B block."""
    _nz("SoftMax", isDataFormatNZ)
    with_stats = len(args) >= 3 and all(isinstance(a, LocalTensor) for a in args[:3]) and args[2].dtype != np.uint8
    data, tmp, tiling, rest = _parse((dst, *args), 4 if with_stats else 2)
    src = data[-1]
    sum_t, max_t = (data[1], data[2]) if with_stats else (None, None)
    rows = _Rows("SoftMax", [src], tmp, tiling, rest[0] if rest else None)
    _softmax_rows(rows, dst, sum_t, max_t, log=False)


def _log_softmax(dst, sum_t, max_t, src, *args: Any, isReuseSource: bool = False,
                 isDataFormatNZ: bool = False) -> None:
    """``LogSoftMax(dst, sum, max, src, sharedTmpBuffer, tiling[, shapeInfo])``: log10 of the row softmax
    (the page's formula)."""
    _nz("LogSoftMax", isDataFormatNZ)
    _, tmp, tiling, rest = _parse((dst, sum_t, max_t, src, *args), 4)
    rows = _Rows("LogSoftMax", [src], tmp, tiling, rest[0] if rest else None)
    _softmax_rows(rows, dst, sum_t, max_t, log=True)


def _simple_softmax(dst, inSum, inMax, src, *args: Any, isReuseSource: bool = False, isBasicBlock: bool = False,
                    isDataFormatNZ: bool = False) -> None:
    """``SimpleSoftMax(dst, inSum, inMax, src[, sharedTmpBuffer], tiling[, shapeInfo])``:
    exp(src - max) / sum with the given per-row max and sum."""
    _nz("SimpleSoftMax", isDataFormatNZ)
    _, tmp, tiling, rest = _parse((dst, inSum, inMax, src, *args), 4)
    rows = _Rows("SimpleSoftMax", [src], tmp, tiling, rest[0] if rest else None)
    for r in range(rows.m):
        (x,) = rows.load(r)
        w = rows.out_row(dst, r)
        MB.Adds(w, x, -_block_value(inMax, r), rows.k)
        MB.Exp(w, w, rows.k)
        MB.Divs(w, w, _block_value(inSum, r), rows.k)
        rows.store(dst, r, w)


def _grad_rows(api: str, dst, grad, src, tmp, tiling, front: bool, info) -> None:
    rows = _Rows(api, [grad, src], tmp, tiling, info)
    for r in range(rows.m):
        g, s = rows.load(r)
        w = rows.rows[0]
        MB.Mul(w, g, s, rows.k)
        d = rows.reduce("sum", w)
        if front:
            _block(dst, r, d)
            continue
        out = rows.out_row(dst, r)
        MB.Adds(w, g, -d, rows.k)
        MB.Mul(out, w, s, rows.k)
        rows.store(dst, r, out)


def _softmax_grad(dst, grad, src, *args: Any, isReuseSource: bool = False, isDataFormatNZ: bool = False) -> None:
    """``SoftmaxGrad(dst, grad, src[, sharedTmpBuffer], tiling, isFront = false[, shapeInfo])``:
    (grad - rowsum(grad * src)) * src, or with isFront the row sums to dst's 32 B blocks."""
    _nz("SoftmaxGrad", isDataFormatNZ)
    _, tmp, tiling, rest = _parse((dst, grad, src, *args), 3)
    front = bool(scalar_value(rest[0])) if rest else False
    _grad_rows("SoftmaxGrad", dst, grad, src, tmp, tiling, front, rest[1] if len(rest) > 1 else None)


def _softmax_grad_front(dst, grad, src, *args: Any, isBasicBlock: bool = False,
                        isDataFormatNZ: bool = False) -> None:
    """``SoftmaxGradFront(dst, grad, src[, sharedTmpBuffer], tiling[, shapeInfo])``: rowsum(grad * src) to
    dst's 32 B blocks."""
    _nz("SoftmaxGradFront", isDataFormatNZ)
    _, tmp, tiling, rest = _parse((dst, grad, src, *args), 3)
    _grad_rows("SoftmaxGradFront", dst, grad, src, tmp, tiling, True, rest[0] if rest else None)


def _nz(api: str, nz: Any) -> None:
    if nz:
        current().report("UNSUPPORTED_API", f"{api}: the NZ data format (isDataFormatNZ = true) is not emulated")


SoftMax = MemBaseApi(_softmax, "SoftMax", batchable=False)
LogSoftMax = MemBaseApi(_log_softmax, "LogSoftMax", batchable=False)
SimpleSoftMax = MemBaseApi(_simple_softmax, "SimpleSoftMax", batchable=False)
SoftmaxGrad = MemBaseApi(_softmax_grad, "SoftmaxGrad", batchable=False)
SoftmaxGradFront = MemBaseApi(_softmax_grad_front, "SoftmaxGradFront", batchable=False)


# -- host side ----------------------------------------------------------------------------------------------
def GetSoftMaxMaxTmpSize(srcShape, dataTypeSize, isReuseSource) -> int:
    return host_tmp_bytes(srcShape)


def GetSoftMaxMinTmpSize(srcShape, dataTypeSize, isReuseSource) -> int:
    return host_tmp_bytes(srcShape)


def GetLogSoftMaxMaxTmpSize(srcShape, dataTypeSize, isReuseSource) -> int:
    return host_tmp_bytes(srcShape)


def GetLogSoftMaxMinTmpSize(srcShape, dataTypeSize, isReuseSource) -> int:
    return host_tmp_bytes(srcShape)


def GetSoftMaxGradMaxTmpSize(srcShape, dataTypeSize, isFront, isReuseSource) -> int:
    return host_tmp_bytes(srcShape, 2)


def GetSoftMaxGradMinTmpSize(srcShape, dataTypeSize, isFront, isReuseSource) -> int:
    return host_tmp_bytes(srcShape, 2)


def _out(rest: tuple) -> Any:
    """The tiling struct a Python caller passes to be filled (the .asc bridge sends none: it copies the
    returned one), among the trailing arguments."""
    return next((a for a in rest if isinstance(a, SoftMaxTiling)), None)


def SoftMaxTilingFunc(srcShape, dataTypeSize, localWorkSpaceSize, *rest) -> SoftMaxTiling:
    """``SoftMaxTilingFunc(srcShape, dataTypeSize, localWorkSpaceSize, softmaxTiling)``: fills (and returns)
    the tiling of a [m, k] shape: one row per pass, the 32 B max / sum blocks."""
    return _fill(_out(rest), _tiling_of(srcShape, dataTypeSize))


def LogSoftMaxTilingFunc(srcShape, dataTypeSize, localWorkSpaceSize, *rest) -> LogSoftMaxTiling:
    return _fill(_out(rest), _tiling_of(srcShape, dataTypeSize, LogSoftMaxTiling))


def SoftMaxGradTilingFunc(srcShape, dataTypeSize, localWorkSpaceSize, *rest) -> SoftMaxTiling:
    """``SoftMaxGradTilingFunc(srcShape, dataTypeSize, localWorkSpaceSize, softmaxGradTiling, isFront = false)``."""
    return _fill(_out(rest), _tiling_of(srcShape, dataTypeSize))


def IsBasicBlockInSoftMax(tiling, dataTypeSize=2) -> bool:
    """The page's basic-block test on the tiling's shape: 256 / size <= k < 2048, k a multiple of 64, m a
    multiple of 8."""
    m, k, size = int(tiling.srcM), int(tiling.srcK), int(scalar_value(dataTypeSize)) or 2
    return 256 // size <= k < 2048 and k % 64 == 0 and m % 8 == 0


__all__ = ["GetLogSoftMaxMaxTmpSize", "GetLogSoftMaxMinTmpSize", "GetSoftMaxGradMaxTmpSize",
           "GetSoftMaxGradMinTmpSize", "GetSoftMaxMaxTmpSize", "GetSoftMaxMinTmpSize", "IsBasicBlockInSoftMax",
           "LogSoftMax", "LogSoftMaxTiling", "LogSoftMaxTilingFunc", "SimpleSoftMax", "SoftMax", "SoftMaxGradTilingFunc",
           "SoftMaxShapeInfo", "SoftMaxTiling", "SoftMaxTilingFunc", "SoftmaxGrad", "SoftmaxGradFront"]
