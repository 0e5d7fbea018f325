"""MemBase ``Select``: dst = selMask bit ? src0 : src1, in the three modes of the page.

* mode 0 (VSEL_CMPMASK_SPR): every repeat (VL chunk) uses the first 256/sizeof(T) bits of selMask;
* mode 1 (VSEL_TENSOR_SCALAR_MODE): src1 is a scalar; repeat r uses bits [r*lanes, (r+1)*lanes);
* mode 2 (VSEL_TENSOR_TENSOR_MODE): two tensors, bits consumed as in mode 1.

Forms: count ``(dst, selMask, src0, src1, selMode, count)``; level-0 ``(..., selMode, mask, repeatTime,
BinaryRepeatParams)`` (masked-off lanes keep dst); without a mask argument, with the mask register
(SetVectorMask) and the CmpMask register (SetCmpMask / Compare to the register): ``Select(dst, selMask,
src0, repeatTime, params)`` (mode 1, the scalar is element 0 of the CmpMask) and ``Select<T, selMode>(dst,
src0, src1, repeatTime, params)`` (mode 0: the selMask bits are the CmpMask; mode 2: the CmpMask holds the
UB address of the selMask). The "flexible scalar" forms accept the scalar, or a single-element tensor,
as src0 or src1. selMask is read as bits whatever its element type (bit i of byte j is bit 8j + i).
"""
from __future__ import annotations

import functools
from enum import Enum
from typing import Any

import numpy as np

from toolkit.ascendc.tensor import LocalTensor
from toolkit.engine.runtime import current

from .compare import cmpmask_addr
from .elementwise import Level0, MemBaseApi, broadcast, check_dtype, level0_mask, type_name
from .executor import Operand, apply
from .level0 import VL, check_u8, contiguous, counter_strided, from_arrays, strided
from .scalar import scalar_of
from .types import U8, dts
from .vfstream import count_stream, counter_stream, emit, level0_stream


class SELMODE(Enum):
    VSEL_CMPMASK_SPR = 0
    VSEL_TENSOR_SCALAR_MODE = 1
    VSEL_TENSOR_TENSOR_MODE = 2


_TYPES = dts("int8_t uint8_t int16_t uint16_t half bfloat16_t int32_t uint32_t float int64_t uint64_t")
_COUNT_ONLY = dts("int8_t uint8_t int64_t uint64_t")


@functools.lru_cache(maxsize=1024)
def _bits(layout: tuple, lanes: int, same_bits: bool) -> tuple:
    """(selMask byte Access, bit shift per entry) for a layout: ("count", n) or ("l0", repeat, act)."""
    if layout[0] == "count":
        pos = np.arange(layout[1], dtype=np.int64)
        step = pos // lanes
        if same_bits:
            pos = pos % lanes
    else:
        repeat, act = layout[1], np.asarray(layout[2], np.int64)
        step = np.repeat(np.arange(repeat, dtype=np.int64), act.size)
        lane = np.tile(act, repeat)
        pos = lane if same_bits else step * lanes + lane
    nsteps = int(step[-1]) + 1 if step.size else 0
    acc = from_arrays(("selbits", layout, lanes, same_bits), pos // 8, step, nsteps,
                      (int(pos.max()) // 8 + 1) if pos.size else 0)
    shift = (pos % 8).astype(np.uint8)
    shift.flags.writeable = False
    return acc, shift


def _layout(ctx, api: str, form: int | Level0, lanes: int) -> tuple:
    """(layout key, kind, mask) of a call: the count form, a level-0 mask, or counter mode."""
    if isinstance(form, int):
        return ("count", form), "count", None
    check_u8(ctx, api, repeatTime=form.repeat)
    kind, m = level0_mask(ctx, api, form, lanes)
    if kind == "counter":
        return ("count", m), "counter", m
    return ("l0", form.repeat, tuple(m.act.tolist())), "normal", m


def _accesses(t: LocalTensor, form, kind: str, m, lanes: int, k: int):
    w = t.dtype.itemsize
    if kind == "count":
        return contiguous(w, form, lanes)
    b, r = form.strides[k]
    return counter_strided(w, b, r, m, lanes) if kind == "counter" else strided(w, b, r, form.repeat, m)


def _run_select(ctx, api: str, dst: LocalTensor, sel_addr: int, a: Any, b: Any, form, same_bits: bool,
                nscalar: int) -> None:
    """``a`` / ``b``: a LocalTensor, ("point", tensor) or ("scalar", value) each."""
    dt = dst.dtype
    lanes = VL // dt.itemsize
    layout, kind, m = _layout(ctx, api, form, lanes)
    dacc = _accesses(dst, form, kind, m, lanes, 0)
    sel_acc, shift = _bits(layout, lanes, same_bits)
    srcs, consts = [], []
    for k, x in enumerate((a, b)):
        if isinstance(x, LocalTensor):
            srcs.append(Operand(x.addr, x.dtype, _accesses(x, form, kind, m, lanes, k + 1)))
            consts.append(None)
        elif x[0] == "point":
            srcs.append(Operand(x[1].addr, x[1].dtype, broadcast(dacc, x[1].dtype.itemsize), x[1].dtype.itemsize))
            consts.append(None)
        else:
            consts.append(scalar_of(x[1], dt))
    srcs.append(Operand(sel_addr, U8, sel_acc))

    def fn(v: list, rows: slice) -> np.ndarray:
        it = iter(v[:-1])
        x0, x1 = (next(it) if c is None else c for c in consts)
        bit = (v[-1] >> shift[rows]) & 1
        return np.where(bit.astype(bool), x0, x1)
    fn.positional = True
    if dacc.idx.size:
        apply(ctx, api, Operand(dst.addr, dt, dacc), srcs, fn)
    addrs_count = ((dst.addr, dt.itemsize),) + tuple((s.addr, s.dtype.itemsize) for s in srcs)
    meta = {"dtype": type_name(dt)}
    if kind == "count":
        instrs = count_stream("RV_VSEL", form, lanes, addrs_count)
        meta.update(form="count", count=form)
    else:
        addrs = ((dst.addr, *form.strides[0]),) + tuple((s.addr, 1, 8) for s in srcs)
        instrs = counter_stream("RV_VSEL", m, lanes, addrs) if kind == "counter" else \
            level0_stream("RV_VSEL", form.repeat, m.kind, m.value, addrs)
        meta.update(form="level0", repeat=layout[1] if kind == "normal" else -(-m // lanes), mask=kind)
    emit(ctx, api, 2 + len(srcs) + nscalar + (0 if kind == "count" else 6), instrs, meta)


def _select(*args: Any, isSetMask: bool = True, mask_state: Any = None, targs: Any = None,
            config: int = 1) -> None:
    """See the module doc for the forms."""
    api = "Select"
    ctx = current()
    reg_mode = targs.enum(SELMODE) if targs is not None else None
    if len(args) == 5 and not isinstance(args[4], SELMODE):
        _select_register(ctx, api, args, reg_mode, mask_state)
        return
    dst, sel, src0, src1, mode, *rest = args
    if not isinstance(mode, SELMODE):
        ctx.report("BAD_PARAMETER", f"{api}: selMode must be a SELMODE, got {mode!r}")
    form = Level0(rest[0], rest[1], rest[2].strides(), isSetMask, mask_state) if len(rest) == 3 else int(rest[0])
    if isinstance(form, int) and form < 0:
        ctx.report("BAD_PARAMETER", f"{api}: count {form} is negative")
    check_dtype(ctx, api, dst.dtype, _TYPES, form, _COUNT_ONLY)
    a, b = _sides(ctx, api, src0, src1, mode, int(config))
    _run_select(ctx, api, dst, sel.addr, a, b, form, mode == SELMODE.VSEL_CMPMASK_SPR,
                sum(1 for x in (a, b) if isinstance(x, tuple) and x[0] == "scalar"))


def _sides(ctx, api: str, src0: Any, src1: Any, mode: SELMODE, index: int) -> tuple:
    t0, t1 = isinstance(src0, LocalTensor), isinstance(src1, LocalTensor)
    if mode == SELMODE.VSEL_TENSOR_SCALAR_MODE and t0 and t1:      # a single-element tensor as the scalar
        return (("point", src0), src1) if index == 0 else (src0, ("point", src1))
    if mode != SELMODE.VSEL_TENSOR_SCALAR_MODE and not (t0 and t1):
        ctx.report("BAD_PARAMETER", f"{api}: {mode.name} selects between two tensors")
    return (src0 if t0 else ("scalar", src0)), (src1 if t1 else ("scalar", src1))


def _select_register(ctx, api: str, args: tuple, reg_mode: SELMODE | None, mask_state: Any) -> None:
    """The forms without a mask argument (mask register, CmpMask register)."""
    if reg_mode is None:                          # Select(dst, selMask, src0, repeatTime, params): mode 1
        dst, sel, src0, repeat, params = args
        form = Level0(None, repeat, params.strides(), False, mask_state)
        scalar = LocalTensor(cmpmask_addr(ctx), dst.dtype, 1)
        check_dtype(ctx, api, dst.dtype, _TYPES, form, _COUNT_ONLY)
        _run_select(ctx, api, dst, sel.addr, src0, ("point", scalar), form, False, 0)
        return
    dst, src0, src1, repeat, params = args
    form = Level0(None, repeat, params.strides(), False, mask_state)
    check_dtype(ctx, api, dst.dtype, _TYPES, form, _COUNT_ONLY)
    if reg_mode == SELMODE.VSEL_CMPMASK_SPR:
        _run_select(ctx, api, dst, cmpmask_addr(ctx), src0, src1, form, True, 0)
        return
    if reg_mode != SELMODE.VSEL_TENSOR_TENSOR_MODE:
        ctx.report("BAD_PARAMETER", f"{api}<T, {reg_mode.name}> without a selMask takes mode 0 or 2")
    _run_select(ctx, api, dst, _selmask_address(ctx, api), src0, src1, form, False, 0)


def _selmask_address(ctx, api: str) -> int:
    """Mode 2 without a selMask: the CmpMask register holds the selMask's UB address (low 32 bits)."""
    addr = cmpmask_addr(ctx)
    if ctx.dry_run:
        return addr
    ctx.ub.require_defined(addr, 4, f"{api} (the selMask address in the CmpMask register)")
    raw = np.asarray(ctx.ub.rd(addr, 4)).reshape(-1, 4)
    vals = {int(r.view(np.uint32)[0]) for r in raw}
    if len(vals) != 1:
        raise NotImplementedError(f"{api}: cores run in lock-step hold different selMask addresses")
    return vals.pop()


class _SelectApi(MemBaseApi):
    """Select: the basic API, and the high-level byte-mask Select (高阶API/数据过滤) of the same C++ name:
    ``Select(dst, src0, src1, mask, sharedTmpBuffer, SelectWithBytesMaskShapeInfo)``."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if len(args) == 6:                  # only then can it be the high-level form (imported on first use)
            from toolkit.ascendc.highlevel import filter as hl_filter
            if hl_filter.is_bytes_mask_form(args):
                return hl_filter.select_bytes_mask(*args, isReuseMask=kwargs.get("isReuseMask", True))
        kwargs.pop("isReuseMask", None)
        return super().__call__(*args, **kwargs)


Select = _SelectApi(_select, "Select")
Select.accepts = Select.accepts | {"isReuseMask"}
