"""Counters with the vendor simulator's (cannsim) names, from a core's timing.

Two scopes, as the vendor tables use them: ``run`` (sums over the whole run: VF count, PUSHQ VF
sum_cycles, PUSH_PB, MTE2/MTE3 sum_cycles, lane and opcode sums) and ``vf`` (one VF instance: PUSHQ VF
cycles, steady cycles, IPC, lane and opcode counts and sum_cycles).
"""
from __future__ import annotations

from toolkit.timing.core import CoreTiming
from toolkit.timing.vf_sched import VfTiming

LANES = ("RVECEX", "RVECLD", "RVECST", "RVECLP")


def vf_metrics(t: VfTiming) -> dict[str, float]:
    m: dict[str, float] = {
        "pushq_vf_cycles": t.cycles,
        "vf_cycles": t.log_cycles,      # one VF from start to end, drain included (the vendor's instr_log)
        "steady_cycles": t.steady,
        "ipc": round(t.ipc, 4),
        "loop_entries": t.loop_entries,
        "bottleneck": t.bottleneck(),
        "bounds": {k: round(v, 1) for k, v in t.bounds.items()},
    }
    for lane in LANES:
        key = lane.lower()
        m[f"{key}_events"] = t.lane_events.get(lane, 0)
        m[f"{key}_sum_cycles"] = t.lane_sum_cycles.get(lane, 0)
    for op, n in t.op_count.items():
        m[f"{op}:count"] = n
        m[f"{op}:sum_cycles"] = t.op_sum_cycles[op]
    return m


def run_metrics(ct: CoreTiming) -> dict[str, float]:
    c = ct.counters
    m: dict[str, float] = {
        "vf_count": c["vf_count"],
        "pushq_vf_sum_cycles": c["pushq_vf_cycles"],
        "push_pb_sum_cycles": c["push_pb_cycles"],
        "mte2_sum_cycles": c["mte2_sum_cycles"],
        "mte3_sum_cycles": c["mte3_sum_cycles"],
        "core_cycles": ct.end,
    }
    for lane in LANES:
        key = lane.lower()
        m[f"{key}_events"] = sum(t.lane_events.get(lane, 0) for _, t, _ in ct.vfs)
        m[f"{key}_sum_cycles"] = sum(t.lane_sum_cycles.get(lane, 0) for _, t, _ in ct.vfs)
    ops: dict[str, list[int]] = {}
    for _, t, _ in ct.vfs:
        for op, n in t.op_count.items():
            acc = ops.setdefault(op, [0, 0])
            acc[0] += n
            acc[1] += t.op_sum_cycles[op]
    for op, (n, s) in ops.items():
        m[f"{op}:count"] = n
        m[f"{op}:sum_cycles"] = s
    n_ex = m["rvecex_events"]
    steady = sum(t.steady for _, t, _ in ct.vfs)
    m["ipc"] = round(n_ex / steady, 4) if steady else 0.0
    return m


#: metrics that describe the whole run even when the vendor table reports per-VF figures
RUN_ONLY = frozenset({"vf_count", "mte2_sum_cycles", "mte3_sum_cycles", "rveclp_sum_cycles", "push_pb_sum_cycles",
                      "pushq_vf_sum_cycles", "rvecsu_sum_cycles"})


def predict(metric: str, run: dict, vf: dict, scope: str) -> tuple[float | None, float | None]:
    """Our (first, second) figures for a calibration metric; second is sum_cycles of ``RV_X`` cells.

    ``scope`` is how the vendor measured the kernel: ``run`` (sums over launches) or ``vf`` (one VF
    of a VF_REPEAT loop). RVECLP sum_cycles = loop entries (one cycle each)."""
    src = run if scope == "run" or metric in RUN_ONLY else vf
    if metric.startswith("RV_"):
        return src.get(f"{metric}:count"), src.get(f"{metric}:sum_cycles")
    if metric == "rveclp_sum_cycles":
        return run.get("rveclp_events"), None
    return src.get(metric), None
