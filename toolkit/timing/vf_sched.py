"""VF scheduler: cycles of one VF instance from its instruction stream alone (cycle-stepped).

Model (all numbers from the machine file):
* Front end: instructions dispatch in program order, ``dispatch_width`` per cycle, into an issue
  queue of ``window`` entries (the shadow queue: an entry is freed when its instruction issues); a
  hardware-loop entry (RV_VLOOP) ends the dispatch group and stalls dispatch for ``loop_entry_cycles``.
* Issue: out of order, at the earliest ``dispatch_to_issue`` cycles after dispatch, once every source
  register is ready (producer issue + its forwarding latency, + ``store_extra_latency`` into a store)
  and a unit is free: execute ops on EXU0/EXU1 (single-issue opcodes on EXU0 only), each occupying its
  unit for the opcode's ``ii``; mask ops on the predicate unit; loads/stores on the UB ports
  (``ub_slots`` accesses per cycle, at most ``ub_write_slots`` writes; with ``bank_conflicts`` "rw" a
  store may not share a bank with another access of its cycle, "all" also serialises same-bank reads).
  Arbitration is oldest first,
  except on the UB ports where ready loads go before stores. RV_MEMBAR holds later memory ops until
  every earlier store has completed + ``membar_release``.
* Trace: an execute op's event lasts its ``duration`` from issue; a load/store event starts when its
  operands are ready and ends ``duration`` after it actually issued (queueing for a UB port shows as
  a longer event, as in the vendor trace).
* VF cycles (PUSHQ slice) = last completion + ``vf_fixed_cycles``; steady cycles = last completion.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..events import ALIAS, PSEUDO_OPS
from ..machine import Machine

MASK_OPS = frozenset({"RV_PLT", "RV_PSET", "RV_PMOV"})
EX, EX0, MASK, LD, ST, LOOP, BAR = range(7)


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


def _decode(instrs: list, machine: Machine, store_extra: int):
    """Real instructions with class, costs and dependencies on producer indices."""
    producer: dict[int, int] = {}
    rows = []
    banks = machine.params["timing"]["bank_conflicts"] != "none"
    for op, dst, srcs, aux in instrs:
        if op in PSEUDO_OPS:
            if op == ALIAS and srcs and srcs[0] in producer:
                producer[dst] = producer[srcs[0]]
            continue
        info = machine.instr(op)
        lane = info.lane
        if lane == "RVECLP":
            cls = LOOP
        elif lane == "MEMBAR":
            cls = BAR
        elif lane == "RVECLD":
            cls = LD
        elif lane == "RVECST":
            cls = ST
        elif op in MASK_OPS:
            cls = MASK
        else:
            cls = EX0 if info.issue == "single" else EX
        deps = []
        for s in srcs:
            p = producer.get(s)
            if p is not None:
                extra = store_extra if cls == ST and rows[p][2] > 1 else 0
                deps.append((p, extra))
        idx = len(rows)
        if dst >= 0:
            producer[dst] = idx
        bank = aux[1] if banks and cls in (LD, ST) and isinstance(aux, tuple) else 0
        rows.append((op, cls, info.latency, info.duration, max(info.ii, 1), tuple(deps), lane, bank))
    return rows


class _VectorCore:
    """Mutable state of one schedule: unit and UB-port reservations, the issue queue, membars."""

    def __init__(self, rows: list, p) -> None:
        self.rows = rows
        self.d2i, self.membar_rel = p["dispatch_to_issue"], p["membar_release"]
        self.ub_slots, self.ub_wslots = p["ub_slots"], p["ub_write_slots"]
        self.same_bank_reads_conflict = p["bank_conflicts"] == "all"
        n = len(rows)
        self.disp = [0] * n
        self.issue = [-1] * n
        self.exu_busy = [0] * p["ex_units"]
        self.pred_busy = [0] * p["pred_units"]
        self.ub_used: dict[int, int] = {}
        self.ubw_used: dict[int, int] = {}
        self.banks: dict[int, tuple[int, int]] = {}       # cycle -> (read bank mask, write bank mask)
        self.stores_pending: list[int] = []                 # completion times of stores issued since a membar
        self.open_bars: list[int] = []                      # dispatched, unissued membars (program order)

    def ready_at(self, i: int) -> int:
        """Earliest issue cycle of instruction i (-1 while a producer has not issued)."""
        rows, issue = self.rows, self.issue
        r = self.disp[i] + self.d2i
        for prod, extra in rows[i][5]:
            ip = issue[prod]
            if ip < 0:
                return -1
            v = ip + rows[prod][2] + extra
            if v > r:
                r = v
        return r

    def try_issue(self, i: int, t: int) -> bool:
        r = self.ready_at(i)
        if r < 0 or r > t:
            return False
        cls, span = self.rows[i][1], self.rows[i][4]
        if cls in (LD, ST):
            if not self._ub_ports(i, cls, span, t):
                return False
        elif cls == EX or cls == EX0:
            # single-issue ops fit EXU0 only; dual ops try the other units first so that EXU0 stays
            # available to the single-issue class (what a dynamic scheduler achieves)
            units = (0,) if cls == EX0 else range(len(self.exu_busy) - 1, -1, -1)
            if not self._take(self.exu_busy, units, t, span):
                return False
        elif cls == MASK:
            if not self._take(self.pred_busy, range(len(self.pred_busy)), t, span):
                return False
        elif cls == BAR:
            if (any(self.issue[j] < 0 for j in range(i) if self.rows[j][1] == ST)
                    or any(s + self.membar_rel > t for s in self.stores_pending)):
                return False
            self.open_bars.remove(i)
            self.stores_pending.clear()
        self.issue[i] = t
        return True

    @staticmethod
    def _take(busy: list[int], units, t: int, span: int) -> bool:
        for u in units:
            if busy[u] <= t:
                busy[u] = t + span
                return True
        return False

    def _ub_ports(self, i: int, cls: int, span: int, t: int) -> bool:
        """Reserve UB port slots (and banks) for a load/store issuing at t, if free."""
        if self.open_bars and self.open_bars[0] < i:
            return False
        bank = self.rows[i][7]
        store = cls == ST
        for k in range(span):
            if self.ub_used.get(t + k, 0) >= self.ub_slots or (store and self.ubw_used.get(t + k, 0) >= self.ub_wslots):
                return False
            if bank:
                reads, writes = self.banks.get(t + k, (0, 0))
                if bank & writes or (store or self.same_bank_reads_conflict) and bank & reads:
                    return False
        for k in range(span):
            self.ub_used[t + k] = self.ub_used.get(t + k, 0) + 1
            if bank:
                reads, writes = self.banks.get(t + k, (0, 0))
                self.banks[t + k] = (reads, writes | bank) if store else (reads | bank, writes)
            if store:
                self.ubw_used[t + k] = self.ubw_used.get(t + k, 0) + 1
        if store:
            self.stores_pending.append(t + self.rows[i][3])
        return True

    def next_event(self, t: int, waiting: list[int], fe_block: int | None) -> int:
        """The next cycle at which something can change (when nothing happened at t)."""
        nxt = [fe_block] if fe_block is not None else []
        nxt += [r for r in map(self.ready_at, waiting) if r > t]
        nxt += [b for b in self.exu_busy if b > t] + [b for b in self.pred_busy if b > t]
        nxt += [s + self.membar_rel for s in self.stores_pending]
        future = [x for x in nxt if x > t]
        return min(future) if future else t + 1


def schedule(instrs: list, machine: Machine, detail: bool = False) -> VfTiming:
    p = machine.params["timing"]
    width, window, loop_gap = p["dispatch_width"], p["window"], p["loop_entry_cycles"]
    rows = _decode(instrs, machine, p["store_extra_latency"])
    n = len(rows)
    core = _VectorCore(rows, p)
    disp, issue = core.disp, core.issue
    waiting: list[int] = []
    pc, t, fe_block = 0, 0, 0
    while pc < n or waiting:
        progressed = False
        # ---- dispatch, in program order ----
        if t >= fe_block:
            for _ in range(width):
                if pc >= n or len(waiting) >= window:
                    break
                disp[pc] = t
                progressed = True
                if rows[pc][1] == LOOP:             # the loop entry ends the dispatch group
                    issue[pc] = t
                    fe_block = t + loop_gap
                    pc += 1
                    break
                if rows[pc][1] == BAR:
                    core.open_bars.append(pc)
                waiting.append(pc)
                pc += 1
        # ---- issue: loads and other ops oldest first, then stores ----
        if waiting:
            still = [i for i in waiting if rows[i][1] != ST and not core.try_issue(i, t)]
            stores = [i for i in waiting if rows[i][1] == ST]
            still += [i for i in stores if not core.try_issue(i, t)]
            progressed = progressed or len(still) < len(waiting)
            if stores:
                still.sort()
            waiting = still
        if progressed or not waiting:
            t += 1
        else:
            t = core.next_event(t, waiting, fe_block if pc < n else None)
    return _summarise(rows, disp, issue, core.ready_at, p, detail, machine)


def _summarise(rows, disp, issue, ready_at, p, detail, machine) -> VfTiming:
    lane_events: dict[str, int] = {}
    lane_sum: dict[str, int] = {}
    op_count: dict[str, int] = {}
    op_sum: dict[str, int] = {}
    slices = [] if detail else None
    end = n_ex = loop_entries = 0
    ex_ii = [0, 0]
    n_mem = n_st = n_pred = 0
    tail = {"ex": 10 ** 9, "mem": 10 ** 9, "st": 10 ** 9, "pred": 10 ** 9, "any": 10 ** 9}
    for i, (op, cls, lat, dur, span, deps, lane, _bank) in enumerate(rows):
        s = issue[i]
        done = s + dur
        if cls in (LD, ST):
            start = ready_at(i)
            n_mem += span
            tail["mem"] = min(tail["mem"], dur)
            if cls == ST:
                n_st += span
                tail["st"] = min(tail["st"], dur)
        else:
            start = s
        if cls == LOOP:
            loop_entries += 1
        elif cls in (EX, EX0, MASK):
            n_ex += 1
            if cls == MASK:
                n_pred += 1
                tail["pred"] = min(tail["pred"], dur)
            else:
                ex_ii[0 if cls == EX0 else 1] += span
                tail["ex"] = min(tail["ex"], dur)
        tail["any"] = min(tail["any"], dur)
        lane_events[lane] = lane_events.get(lane, 0) + 1
        lane_sum[lane] = lane_sum.get(lane, 0) + (done - start)
        op_count[op] = op_count.get(op, 0) + 1
        op_sum[op] = op_sum.get(op, 0) + (done - start)
        if slices is not None:
            slices.append((lane, op, start, done))
        if done > end:
            end = done
    # each throughput bound includes the unavoidable fill (dispatch to first issue) and drain (the
    # shortest duration of that class after its last issue), so a stream limited by one resource
    # meets its bound exactly
    d2i = p["dispatch_to_issue"]
    edge = {k: (d2i + v - 1 if v < 10 ** 9 else 0) for k, v in tail.items()}
    units = max(p["ex_units"], 1)
    occ = {
        "execute units": (max(float(ex_ii[0]), (ex_ii[0] + ex_ii[1]) / units), "ex"),
        "UB ports": (max(n_mem / p["ub_slots"], n_st / p["ub_write_slots"]), "mem"),
        "dispatch": (len(rows) / p["dispatch_width"], "any"),
        "mask unit": (n_pred / p["pred_units"], "pred"),
    }
    bounds = {name: (v + edge[k] if v else 0.0) for name, (v, k) in occ.items()}
    bounds["dependency chain"] = float(_critical_path(rows, p["membar_release"]) + d2i)
    bounds["loop entries"] = float(loop_entries * p["loop_entry_cycles"])
    return VfTiming(end + p["vf_fixed_cycles"], end, n_ex, lane_events, lane_sum, op_count, op_sum,
                    loop_entries, bounds, slices)


def _critical_path(rows, membar_release: int = 1) -> int:
    """Longest dependency chain: register dependencies (issue-to-ready latencies) and the memory order a
    MEMBAR imposes (later loads/stores after every earlier store completed), plus the last duration."""
    ready = [0] * len(rows)
    longest = stores_done = gate = 0
    for i, (op, cls, lat, dur, span, deps, lane, _bank) in enumerate(rows):
        start = max((ready[pi] + extra for pi, extra in deps), default=0)
        if cls == BAR:
            gate = max(start, stores_done + membar_release)
            start = gate
        elif cls in (LD, ST):
            start = max(start, gate)
            if cls == ST:
                stores_done = max(stores_done, start + dur)
        ready[i] = start + lat
        longest = max(longest, start + dur)
    return longest
