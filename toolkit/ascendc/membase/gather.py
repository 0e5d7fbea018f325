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


def _layout(width: int, pattern: int, counter: bool, n: int, repeat: int, blk: int, rep: int,
            user: np.ndarray | None = None) -> tuple:
    """(src Access, dst Access, stored bytes per chunk, PLT inputs per chunk, total selected). ``user``: the
    user pattern's selection bits, (repeat, elements per repeat) booleans (a built-in pattern otherwise)."""
    if user is None:
        return _builtin_layout(width, pattern, counter, n, repeat, blk, rep)
    return _layout_of(width, counter, n, repeat, blk, rep, user, ("gu", user.tobytes()))


@functools.lru_cache(maxsize=512)
def _builtin_layout(width: int, pattern: int, counter: bool, n: int, repeat: int, blk: int, rep: int) -> tuple:
    lanes = VL // width
    per_rep = n if counter else lanes
    sel = np.broadcast_to(pattern_lanes(pattern, lanes)[np.arange(per_rep) % lanes], (repeat, per_rep))
    return _layout_of(width, counter, n, repeat, blk, rep, sel, ("gm", pattern))


def _layout_of(width: int, counter: bool, n: int, repeat: int, blk: int, rep: int, sel: np.ndarray,
               key: tuple) -> tuple:
    lanes, epb = VL // width, BLOCK // width
    per_rep = n if counter else lanes
    nchunks = -(-per_rep // lanes)
    e = np.arange(per_rep, dtype=np.int64)
    j, i = e // lanes, e % lanes
    off = (j * 8 + i // epb) * blk * epb + i % epb
    r = np.repeat(np.arange(repeat, dtype=np.int64), per_rep).reshape(repeat, per_rep)
    keep = np.asarray(sel, bool).reshape(repeat, per_rep)
    idx = (r * (rep * epb) + off[None, :])[keep]
    step = (r * nchunks + j[None, :])[keep]
    nsteps = repeat * nchunks
    read_span = ((repeat - 1) * rep + ((nchunks - 1) * 8 + 7) * blk) * BLOCK + BLOCK if nsteps else 0
    k = (*key, width, counter, n, repeat, blk, rep)
    src = from_arrays(("gs", *k), idx, step, nsteps, read_span)
    total = int(idx.size)
    dst = from_arrays(("gd", *k), np.arange(total, dtype=np.int64), step.copy(), nsteps, total * width)
    per_chunk = np.zeros((repeat, nchunks), np.int64)
    np.add.at(per_chunk, (r[keep], np.broadcast_to(j, (repeat, per_rep))[keep]), width)
    chunk_bytes = tuple(tuple(int(b) for b in row) for row in per_chunk)
    counts = tuple(tuple(max(per_rep - c * lanes, 0) for c in range(nchunks)) for _ in range(repeat)) \
        if counter else ()
    return src, dst, chunk_bytes, counts, total


def _user_bits(ctx, api: str, pat: LocalTensor, per_rep: int, repeat: int, rep1: int) -> np.ndarray:
    """The selection bits of a user pattern tensor: repeat r consumes ``per_rep`` bits from
    ``src1Pattern + r * src1RepeatStride * 32 B``."""
    nbytes = -(-per_rep // 8)
    out = np.zeros((repeat, per_rep), bool)
    if ctx.dry_run:
        return out
    for r in range(repeat):
        a = pat.addr + r * rep1 * BLOCK
        ctx.ub.check(a, nbytes, api, 32 if r == 0 else 1)
        ctx.ub.require_defined(a, nbytes, f"{api} (the src1Pattern bits)")
        raw = np.asarray(ctx.ub.data[a:a + nbytes])
        out[r] = np.unpackbits(raw, bitorder="little")[:per_rep].astype(bool)
    return out


_TYPES = {1: "uint8", 2: "uint16", 4: "uint32"}


def _gather_mask(dst: LocalTensor, src0: LocalTensor, pattern: Any, reduceMode: Any, mask: Any,
                 params: GatherMaskParams, rsvdCnt: Any = None) -> None:
    """``GatherMask(dst, src0, src1Pattern, reduceMode, mask, GatherMaskParams, rsvdCnt)``: src1Pattern a
    built-in pattern 1..7 or a LocalTensor of selection bits (uint8/uint16/uint32 for 8/16/32-bit data)."""
    api = "GatherMask"
    ctx = current()
    dt = dst.dtype
    w = dt.itemsize
    if src0.dtype != dt or w not in (1, 2, 4):
        ctx.report("BAD_PARAMETER", f"{api}: needs equal 8-, 16- or 32-bit types, got {type_name(dt)} / "
                   f"{type_name(src0.dtype)}")
    counter = bool(scalar_value(reduceMode))
    repeat, blk, rep = int(params.repeatTimes), int(params.src0BlockStride), int(params.src0RepeatStride)
    check_u8(ctx, api, repeatTimes=repeat, src0BlockStride=blk)
    if rep < 0:
        ctx.report("BAD_PARAMETER", f"{api}: src0RepeatStride {rep} is negative")
    n = int(scalar_value(mask)) if counter else 0
    if n < 0:
        ctx.report("BAD_PARAMETER", f"{api}: counter-mode mask {n} is negative")
    user = None
    p = 0
    if isinstance(pattern, LocalTensor):
        if pattern.dtype.name != _TYPES.get(w):
            ctx.report("BAD_PARAMETER", f"{api}: a {type_name(dt)} source takes a {_TYPES.get(w, '?')}_t pattern, "
                       f"not {type_name(pattern.dtype)}")
        per_rep = n if counter else VL // w
        user = _user_bits(ctx, api, pattern, per_rep, repeat, int(params.src1RepeatStride))
    else:
        p = int(scalar_value(pattern))
        if not 1 <= p <= 7:
            ctx.report("BAD_PARAMETER", f"{api}: built-in pattern {p} is outside 1..7")
    sacc, dacc, chunk_bytes, counts, total = _layout(w, p, counter, n, repeat, blk, rep, user)
    apply(ctx, api, Operand(dst.addr, dt, dacc), [Operand(src0.addr, src0.dtype, sacc)],
          lambda v: v[0].view(dt).copy())
    if isinstance(rsvdCnt, CScalar):
        rsvdCnt.value = total
    elif rsvdCnt is not None:
        raise TypeError(f"{api}: rsvdCnt must be a uint64_t box (toolkit.ascendc.dtypes.uint64_t), got {type(rsvdCnt)}")
    emit(ctx, api, 6, gather_stream(chunk_bytes, counter, blk != 1, counts),
         {"dtype": type_name(dt), "form": "counter" if counter else "normal", "repeat": repeat, "count": total})


def _batchable(args: tuple) -> bool:
    """A user pattern selects data-dependent lanes: such calls run core by core."""
    return len(args) < 3 or not isinstance(args[2], LocalTensor)


GatherMask = MemBaseApi(_gather_mask, "GatherMask", batchable=_batchable)
