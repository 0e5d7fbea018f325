"""MaskReg computations (MaskReg计算): Select, Pack / UnPack, Interleave / DeInterleave of predicate bits,
MoveMask (from the SetVectorMask special register) and MaskGenWithRegTensor (a predicate from a register).

Bit i of a MaskReg is bit (i % 8) of byte i // 8 when it is stored to UB (little-endian bit order).
Interleave / DeInterleave move groups of ``sizeof(T)`` bits, as elements of T. Pack keeps the even bits of
the source in one half of the destination; the other half is 0 (assumed: the page shows one half).
"""
from __future__ import annotations

import numpy as np

from toolkit.engine.runtime import current

from .template import TArgs, template
from .types import VL, HighLowPart, MaskReg, RegTensor
from .vf import current_recorder


def _set(rec, dst: MaskReg, bits: np.ndarray, opcode: str, srcs: tuple, aux=None) -> None:
    dst.set_bits(bits, rec)
    rec.emit(opcode, dst.id, srcs, aux)


def mask_select(dst: MaskReg, src0: MaskReg, src1: MaskReg, mask: MaskReg) -> None:
    """dst bit = src0 bit where mask, else src1 bit (PSEL)."""
    rec = current_recorder()
    srcs = (src0.id, src1.id, mask.id)
    _set(rec, dst, np.where(mask.bits, src0.bits, src1.bits), "RV_PSEL", srcs)


def _half(t: TArgs) -> int:
    return 1 if t.enum(HighLowPart, HighLowPart.LOWEST) == HighLowPart.HIGHEST else 0


def mask_pack(t: TArgs, dst: MaskReg, src: MaskReg) -> None:
    """The even bits of src into the low (LOWEST) or high (HIGHEST) half of dst (PPACK)."""
    rec = current_recorder()
    bits = np.zeros((src.bits.shape[0], VL), bool)
    h = _half(t)
    bits[:, h * VL // 2:(h + 1) * VL // 2] = src.bits[:, 0::2]
    _set(rec, dst, bits, "RV_PPACK", (src.id,))


def mask_unpack(t: TArgs, dst: MaskReg, src: MaskReg) -> None:
    """The low or high half of src, each bit spread to two bits (the upper one 0) (PUNPACK)."""
    rec = current_recorder()
    h = _half(t)
    bits = np.zeros((src.bits.shape[0], VL), bool)
    bits[:, 0::2] = src.bits[:, h * VL // 2:(h + 1) * VL // 2]
    _set(rec, dst, bits, "RV_PUNPACK", (src.id,))


def _groups(bits: np.ndarray, w: int) -> np.ndarray:
    return bits.reshape(bits.shape[0], -1, w)


def mask_interleave(t: TArgs, dst0: MaskReg, dst1: MaskReg, src0: MaskReg, src1: MaskReg) -> None:
    """Groups of sizeof(T) bits interleaved: dst0 = g0[0] g1[0] g0[1] g1[1] ..., dst1 the upper halves."""
    rec = current_recorder()
    w = (t.type(0) or np.dtype(np.uint8)).itemsize
    b0, b1 = np.broadcast_arrays(src0.bits, src1.bits)
    z = np.stack([_groups(b0, w), _groups(b1, w)], axis=2).reshape(b0.shape[0], 2 * VL)
    srcs = (src0.id, src1.id)
    _set(rec, dst0, z[:, :VL], "RV_PINTLV", srcs)
    dst1.set_bits(z[:, VL:], rec)
    rec.emit("ALIAS", dst1.id, (dst0.id,), None)


def mask_deinterleave(t: TArgs, dst0: MaskReg, dst1: MaskReg, src0: MaskReg, src1: MaskReg) -> None:
    """The even groups of src0:src1 to dst0, the odd ones to dst1 (PDINTLV)."""
    rec = current_recorder()
    w = (t.type(0) or np.dtype(np.uint8)).itemsize
    b0, b1 = np.broadcast_arrays(src0.bits, src1.bits)
    g = np.concatenate([_groups(b0, w), _groups(b1, w)], axis=1)
    srcs = (src0.id, src1.id)
    rows = b0.shape[0]
    _set(rec, dst0, g[:, 0::2].reshape(rows, VL), "RV_PDINTLV", srcs)
    dst1.set_bits(g[:, 1::2].reshape(rows, VL), rec)
    rec.emit("ALIAS", dst1.id, (dst0.id,), None)


def _u64_bits(words: list[int]) -> np.ndarray:
    raw = np.array([w & 0xFFFFFFFFFFFFFFFF for w in words], dtype=np.uint64).view(np.uint8)
    return np.unpackbits(raw, bitorder="little").astype(bool)


@template
def MoveMask(t: TArgs) -> MaskReg:
    """``MoveMask<T>()``: the SetVectorMask register {MASK1, MASK0} as a predicate: b16 reads all 128 bits
    and doubles each bit, b32 reads MASK0's 64 bits and repeats each bit 4 times (PMOVMSK). The register is
    the core's ``vector_mask`` (hi, lo) when a MemBase SetVectorMask set it, else all ones (assumed reset)."""
    rec = current_recorder()
    dt = t.type(0) or np.dtype(np.uint16)
    hi, lo = getattr(current(), "vector_mask", None) or (0xFFFFFFFFFFFFFFFF, 0xFFFFFFFFFFFFFFFF)
    w = dt.itemsize
    if w == 2:
        bits = np.repeat(_u64_bits([lo, hi]), 2)
    elif w == 4:
        bits = np.repeat(_u64_bits([lo]), 4)
    else:
        raise TypeError("MoveMask takes a b16 or b32 type")
    m = MaskReg(bits[None, :VL], _id=rec.new_id())
    rec.emit("RV_PMOVMSK", m.id, (), w)
    return m


@template
def MaskGenWithRegTensor(t: TArgs, dst: MaskReg, src: RegTensor) -> None:
    """``MaskGenWithRegTensor<T, offset>(dst, src)``: block ``offset`` of src (16 B for b16, 8 B for b32),
    each bit broadcast to 2 (b16) or 4 (b32) predicate bits (VMOVVP)."""
    rec = current_recorder()
    dt = t.type(0) or src.dtype
    offset = next((int(v) for v in t.values), 0)
    w = dt.itemsize
    if w not in (2, 4):
        raise TypeError("MaskGenWithRegTensor takes a b16 or b32 register")
    block = VL // 8 // w                                  # bytes a predicate needs: 16 (b16) or 8 (b32)
    if not 0 <= offset < VL // block:
        current().report("BAD_PARAMETER", f"MaskGenWithRegTensor offset {offset} outside [0, {VL // block - 1}]")
    raw = src.raw[:, offset * block:(offset + 1) * block]
    bits = np.repeat(np.unpackbits(raw, axis=1, bitorder="little").astype(bool), w, axis=1)
    srcs = (src.id,)
    _set(rec, dst, bits, "RV_VMOVVP", srcs, offset)
