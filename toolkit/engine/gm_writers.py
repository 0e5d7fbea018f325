"""Which core last wrote each byte of a GM buffer, kept per range instead of per byte.

The cross-core write check (``GM_WRITE_CONFLICT``) needs, for every GM byte, the core that wrote it
last. Cores write rows, tiles and cache lines: long runs of bytes with one writer. :class:`GmWriters`
stores those runs as sorted, disjoint ``[start, end) -> core`` ranges (adjacent ranges of one core
merged), so its size grows with the number of runs, not with the bytes of the buffer; every answer is
the per-byte one. Code that wants the per-byte picture gets it as an int16 array (-1: never written):
``writers[a:b]``, ``writers >= 0``, ``np.asarray(writers)``; ``writers[:] = -1`` forgets every writer.
"""
from __future__ import annotations

from bisect import bisect_left, bisect_right
from typing import Any

import numpy as np
from numpy.lib.mixins import NDArrayOperatorsMixin

NOBODY = -1
#: the writer of bytes written before the launch's last cross-core synchronisation (SyncAll,
#: CrossCoreWaitFlag ...) or by a DMA atomic: written (``>= 0``), but owned by no core, so a later write
#: by any core neither conflicts with them nor yields to them
SETTLED = 0x7FFF


class GmWriters(NDArrayOperatorsMixin):
    """Last writer core of each byte of a ``size``-byte buffer, as ranges (module docstring)."""

    __slots__ = ("size", "_starts", "_ends", "_cores")

    def __init__(self, size: int):
        self.size = int(size)
        self._starts: list[int] = []
        self._ends: list[int] = []
        self._cores: list[int] = []

    # -- the check and the update ---------------------------------------------------------------
    def _span(self, lo: int, hi: int) -> tuple[int, int]:
        """Indices [i, j) of the ranges that overlap [lo, hi)."""
        i = bisect_right(self._ends, lo)
        return i, bisect_left(self._starts, hi, i)

    def others(self, lo: int, hi: int, core: int) -> tuple[int, int, int] | None:
        """Bytes of [lo, hi) last written by a core other than ``core``: (first such byte, its writer,
        how many such bytes), or None."""
        lo, hi = max(lo, 0), min(hi, self.size)
        if lo >= hi:
            return None
        i, j = self._span(lo, hi)
        hit = None
        count = 0
        for k in range(i, j):
            if self._cores[k] != core and self._cores[k] != SETTLED:
                s = max(self._starts[k], lo)
                hit = hit or (s, self._cores[k])
                count += min(self._ends[k], hi) - s
        return None if hit is None else (hit[0], hit[1], count)

    def claim(self, lo: int, hi: int, core: int) -> tuple[int, int, int] | None:
        """``others(lo, hi, core)``; when that is None, ``record(lo, hi, core)`` too (a write that met
        no other core's bytes), in one search when no range overlaps [lo, hi) (the usual write)."""
        if 0 <= lo < hi <= self.size:
            i = bisect_right(self._ends, lo)
            if i == len(self._starts) or self._starts[i] >= hi:
                self._touch(i, lo, hi, core)
                return None
        hit = self.others(lo, hi, core)
        if hit is None:
            self.record(lo, hi, core)
        return hit

    def claim_rows(self, offsets: list[int], n: int, cores: list[int], k: int = 0) -> tuple[int, tuple | None]:
        """:meth:`claim` of ``n`` bytes at ``offsets[j]`` for ``cores[j]``, j = k, k+1, ... in order, until
        one meets another core's bytes: (that j, its hit), or (len(offsets), None). The rows before it are
        recorded; the one that met is not (its caller records it as it resolves the conflict)."""
        starts, ends, size = self._starts, self._ends, self.size
        for j in range(k, len(offsets)):
            lo = offsets[j]
            hi = lo + n
            if 0 <= lo < hi <= size:
                i = bisect_right(ends, lo)
                if i == len(starts) or starts[i] >= hi:         # no range overlaps: the usual row
                    self._touch(i, lo, hi, cores[j])
                    continue
            hit = self.claim(lo, hi, cores[j])
            if hit is not None:
                return j, hit
        return len(offsets), None

    def later(self, lo: int, hi: int, core: int) -> list[tuple[int, int, int]]:
        """Runs of [lo, hi) last written by a core numbered above ``core``: (start, end, that core).
        A core-by-core run lets such a core write after ``core`` did, so its bytes win."""
        lo, hi = max(lo, 0), min(hi, self.size)
        i, j = self._span(lo, hi)
        return [(max(self._starts[k], lo), min(self._ends[k], hi), self._cores[k]) for k in range(i, j)
                if core < self._cores[k] != SETTLED]

    def settle(self) -> None:
        """Every byte written so far is now :data:`SETTLED` (a cross-core synchronisation happened)."""
        if not self._cores:
            return
        starts, ends = [self._starts[0]], [self._ends[0]]
        for s, e in zip(self._starts[1:], self._ends[1:]):
            if s == ends[-1]:
                ends[-1] = e
            else:
                starts.append(s)
                ends.append(e)
        self._starts, self._ends, self._cores = starts, ends, [SETTLED] * len(starts)

    def record(self, lo: int, hi: int, core: int) -> None:
        """``core`` (or NOBODY: forget) is now the last writer of [lo, hi)."""
        lo, hi = max(lo, 0), min(hi, self.size)
        if lo >= hi:
            return
        i, j = self._span(lo, hi)
        if i == j and core != NOBODY and self._touch(i, lo, hi, core):
            return
        a, b = max(i - 1, 0), min(j + 1, len(self._starts))
        segs = [(self._starts[k], self._ends[k], self._cores[k]) for k in range(a, i)]
        if i < j and self._starts[i] < lo:
            segs.append((self._starts[i], lo, self._cores[i]))
        segs.append((lo, hi, core))
        if i < j and self._ends[j - 1] > hi:
            segs.append((hi, self._ends[j - 1], self._cores[j - 1]))
        segs.extend((self._starts[k], self._ends[k], self._cores[k]) for k in range(j, b))
        merged: list[list[int]] = []
        for s, e, c in segs:
            if c == NOBODY:
                continue
            if merged and merged[-1][1] == s and merged[-1][2] == c:
                merged[-1][1] = e
            else:
                merged.append([s, e, c])
        self._starts[a:b] = [m[0] for m in merged]
        self._ends[a:b] = [m[1] for m in merged]
        self._cores[a:b] = [m[2] for m in merged]

    def _touch(self, i: int, lo: int, hi: int, core: int) -> bool:
        """[lo, hi) overlaps no range and sits before range ``i``: grow a neighbour of the same core that
        it touches (the common case: a core writing row after row), else insert it. Always True."""
        starts, ends, cores = self._starts, self._ends, self._cores
        left = i > 0 and ends[i - 1] == lo and cores[i - 1] == core
        right = i < len(starts) and starts[i] == hi and cores[i] == core
        if left and right:
            ends[i - 1] = ends[i]
            del starts[i], ends[i], cores[i]
        elif left:
            ends[i - 1] = hi
        elif right:
            starts[i] = lo
        else:
            starts.insert(i, lo)
            ends.insert(i, hi)
            cores.insert(i, core)
        return True

    def ranges(self) -> list[tuple[int, int, int]]:
        """Every written run: (start, end, core), in address order."""
        return list(zip(self._starts, self._ends, self._cores))

    # -- the per-byte view ----------------------------------------------------------------------
    def array(self, lo: int = 0, hi: int | None = None) -> np.ndarray:
        """Last writer of bytes [lo, hi) as int16 (NOBODY: never written)."""
        hi = self.size if hi is None else hi
        out = np.full(max(hi - lo, 0), NOBODY, dtype=np.int16)
        i, j = self._span(lo, hi)
        for k in range(i, j):
            out[max(self._starts[k], lo) - lo:min(self._ends[k], hi) - lo] = self._cores[k]
        return out

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, key: Any) -> np.ndarray:
        if isinstance(key, slice) and key.step in (None, 1):
            lo, hi, _ = key.indices(self.size)
            return self.array(lo, max(hi, lo))
        return self.array()[key]

    def __setitem__(self, key: Any, value: int) -> None:
        """``writers[a:b] = core`` (``-1``: forget the writers of those bytes)."""
        if not (isinstance(key, slice) and key.step in (None, 1)):
            raise TypeError("GmWriters assignment takes a contiguous slice")
        lo, hi, _ = key.indices(self.size)
        self.record(lo, hi, int(value))

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        out = self.array()
        return out if dtype is None else out.astype(dtype)

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        inputs = tuple(np.asarray(x) if isinstance(x, GmWriters) else x for x in inputs)
        return getattr(ufunc, method)(*inputs, **kwargs)

    def __repr__(self) -> str:
        return f"GmWriters({self.size} B, {len(self._starts)} ranges)"
