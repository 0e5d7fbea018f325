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
    ``iteration_cycles`` after the previous one (off when 0)."""

    def __init__(self, p, core) -> None:
        super().__init__(p, core)
        self.front = core.find(FrontEnd)
        self.gap = p["iteration_cycles"]
        self.last = -self.gap             #: dispatch cycle of the latest iteration start
        if not self.gap:                  # no iteration cost: nothing to check at dispatch
            self.can_dispatch = None

    def can_dispatch(self, i, row, t, slot) -> bool:
        if row.iter_start:                # an iteration starts a dispatch group
            start = self.last + self.gap
            if slot > 0 or t < start:
                self.front.block_until(max(t + (slot > 0), start))
                return False
            self.last = t
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


class ArchRegisters(Unit):
    """Renaming per architectural register: at most ``reg_versions`` values of one architectural register
    (a RegTensor variable, ``Row.reg``) hold a physical register at once (each from its dispatch until its
    last reader issued + ``reg_release``, a value never read: until it completes, as in
    :class:`RegisterFile`); a write to a register that has them all waits at dispatch (a false WAR/WAW
    dependency on the register name). A loop body rewrites the same registers every iteration, so
    iterations overlap only as far as the versions allow; copies of an unrolled body on their own
    registers do not share them. Off when 0; rows without a register (temporaries, MemBase streams) are
    free of it."""

    dispatch_classes = VALUE_CLASSES

    def __init__(self, p, core) -> None:
        super().__init__(p, core)
        self.limit = p["reg_versions"]
        if not self.limit:
            self.can_dispatch = self.dispatched = self.issued = self.next_free = None
            return
        self.release = p["reg_release"]
        self.live: dict[int, int] = {}                   # register -> values holding a physical register
        self.frees: list[tuple[int, int]] = []           # (cycle, register) heap
        rows = core.rows
        self.releases_by: list[list[int]] = [[] for _ in rows]
        for prod, reader in enumerate(core.last_reader):
            if reader >= 0 and rows[prod].reg >= 0:
                self.releases_by[reader].append(prod)

    def _advance(self, t: int) -> None:
        frees, live = self.frees, self.live
        while frees and frees[0][0] <= t:
            live[heapq.heappop(frees)[1]] -= 1

    def can_dispatch(self, i, row, t, slot) -> bool:
        reg = row.reg
        if reg < 0:
            return True
        self._advance(t)
        if self.live.get(reg, 0) < self.limit:
            return True
        return not (self.frees or self.core.queue.nwait)   # nothing in flight can free one: go on

    def dispatched(self, i, row, t) -> bool:
        reg = row.reg
        if reg >= 0:
            self.live[reg] = self.live.get(reg, 0) + 1
            if self.core.last_reader[i] < 0:
                self.releases_by[i].append(i)
        return False

    def issued(self, i, row, t) -> None:
        rows = self.core.rows
        for prod in self.releases_by[i]:
            heapq.heappush(self.frees, (t + row.dur if prod == i else t + self.release, rows[prod].reg))

    def next_free(self, t: int) -> list[int]:
        return [self.frees[0][0]] if self.frees else []


class ArchRegisterPool(Unit):
    """Renaming of architectural registers from a pool of ``arch_pool`` physical registers (0: off): a
    write to register R takes one at dispatch (waits when none is free); the physical register of R's
    previous value frees once that value is dead, i.e. its last reader issued (+ ``reg_release``) and
    the write that replaced it completed. Rows without a register (temporaries) are free of it."""

    dispatch_classes = VALUE_CLASSES

    def __init__(self, p, core) -> None:
        super().__init__(p, core)
        self.n = p["arch_pool"]
        if not self.n:
            self.can_dispatch = self.dispatched = self.issued = self.next_free = None
            return
        self.free = self.n
        self.release = p["reg_release"]
        self.frees: list[int] = []
        rows = core.rows
        self.current: dict[int, int] = {}                # register -> row of its current value
        self.replaces = [-1] * len(rows)                 # row -> row of the value it replaced
        self.read_done = [-1] * len(rows)                # value row -> cycle its last reader released it
        self.over_done = [-1] * len(rows)                # value row -> cycle its replacing write completed
        self.readers_of: list[list[int]] = [[] for _ in rows]
        for prod, reader in enumerate(core.last_reader):
            if reader >= 0 and rows[prod].reg >= 0:
                self.readers_of[reader].append(prod)

    def _avail(self, t: int) -> bool:
        frees = self.frees
        while frees and frees[0] <= t:
            heapq.heappop(frees)
            self.free += 1
        return self.free > 0

    def can_dispatch(self, i, row, t, slot) -> bool:
        if row.reg < 0:
            return True
        return self._avail(t) or not (self.frees or self.core.queue.nwait)

    def dispatched(self, i, row, t) -> bool:
        reg = row.reg
        if reg >= 0:
            self.free -= 1
            prev = self.current.get(reg, -1)
            self.replaces[i] = prev
            self.current[reg] = i
            if prev >= 0 and self.core.last_reader[prev] < 0 and self.read_done[prev] < 0:
                self.read_done[prev] = 0                 # never read
        return False

    def _maybe_free(self, v: int) -> None:
        a, b = self.read_done[v], self.over_done[v]
        if a >= 0 and b >= 0:
            heapq.heappush(self.frees, max(a, b))

    def issued(self, i, row, t) -> None:
        for prod in self.readers_of[i]:
            self.read_done[prod] = t + self.release
            self._maybe_free(prod)
        prev = self.replaces[i] if row.reg >= 0 else -1
        if prev >= 0:
            self.over_done[prev] = t + row.lat
            self._maybe_free(prev)

    def next_free(self, t: int) -> list[int]:
        return self.frees[:1]
