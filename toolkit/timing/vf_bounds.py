"""The summary of one VF schedule: counters (trace durations per lane and opcode), the VF cycles, and the
analytic bounds reported next to the simulated figure (the one within 2 % names the bottleneck): each
hardware unit's own (:meth:`toolkit.timing.vf_units.Unit.bounds`) and the dependency chain."""
from __future__ import annotations

from .vf_timing import VfTiming
from .vf_units import UNITS, Bound, OpClass, StreamStats

ALU, ALU0, SFU, PRED = OpClass.ALU, OpClass.ALU0, OpClass.SFU, OpClass.PRED
LD, ST, LOOP, BAR = OpClass.LOAD, OpClass.STORE, OpClass.LOOP, OpClass.MEMBAR


def summarise(rows, issue: list[int], ready_at, p, detail: bool, units=UNITS) -> VfTiming:
    """``issue``: each row's issue cycle; ``ready_at(i)``: when row i could issue (a load/store's trace
    event starts there: queueing on the UB ports shows as a longer event)."""
    lane_events: dict[str, int] = {}
    lane_sum: dict[str, int] = {}
    op_count: dict[str, int] = {}
    op_sum: dict[str, int] = {}
    slices = [] if detail else None
    end = 0
    for i, row in enumerate(rows):
        s = issue[i]
        done = s + row.dur
        start = ready_at(i) if row.cls == LD or row.cls == ST else s
        lane, op = row.lane, row.op
        lane_events[lane] = lane_events.get(lane, 0) + 1
        lane_sum[lane] = lane_sum.get(lane, 0) + (done - start)
        op_count[op] = op_count.get(op, 0) + 1
        op_sum[op] = op_sum.get(op, 0) + (done - start)
        if slices is not None:
            slices.append((lane, op, start, done))
        if done > end:
            end = done
    stats = StreamStats(rows)
    n_ex = stats.n[ALU] + stats.n[ALU0] + stats.n[SFU] + stats.n[PRED]
    cycles = end + p["vf_drain_cycles"]
    return VfTiming(cycles, end, n_ex, lane_events, lane_sum, op_count, op_sum, stats.n[LOOP],
                    bounds(rows, p, stats, units), slices, vf_time=p["vf_start_cycles"] + cycles,
                    log_cycles=p["vf_start_cycles"] + cycles + p["vf_log_extra_cycles"])


def bounds(rows, p, stats: StreamStats | None = None, units=UNITS) -> dict[Bound, float]:
    """Every unit's bounds and the dependency chain, in :class:`Bound` order."""
    stats = stats or StreamStats(rows)
    got: dict[Bound, float] = {Bound.DEPENDENCY_CHAIN: float(critical_path(rows, p["membar_release"])
                                                             + p["dispatch_to_issue"])}
    for unit in units:
        got.update(unit.bounds(stats, p))
    return {b: got[b] for b in Bound if b in got}


def critical_path(rows, membar_release: int = 1) -> int:
    """Longest dependency chain: register dependencies (issue-to-ready latencies) and the memory order a
    MEMBAR imposes (later loads/stores after every earlier store completed), plus the last duration."""
    ready = [0] * len(rows)
    longest = stores_done = gate = 0
    for i, r in enumerate(rows):
        start = max((ready[pi] + extra for pi, extra in r.deps), default=0)
        if r.cls == BAR:
            gate = max(start, stores_done + membar_release)
            start = gate
        elif r.cls == LD or r.cls == ST:
            start = max(start, gate)
            if r.cls == ST:
                stores_done = max(stores_done, start + r.dur)
        ready[i] = start + r.lat
        longest = max(longest, start + r.dur)
    return longest
