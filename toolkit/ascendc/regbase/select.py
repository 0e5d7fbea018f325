"""Compares, index sequences and gathers: Compare / CompareScalar (alias Compares), Arange, Gather (from a
register or from UB), the MaskReg logic ops MaskAnd / MaskOr / MaskXor / MaskNot and the predicate Move.

A compare writes a MaskReg: lane i is set where the mask is active and the comparison holds (inactive
lanes are cleared). Index and order conventions that the sheets leave open are machine settings
(``[numerics] arange_step``, ``gather_index_unit``).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from toolkit.ascendc.dtypes import scalar_value
from toolkit.engine.runtime import current

from .mask import _fill_nibbles, bits_for_lanes
from .template import TArgs, template
from .types import CMPMODE, VL, IndexOrder, MaskReg, RegTensor
from .vf import current_recorder

_CMP = {CMPMODE.LT: np.less, CMPMODE.GT: np.greater, CMPMODE.EQ: np.equal, CMPMODE.LE: np.less_equal,
        CMPMODE.GE: np.greater_equal, CMPMODE.NE: np.not_equal}


def _to_mask(rec, dst: MaskReg, lanes: np.ndarray, width: int) -> None:
    dst.set_bits(bits_for_lanes(lanes, width, _fill_nibbles(rec)), rec)


def _compare(t: TArgs, dst: MaskReg, src: RegTensor, other: np.ndarray, mask: MaskReg, srcs: tuple,
             opcode: str) -> None:
    rec = current().vf or current_recorder()
    dt = t.type(0) or src.dtype
    w = dt.itemsize
    active, _ = mask.lanes(w)
    with np.errstate(invalid="ignore"):
        hit = _CMP[t.enum(CMPMODE, CMPMODE.EQ)](src.raw.view(dt), other)
    _to_mask(rec, dst, hit & active, w)
    rec.emit(opcode, dst.id, srcs + (mask.id,), None, mask=mask.id)


@template
def Compare(t: TArgs, dst: MaskReg, src0: RegTensor, src1: RegTensor, mask: MaskReg) -> None:
    """``Compare<T, CMPMODE>(dstMask, src0, src1, mask)`` (VCMP)."""
    dt = t.type(0) or src0.dtype
    _compare(t, dst, src0, src1.raw.view(dt), mask, (src0.id, src1.id), "RV_VCMP")


@template
def CompareScalar(t: TArgs, dst: MaskReg, src: RegTensor, scalar: Any, mask: MaskReg) -> None:
    """``CompareScalar<T, CMPMODE>(dstMask, src, scalar, mask)`` (VCMPS, timed as VCMP)."""
    dt = t.type(0) or src.dtype
    _compare(t, dst, src, np.full(VL // dt.itemsize, scalar_value(scalar), dtype=dt), mask, (src.id,),
             "RV_VCMP")


Compares = CompareScalar


@template
def Arange(t: TArgs, dst: RegTensor, start: Any) -> None:
    """``Arange<T, IndexOrder>(dst, start)``: lane i = start + i*step (DECREASE_ORDER: start - i*step)."""
    rec = current().vf or current_recorder()
    dt = t.type(0) or dst.dtype
    n = VL // dt.itemsize
    step = rec.machine.params["numerics"]["arange_step"]
    sign = -1 if t.enum(IndexOrder, IndexOrder.INCREASE_ORDER) == IndexOrder.DECREASE_ORDER else 1
    with np.errstate(over="ignore"):
        vals = (np.float64(scalar_value(start)) + sign * step * np.arange(n)).astype(dt) if dt.kind == "f" else \
            ((int(scalar_value(start)) + sign * step * np.arange(n, dtype=np.int64)) % (1 << (8 * dt.itemsize))
             ).astype(np.uint64).astype(dt)
    dst.acc_lanes = None
    dst.set(vals, None, rec, dt.itemsize)
    rec.emit("RV_VCI", dst.id, (), None)


@template
def Gather(t: TArgs, dst: RegTensor, src: Any, index: RegTensor, mask: MaskReg) -> None:
    """``Gather(dst, srcReg, indexReg, mask)``: lane i = srcReg[index[i]] (VSELR); ``Gather(dst, ubuf,
    indexReg, mask)``: lane i = ubuf[index[i]] (VGATHER). Inactive lanes are 0."""
    rec = current().vf or current_recorder()
    dt = t.type(0) or dst.dtype
    w = dt.itemsize
    n = VL // w
    active, _ = mask.lanes(w)
    idx = index.raw.view(np.dtype(f"uint{8 * index.dtype.itemsize}")).astype(np.int64)
    idx = np.resize(idx, (idx.shape[0], n)) if idx.shape[1] != n else idx          # (B, n) lane indices
    rows = rec.batch
    if isinstance(src, RegTensor):
        vals = np.take_along_axis(np.broadcast_to(src.raw.view(dt), (rows, n)), idx % n, axis=1)
        out = np.where(active, vals, dt.type(0))
        ld = src.lane_defined(w)
        lane_def = None if ld is None else np.take_along_axis(np.broadcast_to(ld, (rows, n)), idx % n, 1) | ~active
        dst.set(out, lane_def, rec, w)
        rec.emit("RV_VSELR", dst.id, (src.id, index.id, mask.id), None, mask=mask.id)
        return
    ub = current().ub
    addrs = src.addr + idx * w                                                         # (B, n) byte addresses
    on = np.broadcast_to(active, addrs.shape)
    lo = int(addrs[on].min()) if on.any() else src.addr
    hi = int(addrs[on].max()) + w if on.any() else src.addr
    out = np.zeros((rows, n), dtype=dt)
    lane_def = np.ones((rows, n), bool)
    if hi > lo:
        for a in dict.fromkeys(addrs[on].tolist()):            # each lane's element, in lane order
            ub.check(int(a), w, "Gather", w)
        span, span_def = ub.rd(lo, hi - lo), ub.rdef(lo, hi - lo)
        pos = np.where(on, addrs - lo, 0)[:, :, None] + np.arange(w)                  # (B, n, w)
        got = np.take_along_axis(np.broadcast_to(span, (rows, span.shape[1])), pos.reshape(rows, -1), 1)
        out = np.where(on, got.reshape(rows, n, w).copy().view(dt)[:, :, 0], dt.type(0))
        if span_def is not None:
            d = np.take_along_axis(np.broadcast_to(span_def, (rows, span.shape[1])), pos.reshape(rows, -1), 1)
            lane_def = d.reshape(rows, n, w).all(axis=2) | ~on
    dst.set(out, None if lane_def.all() else lane_def, rec, w)
    rec.emit("RV_VGATHER", dst.id, (index.id, mask.id), None, mask=mask.id, ub_addr=lo, ub_bytes=hi - lo)


def _logic(name: str, fn):
    def impl(t: TArgs, dst: MaskReg, *args: MaskReg) -> None:
        rec = current().vf or current_recorder()
        *srcs, mask = args
        bits = fn(*[s.bits for s in srcs]) & mask.bits
        dst.set_bits(bits, rec)
        rec.emit("RV_PLOGIC", dst.id, tuple(s.id for s in srcs) + (mask.id,), name, mask=mask.id)
    impl.__name__ = name
    return template(impl)


@template
def Move(t: TArgs, dst: MaskReg, src: MaskReg, mask: MaskReg | None = None) -> None:
    """``Move(dst, src [, mask])`` of predicates: dst = src where ``mask`` is set, 0 elsewhere (PMOV)."""
    rec = current().vf or current_recorder()
    srcs = (src.id,) if mask is None else (src.id, mask.id)        # read before dst (maybe src) is rewritten
    dst.set_bits(src.bits if mask is None else src.bits & mask.bits, rec)
    rec.emit("RV_PMOV", dst.id, srcs, None, mask=-1 if mask is None else mask.id)


MaskAnd = _logic("MaskAnd", np.logical_and)
MaskOr = _logic("MaskOr", np.logical_or)
MaskXor = _logic("MaskXor", np.logical_xor)
MaskNot = _logic("MaskNot", np.logical_not)
