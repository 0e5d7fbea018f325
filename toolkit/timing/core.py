"""Core-level timing: the MTE2, VECTOR (PUSHQ), MTE3 and SCALAR pipes of one AIV core.

Each pipe executes its own work in program order; the edges between pipes are the queue operations
(EnQue -> DeQue carries "data ready", FreeTensor -> AllocTensor carries "buffer free", so double
buffering overlaps copy-in of tile i+1 with compute of tile i) and flags: a SetFlag of (event, id)
signals when its source pipe has done everything it was given before; a WaitFlag holds its destination
pipe until the oldest unconsumed SetFlag of the same (event, id) (+ ``[scalar] flag_latency_cycles``).

The scalar unit issues everything in program order (machine section ``[scalar]``): the kernel entry,
then per event its issue cost (DMA set-up, VF call, MemBase API set-up, flags, barriers, queue
operations; loop control and address arithmetic are folded into these per-call costs). It blocks on
its own work: GM scalar reads through a data cache, UB reads (which wait for the vector and MTE2 work
before them, + the flag latency), a value read from UB before it is used (the next VF launch), a
WaitFlag whose destination is the scalar unit, and (``asc_vf_call_waits``) a VF launched through
``asc_vf_call`` until it completes.

DMA: a DataCopy occupies its MTE pipe for bytes / bandwidth (+ per extra burst) and completes a
latency later, so consecutive copies pipeline. When ``n`` cores move data in the same direction at the
same time (``concurrency``, from :mod:`toolkit.timing.kernel`) the bandwidth is the lesser of the core's
own and the shared GM bandwidth / n; a read also waits for the bytes other cores have in flight ahead
of it (latency under load = idle latency + queued bytes / shared bandwidth). One core alone is the
calibrated single-core figure. A VF occupies VECTOR for its PUSHQ slice (from the VF
scheduler) after its parameters were pushed (PUSH_PB).

Hardware several pipes use (the UB ports: DMA and VF accesses) is a list of units
(:mod:`toolkit.timing.core_units`) asked at each DMA and each VF body: a DMA or VF that overlaps work
already granted the UB ports gets the port cycles left and ends later (``SharedUbPorts``).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from operator import attrgetter
from typing import Callable

from toolkit.machine import Machine
from toolkit.record.events import (
    PIPE_MTE2,
    PIPE_MTE3,
    PIPE_S,
    PIPE_V,
    Dma,
    PipeBarrier,
    QueueOp,
    ScalarOp,
    Sync,
    VfCall,
)

from .core_units import CORE_UNITS
from .vf_timing import VfTiming

PIPES = (PIPE_MTE2, PIPE_V, PIPE_MTE3, PIPE_S)
_PRODUCER = {"VECIN": PIPE_MTE2, "VECOUT": PIPE_V, "VECCALC": PIPE_V}
_CONSUMER = {"VECIN": PIPE_V, "VECOUT": PIPE_MTE3, "VECCALC": PIPE_V}
_SHARED_BW = {PIPE_MTE2: "gm_read_bytes_per_cycle", PIPE_MTE3: "gm_write_bytes_per_cycle"}
ZERO = (0, -1)
_NO_ARGS: dict = {}          #: the args of every slice that has none (shared: slices are read, never changed)
#: concurrency(pipe, index of the DMA on that pipe) -> (cores moving data in that direction meanwhile,
#: bytes other cores have in flight ahead of it); see toolkit.timing.kernel
Concurrency = Callable[[str, int], tuple[float, float]]


@dataclass(slots=True)
class Slice:
    pipe: str
    name: str
    start: int
    end: int
    args: dict = field(default_factory=dict)
    cause: int = -1          #: index of the slice whose completion (or pipe release) bound this start


@dataclass
class CoreTiming:
    core: int
    end: int
    busy: dict[str, int]
    slices: list[Slice]
    vfs: list[tuple[VfCall, VfTiming, int]]        # (event, timing, start cycle)
    counters: dict[str, float]


def merged(intervals: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The union of ``intervals`` as disjoint intervals, in order (touching ones joined)."""
    out: list[list[int]] = []
    for s, e in sorted(intervals):
        if out and s <= out[-1][1]:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([s, e])
    return [(s, e) for s, e in out]


class DmaCost:
    """:func:`dma_cost` of one MTE pipe, the machine's figures looked up once."""

    __slots__ = ("own", "shared", "latency", "burst", "sum_key", "bytes_key")

    def __init__(self, machine: Machine, pipe: str):
        p = machine.params["timing"]
        key = "mte2" if pipe == PIPE_MTE2 else "mte3"
        self.own, self.shared = p[f"{key}_bytes_per_cycle"], machine.params["memory"][_SHARED_BW[pipe]]
        self.latency, self.burst = p[f"{key}_latency"], p[f"{key}_burst_cycles"]
        self.sum_key, self.bytes_key = f"{key}_sum_cycles", f"{key}_bytes"

    def __call__(self, nbytes: int, bursts: int, n: float = 1.0, queued: float = 0.0) -> tuple[int, int]:
        bw = min(self.own, self.shared / n)
        latency = self.latency + queued / self.shared
        occ = nbytes / bw + max(bursts - 1, 0) * self.burst
        return round(latency), max(round(occ), 1)          # floats: round() gives the int


def dma_cost(machine: Machine, pipe: str, nbytes: int, bursts: int, n: float = 1.0,
             queued: float = 0.0) -> tuple[int, int]:
    """(latency, occupancy) of one DMA while ``n`` cores move data in its direction and ``queued``
    bytes of other cores' requests are ahead of it (alone: n = 1, queued = 0, the single-core figure)."""
    return DmaCost(machine, pipe)(nbytes, bursts, n, queued)


class _CoreSim:
    """One core's pipes. Every time is a pair (cycle, index of the slice that set it), so each slice
    records which earlier slice bound its start (``cause``): the critical path follows those links."""

    def __init__(self, core: int, machine: Machine, vf_timing, concurrency: Concurrency | None,
                 detail: bool = True, shared_units=CORE_UNITS):
        self.core, self.vf_timing = core, vf_timing
        self.detail = detail                             # False: keep only what the GM load needs
        self.dma_costs = {pipe: DmaCost(machine, pipe) for pipe in _SHARED_BW}
        self.shared = [unit(machine) for unit in shared_units]  # resources several pipes use (UB ports)
        self.p, self.s = machine.params["timing"], machine.params["scalar"]
        self.concurrency = concurrency or (lambda pipe, k: (1.0, 0.0))
        self.free = {pipe: ZERO for pipe in PIPES}       # when the pipe can start its next operation
        self.done = {pipe: ZERO for pipe in PIPES}       # when everything given to the pipe completed
        self.t_s = ZERO                                  # scalar issue time
        self.last_ub_read = None                         # (issue, ready) of the latest scalar UB read
        self.pending_read = None                         # ready time of a UB read not used yet
        self.enq: dict[tuple, tuple] = {}
        self.slot_free: dict[tuple, tuple] = {}
        self.dcache: set = set()
        self.flags: dict[tuple, list] = {}               # (src, dst, event id) -> set times not yet waited for
        self.ndma = {PIPE_MTE2: 0, PIPE_MTE3: 0}
        self.v_barrier = False                           # a PipeBarrier<PIPE_V> since the last VF
        self.slices: list[Slice] = []
        self.vfs: list = []
        self.c = {"mte2_sum_cycles": 0, "mte3_sum_cycles": 0, "pushq_vf_cycles": 0, "push_pb_cycles": 0,
                  "vf_count": 0, "mte2_bytes": 0, "mte3_bytes": 0, "scalar_cycles": 0}

    # -- helpers ---------------------------------------------------------------------------------
    def add(self, pipe: str, name: str, start: tuple, end: int, args: dict | None = None) -> int:
        """Record a slice; its index (a run without detail keeps only the DMA slices: -1 for others,
        which changes no cycle: indices only say which slice bound a start)."""
        if not self.detail and pipe not in _SHARED_BW:
            return -1
        self.slices.append(Slice(pipe, name, start[0], end, args or _NO_ARGS, start[1]))
        return len(self.slices) - 1

    def wait(self, pipe: str, t: tuple) -> None:
        if t > self.free[pipe]:
            self.free[pipe] = t
        if t > self.done[pipe]:
            self.done[pipe] = t

    def issue(self, cost: int, what: str) -> None:
        """The scalar unit spends ``cost`` cycles issuing ``what`` (the hottest step of the timeline:
        :meth:`add` inlined)."""
        if cost > 0:
            t = self.t_s[0]
            if self.detail:
                self.slices.append(Slice(PIPE_S, what, t, t + cost, _NO_ARGS, self.t_s[1]))
                self.t_s = (t + cost, len(self.slices) - 1)
            else:
                self.t_s = (t + cost, -1)

    def signal_time(self, pipe: str) -> tuple:
        """When a flag set now on ``pipe`` fires: once the pipe did its earlier work (and was told to)."""
        return self.t_s if pipe == PIPE_S else max(self.done[pipe], self.t_s)

    def latency(self, t: tuple) -> tuple:
        return (t[0] + self.s["flag_latency_cycles"], t[1]) if t[0] > 0 else t

    # -- events ----------------------------------------------------------------------------------
    def dma(self, ev: Dma) -> None:
        pipe, nbytes = ev.pipe, ev.nbytes
        cost = self.dma_costs[pipe]
        self.issue(self.s["dma_issue_cycles"], ev.api)
        k = self.ndma[pipe]
        self.ndma[pipe] = k + 1
        n, queued = self.concurrency(pipe, k)
        lat, occ = cost(nbytes, ev.bursts, n, queued)
        start, t_s = self.free[pipe], self.t_s
        if t_s > start:                                   # max(), the first of equals kept
            start = t_s
        s0 = start[0]
        for unit in self.shared:
            occ = unit.dma(pipe, s0, lat, occ, nbytes)
        end = s0 + lat + occ
        self.slices.append(Slice(pipe, ev.api, s0, end, {"bytes": nbytes, "bursts": ev.bursts, "gm": ev.gm,
                                                         "cores": round(n, 2), "queued_bytes": round(queued)}
                                 if self.detail else {"bytes": nbytes}, start[1]))
        i = len(self.slices) - 1
        self.free[pipe] = (s0 + occ, i)
        if (end, i) > self.done[pipe]:
            self.done[pipe] = (end, i)
        c = self.c
        c[cost.sum_key] += end - s0
        c[cost.bytes_key] += nbytes

    def vf(self, ev: VfCall) -> None:
        s, p = self.s, self.p
        timing = self.vf_timing(ev)
        self.issue(s["membase_call_cycles"] if ev.launch == "membase" else s["vf_call_cycles"], ev.name)
        scalar_args = ev.meta.get("scalar_args")
        if self.pending_read is not None and not scalar_args:
            self.t_s = max(self.t_s, self.pending_read)      # a value computed from the read feeds the call
        self.pending_read = None
        pushes = -(-ev.nparams // p["params_per_push"]) if ev.nparams else 0
        push = pushes * p["push_pb_cycles"]
        self.issue(push, "PUSH_PB")
        self.c["push_pb_cycles"] += push
        start = max(self.free[PIPE_V], self.t_s)
        body_start = start[0]
        if scalar_args and self.last_ub_read is not None:
            # a parameter read by the scalar unit just before: the push waits inside the PUSHQ slice
            body_start = max(body_start, self.last_ub_read[1])
        # back to back, a VF's start-up overlaps the previous VF (``cycles``); after an idle vector pipe
        # or a PipeBarrier<PIPE_V> it runs alone (``vf_time``)
        isolated = self.free[PIPE_V][0] < start[0] or self.v_barrier
        end = body_start + (timing.vf_time if isolated else timing.cycles)
        for unit in self.shared:
            end = unit.vf(body_start, end, timing)
        i = self.add(PIPE_V, ev.name, start, end, {"launch": ev.launch, "ipc": round(timing.ipc, 3),
                                                   "instructions": timing.n_ex} if self.detail else None)
        self.free[PIPE_V] = self.done[PIPE_V] = (end, i)
        self.v_barrier = False
        self.c["pushq_vf_cycles"] += end - start[0]
        self.c["vf_count"] += 1
        if self.detail:
            self.vfs.append((ev, timing, body_start))
        if s["vf_launch_waits"] == "all" or s["vf_launch_waits"] == ev.launch:
            self.t_s = max(self.t_s, (end, i))            # the scalar unit resumes when the VF is done

    def queue(self, ev: QueueOp) -> None:
        prod, cons = _PRODUCER.get(ev.position, PIPE_V), _CONSUMER.get(ev.position, PIPE_V)
        key = (ev.queue, ev.slot)
        self.issue(self.s["queue_op_cycles"], ev.op)
        if ev.op == "alloc":
            self.wait(prod, self.slot_free.get(key, ZERO))
        elif ev.op == "enque":
            self.enq[key] = self.done[prod]
        elif ev.op == "deque":
            self.wait(cons, self.enq.get(key, ZERO))
        elif ev.op == "free":
            self.slot_free[key] = self.done[cons]

    def scalar(self, ev: ScalarOp) -> None:
        p = self.p
        start = self.t_s
        if ev.kind == "gm_read":
            hit = _dcache_hit(self.dcache, ev, p["dcache_line_bytes"])
            cost = p["gm_read_hit_cycles"] if hit else p["gm_read_miss_cycles"]
            end = start[0] + cost
        elif ev.kind == "ub_read":
            writers = max(self.done[PIPE_MTE2], self.done[PIPE_V])
            if writers[0] > start[0]:                        # UB data hazard: earlier writers first
                start = self.latency(writers)
            self.last_ub_read = (start[0], start[0] + p["scalar_ub_read_cycles"])
            end = start[0] + 1
        else:
            end = start[0] + 1
        i = self.add(PIPE_S, ev.kind, start, end, {"bytes": ev.nbytes})
        self.t_s = (end, i)
        if ev.kind == "ub_read":
            self.pending_read = (self.last_ub_read[1], i)
        self.c["scalar_cycles"] += end - start[0]

    def sync(self, ev: Sync) -> None:
        kind = ev.kind
        self.issue(self.s["flag_cycles"], "SetFlag" if kind == "set" else "WaitFlag")
        key = (ev.src, ev.dst, ev.event_id)
        if kind == "set":
            self.flags.setdefault(key, []).append(self.signal_time(ev.src))
            return
        pending = self.flags.get(key)
        if pending and ev.event_id is not None:
            src_t = pending.pop(0)
        else:
            src_t = self.signal_time(ev.src)
        src_t = self.latency(src_t)
        if ev.dst == PIPE_S:
            if src_t > self.t_s:
                self.t_s = src_t
        else:
            self.wait(ev.dst, src_t)

    def run(self, events: list) -> CoreTiming:
        self.issue(self.s["entry_cycles"], "kernel entry")
        handlers = {Dma: self.dma, VfCall: self.vf, QueueOp: self.queue, ScalarOp: self.scalar, Sync: self.sync}
        for ev in events:
            h = handlers.get(type(ev))
            if h is not None:
                h(ev)
            elif isinstance(ev, PipeBarrier):
                self.issue(self.s["barrier_cycles"], "PipeBarrier")
                self.v_barrier = self.v_barrier or ev.pipe in (PIPE_V, "ALL")
        end = max(max(v[0] for v in self.done.values()), self.t_s[0])
        busy = {pipe: sum(e - s for s, e in merged([(s.start, s.end) for s in self.slices if s.pipe == pipe]))
                for pipe in PIPES} if self.detail else {}
        self.c["scalar_cycles"] = busy.get(PIPE_S, 0)
        for unit in self.shared:
            self.c.update(unit.counters())
        return CoreTiming(self.core, end, busy, self.slices, self.vfs, self.c)


def _dcache_hit(lines: set, ev: ScalarOp, line_bytes: int) -> bool:
    """Whether a GM scalar read hits the data cache (the lines read before), as :meth:`_CoreSim.scalar`."""
    line = (ev.gm, ev.gm_offset // line_bytes)
    hit = line in lines
    lines.add(line)
    return hit


def core_signature(events: list, streams: dict[int, int], line_bytes: int) -> tuple:
    """Everything :class:`_CoreSim` reads from a core's events, as one hashable key: two cores with
    equal keys get equal timings (and put equal load on GM), so a launch simulates each key once.
    A VF's stream enters by identity (``streams``: id(instrs) -> a small number, shared by the cores of
    one launch, whose events keep every stream alive meanwhile): equal streams are interned to one
    object per launch (:meth:`toolkit.engine.runtime.CoreContext.intern_stream`), so equal content usually
    means one number; a stream that is not interned only splits a group, which stays exact. A GM scalar
    read enters as a data-cache hit or miss (``line_bytes``: ``[timing] dcache_line_bytes``), not by
    its address."""
    out: list[tuple] = []
    lines: set = set()                   # GM data-cache lines read so far: a read enters as hit or miss
    append = out.append
    for ev in events:
        t = type(ev)
        key = _SIGNATURE_FIELDS.get(t)
        if key is not None:
            append(key(ev))
        elif t is VfCall:
            sid = streams.setdefault(id(ev.instrs), len(streams))
            append((ev.name, ev.launch, ev.nparams, sid, bool(ev.meta.get("scalar_args"))))
        elif t is ScalarOp:
            append((ev.kind, ev.nbytes, _dcache_hit(lines, ev, line_bytes) if ev.kind == "gm_read" else None))
        elif isinstance(ev, PipeBarrier):
            append(("PipeBarrier", ev.pipe))
    return tuple(out)


#: the fields of an event that enter :func:`core_signature` as they are (C getters: the hot loop)
_SIGNATURE_FIELDS = {
    Dma: attrgetter("direction", "api", "gm", "nbytes", "bursts"),
    QueueOp: attrgetter("op", "queue", "position", "slot"),
    Sync: attrgetter("kind", "src", "dst", "event_id"),
}


def rebind(timing: CoreTiming, core: int, events: list) -> CoreTiming:
    """``timing`` (of a core with the same :func:`core_signature`) as core ``core``'s: its id and its own
    VF events; slices, busy times and counters are shared (read-only)."""
    calls = [e for e in events if type(e) is VfCall]
    if all(a is b[0] for a, b in zip(calls, timing.vfs)):   # lock-step cores share their VF events
        vfs = timing.vfs
    else:
        vfs = [(ev, t, start) for ev, (_, t, start) in zip(calls, timing.vfs)]
    return CoreTiming(core, timing.end, timing.busy, timing.slices, vfs, timing.counters)


def simulate_core(core: int, events: list, machine: Machine, vf_timing,
                  concurrency: Concurrency | None = None, detail: bool = True,
                  shared_units=CORE_UNITS) -> CoreTiming:
    """``vf_timing(vfcall) -> VfTiming`` (memoised by the caller); ``concurrency`` as in :func:`dma_cost`
    (default: the core moves data alone). ``detail=False``: the same cycles, but only the DMA slices
    (what the GM load of :mod:`toolkit.timing.kernel` reads) and the end; no VF list, no busy times.
    ``shared_units``: the resources several pipes use (:data:`toolkit.timing.core_units.CORE_UNITS`)."""
    return _CoreSim(core, machine, vf_timing, concurrency, detail, shared_units).run(events)


def critical_path(core: CoreTiming) -> dict[str, int]:
    """Cycles of the core's critical path per pipe: from the last-ending slice back through the slices
    that bound each start; time not covered by a slice is 'wait'."""
    if not core.slices:
        return {}
    k = max(range(len(core.slices)), key=lambda j: core.slices[j].end)
    cur = core.end
    out: dict[str, int] = {}
    while k >= 0:
        s = core.slices[k]
        seg_end = min(cur, s.end)
        if cur > seg_end:
            out["wait"] = out.get("wait", 0) + cur - seg_end
        if seg_end > s.start:
            out[s.pipe] = out.get(s.pipe, 0) + seg_end - s.start
        cur = min(cur, s.start)
        k = s.cause
    if cur > 0:
        out["wait"] = out.get("wait", 0) + cur
    return out
