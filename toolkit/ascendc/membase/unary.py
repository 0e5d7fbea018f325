"""Unary MemBase APIs (Sqrt, Exp, Abs, Ln, Relu) and Duplicate.

``Sqrt(dst, src, count)`` / ``Sqrt(dst, src, mask, repeatTime, UnaryRepeatParams)``;
``Duplicate(dst, scalar, count)`` / ``Duplicate(dst, scalar, mask, repeatTime, dstBlockStride, dstRepeatStride)``.
Sqrt/Exp/Ln are correctly rounded / numpy float32 (machine setting ``div_sqrt_exp``; the hardware is
<= 1 ulp with FTZ).
"""
from __future__ import annotations

from typing import Any

from toolkit.ascendc.numerics import elementwise
from toolkit.ascendc.tensor import LocalTensor
from toolkit.engine.runtime import current

from .binary import scalar_of
from .elementwise import Level0, MemBaseApi, check_same_type, parse_form, run
from .params import UnaryRepeatParams


def _unary(api: str, name: str, opcode: str) -> MemBaseApi:
    def fn(dst: LocalTensor, src: LocalTensor, *args: Any) -> None:
        ctx = current()
        check_same_type(ctx, api, dst, src)
        form = parse_form(ctx, api, args, UnaryRepeatParams)
        op = elementwise(name, dst.dtype)
        run(ctx, api, opcode, dst, (src,), lambda v: op(v[0]), form)
    fn.__doc__ = f"``{api}(dst, src, count)`` or ``{api}(dst, src, mask, repeatTime, UnaryRepeatParams)`` ({opcode})."
    return MemBaseApi(fn, api)


Sqrt = _unary("Sqrt", "sqrt", "RV_VSQRT")
Exp = _unary("Exp", "exp", "RV_VEXP")
Abs = _unary("Abs", "abs", "RV_VABS")
Ln = _unary("Ln", "ln", "RV_VLN")
Relu = _unary("Relu", "relu", "RV_VRELU")


def _duplicate(dst: LocalTensor, scalar: Any, *args: Any) -> None:
    """``Duplicate(dst, scalar, count)`` or
    ``Duplicate(dst, scalar, mask, repeatTime, dstBlockStride, dstRepeatStride)`` (VDUP)."""
    ctx = current()
    if len(args) == 4:
        form: int | Level0 = Level0(args[0], args[1], [(args[2], args[3])])
    else:
        form = parse_form(ctx, "Duplicate", args, UnaryRepeatParams)
    s = scalar_of(scalar, dst.dtype)
    run(ctx, "Duplicate", "RV_VDUP", dst, (), lambda v: s, form, nscalar=1)


Duplicate = MemBaseApi(_duplicate, "Duplicate")
