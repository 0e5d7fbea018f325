"""Binary MemBase APIs: arithmetic (Add, Sub, Mul, Div, Max, Min), logic (And, Or), the fused ones of one
element type (AddRelu, SubRelu, FusedMulAdd, MulAddRelu, MulAddDst, Prelu, AbsSub) and Mull.

``Add(dst, src0, src1, count)`` / ``Add(dst, src0, src1, mask, repeatTime, BinaryRepeatParams)``.
Math: :mod:`.mathops` (fp32 IEEE, bf16 computed in fp32 and rounded RINT, Div correctly rounded float32,
integers wrap). Types per the Ascend 950 pages; 8- and 64-bit types in the count form only.
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from toolkit.ascendc.tensor import LocalTensor
from toolkit.engine.runtime import current

from . import mathops
from .elementwise import MemBaseApi, check_dtype, check_same_type, parse_form, run, run_count, type_name
from .params import BinaryRepeatParams
from .types import F16, F32, I64, U64, dts


def _binary(api: str, opcode: str | tuple, make: Callable[[np.dtype, Any], Callable], allowed: str,
            count_only: str = "int8_t uint8_t int64_t uint64_t", form_ok: str = "all") -> MemBaseApi:
    """A binary API: ``make(dtype, ctx)`` gives ``f(src0, src1) -> dst`` (``form_ok`` "count": the page
    documents the count form only)."""
    allowed_t, count_t = dts(allowed), dts(count_only) if count_only else ()

    def fn(dst: LocalTensor, src0: LocalTensor, src1: LocalTensor, *args: Any, isSetMask: bool = True,
           mask_state: Any = None) -> None:
        ctx = current()
        check_same_type(ctx, api, dst, src0, src1)
        form = parse_form(ctx, api, args, BinaryRepeatParams, isSetMask, mask_state)
        if form_ok == "count" and not isinstance(form, int):
            ctx.report("BAD_PARAMETER", f"{api}: only the count form exists")
        check_dtype(ctx, api, dst.dtype, allowed_t, form, count_t)
        f = make(dst.dtype, ctx)
        run(ctx, api, opcode, dst, (src0, src1), lambda v: f(v[0], v[1]), form)
    fn.__doc__ = (f"``{api}(dst, src0, src1, count)``" + ("" if form_ok == "count" else
                  f" or ``{api}(dst, src0, src1, mask, repeatTime, BinaryRepeatParams)``") + f" ({opcode}).")
    return MemBaseApi(fn, api)


def _plain(name: str) -> Callable:
    return lambda dt, ctx: mathops.op(name, dt)


def _then_relu(name: str) -> Callable:
    def make(dt, ctx):
        f, r = mathops.op(name, dt), mathops.op("relu", dt)
        return lambda a, b: r(f(a, b))
    return make


_ARITH = "int8_t uint8_t int16_t uint16_t half bfloat16_t int32_t uint32_t float int64_t uint64_t"
_INTS = "int8_t uint8_t int16_t uint16_t int32_t uint32_t int64_t uint64_t"
Add = _binary("Add", "RV_VADD", _plain("add"), _ARITH)
Sub = _binary("Sub", "RV_VSUB", _plain("sub"), _ARITH)
Mul = _binary("Mul", "RV_VMUL", _plain("mul"), "int16_t uint16_t half bfloat16_t int32_t uint32_t float int64_t uint64_t",
              "int64_t uint64_t")
Div = _binary("Div", "RV_VDIV", _plain("div"), "int16_t uint16_t half int32_t uint32_t float int64_t uint64_t",
              "int64_t uint64_t")
Max = _binary("Max", "RV_VMAX", _plain("max"), _ARITH)
Min = _binary("Min", "RV_VMIN", _plain("min"), _ARITH)
And = _binary("And", "RV_VAND", _plain("and"), _INTS)
Or = _binary("Or", "RV_VOR", _plain("or"), _INTS)
AddRelu = _binary("AddRelu", ("RV_VADD", "RV_VRELU"), _then_relu("add"), "int16_t half float int64_t uint64_t",
                  "int64_t uint64_t")
SubRelu = _binary("SubRelu", ("RV_VSUB", "RV_VRELU"), _then_relu("sub"), "int16_t half float int64_t uint64_t",
                  "int64_t uint64_t")
Prelu = _binary("Prelu", "RV_VPRELU", _plain("prelu"), "half float", "", "count")
AbsSub = _binary("AbsSub", "RV_VABSDIF", lambda dt, ctx: (
    lambda a, b: mathops.op("abs", dt)(mathops.op("sub", dt)(a, b))), "half float", "", "count")


def _dst_fma(api: str, opcode: str | tuple, relu: bool, dst_is_b: bool) -> MemBaseApi:
    """``dst = src0 * dst + src1`` (FusedMulAdd, MulAddRelu with a Relu) or ``dst = src0 * src1 + dst``
    (MulAddDst, ``dst_is_b`` False): dst is also a source."""
    allowed = dts("half bfloat16_t float int64_t uint64_t" if not relu else "half float int64_t uint64_t")

    def fn(dst: LocalTensor, src0: LocalTensor, src1: LocalTensor, *args: Any, isSetMask: bool = True,
           mask_state: Any = None) -> None:
        ctx = current()
        form = parse_form(ctx, api, args, BinaryRepeatParams, isSetMask, mask_state)
        dt = dst.dtype
        if dst_is_b:
            check_same_type(ctx, api, dst, src0, src1)
            check_dtype(ctx, api, dt, allowed, form, (I64, U64))
        else:
            _check_mul_add_dst(ctx, api, dst, src0, src1, form)
        fused = True                                  # as the Reg MulAddDst / MulDstAdd: one rounding
        r = mathops.op("relu", dt)

        def f(v: list) -> np.ndarray:
            s0, s1, d = (a.astype(dt) for a in v)
            out = mathops.fma(s0, d, s1, dt, fused) if dst_is_b else mathops.fma(s0, s1, d, dt, fused)
            return r(out) if relu else out
        run(ctx, api, opcode, dst, (src0, src1, dst), f, _three(form))
    fn.__doc__ = f"``{api}(dst, src0, src1, count | mask, repeatTime, BinaryRepeatParams)`` ({opcode})."
    return MemBaseApi(fn, api)


_MUL_ADD_DST = {(F16, F16): F16, (F32, F32): F32, (F16, F32): F32, (I64, I64): I64, (U64, U64): U64}


def _check_mul_add_dst(ctx, api: str, dst: LocalTensor, src0: LocalTensor, src1: LocalTensor, form) -> None:
    check_same_type(ctx, api, src0, src1)
    if (src0.dtype, dst.dtype) not in _MUL_ADD_DST:
        ctx.report("BAD_PARAMETER", f"{api}: {type_name(src0.dtype)} sources with a {type_name(dst.dtype)} dst "
                   f"is not a supported combination on Ascend 950")
    elif not isinstance(form, int) and dst.dtype.itemsize == 8:
        ctx.report("BAD_PARAMETER", f"{api}: 64-bit types are supported by the count form only")


def _three(form):
    """dst is read as a third source: it shares dst's strides in the level-0 form."""
    if isinstance(form, int):
        return form
    form.strides = [*form.strides, form.strides[0]]
    return form


FusedMulAdd = _dst_fma("FusedMulAdd", "RV_VMADD", False, True)
MulAddRelu = _dst_fma("MulAddRelu", ("RV_VMADD", "RV_VRELU"), True, True)
MulAddDst = _dst_fma("MulAddDst", "RV_VMULA", False, False)


def _mull(dst0: LocalTensor, dst1: LocalTensor, src0: LocalTensor, src1: LocalTensor, count: Any) -> None:
    """``Mull(dst0, dst1, src0, src1, count)``: the 64-bit product of 32-bit integers, its low 32 bits to
    dst0 and its high 32 bits to dst1 (one VMULL per VL chunk, two stores)."""
    api = "Mull"
    ctx = current()
    check_same_type(ctx, api, dst0, dst1, src0, src1)
    dt = dst0.dtype
    check_dtype(ctx, api, dt, dts("int32_t uint32_t"))
    n = parse_form(ctx, api, (count,), BinaryRepeatParams)
    wide = np.dtype(np.int64 if dt.kind == "i" else np.uint64)

    def part(shift: int) -> Callable:
        return lambda v: ((v[0].astype(wide) * v[1].astype(wide)) >> wide.type(shift)).astype(dt)
    run_count(ctx, api, "RV_VMULL", ((dst0, part(0)), (dst1, part(32))), (src0, src1), n)


Mull = MemBaseApi(_mull, "Mull")
