"""Wide integer arithmetic: Add / Sub with a carry-out MaskReg, AddC / SubC with carry in and out, and Mull
(the full product of 32-bit lanes, low half and high half).

Carries are per 32-bit lane, in the predicate layout of a b32 mask (the bit of lane i is bit 4i). Sub's
carry is the carry of srcReg0 + ~srcReg1 + 1 (1 = no borrow); SubC adds the carry-in instead of the 1.
Lanes outside the mask get 0 in dst and no carry (assumed: the pages say only that dst is ZEROING).
"""
from __future__ import annotations

import numpy as np

from .mask import _fill_nibbles, bits_for_lanes
from .template import TArgs, template
from .types import MaskReg, RegTensor
from .vf import current_recorder

_U32, _U64 = np.dtype(np.uint32), np.dtype(np.uint64)


def _lanes_u64(reg: RegTensor) -> np.ndarray:
    return reg.raw.view(_U32).astype(_U64)


def _carry_op(rec, carry: MaskReg, dst: RegTensor, src0: RegTensor, src1: RegTensor, carry_in: np.ndarray,
              mask: MaskReg, subtract: bool, opcode: str, extra_srcs: tuple = ()) -> None:
    a, b = _lanes_u64(src0), _lanes_u64(src1)
    if subtract:
        b = (~b) & np.uint64(0xFFFFFFFF)
    total = a + b + carry_in.astype(_U64)
    active, _ = mask.lanes(4)
    low = np.where(active, total & np.uint64(0xFFFFFFFF), 0).astype(_U32)
    out_carry = active & ((total >> np.uint64(32)) != 0)
    srcs = (src0.id, src1.id) + extra_srcs + (mask.id,)
    ld = [r.lane_defined(4) for r in (src0, src1) if r.defined is not None]
    lane_def = None if not ld else np.logical_and.reduce(ld) | ~active
    dst.acc_lanes = None
    dst.set(low.view(dst.dtype if dst.dtype.itemsize == 4 else _U32), lane_def, rec, 4)
    carry.set_bits(bits_for_lanes(out_carry, 4, _fill_nibbles(rec)), rec)
    rec.emit(opcode, dst.id, srcs, None, mask=mask.id)
    rec.emit("ALIAS", carry.id, (dst.id,), None)


def add_with_carry(t: TArgs, carry: MaskReg, dst: RegTensor, src0: RegTensor, src1: RegTensor,
                   mask: MaskReg) -> None:
    """``Add(carry, dst, a, b, mask)`` (int32 / uint32): {carry, dst} = a + b."""
    _carry_op(current_recorder(), carry, dst, src0, src1, np.zeros(1, bool), mask, False, "RV_VADDC")


def sub_with_carry(t: TArgs, carry: MaskReg, dst: RegTensor, src0: RegTensor, src1: RegTensor,
                   mask: MaskReg) -> None:
    """``Sub(carry, dst, a, b, mask)``: {carry, dst} = a + ~b + 1 (carry 1 = no borrow)."""
    _carry_op(current_recorder(), carry, dst, src0, src1, np.ones(1, bool), mask, True, "RV_VSUBC")


@template
def AddC(t: TArgs, carry: MaskReg, dst: RegTensor, src0: RegTensor, src1: RegTensor, carry_src: MaskReg,
         mask: MaskReg) -> None:
    """``AddC(carry, dst, a, b, carrySrc, mask)``: {carry, dst} = a + b + carrySrc (VADDC)."""
    _carry_op(current_recorder(), carry, dst, src0, src1, carry_src.lanes(4)[0], mask, False, "RV_VADDC",
              (carry_src.id,))


@template
def SubC(t: TArgs, carry: MaskReg, dst: RegTensor, src0: RegTensor, src1: RegTensor, carry_src: MaskReg,
         mask: MaskReg) -> None:
    """``SubC(carry, dst, a, b, carrySrc, mask)``: {carry, dst} = a + ~b + carrySrc (VSUBC)."""
    _carry_op(current_recorder(), carry, dst, src0, src1, carry_src.lanes(4)[0], mask, True, "RV_VSUBC",
              (carry_src.id,))


@template
def Mull(t: TArgs, dst0: RegTensor, dst1: RegTensor, src0: RegTensor, src1: RegTensor, mask: MaskReg) -> None:
    """``Mull(lo, hi, a, b, mask)`` (int32 / uint32): the 64-bit product's low 32 bits in lo, high 32 bits in
    hi (signed: the arithmetic high half) (VMULL)."""
    rec = current_recorder()
    dt = t.type(0) or src0.dtype
    wide = np.dtype(np.int64) if dt.kind == "i" else _U64
    prod = src0.raw.view(dt).astype(wide) * src1.raw.view(dt).astype(wide)
    active, _ = mask.lanes(4)
    lo = np.where(active, prod.astype(dt), dt.type(0))
    hi = np.where(active, (prod >> 32).astype(dt), dt.type(0))
    ld = [r.lane_defined(4) for r in (src0, src1) if r.defined is not None]
    lane_def = None if not ld else np.logical_and.reduce(ld) | ~active
    srcs = (src0.id, src1.id, mask.id)
    for d in (dst0, dst1):
        d.acc_lanes = None
    dst0.set(lo, lane_def, rec, 4)
    dst1.set(hi, lane_def, rec, 4)
    rec.emit("RV_VMULL", dst0.id, srcs, None, mask=mask.id)
    rec.emit("ALIAS", dst1.id, (dst0.id,), None)
