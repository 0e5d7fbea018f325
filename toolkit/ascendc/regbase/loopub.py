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
        data, defined, rows = _blocks(base)
        if not isinstance(rows, slice):
            raise NotBatchable("lock-step cores that are not consecutive rows")
        self.data, self.defined, self.core_rows = data, defined, rows
        self._last: tuple = (None, None)  # (address, its Starts): an API checks, reads, reads the shadow

    def _at(self, addr: Any) -> Starts:
        last, got = self._last
        if addr is not last or got is None:
            got = Starts(addr, self.n)
            self._last = (addr, got)
        return got

    def _inside(self, a: Starts, nbytes: int) -> None:
        if a.lo < 0 or a.hi + nbytes > self.size:
            raise NotBatchable("an iteration's access is outside UB")

    def _strided(self, arr: np.ndarray, a: Starts, nbytes: int, writeable: bool) -> np.ndarray:
        """(iterations, B, nbytes) view of ``arr``'s core rows at the progression ``a`` (step >= 0)."""
        rows = arr[self.core_rows][:, a.first:]
        s0, s1 = rows.strides
        return as_strided(rows, shape=(self.n, rows.shape[0], nbytes), strides=(a.step * s1, s0, s1),
                          writeable=writeable)

    # -- checks --------------------------------------------------------------------------------
    def check(self, addr: Any, nbytes: int, what: str, align: int = 1) -> None:
        a = self._at(addr)
        if a.lo < 0 or a.hi + nbytes > self.size or (align > 1 and a.misaligned(align)):
            raise NotBatchable(f"{what}: an iteration is out of bounds or misaligned")
        self.base.check(a.hi, nbytes, what, align)      # the highest byte touched, as serial

    # -- reads ---------------------------------------------------------------------------------
    def _region(self, arr: np.ndarray, a: Starts, nbytes: int) -> np.ndarray:
        """(iterations, B, nbytes) view (affine, non-negative step) or copy of the bytes at ``a``."""
        self._inside(a, nbytes)
        if a.step is not None and a.step >= 0:
            return self._strided(arr, a, nbytes, False)
        idx = a.values[:, None] + np.arange(nbytes)
        return arr[self.core_rows][:, idx].transpose(1, 0, 2)

    def rd(self, addr: Any, nbytes: int) -> np.ndarray:
        a = self._at(addr)
        self.batch.access("L", a, nbytes)
        return self._region(self.data, a, nbytes).reshape(-1, nbytes)

    def rdef(self, addr: Any, nbytes: int) -> np.ndarray | None:
        d = self._region(self.defined, self._at(addr), nbytes)
        return None if d.all() else d.reshape(-1, nbytes)

    # -- writes: held until the body has run (LoopBatch.pending) --------------------------------
    def _rows(self, x: Any) -> Any:
        if isinstance(x, (bool, np.bool_)):
            return x
        x = np.asarray(x)
        if x.ndim < 2 or x.shape[0] == 1:
            return x.reshape(1, 1, -1) if x.ndim else x
        return x.reshape(self.n, -1, x.shape[-1])

    def _store(self, addr: Any, n: int, raw: np.ndarray, defined: Any, where: np.ndarray | None) -> None:
        a = self._at(addr)
        self.batch.access("S", a, n)
        if a.step is None or (self.n > 1 and a.step < n):
            raise NotBatchable("a store whose iterations are not evenly spaced")
        self._inside(a, n)
        data, shadow = self._strided(self.data, a, n, True), self._strided(self.defined, a, n, True)
        rows, drows = self._rows(raw), self._rows(defined)
        sel = None if where is None else np.broadcast_to(self._rows(where), data.shape)

        def store() -> None:
            if sel is None:
                data[...] = rows
                shadow[...] = drows
            else:
                np.copyto(data, np.broadcast_to(rows, data.shape), where=sel)
                np.copyto(shadow, np.broadcast_to(drows, data.shape), where=sel)
        self.batch.pending.append(store)

    def wr(self, addr: Any, raw: np.ndarray, defined: Any = True) -> None:
        self._store(addr, raw.shape[-1], raw, defined, None)

    def wr_where(self, addr: Any, raw: np.ndarray, defined: np.ndarray, where: np.ndarray) -> None:
        self._store(addr, where.shape[-1], raw, defined, where)

    def __getattr__(self, name: str):
        raise NotBatchable(f"UB access {name} in a batched body", static=True)


def _blocks(ub) -> tuple[np.ndarray, np.ndarray, Any]:
    """(data, shadow, row selector of the batch's cores) as 2-D blocks."""
    if hasattr(ub, "data2d"):
        return ub.data2d, ub.defined2d, ub.rows
    return ub.data[None], ub.defined[None], slice(0, 1)
