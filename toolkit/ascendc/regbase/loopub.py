"""The UB as a batched loop body sees it: rows per (iteration, core), addresses per iteration.

:class:`IterUb` stands in for the core's (or lock-step batch's) UB while a hardware loop's body runs once
over all its iterations (``loopbatch``). An address is an int (the same every iteration) or an
:class:`~toolkit.ascendc.itervec.Iv`; reads return ``(iterations * B, n)`` rows, writes take them. Every
access is bounds- and alignment-checked for every iteration first (a failure refuses the batch: the
serial rerun reports it) and judged for hazards against the body's earlier accesses; writes are held
until the body has run (the batch commits them in order), so a refused batch leaves UB as it found it.
"""
from __future__ import annotations

from typing import Any

import numpy as np
from numpy.lib.stride_tricks import as_strided

from toolkit.ascendc.itervec import Iv, NotBatchable


class Starts:
    """The per-iteration start addresses of one access: ``values``; ``first`` and ``step`` when they are an
    arithmetic progression (known from the index arithmetic, else found once), ``lo`` / ``hi`` the lowest
    and highest start."""

    __slots__ = ("values", "first", "step", "lo", "hi")

    def __init__(self, addr: Any, n: int):
        if type(addr) is Iv:
            values, aff = addr.values.astype(np.int64, copy=False), addr.affine
        elif isinstance(addr, (int, np.integer)):
            values, aff = np.broadcast_to(np.int64(addr), (n,)), (int(addr), 0)
        else:
            raise NotBatchable(f"UB address of type {type(addr).__name__}", static=True)
        if aff is None and n > 1:
            d = np.diff(values)
            if (d == d[0]).all():
                aff = (int(values[0]), int(d[0]))
        self.values = values
        if aff is None:
            self.first = self.step = None
            self.lo, self.hi = int(values.min()), int(values.max())
        else:
            self.first, self.step = aff
            last = aff[0] + aff[1] * (n - 1)
            self.lo, self.hi = min(aff[0], last), max(aff[0], last)

    def misaligned(self, align: int) -> bool:
        if self.step is not None:
            return bool(self.first % align or (self.values.size > 1 and self.step % align))
        return bool((self.values % align).any())


class IterUb:
    def __init__(self, base, batch):
        self.base = base                  # UbMemory (one core) or UbBatch (lock-step cores)
        self.batch = batch
        self.size = base.size
        self.n = batch.n
        self.b = batch.base
        data, defined, rows = _blocks(base)
        if not isinstance(rows, slice):
            raise NotBatchable("lock-step cores that are not consecutive rows")
        self.data, self.defined, self.core_rows = data, defined, rows

    def _inside(self, a: Starts, nbytes: int) -> None:
        if a.lo < 0 or a.hi + nbytes > self.size:
            raise NotBatchable("an iteration's access is outside UB")

    # -- checks --------------------------------------------------------------------------------
    def check(self, addr: Any, nbytes: int, what: str, align: int = 1) -> None:
        a = Starts(addr, self.n)
        if a.lo < 0 or a.hi + nbytes > self.size or (align > 1 and a.misaligned(align)):
            raise NotBatchable(f"{what}: an iteration is out of bounds or misaligned")
        self.base.check(a.hi, nbytes, what, align)      # the highest byte touched, as serial

    # -- reads ---------------------------------------------------------------------------------
    def _region(self, arr: np.ndarray, a: Starts, nbytes: int) -> np.ndarray:
        """(iterations, B, nbytes) view (affine, non-negative step) or copy of the bytes at ``a``."""
        self._inside(a, nbytes)
        rows = arr[self.core_rows]
        if a.step is not None and a.step >= 0:
            base = rows[:, a.first:]
            s0, s1 = base.strides
            return as_strided(base, shape=(self.n, rows.shape[0], nbytes), strides=(a.step * s1, s0, s1),
                              writeable=False)
        idx = a.values[:, None] + np.arange(nbytes)
        return rows[:, idx].transpose(1, 0, 2)

    def rd(self, addr: Any, nbytes: int) -> np.ndarray:
        a = Starts(addr, self.n)
        self.batch.access("L", a, nbytes)
        return self._region(self.data, a, nbytes).reshape(-1, nbytes)

    def rdef(self, addr: Any, nbytes: int) -> np.ndarray | None:
        d = self._region(self.defined, Starts(addr, self.n), nbytes)
        return None if d.all() else d.reshape(-1, nbytes)

    # -- writes --------------------------------------------------------------------------------
    def _target(self, a: Starts, nbytes: int) -> tuple[np.ndarray, np.ndarray]:
        """Writable (iterations, B, nbytes) views of data and shadow at ``a`` (affine, step >= nbytes)."""
        if a.step is None or (self.n > 1 and a.step < nbytes):
            raise NotBatchable("a store whose iterations are not evenly spaced")
        self._inside(a, nbytes)
        views = []
        for arr in (self.data, self.defined):
            rows = arr[self.core_rows]
            base = rows[:, a.first:]
            s0, s1 = base.strides
            views.append(as_strided(base, shape=(self.n, rows.shape[0], nbytes), strides=(a.step * s1, s0, s1)))
        return views[0], views[1]

    def _rows(self, x: Any, nbytes: int) -> Any:
        if isinstance(x, (bool, np.bool_)):
            return x
        x = np.asarray(x)
        if x.ndim < 2 or x.shape[0] == 1:
            return x.reshape(1, 1, -1) if x.ndim else x
        return x.reshape(self.n, -1, x.shape[-1])

    def wr(self, addr: Any, raw: np.ndarray, defined: Any = True) -> None:
        n = raw.shape[-1]
        a = Starts(addr, self.n)
        self.batch.access("S", a, n)
        data, shadow = self._target(a, n)
        rows, drows = self._rows(raw, n), self._rows(defined, n)

        def store() -> None:
            data[...] = rows
            shadow[...] = drows
        self.batch.pending.append(store)

    def wr_where(self, addr: Any, raw: np.ndarray, defined: np.ndarray, where: np.ndarray) -> None:
        n = where.shape[-1]
        a = Starts(addr, self.n)
        self.batch.access("S", a, n)
        data, shadow = self._target(a, n)
        sel, rows, drows = self._rows(where, n), self._rows(raw, n), self._rows(defined, n)

        def store() -> None:
            np.copyto(data, np.broadcast_to(rows, data.shape), where=np.broadcast_to(sel, data.shape))
            np.copyto(shadow, np.broadcast_to(drows, data.shape), where=np.broadcast_to(sel, data.shape))
        self.batch.pending.append(store)

    def __getattr__(self, name: str):
        raise NotBatchable(f"UB access {name} in a batched body", static=True)


def _blocks(ub) -> tuple[np.ndarray, np.ndarray, Any]:
    """(data, shadow, row selector of the batch's cores) as 2-D blocks."""
    if hasattr(ub, "data2d"):
        return ub.data2d, ub.defined2d, ub.rows
    return ub.data[None], ub.defined[None], slice(0, 1)
