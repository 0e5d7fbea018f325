"""MemBase ``GatherMask(dst, src0, pattern, reduceMode, mask, GatherMaskParams, rsvdCnt)`` (api-facts 14).

Built-in patterns (bit i = element i within each VL): 1 even, 2 odd, 3..6 element 0..3 of every group
of 4, 7 all. Selected elements are compacted contiguously into dst, in order, across all repeats;
``rsvdCnt.value`` receives their number.

* Normal mode (``reduceMode`` False): repeat r reads one VL, blocks at
  ``src0 + (r*src0RepeatStride + b*src0BlockStride)*32 B``; ``mask`` is ignored.
* Counter mode (True): repeat r consumes the first ``mask`` elements from ``src0 + r*src0RepeatStride*32 B``
  in VL chunks; block b of chunk j is at ``+ (j*8 + b)*src0BlockStride*32 B``.

On 950: per VL chunk a load, VSQZ (Squeeze) and an unaligned store VSTUI; one VSTAS at the end.
"""
from __future__ import annotations

import functools
from typing import Any

import numpy as np

from toolkit.ascendc.dtypes import CScalar, scalar_value
from toolkit.ascendc.tensor import LocalTensor
from toolkit.engine.runtime import current

from .elementwise import MemBaseApi, type_name
from .executor import Operand, apply
from .level0 import BLOCK, VL, check_u8, from_arrays
from .params import GatherMaskParams
from .vfstream import emit, gather_stream


def pattern_lanes(pattern: int, lanes: int) -> np.ndarray:
    """Lanes selected by built-in pattern 1..7 in one VL of ``lanes`` elements."""
    i = np.arange(lanes)
    if pattern == 1:
        return i % 2 == 0
    if pattern == 2:
        return i % 2 == 1
    if 3 <= pattern <= 6:
        return i % 4 == pattern - 3
    return np.ones(lanes, dtype=bool)


@functools.lru_cache(maxsize=512)
def _layout(width: int, pattern: int, counter: bool, n: int, repeat: int, blk: int, rep: int) -> tuple:
    """(src Access, dst Access, stored bytes per chunk, PLT inputs per chunk, total selected)."""
    lanes, epb = VL // width, BLOCK // width
    sel_lanes = pattern_lanes(pattern, lanes)
    per_rep = n if counter else lanes
    nchunks = -(-per_rep // lanes)
    e = np.arange(per_rep, dtype=np.int64)
    j, i = e // lanes, e % lanes
    keep = sel_lanes[i]
    off = ((j * 8 + i // epb) * blk * epb + i % epb)[keep]
    chunk = j[keep]
    r = np.arange(repeat, dtype=np.int64)[:, None]
    idx = (r * (rep * epb) + off[None, :]).ravel()
    step = (r * nchunks + chunk[None, :]).ravel()
    nsteps = repeat * nchunks
    read_span = ((repeat - 1) * rep + ((nchunks - 1) * 8 + 7) * blk) * BLOCK + BLOCK if nsteps else 0
    src = from_arrays(("gm", width, pattern, counter, n, repeat, blk, rep), idx, step, nsteps, read_span)
    total = int(idx.size)
    dst = from_arrays(("gmd", width, pattern, counter, n, repeat, blk, rep), np.arange(total, dtype=np.int64),
                      step.copy(), nsteps, total * width)
    per_chunk = np.bincount(chunk, minlength=nchunks) * width
    chunk_bytes = tuple(tuple(int(b) for b in per_chunk) for _ in range(repeat))
    counts = tuple(tuple(max(per_rep - k * lanes, 0) for k in range(nchunks)) for _ in range(repeat)) \
        if counter else ()
    return src, dst, chunk_bytes, counts, total


def _gather_mask(dst: LocalTensor, src0: LocalTensor, pattern: Any, reduceMode: Any, mask: Any,
                 params: GatherMaskParams, rsvdCnt: Any = None) -> None:
    """``GatherMask(dst, src0, pattern, reduceMode, mask, GatherMaskParams, rsvdCnt)``, built-in patterns."""
    api = "GatherMask"
    ctx = current()
    dt = dst.dtype
    w = dt.itemsize
    if src0.dtype.itemsize != w or w not in (2, 4):
        ctx.report("BAD_PARAMETER", f"{api}: needs 16- or 32-bit types of equal width, got {type_name(dt)} / "
                   f"{type_name(src0.dtype)}")
    if isinstance(pattern, LocalTensor):
        ctx.report("BAD_PARAMETER", f"{api}: user pattern tensors are not modelled; use built-in patterns 1..7")
    p = int(scalar_value(pattern))
    if not 1 <= p <= 7:
        ctx.report("BAD_PARAMETER", f"{api}: built-in pattern {p} is outside 1..7")
    counter = bool(scalar_value(reduceMode))
    repeat, blk, rep = int(params.repeatTimes), int(params.src0BlockStride), int(params.src0RepeatStride)
    check_u8(ctx, api, repeatTimes=repeat, src0BlockStride=blk)
    if rep < 0:
        ctx.report("BAD_PARAMETER", f"{api}: src0RepeatStride {rep} is negative")
    n = int(scalar_value(mask)) if counter else 0
    if n < 0:
        ctx.report("BAD_PARAMETER", f"{api}: counter-mode mask {n} is negative")
    sacc, dacc, chunk_bytes, counts, total = _layout(w, p, counter, n, repeat, blk, rep)
    apply(ctx, api, Operand(dst.addr, dt, dacc), [Operand(src0.addr, src0.dtype, sacc)],
          lambda v: v[0].view(dt).copy())
    if isinstance(rsvdCnt, CScalar):
        rsvdCnt.value = total
    elif rsvdCnt is not None:
        raise TypeError(f"{api}: rsvdCnt must be a uint64_t box (toolkit.ascendc.dtypes.uint64_t), got {type(rsvdCnt)}")
    emit(ctx, api, 6, gather_stream(chunk_bytes, counter, blk != 1, counts),
         {"dtype": type_name(dt), "form": "counter" if counter else "normal", "repeat": repeat, "count": total})


GatherMask = MemBaseApi(_gather_mask, "GatherMask")
