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
    """``vf_timing(vfcall) -> VfTiming`` (memoised by the caller)."""
    p = machine.params["timing"]
    free = {pipe: 0 for pipe in PIPES}          # when the pipe can start its next operation
    done = {pipe: 0 for pipe in PIPES}          # when everything issued so far on the pipe completed
    t_s = 0                                     # scalar dispatch time
    last_ub_read = None                         # (issue, ready) of the latest scalar UB read
    enq: dict[tuple, int] = {}
    slot_free: dict[tuple, int] = {}
    dcache: set = set()
    slices: list[Slice] = []
    vfs = []
    c = {"mte2_sum_cycles": 0, "mte3_sum_cycles": 0, "pushq_vf_cycles": 0, "push_pb_cycles": 0, "vf_count": 0,
         "mte2_bytes": 0, "mte3_bytes": 0, "scalar_cycles": 0}

    def wait(pipe: str, t: int) -> None:
        if t > free[pipe]:
            free[pipe] = t
        if t > done[pipe]:
            done[pipe] = t

    for ev in events:
        if isinstance(ev, Dma):
            pipe = ev.pipe
            key = "mte2" if pipe == PIPE_MTE2 else "mte3"
            occ = ev.nbytes / p[f"{key}_bytes_per_cycle"] + max(ev.bursts - 1, 0) * p[f"{key}_burst_cycles"]
            occ = max(int(round(occ)), 1)
            start = max(free[pipe], t_s)
            end = start + p[f"{key}_latency"] + occ
            free[pipe] = start + occ
            done[pipe] = max(done[pipe], end)
            c[f"{key}_sum_cycles"] += end - start
            c[f"{key}_bytes"] += ev.nbytes
            slices.append(Slice(pipe, ev.api, start, end, {"bytes": ev.nbytes, "bursts": ev.bursts, "gm": ev.gm}))
        elif isinstance(ev, VfCall):
            timing = vf_timing(ev)
            pushes = -(-ev.nparams // p["params_per_push"]) if ev.nparams else 0
            push = pushes * p["push_pb_cycles"]
            t_s += push
            c["push_pb_cycles"] += push
            start = max(free[PIPE_V], t_s)
            body_start = start
            if ev.meta.get("scalar_args") and last_ub_read is not None:
                # a parameter read by the scalar unit just before: the push waits inside the PUSHQ slice
                body_start = max(start, last_ub_read[1])
            end = body_start + timing.cycles
            free[PIPE_V] = done[PIPE_V] = end
            c["pushq_vf_cycles"] += end - start
            c["vf_count"] += 1
            vfs.append((ev, timing, body_start))
            slices.append(Slice(PIPE_V, ev.name, start, end, {"launch": ev.launch, "ipc": round(timing.ipc, 3),
                                                                     "instructions": timing.n_ex}))
        elif isinstance(ev, QueueOp):
            prod, cons = _PRODUCER.get(ev.position, PIPE_V), _CONSUMER.get(ev.position, PIPE_V)
            key = (ev.queue, ev.slot)
            if ev.op == "alloc":
                wait(prod, slot_free.get(key, 0))
            elif ev.op == "enque":
                enq[key] = done[prod]
            elif ev.op == "deque":
                wait(cons, enq.get(key, 0))
            elif ev.op == "free":
                slot_free[key] = done[cons]
        elif isinstance(ev, ScalarOp):
            start = t_s
            if ev.kind == "gm_read":
                line = (ev.gm, ev.gm_offset // p["dcache_line_bytes"])
                cost = p["gm_read_hit_cycles"] if line in dcache else p["gm_read_miss_cycles"]
                dcache.add(line)
                t_s += cost
            elif ev.kind == "ub_read":
                issue = max(t_s, done[PIPE_MTE2], done[PIPE_V])   # UB data hazard: earlier writers first
                last_ub_read = (issue, issue + p["scalar_ub_read_cycles"])
                t_s = issue + 1
            else:
                t_s += 1
            c["scalar_cycles"] += t_s - start
            slices.append(Slice(PIPE_S, ev.kind, start, max(t_s, start + 1), {"bytes": ev.nbytes}))
        elif isinstance(ev, Sync):
            src_t = t_s if ev.src == PIPE_S else done[ev.src]
            if ev.dst == PIPE_S:
                t_s = max(t_s, src_t)
            else:
                wait(ev.dst, src_t)
        elif isinstance(ev, (BufferInit, PipeBarrier)):
            continue
    end = max(max(done.values()), t_s)
    busy = {pipe: _union([(s.start, s.end) for s in slices if s.pipe == pipe]) for pipe in PIPES}
    return CoreTiming(core, end, busy, slices, vfs, c)
