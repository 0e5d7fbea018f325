"""MemBase fused ops with a type conversion: AddReluCast, SubReluCast, MulCast, MulsCast, AddDeqRelu,
CastDequant, ExpSub.

* AddReluCast / SubReluCast: dst = Cast(Relu(src0 +/- src1)); MulCast: dst = Cast(src0 * src1). The sum or
  product is rounded in the source type, the conversion is RINT with saturation (assumed: the pages name no
  round mode; the precision-conversion page rounds inexact conversions RINT and saturates on overflow).
* MulsCast: float data times a scalar (either side, or a single-element tensor): the exact product rounded
  once to half with CAST_ROUND, saturating (as the Reg MulsCast the library runs).
* AddDeqRelu: half dst = Relu(Deq(src0 + src1)) with Deq(x) = half(x * 2^-17 * scale * 2^17), the scale
  from SetDeqScale(half).
* CastDequant: int32 -> half as Cast with DEQSCALE; int16 -> int8 / uint8: Cast(src * scale + offset)
  with RINT and saturation to the signMode's type, the scale read as a (1, 8, 10) float (mantissa cut to
  10 bits), per tensor (SetDeqScale(float, offset, signMode)) or, with isVecDeq, element k of each 32 B
  block using parameter group k of the vdeq tensor. Each 16-element source block gives 16 bytes written to
  the upper half of a 32 B destination block with halfBlock (the page's example), else the lower half;
  the other half is not written.
* ExpSub: dst = exp(src0 - src1) of the exact difference of the (float-widened) sources, rounded once, as
  the Reg ExpSub the library runs (assumed, as there).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from toolkit.ascendc.numerics import nudge
from toolkit.ascendc.regbase.types import RoundMode
from toolkit.ascendc.tensor import LocalTensor
from toolkit.engine.runtime import current

from . import mathops
from .cast import cast_values
from .elementwise import Level0, MemBaseApi, check_same_type, parse_form, run, type_name
from .executor import Operand, apply
from .level0 import from_arrays
from .maskstate import unpack_vdeq
from .params import BinaryRepeatParams, UnaryRepeatParams
from .scalar import _operands as _scalar_operands
from .scalar import scalar_of
from .types import F16, F32, I8, I16, I32, I64, U8, dts
from .vfstream import count_stream, emit

_PAIRS = {"AddReluCast": "half int8_t, int16_t int8_t, float half, int64_t float, int64_t int32_t",
          "SubReluCast": "half int8_t, int16_t int8_t, float half, int64_t float, int64_t int32_t",
          "MulCast": "half int8_t, half uint8_t, int64_t float, int64_t int32_t"}


def _pairs(text: str) -> set:
    return {tuple(dts(p)) for p in text.split(", ")}


def _overflow(ctx) -> str:
    return ctx.machine.params["numerics"]["float_to_bf16_overflow"]


def _binary_cast(api: str, name: str, relu: bool, opcodes: tuple) -> MemBaseApi:
    allowed = _pairs(_PAIRS[api])

    def fn(dst: LocalTensor, src0: LocalTensor, src1: LocalTensor, *args: Any, isSetMask: bool = True,
           mask_state: Any = None) -> None:
        ctx = current()
        check_same_type(ctx, api, src0, src1)
        form = parse_form(ctx, api, args, BinaryRepeatParams, isSetMask, mask_state)
        sdt, ddt = src0.dtype, dst.dtype
        if (sdt, ddt) not in allowed:
            ctx.report("BAD_PARAMETER", f"{api}: {type_name(sdt)} -> {type_name(ddt)} is not a supported pair")
        elif isinstance(form, Level0) and sdt == I64:
            ctx.report("BAD_PARAMETER", f"{api}: int64_t sources are supported by the count form only")
        f, r = mathops.op(name, sdt), mathops.op("relu", sdt)
        ov = _overflow(ctx)

        def g(v: list) -> np.ndarray:
            x = f(v[0], v[1])
            return cast_values(r(x) if relu else x, ddt, RoundMode.CAST_RINT, ov)
        run(ctx, api, opcodes, dst, (src0, src1), g, form, load="NORM",
            store="PACK_B16" if ddt.itemsize < sdt.itemsize else "NORM")
    fn.__doc__ = f"``{api}(dst, src0, src1, count | mask, repeatTime, BinaryRepeatParams)`` ({'+'.join(opcodes)})."
    return MemBaseApi(fn, api)


AddReluCast = _binary_cast("AddReluCast", "add", True, ("RV_VADD", "RV_VRELU", "RV_VCVT_F2I"))
SubReluCast = _binary_cast("SubReluCast", "sub", True, ("RV_VSUB", "RV_VRELU", "RV_VCVT_F2I"))
MulCast = _binary_cast("MulCast", "mul", False, ("RV_VMUL", "RV_VCVT_F2I"))


def _muls_cast(dst: LocalTensor, src0: Any, src1: Any, count: Any, config: int = 1) -> None:
    """``MulsCast(dst, src0, src1, count)``: float data times a scalar (on either side, or a single-element
    tensor) converted to half with CAST_ROUND (saturating)."""
    api = "MulsCast"
    ctx = current()
    src, s, first, point = _scalar_operands(ctx, api, src0, src1, int(config))
    if src.dtype != F32 or dst.dtype != F16:
        ctx.report("BAD_PARAMETER", f"{api}: float sources and a half dst, got {type_name(src.dtype)} -> "
                   f"{type_name(dst.dtype)}")
    n = parse_form(ctx, api, (count,), UnaryRepeatParams)
    def g(x: np.ndarray, c: np.ndarray) -> np.ndarray:
        p = x.astype(np.float64) * np.asarray(c, np.float64)   # exact, then one CAST_ROUND (as the Reg MulsCast)
        return np.clip(cast_values(p, F16, RoundMode.CAST_ROUND, "inf_nan").astype(F32), -65504, 65504).astype(F16)
    if point:
        run(ctx, api, "RV_VMULSCVT", dst, (src, s), lambda v: g(v[0], v[1]), n, point=(1,),
            store="PACK_B32")
    else:
        c = scalar_of(s, F32)
        run(ctx, api, "RV_VMULSCVT", dst, (src,), lambda v: g(v[0], c), n, nscalar=1,
            store="PACK_B32")


MulsCast = MemBaseApi(_muls_cast, "MulsCast")


def _deq(x: np.ndarray, scale: float) -> np.ndarray:
    """int32 -> half dequantisation: half(x * 2^-17 * scale * 2^17) (the pages' overflow guard)."""
    return (x.astype(F32) * np.float32(2.0 ** -17) * np.float32(scale) * np.float32(2.0 ** 17)).astype(F16)


def _add_deq_relu(dst: LocalTensor, src0: LocalTensor, src1: LocalTensor, *args: Any, isSetMask: bool = True,
                  mask_state: Any = None) -> None:
    """``AddDeqRelu(dst half, src0 int32, src1 int32, count | mask, repeatTime, BinaryRepeatParams)``."""
    api = "AddDeqRelu"
    ctx = current()
    check_same_type(ctx, api, src0, src1)
    if src0.dtype != I32 or dst.dtype != F16:
        ctx.report("BAD_PARAMETER", f"{api}: int32_t sources and a half dst, got {type_name(src0.dtype)} -> "
                   f"{type_name(dst.dtype)}")
    form = parse_form(ctx, api, args, BinaryRepeatParams, isSetMask, mask_state)
    scale = mask_state.deq_scale if mask_state is not None else 1.0
    relu = mathops.op("relu", F16)
    run(ctx, api, ("RV_VADD", "RV_VCVT_I2F", "RV_VRELU"), dst, (src0, src1),
        lambda v: relu(_deq(v[0] + v[1], scale)), form, store="PACK_B32")


AddDeqRelu = MemBaseApi(_add_deq_relu, "AddDeqRelu")


def _scale19(scale: float) -> np.float32:
    """The float scale as the hardware reads it: 1 sign, 8 exponent and 10 mantissa bits (the rest cut)."""
    bits = np.array(scale, np.float32).view(np.uint32) & np.uint32(0xFFFFE000)
    return bits.view(np.float32)[()]


def _cast_dequant(dst: LocalTensor, src: LocalTensor, *args: Any, isSetMask: bool = True, mask_state: Any = None,
                  isVecDeq: bool = True, halfBlock: bool = True) -> None:
    """``CastDequant<T, U, isVecDeq, halfBlock>(dst, src, count | mask, repeatTime, UnaryRepeatParams)``."""
    api = "CastDequant"
    ctx = current()
    sdt, ddt = src.dtype, dst.dtype
    form = parse_form(ctx, api, args, UnaryRepeatParams, isSetMask, mask_state)
    st = mask_state
    if (sdt, ddt) == (I32, F16):
        scale = st.deq_scale if st is not None else 1.0
        run(ctx, api, "RV_VCVT_I2F", dst, (src,), lambda v: _deq(v[0], scale), form, store="PACK_B32")
        return
    if sdt != I16 or ddt not in (I8, U8):
        ctx.report("BAD_PARAMETER", f"{api}: {type_name(sdt)} -> {type_name(ddt)} is not a supported pair")
        return
    if not isinstance(form, int):
        raise NotImplementedError(f"{api}: the level-0 form of int16 -> b8 is not modelled")
    params = _vdeq_params(ctx, api, st) if isVecDeq else None
    signed = ddt == I8
    if not isVecDeq and st is not None and st.deq_signed != signed:
        ctx.report("BAD_PARAMETER", f"{api}: SetDeqScale signMode {st.deq_signed} does not match a "
                   f"{type_name(ddt)} dst")
    scale = np.float32(_scale19(st.deq_scale if st is not None else 1.0))
    offset = np.float32(st.deq_offset if st is not None else 0)
    lo, hi = (-128, 127) if signed else (0, 255)

    def g(v: list, rows: slice) -> np.ndarray:
        x = v[0].astype(F32)
        if params is not None:
            k = (np.arange(n) % 16)[rows]
            y = x * params[0][k] + params[1][k]
        else:
            y = x * scale + offset
        return np.clip(np.rint(y), lo, hi).astype(ddt)
    g.positional = True
    n = form
    i = np.arange(n, dtype=np.int64)
    didx = (i // 16) * 32 + (16 if halfBlock else 0) + i % 16
    step = i // 128
    nsteps = -(-n // 128)
    dacc = from_arrays(("cdq-d", n, bool(halfBlock)), didx, step, nsteps, (int(didx.max()) + 1) if n else 0)
    sacc = from_arrays(("cdq-s", n), i.copy(), step.copy(), nsteps, nsteps * 256)
    if n:
        apply(ctx, api, Operand(dst.addr, ddt, dacc), [Operand(src.addr, sdt, sacc)], g)
    emit(ctx, api, 3, count_stream("RV_VCVT_I2I", n, 128, ((dst.addr, 1), (src.addr, 2)), store="PACK_B16"),
         {"dtype": type_name(ddt), "form": "count", "count": n})


def _vdeq_params(ctx, api: str, st: Any) -> tuple[np.ndarray, np.ndarray]:
    """(scales, offsets) of the 16 groups in the vdeq tensor SetDeqScale(vdeq, ...) named."""
    if st is None or st.vdeq_addr < 0:
        ctx.report("BAD_PARAMETER", f"{api}: isVecDeq needs SetDeqScale(vdeq, VdeqInfo) first")
        return np.ones(16, F32), np.zeros(16, F32)
    a = st.vdeq_addr
    if ctx.dry_run:
        return np.ones(16, F32), np.zeros(16, F32)
    ctx.ub.require_defined(a, 128, f"{api} (the vdeq parameters)")
    words = np.asarray(ctx.ub.data[a:a + 128]).view(np.uint64)
    groups = [unpack_vdeq(int(w)) for w in words]
    return (np.array([_scale19(s) for s, _, _ in groups], F32), np.array([o for _, o, _ in groups], F32))


CastDequant = MemBaseApi(_cast_dequant, "CastDequant", batchable=False)


def _exp_sub(dst: LocalTensor, src0: LocalTensor, src1: LocalTensor, count: Any) -> None:
    """``ExpSub<T, U>(dst, src0, src1, count)``: dst = exp(src0 - src1), half sources widened to float."""
    api = "ExpSub"
    ctx = current()
    check_same_type(ctx, api, src0, src1)
    if src0.dtype not in (F16, F32) or dst.dtype not in (F16, F32):
        ctx.report("BAD_PARAMETER", f"{api}: half / float operands, got {type_name(src0.dtype)} -> "
                   f"{type_name(dst.dtype)}")
    n = parse_form(ctx, api, (count,), UnaryRepeatParams)
    ddt = dst.dtype
    run(ctx, api, "RV_VEXPSUB", dst, (src0, src1),        # as the Reg ExpSub: e^(exact difference),
        lambda v: nudge("RV_VEXPSUB", np.exp(v[0].astype(np.float64) - v[1].astype(np.float64)).astype(ddt),
                        *v), n)                                                               # one rounding


ExpSub = MemBaseApi(_exp_sub, "ExpSub")
