"""MemBase level-0 reductions (归约计算): ``ReduceRepeat<SUM|MAX|MIN>`` (one result per repeat; the older
names WholeReduceSum / WholeReduceMax / WholeReduceMin), ``ReduceDataBlock`` (one result per 32 B block:
BlockReduceSum / Max / Min) and ``ReducePairElem`` (adjacent pairs: PairReduceSum).

Per repeat i: block-strided masked load of 8 blocks from ``src + i*srcRepStride*32 B`` (block stride
``srcBlkStride``), then an adjacent-pair tree (toolkit.ascendc.numerics.tree_reduce) over the lanes:
masked lanes enter as 0 (SUM) or the type's -inf / +inf (MAX / MIN; ties: the smallest index).

* ReduceRepeat: the result goes to ``dst + i*dstRepStride*unit`` (unit: the size of one result, a value,
  an index or both by ``ReduceOrder``; an index is the lane number's bits in the element type, 4 bytes
  for half ORDER_ONLY_INDEX), by unaligned store. ``dstRepStride == 0``: only the last repeat is
  computed, written to dst[0]. SUM types: half, float, int16/int32 -> int32, uint16/uint32 -> uint32.
* ReduceDataBlock: 8 results per repeat (a block with no active lane gives 0 / -inf / +inf) at
  ``dst + i*dstRepStride*8`` elements.
* ReducePairElem: lanes/2 sums per repeat (a pair with both lanes masked gives 0) at
  ``dst + i*dstRepStride*128 B``.
"""
from __future__ import annotations

from enum import Enum
from typing import Any

import numpy as np

from toolkit.ascendc.dtypes import scalar_value
from toolkit.ascendc.numerics import elementwise, tree_reduce, type_max, type_min
from toolkit.ascendc.regbase.reduce import reduce_lanes
from toolkit.ascendc.regbase.types import ReduceType
from toolkit.ascendc.tensor import LocalTensor
from toolkit.engine.runtime import current

from .elementwise import Level0, MemBaseApi, level0_mask, type_name
from .executor import Operand, apply
from .level0 import BLOCK, VL, from_arrays, per_step, strided
from .types import dts
from .vfstream import emit, reduce_stream

_SUM_TYPE = {np.dtype(t): np.dtype(u) for t, u in [(np.float32, np.float32), (np.float16, np.float16),
                                                    (np.int16, np.int32), (np.int32, np.int32),
                                                    (np.uint16, np.uint32), (np.uint32, np.uint32)]}
_MINMAX_TYPES = dts("int16_t uint16_t half int32_t uint32_t float")
_RED_OP = {ReduceType.SUM: "RV_VCADD", ReduceType.MAX: "RV_VCMAX", ReduceType.MIN: "RV_VCMIN"}


class ReduceOrder(Enum):
    ORDER_VALUE_INDEX = 0
    ORDER_INDEX_VALUE = 1
    ORDER_ONLY_VALUE = 2
    ORDER_ONLY_INDEX = 3


def _ints(*vals: Any) -> list[int]:
    return [int(scalar_value(v)) for v in vals]


def _check_strides(ctx, api: str, repeat: int, **strides: int) -> None:
    if not 0 <= repeat <= 255:
        ctx.report("BAD_PARAMETER", f"{api}: repeatTime = {repeat} is outside [0, 255]")
    for name, v in strides.items():
        if not 0 <= v <= 0xFFFF:
            ctx.report("BAD_PARAMETER", f"{api}: {name} = {v} is outside [0, 65535]")


def _source(ctx, api: str, src: LocalTensor, mask: Any, repeat: int, sblk: int, srep: int, isSetMask: bool,
            mask_state: Any):
    """(lanes, Mask, the source access) of a level-0 reduction (counter mode is not modelled here)."""
    lanes = VL // src.dtype.itemsize
    form = Level0(mask, repeat, [(sblk, srep)], isSetMask, mask_state)
    kind, m = level0_mask(ctx, api, form, lanes)
    if kind == "counter":
        raise NotImplementedError(f"{api} in counter mode (SetMaskCount) is not modelled")
    return lanes, m


def _full(x: np.ndarray, m, lanes: int, fill: Any) -> np.ndarray:
    """(rows, steps * nact) active-lane values -> (rows, steps, lanes), other lanes ``fill``."""
    v = x.reshape(x.shape[0], -1, m.act.size)
    out = np.full((*v.shape[:2], lanes), fill, dtype=x.dtype)
    out[:, :, m.act] = v
    return out


def _whole_reduce(kind: ReduceType, dst: LocalTensor, src: LocalTensor, mask: Any, repeatTime: Any,
                  dstRepStride: Any, srcBlkStride: Any, srcRepStride: Any, order: ReduceOrder, isSetMask: bool,
                  mask_state: Any, api: str) -> None:
    ctx = current()
    sdt = src.dtype
    repeat, drep, sblk, srep = _ints(repeatTime, dstRepStride, srcBlkStride, srcRepStride)
    _check_strides(ctx, api, repeat, dstRepStride=drep, srcBlkStride=sblk, srcRepStride=srep)
    if kind == ReduceType.SUM:
        out_dt = _SUM_TYPE.get(sdt)
        if out_dt is None or dst.dtype != out_dt:
            ctx.report("BAD_PARAMETER", f"{api}: {type_name(sdt)} -> {type_name(dst.dtype)} is not a supported "
                       f"type pair")
        out_dt = dst.dtype
    else:
        out_dt = sdt
        if sdt not in _MINMAX_TYPES or dst.dtype != sdt:
            ctx.report("BAD_PARAMETER", f"{api}: MAX/MIN take one type of int16/uint16/half/int32/uint32/float "
                       f"(got {type_name(sdt)} -> {type_name(dst.dtype)})")
    lanes, m = _source(ctx, api, src, mask, repeat, sblk, srep, isSetMask, mask_state)
    steps = repeat if drep else min(repeat, 1)
    src_addr = src.addr if drep or repeat == 0 else src.addr + (repeat - 1) * srep * BLOCK
    w = out_dt.itemsize
    unit, nout = _result_unit(kind, order, w)
    if steps and not m.empty:
        nact = m.act.size

        def fn(v: list) -> np.ndarray:
            return _results(kind, order, v[0], m, lanes, out_dt)

        apply(ctx, api, Operand(dst.addr, out_dt, _result_access(steps, drep, unit, w, nout), w),
              [Operand(src_addr, sdt, strided(sdt.itemsize, sblk, srep, steps, m))], fn,
              lambda d: np.repeat(d[0].reshape(d[0].shape[0], -1, nact).all(axis=2), nout, axis=1))
    emit(ctx, api, 6 + (m.kind == "count"), reduce_stream(steps, m.kind, m.value, unit, ((dst.addr, drep),
                                                                                       (src_addr, sblk, srep)),
                                                          _RED_OP[kind]),
         {"dtype": type_name(sdt), "form": "level0", "repeat": steps, "mask": m.kind})


def _result_unit(kind: ReduceType, order: ReduceOrder, w: int) -> tuple[int, int]:
    """(bytes per repeat's result, elements of the element type written per repeat)."""
    if kind == ReduceType.SUM or order == ReduceOrder.ORDER_ONLY_VALUE:
        return w, 1
    return 2 * w if order != ReduceOrder.ORDER_ONLY_INDEX or w == 2 else w, \
        (1 if order == ReduceOrder.ORDER_ONLY_INDEX and w == 4 else 2)


def _result_access(steps: int, drep: int, unit: int, w: int, nout: int):
    if nout == 1 and unit == w:
        return per_step(steps, drep, w)
    stride = drep * unit // w
    idx = (np.arange(steps, dtype=np.int64)[:, None] * stride + np.arange(nout)[None, :]).ravel()
    step = np.repeat(np.arange(steps, dtype=np.int64), nout)
    return from_arrays(("wr", steps, drep, unit, w, nout), idx, step, steps, (int(idx.max()) + 1) * w)


def _results(kind: ReduceType, order: ReduceOrder, x: np.ndarray, m, lanes: int, out_dt: np.dtype) -> np.ndarray:
    """Per-step results laid out as the order says, (rows, steps * nout)."""
    if kind == ReduceType.SUM:
        full = _full(x.astype(out_dt), m, lanes, 0)
        return tree_reduce(full, elementwise("add", out_dt))
    active = np.zeros(lanes, bool)
    active[m.act] = True
    full = _full(x, m, lanes, 0).astype(out_dt)
    rows, steps = full.shape[:2]
    value, index = reduce_lanes(kind, full.reshape(rows * steps, lanes), np.broadcast_to(active, (rows * steps, lanes)))
    value = np.asarray(value, out_dt).reshape(rows, steps)
    if order == ReduceOrder.ORDER_ONLY_VALUE:
        return value
    bits = np.dtype(f"u{out_dt.itemsize}")
    idx = np.asarray(index).astype(bits).reshape(rows, steps).view(out_dt)
    if order == ReduceOrder.ORDER_ONLY_INDEX:
        if out_dt.itemsize == 2:                      # a 32-bit index: the value's bits then zero
            return np.stack([idx, np.zeros_like(idx)], axis=2).reshape(rows, -1)
        return idx
    pair = (value, idx) if order == ReduceOrder.ORDER_VALUE_INDEX else (idx, value)
    return np.stack(pair, axis=2).reshape(rows, -1)


def _reduce_repeat(dst: LocalTensor, src: LocalTensor, mask: Any, repeatTime: Any, dstRepStride: Any,
                   srcBlkStride: Any, srcRepStride: Any, order: ReduceOrder = ReduceOrder.ORDER_VALUE_INDEX,
                   targs: Any = None, isSetMask: bool = True, mask_state: Any = None) -> None:
    """``ReduceRepeat<reduceType, T, U>(dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride,
    order = ORDER_VALUE_INDEX)``."""
    kind = targs.enum(ReduceType, ReduceType.SUM) if targs is not None else ReduceType.SUM
    _whole_reduce(kind, dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride, order, isSetMask,
                  mask_state, "ReduceRepeat")


def _whole(kind: ReduceType, api: str) -> MemBaseApi:
    def fn(dst: LocalTensor, src: LocalTensor, mask: Any, repeatTime: Any, dstRepStride: Any, srcBlkStride: Any,
           srcRepStride: Any, order: ReduceOrder = ReduceOrder.ORDER_VALUE_INDEX, isSetMask: bool = True,
           mask_state: Any = None) -> None:
        _whole_reduce(kind, dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride, order, isSetMask,
                      mask_state, api)
    fn.__doc__ = f"``{api}(dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride[, order])``: " \
                 f"the older name of ReduceRepeat<{kind.name}> ({_RED_OP[kind]})."
    return MemBaseApi(fn, api)


ReduceRepeat = MemBaseApi(_reduce_repeat, "ReduceRepeat")
WholeReduceSum = _whole(ReduceType.SUM, "WholeReduceSum")
WholeReduceMax = _whole(ReduceType.MAX, "WholeReduceMax")
WholeReduceMin = _whole(ReduceType.MIN, "WholeReduceMin")


def _block_reduce(kind: ReduceType, api: str, dst: LocalTensor, src: LocalTensor, mask: Any, repeatTime: Any,
                  dstRepStride: Any, srcBlkStride: Any, srcRepStride: Any, isSetMask: bool, mask_state: Any,
                  pairs: bool = False) -> None:
    ctx = current()
    dt = src.dtype
    if dt not in dts("half float") or dst.dtype != dt:
        ctx.report("BAD_PARAMETER", f"{api}: one type of half / float (got {type_name(dt)} -> {type_name(dst.dtype)})")
    repeat, drep, sblk, srep = _ints(repeatTime, dstRepStride, srcBlkStride, srcRepStride)
    _check_strides(ctx, api, repeat, dstRepStride=drep, srcBlkStride=sblk, srcRepStride=srep)
    lanes, m = _source(ctx, api, src, mask, repeat, sblk, srep, isSetMask, mask_state)
    group = 2 if pairs else BLOCK // dt.itemsize
    nout = lanes // group
    unit = (128 // dt.itemsize) if pairs else nout              # dst elements per dstRepStride
    if repeat and not m.empty:
        fill = 0 if kind == ReduceType.SUM else (type_min(dt) if kind == ReduceType.MAX else type_max(dt))
        op = elementwise({ReduceType.SUM: "add", ReduceType.MAX: "max", ReduceType.MIN: "min"}[kind], dt)
        active = np.zeros(lanes, bool)
        active[m.act] = True
        empty = ~active.reshape(nout, group).any(axis=1)

        def fn(v: list) -> np.ndarray:
            full = _full(v[0], m, lanes, fill).reshape(v[0].shape[0], -1, nout, group)
            out = tree_reduce(full, op)
            out[:, :, empty] = 0 if pairs else fill
            return out.reshape(out.shape[0], -1)

        idx = (np.arange(repeat, dtype=np.int64)[:, None] * drep * unit + np.arange(nout)[None, :]).ravel()
        dacc = from_arrays(("blk", repeat, drep, unit, nout), idx, np.repeat(np.arange(repeat, dtype=np.int64), nout),
                           repeat, (int(idx.max()) + 1) * dt.itemsize)
        nact = m.act.size
        apply(ctx, api, Operand(dst.addr, dt, dacc, 16 if dt.itemsize == 2 and not pairs else 32),
              [Operand(src.addr, dt, strided(dt.itemsize, sblk, srep, repeat, m))], fn,
              lambda d: np.repeat(d[0].reshape(d[0].shape[0], -1, nact).all(axis=2), nout, axis=1))
    op_name = "RV_VCPADD" if pairs else {ReduceType.SUM: "RV_VCGADD", ReduceType.MAX: "RV_VCGMAX",
                                         ReduceType.MIN: "RV_VCGMIN"}[kind]
    emit(ctx, api, 6 + (m.kind == "count"),
         reduce_stream(repeat, m.kind, m.value, nout * dt.itemsize, ((dst.addr, drep * unit // max(nout, 1)),
                                                                     (src.addr, sblk, srep)), op_name),
         {"dtype": type_name(dt), "form": "level0", "repeat": repeat, "mask": m.kind})


def _reduce_data_block(dst: LocalTensor, src: LocalTensor, mask: Any, repeatTime: Any, dstRepStride: Any,
                       srcBlkStride: Any, srcRepStride: Any, targs: Any = None, isSetMask: bool = True,
                       mask_state: Any = None) -> None:
    """``ReduceDataBlock<reduceType, T, U>(dst, src, mask, repeatTime, dstRepStride, srcBlkStride,
    srcRepStride)``: one result per 32 B block (VCGADD / VCGMAX / VCGMIN)."""
    kind = targs.enum(ReduceType, ReduceType.SUM) if targs is not None else ReduceType.SUM
    _block_reduce(kind, "ReduceDataBlock", dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride,
                  isSetMask, mask_state)


def _block(kind: ReduceType, api: str) -> MemBaseApi:
    def fn(dst: LocalTensor, src: LocalTensor, mask: Any, repeatTime: Any, dstRepStride: Any, srcBlkStride: Any,
           srcRepStride: Any, isSetMask: bool = True, mask_state: Any = None) -> None:
        _block_reduce(kind, api, dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride, isSetMask,
                      mask_state)
    fn.__doc__ = f"``{api}(dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride)``: the older " \
                 f"name of ReduceDataBlock<{kind.name}>."
    return MemBaseApi(fn, api)


def _reduce_pair_elem(dst: LocalTensor, src: LocalTensor, mask: Any, repeatTime: Any, dstRepStride: Any,
                      srcBlkStride: Any, srcRepStride: Any, targs: Any = None, isSetMask: bool = True,
                      mask_state: Any = None) -> None:
    """``ReducePairElem<ReduceType::SUM, T, U>(dst, src, mask, repeatTime, dstRepStride, srcBlkStride,
    srcRepStride)``: sums of adjacent (even, odd) lanes (VCPADD)."""
    kind = targs.enum(ReduceType, ReduceType.SUM) if targs is not None else ReduceType.SUM
    if kind != ReduceType.SUM:
        current().report("BAD_PARAMETER", "ReducePairElem supports ReduceType::SUM only")
    _block_reduce(ReduceType.SUM, "ReducePairElem", dst, src, mask, repeatTime, dstRepStride, srcBlkStride,
                  srcRepStride, isSetMask, mask_state, pairs=True)


def _pair_reduce_sum(dst: LocalTensor, src: LocalTensor, mask: Any, repeatTime: Any, dstRepStride: Any,
                     srcBlkStride: Any, srcRepStride: Any, isSetMask: bool = True, mask_state: Any = None) -> None:
    """``PairReduceSum(...)``: the older name of ReducePairElem<SUM>."""
    _block_reduce(ReduceType.SUM, "PairReduceSum", dst, src, mask, repeatTime, dstRepStride, srcBlkStride,
                  srcRepStride, isSetMask, mask_state, pairs=True)


ReduceDataBlock = MemBaseApi(_reduce_data_block, "ReduceDataBlock")
BlockReduceSum = _block(ReduceType.SUM, "BlockReduceSum")
BlockReduceMax = _block(ReduceType.MAX, "BlockReduceMax")
BlockReduceMin = _block(ReduceType.MIN, "BlockReduceMin")
ReducePairElem = MemBaseApi(_reduce_pair_elem, "ReducePairElem")
PairReduceSum = MemBaseApi(_pair_reduce_sum, "PairReduceSum")
