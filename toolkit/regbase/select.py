"""Compares, index sequences and gathers: Compare / CompareScalar (alias Compares), Arange, Gather (from a
register or from UB), and the MaskReg logic ops MaskAnd / MaskOr / MaskXor / MaskNot.

A compare writes a MaskReg: lane i is set where the mask is active and the comparison holds (inactive
lanes are cleared). Index and order conventions that the sheets leave open are machine settings
(``[numerics] arange_step``, ``gather_index_unit``).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ..dtypes import scalar_value
from ..runtime import current
from .mask import _fill_nibbles, bits_for_lanes
from .template import TArgs, template
from .types import VL, CMPMODE, IndexOrder, MaskReg, RegTensor
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
    _compare(t, dst, src, np.full(VL // dt.itemsize, scalar_value(scalar), dtype=dt), mask, (src.id,), "RV_VCMP")


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
    idx = np.resize(idx, n)
    out = np.zeros(n, dtype=dt)
    if isinstance(src, RegTensor):
        vals = src.raw.view(dt)
        out[active] = vals[idx[active] % n]
        lane_def = None if src.defined is None else src.lane_defined(w)[idx % n] | ~active
        dst.set(out, lane_def, rec, w)
        rec.emit("RV_VSELR", dst.id, (src.id, index.id, mask.id), None, mask=mask.id)
        return
    ub = current().ub
    addrs = src.addr + idx * w
    lane_def = np.ones(n, bool)
    for k in np.nonzero(active)[0]:
        a = int(addrs[k])
        ub.check(a, w, "Gather", w)
        out[k] = ub.data[a:a + w].view(dt)[0]
        lane_def[k] = bool(ub.defined[a:a + w].all())
    dst.set(out, None if lane_def.all() else lane_def, rec, w)
    lo = int(addrs[active].min()) if active.any() else src.addr
    hi = int(addrs[active].max()) + w if active.any() else src.addr
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


MaskAnd = _logic("MaskAnd", np.logical_and)
MaskOr = _logic("MaskOr", np.logical_or)
MaskXor = _logic("MaskXor", np.logical_xor)
MaskNot = _logic("MaskNot", np.logical_not)
