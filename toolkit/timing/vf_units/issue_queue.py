"""The issue queue: dispatched instructions wait in ``window`` entries until they issue."""
from __future__ import annotations

import heapq

from .base import OpClass, Unit

ST = OpClass.STORE


class IssueQueue(Unit):
    """``window`` entries (an entry frees when its instruction issues: dispatch stops while all are taken).
    A row may issue ``dispatch_to_issue`` cycles after its dispatch, once every producer issued + its
    forwarding latency (+ the decoded extra latency); arbitration is oldest first, except that ready
    stores go after the other ready rows (on the UB ports loads go before stores).

    The waiting rows are kept apart by what they wait for, so that a cycle looks only at the rows that
    can issue in it (a latency-bound stream keeps most of its window waiting for operands; scanning all
    of it every cycle was most of the scheduler's time)."""

    def __init__(self, p, core) -> None:
        super().__init__(p, core)
        self.window, self.d2i = p["window"], p["dispatch_to_issue"]
        self.rows, self.disp, self.issue = core.rows, core.disp, core.issue
        self.take: list = []                                # per row class: take(i, row, t) -> bool
        self.on_issue: list = []                            # the units' ``issued`` hooks
        n = len(self.rows)
        self.rdy = [-1] * n                                 # ready cycle once every producer has issued
        self.blocker = [-1] * n                             # a producer not yet issued when last checked
        self.nwait = 0                                      # dispatched, not issued
        self.ready: list[int] = []                          # ready (rdy <= t), not issued; sorted by row
        self.pending: list[tuple[int, int]] = []            # (rdy, row) with rdy in the future (heap)
        self.dependents: dict[int, list[int]] = {}          # unissued producer -> rows it blocks
        self.by_age: list[int] = []                         # every waiting row (heap, issued ones popped lazily)
        self.fresh: list[int] = []                          # rows made ready at t by an issue at t

    def connect(self, take: list, on_issue: list) -> None:
        """What issuing needs from the other units: per row class ``take(i, row, t) -> bool`` (every unit
        the class needs accepts and reserves), and the hooks told of every issue."""
        self.take, self.on_issue = take, on_issue

    def next_free(self, t: int) -> list[int]:
        return [self.pending[0][0]] if self.pending else []

    def ready_at(self, i: int) -> int:
        """Earliest issue cycle of row i (-1 while a producer has not issued; ``blocker`` remembers it)."""
        r = self.rdy[i]
        if r >= 0:
            return r
        rows, issue = self.rows, self.issue
        b = self.blocker[i]
        if b >= 0 and issue[b] < 0:
            return -1
        r = self.disp[i] + self.d2i
        for prod, extra in rows[i].deps:
            ip = issue[prod]
            if ip < 0:
                self.blocker[i] = prod
                return -1
            v = ip + rows[prod].lat + extra
            if v > r:
                r = v
        self.rdy[i] = r
        return r

    def admit(self, i: int, t: int) -> None:
        """Row i is dispatched at t: file it by what it waits for."""
        self.nwait += 1
        heapq.heappush(self.by_age, i)
        self._file(i, t)

    def _file(self, i: int, t: int) -> None:
        r = self.ready_at(i)
        if r < 0:
            self.dependents.setdefault(self.blocker[i], []).append(i)
        elif r > t:
            heapq.heappush(self.pending, (r, i))
        else:
            self.fresh.append(i)

    def _issued(self, i: int, row, t: int) -> None:
        """Row i issued at t: tell the units, refile the rows that were waiting for it."""
        self.issue[i] = t
        for f in self.on_issue:
            f(i, row, t)
        blocked = self.dependents.pop(i, None)
        if blocked:
            for j in blocked:
                self._file(j, t)

    def issue_pass(self, t: int) -> int:
        """One cycle of issue: ready loads and other ops oldest first, then ready stores; returns how
        many issued. A row made ready at t by an issue at t (a zero latency) is tried in this cycle when
        it comes later in that order, as a scan of every waiting row in row order would."""
        rows, pending, ready, take, issued_ = self.rows, self.pending, self.ready, self.take, self._issued
        if self.fresh:
            ready += self.fresh
            self.fresh = []
        while pending and pending[0][0] <= t:
            ready.append(heapq.heappop(pending)[1])
        ready.sort()
        still: list[int] = []
        stores: list[int] = []
        issued, k = 0, 0
        while k < len(ready):
            i = ready[k]
            k += 1
            row = rows[i]
            if row.cls == ST:
                stores.append(i)
                continue
            if take[row.cls](i, row, t):
                issued_(i, row, t)
                issued += 1
                if self.fresh:
                    ready, stores = self._merge_fresh(ready, k, i, still, stores)
            else:
                still.append(i)
        for i in sorted(stores):
            row = rows[i]
            if take[ST](i, row, t):
                issued_(i, row, t)
                issued += 1
            else:
                still.append(i)
        self.ready = still
        self.nwait -= issued
        return issued

    def _merge_fresh(self, ready: list[int], k: int, at: int, still: list[int], stores: list[int]):
        """Rows made ready at this cycle: later ones join this pass (in order), earlier ones wait for the
        next cycle, stores join this cycle's store phase."""
        fresh, self.fresh = self.fresh, []
        later = []
        for j in fresh:
            if self.rows[j].cls == ST:
                stores.append(j)
            elif j > at:
                later.append(j)
            else:
                still.append(j)
        if later:
            ready = ready[:k] + sorted(ready[k:] + later)
        return ready, stores

    def oldest(self) -> int:
        """The oldest waiting row (-1: none)."""
        ages, issue = self.by_age, self.issue
        while ages and issue[ages[0]] >= 0:
            heapq.heappop(ages)
        return ages[0] if ages else -1
