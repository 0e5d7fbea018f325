"""Unaligned UB <-> register moves (api-facts 5): LoadUnAlignPre / LoadUnAlign, StoreUnAlign /
StoreUnAlignPost (a count, an AddrReg, or the AR register a Squeeze<STORE_REG> fills), the MaskReg form of
StoreUnAlign, the one-call wrappers Load / Store, and ClearSpr.

AR: ``Squeeze<T, STORE_REG>`` leaves the byte count of the elements it kept; the AR form of StoreUnAlign
writes that many bytes at ``dst + AR`` and (POST_MODE_UPDATE) adds them to AR, so a loop of Squeeze and
StoreUnAlign packs its results contiguously from ``dst``; ``ClearSpr<AR>()`` sets AR to 0. AR is per VF and
starts at 0 (assumed; the pages require ClearSpr first). The AR form writes its bytes at once: the final UB
content is the hardware's once StoreUnAlignPost ran, which is still required (checked at VF end).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from toolkit.ascendc.tensor import UbPtr
from toolkit.engine.runtime import current
from toolkit.record.diagnostics import kernel_frame

from .template import TArgs, template
from .types import VL, AddrReg, MaskReg, PostLiteral, RegTensor, SpecialPurposeReg, UnalignRegForLoad, \
    UnalignRegForStore
from .vf import current_recorder


def _read(ctx, addr: int, nbytes: int, what: str) -> tuple[np.ndarray, np.ndarray | None]:
    ctx.ub.check(addr, nbytes, what, 1)
    return ctx.ub.rd(addr, nbytes), ctx.ub.rdef(addr, nbytes)


def _offset(ptr: UbPtr, areg: AddrReg | None) -> int:
    return ptr.addr + (areg.offset * ptr.dtype.itemsize if areg is not None else 0)


@template
def LoadUnAlignPre(t: TArgs, ureg: UnalignRegForLoad, src: UbPtr, areg: AddrReg | None = None) -> None:
    """Cache the 32 B DataBlock containing ``src`` in ``ureg`` (VLDAS)."""
    ctx = current()
    rec = current_recorder()
    blk = _offset(src, areg) // 32 * 32
    data, shadow = _read(ctx, blk, 32, "LoadUnAlignPre")
    ureg.block_addr, ureg.block = blk, data.copy()
    ureg.block_def = np.ones(data.shape, bool) if shadow is None else shadow.copy()
    ureg.id = rec.new_id()
    rec.emit("RV_VLDAS", ureg.id, (), ub_addr=blk, ub_bytes=32)


@template
def LoadUnAlign(t: TArgs, dst: RegTensor, ureg: UnalignRegForLoad, src: UbPtr, *args: Any) -> None:
    """The 256 B starting at ``src``: head bytes from ``ureg``'s cached block, the rest from UB; then
    ``ureg`` caches the block containing ``src + 256``; post-update ``src += stride`` if given (VLDUS)."""
    ctx = current()
    rec = current_recorder()
    areg = args[0] if args and isinstance(args[0], AddrReg) else None
    addr = _offset(src, areg)
    head_end = min((addr // 32 + 1) * 32, addr + VL) if addr % 32 else addr
    body, shadow = _read(ctx, head_end, addr + VL - head_end, "LoadUnAlign")
    rows = rec.batch
    raw = np.empty((rows, VL), np.uint8)
    dd = np.ones((rows, VL), bool)
    nhead = head_end - addr
    if nhead:
        if ureg.block_addr == addr // 32 * 32:
            raw[:, :nhead] = ureg.block[:, addr % 32:]
            dd[:, :nhead] = ureg.block_def[:, addr % 32:]
        else:                    # no matching LoadUnAlignPre: the hardware splices stale bytes
            raw[:, :nhead] = 0
            dd[:, :nhead] = False
    raw[:, nhead:] = body
    if shadow is not None:
        dd[:, nhead:] = shadow
    dst.set(raw, None if dd.all() else dd, rec, 1)
    rec.emit("RV_VLDUS", dst.id, (ureg.id,), ub_addr=head_end, ub_bytes=addr + VL - head_end)
    nxt = (addr + VL) // 32 * 32
    if nxt + 32 <= ctx.ub.size:
        ureg.block_addr, ureg.block = nxt, ctx.ub.rd(nxt, 32).copy()
        got = ctx.ub.rdef(nxt, 32)
        ureg.block_def = np.ones((rows, 32), bool) if got is None else np.array(np.broadcast_to(got, (rows, 32)))
    if args and not isinstance(args[0], AddrReg):
        src.addr += int(args[0]) * src.dtype.itemsize


def _store_bytes(ctx, rec, dst_addr: int, new: np.ndarray, new_def: np.ndarray, ureg: UnalignRegForStore,
                 srcs: tuple, what: str, align: int) -> None:
    """Write ``new`` at ``dst_addr`` through ``ureg``: everything up to the last 32 B boundary goes to UB
    (after what ``ureg`` had pending, if contiguous); the trailing partial block stays pending (VSTUI)."""
    n = new.shape[1]
    ctx.ub.check(dst_addr, n, what, align)
    pending = ureg.pending.shape[1]
    if ureg.pending_addr is not None and ureg.pending_addr + pending == dst_addr:
        start = ureg.pending_addr
        data = np.concatenate([ureg.pending, new], axis=1)
        dd = np.concatenate([ureg.pending_def, new_def], axis=1)
    else:
        if ureg.pending_addr is not None and pending:   # discontiguous: flush what was pending
            ctx.ub.wr(ureg.pending_addr, ureg.pending, ureg.pending_def)
        start, data, dd = dst_addr, new, new_def
    end = start + data.shape[1]
    boundary = max(end // 32 * 32, start)
    k = boundary - start
    if k:
        ctx.ub.wr(start, data[:, :k], dd[:, :k])
    ureg.pending_addr, ureg.pending, ureg.pending_def = boundary, data[:, k:].copy(), dd[:, k:].copy()
    ureg.site = kernel_frame()
    old = ureg.id
    ureg.id = rec.new_id()
    rec.emit("RV_VSTUI", ureg.id, srcs + (old,), n, ub_addr=start, ub_bytes=k)


def _mask_bytes(mask: MaskReg, w: int) -> np.ndarray:
    """A predicate packed for UB at element width ``w``: bit w*i of each element (32 B b8, 16 B b16, 8 B b32)."""
    return np.packbits(mask.bits[:, ::w].astype(np.uint8), axis=1, bitorder="little")


@template
def StoreUnAlign(t: TArgs, dst: UbPtr, src: Any, ureg: UnalignRegForStore, count: Any = None) -> None:
    """StoreUnAlign(dst&, src, ureg, count): the first ``count`` elements, then ``dst += count``;
    (dst, src, ureg, AddrReg): a whole VL at dst + offset; (dst, src, ureg): the AR form (module doc);
    (dst&, MaskReg, ureg): the predicate packed to 32 / 16 / 8 B (b8 / b16 / b32) and ``dst`` moved past."""
    ctx = current()
    rec = current_recorder()
    if isinstance(src, MaskReg):
        w = dst.dtype.itemsize
        raw = _mask_bytes(src, w)
        _store_bytes(ctx, rec, dst.addr, raw, np.ones(raw.shape, bool), ureg, (src.id,), "StoreUnAlign<MaskReg>",
                     raw.shape[1] if w > 1 else 1)
        dst.addr += raw.shape[1]
        return
    if count is None:
        return _store_ar(ctx, rec, t, dst, src, ureg)
    dt = t.type(0) or src.dtype
    areg = count if isinstance(count, AddrReg) else None          # (dst, src, ureg, AddrReg): a whole VL
    n = (VL // dt.itemsize if areg is not None else int(count)) * dt.itemsize
    new = src.raw[:, :n]
    new_def = np.ones((rec.batch, n), bool) if src.defined is None else src.defined[:, :n]
    _store_bytes(ctx, rec, _offset(dst, areg), new, new_def, ureg, (src.id,), "StoreUnAlign", dt.itemsize)
    if areg is None:
        dst.addr += n


def _store_ar(ctx, rec, t: TArgs, dst: UbPtr, src: RegTensor, ureg: UnalignRegForStore) -> None:
    counts = rec.squeeze_bytes
    if counts is None:            # the hardware stores a stale count: nothing is written here
        ctx.report("SQUEEZE_STATUS_MISSING", "StoreUnAlign without a count follows no Squeeze<T, "
                   "GatherMaskMode::STORE_REG>: it has no byte count to store")
        counts = 0
    rec.squeeze_bytes = None                                      # consumed: the two must alternate
    rows = rec.batch
    counts = np.broadcast_to(np.asarray(counts), (rows,))
    starts = dst.addr + np.broadcast_to(np.asarray(rec.ar), (rows,))
    lo, hi = int(starts.min()), int((starts + counts).max())
    if hi > lo:
        ctx.ub.check(lo, hi - lo, "StoreUnAlign<AR>", 1)
        span = np.zeros((rows, hi - lo), np.uint8)
        where = np.zeros((rows, hi - lo), bool)
        sd = src.defined if src.defined is not None else np.ones(src.raw.shape, bool)
        dd = np.ones((rows, hi - lo), bool)
        for r in range(rows):
            a, c = int(starts[r]) - lo, int(counts[r])
            span[r, a:a + c] = src.raw[min(r, src.raw.shape[0] - 1), :c]
            dd[r, a:a + c] = sd[min(r, sd.shape[0] - 1), :c]
            where[r, a:a + c] = True
        ctx.ub.wr_where(lo, span, dd, where)
    ureg.pending_addr, ureg.pending = None, np.zeros((rows, 0), np.uint8)
    ureg.ar_open = True
    ureg.site = kernel_frame()
    old = ureg.id
    ureg.id = rec.new_id()
    rec.emit("RV_VSTUI", ureg.id, (src.id, old), None, ub_addr=lo, ub_bytes=max(hi - lo, 0))
    if t.enum(PostLiteral, PostLiteral.POST_MODE_UPDATE) == PostLiteral.POST_MODE_UPDATE:
        rec.ar = np.asarray(rec.ar) + counts if rows > 1 else int(rec.ar) + int(counts[0])


@template
def StoreUnAlignPost(t: TArgs, dst: UbPtr, ureg: UnalignRegForStore, stride: Any = 0) -> None:
    """Flush the bytes pending in ``ureg`` to UB; ``dst += stride`` elements (VSTAS)."""
    ctx = current()
    rec = current_recorder()
    pending = ureg.pending.shape[1]
    flushed = (ureg.pending_addr, pending) if ureg.pending_addr is not None else (-1, 0)
    if flushed[1]:
        ctx.ub.check(ureg.pending_addr, pending, "StoreUnAlignPost")
        ctx.ub.wr(ureg.pending_addr, ureg.pending, ureg.pending_def)
    rows = rec.batch
    ureg.pending_addr, ureg.pending, ureg.pending_def = None, np.zeros((rows, 0), np.uint8), np.zeros((rows, 0), bool)
    ureg.ar_open = False
    rec.emit("RV_VSTAS", -1, (ureg.id,), ub_addr=flushed[0], ub_bytes=flushed[1])
    if not isinstance(stride, AddrReg):
        dst.addr += int(stride) * dst.dtype.itemsize


@template
def Load(t: TArgs, dst: RegTensor, src: UbPtr) -> None:
    """``Load(dst, src)``: one VL from any element-aligned address: LoadUnAlignPre + LoadUnAlign on a
    staging register of its own (it counts toward the 4 UnalignRegForLoad of a VF while it runs)."""
    rec = current_recorder()
    ureg = UnalignRegForLoad()
    try:
        LoadUnAlignPre(ureg, src)
        LoadUnAlign(dst, ureg, src)
    finally:
        rec.undeclare("unalign_load")


@template
def Store(t: TArgs, dst: UbPtr, src: RegTensor, count: Any = None) -> None:
    """``Store(dst, src [, count])``: ``count`` elements (default a VL) to any element-aligned address:
    StoreUnAlign + StoreUnAlignPost on a staging register of its own; ``dst`` is not moved."""
    rec = current_recorder()
    dt = t.type(0) or src.dtype
    n = VL // dt.itemsize if count is None else int(count)
    if n > VL // dt.itemsize:
        current().report("BAD_PARAMETER", f"Store count {n} exceeds the {VL // dt.itemsize} elements of a register")
    ureg = UnalignRegForStore()
    try:
        p = UbPtr(dst.addr, dst.dtype)
        StoreUnAlign[dt](p, src, ureg, n)
        StoreUnAlignPost(p, ureg, 0)
    finally:
        rec.undeclare("unalign_store")


@template
def ClearSpr(t: TArgs) -> None:
    """``ClearSpr<SpecialPurposeReg::AR>()``: AR = 0 (RV_SPRCLR)."""
    rec = current_recorder()
    if t.enum(SpecialPurposeReg, SpecialPurposeReg.AR) == SpecialPurposeReg.AR:
        rec.ar = 0
    rec.emit("RV_SPRCLR", -1, (), "AR")
