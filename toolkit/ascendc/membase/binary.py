"""Binary MemBase APIs (Add, Sub, Mul, Div, Max, Min) and tensor-scalar ones (Adds, Muls, Maxs, Mins).

``Add(dst, src0, src1, count)`` / ``Add(dst, src0, src1, mask, repeatTime, BinaryRepeatParams)``;
``Muls(dst, src, scalar, count)`` / ``Muls(dst, src, scalar, mask, repeatTime, UnaryRepeatParams)``.
Math as RegBase (toolkit.ascendc.numerics): fp32 IEEE, bf16 computed in fp32 and rounded RINT, Div correctly
rounded float32 (machine setting ``div_sqrt_exp``).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from toolkit.ascendc.dtypes import scalar_value
from toolkit.ascendc.numerics import elementwise
from toolkit.ascendc.tensor import LocalTensor
from toolkit.engine.runtime import current

from .elementwise import MemBaseApi, check_same_type, parse_form, run
from .params import BinaryRepeatParams, UnaryRepeatParams


def scalar_of(value: Any, dt: np.dtype) -> np.ndarray:
    """A C scalar argument converted to the element type (integers wrap, floats round to nearest)."""
    v = scalar_value(value)
    if dt.kind in "iu":
        return np.array(int(v), dtype=np.int64).astype(dt)
    return np.asarray(v, dtype=dt)


def _binary(api: str, name: str, opcode: str) -> MemBaseApi:
    def fn(dst: LocalTensor, src0: LocalTensor, src1: LocalTensor, *args: Any) -> None:
        ctx = current()
        check_same_type(ctx, api, dst, src0, src1)
        form = parse_form(ctx, api, args, BinaryRepeatParams)
        op = elementwise(name, dst.dtype)
        run(ctx, api, opcode, dst, (src0, src1), lambda v: op(v[0], v[1]), form)
    fn.__doc__ = (f"``{api}(dst, src0, src1, count)`` or "
                  f"``{api}(dst, src0, src1, mask, repeatTime, BinaryRepeatParams)`` ({opcode}).")
    return MemBaseApi(fn, api)


def _scalar(api: str, name: str, opcode: str) -> MemBaseApi:
    def fn(dst: LocalTensor, src: LocalTensor, scalar: Any, *args: Any) -> None:
        ctx = current()
        check_same_type(ctx, api, dst, src)
        form = parse_form(ctx, api, args, UnaryRepeatParams)
        op = elementwise(name, dst.dtype)
        s = scalar_of(scalar, dst.dtype)
        run(ctx, api, opcode, dst, (src,), lambda v: op(v[0], s), form, nscalar=1)
    fn.__doc__ = (f"``{api}(dst, src, scalar, count)`` or "
                  f"``{api}(dst, src, scalar, mask, repeatTime, UnaryRepeatParams)`` ({opcode}).")
    return MemBaseApi(fn, api)


Add = _binary("Add", "add", "RV_VADD")
Sub = _binary("Sub", "sub", "RV_VSUB")
Mul = _binary("Mul", "mul", "RV_VMUL")
Div = _binary("Div", "div", "RV_VDIV")
Max = _binary("Max", "max", "RV_VMAX")
Min = _binary("Min", "min", "RV_VMIN")
Adds = _scalar("Adds", "add", "RV_VADDS")
Muls = _scalar("Muls", "mul", "RV_VMULS")
Maxs = _scalar("Maxs", "max", "RV_VMAXS")
Mins = _scalar("Mins", "min", "RV_VMINS")
