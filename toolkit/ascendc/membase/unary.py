"""Unary MemBase APIs (Exp, Ln, Sqrt, Rsqrt, Reciprocal, Abs, Relu, Not, Neg), Duplicate and
CreateVecIndex.

``Sqrt(dst, src, count)`` / ``Sqrt(dst, src, mask, repeatTime, UnaryRepeatParams)``;
``Duplicate(dst, scalar | src, count)`` / ``Duplicate(dst, scalar, mask, repeatTime, dstBlockStride,
dstRepeatStride)``; ``CreateVecIndex(dst, firstValue, count | mask, repeatTime, dstBlkStride, dstRepStride)``.
Sqrt/Exp/Ln/Rsqrt/Reciprocal are correctly rounded (machine setting ``div_sqrt_exp``; the hardware is
within 1 ulp, with FTZ unless a config algo says otherwise: every config is accepted, none changes the
result here).
"""
from __future__ import annotations

import functools
from typing import Any

import numpy as np

from toolkit.ascendc.dtypes import TemplateValue, scalar_value
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
)
from .level0 import VL
from .params import CopyRepeatParams, UnaryRepeatParams
from .scalar import scalar_of
from .types import F64, dts, is_float


def _unary(api: str, name: str, opcode: str | tuple, allowed: str, count_only: str = "",
           form_ok: str = "all") -> MemBaseApi:
    allowed_t, count_t = dts(allowed), dts(count_only) if count_only else ()

    def fn(dst: LocalTensor, src: LocalTensor, *args: Any, isSetMask: bool = True, mask_state: Any = None) -> None:
        ctx = current()
        check_same_type(ctx, api, dst, src)
        form = parse_form(ctx, api, args, UnaryRepeatParams, isSetMask, mask_state)
        if form_ok == "count" and isinstance(form, Level0):
            ctx.report("BAD_PARAMETER", f"{api}: only the count form exists")
        check_dtype(ctx, api, dst.dtype, allowed_t, form, count_t)
        f = mathops.op(name, dst.dtype)
        run(ctx, api, opcode, dst, (src,), lambda v: f(v[0]), form)
    fn.__doc__ = f"``{api}(dst, src, count)`` or ``{api}(dst, src, mask, repeatTime, UnaryRepeatParams)`` ({opcode})."
    return MemBaseApi(fn, api)


Sqrt = _unary("Sqrt", "sqrt", "RV_VSQRT", "half float")
class _ExpApi(MemBaseApi):
    """Exp: the basic API, and the high-level ``Exp<T, taylorExpandLevel, isReuseSource>`` of the same C++
    name (高阶API/数学计算): template arguments that name ``taylorExpandLevel`` select the high-level one."""

    def __getitem__(self, targs: Any):
        key = targs if isinstance(targs, tuple) else (targs,)
        if any(isinstance(a, TemplateValue) and a.name == "taylorExpandLevel" for a in key):
            from toolkit.ascendc.highlevel.math import HLExp
            return HLExp[targs]
        return super().__getitem__(targs)


_basic_exp = _unary("Exp", "exp", "RV_VEXP", "half float")
Exp = _ExpApi(_basic_exp.fn, "Exp")
Ln = _unary("Ln", "ln", "RV_VLN", "half float")
Rsqrt = _unary("Rsqrt", "rsqrt", "RV_VRSQRT", "half float")
Reciprocal = _unary("Reciprocal", "reciprocal", "RV_VREC", "half float int64_t uint64_t", "int64_t uint64_t")
Abs = _unary("Abs", "abs", "RV_VABS", "int8_t int16_t half int32_t float int64_t", "int8_t int64_t")
Relu = _unary("Relu", "relu", "RV_VRELU", "half int32_t float int64_t", "int64_t")
Not = _unary("Not", "not", "RV_VNOT", "int8_t uint8_t int16_t uint16_t half int32_t uint32_t float int64_t uint64_t",
             "int8_t uint8_t int64_t uint64_t")
Neg = _unary("Neg", "neg", "RV_VNEG", "int8_t int16_t half int32_t float int64_t", "", "count")

_DUP_TYPES = dts("int8_t uint8_t int16_t uint16_t half bfloat16_t int32_t uint32_t float int64_t uint64_t")
_DUP_COUNT_ONLY = dts("int8_t uint8_t int64_t uint64_t")


def _level0_fill(ctx, api: str, args: tuple, isSetMask: bool, mask_state: Any) -> int | Level0:
    """``(count,)`` or ``(mask, repeatTime, dstBlkStride, dstRepStride)`` of a fill API."""
    if len(args) == 4:
        return Level0(args[0], args[1], [(args[2], args[3])], isSetMask, mask_state)
    return parse_form(ctx, api, args, UnaryRepeatParams)


def _duplicate(dst: LocalTensor, scalar: Any, *args: Any, isSetMask: bool = True, mask_state: Any = None) -> None:
    """``Duplicate(dst, scalar, count)``, ``Duplicate(dst, src, count)`` (src[0] everywhere) or
    ``Duplicate(dst, scalar, mask, repeatTime, dstBlockStride, dstRepeatStride)`` (VDUP)."""
    api = "Duplicate"
    ctx = current()
    form = _level0_fill(ctx, api, args, isSetMask, mask_state)
    check_dtype(ctx, api, dst.dtype, _DUP_TYPES, form, _DUP_COUNT_ONLY)
    if isinstance(scalar, LocalTensor):
        check_same_type(ctx, api, dst, scalar)
        if isinstance(form, Level0):
            ctx.report("BAD_PARAMETER", f"{api}: the tensor source form is a count form")
        run(ctx, api, "RV_VDUP", dst, (scalar,), lambda v: v[0], form, point=(0,))
        return
    s = scalar_of(scalar, dst.dtype)
    run(ctx, api, "RV_VDUP", dst, (), lambda v: s, form, nscalar=1)


Duplicate = MemBaseApi(_duplicate, "Duplicate")

_INDEX_TYPES = dts("int8_t int16_t half int32_t float int64_t")


@functools.lru_cache(maxsize=256)
def _lane_numbers(form_key: tuple) -> np.ndarray:
    """Index of each written element: its position in the count form; ``r * lanes + lane`` in level 0."""
    kind, n, lanes, act = form_key
    if kind == "count":
        return np.arange(n, dtype=np.int64)
    reps = np.arange(n, dtype=np.int64)[:, None] * lanes
    return (reps + np.asarray(act, np.int64)[None, :]).ravel()


def _create_vec_index(dst: LocalTensor, firstValue: Any, *args: Any, isSetMask: bool = True,
                      mask_state: Any = None) -> None:
    """``CreateVecIndex(dst, firstValue, count)``: dst[i] = firstValue + i; level-0 form
    ``(mask, repeatTime, dstBlkStride, dstRepStride)``: lane e of repeat r gets firstValue + r*lanes + e
    (assumed: the index runs on across repeats, as the count form's; VCI)."""
    api = "CreateVecIndex"
    ctx = current()
    form = _level0_fill(ctx, api, args, isSetMask, mask_state)
    dt = dst.dtype
    check_dtype(ctx, api, dt, _INDEX_TYPES, form, dts("int8_t int64_t"))
    start = scalar_value(firstValue)
    lanes = VL // dt.itemsize

    def values(n_entries: int, key: tuple) -> np.ndarray:
        idx = _lane_numbers(key)[:n_entries]
        if is_float(dt):
            return (np.float64(start) + idx.astype(F64)).astype(np.float32).astype(dt)
        return (np.int64(int(start)) + idx).astype(dt)

    if isinstance(form, Level0):
        from .elementwise import level0_mask
        kind, m = level0_mask(ctx, api, form, lanes)
        key = ("count", m, lanes, ()) if kind == "counter" else ("l0", form.repeat, lanes, tuple(m.act.tolist()))
    else:
        key = ("count", form, lanes, ())
    run(ctx, api, "RV_VCI", dst, (), lambda v: values(_size(key), key), form, nscalar=1)


def _size(key: tuple) -> int:
    kind, n, _, act = key
    return n if kind == "count" else n * len(act)


CreateVecIndex = MemBaseApi(_create_vec_index, "CreateVecIndex")


_COPY_TYPES = dts("int8_t uint8_t int16_t uint16_t half bfloat16_t int32_t uint32_t float int64_t uint64_t")


def _copy(dst: LocalTensor, src: LocalTensor, *args: Any, isSetMask: bool = True, mask_state: Any = None) -> None:
    """``Copy(dst, src, count)`` (UB -> UB) or ``Copy(dst, src, mask, repeatTime, CopyRepeatParams)``: a
    load and a store per VL chunk or repeat. 8-bit data in the level-0 form is masked by 16-bit lanes
    (assumed: a 128-bit mask cannot select 256 byte lanes; the pages do not say)."""
    api = "Copy"
    ctx = current()
    check_same_type(ctx, api, dst, src)
    check_dtype(ctx, api, dst.dtype, _COPY_TYPES)
    form = parse_form(ctx, api, args, CopyRepeatParams, isSetMask, mask_state)
    if isinstance(form, Level0) and dst.dtype.itemsize == 1:
        dst, src = (LocalTensor(t.addr, np.dtype(np.uint16), t.count // 2) for t in (dst, src))
    run(ctx, api, (), dst, (src,), lambda v: v[0], form, limits=(65535, 4095))


Copy = MemBaseApi(_copy, "Copy")
