"""Discrete moves: Gather (from a register by index, with or without a mask; from UB by element index),
GatherB (DataBlocks from UB by byte offset) and Scatter (register elements to UB by element index).

Index units: Gather and Scatter count elements of the UB type (machine setting ``gather_index_unit``);
GatherB offsets are bytes, 32 B aligned. A b8 source gathered into b16 lanes is zero-extended (the page:
the high 8 bits are 0, also for int8_t); a b64 gather with a uint32 index register uses its first 32 lanes.
Scatter of b8 data takes the even elements of the source (one per 16-bit index lane). Inactive lanes of a
gather are 0; a scatter writes active lanes only (with repeated indices the last lane wins: the hardware
keeps one, which one is not documented).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from toolkit.ascendc.tensor import UbPtr
from toolkit.engine.runtime import current

from .relayout import gather_register
from .template import TArgs, template
from .types import VL, MaskReg, RegTensor
from .vf import current_recorder


def _index_lanes(index: RegTensor, n: int, rows: int) -> np.ndarray:
    """(rows, n) element indices from an index register (its unsigned lanes; the first n of them)."""
    idx = index.raw.view(np.dtype(f"uint{8 * index.dtype.itemsize}")).astype(np.int64)
    if idx.shape[1] != n:
        idx = idx[:, :n] if idx.shape[1] > n else np.resize(idx, (idx.shape[0], n))
    return np.broadcast_to(idx, (rows, n))


def _gather_reg_masked(rec, t: TArgs, dst: RegTensor, src: RegTensor, index: RegTensor, mask: MaskReg) -> None:
    dt = t.type(0) or dst.dtype
    w = dt.itemsize
    n = VL // w
    active, _ = mask.lanes(w)
    rows = rec.batch
    idx = _index_lanes(index, n, rows) % n
    vals = np.take_along_axis(np.broadcast_to(src.raw.view(dt), (rows, n)), idx, axis=1)
    ld = src.lane_defined(w)
    lane_def = None if ld is None else np.take_along_axis(np.broadcast_to(ld, (rows, n)), idx, 1) | ~active
    srcs = (src.id, index.id, mask.id)
    dst.set(np.where(active, vals, dt.type(0)), lane_def, rec, w)
    rec.emit("RV_VSELR", dst.id, srcs, None, mask=mask.id)


def _read_elements(ub, base: int, idx: np.ndarray, on: np.ndarray, w: int, what: str) -> tuple:
    """(bytes (rows, n, w), definedness) of the UB elements at base + idx * w where ``on``."""
    rows, n = idx.shape
    addrs = base + idx * w
    got = np.zeros((rows, n, w), np.uint8)
    dd = np.ones((rows, n), bool)
    if not on.any():
        return got, dd, base, base
    lo, hi = int(addrs[on].min()), int(addrs[on].max()) + w
    for a in dict.fromkeys(addrs[on].tolist()):            # each lane's element, in lane order
        ub.check(int(a), w, what, w)
    span, span_def = ub.rd(lo, hi - lo), ub.rdef(lo, hi - lo)
    pos = (np.where(on, addrs - lo, 0)[:, :, None] + np.arange(w)).reshape(rows, -1)
    got = np.take_along_axis(np.broadcast_to(span, (rows, span.shape[1])), pos, 1).reshape(rows, n, w)
    if span_def is not None:
        d = np.take_along_axis(np.broadcast_to(span_def, (rows, span.shape[1])), pos, 1)
        dd = d.reshape(rows, n, w).all(axis=2) | ~on
    return got, dd, lo, hi


def gather_ub(rec, dst: RegTensor, src: UbPtr, index: RegTensor, mask: MaskReg) -> None:
    """``Gather<T0, T1, T2>(dst, base, index, mask)``: lane i = base[index[i]] (VGATHER)."""
    ddt, sdt = dst.dtype, src.dtype
    wd, ws = ddt.itemsize, sdt.itemsize
    n = VL // wd
    active, _ = mask.lanes(wd)
    rows = rec.batch
    idx = _index_lanes(index, n, rows)
    on = np.broadcast_to(active, idx.shape)
    got, dd, lo, hi = _read_elements(current().ub, src.addr, idx, on, ws, "Gather")
    raw = np.zeros((rows, n, wd), np.uint8)
    raw[:, :, :ws] = got                                     # narrower source: zero-extended
    out = np.where(on, raw.reshape(rows, VL).view(ddt), ddt.type(0))
    dst.set(out, None if dd.all() else dd, rec, wd)
    rec.emit("RV_VGATHER", dst.id, (index.id, mask.id), None, mask=mask.id, ub_addr=lo, ub_bytes=hi - lo)


@template
def Gather(t: TArgs, dst: RegTensor, src: Any, index: RegTensor, mask: MaskReg | None = None) -> None:
    """``Gather(dst, srcReg, index)``: lane i = srcReg[index[i]]; with a mask inactive lanes are 0 (VSELR);
    ``Gather(dst, ubuf, index, mask)``: lane i = ubuf[index[i]] (VGATHER)."""
    rec = current_recorder()
    if isinstance(src, RegTensor):
        if mask is None:
            return gather_register(t, dst, src, index)
        return _gather_reg_masked(rec, t, dst, src, index, mask)
    gather_ub(rec, dst, src, index, mask)


@template
def GatherB(t: TArgs, dst: RegTensor, base: UbPtr, index: RegTensor, mask: MaskReg) -> None:
    """``GatherB(dst, base, index, mask)``: DataBlock j of dst = the 32 B at base + index[j] (bytes, the first
    8 lanes of a uint32 index); a block with no active lane is not read and its lanes are 0 (VGATHERB)."""
    ctx = current()
    rec = current_recorder()
    dt = t.type(0) or dst.dtype
    w = dt.itemsize
    active, _ = mask.lanes(w)
    rows = rec.batch
    offs = index.raw.view(np.uint32)[:, :8].astype(np.int64)
    offs = np.broadcast_to(offs, (rows, 8))
    blk_on = np.broadcast_to(active.reshape(active.shape[0], 8, 32 // w).any(axis=2), (rows, 8))
    ctx.ub.check(base.addr, 0, "GatherB", 32)
    raw = np.zeros((rows, VL), np.uint8)
    dd = np.ones((rows, VL), bool)
    for r in range(rows):
        for j in np.nonzero(blk_on[r])[0]:
            a = base.addr + int(offs[r, j])
            ctx.ub.check(a, 32, "GatherB", 32)
            block = ctx.ub.rd(a, 32)
            raw[r, j * 32:(j + 1) * 32] = block[min(r, block.shape[0] - 1)]
            got = ctx.ub.rdef(a, 32)
            if got is not None:
                dd[r, j * 32:(j + 1) * 32] = got[min(r, got.shape[0] - 1)]
    bytemask = np.repeat(np.broadcast_to(active, (rows, VL // w)), w, axis=1)
    out = np.where(bytemask, raw, 0)
    dst.set(out, None if (dd | ~bytemask).all() else (dd | ~bytemask), rec, 1)
    rec.emit("RV_VGATHERB", dst.id, (index.id, mask.id), None, mask=mask.id, ub_addr=base.addr, ub_bytes=VL)


@template
def Scatter(t: TArgs, base: UbPtr, src: RegTensor, index: RegTensor, mask: MaskReg) -> None:
    """``Scatter(base, src, index, mask)``: base[index[i]] = src lane i for active lanes (VSCATTER)."""
    ctx = current()
    rec = current_recorder()
    dt = base.dtype
    w = dt.itemsize
    lane_w = max(w, 2)                                        # b8 data: one 16-bit index lane per element
    n = VL // lane_w                                          # b64 + uint32 index: its first 32 lanes
    rows = rec.batch
    idx = _index_lanes(index, n, rows)
    active, _ = mask.lanes(lane_w)
    on = np.broadcast_to(active[:, :n], (rows, n))
    vals = src.raw.reshape(src.raw.shape[0], -1, lane_w)[:, :n, :w]            # b8: the even elements
    sd = src.defined if src.defined is not None else np.ones(src.raw.shape, bool)
    vdef = sd.reshape(sd.shape[0], -1, lane_w)[:, :n, :w]
    addrs = base.addr + idx * w
    if on.any():
        lo, hi = int(addrs[on].min()), int(addrs[on].max()) + w
        for a in dict.fromkeys(addrs[on].tolist()):
            ctx.ub.check(int(a), w, "Scatter", w)
        span = np.zeros((rows, hi - lo), np.uint8)
        sdef = np.ones((rows, hi - lo), bool)
        where = np.zeros((rows, hi - lo), bool)
        for r in range(rows):
            for i in np.nonzero(on[r])[0]:
                a = int(addrs[r, i]) - lo
                span[r, a:a + w] = vals[min(r, vals.shape[0] - 1), i]
                sdef[r, a:a + w] = vdef[min(r, vdef.shape[0] - 1), i]
                where[r, a:a + w] = True
        ctx.ub.wr_where(lo, span, sdef, where)
    else:
        lo, hi = base.addr, base.addr
    rec.emit("RV_VSCATTER", -1, (src.id, index.id, mask.id), None, mask=mask.id, ub_addr=lo, ub_bytes=hi - lo)
