"""Broadcast's own algorithm (the page's figure for [m, 1] -> [m, k]), used whenever a Broadcast repeats each
source element k times in a row (only the last axis is broadcast, from 1) and the element is 8, 16 or 32
bits wide:

1. Brcb: every source element fills one 32 B block of the temporary buffer;
2. Copy (level 0, source block stride 0): each block is copied to the k' / blk blocks of its row, where k'
   is k rounded up to 32 B (blk elements per block); when k is aligned the rows go straight to dst;
3. when k is not aligned, GatherMask (counter mode, one repeat per row, a user pattern of k set bits out
   of k') compacts the [m, k'] rows into the [m, k] result.

The same GatherMask compaction is UnPad's algorithm (assumed; the page states none), and Pad's scenario 2
(an aligned width) is a Copy plus a masked level-0 Duplicate of the pad columns (assumed).

Temporary buffer: the Brcb blocks (m rounded up to 8, 32 B each), the [m, k'] rows and the pattern (each
32 B aligned); min = max (the host helper returns it for these shapes).
"""
from __future__ import annotations

import math

import numpy as np

from toolkit.ascendc import membase as MB
from toolkit.ascendc.dtypes import uint64_t
from toolkit.ascendc.tensor import LocalTensor

from .tmpbuf import carve, tmp_buffer

MAX_REP = 255


def _up(n: int, k: int) -> int:
    return (int(n) + k - 1) // k * k


def rows_of(dst_shape: list[int], src_shape: list[int], itemsize: int) -> tuple[int, int] | None:
    """(m, k) when the broadcast repeats each source element k (> 1) times contiguously and the page's
    algorithm applies (8/16/32-bit elements, a row of at most 4095 blocks); else None."""
    if itemsize not in (1, 2, 4) or not dst_shape or len(dst_shape) != len(src_shape):
        return None
    if src_shape[-1] != 1 or dst_shape[-1] <= 1 or list(src_shape[:-1]) != list(dst_shape[:-1]):
        return None
    k = int(dst_shape[-1])
    if _up(k, 32 // itemsize) // (32 // itemsize) > 4095:
        return None
    return math.prod(src_shape[:-1]), k


def tmp_bytes(m: int, k: int, itemsize: int) -> int:
    blk = 32 // itemsize
    kp = _up(k, blk)
    rows = 0 if kp == k else _up(m * kp * itemsize, 32)
    pattern = 0 if kp == k else pattern_bytes(kp)
    return _up(m, 8) * 32 + rows + pattern


def _pattern(buf: LocalTensor, off: int, k: int, kp: int, dt: np.dtype) -> LocalTensor:
    """k set bits out of kp, in words of the element width (scalar stores)."""
    bits = 8 * dt.itemsize
    udt = np.dtype(f"u{dt.itemsize}")
    words = -(-kp // bits)
    pat, _ = carve(buf, udt, words, off)
    for i in range(words):
        on = min(max(k - i * bits, 0), bits)
        pat.SetValue(i, (1 << on) - 1)
    return pat


def broadcast_rows(api: str, dst: LocalTensor, src: LocalTensor, m: int, k: int, tmp: LocalTensor | None) -> None:
    """dst[r * k + c] = src[r] for r < m, c < k, by Brcb, Copy and (k unaligned) GatherMask."""
    dt = dst.dtype
    sz = dt.itemsize
    blk = 32 // sz
    kp = _up(k, blk)
    nb = kp // blk
    buf = tmp_buffer(api, tmp, tmp_bytes(m, k, sz))
    blocks, off = carve(buf, dt, _up(m, 8) * blk, 0)
    MB.Brcb(blocks, src, -(-m // 8), MB.BrcbRepeatParams(1, 8))
    rows = dst
    if kp != k:
        rows, off = carve(buf, dt, m * kp, off)
    lanes = 32 // max(sz, 2)                            # level-0 Copy masks 8-bit data by 16-bit lanes
    for g in range(0, nb, 8):
        cnt = min(8, nb - g)
        for r0 in range(0, m, MAX_REP):
            reps = min(MAX_REP, m - r0)
            MB.Copy(rows[r0 * kp + g * blk], blocks[r0 * blk], cnt * lanes, reps,
                    MB.CopyRepeatParams(1, 0, nb, 1))
    if kp != k:
        compact_rows(dst, rows, m, k, kp, _pattern(buf, off, k, kp, dt))


def pattern_bytes(kp: int) -> int:
    return _up(-(-kp // 8), 32)


def compact_rows(dst: LocalTensor, rows: LocalTensor, m: int, k: int, kp: int, pat: LocalTensor) -> None:
    """dst [m, k] = the first k of each kp-element row of ``rows`` (kp 32 B aligned): GatherMask in counter
    mode, one repeat per row, the same pattern (k set bits) every repeat."""
    sz = dst.dtype.itemsize
    q = 32 // math.gcd(k * sz, 32)                     # rows per GatherMask: keep every dst chunk 32 B aligned
    step = MAX_REP // q * q
    for r0 in range(0, m, step):
        reps = min(step, m - r0)
        MB.GatherMask(dst[r0 * k], rows[r0 * kp], pat, True, kp, MB.GatherMaskParams(1, reps, kp * sz // 32, 0),
                      uint64_t(0))


def unpad_rows(api: str, dst: LocalTensor, src: LocalTensor, h: int, w: int, keep: int,
               tmp: LocalTensor | None) -> None:
    """UnPad: the first ``keep`` columns of each aligned row of ``w``, by GatherMask (the pattern in tmp)."""
    buf = tmp_buffer(api, tmp, pattern_bytes(w))
    compact_rows(dst, src, h, keep, w, _pattern(buf, 0, keep, w, dst.dtype))


def pad_right_in_place(dst: LocalTensor, src: LocalTensor, h: int, w: int, ow: int, right: int, value) -> None:
    """Pad scenario 2: the rows copied (w 32 B aligned), then columns [ow, ow + right) set to ``value`` by
    level-0 Duplicate with a bit mask, one repeat per row (windows of one repeat's lanes)."""
    sz = dst.dtype.itemsize
    blk, lanes = 32 // sz, 256 // sz
    MB.Copy(dst, src, h * w)
    if not right:
        return
    stride = w // blk
    c = ow // blk * blk
    while c < ow + right:
        lo, hi = max(ow - c, 0), min(ow + right - c, lanes)
        bits = ((1 << hi) - 1) ^ ((1 << lo) - 1)
        mask = [bits & (2**64 - 1), bits >> 64]
        per = MAX_REP if stride <= 255 else 1
        for r0 in range(0, h, per):
            MB.Duplicate(dst[r0 * w + c], value, mask, min(per, h - r0), 1, stride if per > 1 else 0)
        c += lanes
