"""The summary of one VF schedule: counters (trace durations per lane and opcode), the VF cycles, and the
analytic bounds reported next to the simulated figure (the one within 2 % names the bottleneck): each
hardware unit's own (:meth:`toolkit.timing.vf_units.Unit.bounds`) and the dependency chain."""
from __future__ import annotations

from collections import deque

from .vf_timing import VfTiming
from .vf_units import UNITS, Bound, OpClass, StreamStats

ALU, ALU0, SFU, PRED = OpClass.ALU, OpClass.ALU0, OpClass.SFU, OpClass.PRED
LD, ST, LOOP, BAR = OpClass.LOAD, OpClass.STORE, OpClass.LOOP, OpClass.MEMBAR


def summarise(rows, issue: list[int], ready_at, p, detail: bool, units=UNITS) -> VfTiming:
    """``issue``: each row's issue cycle; ``ready_at(i)``: when row i could issue (a load/store's trace
    event starts there: queueing on the UB ports shows as a longer event; a store's not before it can hold
    one of the ``store_queue`` entries, freed as the stores before it complete)."""
    count: dict[str, int] = {}                    # per opcode, in order of first appearance
    kind: dict[str, object] = {}                  # opcode -> one of its rows (rows of an opcode cost alike)
    waited: dict[str, int] = {}                   # opcode -> cycles its loads/stores queued
    slices = [] if detail else None
    end = 0
    depth = p["store_queue"]
    held: deque[int] = deque(maxlen=depth)        # completion cycles of the last ``depth`` stores
    for i, row in enumerate(rows):
        op = row.op
        n = count.get(op)
        if n is None:
            count[op] = 1
            kind[op] = row
        else:
            count[op] = n + 1
        s = issue[i]
        done = s + row.dur
        if done > end:
            end = done
        start = s
        if row.cls == LD or row.cls == ST:
            start = ready_at(i)
            if row.cls == ST:
                if depth and len(held) == depth:
                    start = max(start, held[0])
                held.append(done)
            if start < s:
                waited[op] = waited.get(op, 0) + s - start
        if slices is not None:
            slices.append((row.lane, op, start, done))
    op_sum = {op: n * kind[op].dur + waited.get(op, 0) for op, n in count.items()}
    lane_events: dict[str, int] = {}              # lanes in order of first appearance, as the opcodes
    lane_sum: dict[str, int] = {}
    for op, n in count.items():
        lane = kind[op].lane
        lane_events[lane] = lane_events.get(lane, 0) + n
        lane_sum[lane] = lane_sum.get(lane, 0) + op_sum[op]
    stats = StreamStats.of_opcodes(count, kind, len(rows))
    n_ex = stats.n[ALU] + stats.n[ALU0] + stats.n[SFU] + stats.n[PRED]
    cycles = end + p["vf_drain_cycles"]
    return VfTiming(cycles, end, n_ex, lane_events, lane_sum, count, op_sum, stats.n[LOOP],
                    bounds(rows, p, stats, units), slices, vf_time=p["vf_start_cycles"] + cycles,
                    log_cycles=p["vf_start_cycles"] + cycles + p["vf_log_extra_cycles"],
                    ub_port_cycles=(stats.span[LD], stats.span[ST]))


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
        start = 0
        for pi, extra in r.deps:
            v = ready[pi] + extra
            if v > start:
                start = v
        if r.cls == BAR:
            gate = max(start, stores_done + membar_release)
            start = gate
        elif r.cls == LD or r.cls == ST:
            start = max(start, gate)
            if r.cls == ST:
                stores_done = max(stores_done, start + r.dur)
        ready[i] = start + r.lat
        if start + r.dur > longest:
            longest = start + r.dur
    return longest
