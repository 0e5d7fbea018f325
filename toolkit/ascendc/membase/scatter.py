"""MemBase ``Gather`` (per-element byte offsets), ``Gatherb`` (per-block offsets) and ``Scatter``.

* ``Gather(dst, src, srcOffset, srcBaseAddr, count)``: dst[i] = element at byte ``src + srcBaseAddr +
  srcOffset[i]``; level-0 ``(..., mask, repeatTime, dstRepStride)``: repeat r, lane e takes offset
  ``srcOffset[r*lanes + e]`` and goes to ``dst + r*dstRepStride*32 B`` + e elements (masked-off lanes keep
  dst; assumed: the offsets are consumed per lane, as the count form does per element).
* ``Gatherb(dst, src, offset, repeatTime, GatherRepeatParams{dstBlkStride, dstRepStride})``: block j of
  repeat i (32 B from ``src + offset[8i + j]`` bytes) goes to ``dst + (i*dstRepStride + j*dstBlkStride)*32 B``
  (dstBlkStride 0 counts as 1).
* ``Scatter(dst, src, dstOffset, dstBaseAddr, count)``: the element src[i] goes to byte ``dst +
  dstBaseAddr + dstOffset[i]``; level-0 ``(..., mask, repeatTime, srcRepStride)`` reads repeat r from
  ``src + r*srcRepStride*32 B``. Repeated offsets: the last write wins (the page: unpredictable).

Offsets are data: these calls run core by core (not batched), and the offsets are checked (element
alignment, inside UB). On 950: VGATHER / VGATHERB / VSCATTER per VL chunk or repeat.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from toolkit.ascendc.dtypes import scalar_value
from toolkit.ascendc.tensor import LocalTensor
from toolkit.engine.runtime import current

from .elementwise import Level0, MemBaseApi, check_dtype, level0_mask, type_name
from .executor import Operand, apply
from .level0 import BLOCK, VL, check_u8, from_arrays
from .params import GatherRepeatParams
from .types import U32, dts
from .vfstream import emit, gather_scatter_stream

_TYPES = dts("int8_t uint8_t int16_t uint16_t half bfloat16_t int32_t uint32_t float int64_t uint64_t")
_COUNT_ONLY = dts("int8_t uint8_t")


def _offsets(ctx, api: str, t: LocalTensor, n: int) -> np.ndarray:
    if t.dtype != U32:
        ctx.report("BAD_PARAMETER", f"{api}: offsets are a uint32_t tensor, not {type_name(t.dtype)}")
    ctx.ub.check(t.addr, n * 4, api, 32)
    if ctx.dry_run:                                   # a plan-only run holds no data: offsets 0
        return np.zeros(n, np.int64)
    ctx.ub.require_defined(t.addr, n * 4, f"{api} (the offset tensor)")
    return np.asarray(ctx.ub.data[t.addr:t.addr + n * 4]).view(np.uint32).astype(np.int64)


def _elements(ctx, api: str, base: int, offs: np.ndarray, dt: np.dtype) -> np.ndarray:
    """Element indices (from UB address 0) of byte addresses ``base + offs``; misaligned or outside UB
    offsets are a BAD_PARAMETER / UB_OUT_OF_BOUNDS diagnostic."""
    w = dt.itemsize
    addr = base + offs
    if offs.size and (addr % w).any():
        ctx.report("BAD_PARAMETER", f"{api}: an offset is not a multiple of the element size {w}")
    if offs.size:
        ctx.ub.check(int(addr.min()), int(addr.max() - addr.min()) + w, api, 1)
    return addr // w


def _lanes_of(ctx, api: str, dt: np.dtype, args: tuple, isSetMask: bool, mask_state: Any):
    """(entries: (repeat, lane) pairs in step order as flat lane numbers r*lanes + e, repeat stride, steps)."""
    lanes = VL // dt.itemsize
    if len(args) == 1:
        n = int(scalar_value(args[0]))
        if n < 0:
            ctx.report("BAD_PARAMETER", f"{api}: count {n} is negative")
        return np.arange(n, dtype=np.int64), None, -(-n // lanes), lanes
    mask, repeat, stride = args
    repeat, stride = int(scalar_value(repeat)), int(scalar_value(stride))
    check_u8(ctx, api, repeatTime=repeat)
    form = Level0(mask, repeat, [(1, stride)], isSetMask, mask_state)
    kind, m = level0_mask(ctx, api, form, lanes)
    if kind == "counter":
        return np.arange(m, dtype=np.int64), stride, -(-m // lanes), lanes
    flat = (np.arange(repeat, dtype=np.int64)[:, None] * lanes + m.act[None, :]).ravel()
    return flat, stride, repeat, lanes


def _positions(flat: np.ndarray, stride: int | None, lanes: int, dt: np.dtype) -> np.ndarray:
    """Element offsets (from the tensor base) of the contiguous side: the count form's i, or repeat r at
    ``r * stride * 32 B`` plus the lane."""
    if stride is None:
        return flat
    return flat // lanes * (stride * BLOCK // dt.itemsize) + flat % lanes


def _indexed(api: str, gather: bool, dst: LocalTensor, src: LocalTensor, offsets: LocalTensor, base: Any,
             args: tuple, isSetMask: bool, mask_state: Any) -> None:
    """Gather (the indexed side is src) or Scatter (the indexed side is dst): per-element byte offsets
    from ``base`` on one side, the count form's order or the level-0 repeats on the other."""
    ctx = current()
    dt = dst.dtype
    if src.dtype != dt:
        ctx.report("BAD_PARAMETER", f"{api}: src and dst types differ")
    check_dtype(ctx, api, dt, _TYPES, Level0(0, 0, []) if len(args) == 3 else None, _COUNT_ONLY)
    flat, stride, steps, lanes = _lanes_of(ctx, api, dt, args, isSetMask, mask_state)
    n = int(flat.max()) + 1 if flat.size else 0
    offs = _offsets(ctx, api, offsets, n)[flat] if n else np.zeros(0, np.int64)
    side = src if gather else dst
    indexed = _elements(ctx, api, side.addr + int(scalar_value(base)), offs, dt) - side.addr // dt.itemsize
    ordered = _positions(flat, stride, lanes, dt)
    didx, sidx = (ordered, indexed) if gather else (indexed, ordered)
    _move(ctx, api, dst, src, didx, sidx, flat // lanes, steps)
    emit(ctx, api, 5, gather_scatter_stream("RV_VGATHER" if gather else "RV_VSCATTER", steps,
                                            (dst if gather else src).addr),
         {"dtype": type_name(dt), "form": "count" if stride is None else "level0", "steps": steps})


def _gather(dst: LocalTensor, src: LocalTensor, srcOffset: LocalTensor, srcBaseAddr: Any, *args: Any,
            isSetMask: bool = True, mask_state: Any = None) -> None:
    """``Gather(dst, src, srcOffset, srcBaseAddr, count | mask, repeatTime, dstRepStride)`` (VGATHER)."""
    _indexed("Gather", True, dst, src, srcOffset, srcBaseAddr, args, isSetMask, mask_state)


def _scatter(dst: LocalTensor, src: LocalTensor, dstOffset: LocalTensor, dstBaseAddr: Any, *args: Any,
             isSetMask: bool = True, mask_state: Any = None) -> None:
    """``Scatter(dst, src, dstOffset, dstBaseAddr, count | mask, repeatTime, srcRepStride)`` (VSCATTER)."""
    _indexed("Scatter", False, dst, src, dstOffset, dstBaseAddr, args, isSetMask, mask_state)


def _move(ctx, api: str, dst: LocalTensor, src: LocalTensor, didx: np.ndarray, sidx: np.ndarray,
          step: np.ndarray, steps: int) -> None:
    """Copy src elements ``sidx`` to dst elements ``didx`` (element offsets from each base) in steps."""
    w = dst.dtype.itemsize
    if not didx.size:
        return
    key = ("mv", didx.size, hash(didx.tobytes()), hash(sidx.tobytes()), steps)
    dacc = from_arrays(key + ("d",), didx, step, steps, (int(didx.max()) + 1) * w)
    sacc = from_arrays(key + ("s",), sidx, step, steps, (int(sidx.max()) + 1) * w)
    if int(didx.min()) < 0 or int(sidx.min()) < 0:
        ctx.report("UB_OUT_OF_BOUNDS", f"{api}: an offset points before the tensor's start")
    apply(ctx, api, Operand(dst.addr, dst.dtype, dacc, w), [Operand(src.addr, src.dtype, sacc, w)],
          lambda v: v[0])


def _gatherb(dst: LocalTensor, src: LocalTensor, offset: LocalTensor, repeatTime: Any,
             repeatParams: GatherRepeatParams) -> None:
    """``Gatherb(dst, src, offset, repeatTime, GatherRepeatParams)``: 32 B blocks by byte offsets (VGATHERB)."""
    api = "Gatherb"
    ctx = current()
    dt = dst.dtype
    check_dtype(ctx, api, dt, _TYPES)
    repeat = int(scalar_value(repeatTime))
    blk, rep = int(repeatParams.dstBlkStride) or 1, int(repeatParams.dstRepStride)
    check_u8(ctx, api, repeatTime=repeat)
    offs = _offsets(ctx, api, offset, repeat * 8)
    if offs.size and (offs % BLOCK).any():
        ctx.report("BAD_PARAMETER", f"{api}: a block offset is not a multiple of 32 bytes")
    epb = BLOCK // dt.itemsize
    i, j = np.divmod(np.arange(repeat * 8, dtype=np.int64), 8)
    e = np.arange(epb, dtype=np.int64)
    didx = (((i * rep + j * blk) * epb)[:, None] + e[None, :]).ravel()
    sidx = ((offs // dt.itemsize)[:, None] + e[None, :]).ravel()
    _move(ctx, api, dst, src, didx, sidx, np.repeat(i, epb), repeat)
    emit(ctx, api, 5, gather_scatter_stream("RV_VGATHERB", repeat, dst.addr), {"dtype": type_name(dt),
         "form": "level0", "steps": repeat})


Gather = MemBaseApi(_gather, "Gather", batchable=False)
Gatherb = MemBaseApi(_gatherb, "Gatherb", batchable=False)
Scatter = MemBaseApi(_scatter, "Scatter", batchable=False)
