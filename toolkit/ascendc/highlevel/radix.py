"""A stable least-significant-bit radix sort over MemBase calls: the RADIX_SORT algorithm of ``Sort`` with a
SortConfig and the RADIX_SELECT algorithm of ``TopK`` (高阶API/排序操作).

The key of every element is made an unsigned integer whose order is the value order ("twiddle in"):
unsigned integers as they are; signed integers as they are, their top bit taken in reverse order;
floating point (half, bfloat16_t, float) ``~x`` for a negative x and ``x | sign`` otherwise (Compares,
Not, Or, Select). 64-bit keys are two 32-bit words (GatherMask pattern 1 / 2 of the uint32 view).

One pass per key bit, low bit first: And with the bit, Compares against 0 (the two selection bit masks),
GatherMask of the position table by each mask (a stable partition), the two parts joined by a Gather
through an offset table (Compares / Adds / Select), then Gather of every key word and of the original
positions through the joined permutation. Descending order takes the bit-set part first. After the
last pass ``pos`` holds, in sorted order, the original position of each element: the values and indices
are Gathers through it. Equal keys keep their input order (every pass is stable)."""
from __future__ import annotations

import numpy as np

from toolkit.ascendc import membase as MB
from toolkit.ascendc.dtypes import uint64_t
from toolkit.ascendc.membase.params import GatherMaskParams
from toolkit.ascendc.regbase.types import CMPMODE
from toolkit.ascendc.tensor import LocalTensor

from .tmpbuf import carve

U32 = np.dtype(np.uint32)
I32 = np.dtype(np.int32)
U8 = np.dtype(np.uint8)
_UINT = {1: np.dtype(np.uint8), 2: np.dtype(np.uint16), 4: U32}
_SINT = {1: np.dtype(np.int8), 2: np.dtype(np.int16), 4: I32}
FLOATS = ("float16", "float32", "bfloat16")


def _pad(n: int) -> int:
    return max(256, -(-int(n) // 256) * 256)   # whole 256 B repeats of Compares / Select


def _a32(n: int) -> int:
    return -(-int(n) // 32) * 32


def key_layout(dt: np.dtype) -> tuple[int, int]:
    """(bytes of one key word, number of key words) of an element type."""
    w = np.dtype(dt).itemsize
    return (4, 2) if w == 8 else (w, 1)


def tmp_bytes(n: int, itemsize: int) -> int:
    """The bytes :func:`sort_positions` takes from its buffer for ``n`` elements of ``itemsize`` bytes."""
    p = _pad(n)
    kw, nk = (4, 2) if itemsize == 8 else (itemsize, 1)
    words = (2 * nk + 4) * _a32(p * kw)        # key words (two copies), bit test, constant, float twiddle
    return words + 10 * _a32(p * 4) + 5 * _a32(p // 8) + 64


class _Space:
    def __init__(self, buf: LocalTensor):
        self.buf, self.off = buf, 0

    def take(self, dtype, count: int) -> LocalTensor:
        t, self.off = carve(self.buf, dtype, count, self.off)
        return t


def _keys(src: LocalTensor, n: int, sp: _Space, nan_first: bool | None) -> tuple[list[LocalTensor], bool]:
    """The unsigned key words of ``src[:n]`` (low word first) and whether the top bit sorts reversed.
    ``nan_first`` (floating point): NaN gets the largest key (True, a descending sort) or the smallest."""
    dt, p = src.dtype, _pad(n)
    kw, nk = key_layout(dt)
    ut = _UINT[kw]
    keys = [sp.take(ut, p) for _ in range(nk)]
    for k in keys:
        MB.Duplicate(k, 0, p)
    if nk == 2:
        words = src.ReinterpretCast(U32)
        for k, pattern in zip(keys, (1, 2)):
            MB.GatherMask(k, words, pattern, True, 2 * n, GatherMaskParams(1, 1, 8, 0), uint64_t(0))
        return keys, dt.kind == "i"
    if dt.name not in FLOATS:
        MB.Copy(keys[0], src.ReinterpretCast(ut), n)
        return keys, dt.kind == "i"
    neg, flip, sign = sp.take(U8, p // 8), sp.take(ut, p), sp.take(ut, p)
    MB.Duplicate(flip, 0, p)
    MB.Copy(flip, src.ReinterpretCast(ut), n)
    number = None
    if nan_first is not None:                   # bit set where x == x (not NaN)
        number = sp.take(U8, p // 8)
        MB.Compare(number, flip.ReinterpretCast(dt), flip.ReinterpretCast(dt), CMPMODE.EQ, p)
    MB.Compares(neg, flip.ReinterpretCast(_SINT[kw]), 0, CMPMODE.LT, p)
    MB.Duplicate(sign, 1 << (8 * kw - 1), p)
    MB.Or(sign, flip, sign, p)
    MB.Not(flip, flip, p)
    MB.Select(keys[0], neg, flip, sign, MB.SELMODE.VSEL_TENSOR_TENSOR_MODE, p)
    if number is not None:
        MB.Select(keys[0], number, keys[0], (1 << (8 * kw)) - 1 if nan_first else 0,
                  MB.SELMODE.VSEL_TENSOR_SCALAR_MODE, p)
    return keys, False


def sort_positions(src: LocalTensor, n: int, descending: bool, buf: LocalTensor,
                   nan_first: bool = False) -> LocalTensor:
    """A uint32 tensor (in ``buf``) of the original positions of ``src[:n]`` in stable sorted order
    (``nan_first``: NaN before every number in either order, as TopK's page wants)."""
    sp = _Space(buf)
    p = _pad(n)
    keys, signed = _keys(src, n, sp, descending if nan_first else None)
    kw = keys[0].dtype.itemsize
    ut = keys[0].dtype
    iota, iota4 = sp.take(U32, p), sp.take(U32, p)
    pos, pos2, perm, part_a, part_b, table, table2, offs = (sp.take(U32, p) for _ in range(8))
    spare = [sp.take(ut, p) for _ in keys]
    bit, const = sp.take(ut, p), sp.take(ut, p)
    zero, one, high = sp.take(U8, p // 8), sp.take(U8, p // 8), sp.take(U8, p // 8)
    MB.CreateVecIndex(iota.ReinterpretCast(I32), 0, p)
    MB.Muls(iota4.ReinterpretCast(I32), iota.ReinterpretCast(I32), 4, p)
    MB.Copy(pos, iota, p)
    MB.Duplicate(bit, 0, p)
    nbits = 8 * kw
    ut32 = U32
    for w in range(len(keys)):
        for b in range(nbits):
            MB.Duplicate(const, 1 << b, n)
            MB.And(bit, keys[w], const, n)
            MB.Compares(zero, bit, 0, CMPMODE.EQ, p)
            MB.Compares(one, bit, 0, CMPMODE.NE, p)
            top = signed and w == len(keys) - 1 and b == nbits - 1
            first, second = ((one, zero) if descending != top else (zero, one))
            first, second = first.ReinterpretCast(ut32), second.ReinterpretCast(ut32)
            count = uint64_t(0)
            MB.GatherMask(part_a, iota, first, True, n, GatherMaskParams(1, 1, 8, 0), count)
            c0 = int(count.value)
            if c0 in (0, n):
                continue                           # every element on one side: the order stays
            MB.GatherMask(part_b, iota, second, True, n, GatherMaskParams(1, 1, 8, 0), uint64_t(0))
            # the offset table of the join: part_a[i] for i < c0, part_b[i - c0] after
            MB.Compares(high, iota.ReinterpretCast(I32), c0, CMPMODE.GE, p)
            MB.Adds(table2.ReinterpretCast(I32), iota4.ReinterpretCast(I32), part_b.addr - part_a.addr - 4 * c0, p)
            MB.Select(table, high, table2, iota4, MB.SELMODE.VSEL_TENSOR_TENSOR_MODE, p)
            MB.Gather(perm, part_a, table, 0, n)
            MB.Muls(offs.ReinterpretCast(I32), perm.ReinterpretCast(I32), kw, n)
            for k in range(len(keys)):
                MB.Gather(spare[k], keys[k], offs, 0, n)
                keys[k], spare[k] = spare[k], keys[k]
            MB.Muls(offs.ReinterpretCast(I32), perm.ReinterpretCast(I32), 4, n)
            MB.Gather(pos2, pos, offs, 0, n)
            pos, pos2 = pos2, pos
    return pos


def gather_by(dst: LocalTensor, src: LocalTensor, pos: LocalTensor, count: int, scratch: LocalTensor) -> None:
    """dst[i] = src[pos[i]] for i < count (``scratch``: a uint32 tensor of at least ``count`` elements)."""
    if count <= 0:
        return
    MB.Muls(scratch.ReinterpretCast(I32), pos.ReinterpretCast(I32), src.dtype.itemsize, count)
    MB.Gather(dst, src, scratch, 0, count)
