"""Logic and shifts on registers: And / Or / Xor / Not (RegTensor forms; the MaskReg forms of the same names
act on predicate bits) and ShiftLeft / ShiftRight (by a register of amounts) / ShiftLefts / ShiftRights (by
a scalar).

Bitwise ops work on the element bits (a float or bool register is viewed as unsigned integers of its width).
Shifts follow the pages: an unsigned type shifts logically; a signed type shifts arithmetically, and a left
shift keeps the sign bit (the bit below it is the one shifted out: int16 0xAAAA << 1 = 0xD554). An amount
of at least the bit width gives 0 (left, logical right) or the sign fill (arithmetic right: -1 or 0); the
pages say "greater than the width": an amount equal to it is assumed to behave the same. A negative amount
is undefined on the hardware; here it is clamped to the width.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from toolkit.ascendc.dtypes import scalar_value

from .arith import ZEROING, _and_def, _finish
from .select import mask_logic
from .template import TArgs, template
from .types import MaskMergeMode, MaskReg, RegTensor
from .vf import current_recorder

_UINT = {1: np.dtype(np.uint8), 2: np.dtype(np.uint16), 4: np.dtype(np.uint32), 8: np.dtype(np.uint64)}


def _bits(reg: RegTensor, dt: np.dtype) -> np.ndarray:
    return reg.raw.view(_UINT[dt.itemsize])


def _binary_bits(fn, opcode: str):
    def impl(t: TArgs, dst: Any, src0: Any, src1: Any, mask: MaskReg) -> None:
        if isinstance(dst, MaskReg):
            return mask_logic(fn.__name__, fn, dst, (src0, src1), mask)
        rec = current_recorder()
        dt = t.type(0) or dst.dtype
        w = dt.itemsize
        result = fn(_bits(src0, dt), _bits(src1, dt))
        lane_def = _and_def(src0.lane_defined(w), src1.lane_defined(w))
        dst.acc_lanes = None
        _finish(rec, opcode, dst, _UINT[w], result, lane_def, mask, t.enum(MaskMergeMode, ZEROING), (src0.id, src1.id))
    impl.__name__ = opcode
    return template(impl)


And = _binary_bits(np.bitwise_and, "RV_VAND")
Or = _binary_bits(np.bitwise_or, "RV_VOR")
Xor = _binary_bits(np.bitwise_xor, "RV_VXOR")


@template
def Not(t: TArgs, dst: Any, src: Any, mask: MaskReg) -> None:
    """``Not(dst, src, mask)``: bitwise NOT of a register (RV_VNOT) or of a MaskReg's bits."""
    if isinstance(dst, MaskReg):
        return mask_logic("MaskNot", np.logical_not, dst, (src,), mask)
    rec = current_recorder()
    dt = t.type(0) or dst.dtype
    w = dt.itemsize
    dst.acc_lanes = None
    _finish(rec, "RV_VNOT", dst, _UINT[w], np.invert(_bits(src, dt)), src.lane_defined(w), mask,
            t.enum(MaskMergeMode, ZEROING), (src.id,))


def shift(x: np.ndarray, amount: np.ndarray, left: bool) -> np.ndarray:
    """``x`` (an integer array) shifted by ``amount`` bits per element, as the hardware does (module doc)."""
    dt = x.dtype
    bits = 8 * dt.itemsize
    u = _UINT[dt.itemsize]
    s = np.clip(np.asarray(amount).astype(np.int64), 0, bits)
    big = s >= bits
    sh = np.where(big, 0, s).astype(u)
    ux = x.view(u) if x.dtype != u else x
    if left:
        out = np.left_shift(ux, sh)
        if dt.kind == "i":                                  # arithmetic: the sign bit stays
            sign = u.type(1 << (bits - 1))
            out = (ux & sign) | (out & u.type((1 << (bits - 1)) - 1))
        return np.where(big, u.type(0), out).astype(u).view(dt)
    if dt.kind == "i":
        out = np.right_shift(x, sh.astype(dt))
        return np.where(big, np.where(x < 0, dt.type(-1), dt.type(0)), out).astype(dt)
    return np.where(big, u.type(0), np.right_shift(ux, sh)).astype(dt)


def _shift_api(left: bool, by_scalar: bool, opcode: str):
    def impl(t: TArgs, dst: RegTensor, src: RegTensor, amount: Any, mask: MaskReg) -> None:
        rec = current_recorder()
        dt = t.type(0) or dst.dtype
        w = dt.itemsize
        x = src.raw.view(dt)
        if by_scalar:
            amt, lane_def, srcs = np.int64(int(scalar_value(amount))), src.lane_defined(w), (src.id,)
        else:
            adt = np.dtype(f"int{8 * w}")                    # the amounts: the signed type of the same width
            amt = amount.raw.view(adt)
            lane_def = _and_def(src.lane_defined(w), amount.lane_defined(w))
            srcs = (src.id, amount.id)
        dst.acc_lanes = None
        _finish(rec, opcode, dst, dt, shift(x, amt, left), lane_def, mask, t.enum(MaskMergeMode, ZEROING), srcs)
    impl.__name__ = opcode
    return template(impl)


ShiftLeft = _shift_api(True, False, "RV_VSHL")
ShiftRight = _shift_api(False, False, "RV_VSHR")
ShiftLefts = _shift_api(True, True, "RV_VSHLS")
ShiftRights = _shift_api(False, True, "RV_VSHRS")
