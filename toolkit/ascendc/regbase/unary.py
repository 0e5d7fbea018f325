"""More element-wise RegBase arithmetic: Neg, Log (the C name of Ln), Log2, Log10, LeakyRelu, Prelu and
Truncate (round to an integral value in the same float type).

Log2 and Log10 have no instruction of their own on the pages; they are modelled as the library sequence
ln(x) * (1 / ln b) (VLN + VMULS; half is widened to float for it, per the pages' "precision promotion",
and each half register needs two conversions each way). Their values are the most accurate reading of
the pages: the float64 logarithm rounded once to float (then to half).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from toolkit.ascendc.dtypes import BF16, scalar_value
from toolkit.ascendc.numerics import elementwise, is_floating, nudge

from .arith import ZEROING, _and_def, _finish, _unary
from .rounding import round_integral
from .template import TArgs, template
from .types import MaskMergeMode, MaskReg, RegTensor, RoundMode
from .vf import current_recorder

F32 = np.dtype(np.float32)

Neg = _unary("neg", "RV_VNEG")
Log = _unary("ln", "RV_VLN")


def _log_base(fn, name: str):
    def impl(t: TArgs, dst: RegTensor, src: RegTensor, mask: MaskReg) -> None:
        rec = current_recorder()
        dt = t.type(0) or dst.dtype
        w = dt.itemsize
        with np.errstate(divide="ignore", invalid="ignore"):
            x = src.raw.view(dt)
            result = nudge("RV_VLN", fn(x.astype(np.float64)).astype(F32).astype(dt), x)
        dst.acc_lanes = None
        half = dt != F32
        outs = []
        for _ in range(2 if half else 1):                  # half: the two float halves of the register
            prev = src.id
            for op in (("RV_VCVT_F2F", "RV_VLN", "RV_VMULS") if half else ("RV_VLN",)):
                tmp = rec.new_id()
                rec.emit(op, tmp, (prev, mask.id), None, mask=mask.id)
                prev = tmp
            outs.append(prev)
        if half:                                            # narrow the first half; the last op the second
            tmp = rec.new_id()
            rec.emit("RV_VCVT_F2F", tmp, (outs[0], mask.id), None, mask=mask.id)
            outs[0] = tmp
        _finish(rec, "RV_VCVT_F2F" if half else "RV_VMULS", dst, dt, result, src.lane_defined(w), mask,
                t.enum(MaskMergeMode, ZEROING), tuple(outs))
    impl.__name__ = name
    return template(impl)


Log2 = _log_base(np.log2, "Log2")
Log10 = _log_base(np.log10, "Log10")


@template
def LeakyRelu(t: TArgs, dst: RegTensor, src: RegTensor, scalar: Any, mask: MaskReg) -> None:
    """``LeakyRelu(dst, src, alpha, mask)``: x where x > 0, else x * alpha (VLRELU)."""
    rec = current_recorder()
    dt = t.type(0) or dst.dtype
    x = src.raw.view(dt)
    scaled = elementwise("mul", dt)(x, np.full(x.shape[-1], scalar_value(scalar), dtype=dt))
    dst.acc_lanes = None
    _finish(rec, "RV_VLRELU", dst, dt, np.where(x > 0, x, scaled), src.lane_defined(dt.itemsize), mask,
            t.enum(MaskMergeMode, ZEROING), (src.id,))


@template
def Prelu(t: TArgs, dst: RegTensor, src0: RegTensor, src1: RegTensor, mask: MaskReg) -> None:
    """``Prelu(dst, x, alpha, mask)``: x where x > 0, else x * alpha, element by element (VPRELU)."""
    rec = current_recorder()
    dt = t.type(0) or dst.dtype
    w = dt.itemsize
    x, a = src0.raw.view(dt), src1.raw.view(dt)
    lane_def = _and_def(src0.lane_defined(w), src1.lane_defined(w))
    dst.acc_lanes = None
    _finish(rec, "RV_VPRELU", dst, dt, np.where(x > 0, x, elementwise("mul", dt)(x, a)), lane_def, mask,
            t.enum(MaskMergeMode, ZEROING), (src0.id, src1.id))


@template
def Truncate(t: TArgs, dst: RegTensor, src: RegTensor, mask: MaskReg) -> None:
    """``Truncate<T, RoundMode>(dst, src, mask)``: each float rounded to an integral value, kept in its type
    (VTRC). CAST_NONE (the prototype's default, not one of the page's modes) is taken as CAST_RINT."""
    rec = current_recorder()
    dt = t.type(0) or dst.dtype
    if not is_floating(dt) and dt != BF16:
        raise TypeError("Truncate takes half, bfloat16_t or float registers")
    mode = t.enum(RoundMode, RoundMode.CAST_NONE).name.replace("CAST_", "")
    dst.acc_lanes = None
    _finish(rec, "RV_VTRC", dst, dt, round_integral(src.raw.view(dt), mode), src.lane_defined(dt.itemsize),
            mask, t.enum(MaskMergeMode, ZEROING), (src.id,))
