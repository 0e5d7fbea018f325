"""Fused RegBase ops (复合计算): AbsSub, Axpy, ExpSub, MulAddDst, MulDstAdd, MulsCast.

MulAddDst and MulDstAdd are one instruction with one rounding (their pages: more precise than Mul then
Add); Axpy's page is silent, so its rounding is the machine setting ``[numerics] axpy_fused``. 64-bit
integer forms are software on the hardware and exact (wrapping) here. ExpSub takes the exact difference of
its (float-widened) operands and rounds e^d once; MulsCast rounds the exact product once to half with
CAST_ROUND (both: the most accurate reading of the pages, assumed).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from toolkit.ascendc.dtypes import scalar_value
from toolkit.ascendc.numerics import elementwise, is_floating, nudge

from .arith import ZEROING, _and_def, _check_accumulator, _finish
from .rounding import fma
from .template import TArgs, template
from .types import VL, MaskMergeMode, MaskReg, RegLayout, RegTensor
from .vf import current_recorder

F16, F32, F64 = np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)


def _mode(t: TArgs) -> MaskMergeMode:
    return t.enum(MaskMergeMode, ZEROING)


@template
def AbsSub(t: TArgs, dst: RegTensor, src0: RegTensor, src1: RegTensor, mask: MaskReg) -> None:
    """``AbsSub(dst, a, b, mask)``: |a - b| (one rounding: the difference, VABSDIF)."""
    rec = current_recorder()
    dt = t.type(0) or dst.dtype
    w = dt.itemsize
    result = np.abs(elementwise("sub", dt)(src0.raw.view(dt), src1.raw.view(dt)))
    dst.acc_lanes = None
    _finish(rec, "RV_VABSDIF", dst, dt, result, _and_def(src0.lane_defined(w), src1.lane_defined(w)), mask,
            _mode(t), (src0.id, src1.id))


def _multiply_add(t: TArgs, dst: RegTensor, a: np.ndarray, b: np.ndarray, c: np.ndarray, fused: bool,
                  opcode: str, lane_def, srcs: tuple, mask: MaskReg, name: str) -> None:
    rec = current_recorder()
    dt = t.type(0) or dst.dtype
    _check_accumulator(dst, True, mask, dt.itemsize, _mode(t), name)
    if fused or not is_floating(dt):
        result = fma(a, b, c, dt)
    else:
        result = elementwise("add", dt)(elementwise("mul", dt)(a, b), c)
    _finish(rec, opcode, dst, dt, result, lane_def, mask, _mode(t), srcs)


def _fused_three(t: TArgs, dst: RegTensor, src0: RegTensor, src1: RegTensor, mask: MaskReg, order: str,
                 opcode: str, name: str) -> None:
    """a * b + c with one rounding, the operands named by ``order`` (d = dst, 0 = src0, 1 = src1)."""
    dt = t.type(0) or dst.dtype
    w = dt.itemsize
    regs = {"d": dst, "0": src0, "1": src1}
    a, b, c = (regs[k].raw.view(dt) for k in order)
    lane_def = _and_def(src0.lane_defined(w), src1.lane_defined(w), dst.lane_defined(w))
    _multiply_add(t, dst, a, b, c, True, opcode, lane_def, (src0.id, src1.id, dst.id), mask, name)


@template
def MulAddDst(t: TArgs, dst: RegTensor, src0: RegTensor, src1: RegTensor, mask: MaskReg) -> None:
    """``MulAddDst(dst, a, b, mask)``: dst = a * b + dst, one rounding (VMULA)."""
    _fused_three(t, dst, src0, src1, mask, "01d", "RV_VMULA", "MulAddDst")


@template
def MulDstAdd(t: TArgs, dst: RegTensor, src0: RegTensor, src1: RegTensor, mask: MaskReg) -> None:
    """``MulDstAdd(dst, a, b, mask)``: dst = dst * a + b, one rounding (VMADD)."""
    _fused_three(t, dst, src0, src1, mask, "d01", "RV_VMADD", "MulDstAdd")


@template
def Axpy(t: TArgs, dst: RegTensor, src: RegTensor, scalar: Any, mask: MaskReg) -> None:
    """``Axpy(dst, src, a, mask)``: dst = a * src + dst (VAXPY; rounding: setting ``axpy_fused``)."""
    rec = current_recorder()
    dt = t.type(0) or dst.dtype
    w = dt.itemsize
    x = src.raw.view(dt)
    a = np.full(x.shape[-1], scalar_value(scalar), dtype=dt)
    fused = rec.machine.params["numerics"]["axpy_fused"]
    _multiply_add(t, dst, a, x, dst.raw.view(dt), fused, "RV_VAXPY", _and_def(src.lane_defined(w),
                  dst.lane_defined(w)), (src.id, dst.id), mask, "Axpy")


def _layout(t: TArgs) -> int:
    layout = t.enum(RegLayout, RegLayout.ZERO)
    return 0 if layout == RegLayout.UNKNOWN else layout.value


@template
def ExpSub(t: TArgs, dst: RegTensor, src0: RegTensor, src1: RegTensor, mask: MaskReg) -> None:
    """``ExpSub<T, U, RegLayout>(dst, a, b, mask)``: e^(a - b) in float (VEXPSUB). Half sources: float lane
    j takes half element 2j + layout, the mask read at the half granularity."""
    rec = current_recorder()
    ddt = dst.dtype if not t.types else t.type(0)
    sdt = t.type(1) or src0.dtype
    ws = sdt.itemsize
    a, b = src0.raw.view(sdt), src1.raw.view(sdt)
    lane_def = _and_def(src0.lane_defined(ws), src1.lane_defined(ws))
    active, _ = mask.lanes(ws)
    if ws == 2:                                         # half in, float out: one half element per lane
        sel = np.arange(VL // 4) * 2 + _layout(t)
        a, b, active = a[:, sel], b[:, sel], active[:, sel]
        lane_def = None if lane_def is None else lane_def[:, sel]
    with np.errstate(over="ignore", invalid="ignore"):
        result = nudge("RV_VEXPSUB", np.exp(a.astype(F64) - b.astype(F64)).astype(ddt), a, b)
    lane_mask = MaskReg(np.repeat(active, 4, axis=1) if ws == 2 else mask.bits, _id=mask.id)
    dst.acc_lanes = None
    _finish(rec, "RV_VEXPSUB", dst, ddt, result, lane_def, lane_mask, _mode(t), (src0.id, src1.id))


@template
def MulsCast(t: TArgs, dst: RegTensor, src: RegTensor, scalar: Any, mask: MaskReg) -> None:
    """``MulsCast<half, float, float, RegLayout>(dst, src, s, mask)``: round(src * s) to half with CAST_ROUND,
    written to half slot 2j + layout of float lane j, the other slot 0 (VMULSCVT)."""
    rec = current_recorder()
    x = src.raw.view(F32)
    prod = x.astype(F64) * np.float64(np.float32(scalar_value(scalar)))
    vals = _round_half_away(prod)
    active, _ = mask.lanes(4)
    vals = np.where(active, vals, F16.type(0))
    out = np.zeros((x.shape[0], VL // 2), dtype=F16)
    out[:, np.arange(VL // 4) * 2 + _layout(t)] = vals
    ld = src.lane_defined(4)
    lane_def = None if ld is None else np.repeat(ld | ~active, 2, axis=1)
    dst.acc_lanes = None
    srcs = (src.id, mask.id)
    dst.set(out, lane_def, rec, 2)
    rec.emit("RV_VMULSCVT", dst.id, srcs, None, mask=mask.id)


def _round_half_away(x: np.ndarray) -> np.ndarray:
    """float64 -> half, ties away from zero (CAST_ROUND), overflow to inf."""
    r = x.astype(F16)                                   # nearest (ties to even)
    r64 = r.astype(F64)
    with np.errstate(invalid="ignore"):
        other = np.nextafter(r, np.where(x > r64, F16.type(np.inf), F16.type(-np.inf)))
        tie = (np.abs(other.astype(F64) - x) == np.abs(r64 - x)) & (r64 != x)
        away = np.abs(other.astype(F64)) > np.abs(r64)
    return np.where(tie & away, other, r)
