"""Tensor-scalar MemBase APIs: Adds, Subs, Muls, Divs, Maxs, Mins, Ands, Ors, LeakyRelu, ShiftLeft,
ShiftRight, and Axpy.

``Adds(dst, src, scalar, count | mask, repeatTime, UnaryRepeatParams)``. The "flexible scalar position"
forms take the scalar on either side (``Subs(dst, scalar, src, ...)`` = scalar - src) or as a
single-element LocalTensor (both sources tensors: the one at ``BinaryConfig::scalarTensorIndex``, 1 by
default, gives its element 0). ShiftLeft / ShiftRight also take a LocalTensor of per-element shift counts
(count form only). The scalar converts to the element type as C++ does (integers wrap, floats round).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from toolkit.ascendc.dtypes import scalar_value
from toolkit.ascendc.tensor import LocalTensor
from toolkit.engine.runtime import current

from . import mathops
from .elementwise import (
    Level0,
    MemBaseApi,
    check_dtype,
    check_same_type,
    parse_form,
    run,
    type_name,
)
from .params import UnaryRepeatParams
from .types import I64, U64, dts

_COUNT_ONLY = dts("int8_t uint8_t int64_t uint64_t")


def scalar_of(value: Any, dt: np.dtype) -> np.ndarray:
    """A C scalar argument converted to the element type (integers wrap, floats round to nearest)."""
    v = scalar_value(value)
    if dt.kind in "iu":
        return np.array(int(v), dtype=np.int64).astype(dt) if dt != U64 else np.array(int(v) % (1 << 64), dtype=dt)
    return np.asarray(v, dtype=dt)


def _operands(ctx, api: str, a: Any, b: Any, index: int) -> tuple[LocalTensor, Any, bool, bool]:
    """(the vector source, the scalar (a value or a single-element tensor), scalar first?, scalar is a tensor?)."""
    ta, tb = isinstance(a, LocalTensor), isinstance(b, LocalTensor)
    if ta and tb:
        if index not in (0, 1):
            ctx.report("BAD_PARAMETER", f"{api}: BinaryConfig scalarTensorIndex {index} is not 0 or 1")
        return (b, a, True, True) if index == 0 else (a, b, False, True)
    if ta:
        return a, b, False, False
    if tb:
        return b, a, True, False
    raise TypeError(f"{api}: one source must be a LocalTensor")


def _scalar(api: str, opcode: str | tuple, name: str, allowed: str, count_only=_COUNT_ONLY,
            first_opcode: str | tuple | None = None, commutes: bool = True) -> MemBaseApi:
    allowed_t = dts(allowed)

    def fn(dst: LocalTensor, src0: Any, src1: Any, *args: Any, isSetMask: bool = True, mask_state: Any = None,
           config: int = 1) -> None:
        ctx = current()
        src, s, first, point = _operands(ctx, api, src0, src1, int(config))
        check_same_type(ctx, api, dst, src, *((s,) if point else ()))
        form = parse_form(ctx, api, args, UnaryRepeatParams, isSetMask, mask_state)
        dt = dst.dtype
        check_dtype(ctx, api, dt, allowed_t, form, count_only)
        f = mathops.op(name, dt)
        swap = first and not commutes
        op = first_opcode if swap and first_opcode else opcode
        if point:
            if isinstance(form, Level0):
                form.strides.append((0, 0))
            g = (lambda v: f(v[1], v[0])) if swap else (lambda v: f(v[0], v[1]))
            run(ctx, api, op, dst, (src, s), g, form, point=(1,))
            return
        c = scalar_of(s, dt)
        run(ctx, api, op, dst, (src,), (lambda v: f(c, v[0])) if swap else (lambda v: f(v[0], c)), form, nscalar=1)
    fn.__doc__ = (f"``{api}(dst, src, scalar, count)`` or ``{api}(dst, src, scalar, mask, repeatTime, "
                  f"UnaryRepeatParams)``; the scalar may come first or be a single-element tensor ({opcode}).")
    return MemBaseApi(fn, api)


_ARITH = "int8_t uint8_t int16_t half bfloat16_t int32_t float int64_t uint64_t"
Adds = _scalar("Adds", "RV_VADDS", "add", _ARITH)
Subs = _scalar("Subs", "RV_VADDS", "sub", "int16_t half bfloat16_t int32_t float int64_t uint64_t",
               (I64, U64), ("RV_VMULS", "RV_VADDS"), commutes=False)
Muls = _scalar("Muls", "RV_VMULS", "mul", "int16_t half bfloat16_t int32_t float int64_t uint64_t", (I64, U64))
Divs = _scalar("Divs", "RV_VDIV", "div", "half float int64_t uint64_t", (I64, U64), commutes=False)
Maxs = _scalar("Maxs", "RV_VMAXS", "max", _ARITH)
Mins = _scalar("Mins", "RV_VMINS", "min", _ARITH)
Ands = _scalar("Ands", "RV_VAND", "and", "int16_t uint16_t int64_t uint64_t", (I64, U64))
Ors = _scalar("Ors", "RV_VOR", "or", "int16_t uint16_t int64_t uint64_t", (I64, U64))
LeakyRelu = _scalar("LeakyRelu", "RV_VLRELU", "leakyrelu", "half float", ())

_INTS = dts("int8_t uint8_t int16_t uint16_t int32_t uint32_t int64_t uint64_t")
_SHIFT_COUNTS = dts("int8_t int16_t int32_t int64_t")


def _shift(api: str, name: str, opcode: str, tensor_opcode: str) -> MemBaseApi:
    def fn(dst: LocalTensor, src: LocalTensor, amount: Any, *args: Any, isSetMask: bool = True,
           mask_state: Any = None) -> None:
        ctx = current()
        check_same_type(ctx, api, dst, src)
        dt = dst.dtype
        f = mathops.op(name, dt)
        if isinstance(amount, LocalTensor):                   # per-element shift counts (count form)
            form = parse_form(ctx, api, args, UnaryRepeatParams)
            check_dtype(ctx, api, dt, _INTS)
            if amount.dtype not in _SHIFT_COUNTS or amount.dtype.itemsize != dt.itemsize:
                ctx.report("BAD_PARAMETER", f"{api}: shift counts of type {type_name(amount.dtype)} for "
                           f"{type_name(dt)} data (a signed type of the same width)")
            run(ctx, api, tensor_opcode, dst, (src, amount), lambda v: f(v[0], v[1]), form)
            return
        round_en = bool(args[3]) if len(args) == 4 else False
        if round_en:
            ctx.report("BAD_PARAMETER", f"{api}: roundEn = true is not supported on Ascend 950")
        form = parse_form(ctx, api, args[:3], UnaryRepeatParams, isSetMask, mask_state)
        check_dtype(ctx, api, dt, _INTS, form, _COUNT_ONLY)
        n = int(scalar_value(amount))
        if n < 0:
            ctx.report("BAD_PARAMETER", f"{api}: shift count {n} is negative")
        run(ctx, api, opcode, dst, (src,), lambda v: f(v[0], np.int64(n)), form, nscalar=1)
    fn.__doc__ = (f"``{api}(dst, src, scalar, count | mask, repeatTime, UnaryRepeatParams[, roundEn])`` or "
                  f"``{api}(dst, src0, shiftTensor, count)``.")
    return MemBaseApi(fn, api)


ShiftLeft = _shift("ShiftLeft", "shl", "RV_VSHLS", "RV_VSHL")
ShiftRight = _shift("ShiftRight", "shr", "RV_VSHRS", "RV_VSHR")

#: (src, dst) element types of Axpy on Ascend 950 (the scalar has the source type)
_AXPY = {(t, t) for t in dts("half float bfloat16_t int64_t uint64_t")} | {(dts("half")[0], dts("float")[0])}


def _axpy(dst: LocalTensor, src: LocalTensor, scalar: Any, *args: Any, isSetMask: bool = True,
          mask_state: Any = None, isReuseSource: bool = False) -> None:
    """``Axpy(dst, src, scalar, count | mask, repeatTime, UnaryRepeatParams)``: dst = scalar * src + dst
    (half sources with a float dst: the source converts exactly first). The high-level API of the same name
    (高阶API/数学计算) adds ``Axpy<T, U, isReuseSource>(dst, src, scalar, sharedTmpBuffer, calCount)``: the
    same operation, the buffer unused (it needs no temporary space here)."""
    api = "Axpy"
    ctx = current()
    if args and isinstance(args[0], LocalTensor):          # the high-level form
        if args[0].dtype != np.dtype(np.uint8):
            ctx.report("BAD_PARAMETER", f"{api}: sharedTmpBuffer must be a LocalTensor<uint8_t>")
        args = args[1:]
    form = parse_form(ctx, api, args, UnaryRepeatParams, isSetMask, mask_state)
    if (src.dtype, dst.dtype) not in _AXPY:
        ctx.report("BAD_PARAMETER", f"{api}: {type_name(src.dtype)} -> {type_name(dst.dtype)} is not a supported "
                   f"type pair on Ascend 950")
    elif isinstance(form, Level0) and dst.dtype.itemsize == 8:
        ctx.report("BAD_PARAMETER", f"{api}: 64-bit types are supported by the count form only")
    dt = dst.dtype
    c = scalar_of(scalar, src.dtype).astype(dt)
    fused = bool(ctx.machine.params["numerics"]["axpy_fused"])      # as the Reg Axpy
    if isinstance(form, Level0):
        form.strides.append(form.strides[0])
    run(ctx, api, "RV_VAXPY", dst, (src, dst), lambda v: mathops.fma(v[0].astype(dt), c, v[1], dt, fused), form,
        nscalar=1)


Axpy = MemBaseApi(_axpy, "Axpy")
