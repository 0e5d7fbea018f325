"""The front end of the vector core: dispatch, hardware-loop entries and iterations, register renaming."""
from __future__ import annotations

import heapq

from .base import Bound, OpClass, StreamStats, Unit, throughput
from .issue_queue import IssueQueue

LOOP = OpClass.LOOP
#: classes whose result occupies a physical vector register
VALUE_CLASSES = frozenset({OpClass.ALU, OpClass.ALU0, OpClass.SFU, OpClass.LOAD})


class FrontEnd(Unit):
    """Dispatch in program order, ``dispatch_width`` instructions per cycle; other units may stall it
    until a cycle (:meth:`block_until`). Bound: the rows over the dispatch width."""

    def __init__(self, p, core) -> None:
        super().__init__(p, core)
        self.width = p["dispatch_width"]
        self.blocked_until = 0            #: no dispatch before this cycle

    def block_until(self, t: int) -> None:
        self.blocked_until = t

    def next_free(self, t: int) -> list[int]:
        return [self.blocked_until] if self.core.pc < len(self.core.rows) else []

    @classmethod
    def bounds(cls, stats: StreamStats, p) -> dict[Bound, float]:
        return {Bound.DISPATCH: throughput(stats.rows / p["dispatch_width"], stats.shortest_any,
                                           p["dispatch_to_issue"])}


class LoopEntry(Unit):
    """A hardware-loop entry (RV_VLOOP) executes in the front end: it ends the dispatch group and stalls
    dispatch for ``loop_entry_cycles``. Bound: the loop entries."""

    dispatch_classes = frozenset({LOOP})          # (it never reaches the issue queue: serves nothing)

    def __init__(self, p, core) -> None:
        super().__init__(p, core)
        self.front = core.find(FrontEnd)
        self.entry = p["loop_entry_cycles"]

    def dispatched(self, i, row, t) -> bool:
        self.core.issue[i] = t
        self.front.block_until(t + self.entry)
        return True

    @classmethod
    def bounds(cls, stats: StreamStats, p) -> dict[Bound, float]:
        return {Bound.LOOP_ENTRIES: float(stats.n[LOOP] * p["loop_entry_cycles"])}


class LoopIterations(Unit):
    """The per-iteration cost of a hardware loop: each iteration starts a new dispatch group at least
    ``iteration_cycles`` after the previous one started, and an iteration after one longer than
    ``loop_buffer_instrs`` rows (a body the front end cannot replay from its window, so fetched again)
    ``loop_refetch_cycles`` after the previous one's last dispatch (each off when 0; with both off an
    iteration start no longer begins a dispatch group of its own either)."""

    def __init__(self, p, core) -> None:
        super().__init__(p, core)
        self.front = core.find(FrontEnd)
        self.gap = p["iteration_cycles"]
        self.refetch, self.buffer = p["loop_refetch_cycles"], p["loop_buffer_instrs"]
        self.last = -self.gap             #: dispatch cycle of the latest iteration start
        self.prev = -1                    #: row of the latest iteration start (-1: none yet)
        if not self.gap and not self.refetch:          # no iteration cost: nothing to check at dispatch
            self.can_dispatch = None

    def can_dispatch(self, i, row, t, slot) -> bool:
        if row.iter_start:                # an iteration starts a dispatch group
            start = self.last + self.gap
            if self.refetch and self.prev >= 0 and i - self.prev > self.buffer:
                start = max(start, self.core.disp[i - 1] + self.refetch)
            if slot > 0 or t < start:
                self.front.block_until(max(t + (slot > 0), start))
                return False
            self.last, self.prev = t, i
        return True


class RegisterFile(Unit):
    """Renaming: every vector value holds one of ``phys_vregs`` physical registers from its dispatch
    until its last reader issued + ``reg_release`` (a value never read: until it completes); dispatch of
    a value waits for a free one, unless nothing in flight can free one (the compiler spilled: go on)."""

    dispatch_classes = VALUE_CLASSES

    def __init__(self, p, core) -> None:
        super().__init__(p, core)
        self.queue = core.find(IssueQueue)
        self.free = p["phys_vregs"]
        self.release = p["reg_release"]
        self.frees: list[int] = []                       # cycles at which a register frees (heap)
        rows = core.rows
        self.releases_by: list[list[int]] = [[] for _ in rows]   # row -> values whose last reader it is
        for prod, reader in enumerate(core.last_reader):
            if reader >= 0 and rows[prod].value:
                self.releases_by[reader].append(prod)

    def _available(self, t: int) -> bool:
        frees = self.frees
        while frees and frees[0] <= t:
            heapq.heappop(frees)
            self.free += 1
        return self.free > 0

    def can_dispatch(self, i, row, t, slot) -> bool:
        return not (row.value and not self._available(t) and (self.queue.nwait or self.frees))

    def dispatched(self, i, row, t) -> bool:
        if row.value:                                  # (a row of a value class may write no register)
            self.free -= 1
            if self.core.last_reader[i] < 0:           # never read: free when it completes
                self.releases_by[i].append(i)
        return False

    def issued(self, i, row, t) -> None:
        for prod in self.releases_by[i]:
            heapq.heappush(self.frees, t + row.dur if prod == i else t + self.release)

    def next_free(self, t: int) -> list[int]:
        return self.frees[:1]
