"""Core-level timing: the MTE2, VECTOR (PUSHQ), MTE3 and SCALAR pipes of one AIV core.

Each pipe executes its own work in program order; the edges between pipes are the queue operations
(EnQue -> DeQue carries "data ready", FreeTensor -> AllocTensor carries "buffer free", so double
buffering overlaps copy-in of tile i+1 with compute of tile i) and explicit flags (SetFlag/WaitFlag).
The scalar unit dispatches everything in order and only blocks on its own work (GM scalar reads
through a data cache, UB reads, VF parameter pushes).

DMA: a DataCopy occupies its MTE pipe for bytes/bandwidth (+ per extra burst) and completes a fixed
latency later, so consecutive copies pipeline. A VF occupies VECTOR for its PUSHQ slice (from the VF
scheduler) after its parameters were pushed (PUSH_PB).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..events import (PIPE_MTE2, PIPE_MTE3, PIPE_S, PIPE_V, BufferInit, Dma, PipeBarrier, QueueOp, ScalarOp,
                      Sync, VfCall)
from ..machine import Machine
from .vf_sched import VfTiming

PIPES = (PIPE_MTE2, PIPE_V, PIPE_MTE3, PIPE_S)
_PRODUCER = {"VECIN": PIPE_MTE2, "VECOUT": PIPE_V, "VECCALC": PIPE_V}
_CONSUMER = {"VECIN": PIPE_V, "VECOUT": PIPE_MTE3, "VECCALC": PIPE_V}


@dataclass
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


def _union(intervals: list[tuple[int, int]]) -> int:
    total, cur_s, cur_e = 0, None, None
    for s, e in sorted(intervals):
        if cur_e is None or s > cur_e:
            if cur_e is not None:
                total += cur_e - cur_s
            cur_s, cur_e = s, e
        else:
            cur_e = max(cur_e, e)
    if cur_e is not None:
        total += cur_e - cur_s
    return total


def simulate_core(core: int, events: list, machine: Machine, vf_timing) -> CoreTiming:
    """``vf_timing(vfcall) -> VfTiming`` (memoised by the caller).

    Every time below is a pair (cycle, index of the slice that set it), so each slice also records
    which earlier slice bound its start (``cause``): the critical path is read off those links."""
    p = machine.params["timing"]
    zero = (0, -1)
    free = {pipe: zero for pipe in PIPES}       # when the pipe can start its next operation
    done = {pipe: zero for pipe in PIPES}       # when everything issued so far on the pipe completed
    t_s = zero                                  # scalar dispatch time
    last_ub_read = None                         # (issue, ready) of the latest scalar UB read
    enq: dict[tuple, tuple] = {}
    slot_free: dict[tuple, tuple] = {}
    dcache: set = set()
    slices: list[Slice] = []
    vfs = []
    c = {"mte2_sum_cycles": 0, "mte3_sum_cycles": 0, "pushq_vf_cycles": 0, "push_pb_cycles": 0, "vf_count": 0,
         "mte2_bytes": 0, "mte3_bytes": 0, "scalar_cycles": 0}

    def wait(pipe: str, t: tuple) -> None:
        free[pipe] = max(free[pipe], t)
        done[pipe] = max(done[pipe], t)

    def add(pipe: str, name: str, start: tuple, end: int, args: dict) -> int:
        slices.append(Slice(pipe, name, start[0], end, args, start[1]))
        return len(slices) - 1

    for ev in events:
        if isinstance(ev, Dma):
            pipe = ev.pipe
            key = "mte2" if pipe == PIPE_MTE2 else "mte3"
            occ = ev.nbytes / p[f"{key}_bytes_per_cycle"] + max(ev.bursts - 1, 0) * p[f"{key}_burst_cycles"]
            occ = max(int(round(occ)), 1)
            start = max(free[pipe], t_s)
            end = start[0] + p[f"{key}_latency"] + occ
            i = add(pipe, ev.api, start, end, {"bytes": ev.nbytes, "bursts": ev.bursts, "gm": ev.gm})
            free[pipe] = (start[0] + occ, i)
            done[pipe] = max(done[pipe], (end, i))
            c[f"{key}_sum_cycles"] += end - start[0]
            c[f"{key}_bytes"] += ev.nbytes
        elif isinstance(ev, VfCall):
            timing = vf_timing(ev)
            pushes = -(-ev.nparams // p["params_per_push"]) if ev.nparams else 0
            push = pushes * p["push_pb_cycles"]
            t_s = (t_s[0] + push, t_s[1])
            c["push_pb_cycles"] += push
            start = max(free[PIPE_V], t_s)
            body_start = start[0]
            if ev.meta.get("scalar_args") and last_ub_read is not None:
                # a parameter read by the scalar unit just before: the push waits inside the PUSHQ slice
                body_start = max(body_start, last_ub_read[1])
            end = body_start + timing.cycles
            i = add(PIPE_V, ev.name, start, end, {"launch": ev.launch, "ipc": round(timing.ipc, 3),
                                                  "instructions": timing.n_ex})
            free[PIPE_V] = done[PIPE_V] = (end, i)
            c["pushq_vf_cycles"] += end - start[0]
            c["vf_count"] += 1
            vfs.append((ev, timing, body_start))
        elif isinstance(ev, QueueOp):
            prod, cons = _PRODUCER.get(ev.position, PIPE_V), _CONSUMER.get(ev.position, PIPE_V)
            key = (ev.queue, ev.slot)
            if ev.op == "alloc":
                wait(prod, slot_free.get(key, zero))
            elif ev.op == "enque":
                enq[key] = done[prod]
            elif ev.op == "deque":
                wait(cons, enq.get(key, zero))
            elif ev.op == "free":
                slot_free[key] = done[cons]
        elif isinstance(ev, ScalarOp):
            start = t_s
            if ev.kind == "gm_read":
                line = (ev.gm, ev.gm_offset // p["dcache_line_bytes"])
                cost = p["gm_read_hit_cycles"] if line in dcache else p["gm_read_miss_cycles"]
                dcache.add(line)
                end = start[0] + cost
            elif ev.kind == "ub_read":
                start = max(t_s, done[PIPE_MTE2], done[PIPE_V])   # UB data hazard: earlier writers first
                last_ub_read = (start[0], start[0] + p["scalar_ub_read_cycles"])
                end = start[0] + 1
            else:
                end = start[0] + 1
            i = add(PIPE_S, ev.kind, start, end, {"bytes": ev.nbytes})
            t_s = (end, i)
            c["scalar_cycles"] += end - start[0]
        elif isinstance(ev, Sync):
            src_t = t_s if ev.src == PIPE_S else done[ev.src]
            if ev.dst == PIPE_S:
                t_s = max(t_s, src_t)
            else:
                wait(ev.dst, src_t)
        elif isinstance(ev, (BufferInit, PipeBarrier)):
            continue
    end = max(max(v[0] for v in done.values()), t_s[0])
    busy = {pipe: _union([(s.start, s.end) for s in slices if s.pipe == pipe]) for pipe in PIPES}
    return CoreTiming(core, end, busy, slices, vfs, c)


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
