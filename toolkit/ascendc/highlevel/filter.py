"""``AscendC::`` data filtering of the high-level library (高阶API/数据过滤): DropOut, the byte-mask Select
(``Select(dst, src0, src1, mask, sharedTmpBuffer, SelectWithBytesMaskShapeInfo)``) and their host queries.

Both follow the pages' steps. A mask whose rows are wider than the data rows ("dirty" data) is first
compacted by GatherMask: counter mode, one repeat per row (the row stride in 32 B blocks), built-in
pattern 7, the valid bytes of each row kept. A byte mask becomes selection bits by Compares against 0;
a bit mask is the selection bits (bit i of byte j selects element 8j + i, the basic Select's order).
Then Select between the data and 0 (DropOut, followed by Muls by 1 / keepProb) or between the tensor and
the scalar (Select). Compares and Select run over whole 256 B repeats: the temporary buffer holds padded
copies where the tensors end earlier.

DropOut modes (dropOutMode 0 infers one from the shape): 1 byte mask with dirty data, 2 byte mask, 3 bit
mask, 4 bit mask with dirty data; inferred: maskLastAxis == srcLastAxis -> 2, maskLastAxis * 8 ==
srcLastAxis -> 3, maskLastAxis > srcLastAxis -> 1, else 4.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from toolkit.ascendc import membase as MB
from toolkit.ascendc.dtypes import scalar_value, uint64_t
from toolkit.ascendc.membase.elementwise import type_name
from toolkit.ascendc.membase.params import GatherMaskParams
from toolkit.ascendc.regbase.types import CMPMODE
from toolkit.ascendc.tensor import LocalTensor

from .sort import bad
from .targs import PositionalApi
from .tmpbuf import tmp_buffer

U8 = np.dtype(np.uint8)
U16 = np.dtype(np.uint16)
_UINT = {1: U8, 2: U16, 4: np.dtype(np.uint32)}
DROPOUT_TYPES = ("half", "bfloat16_t", "float")
SELECT_TYPES = ("half", "float")
MASK_TYPES = ("bool", "int8_t", "uint8_t", "int16_t", "uint16_t", "int32_t", "uint32_t")


@dataclass
class DropOutShapeInfo:
    firstAxis: int = 0
    srcLastAxis: int = 0
    maskLastAxis: int = 0


@dataclass
class SelectWithBytesMaskShapeInfo:
    firstAxis: int = 0
    srcLastAxis: int = 0
    maskLastAxis: int = 0


def _a(n: int, k: int = 32) -> int:
    return -(-int(n) // k) * k


def _pad(n: int) -> int:
    return max(256, _a(n, 256))


def filter_tmp_bytes(n: int, compact_bytes: int) -> int:
    """Selection bits for ``n`` padded elements, the compacted mask (``compact_bytes``, 0 without one) and
    two padded data copies (256 B repeats)."""
    p = _pad(n)
    return _a(p // 8) + _a(compact_bytes) + 2 * _a(p * 4) + 64


def _compact_rows(dst: LocalTensor, mask: LocalTensor, rows: int, valid: int, row: int) -> None:
    """dst = the first ``valid`` elements of each of ``rows`` rows of ``row`` elements of ``mask``."""
    w = mask.dtype.itemsize
    if (row * w) % 32:
        bad("GatherMask", f"a mask row of {row * w} B is not 32 B aligned")
    per = 128
    for r0 in range(0, rows, per):
        k = min(per, rows - r0)
        MB.GatherMask(dst[r0 * valid], mask[r0 * row], 7, True, valid, GatherMaskParams(1, k, row * w // 32, 0),
                      uint64_t(0))


class _Space:
    def __init__(self, buf: LocalTensor):
        self.buf, self.off = buf, 0

    def take(self, dtype, count: int) -> LocalTensor:
        dt = np.dtype(dtype)
        t = LocalTensor(self.buf.addr + self.off, dt, count, self.buf.position)
        self.off += _a(count * dt.itemsize)
        return t


def _select_padded(dst: LocalTensor, bits: LocalTensor, src: LocalTensor, scalar: Any, n: int, sp: _Space) -> None:
    """dst[:n] = bit ? src : scalar, through padded copies (whole 256 B repeats)."""
    p = _pad(n)
    a, b = sp.take(src.dtype, p), sp.take(src.dtype, p)
    MB.Duplicate(a, 0, p)
    MB.Copy(a, src, n)
    MB.Select(b, bits, a, scalar, MB.SELMODE.VSEL_TENSOR_SCALAR_MODE, p)
    MB.Copy(dst, b, n)
    return b


def _bits_from_bytes(bits: LocalTensor, mask: LocalTensor, n: int, mode: CMPMODE, sp: _Space) -> None:
    p = _pad(n)
    pad = sp.take(mask.dtype, p)
    MB.Duplicate(pad, 0, p)
    MB.Copy(pad, mask, n)
    MB.Compares(bits, pad, 0, mode, p)


# -- DropOut -------------------------------------------------------------------------------------------------
def _mode(info: DropOutShapeInfo, mode: int) -> int:
    if mode:
        return mode
    src, msk = info.srcLastAxis, info.maskLastAxis
    if msk == src:
        return 2
    if msk * 8 == src:
        return 3
    return 1 if msk > src else 4


def _dropout(dstLocal, srcLocal, maskLocal, *rest: Any, isInitBitMode: bool = False, dropOutMode: int = 0) -> None:
    """``DropOut<T, isInitBitMode, dropOutMode>(dstLocal, srcLocal, maskLocal[, sharedTmpBuffer], keepProb,
    info)``."""
    api = "DropOut"
    rest = list(rest)
    tmp = rest.pop(0) if isinstance(rest[0], LocalTensor) else None
    keep, info = float(scalar_value(rest[0])), rest[1]
    info = DropOutShapeInfo(int(info.firstAxis), int(info.srcLastAxis), int(info.maskLastAxis))
    if type_name(srcLocal.dtype) not in DROPOUT_TYPES or dstLocal.dtype != srcLocal.dtype:
        bad(api, f"T is {type_name(srcLocal.dtype)} (dst {type_name(dstLocal.dtype)}), not one of "
                 f"{', '.join(DROPOUT_TYPES)}")
    if not 0.0 < keep < 1.0:
        bad(api, f"keepProb {keep} is outside (0, 1)")
    mode = _mode(info, int(dropOutMode))
    if mode not in (1, 2, 3, 4):
        bad(api, f"dropOutMode {mode} is not 0..4")
    rows, width, mw = info.firstAxis, info.srcLastAxis, info.maskLastAxis
    n = rows * width
    if n <= 0 or mw <= 0:
        bad(api, f"the shape info ({rows}, {width}, {mw}) has a zero axis")
    byte_mode = mode in (1, 2)
    valid = width if byte_mode else width // 8
    if not byte_mode and (width % 8 or (mode == 4 and valid % 2)):
        bad(api, f"bit mode: srcLastAxis {width} is not a multiple of {16 if mode == 4 else 8}")
    if srcLocal.count < n or maskLocal.count < rows * (mw if mode in (1, 4) else valid):
        bad(api, f"srcLocal / maskLocal hold {srcLocal.count} / {maskLocal.count} elements, the shape info needs "
                 f"{n} / {rows * (mw if mode in (1, 4) else valid)}")
    dirty = mode in (1, 4)
    sp = _Space(tmp_buffer(api, tmp, filter_tmp_bytes(n, _pad(rows * valid) if dirty else 0) + _a(_pad(n))))
    mask = maskLocal
    if dirty:
        view = maskLocal if byte_mode else maskLocal.ReinterpretCast(U16)
        per = 1 if byte_mode else 2
        comp = sp.take(view.dtype, _pad(rows * valid) // per)
        _compact_rows(comp, view, rows, valid // per, mw // per)
        mask = comp.ReinterpretCast(U8)
    bits = sp.take(U8, _pad(n) // 8)
    if byte_mode:
        _bits_from_bytes(bits, mask, n, CMPMODE.NE, sp)
    else:
        MB.Duplicate(bits, 0, _pad(n) // 8)
        MB.Copy(bits, mask, n // 8)
    _select_padded(dstLocal, bits, srcLocal, 0.0, n, sp)
    MB.Muls(dstLocal, dstLocal, 1.0 / keep, n)


DropOut = PositionalApi(_dropout, "DropOut", ("isInitBitMode", "dropOutMode"))


# -- Select --------------------------------------------------------------------------------------------------
def select_needs(n: int, rows: int, src_w: int, mask_w: int, mask_size: int, reuse: bool) -> int:
    compact = mask_w != src_w and not reuse
    return filter_tmp_bytes(n, _pad(n) * mask_size if compact else 0) + _a(_pad(n) * mask_size)


def select_bytes_mask(dst: LocalTensor, src0: Any, src1: Any, mask: LocalTensor, sharedTmpBuffer: LocalTensor,
                      info: Any, isReuseMask: bool = True) -> None:
    """``Select<T, U, isReuseMask>(dst, src0, src1, mask, sharedTmpBuffer, info)``: mask 0 takes src0."""
    api = "Select"
    tensor_first = isinstance(src0, LocalTensor)
    src, scalar = (src0, src1) if tensor_first else (src1, src0)
    if type_name(src.dtype) not in SELECT_TYPES or dst.dtype != src.dtype:
        bad(api, f"T is {type_name(src.dtype)} (dst {type_name(dst.dtype)}), not one of {', '.join(SELECT_TYPES)}")
    mname = "bool" if mask.dtype == np.bool_ else type_name(mask.dtype)
    if mname not in MASK_TYPES:
        bad(api, f"U is {mname}, not one of {', '.join(MASK_TYPES)}")
    rows, width, mw = int(info.firstAxis), int(info.srcLastAxis), int(info.maskLastAxis)
    if mw < width or (mw * mask.dtype.itemsize) % 32 or mw % 16:
        bad(api, f"maskLastAxis {mw} must be >= srcLastAxis {width}, 32 B aligned and a multiple of 16")
    if (width * src.dtype.itemsize) % 32:
        bad(api, f"srcLastAxis {width} is not 32 B aligned")
    n = rows * width
    if n <= 0 or src.count < n or mask.count < rows * mw:
        bad(api, f"the shape info ({rows}, {width}, {mw}) does not fit the tensors ({src.count}, {mask.count})")
    reuse = bool(isReuseMask)
    sp = _Space(tmp_buffer(api, sharedTmpBuffer, select_needs(n, rows, width, mw, mask.dtype.itemsize, reuse)))
    m = mask.ReinterpretCast(_UINT[mask.dtype.itemsize])
    if mw != width:
        comp = m if reuse else sp.take(m.dtype, _pad(n))
        _compact_rows(comp, m, rows, width, mw)
        m = comp
    bits = sp.take(U8, _pad(n) // 8)
    _bits_from_bytes(bits, m, n, CMPMODE.EQ if tensor_first else CMPMODE.NE, sp)
    _select_padded(dst, bits, src, scalar, n, sp)


def is_bytes_mask_form(args: tuple) -> bool:
    return len(args) == 6 and hasattr(args[-1], "maskLastAxis")


# -- host side -----------------------------------------------------------------------------------------------
def _dims(shape) -> list[int]:
    return [int(d) for d in shape.GetDims()]


def _select_size(src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize, isReuseMask) -> int:
    s0, s1, ms = _dims(src0Shape), _dims(src1Shape), _dims(maskShape)
    src = s0 if int(np.prod(s0 or [1])) >= int(np.prod(s1 or [1])) else s1
    n = int(np.prod(src or [1]))
    width, mw = (src[-1] if src else 1), (ms[-1] if ms else 1)
    return select_needs(n, n // max(width, 1), width, mw, int(scalar_value(maskTypeSize)), bool(isReuseMask))


def GetSelectMaxTmpSize(*args) -> int:
    return _select_size(*args)


def GetSelectMinTmpSize(*args) -> int:
    return _select_size(*args)


def GetSelectMaxMinTmpSize(src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize, isReuseMask, maxValue,
                           minValue) -> None:
    maxValue.value = minValue.value = _select_size(src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize,
                                                   isReuseMask)


GetSelectWithBytesMaskMaxTmpSize = GetSelectMaxTmpSize
GetSelectWithBytesMaskMinTmpSize = GetSelectMinTmpSize
GetSelectWithBytesMaskMaxMinTmpSize = GetSelectMaxMinTmpSize


def _dropout_size(srcShape) -> int:
    n = int(srcShape.GetShapeSize())
    return filter_tmp_bytes(n, _pad(n)) + _a(_pad(n))


def GetDropOutMaxTmpSize(srcShape, typeSize, isReuseSource) -> int:
    return _dropout_size(srcShape)


def GetDropOutMinTmpSize(srcShape, typeSize, isReuseSource) -> int:
    return _dropout_size(srcShape)


def GetDropOutMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue) -> None:
    maxValue.value = minValue.value = _dropout_size(srcShape)
