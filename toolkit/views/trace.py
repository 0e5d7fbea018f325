"""Chrome Trace Event Format export (opens in Perfetto / chrome://tracing; the schema: anchors-survey 5).

One process per emulated core; one thread per pipe (MTE2, PUSHQ/VECTOR, MTE3, SCALAR) and, for the
first core of each run, the vector lanes RVECLD / RVECEX / RVECST / RVECLP of its VFs. Only complete
("X") events; slices that overlap on one lane (pipelined DMAs, out-of-order instructions) go to extra
threads of that lane ("RVECEX #2" ...), so no thread has overlapping slices. Timestamps are cycles:
one trace microsecond is one core cycle (stated in ``otherData``).
"""
from __future__ import annotations

from typing import Iterable

from toolkit.record.events import PIPE_MTE2, PIPE_MTE3, PIPE_S, PIPE_V
from toolkit.timing.core import CoreTiming
from toolkit.timing.model import TimingModel

LANE_NAMES = {PIPE_MTE2: "MTE2", PIPE_V: "PUSHQ/VECTOR", PIPE_MTE3: "MTE3", PIPE_S: "SCALAR"}
VF_LANES = ("RVECLD", "RVECEX", "RVECST", "RVECLP")


class TraceBuilder:
    def __init__(self, clock_mhz: float, model: str):
        self.events: list[dict] = []
        self.meta: list[dict] = []
        self.clock_mhz = clock_mhz
        self.model = model
        self._next_tid: dict[int, int] = {}

    def process(self, pid: int, name: str, sort: int) -> None:
        self.meta.append({"ph": "M", "name": "process_name", "pid": pid, "tid": 0, "args": {"name": name}})
        self.meta.append({"ph": "M", "name": "process_sort_index", "pid": pid, "tid": 0, "args": {"sort_index": sort}})

    def lane(self, pid: int, name: str, slices: Iterable[tuple[str, int, int, dict]], cat: str) -> None:
        """Slices (name, start, end, args) of one logical lane, split over non-overlapping threads."""
        ends: list[int] = []
        tids: list[int] = []
        for sname, start, end, args in sorted(slices, key=lambda s: (s[1], s[2])):
            for k, e in enumerate(ends):
                if e <= start:
                    break
            else:
                k = len(ends)
                ends.append(0)
                tid = self._next_tid.get(pid, 1)
                self._next_tid[pid] = tid + 1
                tids.append(tid)
                label = name if k == 0 else f"{name} #{k + 1}"
                self.meta.append({"ph": "M", "name": "thread_name", "pid": pid, "tid": tid, "args": {"name": label}})
                self.meta.append({"ph": "M", "name": "thread_sort_index", "pid": pid, "tid": tid,
                                  "args": {"sort_index": tid}})
            ends[k] = max(end, start + 1)
            self.events.append({"ph": "X", "name": sname, "cat": cat, "pid": pid, "tid": tids[k], "ts": start,
                                "dur": max(end - start, 1), "args": args})

    def to_json(self) -> dict:
        return {"traceEvents": self.meta + sorted(self.events, key=lambda e: (e["pid"], e["ts"])),
                "displayTimeUnit": "ns",
                "otherData": {"time_unit": "cycles: 1 trace microsecond = 1 core cycle",
                              "clock_mhz": self.clock_mhz, "model": self.model}}


def add_core(tb: TraceBuilder, pid: int, name: str, core: CoreTiming, model: TimingModel, vf_lanes: bool) -> None:
    tb.process(pid, name, pid)
    for pipe in (PIPE_MTE2, PIPE_V, PIPE_MTE3, PIPE_S):
        tb.lane(pid, LANE_NAMES[pipe], [(s.name, s.start, s.end, s.args) for s in core.slices if s.pipe == pipe],
                pipe.lower())
    if not vf_lanes:
        return
    per_lane: dict[str, list] = {lane: [] for lane in VF_LANES}
    for ev, _timing, start in core.vfs:
        detail = model.vf_detail(ev)
        for lane, op, s, e in detail.slices:
            if lane in per_lane:
                per_lane[lane].append((op, start + s, start + e, {"vf": ev.name}))
    for lane in VF_LANES:
        if per_lane[lane]:
            tb.lane(pid, lane, per_lane[lane], lane.lower())


def launches_trace(launches: Iterable[tuple[str, object]], model: TimingModel, pid_base: int = 0) -> dict:
    """Trace of (label, KernelTiming) launches (any route): a process per core (launch k's from
    ``pid_base + 1000 k``), VF lanes for core 0."""
    m = model.machine
    tb = TraceBuilder(m.clock_mhz, f"{m.name} v{m.version}")
    for k, (label, kt) in enumerate(launches):
        for core in kt.cores:
            add_core(tb, pid_base + k * 1000 + core.core, f"{label} core {core.core}", core, model,
                     vf_lanes=core.core == 0)
    return tb.to_json()


def kv_trace(runs: dict, timings: dict, model: TimingModel) -> dict:
    return launches_trace(((runs[b].label, kt) for b, kt in timings.items()), model)


def launch_trace(label: str, kt, model: TimingModel, pid_base: int = 0) -> dict:
    """Trace of one launch: :func:`launches_trace` of it alone."""
    return launches_trace([(label, kt)], model, pid_base)


def merge_traces(traces: list[dict]) -> dict:
    """One trace of several whose processes are numbered apart, in increasing order: the metadata events
    of all, then the slices of all, which is the order :meth:`TraceBuilder.to_json` gives one trace of
    them all (its slices sorted by process, then time)."""
    if not traces:
        return {"traceEvents": [], "displayTimeUnit": "ns"}
    out = dict(traces[0])
    events = [e for t in traces for e in t["traceEvents"]]
    out["traceEvents"] = [e for e in events if e["ph"] == "M"] + [e for e in events if e["ph"] != "M"]
    return out


def story_trace(report) -> dict:
    model = report.timing_model
    m = model.machine
    tb = TraceBuilder(m.clock_mhz, f"{m.name} v{m.version}")
    for k, kr in enumerate(report.kernels):
        core = model.core(0, kr.result.events)
        add_core(tb, k, f"{kr.variant.key} core 0", core, model, vf_lanes=True)
    return tb.to_json()
