"""The summary of one VF schedule: counters (trace durations per lane and opcode), the VF cycles,
and the analytic bounds reported next to the simulated figure (the one within 2 % names the
bottleneck): execute units, the single-issue unit EXU0, the special-function pipes, UB ports, the
store queue, dispatch, the mask unit, the dependency chain and the loop entries."""
from __future__ import annotations

from .vf_sched import ALU, ALU0, BAR, LD, LOOP, PRED, SFU, ST, VfTiming

_NONE = 10 ** 9


def summarise(rows, core, p, detail: bool) -> VfTiming:
    lane_events: dict[str, int] = {}
    lane_sum: dict[str, int] = {}
    op_count: dict[str, int] = {}
    op_sum: dict[str, int] = {}
    slices = [] if detail else None
    end = 0
    issue = core.issue
    for i, row in enumerate(rows):
        s = issue[i]
        done = s + row.dur
        start = core.ready_at(i) if row.cls in (LD, ST) else s
        lane_events[row.lane] = lane_events.get(row.lane, 0) + 1
        lane_sum[row.lane] = lane_sum.get(row.lane, 0) + (done - start)
        op_count[row.op] = op_count.get(row.op, 0) + 1
        op_sum[row.op] = op_sum.get(row.op, 0) + (done - start)
        if slices is not None:
            slices.append((row.lane, row.op, start, done))
        end = max(end, done)
    n_ex = sum(1 for r in rows if r.cls in (ALU, ALU0, SFU, PRED))
    loop_entries = sum(1 for r in rows if r.cls == LOOP)
    cycles = end + p["vf_drain_cycles"]
    return VfTiming(cycles, end, n_ex, lane_events, lane_sum, op_count, op_sum, loop_entries,
                    bounds(rows, p), slices, vf_time=p["vf_start_cycles"] + cycles,
                    log_cycles=p["vf_start_cycles"] + cycles + p["vf_log_extra_cycles"])


def bounds(rows, p) -> dict[str, float]:
    """Each throughput bound includes the unavoidable fill (dispatch to first issue) and drain (the
    shortest duration of that class after its last issue), so a stream limited by one resource meets
    its bound exactly."""
    busy = {"ex": 0.0, "ex0": 0.0, "sfu": 0.0, "mem": 0.0, "st": 0.0, "stq": 0.0, "pred": 0.0}
    tail = dict.fromkeys(("ex", "ex0", "sfu", "mem", "st", "stq", "pred", "any"), _NONE)

    def add(key: str, amount: float, dur: int) -> None:
        busy[key] += amount
        tail[key] = min(tail[key], dur)

    for r in rows:
        tail["any"] = min(tail["any"], r.dur)
        if r.cls in (ALU, ALU0):
            add("ex", r.span, r.dur)
            if r.cls == ALU0:
                add("ex0", r.span, r.dur)
        elif r.cls == SFU:
            add("ex", 1, r.dur)
            add("sfu", r.span, r.dur)
        elif r.cls in (LD, ST):
            add("mem", r.span, r.dur)
            if r.cls == ST:
                add("st", r.span, r.dur)
                add("stq", r.dur, r.dur)
        elif r.cls == PRED:
            add("pred", r.span, r.dur)
    d2i = p["dispatch_to_issue"]
    edge = {k: (d2i + v - 1 if v < _NONE else 0) for k, v in tail.items()}
    occ = {
        "execute units": (busy["ex"] / max(p["ex_units"], 1), "ex"),
        "single-issue unit": (busy["ex0"], "ex0"),
        "special-function pipes": (busy["sfu"] / max(p["sfu_units"], 1), "sfu"),
        "UB ports": (max(busy["mem"] / p["ub_slots"], busy["st"] / p["ub_write_slots"]), "mem"),
        "store queue": (busy["stq"] / p["store_queue"], "stq"),
        "dispatch": (len(rows) / p["dispatch_width"], "any"),
        "mask unit": (busy["pred"] / p["pred_units"], "pred"),
    }
    out = {name: (v + edge[k] if v else 0.0) for name, (v, k) in occ.items()}
    out["dependency chain"] = float(critical_path(rows, p["membar_release"]) + d2i)
    out["loop entries"] = float(sum(r.cls == LOOP for r in rows) * p["loop_entry_cycles"])
    return out


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
        elif r.cls in (LD, ST):
            start = max(start, gate)
            if r.cls == ST:
                stores_done = max(stores_done, start + r.dur)
        ready[i] = start + r.lat
        longest = max(longest, start + r.dur)
    return longest
