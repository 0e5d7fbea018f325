"""Aligned UB <-> register moves: LoadAlign / StoreAlign (all dists, post-update, AddrReg, block-strided,
MaskReg) and CreateAddrReg (api-facts 3-4); the unaligned pairs are in unaligned.py.

Masked-off lanes of a store leave UB untouched. Loads carry the UB definedness shadow into the register.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from toolkit.ascendc.itervec import BATCH, NotBatchable
from toolkit.ascendc.tensor import UbPtr
from toolkit.engine.runtime import current
from toolkit.record.events import BLOCK_STRIDED

from .template import TArgs, template
from .types import (
    VL,
    AddrReg,
    DataCopyMode,
    LoadDist,
    MaskDist,
    MaskReg,
    PostLiteral,
    RegTensor,
    StoreDist,
)
from .vf import current_recorder

# dist -> (UB bytes read, alignment)
_LOAD_FOOTPRINT = {
    "NORM": (VL, 32), "BLK": (32, 32),
    "US_B8": (VL // 2, 32), "US_B16": (VL // 2, 32),
    "DS_B8": (2 * VL, 32), "DS_B16": (2 * VL, 32),
    "UNPACK_B8": (VL // 2, 32), "UNPACK_B16": (VL // 2, 32), "UNPACK_B32": (VL // 2, 32), "UNPACK4_B8": (VL // 4, 32),
    "E2B_B16": (16, 16), "E2B_B32": (32, 32),
    "BRC_B8": (1, 1), "BRC_B16": (2, 2), "BRC_B32": (4, 4),
    "DINTLV_B8": (2 * VL, 32), "DINTLV_B16": (2 * VL, 32), "DINTLV_B32": (2 * VL, 32),
}
#: the check message of each load dist (formatted once, not per load)
_LOAD_WHAT = {d: f"LoadAlign<{d}>" for d in _LOAD_FOOTPRINT}
_STORE_WHAT = {d.value: f"StoreAlign<{d.value}>" for d in StoreDist}
POST_UPDATE = PostLiteral.POST_MODE_UPDATE
#: element bytes named by a dist's suffix (US_B16, INTLV_B32, FIRST_B8 ...)
_SUFFIX_BYTES = {"B8": 1, "B16": 2, "B32": 4}
#: PACK store dists: (lane width of the mask, bytes kept per lane)
_PACK = {"PACK_B16": (2, 1), "PACK_B32": (4, 2), "PACK_B64": (8, 4), "PACK4_B32": (4, 1)}


#: an element of B8 / B16 / B32 as one integer
_ELEMENT = {1: np.uint8, 2: np.uint16, 4: np.uint32}


def _place(dist: str, src: np.ndarray, fill: int) -> np.ndarray:
    """Register bytes (B, 256) built from the UB footprint bytes ``src`` (B, n) for one load dist."""
    b, n = src.shape
    if dist == "NORM":
        return src.copy()
    if dist.startswith("BRC"):
        return np.tile(src, (1, VL // n))
    if dist == "BLK":
        return np.tile(src, (1, 8))
    w = _SUFFIX_BYTES[dist.rsplit("_", 1)[1]]
    # elements moved whole, as w-byte integers (a byte-wise copy with a w-byte inner run is ~10x slower)
    el = np.ascontiguousarray(src).view(_ELEMENT[w])
    if dist.startswith("US"):
        return np.repeat(el, 2, axis=1).view(src.dtype)
    if dist.startswith("DS"):
        return np.ascontiguousarray(el[:, 0::2]).view(src.dtype)
    out = np.full((b, VL), fill, dtype=src.dtype)
    if dist == "UNPACK4_B8":
        out[:, 0::4] = src
        return out
    if dist.startswith("UNPACK"):
        out.view(_ELEMENT[w]).reshape(b, -1, 2)[:, :, 0] = el
        return out
    if dist.startswith("E2B"):
        return np.repeat(el.reshape(b, 8, 1), 32 // w, axis=2).reshape(b, -1).view(src.dtype)
    raise ValueError(dist)


def _read(ctx, addr: int, nbytes: int, align: int, what: str) -> tuple[np.ndarray, np.ndarray | None]:
    """(bytes, definedness or None) of UB [addr, addr+nbytes), one row per core of the batch."""
    ub = ctx.ub
    ub.check(addr, nbytes, what, align)
    return ub.rd(addr, nbytes), ub.rdef(addr, nbytes)


def _own(ub, data: np.ndarray) -> np.ndarray:
    """``data`` as a register's own bytes: a view of the UB is copied; a batched loop's read of strided
    iterations is already a fresh array (not copied twice)."""
    fields = getattr(ub, "__dict__", {})          # not getattr: a batched body's UB refuses unknown names
    backing = fields.get("data2d", fields.get("data"))
    if isinstance(backing, np.ndarray) and not np.may_share_memory(data, backing):
        return data
    return data.copy()


def _resolve_addr(ptr: UbPtr, rest: tuple) -> tuple[int, tuple]:
    if rest and isinstance(rest[0], AddrReg):
        return ptr.addr + rest[0].offset * ptr.dtype.itemsize, rest[1:]
    return ptr.addr, rest


@template
def LoadAlign(t: TArgs, dst: Any, *args: Any) -> None:
    """LoadAlign<T, dist>(dst, src [, AddrReg]); <T, POST_MODE_UPDATE, dist>(dst, src&, stride);
    dual <T, DIST_DINTLV_Bx>(dst0, dst1, src); block-strided <T, DATA_BLOCK_COPY>(dst, src, blkStride, mask)."""
    if BATCH.batch is not None and (t.enum(PostLiteral) is POST_UPDATE or t.enum(DataCopyMode) is not None):
        raise NotBatchable("a post-updated or block-strided address in a batched body", static=True)
    ctx = current()
    rec = ctx.vf or current_recorder()
    if t.enum(DataCopyMode) is not None:
        return _load_blocks(ctx, rec, t, dst, *args)
    if isinstance(dst, MaskReg):
        return _load_mask(ctx, rec, t, dst, *args)
    dist = t.enum(LoadDist, LoadDist.DIST_NORM).value
    if isinstance(args[0], RegTensor):
        return _load_dual(ctx, rec, t, dist, dst, *args)
    ptr: UbPtr = args[0]
    addr, rest = _resolve_addr(ptr, args[1:])
    foot, align = _LOAD_FOOTPRINT[dist]
    data, shadow = _read(ctx, addr, foot, align, _LOAD_WHAT[dist])
    dst.set(_own(ctx.ub, data) if dist == "NORM" else _place(dist, data, 0),
            None if shadow is None else _place(dist, shadow, True), rec, 1)
    dst.acc_lanes = None              # a freshly loaded register holds no partial results
    rec.emit("RV_VLD", dst.id, (), dist=dist, ub_addr=addr, ub_bytes=foot)
    if t.enum(PostLiteral) is POST_UPDATE:
        ptr.addr += int(rest[0]) * ptr.dtype.itemsize


def _load_dual(ctx, rec, t: TArgs, dist: str, dst: RegTensor, dst1: RegTensor, ptr: UbPtr, *rest: Any) -> None:
    """``LoadAlign<T, DIST_DINTLV_Bx>(dst0, dst1, src)``: even elements to dst0, odd ones to dst1."""
    w = (t.type(0) or dst.dtype).itemsize
    addr, rest = _resolve_addr(ptr, rest)
    foot, align = _LOAD_FOOTPRINT[dist]
    data, shadow = _read(ctx, addr, foot, align, _LOAD_WHAT[dist])
    b = data.shape[0]
    el = data.reshape(b, -1, w)
    dst.set(el[:, 0::2].reshape(b, -1), _sh(shadow, lambda s: s.reshape(b, -1, w)[:, 0::2].reshape(b, -1)),
            rec, 1)
    dst1.set(el[:, 1::2].reshape(b, -1), _sh(shadow, lambda s: s.reshape(b, -1, w)[:, 1::2].reshape(b, -1)),
             rec, 1)
    rec.emit("RV_VLD", dst.id, (), dist=dist, ub_addr=addr, ub_bytes=foot)
    rec.emit("ALIAS", dst1.id, (dst.id,), None)
    if t.enum(PostLiteral) is POST_UPDATE:
        ptr.addr += int(rest[0]) * ptr.dtype.itemsize


#: MaskReg load dists: UB bytes read (MaskReg搬入: NORM VL/8 = 32 B; US VL/16 = 16 B, each bit twice; DS VL/4
#: = 64 B, every other bit) and their alignment; store dists: NORM 32 B, PACK 16 B (every other bit)
_MASK_LOAD = {"NORM": (32, 32), "US": (16, 16), "DS": (64, 32)}
_MASK_STORE = {"NORM": (32, 32), "PACK": (16, 16)}


def _mask_post(t: TArgs, ptr: UbPtr, rest: tuple) -> None:
    """PostUpdate MaskReg forms: the pointer moves by ``offset`` bytes (the pages' unit for MaskReg)."""
    if t.enum(PostLiteral) is POST_UPDATE:
        ptr.addr += int(rest[0])


def _load_mask(ctx, rec, t: TArgs, dst: MaskReg, ptr: UbPtr, *rest) -> None:
    """``LoadAlign<T, [post,] MaskDist>(MaskReg&, src [, AddrReg | offset])``: a predicate from UB (bit i =
    bit i % 8 of byte i // 8), as MaskDist spreads it."""
    dist = t.enum(MaskDist, MaskDist.DIST_NORM).value
    if dist not in _MASK_LOAD:
        raise ValueError(f"LoadAlign of a MaskReg takes DIST_NORM, DIST_US or DIST_DS, not DIST_{dist}")
    addr, rest = _resolve_addr(ptr, rest)
    n, align = _MASK_LOAD[dist]
    data, _ = _read(ctx, addr, n, align, f"LoadAlign<MaskDist::{dist}>")
    bits = np.unpackbits(data, axis=1, bitorder="little").astype(bool)
    if dist == "US":
        bits = np.repeat(bits, 2, axis=1)
    elif dist == "DS":
        bits = bits[:, 0::2]
    dst.set_bits(bits[:, :VL], rec)
    rec.emit("RV_VLD", dst.id, (), dist=f"MASK_{dist}", ub_addr=addr, ub_bytes=n)
    _mask_post(t, ptr, rest)


def _store_mask(ctx, rec, t: TArgs, ptr: UbPtr, src: MaskReg, *rest) -> None:
    """``StoreAlign<T, [post,] MaskDist>(dst, MaskReg& [, AddrReg | offset])``: the predicate's 256 bits to 32 B
    of UB (DIST_PACK: its even bits to 16 B)."""
    dist = t.enum(MaskDist, MaskDist.DIST_NORM).value
    if dist not in _MASK_STORE:
        raise ValueError(f"StoreAlign of a MaskReg takes DIST_NORM or DIST_PACK, not DIST_{dist}")
    addr, rest = _resolve_addr(ptr, rest)
    bits = src.bits[:, 0::2] if dist == "PACK" else src.bits
    raw = np.packbits(bits.astype(np.uint8), axis=1, bitorder="little")
    n, align = _MASK_STORE[dist]
    ctx.ub.check(addr, n, f"StoreAlign<MaskDist::{dist}>", align)
    ctx.ub.wr(addr, raw)
    rec.emit("RV_VST", -1, (src.id,), dist=f"MASK_{dist}", ub_addr=addr, ub_bytes=n)
    _mask_post(t, ptr, rest)


def _block_base(t: TArgs, ptr: UbPtr, rep_stride: int) -> int:
    """Block-strided address: with a repeatStride, POST_MODE_NORMAL reads/writes at ``ptr + repeatStride*32``
    and keeps the pointer; POST_MODE_UPDATE uses ``ptr`` and advances it afterwards (api-facts 3)."""
    if t.enum(PostLiteral) is POST_UPDATE:
        return ptr.addr
    return ptr.addr + rep_stride * 32


def _sh(shadow, fn):
    return None if shadow is None else fn(shadow)


def _load_blocks(ctx, rec, t: TArgs, dst: RegTensor, ptr: UbPtr, blk_stride: int, *rest: Any) -> None:
    """VSLDB: 8 DataBlocks at src + b*blkStride*32; a block with no active lane is not read (zeros)."""
    mask: MaskReg = rest[-1]
    rep_stride = int(rest[0]) if len(rest) > 1 else 0
    dt = t.type(0) or dst.dtype
    w = dt.itemsize
    base = _block_base(t, ptr, rep_stride)
    ctx.ub.check(base, 0, "LoadAlign<DATA_BLOCK_COPY>", 32)
    active, _ = mask.lanes(w)
    blk_active = active.reshape(active.shape[0], 8, 32 // w).any(axis=2)       # (1 or B, 8)
    rows = rec.batch
    raw = np.zeros((rows, VL), dtype=np.uint8)
    lane_def = np.ones((rows, VL), dtype=bool)
    for b in np.nonzero(blk_active.any(axis=0))[0]:
        a = base + int(b) * int(blk_stride) * 32
        data, shadow = _read(ctx, a, 32, 1, "LoadAlign<DATA_BLOCK_COPY>")
        on = blk_active[:, b:b + 1]                                           # cores whose block is read
        raw[:, b * 32:(b + 1) * 32] = np.where(on, data, 0)
        if shadow is not None:
            lane_def[:, b * 32:(b + 1) * 32] = shadow | ~on
    dst.set(raw, lane_def, rec, 1)
    rec.emit("RV_VSLDB", dst.id, (mask.id,), int(blk_stride), mask=mask.id, dist=BLOCK_STRIDED, ub_addr=base,
             ub_bytes=32)
    if t.enum(PostLiteral) is POST_UPDATE:
        ptr.addr += rep_stride * 32


def _low_part(x: np.ndarray, lane: int, keep: int) -> np.ndarray:
    """The first ``keep`` bytes of every ``lane``-byte lane of ``x`` (B, 256), packed (B, 256 * keep / lane);
    moved as keep-byte integers (a byte-wise copy with a short inner run is ~10x slower)."""
    el = np.ascontiguousarray(x).view(_ELEMENT[keep])
    return np.ascontiguousarray(el.reshape(x.shape[0], -1, lane // keep)[:, :, 0]).view(x.dtype)


def _store_bytes(dist: str, src: RegTensor, w: int) -> tuple[np.ndarray, np.ndarray, int, int]:
    """(bytes to write, per-byte definedness, element width in UB, lane width of the mask)."""
    raw = src.raw
    b = raw.shape[0]
    d = src.defined if src.defined is not None else np.ones((b, VL), dtype=bool)
    if dist.startswith("PACK"):
        lane, keep = _PACK[dist]
        return _low_part(raw, lane, keep), _low_part(d, lane, keep), keep, lane
    return raw, d, w, w


@template
def StoreAlign(t: TArgs, dst: UbPtr, src: RegTensor, *args: Any) -> None:
    """StoreAlign<T, dist>(dst, src, mask); <T, POST_MODE_UPDATE, dist>(dst&, src, stride, mask);
    (dst, src, AddrReg, mask); dual <T, DIST_INTLV_Bx>(dst, src0, src1, mask); block-strided."""
    if BATCH.batch is not None and (t.enum(PostLiteral) is POST_UPDATE or t.enum(DataCopyMode) is not None):
        raise NotBatchable("a post-updated or block-strided address in a batched body", static=True)
    ctx = current()
    rec = ctx.vf or current_recorder()
    if t.enum(DataCopyMode) is not None:
        return _store_blocks(ctx, rec, t, dst, src, *args)
    if isinstance(src, MaskReg):
        return _store_mask(ctx, rec, t, dst, src, *args)
    dist = t.enum(StoreDist, StoreDist.DIST_NORM).value
    what = _STORE_WHAT[dist]
    dt = t.type(0) or src.dtype
    w = dt.itemsize
    mask: MaskReg = args[-1]
    ub = ctx.ub
    if dist.startswith("INTLV"):
        src1: RegTensor = args[0]
        ew = _SUFFIX_BYTES[dist[6:]]
        addr, _ = _resolve_addr(dst, args[1:-1])
        ub.check(addr, 2 * VL, what, 32)
        b = src.raw.shape[0]
        both = np.stack([src.raw.reshape(b, -1, ew), src1.raw.reshape(b, -1, ew)], axis=2).reshape(b, -1)
        d0 = src.defined if src.defined is not None else np.ones((b, VL), bool)
        d1 = src1.defined if src1.defined is not None else np.ones((b, VL), bool)
        ub.wr(addr, both, np.stack([d0.reshape(b, -1, ew), d1.reshape(b, -1, ew)], axis=2).reshape(b, -1))
        rec.emit("RV_VST", -1, (src.id, src1.id), mask=mask.id, dist=dist, ub_addr=addr, ub_bytes=2 * VL)
        return
    addr, rest = _resolve_addr(dst, args[:-1])
    if dist.startswith("FIRST"):
        ew = _SUFFIX_BYTES[dist[6:]]
        ub.check(addr, ew, what, ew)
        ub.wr(addr, src.raw[:, :ew], True if src.defined is None else src.defined[:, :ew])
        rec.emit("RV_VST", -1, (src.id,), dist=dist, ub_addr=addr, ub_bytes=ew)
    else:
        data, dd, ew, lane = _store_bytes(dist, src, w)
        active, full = mask.lanes(lane)
        nbytes = data.shape[1]
        if full:
            ub.check(addr, nbytes, what, 32)
            ub.wr(addr, data, dd)
        else:
            ub.check(addr, 0, what, 32)
            bm = np.repeat(active, ew, axis=1)
            on = bm.any(axis=0)
            if on.any():
                last = int(np.nonzero(on)[0][-1]) + 1
                ub.check(addr, last, what)
                ub.wr_where(addr, data[:, :last], dd[:, :last], bm[:, :last])
        rec.emit("RV_VST", -1, (src.id, mask.id), mask=mask.id, dist=dist, ub_addr=addr, ub_bytes=nbytes)
    if t.enum(PostLiteral) is POST_UPDATE:
        dst.addr += int(rest[0]) * dst.dtype.itemsize


def _store_blocks(ctx, rec, t: TArgs, ptr: UbPtr, src: RegTensor, blk_stride: int, *rest: Any) -> None:
    """VSSTB: block b to dst + b*blkStride*32, element-granular masking; empty blocks untouched."""
    mask: MaskReg = rest[-1]
    rep_stride = int(rest[0]) if len(rest) > 1 else 0
    dt = t.type(0) or src.dtype
    w = dt.itemsize
    base = _block_base(t, ptr, rep_stride)
    ctx.ub.check(base, 0, "StoreAlign<DATA_BLOCK_COPY>", 32)
    active, _ = mask.lanes(w)
    bm = np.repeat(active, w, axis=1)
    d = src.defined if src.defined is not None else np.ones(src.raw.shape, bool)
    for b in range(8):
        sel = bm[:, b * 32:(b + 1) * 32]
        if not sel.any():
            continue
        a = base + b * int(blk_stride) * 32
        ctx.ub.check(a, 32, "StoreAlign<DATA_BLOCK_COPY>")
        ctx.ub.wr_where(a, src.raw[:, b * 32:(b + 1) * 32], d[:, b * 32:(b + 1) * 32], sel)
    rec.emit("RV_VSSTB", -1, (src.id, mask.id), int(blk_stride), mask=mask.id, dist=BLOCK_STRIDED, ub_addr=base,
             ub_bytes=32)
    if t.enum(PostLiteral) is POST_UPDATE:
        ptr.addr += rep_stride * 32


@template
def CreateAddrReg(t: TArgs, *index_stride: Any) -> AddrReg:
    """``CreateAddrReg<T>(i0, s0 [, i1, s1 ...])``: offset = sum(index * stride) elements of T."""
    vals = [int(getattr(v, "value", v)) for v in index_stride]
    off = sum(vals[k] * vals[k + 1] for k in range(0, len(vals), 2))
    return AddrReg(off, t.type(0) or np.uint8)
