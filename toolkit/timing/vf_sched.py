"""VF scheduler: cycles of one VF instance from its instruction stream alone.

Model (all numbers from the machine file):
* Front end: instructions dispatch in program order, ``dispatch_width`` per cycle, into an issue
  queue of ``window`` entries (the shadow queue: an entry is freed when its instruction issues); a
  hardware-loop entry (RV_VLOOP) stalls dispatch for ``loop_entry_cycles``.
* Issue: out of order, ``dispatch_to_issue`` cycles after dispatch at the earliest, when every source
  register is ready (producer issue + its forwarding latency, + ``store_extra_latency`` into a store)
  and a unit is free: execute ops on EXU0/EXU1 (single-issue opcodes on EXU0 only), each occupying its
  unit for the opcode's ``ii``; mask ops on the predicate unit; loads/stores on the UB ports
  (``ub_slots`` accesses per cycle, at most ``ub_write_slots`` writes). RV_MEMBAR holds later memory
  ops until every earlier store has completed + ``membar_release``.
* Trace: an execute op's event lasts its ``duration`` from issue; a load/store event starts when it
  could first issue and ends ``duration`` after it actually issued (queueing shows as longer events,
  as in the vendor trace).
* VF cycles (PUSHQ slice) = last completion + ``vf_fixed_cycles``; steady cycles = last completion.
"""
from __future__ import annotations

import heapq
from dataclasses import dataclass, field

from ..events import ALIAS, ITER, PSEUDO_OPS
from ..machine import Machine

MASK_OPS = frozenset({"RV_PLT", "RV_PSET", "RV_PMOV"})


@dataclass
class VfTiming:
    cycles: int                       #: PUSHQ slice of the VF
    steady: int                       #: instruction schedule span
    n_ex: int                         #: RVECEX instructions (IPC numerator)
    lane_events: dict[str, int]
    lane_sum_cycles: dict[str, int]
    op_count: dict[str, int]
    op_sum_cycles: dict[str, int]
    loop_entries: int
    bounds: dict[str, float]
    slices: list | None = field(default=None, repr=False)   # (lane, opcode, start, end) when detailed

    @property
    def ipc(self) -> float:
        return self.n_ex / self.steady if self.steady else 0.0

    def bottleneck(self, tol: float = 0.02) -> str:
        """The bound within ``tol`` of the simulated steady cycles, or 'mixed'."""
        best = max(self.bounds.items(), key=lambda kv: kv[1], default=("none", 0.0))
        return best[0] if self.steady and best[1] >= (1 - tol) * self.steady else "mixed"


class _Slots:
    """Per-cycle reservation counts with a capacity."""

    __slots__ = ("cap", "used")

    def __init__(self, cap: int):
        self.cap = cap
        self.used: dict[int, int] = {}

    def free(self, t: int, span: int = 1) -> bool:
        u = self.used
        return all(u.get(t + k, 0) < self.cap for k in range(span))

    def take(self, t: int, span: int = 1) -> None:
        u = self.used
        for k in range(span):
            u[t + k] = u.get(t + k, 0) + 1


def schedule(instrs: list, machine: Machine, detail: bool = False) -> VfTiming:
    p = machine.params["timing"]
    width, window, d2i = p["dispatch_width"], p["window"], p["dispatch_to_issue"]
    store_extra, loop_gap, membar_rel = p["store_extra_latency"], p["loop_entry_cycles"], p["membar_release"]
    exu = [_Slots(1) for _ in range(p["ex_units"])]
    pred = _Slots(p["pred_units"])
    ub = _Slots(p["ub_slots"])
    ub_w = _Slots(p["ub_write_slots"])

    ready: dict[int, tuple[int, int]] = {}      # value id -> (issue time, latency)
    waiting: list[int] = []                       # issue times of dispatched instructions (min-heap)
    n_real = 0
    lane_events: dict[str, int] = {}
    lane_sum: dict[str, int] = {}
    op_count: dict[str, int] = {}
    op_sum: dict[str, int] = {}
    slices = [] if detail else None
    d_cycle, d_used, fe_block = 0, 0, 0
    last_store_done, membar_until = 0, 0
    loop_entries = n_ex = 0
    end = 0
    ex_ii = [0.0, 0.0]      # bound accounting: dual-issue and EXU0-only occupancy
    n_mem = n_st = n_pred = 0
    cost = machine.instr

    for op, dst, srcs, _aux in instrs:
        if op in PSEUDO_OPS:
            if op == ALIAS and srcs:
                ready[dst] = ready.get(srcs[0], (0, 0))
            continue
        info = cost(op)
        lane = info.lane
        # ---- dispatch (in order) ----
        d = max(d_cycle, fe_block)
        if d > d_cycle:
            d_cycle, d_used = d, 0
        if d_used >= width:
            d_cycle, d_used = d_cycle + 1, 0
        while waiting and waiting[0] <= d_cycle:
            heapq.heappop(waiting)
        if len(waiting) >= window:
            free_at = heapq.heappop(waiting)
            if free_at > d_cycle:
                d_cycle, d_used = free_at, 0
            while waiting and waiting[0] <= d_cycle:
                heapq.heappop(waiting)
        d = d_cycle
        d_used += 1
        n_real += 1
        if lane == "RVECLP":
            loop_entries += 1
            fe_block = d + loop_gap
            s = d
            done = d + info.duration
            _acc(lane_events, lane_sum, op_count, op_sum, lane, op, info.duration)
            if slices is not None:
                slices.append((lane, op, d, done))
            end = max(end, done)
            continue
        # ---- operands ----
        is_store = lane == "RVECST"
        t = d + d2i
        for sid in srcs:
            got = ready.get(sid)
            if got is not None:
                r = got[0] + got[1] + (store_extra if is_store and got[1] > 1 else 0)
                if r > t:
                    t = r
        if lane in ("RVECLD", "RVECST") and membar_until > t:
            t = membar_until
        # ---- issue on a free unit ----
        span = max(info.ii, 1)
        if lane == "MEMBAR":
            s = max(t, last_store_done + membar_rel)
            membar_until = s
            done = s + info.duration
        elif lane == "RVECEX":
            if op in MASK_OPS:
                while not pred.free(t):
                    t += 1
                pred.take(t)
                n_pred += 1
            else:
                # single-issue ops only fit EXU0; dual ops try the other units first so that EXU0
                # stays available to the single-issue class (what a dynamic scheduler achieves)
                units = exu[:1] if info.issue == "single" else exu[::-1]
                chosen = None
                while chosen is None:
                    for u in units:
                        if u.free(t, span):
                            chosen = u
                            break
                    else:
                        t += 1
                chosen.take(t, span)
                ex_ii[0 if info.issue == "single" else 1] += span
            s = t
            done = s + info.duration
            n_ex += 1
        else:                                   # loads and stores share the UB ports
            while not (ub.free(t, span) and (not is_store or ub_w.free(t, span))):
                t += 1
            ub.take(t, span)
            n_mem += span
            if is_store:
                ub_w.take(t, span)
                n_st += span
            s = t
            done = s + info.duration
            if is_store:
                last_store_done = max(last_store_done, done)
        if dst >= 0:
            ready[dst] = (s, info.latency)
        heapq.heappush(waiting, s)
        start = d + d2i if lane in ("RVECLD", "RVECST") else s
        _acc(lane_events, lane_sum, op_count, op_sum, lane, op, done - start)
        if slices is not None:
            slices.append((lane, op, start, done))
        end = max(end, done)

    steady = end
    units = max(len(exu), 1)
    bounds = {
        "execute units": max(ex_ii[0], (ex_ii[0] + ex_ii[1]) / units),
        "UB ports": max(n_mem / p["ub_slots"], n_st / p["ub_write_slots"]),
        "dispatch": n_real / width,
        "dependency chain": float(_critical_path(instrs, machine, store_extra)),
        "mask unit": n_pred / p["pred_units"],
        "loop entries": float(loop_entries * loop_gap),
    }
    return VfTiming(steady + p["vf_fixed_cycles"], steady, n_ex, lane_events, lane_sum, op_count, op_sum,
                    loop_entries, bounds, slices)


def _acc(lane_events, lane_sum, op_count, op_sum, lane, op, dur) -> None:
    lane_events[lane] = lane_events.get(lane, 0) + 1
    lane_sum[lane] = lane_sum.get(lane, 0) + dur
    op_count[op] = op_count.get(op, 0) + 1
    op_sum[op] = op_sum.get(op, 0) + dur


def _critical_path(instrs: list, machine: Machine, store_extra: int) -> int:
    """Longest register dependency chain (issue-to-ready latencies, completion of the last op)."""
    ready: dict[int, int] = {}
    longest = 0
    for op, dst, srcs, _aux in instrs:
        if op in PSEUDO_OPS:
            if op == ALIAS and srcs:
                ready[dst] = ready.get(srcs[0], 0)
            continue
        info = machine.instr(op)
        start = max((ready.get(s, 0) for s in srcs), default=0)
        if info.lane == "RVECST" and info.latency > 1:
            start += store_extra
        if dst >= 0:
            ready[dst] = start + info.latency
        longest = max(longest, start + info.duration)
    return longest
