"""MemBase addressing: level-0 masks, repeat/block strides and the access patterns built from them.

An :class:`Access` lists, for one operand of one API call, the element offsets (from the operand's
base, in elements of its type) that the call reads or writes, in execution order, with the sequential
*step* (repeat or VL chunk) of each entry. Level-0 (api-facts 13): repeat r, lane e lives in block
``e // (32 / sizeof(T))`` at byte ``(r*repStride + block*blkStride)*32 + (e % (32/sizeof(T)))*sizeof(T)``;
only active (mask) lanes are listed. Accesses depend only on their parameters and are cached.
"""
from __future__ import annotations

import functools
from typing import Any

import numpy as np

from toolkit.ascendc.dtypes import scalar_value
from toolkit.machine import load_machine

_CORE = load_machine().params["core"]
VL = _CORE["vl_bytes"]                 #: bytes of one vector register / one MemBase repeat
BLOCK = _CORE["block_bytes"]           #: one DataBlock
MAX_REPEAT = _CORE["max_repeat"]       #: repeatTime limit of the level-0 form
MASK64 = (1 << 64) - 1
_I64 = np.int64


class Mask:
    """A level-0 mask resolved for ``lanes`` lanes per repeat: ``kind`` "bits" (MoveMask) or "count"
    (UpdateMask once, ``value`` = n)."""

    __slots__ = ("kind", "value", "lanes", "active", "act", "key")

    def __init__(self, kind: str, value: int, lanes: int):
        self.kind, self.value, self.lanes = kind, value, lanes
        self.key = (kind, value, lanes)
        self.active = _active_lanes(kind, value, lanes)
        self.act = np.flatnonzero(self.active)

    def __hash__(self) -> int:
        return hash(self.key)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Mask) and other.key == self.key

    @property
    def empty(self) -> bool:
        return self.act.size == 0


@functools.lru_cache(maxsize=1024)
def _active_lanes(kind: str, value: int, lanes: int) -> np.ndarray:
    if kind == "count":
        out = np.arange(lanes) < value
    else:
        raw = np.frombuffer(value.to_bytes(32, "little"), dtype=np.uint8)
        out = np.unpackbits(raw, bitorder="little")[:lanes].astype(bool)
    out.flags.writeable = False
    return out


@functools.lru_cache(maxsize=1024)
def make_mask(kind: str, value: int, lanes: int) -> Mask:
    return Mask(kind, value, lanes)


def parse_mask(ctx: Any, api: str, mask: Any, lanes: int) -> Mask:
    """Level-0 ``mask``: two uint64 words (bit mode) or an int (continuous mode), for ``lanes`` lanes.

    Bit mode: word 0 bit i = lane i, word 1 bit i = lane 64+i (only for 128 lanes; for 64 lanes only
    word 0 counts, for 32 lanes its low 32 bits). Continuous mode: the first n lanes, n clamped to ``lanes``.
    """
    if isinstance(mask, (list, tuple, np.ndarray)):
        words = [int(scalar_value(m)) & MASK64 for m in mask]
        if not words or len(words) > 2:
            ctx.report("BAD_PARAMETER", f"{api}: a bit mask is two uint64 words, got {len(words)}")
        if lanes <= 64:
            bits = words[0] & ((1 << lanes) - 1)
        else:
            bits = words[0] | ((words[1] if len(words) > 1 else 0) << 64)
        m = make_mask("bits", bits, lanes)
    else:
        n = int(scalar_value(mask))
        if n < 0:
            ctx.report("BAD_PARAMETER", f"{api}: continuous mask {n} is negative")
        m = make_mask("count", min(n, lanes), lanes)
    if m.empty:
        ctx.report("MASK_ZERO", f"{api}: the mask selects no element; modelled as leaving dst unchanged")
    return m


def check_u8(ctx: Any, api: str, **values: int) -> None:
    """Report BAD_PARAMETER for a uint8 parameter outside [0, 255] (a repeat count: [0, max_repeat])."""
    for name, v in values.items():
        hi = MAX_REPEAT if name.startswith("repeat") else 255
        if not 0 <= v <= hi:
            ctx.report("BAD_PARAMETER", f"{api}: {name} = {v} is outside the uint8 range [0, {hi}]")


class Access:
    """Element offsets an operand touches, in step order (see module doc)."""

    __slots__ = ("key", "idx", "step", "nsteps", "read_span", "elo", "ehi", "contiguous", "_starts", "_keep")

    def __init__(self, key: tuple, idx: np.ndarray, step: np.ndarray, nsteps: int, read_span: int):
        self.key = key
        self.idx = idx
        self.step = step
        self.nsteps = nsteps
        self.read_span = read_span                 # bytes from the base a read may touch
        self.elo = int(idx.min()) if idx.size else 0
        self.ehi = int(idx.max()) + 1 if idx.size else 0
        self.contiguous = bool(idx.size == 0 or (self.elo == 0 and self.ehi == idx.size
                                                  and (idx.size == 1 or bool((np.diff(idx) == 1).all()))))
        self._starts = None
        self._keep = False

    @property
    def starts(self) -> np.ndarray:
        """Entry index where each step starts (length nsteps + 1)."""
        if self._starts is None:
            self._starts = np.searchsorted(self.step, np.arange(self.nsteps + 1))
        return self._starts

    @property
    def keep(self) -> np.ndarray | None:
        """Entries to write so that the last write of an element wins (None: no element written twice)."""
        if self._keep is False:
            self._keep = last_writes(self.idx)
        return self._keep


def last_writes(idx: np.ndarray) -> np.ndarray | None:
    """Positions of the last occurrence of every value of ``idx`` (None if all values are distinct)."""
    if idx.size < 2:
        return None
    u, first_rev = np.unique(idx[::-1], return_index=True)
    if u.size == idx.size:
        return None
    return np.sort(idx.size - 1 - first_rev)


def _freeze(*arrays: np.ndarray) -> None:
    for a in arrays:
        a.flags.writeable = False


@functools.lru_cache(maxsize=4096)
def contiguous(width: int, count: int, lanes: int, read_width: int | None = None) -> Access:
    """Count form: elements 0..count-1, VL chunk ``e // lanes`` is the step; a read loads whole chunks
    of ``lanes`` elements (``read_width`` bytes each, default ``width``)."""
    idx = np.arange(count, dtype=_I64)
    step = idx // lanes
    nsteps = -(-count // lanes)
    _freeze(idx, step)
    return Access(("c", width, count, lanes), idx, step, nsteps, nsteps * lanes * (read_width or width))


@functools.lru_cache(maxsize=8192)
def strided(width: int, blk: int, rep: int, repeat: int, mask: Mask) -> Access:
    """Level-0 operand: ``repeat`` repeats, active lanes of ``mask``, strides in 32 B blocks."""
    epb = BLOCK // width
    act = mask.act
    lane_off = (act // epb) * blk * epb + act % epb
    idx = (np.arange(repeat, dtype=_I64)[:, None] * (rep * epb) + lane_off[None, :]).ravel()
    step = np.repeat(np.arange(repeat, dtype=_I64), act.size)
    if act.size and repeat:
        blocks = np.unique(act // epb)
        read_span = ((repeat - 1) * rep + int(blocks.max()) * blk) * BLOCK + BLOCK
    else:
        read_span = 0
    _freeze(idx, step)
    return Access(("s", width, blk, rep, repeat, mask.key), idx, step, repeat, read_span)


@functools.lru_cache(maxsize=1024)
def per_step(nsteps: int, stride: int, width: int) -> Access:
    """One element per step at ``step * stride`` (reduction results)."""
    idx = np.arange(nsteps, dtype=_I64) * stride
    step = np.arange(nsteps, dtype=_I64)
    _freeze(idx, step)
    return Access(("p", nsteps, stride), idx, step, nsteps, (int(idx.max()) + 1) * width if nsteps else 0)


def from_arrays(key: tuple, idx: np.ndarray, step: np.ndarray, nsteps: int, read_span: int) -> Access:
    _freeze(idx, step)
    return Access(key, idx, step, nsteps, read_span)


@functools.lru_cache(maxsize=4096)
def counter_strided(width: int, blk: int, rep: int, count: int, lanes: int) -> Access:
    """Level-0 operand in counter mode: ``count`` elements in ceil(count / lanes) repeats (the last one
    partial), lane e of repeat r at the usual block / repeat stride address."""
    epb = BLOCK // width
    e = np.arange(count, dtype=_I64)
    r, lane = e // lanes, e % lanes
    idx = r * (rep * epb) + (lane // epb) * blk * epb + lane % epb
    nsteps = -(-count // lanes)
    read_span = (int(idx.max()) // epb + 1) * BLOCK if count else 0     # to the end of the farthest block
    _freeze(idx, r)
    return Access(("k", width, blk, rep, count, lanes), idx, r, nsteps, read_span)
