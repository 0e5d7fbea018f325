"""Element-wise RegBase compute: binary, scalar and unary ops, Duplicate, Select, LocalMemBar.

``Op<T, MaskMergeMode mode = ZEROING>(dst, src0, src1, mask)``: ZEROING sets masked-off lanes to 0,
MERGING keeps dst's previous value. MERGING is emulated in software on Ascend 950 (ZEROING op +
VSEL), so it records two instructions; Duplicate merges in hardware.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from toolkit.ascendc.dtypes import scalar_value
from toolkit.ascendc.itervec import BATCH
from toolkit.ascendc.lowfloat import is_low
from toolkit.ascendc.numerics import elementwise
from toolkit.engine.runtime import current

from . import loopscan
from .carry import add_with_carry, sub_with_carry
from .mask import pset
from .maskops import mask_select
from .template import TArgs, template
from .types import VL, HighLowPart, MaskMergeMode, MaskPattern, MaskReg, MemType, RegTensor
from .vf import current_recorder

ZEROING, MERGING = MaskMergeMode.ZEROING, MaskMergeMode.MERGING


def _lanes(w: int) -> int:
    return VL // w


def _and_def(*defs: np.ndarray | None) -> np.ndarray | None:
    out = None
    for d in defs:
        if d is not None:
            out = d if out is None else (out & d)
    return out


def _finish(rec, opcode: str, dst: RegTensor, dt: np.dtype, result: np.ndarray, lane_def: np.ndarray | None,
            mask: MaskReg, mode: MaskMergeMode, srcs: tuple, hw_merge: bool = False) -> None:
    """Apply the mask (ZEROING/MERGING), write dst, record the instruction(s)."""
    w = dt.itemsize
    active, full = mask.lanes(w)
    old_id = dst.id
    if not full:
        if mode == MERGING:
            old = dst.raw.view(dt)
            result = np.where(active, result, old)
            old_def = dst.lane_defined(w)
            if lane_def is not None or old_def is not None:
                ld = True if lane_def is None else lane_def
                od = True if old_def is None else old_def
                lane_def = np.where(active, ld, od)
        else:
            result = np.where(active, result, dt.type(0))
            if lane_def is not None:
                lane_def = lane_def | ~active
    dst.set(np.asarray(result, dtype=dt), lane_def, rec, w)
    _emit(rec, opcode, dst, old_id, srcs, mask, mode, hw_merge)


def _emit(rec, opcode: str, dst: RegTensor, old_id: int, srcs: tuple, mask: MaskReg, mode: MaskMergeMode,
          hw_merge: bool) -> None:
    if mode == MERGING and not hw_merge:
        tmp = rec.new_id()
        rec.emit(opcode, tmp, srcs + (mask.id,), None, mask=mask.id)
        rec.emit("RV_VSEL", dst.id, (tmp, old_id, mask.id), None, mask=mask.id)
    elif mode == MERGING:
        rec.emit(opcode, dst.id, srcs + (mask.id, old_id), None, mask=mask.id)
    else:
        rec.emit(opcode, dst.id, srcs + (mask.id,), None, mask=mask.id)


def _chain(batch, rec, opcode: str, fn, dt: np.dtype, dst: RegTensor, src0: RegTensor, src1: RegTensor,
           mask: MaskReg, mode: MaskMergeMode) -> None:
    """The carried update as a chain over the iterations (regbase/loopscan.py), recorded as _finish does."""
    values, lanes = loopscan.chain(batch, fn, dt, dst, src0, src1, mask, mode)
    old_id, srcs = dst.id, (src0.id, src1.id)
    dst.set(values, None, rec, dt.itemsize)
    dst.acc_lanes = lanes
    batch.chained(dst, old_id)
    _emit(rec, opcode, dst, old_id, srcs, mask, mode, False)


def _check_accumulator(dst: RegTensor, is_acc: bool, mask: MaskReg, w: int, mode: MaskMergeMode,
                       name: str) -> None:
    """Warn when an accumulator (``is_acc``: dst is also a source) is updated in ZEROING mode and lanes that
    held accumulated data under an earlier, wider mask are zeroed (the ar-fold pitfall)."""
    if not is_acc:
        dst.acc_lanes = None
        return
    active, full = mask.lanes(w)
    if mode is ZEROING and not full and dst.acc_lanes is not None and (dst.acc_lanes & ~active).any():
        lost = int((dst.acc_lanes & ~active)[0].sum())          # per core (every core of a batch alike)
        current().report("ZEROING_ACCUMULATOR",
                         f"{name} updates an accumulator in ZEROING mode under a {int(active[0].sum())}-lane mask: "
                         f"{lost} lane(s) holding earlier partial results are zeroed; use MaskMergeMode::MERGING")
    dst.acc_lanes = active.copy() if mode is ZEROING or dst.acc_lanes is None else (dst.acc_lanes | active)


def _binary(name: str, opcode: str, api: str, carry=None):
    def impl(t: TArgs, dst: RegTensor, src0: RegTensor, src1: RegTensor, mask: MaskReg, *more) -> None:
        if more:                          # (carry, dst, src0, src1, mask): the carry-out form
            return carry(t, dst, src0, src1, mask, *more)
        rec = current().vf or current_recorder()
        dt = t.type(0) or dst.dtype
        mode = t.enum(MaskMergeMode, ZEROING)
        w = dt.itemsize
        b = BATCH.batch
        if b is not None and loopscan.carried(b, dst, src0, src1):     # an accumulator of a batched loop
            return _chain(b, rec, opcode, elementwise(name, dt), dt, dst, src0, src1, mask, mode)
        _check_accumulator(dst, dst is src0 or dst is src1, mask, w, mode, api)
        result = elementwise(name, dt)(src0.raw.view(dt), src1.raw.view(dt))
        lane_def = None                   # both sources fully defined, the usual case: no per-lane work
        if src0.defined is not None or src1.defined is not None:
            lane_def = _and_def(src0.lane_defined(w), src1.lane_defined(w))
        _finish(rec, opcode, dst, dt, result, lane_def, mask, mode, (src0.id, src1.id))
    impl.__name__ = opcode
    return template(impl)


def _scalar(name: str, opcode: str, api: str):
    def impl(t: TArgs, dst: RegTensor, src: RegTensor, scalar: Any, mask: MaskReg) -> None:
        rec = current().vf or current_recorder()
        dt = t.type(0) or dst.dtype
        mode = t.enum(MaskMergeMode, ZEROING)
        w = dt.itemsize
        _check_accumulator(dst, dst is src, mask, w, mode, api)
        x = src.raw.view(dt)
        result = elementwise(name, dt)(x, np.full(x.shape[-1], scalar_value(scalar), dtype=dt))
        _finish(rec, opcode, dst, dt, result, src.lane_defined(w), mask, mode, (src.id,))
    impl.__name__ = opcode
    return template(impl)


def _unary(name: str, opcode: str):
    def impl(t: TArgs, dst: RegTensor, src: RegTensor, mask: MaskReg) -> None:
        rec = current().vf or current_recorder()
        dt = t.type(0) or dst.dtype
        mode = t.enum(MaskMergeMode, ZEROING)
        w = dt.itemsize
        result = elementwise(name, dt)(src.raw.view(dt))
        dst.acc_lanes = None
        _finish(rec, opcode, dst, dt, result, src.lane_defined(w), mask, mode, (src.id,))
    impl.__name__ = opcode
    return template(impl)


Add = _binary("add", "RV_VADD", "Add", add_with_carry)
Sub = _binary("sub", "RV_VSUB", "Sub", sub_with_carry)
Mul = _binary("mul", "RV_VMUL", "Mul")
Div = _binary("div", "RV_VDIV", "Div")
Max = _binary("max", "RV_VMAX", "Max")
Min = _binary("min", "RV_VMIN", "Min")
Adds = _scalar("add", "RV_VADDS", "Adds")
Muls = _scalar("mul", "RV_VMULS", "Muls")
Maxs = _scalar("max", "RV_VMAXS", "Maxs")
Mins = _scalar("min", "RV_VMINS", "Mins")


@template
def Mula(t: TArgs, dst: RegTensor, src0: RegTensor, src1: RegTensor, mask: MaskReg) -> None:
    """``Mula<T, mode>(dst, src0, src1, mask)``: dst = src0 * src1 + dst (VMULA; rounding: machine setting
    ``[numerics] mula_fused``)."""
    rec = current().vf or current_recorder()
    dt = t.type(0) or dst.dtype
    mode = t.enum(MaskMergeMode, ZEROING)
    w = dt.itemsize
    _check_accumulator(dst, True, mask, w, mode, "Mula")
    a, b, c = src0.raw.view(dt), src1.raw.view(dt), dst.raw.view(dt)
    if rec.machine.params["numerics"]["mula_fused"] and dt.kind == "f" and dt != np.float64:
        result = (a.astype(np.float64) * b.astype(np.float64) + c.astype(np.float64)).astype(dt)
    else:
        result = elementwise("add", dt)(elementwise("mul", dt)(a, b), c)
    lane_def = _and_def(src0.lane_defined(w), src1.lane_defined(w), dst.lane_defined(w))
    _finish(rec, "RV_VMULA", dst, dt, result, lane_def, mask, mode, (src0.id, src1.id, dst.id))


Sqrt = _unary("sqrt", "RV_VSQRT")
Exp = _unary("exp", "RV_VEXP")
Abs = _unary("abs", "RV_VABS")
Ln = _unary("ln", "RV_VLN")
Relu = _unary("relu", "RV_VRELU")


@template
def Duplicate(t: TArgs, dst: RegTensor, value: Any, mask: MaskReg | None = None) -> None:
    """``Duplicate(dst, scalar)``; ``Duplicate<T, mode>(dst, scalar, mask)``;
    ``Duplicate<T, HighLowPart::LOWEST, mode>(dst, srcReg, mask)`` broadcasts lane 0 of ``srcReg``."""
    rec = current().vf or current_recorder()
    dt = t.type(0) or dst.dtype
    w = dt.itemsize
    mode = t.enum(MaskMergeMode, ZEROING)
    if isinstance(value, RegTensor):
        if t.enum(HighLowPart, HighLowPart.LOWEST) != HighLowPart.LOWEST:
            current().report("BAD_PARAMETER", "Duplicate from a register supports only HighLowPart::LOWEST")
        lane0 = value.raw.view(dt)[:, :1]                          # lane 0 of every core's register
        ld = value.lane_defined(w)
        lane_def = None if ld is None else np.broadcast_to(ld[:, :1], (ld.shape[0], _lanes(w)))
        srcs = (value.id,)
    else:
        if is_low(dt):                        # an 8- / 4-bit type: the scalar is the byte's bits (C++ container)
            lane0 = np.array([int(scalar_value(value)) & 0xFF], np.uint8).view(dt)
        else:
            lane0 = dt.type(scalar_value(value))
        lane_def, srcs = None, ()
    if mask is None:
        # Unmasked form: an implicit all-true predicate, hoisted to VF entry. Machine setting
        # [numerics] unmasked_implicit_pset: "b8" = its own pset_b8 ALL, "shared" = CSE'd with CreateMask<T>.
        if rec.machine.params["numerics"]["unmasked_implicit_pset"] == "b8":
            mask = pset(rec, 1, MaskPattern.ALL, key_prefix="all")
        else:
            mask = pset(rec, w, MaskPattern.ALL)
    lane0 = np.asarray(lane0, dtype=dt).reshape(-1, 1)               # (1 or B, 1)
    result = np.broadcast_to(lane0, (lane0.shape[0], _lanes(w)))
    dst.acc_lanes = None
    _finish(rec, "RV_VDUP", dst, dt, result, lane_def, mask, mode, srcs, hw_merge=True)


@template
def Select(t: TArgs, dst: RegTensor, src0: RegTensor, src1: RegTensor, mask: MaskReg) -> None:
    """``Select(dst, src0, src1, mask)``: lane i = src0[i] where mask else src1[i] (VSEL); MaskReg operands:
    the same per predicate bit (PSEL)."""
    if isinstance(dst, MaskReg):
        return mask_select(dst, src0, src1, mask)
    rec = current().vf or current_recorder()
    dt = t.type(0) or dst.dtype
    w = dt.itemsize
    active, _ = mask.lanes(w)
    result = np.where(active, src0.raw.view(dt), src1.raw.view(dt))
    d0, d1 = src0.lane_defined(w), src1.lane_defined(w)
    lane_def = None
    if d0 is not None or d1 is not None:
        lane_def = np.where(active, True if d0 is None else d0, True if d1 is None else d1)
    srcs = (src0.id, src1.id, mask.id)
    dst.acc_lanes = None
    dst.set(np.asarray(result, dtype=dt), lane_def, rec, w)
    rec.emit("RV_VSEL", dst.id, srcs, None)


@template
def LocalMemBar(t: TArgs) -> None:
    """``LocalMemBar<MemType src, MemType dst>()``: execution is sequential here; recorded for timing."""
    rec = current().vf or current_recorder()
    kinds = [e for e in t.enums if isinstance(e, MemType)]
    rec.emit("RV_MEMBAR", -1, (), "_".join(k.value for k in kinds) or None)
