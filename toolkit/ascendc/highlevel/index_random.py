"""``AscendC::Arange`` (高阶API/索引计算) and ``AscendC::PhiloxRandom`` (高阶API/随机函数), with Arange's host
query (and its deprecated name GetArithProgressionMaxMinTmpSize).

Arange(dst, firstValue, diffValue, count): the page's three steps. The first E elements by SetValue
(first + i * diff in T on the scalar unit), the next ones up to 8E by Adds of the first block (block k:
first block + k * E * diff), the rest by Adds of the first 8E elements (chunk k: + k * 8E * diff). E is the
page's 8 for 4- and 8-byte types and 16 for 2-byte ones (assumed: a MemBase operand starts on 32 B).
No temporary space: the host query returns 0 / 0 (the page).

PhiloxRandom<Rounds = 7, T>(dst, key, counter, count | PhiloxRandomParams{stride, row, column}): Philox4x32
with Rounds rounds (7 or 10; multipliers 0xD2511F53 / 0xCD9E8D57, key bumps 0x9E3779B9 / 0xBB67AE85). Counter
value c + j (128-bit add) gives outputs 4j .. 4j + 3. The stride mode generates row r from the counters
c + r * stride / 4 + (0 .. column / 4 - 1), so that its outputs equal columns [0, column) of rows of a
continuous [row, stride] generation; dst holds the row * column outputs packed (assumed: the page's picture
shows the counters, not dst's layout). uint32_t / int32_t: the words; float: (x & 0x7FFFFF) * 2^-23 in [0, 1)
(the page's example agrees). Every step is a MemBase call on uint32 lanes (one lane per counter): Mull for the
32 x 32 -> 64 products, a ^ b as (a | b) - (a & b), a Gather to interleave the four words. The temporary space
is the framework's (the API takes no sharedTmpBuffer): chunks of :data:`CHUNK` counters."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from toolkit.ascendc import membase as MB
from toolkit.ascendc.dtypes import scalar_value
from toolkit.ascendc.regbase.types import RoundMode
from toolkit.ascendc.tensor import LocalTensor
from toolkit.engine.runtime import current

from .math_common import HighLevelApi, ceil_to
from .reduce_pattern import _offsets
from .tmpbuf import carve, tmp_buffer

I32, U32, I64, U64 = (np.dtype(t) for t in (np.int32, np.uint32, np.int64, np.uint64))
F32 = np.dtype(np.float32)
ARANGE_TYPES = tuple(np.dtype(t) for t in (np.int16, np.float16, np.int32, np.float32, np.int64))


def _arange(dst: LocalTensor, firstValue: Any, diffValue: Any, count: Any) -> None:
    """``Arange<T>(dst, firstValue, diffValue, count)``: dst[i] = firstValue + i * diffValue, i < count."""
    api, ctx = "Arange", current()
    dt = dst.dtype
    n = int(scalar_value(count))
    if dt not in ARANGE_TYPES:
        ctx.report("BAD_PARAMETER", f"{api}: {dt} is not an Ascend 950 type (int16_t, half, int32_t, float, int64_t)")
    if n <= 0 or n > dst.count:
        ctx.report("BAD_PARAMETER", f"{api}: count {n} must be > 0 and at most dst's {dst.count} elements")
    first, diff = dt.type(scalar_value(firstValue)), dt.type(scalar_value(diffValue))
    if diff < 0:
        ctx.report("BAD_PARAMETER", f"{api}: diffValue {diff} must be >= 0")
    e = 16 if dt.itemsize == 2 else 8
    with np.errstate(over="ignore"):
        for i in range(min(n, e)):
            dst.SetValue(i, dt.type(first + diff * dt.type(i)))
        for k in range(1, 8):
            if k * e >= n:
                return
            MB.Adds(dst[k * e], dst, dt.type(diff * dt.type(k * e)), min(e, n - k * e))
        b = 8 * e
        for k in range(1, -(-n // b)):
            MB.Adds(dst[k * b], dst, dt.type(diff * dt.type(k * b)), min(b, n - k * b))


Arange = HighLevelApi(_arange, "Arange")


def GetArangeMaxMinTmpSize(maxValue, minValue) -> None:
    maxValue.value = minValue.value = 0


def GetArithProgressionMaxMinTmpSize(maxValue, minValue) -> None:
    """The deprecated name of GetArangeMaxMinTmpSize (the page)."""
    GetArangeMaxMinTmpSize(maxValue, minValue)


# -- PhiloxRandom -----------------------------------------------------------------------------------------------
@dataclass
class PhiloxRandomParams:
    stride: int = 0
    row: int = 0
    column: int = 0


M0, M1 = 0xD2511F53, 0xCD9E8D57
W0, W1 = 0x9E3779B9, 0xBB67AE85
CHUNK = 256                    #: counters per pass (1024 outputs)
_NODES = 11                    #: uint32 rows of CHUNK lanes: x0..x3, lo / hi products (4), scratch, two multipliers


def _words(api: str, key: Any, counter: Any) -> tuple[tuple[int, int], list[int]]:
    """(k0, k1) and the counter's four words; the .asc bridge sends the counter as two 64-bit halves."""
    k = [int(v) & 0xFFFFFFFF for v in key]
    c = [int(v) % (1 << 64) for v in counter]
    if len(c) == 2:
        c = [c[0] & 0xFFFFFFFF, c[0] >> 32, c[1] & 0xFFFFFFFF, c[1] >> 32]
    if len(k) != 2 or len(c) != 4:
        current().report("BAD_PARAMETER", f"{api}: PhiloxKey holds 2 words and PhiloxCounter 4")
    return (k[0], k[1]), [v & 0xFFFFFFFF for v in c]


def _xor(d: LocalTensor, a: LocalTensor, b: LocalTensor, t: LocalTensor, n: int) -> None:
    """d = a ^ b on uint32 lanes: (a | b) - (a & b) (t: scratch)."""
    MB.And(t, a, b, n)
    MB.Or(d, a, b, n)
    MB.Sub(d, d, t, n)


class _Philox:
    """One call's working rows (CHUNK uint32 lanes each) in the framework's temporary buffer."""

    def __init__(self, api: str, rounds: int, key: tuple[int, int], ctr: list[int]):
        buf = tmp_buffer(api, None, _NODES * CHUNK * 4 + CHUNK * 8 + 3 * CHUNK * 4 * 4)
        off = 0
        self.rows = []
        for _ in range(_NODES):
            t, off = carve(buf, U32, CHUNK, off)
            self.rows.append(t)
        self.idx, off = carve(buf, I64, CHUNK, off)
        self.off = LocalTensor(buf.addr + off, I32, 3 * CHUNK * 4, buf.position)
        self.rounds, self.key, self.ctr = rounds, key, ctr
        MB.Duplicate(self.rows[9], np.uint32(M0), CHUNK)
        MB.Duplicate(self.rows[10], np.uint32(M1), CHUNK)

    def counters(self, j0: int, nb: int, stride: PhiloxRandomParams | None) -> None:
        """x0..x3 = counter + index of blocks j0 .. j0 + nb (128-bit add; the stride mode's row jumps)."""
        x = self.rows[:4]
        idx32 = self.off
        MB.CreateVecIndex(idx32, np.int32(j0), nb)
        if stride is not None:
            cpr, jump = int(stride.column) // 4, int(stride.stride) // 4
            q, c = self.off[CHUNK], self.off[2 * CHUNK]
            MB.Duplicate(c, np.int32(cpr), nb)
            MB.Div(q, idx32, c, nb)
            MB.Muls(c, q, np.int32(cpr), nb)
            MB.Sub(idx32, idx32, c, nb)                  # block within the row
            MB.Muls(q, q, np.int32(jump), nb)
            MB.Add(idx32, idx32, q, nb)
        MB.Cast(self.idx, idx32, RoundMode.CAST_NONE, nb)
        base = self.ctr[0] | (self.ctr[1] << 32)
        u = self.idx.ReinterpretCast(U64)
        MB.Adds(u, u, np.uint64(base), nb)
        words = u.ReinterpretCast(U32)
        MB.CreateVecIndex(self.off[CHUNK], np.int32(0), nb)
        MB.Muls(self.off[CHUNK], self.off[CHUNK], np.int32(8), nb)
        MB.Gather(x[0], words, self.off[CHUNK].ReinterpretCast(U32), 0, nb)
        MB.Adds(self.off[CHUNK], self.off[CHUNK], np.int32(4), nb)
        MB.Gather(x[1], words, self.off[CHUNK].ReinterpretCast(U32), 0, nb)
        MB.Duplicate(x[2], np.uint32(self.ctr[2]), nb)
        MB.Duplicate(x[3], np.uint32(self.ctr[3]), nb)
        self._carry(j0, nb, stride, base)

    def _carry(self, j0: int, nb: int, stride, base: int) -> None:
        """Lanes whose low 64 bits wrapped carry into words 2 / 3 (scalar stores: a rare case)."""
        for j in range(nb):
            g = j0 + j
            if stride is not None:
                g = g // (int(stride.column) // 4) * (int(stride.stride) // 4) + g % (int(stride.column) // 4)
            if base + g >= 1 << 64:
                hi = ((self.ctr[2] | (self.ctr[3] << 32)) + 1) % (1 << 64)
                self.rows[2].SetValue(j, np.uint32(hi & 0xFFFFFFFF))
                self.rows[3].SetValue(j, np.uint32(hi >> 32))

    def rounds_(self, nb: int) -> None:
        x0, x1, x2, x3, lo0, hi0, lo1, hi1, t = self.rows[:9]
        k0, k1 = self.key
        for _ in range(self.rounds):
            MB.Mull(lo0, hi0, x0, self.rows[9], nb)
            MB.Mull(lo1, hi1, x2, self.rows[10], nb)
            _xor(x0, hi1, x1, t, nb)
            MB.Duplicate(t, np.uint32(k0), nb)
            _xor(x0, x0, t, hi1, nb)
            _xor(x2, hi0, x3, t, nb)
            MB.Duplicate(t, np.uint32(k1), nb)
            _xor(x2, x2, t, hi0, nb)
            MB.Copy(x1, lo1, nb)
            MB.Copy(x3, lo0, nb)
            k0, k1 = (k0 + W0) & 0xFFFFFFFF, (k1 + W1) & 0xFFFFFFFF

    def store(self, dst: LocalTensor, e0: int, n: int) -> None:
        """dst[e0 + e] = word e % 4 of block e // 4 (x0..x3 are consecutive rows of CHUNK lanes)."""
        _offsets(self.off, n, 4, 4, 1, CHUNK, 4)
        out = dst[e0].ReinterpretCast(U32)
        MB.Gather(out, self.rows[0], self.off.ReinterpretCast(U32), 0, n)
        if dst.dtype == F32:
            MB.Duplicate(self.rows[8], np.uint32(0x7FFFFF), min(n, CHUNK))
            for k in range(0, n, CHUNK):
                MB.And(out[k], out[k], self.rows[8], min(CHUNK, n - k))
            MB.Cast(dst[e0], out.ReinterpretCast(I32), RoundMode.CAST_NONE, n)
            MB.Muls(dst[e0], dst[e0], np.float32(2.0 ** -23), n)


def _philox(dst: LocalTensor, philoxKey: Any, philoxCounter: Any, spec: Any, Rounds: int = 7, **_: Any) -> None:
    """``PhiloxRandom<Rounds>(dst, key, counter, count)`` or ``(dst, key, counter, PhiloxRandomParams)``."""
    api, ctx = "PhiloxRandom", current()
    if dst.dtype not in (U32, I32, F32):
        ctx.report("BAD_PARAMETER", f"{api}: uint32_t, int32_t or float dst (got {dst.dtype})")
    if int(Rounds) not in (7, 10):
        ctx.report("BAD_PARAMETER", f"{api}: Rounds must be 7 or 10 (got {Rounds})")
    if dst.addr % 32:
        ctx.report("BAD_PARAMETER", f"{api}: dstLocal must start on 32 B")
    key, ctr = _words(api, philoxKey, philoxCounter)
    stride = spec if isinstance(spec, PhiloxRandomParams) else None
    if stride is not None:
        col, row, st = int(stride.column), int(stride.row), int(stride.stride)
        if row * col <= 0 or col % 4 or st % 4 or st < col:
            ctx.report("BAD_PARAMETER", f"{api}: row * column > 0, column and stride multiples of 4, stride >= column "
                       f"(got stride {st}, row {row}, column {col})")
        n = row * col
    else:
        n = int(scalar_value(spec))
    if n <= 0 or n > dst.count:
        ctx.report("BAD_PARAMETER", f"{api}: {n} outputs for a dst of {dst.count} elements")
    gen = _Philox(api, int(Rounds), key, ctr)
    blocks = -(-n // 4)
    for j0 in range(0, blocks, CHUNK):
        nb = min(CHUNK, blocks - j0)
        gen.counters(j0, nb, stride)
        gen.rounds_(nb)
        gen.store(dst, 4 * j0, min(4 * nb, n - 4 * j0))


PhiloxRandom = HighLevelApi(_philox, "PhiloxRandom")
