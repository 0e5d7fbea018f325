"""Data relayout in registers: Interleave / DeInterleave, Pack / UnPack, Squeeze / Unsqueeze, Move and the
index Gather without a mask. The same names with MaskReg operands act on predicates (maskops.py).

Interleave(d0, d1, s0, s1): the elements of s0 and s1 alternate, the first VL of the result in d0, the
second in d1. DeInterleave: the even elements of s0:s1 to d0, the odd ones to d1. Pack keeps the low half of
each element's bits in the low (LOWEST) or high (HIGHEST) half of dst, the other half 0 (assumed); UnPack
widens the low or high half of src (sign-extending signed types).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .arith import _and_def
from .maskops import mask_deinterleave, mask_interleave, mask_pack, mask_unpack
from .template import TArgs, template
from .types import VL, GatherMaskMode, HighLowPart, MaskMergeMode, MaskReg, RegTensor
from .vf import current_recorder


def _defs(*regs: RegTensor) -> np.ndarray:
    return np.concatenate([r.defined if r.defined is not None else np.ones(r.raw.shape, bool) for r in regs],
                          axis=1)


def _pair(rec, dst0: RegTensor, dst1: RegTensor, out: np.ndarray, dd: np.ndarray, opcode: str,
          srcs: tuple) -> None:
    for d in (dst0, dst1):
        d.acc_lanes = None
    dst0.set(out[:, :VL], dd[:, :VL], rec, 1)
    dst1.set(out[:, VL:], dd[:, VL:], rec, 1)
    rec.emit(opcode, dst0.id, srcs, None)
    rec.emit("ALIAS", dst1.id, (dst0.id,), None)


def _interleave_bytes(a: np.ndarray, b: np.ndarray, w: int) -> np.ndarray:
    rows = max(a.shape[0], b.shape[0])
    a, b = np.broadcast_to(a, (rows, VL)), np.broadcast_to(b, (rows, VL))
    return np.stack([a.reshape(rows, -1, w), b.reshape(rows, -1, w)], axis=2).reshape(rows, 2 * VL)


@template
def Interleave(t: TArgs, dst0: Any, dst1: Any, src0: Any, src1: Any) -> None:
    """``Interleave(d0, d1, s0, s1)``: d0:d1 = s0[0] s1[0] s0[1] s1[1] ... (VINTLV); MaskReg operands:
    groups of sizeof(T) predicate bits (PINTLV)."""
    if isinstance(dst0, MaskReg):
        return mask_interleave(t, dst0, dst1, src0, src1)
    rec = current_recorder()
    w = (t.type(0) or dst0.dtype).itemsize
    srcs = (src0.id, src1.id)
    out = _interleave_bytes(src0.raw, src1.raw, w)
    d0, d1 = _defs(src0), _defs(src1)
    _pair(rec, dst0, dst1, out, _interleave_bytes(d0, d1, w), "RV_VINTLV", srcs)


@template
def DeInterleave(t: TArgs, dst0: Any, dst1: Any, src0: Any, src1: Any) -> None:
    """``DeInterleave(d0, d1, s0, s1)``: the even elements of s0:s1 to d0, the odd ones to d1 (VDINTLV)."""
    if isinstance(dst0, MaskReg):
        return mask_deinterleave(t, dst0, dst1, src0, src1)
    rec = current_recorder()
    w = (t.type(0) or dst0.dtype).itemsize
    srcs = (src0.id, src1.id)
    z = np.concatenate(np.broadcast_arrays(src0.raw, src1.raw), axis=1)
    dz = _defs(src0, src1)
    rows = z.shape[0]

    def split(v):
        g = v.reshape(rows, -1, w)
        return np.concatenate([g[:, 0::2].reshape(rows, VL), g[:, 1::2].reshape(rows, VL)], axis=1)
    _pair(rec, dst0, dst1, split(z), split(dz), "RV_VDINTLV", srcs)


def _half(t: TArgs) -> int:
    return 1 if t.enum(HighLowPart, HighLowPart.LOWEST) == HighLowPart.HIGHEST else 0


@template
def Pack(t: TArgs, dst: Any, src: Any) -> None:
    """``Pack<T, U, part>(dst, src)``: the low half of each U element of src, as T, into the low or high half
    of dst (VPACK); ``Pack<part>(MaskReg, MaskReg)``: the even predicate bits (PPACK)."""
    if isinstance(dst, MaskReg):
        return mask_pack(t, dst, src)
    rec = current_recorder()
    ws = (t.type(1) or src.dtype).itemsize
    rows = src.raw.shape[0]
    low = np.ascontiguousarray(src.raw.reshape(rows, -1, ws)[:, :, :ws // 2]).reshape(rows, VL // 2)
    sd = _defs(src)
    low_def = np.ascontiguousarray(sd.reshape(rows, -1, ws)[:, :, :ws // 2]).reshape(rows, VL // 2)
    out = np.zeros((rows, VL), np.uint8)
    dd = np.ones((rows, VL), bool)
    h = _half(t)
    out[:, h * VL // 2:(h + 1) * VL // 2] = low
    dd[:, h * VL // 2:(h + 1) * VL // 2] = low_def
    srcs = (src.id,)
    dst.acc_lanes = None
    dst.set(out, dd, rec, 1)
    rec.emit("RV_VPACK", dst.id, srcs, h)


@template
def UnPack(t: TArgs, dst: Any, src: Any) -> None:
    """``UnPack<T, U, part>(dst, src)``: the low or high half of src widened to T (zero- or sign-extended)
    (VUNPACK); ``UnPack<part>(MaskReg, MaskReg)``: each bit of a half spread to two (PUNPACK)."""
    if isinstance(dst, MaskReg):
        return mask_unpack(t, dst, src)
    rec = current_recorder()
    sdt = t.type(1) or src.dtype
    ddt = t.type(0) or dst.dtype
    n = VL // ddt.itemsize
    h = _half(t)
    x = src.raw.view(sdt)[:, h * n:(h + 1) * n]
    wide = np.dtype(f"{'i' if sdt.kind == 'i' else 'u'}{ddt.itemsize}")
    sd = src.lane_defined(sdt.itemsize)
    lane_def = None if sd is None else sd[:, h * n:(h + 1) * n]
    srcs = (src.id,)
    dst.acc_lanes = None
    dst.set(x.astype(wide).view(ddt), lane_def, rec, ddt.itemsize)
    rec.emit("RV_VUNPACK", dst.id, srcs, h)


@template
def Squeeze(t: TArgs, dst: RegTensor, src: RegTensor, mask: MaskReg) -> None:
    """``Squeeze<T, GatherMaskMode>(dst, src, mask)``: the active elements packed to the low lanes, the rest
    0 (VSQZ); STORE_REG also leaves their byte count for the next AR-form StoreUnAlign."""
    rec = current_recorder()
    dt = t.type(0) or dst.dtype
    w = dt.itemsize
    active, _ = mask.lanes(w)
    x = src.raw.view(dt)
    rows = max(x.shape[0], active.shape[0])
    act = np.broadcast_to(active, (rows, VL // w))
    xb = np.broadcast_to(x, (rows, VL // w))
    order = np.argsort(~act, axis=1, kind="stable")           # active lanes first, in lane order
    packed = np.take_along_axis(xb, order, axis=1)
    counts = act.sum(axis=1)
    keep = np.arange(VL // w)[None, :] < counts[:, None]
    out = np.where(keep, packed, dt.type(0))
    sd = src.lane_defined(w)
    lane_def = None if sd is None else np.take_along_axis(np.broadcast_to(sd, (rows, VL // w)), order, 1) | ~keep
    srcs = (src.id, mask.id)
    dst.acc_lanes = None
    dst.set(out, lane_def, rec, w)
    rec.emit("RV_VSQZ", dst.id, srcs, None, mask=mask.id)
    if t.enum(GatherMaskMode, GatherMaskMode.NO_STORE_REG) == GatherMaskMode.STORE_REG:
        rec.squeeze_bytes = counts * w                        # per core of the batch


@template
def Unsqueeze(t: TArgs, dst: RegTensor, mask: MaskReg) -> None:
    """``Unsqueeze<T>(dst, mask)``: dst[i] = the number of active mask lanes below i (dst[0] = 0) (VUSQZ)."""
    rec = current_recorder()
    dt = t.type(0) or dst.dtype
    active, _ = mask.lanes(dt.itemsize)
    counts = np.cumsum(active, axis=1) - active                # exclusive prefix sum
    srcs = (mask.id,)
    dst.acc_lanes = None
    dst.set(counts.astype(dt), None, rec, dt.itemsize)
    rec.emit("RV_VUSQZ", dst.id, srcs, None, mask=mask.id)


def move_register(t: TArgs, dst: RegTensor, src: RegTensor, mask: MaskReg | None) -> None:
    """``Move<T, MERGING>(dst, src, mask)``: active lanes copied, the others keep dst; unmasked: a copy
    (VMOV). ZEROING is not supported on the hardware (the page): it is refused."""
    rec = current_recorder()
    if mask is None:
        srcs = (src.id,)
        dst.acc_lanes = None
        dst.set(src.raw, src.defined, rec, 1)
        rec.emit("RV_VMOV", dst.id, srcs, None)
        return
    if t.enum(MaskMergeMode, MaskMergeMode.MERGING) == MaskMergeMode.ZEROING:
        raise ValueError("Move supports only MaskMergeMode::MERGING")
    dt = t.type(0) or dst.dtype
    w = dt.itemsize
    active, _ = mask.lanes(w)
    out = np.where(active, src.raw.view(dt), dst.raw.view(dt))
    sd, od = src.lane_defined(w), dst.lane_defined(w)
    lane_def = None if sd is None and od is None else np.where(active, True if sd is None else sd,
                                                               True if od is None else od)
    srcs = (src.id, dst.id, mask.id)
    dst.acc_lanes = None
    dst.set(out, lane_def, rec, w)
    rec.emit("RV_VMOV", dst.id, srcs, None, mask=mask.id)


def gather_register(t: TArgs, dst: RegTensor, src: RegTensor, index: RegTensor) -> None:
    """``Gather<T, U>(dst, src, index)``: dst[i] = src[index[i]] (index lanes as wide as T; VSELR)."""
    rec = current_recorder()
    dt = t.type(0) or dst.dtype
    w = dt.itemsize
    n = VL // w
    idx = index.raw.view(np.dtype(f"uint{8 * w}")).astype(np.int64) % n
    rows = max(idx.shape[0], src.raw.shape[0])
    vals = np.take_along_axis(np.broadcast_to(src.raw.view(dt), (rows, n)), np.broadcast_to(idx, (rows, n)), 1)
    ld = src.lane_defined(w)
    lane_def = _and_def(None if ld is None else np.take_along_axis(np.broadcast_to(ld, (rows, n)),
                                                                     np.broadcast_to(idx, (rows, n)), 1),
                        index.lane_defined(w))
    srcs = (src.id, index.id)
    dst.acc_lanes = None
    dst.set(vals, lane_def, rec, w)
    rec.emit("RV_VSELR", dst.id, srcs, None)
