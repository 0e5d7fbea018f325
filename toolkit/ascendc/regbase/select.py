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
from .relayout import move_register
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
    """``Arange<T, IndexOrder>(dst, v)``: lane i = v + i*step; DECREASE_ORDER ends at v: lane i =
    v + (lanes - 1 - i)*step (the C-API page spells the sequence out). Integers wrap."""
    rec = current().vf or current_recorder()
    dt = t.type(0) or dst.dtype
    n = VL // dt.itemsize
    step = rec.machine.params["numerics"]["arange_step"]
    k = np.arange(n, dtype=np.int64)
    if t.enum(IndexOrder, IndexOrder.INCREASE_ORDER) == IndexOrder.DECREASE_ORDER:
        k = k[::-1]
    with np.errstate(over="ignore"):
        if dt.kind == "f" or dt.name == "bfloat16":
            vals = (np.float64(scalar_value(start)) + step * k).astype(dt)
        else:                                       # wrap in the unsigned type of the width, then reinterpret
            base = np.uint64(int(scalar_value(start)) & 0xFFFFFFFFFFFFFFFF)
            vals = (base + np.uint64(step) * k.astype(np.uint64)).astype(np.dtype(f"u{dt.itemsize}")).view(dt)
    dst.acc_lanes = None
    dst.set(vals, None, rec, dt.itemsize)
    rec.emit("RV_VCI", dst.id, (), None)


def mask_logic(name: str, fn, dst: MaskReg, srcs: tuple, mask: MaskReg) -> None:
    """dst = fn(src bits) where ``mask`` is set, 0 elsewhere (PAND / POR / PXOR / PNOT)."""
    rec = current_recorder()
    bits = fn(*[s.bits for s in srcs]) & mask.bits
    ids = tuple(s.id for s in srcs) + (mask.id,)          # read before dst (maybe a source) is rewritten
    dst.set_bits(bits, rec)
    rec.emit("RV_PLOGIC", dst.id, ids, name, mask=mask.id)


def _logic(name: str, fn):
    def impl(t: TArgs, dst: MaskReg, *args: MaskReg) -> None:
        *srcs, mask = args
        mask_logic(name, fn, dst, tuple(srcs), mask)
    impl.__name__ = name
    return template(impl)


@template
def Move(t: TArgs, dst: MaskReg, src: MaskReg, mask: MaskReg | None = None) -> None:
    """``Move(dst, src [, mask])`` of predicates: dst = src where ``mask`` is set, 0 elsewhere (PMOV); of
    registers: ``Move<T, MERGING>(dst, src, mask)`` / ``Move(dst, src)`` (VMOV, relayout.move_register)."""
    if isinstance(dst, RegTensor):
        return move_register(t, dst, src, mask)
    rec = current().vf or current_recorder()
    srcs = (src.id,) if mask is None else (src.id, mask.id)        # read before dst (maybe src) is rewritten
    dst.set_bits(src.bits if mask is None else src.bits & mask.bits, rec)
    rec.emit("RV_PMOV", dst.id, srcs, None, mask=-1 if mask is None else mask.id)


MaskAnd = _logic("MaskAnd", np.logical_and)
MaskOr = _logic("MaskOr", np.logical_or)
MaskXor = _logic("MaskXor", np.logical_xor)
MaskNot = _logic("MaskNot", np.logical_not)
