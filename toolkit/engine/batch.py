"""A batch of cores seen as one: what a VF (or another batchable call) runs on when several cores of a
launch reach it with the same static arguments in lock-step (toolkit/lockstep.py).

:class:`BatchCore` quacks like a :class:`~toolkit.engine.runtime.CoreContext` for the API implementations: its
UB (:class:`UbBatch`) hands out arrays with one row per core, registers made while it runs hold one row
per core (``VfRecorder.batch``), every event it emits is appended to each member core's stream, and every
diagnostic is reported for each member core, as a core-by-core run would report it. Data-dependent
checks (never-written bytes) are judged per core and reported for the cores they concern.
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from toolkit.ascendc.memory import _ONES, _UINT
from toolkit.record.diagnostics import KernelAbort


def each_core(members: list, fn: Callable[[Any], Any]) -> Any:
    """``fn(core)`` for every member, as each core alone would run it: a fatal rule one core breaks does
    not spare the others their reports; the first stop is raised once all ran. Returns the last result."""
    stop, out = None, None
    for m in members:
        try:
            out = fn(m)
        except KernelAbort as err:
            stop = stop or err
    if stop is not None:
        raise stop
    return out


def rows_of(cores: list[int]) -> slice | np.ndarray:
    """Row selector of ``cores`` in a launch's UB block: a slice (views) when they are consecutive."""
    if cores == list(range(cores[0], cores[0] + len(cores))):
        return slice(cores[0], cores[0] + len(cores))
    return np.asarray(cores)


class UbBatch:
    """The UBs of the member cores, rows of the launch's (cores, UB) blocks."""

    def __init__(self, members: list, data2d: np.ndarray, defined2d: np.ndarray):
        self.members = members
        self.rows = rows_of([m.ub.core for m in members])
        self.data2d, self.defined2d = data2d, defined2d
        self.size = members[0].ub.size
        self.n = len(members)
        self.writes = 0                   # row-shaped writes so far (regbase/loopbatch.py)

    def check(self, addr: int, nbytes: int, what: str, align: int = 1) -> None:
        """Bounds and alignment are the same for every member (same addresses): each core reports."""
        end = addr + nbytes
        if addr < 0 or end > self.size or (align > 1 and addr % align):
            each_core(self.members, lambda m: m.ub.check(addr, nbytes, what, align))
            return
        for m in self.members:               # in bounds for all: what UbMemory.check records
            ub = m.ub
            if end > ub.high:
                ub.high = end

    def wr_rows(self, addr: int, sources: list[np.ndarray]) -> None:
        """Member k's bytes from ``sources[k]`` at ``addr`` (all defined), each row written once."""
        self.writes += 1
        n = sources[0].shape[-1]
        rows = range(self.rows.start, self.rows.stop) if isinstance(self.rows, slice) else self.rows.tolist()
        for r, src in zip(rows, sources):
            self.data2d[r, addr:addr + n] = src
        self.defined2d[self.rows, addr:addr + n] = True

    def rd(self, addr: int, nbytes: int) -> np.ndarray:
        return self.data2d[self.rows, addr:addr + nbytes]

    def rdef(self, addr: int, nbytes: int) -> np.ndarray | None:
        d = self.defined2d[self.rows, addr:addr + nbytes]
        return None if d.all() else d

    def wr(self, addr: int, raw: np.ndarray, defined: np.ndarray | bool = True) -> None:
        self.writes += 1
        n = raw.shape[-1]
        self.data2d[self.rows, addr:addr + n] = raw
        self.defined2d[self.rows, addr:addr + n] = defined

    def wr_where(self, addr: int, raw: np.ndarray, defined: np.ndarray, where: np.ndarray) -> None:
        self.writes += 1
        n = where.shape[-1]
        sel = np.broadcast_to(where, (self.n, n))
        if isinstance(self.rows, slice):
            np.copyto(self.data2d[self.rows, addr:addr + n], raw, where=sel)
            np.copyto(self.defined2d[self.rows, addr:addr + n], defined, where=sel)
            return
        data, dd = self.rd(addr, n).copy(), self.defined2d[self.rows, addr:addr + n].copy()
        np.copyto(data, raw, where=sel)
        np.copyto(dd, defined, where=sel)
        self.data2d[self.rows, addr:addr + n] = data
        self.defined2d[self.rows, addr:addr + n] = dd

    def _elems(self, arr2d: np.ndarray, dtype, pos: np.ndarray) -> np.ndarray:
        if isinstance(self.rows, slice):
            return arr2d[self.rows].view(dtype)[:, pos]
        return arr2d.view(dtype)[self.rows[:, None], pos[None, :]]

    def gather(self, dtype, pos: np.ndarray) -> np.ndarray:
        return self._elems(self.data2d, dtype, pos)

    def gather_def(self, width: int, pos: np.ndarray) -> np.ndarray:
        return self._elems(self.defined2d, _UINT[width], pos) == _ONES[width]

    def scatter(self, dtype, pos: np.ndarray, values: np.ndarray, defined: np.ndarray | None) -> None:
        self.writes += 1
        w = np.dtype(dtype).itemsize
        dd = _ONES[w] if defined is None else np.where(defined, _ONES[w], 0).astype(_UINT[w])
        if isinstance(self.rows, slice):
            self.data2d[self.rows].view(dtype)[:, pos] = values
            self.defined2d[self.rows].view(_UINT[w])[:, pos] = dd
        else:
            self.data2d.view(dtype)[self.rows[:, None], pos[None, :]] = values
            self.defined2d.view(_UINT[w])[self.rows[:, None], pos[None, :]] = dd

    def require_defined(self, addr: int, nbytes: int, what: str) -> None:
        for m in self.members:
            m.ub.require_defined(addr, nbytes, what)


class BatchCore:
    """Several cores of one launch running one call together (see the module docstring)."""

    uniform = None

    def __init__(self, members: list, data2d: np.ndarray, defined2d: np.ndarray):
        first = members[0]
        self.members = members
        self.batch = len(members)
        self.machine = first.machine
        self.core_id = first.core_id
        self.block_num = first.block_num
        self.diag = first.diag
        self.dry_run = False
        self.shared = first.shared
        self.scheduler = None
        self.ub = UbBatch(members, data2d, defined2d)
        self.vf = None

    def emit(self, event: Any) -> None:
        for m in self.members:
            m.emit(event)

    def report(self, code: str, message: str, **kw: Any):
        """Report for every member core; a fatal rule stops them all (they broke it alike)."""
        return each_core(self.members, lambda m: m.report(code, message, **kw))

    def intern_stream(self, instrs) -> tuple:
        return self.members[0].intern_stream(instrs)
