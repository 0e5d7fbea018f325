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


def schedule(instrs: list, machine: Machine, detail: bool = False) -> VfTiming:
    p = machine.params["timing"]
    width, window, d2i = p["dispatch_width"], p["window"], p["dispatch_to_issue"]
    store_extra, loop_gap, membar_rel = p["store_extra_latency"], p["loop_entry_cycles"], p["membar_release"]
    ub_slots, ub_wslots, n_exu = p["ub_slots"], p["ub_write_slots"], p["ex_units"]
    rows = _decode(instrs, machine, store_extra)
    n = len(rows)
    disp = [0] * n
    issue = [-1] * n
    exu_busy = [0] * n_exu
    pred_busy = [0] * p["pred_units"]
    ub_used: dict[int, int] = {}
    ubw_used: dict[int, int] = {}
    bank_used: dict = {"rr": p["bank_conflicts"] == "all"}     # cycle -> (read banks, write banks)
    waiting: list[int] = []
    stores_pending: list[int] = []          # issued stores (for membar): completion times
    open_bars: list[int] = []               # unissued membars (program order)
    pc, t, fe_block = 0, 0, 0

    def ready_at(i: int) -> int:
        r = disp[i] + d2i
        for prod, extra in rows[i][5]:
            ip = issue[prod]
            if ip < 0:
                return -1
            v = ip + rows[prod][2] + extra
            if v > r:
                r = v
        return r

    while pc < n or waiting:
        progressed = False
        # ---- dispatch ----
        if t >= fe_block:
            for _ in range(width):
                if pc >= n or len(waiting) >= window:
                    break
                disp[pc] = t
                if rows[pc][1] == LOOP:
                    issue[pc] = t
                    fe_block = t + loop_gap
                    pc += 1
                    progressed = True
                    break
                if rows[pc][1] == BAR:
                    open_bars.append(pc)
                waiting.append(pc)
                pc += 1
                progressed = True
        # ---- issue: loads and other ops oldest first, then stores ----
        if waiting:
            still = []
            deferred = []
            for i in waiting:
                cls = rows[i][1]
                if cls == ST:
                    deferred.append(i)
                    continue
                if not _try_issue(i, cls, t, rows, ready_at, exu_busy, pred_busy, ub_used, ubw_used, ub_slots,
                                  ub_wslots, open_bars, stores_pending, membar_rel, issue, bank_used):
                    still.append(i)
                else:
                    progressed = True
            for i in deferred:
                if not _try_issue(i, ST, t, rows, ready_at, exu_busy, pred_busy, ub_used, ubw_used, ub_slots,
                                  ub_wslots, open_bars, stores_pending, membar_rel, issue, bank_used):
                    still.append(i)
                else:
                    progressed = True
            if deferred:
                still.sort()
            waiting = still
        if progressed or not waiting:
            t += 1
            continue
        # nothing happened: jump to the next cycle at which something can change
        nxt = [fe_block] if pc < n else []
        for i in waiting:
            r = ready_at(i)
            if r > t:
                nxt.append(r)
        nxt += [b for b in exu_busy if b > t] + [b for b in pred_busy if b > t]
        nxt += [s for s in stores_pending if s + membar_rel > t]
        future = [x for x in nxt if x > t]
        t = min(future) if future else t + 1
    return _summarise(rows, disp, issue, ready_at, p, detail, machine)


def _try_issue(i, cls, t, rows, ready_at, exu_busy, pred_busy, ub_used, ubw_used, ub_slots, ub_wslots,
               open_bars, stores_pending, membar_rel, issue, bank_used) -> bool:
    r = ready_at(i)
    if r < 0 or r > t:
        return False
    span = rows[i][4]
    if cls in (LD, ST):
        if open_bars and open_bars[0] < i:
            return False
        bank = rows[i][7]
        for k in range(span):
            if ub_used.get(t + k, 0) >= ub_slots or (cls == ST and ubw_used.get(t + k, 0) >= ub_wslots):
                return False
            if bank:
                reads, writes = bank_used.get(t + k, (0, 0))
                if bank & writes or (cls == ST or bank_used.get("rr")) and bank & reads:
                    return False
        for k in range(span):
            ub_used[t + k] = ub_used.get(t + k, 0) + 1
            if bank:
                reads, writes = bank_used.get(t + k, (0, 0))
                bank_used[t + k] = (reads, writes | bank) if cls == ST else (reads | bank, writes)
            if cls == ST:
                ubw_used[t + k] = ubw_used.get(t + k, 0) + 1
        if cls == ST:
            stores_pending.append(t + rows[i][3])
    elif cls == EX or cls == EX0:
        units = (0,) if cls == EX0 else tuple(range(len(exu_busy) - 1, -1, -1))
        for u in units:
            if exu_busy[u] <= t:
                exu_busy[u] = t + span
                break
        else:
            return False
    elif cls == MASK:
        for u in range(len(pred_busy)):
            if pred_busy[u] <= t:
                pred_busy[u] = t + span
                break
        else:
            return False
    elif cls == BAR:
        if any(issue[j] < 0 for j in range(i) if rows[j][1] == ST) or any(s + membar_rel > t for s in stores_pending):
            return False
        open_bars.remove(i)
        stores_pending.clear()
    issue[i] = t
    return True


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
