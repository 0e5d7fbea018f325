"""Execute resources of the vector core: the execute units, the special-function pipes, the mask unit."""
from __future__ import annotations

import heapq

from .base import Bound, OpClass, StreamStats, Unit, throughput

ALU, ALU0, SFU, PRED = OpClass.ALU, OpClass.ALU0, OpClass.SFU, OpClass.PRED


class ExecuteUnits(Unit):
    """EXU0 .. EXU(``ex_units`` - 1): an "alu" op takes any of them and an "alu0" op (the single-issue
    class) EXU0 only, each for its ii; a special-function op takes one for its issue cycle. Dual ops
    try the other units first so that EXU0 stays available to the single-issue class (what a dynamic
    scheduler achieves). An EXU holds at most ``exu_inflight`` of its "alu"/"alu0" ops in flight (issued,
    not completed: each for its trace duration); a special-function op leaves it after its issue cycle.
    Bounds: all issue cycles over the units, or the in-flight durations over units x cap; the
    single-issue class on EXU0."""

    serves = frozenset({ALU, ALU0, SFU})

    def __init__(self, p, core) -> None:
        super().__init__(p, core)
        self.busy = [0] * p["ex_units"]                      # per unit: free from this cycle
        self.cap = p["exu_inflight"]
        self.inflight: list[list[int]] = [[] for _ in self.busy]   # per unit: completion times (heap)
        self.any_first = range(len(self.busy) - 1, -1, -1)
        self._pick = -1

    def _room(self, u: int, t: int) -> bool:
        q = self.inflight[u]
        while q and q[0] <= t:
            heapq.heappop(q)
        return len(q) < self.cap

    def can_issue(self, i, row, t) -> bool:
        busy, sfu = self.busy, row.cls == SFU
        for u in (0,) if row.cls == ALU0 else self.any_first:
            if busy[u] <= t and (sfu or self._room(u, t)):
                self._pick = u
                return True
        return False

    def reserve(self, i, row, t) -> None:
        u = self._pick
        if row.cls == SFU:
            self.busy[u] = t + 1
        else:
            self.busy[u] = t + row.span
            heapq.heappush(self.inflight[u], t + row.dur)

    def try_reserve(self, i, row, t) -> bool:
        """``can_issue`` + ``reserve`` (the whole route of "alu" and "alu0" rows)."""
        if self.can_issue(i, row, t):
            self.reserve(i, row, t)
            return True
        return False

    def next_free(self, t: int) -> list[int]:
        return self.busy + [q[0] for q in self.inflight if q]

    @classmethod
    def bounds(cls, stats: StreamStats, p) -> dict[Bound, float]:
        d2i, span, dur, units = p["dispatch_to_issue"], stats.span, stats.dur, max(p["ex_units"], 1)
        issue_cycles = span[ALU] + span[ALU0] + stats.n[SFU]
        held = float(dur[ALU] + dur[ALU0]) / (units * p["exu_inflight"])
        return {Bound.EXECUTE_UNITS: throughput(max(float(issue_cycles) / units, held),
                                                stats.shortest_of(ALU, ALU0, SFU), d2i),
                Bound.SINGLE_ISSUE: throughput(max(float(span[ALU0]), float(dur[ALU0]) / p["exu_inflight"]),
                                               stats.shortest[ALU0], d2i)}


class SpecialFunctionPipes(Unit):
    """``sfu_units`` special-function pipes (VDIV, VEXP, VSQRT, VLN ...): an op holds one for its ii
    (+ ``sfu_switch_cycles`` when the pipe changes opcode), so simple ops keep dual-issuing beside a long
    op (it needs an execute unit only for its issue cycle: :class:`ExecuteUnits`)."""

    serves = frozenset({SFU})

    def __init__(self, p, core) -> None:
        super().__init__(p, core)
        n = p["sfu_units"]
        self.busy = [0] * n
        self.last: list[str | None] = [None] * n             # opcode each pipe ran last
        self.switch = p["sfu_switch_cycles"]
        self._pick = -1

    def can_issue(self, i, row, t) -> bool:
        for k, busy in enumerate(self.busy):
            last = self.last[k]
            if busy + (self.switch if last is not None and last != row.op else 0) <= t:
                self._pick = k
                return True
        return False

    def reserve(self, i, row, t) -> None:
        k = self._pick
        self.busy[k] = t + row.span
        self.last[k] = row.op

    def next_free(self, t: int) -> list[int]:
        return [b + self.switch for b in self.busy]

    @classmethod
    def bounds(cls, stats: StreamStats, p) -> dict[Bound, float]:
        return {Bound.SPECIAL_FUNCTION: throughput(float(stats.span[SFU]) / max(p["sfu_units"], 1),
                                                   stats.shortest[SFU], p["dispatch_to_issue"])}


class MaskUnit(Unit):
    """``pred_units`` mask units (PSET, PLT, MoveMask ...): an op holds one for its ii."""

    serves = frozenset({PRED})

    def __init__(self, p, core) -> None:
        super().__init__(p, core)
        self.busy = [0] * p["pred_units"]
        self._pick = -1

    def can_issue(self, i, row, t) -> bool:
        for u, busy in enumerate(self.busy):
            if busy <= t:
                self._pick = u
                return True
        return False

    def reserve(self, i, row, t) -> None:
        self.busy[self._pick] = t + row.span

    def next_free(self, t: int) -> list[int]:
        return self.busy

    @classmethod
    def bounds(cls, stats: StreamStats, p) -> dict[Bound, float]:
        return {Bound.MASK_UNIT: throughput(float(stats.span[PRED]) / p["pred_units"], stats.shortest[PRED],
                                            p["dispatch_to_issue"])}
