"""MemBase comparisons: ``Compare`` / ``Compares`` (bit results in a uint8 tensor, or ``Compare`` to the
CmpMask register), ``GetCmpMask`` / ``SetCmpMask``.

Results: bit i (little-endian within each byte) of dst is the comparison of element i. Count form: only
whole 256 B repeats are compared (the pages require count * sizeof(T) to be a multiple of 256; a tail
is ignored, with a COUNT_TRUNCATED warning). Level-0 form: repeat r writes its ``lanes`` bits (masked-off
lanes 0) at ``dst + r * lanes / 8`` bytes (assumed: the pages give no dst stride rule for the bit
result; consecutive repeats pack their results). ``Compare`` to the register keeps one repeat's bits in
the 128-bit CmpMask, modelled in reserved UB (machine file ``[membase] cmpmask_ub_addr``).
"""
from __future__ import annotations

import functools
from typing import Any

import numpy as np

from toolkit.ascendc.regbase.types import CMPMODE
from toolkit.ascendc.tensor import LocalTensor
from toolkit.engine.runtime import current

from .elementwise import Level0, MemBaseApi, check_dtype, level0_mask, operands, parse_form, type_name
from .executor import Operand, apply
from .level0 import VL, check_u8, contiguous, counter_strided, from_arrays, strided
from .params import BinaryRepeatParams, UnaryRepeatParams
from .scalar import scalar_of
from .types import F64, U8, dts
from .vfstream import count_stream, counter_stream, emit, level0_stream

_OPS = {CMPMODE.LT: np.less, CMPMODE.GT: np.greater, CMPMODE.EQ: np.equal, CMPMODE.LE: np.less_equal,
        CMPMODE.GE: np.greater_equal, CMPMODE.NE: np.not_equal}
_TYPES = dts("int8_t uint8_t int16_t uint16_t half bfloat16_t int32_t uint32_t float int64_t uint64_t double")
_COUNT_ONLY = dts("int8_t uint8_t int64_t uint64_t double")
CMPMASK_BYTES = 16


def cmpmask_addr(ctx) -> int:
    return int(ctx.machine.params["membase"]["cmpmask_ub_addr"])


@functools.lru_cache(maxsize=1024)
def _bit_bytes(nbytes: int, per_step: int) -> Any:
    """dst Access of ``nbytes`` packed result bytes, ``per_step`` of them per repeat / VL chunk."""
    idx = np.arange(nbytes, dtype=np.int64)
    return from_arrays(("cb", nbytes, per_step), idx, idx // max(per_step, 1), -(-nbytes // max(per_step, 1)),
                       nbytes)


def _pack(hits: np.ndarray) -> np.ndarray:
    """(rows, bits) booleans -> (rows, bits / 8) bytes, bit i of byte j = element 8j + i."""
    return np.packbits(hits.astype(np.uint8), axis=-1, bitorder="little")


def _full_lanes(vals: np.ndarray, act: np.ndarray, lanes: int, fill: Any) -> np.ndarray:
    """Active-lane values (rows, repeats * nact) spread to (rows, repeats * lanes), other lanes ``fill``."""
    rows = vals.shape[0]
    x = vals.reshape(rows, -1, act.size)
    out = np.full((rows, x.shape[1], lanes), fill, dtype=vals.dtype)
    out[:, :, act] = x
    return out.reshape(rows, -1)


def _compare_core(ctx, api: str, dst_addr: int, srcs: list, mode: CMPMODE, form: int | Level0,
                  cond, nscalar: int, point: tuple = ()) -> None:
    """Run a comparison whose per-element truth is ``cond(values) -> bool array`` and record its VF."""
    dt = srcs[0].dtype
    lanes = VL // dt.itemsize
    per = lanes // 8
    meta = {"dtype": type_name(dt)}
    if isinstance(form, int):
        n = form
        whole = n // lanes * lanes
        if whole != n:
            ctx.report("COUNT_TRUNCATED", f"{api}: count {n} is not a whole number of 256 B repeats; the last "
                       f"{n - whole} element(s) are not compared")
        ops = operands(srcs, [contiguous(s.dtype.itemsize, whole, lanes) for s in srcs], point)
        apply(ctx, api, Operand(dst_addr, U8, _bit_bytes(whole // 8, per)), ops, lambda v: _pack(cond(v)),
              lambda d: np.logical_and.reduce(d).reshape(d[0].shape[0], -1, 8).all(axis=2))
        addrs = ((dst_addr, 1),) + tuple((s.addr, 0 if k in point else s.dtype.itemsize) for k, s in enumerate(srcs))
        emit(ctx, api, 2 + len(srcs) + nscalar, count_stream("RV_VCMP", whole, lanes, addrs, store="NORM"),
             {**meta, "form": "count", "count": whole})
        return
    check_u8(ctx, api, repeatTime=form.repeat)
    kind, m = level0_mask(ctx, api, form, lanes)
    strides = form.strides[1:1 + len(srcs)]
    if kind == "counter":
        repeat, act = -(-m // lanes), np.arange(lanes)
        accs = [counter_strided(s.dtype.itemsize, b, r, m, lanes) for s, (b, r) in zip(srcs, strides)]
        spread = lambda vals: np.concatenate([vals, np.zeros((vals.shape[0], repeat * lanes - m), vals.dtype)], 1)
        instrs = counter_stream("RV_VCMP", m, lanes, ((dst_addr, 0, 0),) + tuple(
            (s.addr, b, r) for s, (b, r) in zip(srcs, strides)))
    else:
        repeat, act = form.repeat, m.act
        accs = [strided(s.dtype.itemsize, b, r, repeat, m) for s, (b, r) in zip(srcs, strides)]
        spread = None
        instrs = level0_stream("RV_VCMP", repeat, m.kind, m.value, ((dst_addr, 0, 0),) + tuple(
            (s.addr, b, r) for s, (b, r) in zip(srcs, strides)))

    def fn(v: list) -> np.ndarray:
        hits = cond(v)
        full = spread(hits) if spread is not None else _full_lanes(hits, act, lanes, False)
        return _pack(full)

    def dfn(d: list) -> np.ndarray:
        ok = np.logical_and.reduce(d)
        full = spread(ok) if spread is not None else _full_lanes(ok, act, lanes, True)
        return full.reshape(full.shape[0], -1, 8).all(axis=2)
    if repeat and act.size:
        apply(ctx, api, Operand(dst_addr, U8, _bit_bytes(repeat * per, per)),
              operands(srcs, accs, point), fn, dfn)
    emit(ctx, api, 2 + len(srcs) + nscalar + 2 * (1 + len(srcs)), instrs,
         {**meta, "form": "level0", "repeat": repeat, "mask": kind})


def _check(ctx, api: str, dst_dt: np.dtype, dt: np.dtype, mode: Any, form: Any) -> None:
    if not isinstance(mode, CMPMODE):
        ctx.report("BAD_PARAMETER", f"{api}: cmpMode must be a CMPMODE, got {mode!r}")
    check_dtype(ctx, api, dt, _TYPES, form, _COUNT_ONLY)
    if dst_dt not in dts("int8_t uint8_t"):
        ctx.report("BAD_PARAMETER", f"{api}: the result tensor holds bits in int8_t / uint8_t, not {type_name(dst_dt)}")
    if dt == F64 and mode not in (CMPMODE.EQ, None) and api == "Compares":
        ctx.report("BAD_PARAMETER", f"{api}: double supports CMPMODE::EQ only")


def _as_values(v: np.ndarray, dt: np.dtype) -> np.ndarray:
    return v.astype(np.float32) if dt.name == "bfloat16" else v


def _compare(*args: Any, isSetMask: bool = True, mask_state: Any = None) -> None:
    """``Compare(dst, src0, src1, cmpMode, count | mask, repeatTime, BinaryRepeatParams)`` or, to the
    CmpMask register, ``Compare(src0, src1, cmpMode, mask, BinaryRepeatParams)`` (one repeat)."""
    api = "Compare"
    ctx = current()
    if isinstance(args[2], CMPMODE):                        # to the register
        src0, src1, mode, mask, params = args
        form = Level0(mask, 1, params.strides(), isSetMask, mask_state)
        dst_addr, dst_dt = cmpmask_addr(ctx), U8
        if src0.dtype not in dts("half float"):
            ctx.report("BAD_PARAMETER", f"{api} to the CmpMask register takes half or float, not {type_name(src0.dtype)}")
    else:
        dst, src0, src1, mode, *rest = args
        form = parse_form(ctx, api, tuple(rest), BinaryRepeatParams, isSetMask, mask_state)
        dst_addr, dst_dt = dst.addr, dst.dtype
    if src0.dtype != src1.dtype:
        ctx.report("BAD_PARAMETER", f"{api}: source types differ")
    _check(ctx, api, dst_dt, src0.dtype, mode, form)
    op = _OPS.get(mode, np.equal)
    dt = src0.dtype
    _compare_core(ctx, api, dst_addr, [src0, src1], mode, form,
                  lambda v: op(_as_values(v[0], dt), _as_values(v[1], dt)), 0)


Compare = MemBaseApi(_compare, "Compare")


def _compares(dst: LocalTensor, a: Any, b: Any, mode: CMPMODE, *args: Any, isSetMask: bool = True,
              mask_state: Any = None, config: int = 1) -> None:
    """``Compares(dst, src0, scalar, cmpMode, count | mask, repeatTime, UnaryRepeatParams)``; the scalar may
    come first (``scalar OP src``) or be a single-element tensor (BinaryConfig scalarTensorIndex)."""
    api = "Compares"
    ctx = current()
    form = parse_form(ctx, api, args, UnaryRepeatParams, isSetMask, mask_state)
    ta, tb = isinstance(a, LocalTensor), isinstance(b, LocalTensor)
    if ta and tb:
        src, pt, first = (b, a, True) if int(config) == 0 else (a, b, False)
        s = None
    else:
        src, s, first, pt = (a, b, False, None) if ta else (b, a, True, None)
    dt = src.dtype
    _check(ctx, api, dst.dtype, dt, mode, form)
    op = _OPS.get(mode, np.equal)
    srcs = [src]
    if pt is not None:                                   # element 0 of a tensor, read in the VF
        if isinstance(form, Level0):
            form.strides.append((0, 0))
        value = None
        srcs.append(pt)
    else:
        value = _as_values(scalar_of(s, dt), dt)

    def cond(v: list) -> np.ndarray:
        x = _as_values(v[0], dt)
        c = _as_values(v[1], dt) if value is None else value
        return op(c, x) if first else op(x, c)
    _compare_core(ctx, api, dst.addr, srcs, mode, form, cond, 1, (1,) if pt is not None else ())


Compares = MemBaseApi(_compares, "Compares")


def _set_cmp_mask(src: LocalTensor) -> None:
    """``SetCmpMask(src)``: the 128-bit CmpMask register from the first 16 bytes of src (a selMask, a
    scalar for Select mode 1, or the UB address of a selMask for mode 2)."""
    api = "SetCmpMask"
    ctx = current()
    _copy16(ctx, api, src.addr, cmpmask_addr(ctx), src.dtype)


def _get_cmp_mask(dst: LocalTensor) -> None:
    """``GetCmpMask(dst)``: the 128-bit CmpMask register to the first 16 bytes of dst."""
    api = "GetCmpMask"
    ctx = current()
    _copy16(ctx, api, cmpmask_addr(ctx), dst.addr, dst.dtype)


def _copy16(ctx, api: str, src: int, dst: int, dt: np.dtype) -> None:
    acc = contiguous(1, CMPMASK_BYTES, VL)
    apply(ctx, api, Operand(dst, U8, acc, 16), [Operand(src, U8, acc, 16)], lambda v: v[0])
    emit(ctx, api, 2, count_stream((), CMPMASK_BYTES, VL, ((dst, 1), (src, 1))),
         {"dtype": type_name(dt), "form": "count", "count": CMPMASK_BYTES})


SetCmpMask = MemBaseApi(_set_cmp_mask, "SetCmpMask")
GetCmpMask = MemBaseApi(_get_cmp_mask, "GetCmpMask")
