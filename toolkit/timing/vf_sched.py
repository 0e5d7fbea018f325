"""VF scheduler: cycles of one VF instance from its instruction stream alone (cycle-stepped).

Model (every number from the machine file, ``[timing]`` and the per-opcode entries):
* Start and drain: an isolated VF dispatches its first instruction ``vf_start_cycles`` after it
  starts and ends ``vf_drain_cycles`` after its last instruction completes (``vf_time``); in the
  PUSHQ slices of VFs launched back to back the start overlaps the previous VF (``cycles``). The
  vendor's cycle-accurate model logs a VF from its dispatch (``log_cycles``): ``vf_log_extra_cycles``
  more than ``vf_time``.
* Front end: instructions dispatch in program order, ``dispatch_width`` per cycle, into an issue
  queue of ``window`` entries (an entry is freed when its instruction issues). A hardware-loop entry
  (RV_VLOOP) ends the dispatch group and stalls dispatch for ``loop_entry_cycles``; every loop
  iteration starts a new dispatch group at least ``iteration_cycles`` after the previous one (the
  per-iteration cost of a hardware loop). Every vector value needs a physical register from
  dispatch until its last reader issued + ``reg_release`` (renaming: unrolled copies and
  long-lived values hold more of the ``phys_vregs``); dispatch stalls when none is free.
* Issue: out of order, at the earliest ``dispatch_to_issue`` cycles after dispatch, once every source
  is ready (producer issue + its forwarding latency, + ``store_extra_latency`` into a store) and its
  unit is free. Units (the opcode's ``unit``): "alu" either execute unit EXU0/EXU1, "alu0" EXU0 only
  (single-issue class), each occupied for the opcode's ``ii``; "sfu" (VDIV, VEXP, ...) takes an
  execute unit for one issue cycle and one of ``sfu_units`` special-function pipes for its ``ii``
  (+ ``sfu_switch_cycles`` when the pipe changes opcode), so simple ops keep dual-issuing beside a
  long op; "pred" the mask unit; "load"/"store" the UB ports (``ub_slots`` accesses per cycle, at
  most ``ub_write_slots`` writes; banks from the recorded UB address: with ``bank_conflicts`` "rw"
  a store may not share a bank with another access of its cycle, "all" also serialises same-bank
  reads); a store also holds one of ``store_queue`` entries until it completes. Arbitration is oldest
  first, except on the UB ports where ready loads go before stores. RV_MEMBAR holds later memory ops
  until every earlier store has completed + ``membar_release``.
* Trace: an execute op's event lasts its ``duration`` from issue; a load/store event starts when its
  operands are ready and ends ``duration`` after it actually issued (queueing shows as a longer event).
"""
from __future__ import annotations

import heapq
from collections import deque
from dataclasses import dataclass, field
from typing import NamedTuple

from toolkit.machine import Machine
from toolkit.record.events import ALIAS, BLOCK_STRIDED, ITER, PSEUDO_OPS, Instr

ALU, ALU0, SFU, PRED, LD, ST, LOOP, BAR = range(8)
_UNIT_CLASS = {"alu": ALU, "alu0": ALU0, "sfu": SFU, "pred": PRED, "load": LD, "store": ST, "loop": LOOP,
               "membar": BAR}
_VALUE_CLASSES = (ALU, ALU0, SFU, LD)       # classes whose result occupies a physical vector register
_CLASS_NAME = {v: k for k, v in _UNIT_CLASS.items()}


@dataclass
class VfTiming:
    cycles: int                       #: PUSHQ slice of the VF (back to back): schedule + drain
    steady: int                       #: instruction schedule span (first dispatch to last completion)
    n_ex: int                         #: RVECEX instructions (IPC numerator)
    lane_events: dict[str, int]
    lane_sum_cycles: dict[str, int]
    op_count: dict[str, int]
    op_sum_cycles: dict[str, int]
    loop_entries: int
    bounds: dict[str, float]
    slices: list | None = field(default=None, repr=False)   # (lane, opcode, start, end) when detailed
    vf_time: int = 0                  #: one isolated VF from start to end: start + schedule + drain
    log_cycles: int = 0               #: the VF as the vendor's instruction log (camodel) times it
    stalls: dict = field(default_factory=dict, repr=False)  #: cycles without issue, by what held the oldest

    @property
    def ipc(self) -> float:
        return self.n_ex / self.steady if self.steady else 0.0

    def bottleneck(self, tol: float = 0.02) -> str:
        """The bound within ``tol`` of the simulated steady cycles; else, when the VF stalls (no issue)
        for at least a quarter of its cycles, what held it (e.g. "dependency chain: 40% of the cycles
        waiting for RV_VCADD, RV_VDIV"); else 'mixed'."""
        best = max(self.bounds.items(), key=lambda kv: kv[1], default=("none", 0.0))
        if self.steady and best[1] >= (1 - tol) * self.steady:
            return best[0]
        waits = sorted(((c, r[5:]) for r, c in self.stalls.items() if r.startswith("wait ")), reverse=True)
        waited = sum(c for c, _ in waits)
        if self.steady and waited >= 0.25 * self.steady:
            top = [op for c, op in waits if c >= 0.1 * waited][:3]
            return f"dependency chain ({100 * waited / self.steady:.0f}% of the cycles waiting for {', '.join(top)})"
        return f"mixed (highest bound: {best[0]}, {100 * best[1] / self.steady:.0f}%)" if self.steady else "mixed"


class Row(NamedTuple):
    """A decoded instruction: costs from the machine file, dependencies as producer row indices."""

    op: str
    cls: int
    lat: int
    dur: int
    span: int                 #: cycles its unit stays busy (ii)
    deps: tuple               #: ((producer row, extra latency), ...)
    lane: str
    bank: int                 #: UB bank bit mask of a load/store (0: none recorded or banks off)
    iter_start: bool          #: first instruction of a hardware-loop iteration
    value: bool               #: writes a vector register (needs a physical register)


def ub_banks(machine: Machine, addr: int, nbytes: int, blocks: int = 0, stride: int = 1) -> int:
    """Bit mask of the (bank group, bank) pairs touched by the 32 B blocks of [addr, addr + nbytes), or
    by ``blocks`` blocks ``stride`` blocks apart from ``addr``: bit ``bank * groups + group``
    (ascend950-facts 1.2: address bits [7:5] pick the group, bit [8] the bank)."""
    core = machine.params["core"]
    block, groups, banks = core["block_bytes"], core["ub_bank_groups"], core["ub_banks_per_group"]
    first = addr // block
    idx = (range(first, first + blocks * stride, stride) if blocks
           else range(first, (addr + max(nbytes, 1) - 1) // block + 1))
    mask, full = 0, (1 << groups * banks) - 1
    for blk in idx:
        mask |= 1 << ((blk // groups) % banks * groups + blk % groups)
        if mask == full:
            break
    return mask


def _bank(ins: Instr, machine: Machine) -> int:
    """Banks of a load/store from its recorded UB address (0: no address recorded)."""
    if ins.ub_addr < 0 or not ins.ub_bytes:
        return 0
    if ins.dist == BLOCK_STRIDED:
        return ub_banks(machine, ins.ub_addr, 0, machine.params["core"]["blocks_per_repeat"], max(int(ins.aux), 1))
    return ub_banks(machine, ins.ub_addr, ins.ub_bytes)


def decode(instrs: list, machine: Machine) -> tuple[list[Row], list[int]]:
    """Real instructions as rows, and per row the row index of the last reader of its value (-1: none)."""
    store_extra = machine.params["timing"]["store_extra_latency"]
    banks_on = machine.params["timing"]["bank_conflicts"] != "none"
    producer: dict[int, int] = {}
    rows: list[Row] = []
    last_reader: list[int] = []
    iter_start = False
    costs: dict[str, tuple] = {}                  # opcode -> (cost entry, unit class), looked up once
    for raw in instrs:
        ins = raw if isinstance(raw, Instr) else Instr(*raw)
        if ins.opcode in PSEUDO_OPS:
            if ins.opcode == ALIAS and ins.srcs and ins.srcs[0] in producer:
                producer[ins.dst] = producer[ins.srcs[0]]
            iter_start = iter_start or ins.opcode == ITER
            continue
        got = costs.get(ins.opcode)
        if got is None:
            info = machine.instr(ins.opcode)
            got = costs[ins.opcode] = (info, _UNIT_CLASS[info.unit])
        info, cls = got
        idx = len(rows)
        deps = []
        for s in ins.srcs:
            p = producer.get(s)
            if p is not None:
                deps.append((p, store_extra if cls == ST and rows[p].lat > 1 else 0))
                last_reader[p] = idx
        if ins.dst >= 0:
            producer[ins.dst] = idx
        bank = _bank(ins, machine) if banks_on and cls in (LD, ST) else 0
        rows.append(Row(ins.opcode, cls, info.latency, info.duration, max(info.ii, 1), tuple(deps), info.lane,
                        bank, iter_start, ins.dst >= 0 and cls in _VALUE_CLASSES))
        last_reader.append(-1)
        iter_start = False
    return rows, last_reader


class _VectorCore:
    """Mutable state of one schedule: unit, UB-port and register reservations, the issue queue."""

    def __init__(self, rows: list[Row], last_reader: list[int], p) -> None:
        self.rows = rows
        self.d2i, self.membar_rel = p["dispatch_to_issue"], p["membar_release"]
        self.ub_slots, self.ub_wslots = p["ub_slots"], p["ub_write_slots"]
        self.same_bank_reads_conflict = p["bank_conflicts"] == "all"
        self.sfu_switch, self.store_queue = p["sfu_switch_cycles"], p["store_queue"]
        self.reg_release = p["reg_release"]
        self.store_bank_extra = p["store_bank_cycles"] - 1
        n = len(rows)
        self.disp = [0] * n
        self.issue = [-1] * n
        self.rdy = [-1] * n                                 # ready cycle once every producer has issued
        self.blocker = [-1] * n                             # a producer not yet issued when last checked
        self.stalls: dict[str, int] = {}                    # cycles without issue, by reason
        self.exu_busy = [0] * p["ex_units"]
        self.sfu_busy = [0] * p["sfu_units"]
        self.sfu_last: list[str | None] = [None] * p["sfu_units"]
        self.pred_busy = [0] * p["pred_units"]
        self.ub_used: dict[int, int] = {}
        self.ubw_used: dict[int, int] = {}
        self.banks: dict[int, tuple[int, int]] = {}       # cycle -> (read bank mask, write bank mask)
        self.stores_inflight: list[int] = []                # completion times of issued stores (heap)
        self.stores_pending: list[int] = []                 # completion times of stores issued since a membar
        self.open_bars: list[int] = []                      # dispatched, unissued membars (program order)
        self.open_stores: deque[int] = deque()              # dispatched stores, program order (issued ones
                                                            # dropped from the front when a membar looks)
        self.free_regs = p["phys_vregs"]
        self.reg_frees: list[int] = []                      # cycles at which a physical register frees (heap)
        self.releases_by = [[] for _ in range(n)]           # row -> producers whose last reader it is
        for prod, reader in enumerate(last_reader):
            if reader >= 0 and rows[prod].value:
                self.releases_by[reader].append(prod)
        # the waiting rows (dispatched, not issued), kept apart by what they wait for, so that a cycle
        # looks only at the rows that can issue in it (a latency-bound stream keeps most of its window
        # waiting for operands; scanning all of it every cycle was most of the scheduler's time)
        self.nwait = 0
        self.ready: list[int] = []                          # ready (rdy <= t), not issued; sorted by row
        self.pending: list[tuple[int, int]] = []            # (rdy, row) with rdy in the future (heap)
        self.dependents: dict[int, list[int]] = {}          # unissued producer -> rows it blocks
        self.by_age: list[int] = []                         # every waiting row (heap, issued ones popped lazily)
        self.fresh: list[int] = []                          # rows made ready at t by an issue at t

    # ---- front end ----------------------------------------------------------------------------
    def reg_available(self, t: int) -> bool:
        frees = self.reg_frees
        while frees and frees[0] <= t:
            heapq.heappop(frees)
            self.free_regs += 1
        return self.free_regs > 0

    def allocate(self, i: int, last_reader: int) -> None:
        self.free_regs -= 1
        if last_reader < 0:                                 # never read: free when it completes
            self.releases_by[i].append(i)

    # ---- issue --------------------------------------------------------------------------------
    def ready_at(self, i: int) -> int:
        """Earliest issue cycle of row i (-1 while a producer has not issued; ``blocker`` remembers it)."""
        r = self.rdy[i]
        if r >= 0:
            return r
        rows, issue = self.rows, self.issue
        b = self.blocker[i]
        if b >= 0 and issue[b] < 0:
            return -1
        r = self.disp[i] + self.d2i
        for prod, extra in rows[i].deps:
            ip = issue[prod]
            if ip < 0:
                self.blocker[i] = prod
                return -1
            v = ip + rows[prod].lat + extra
            if v > r:
                r = v
        self.rdy[i] = r
        return r

    def admit(self, i: int, t: int) -> None:
        """Row i is dispatched at t: file it by what it waits for."""
        self.nwait += 1
        heapq.heappush(self.by_age, i)
        self._file(i, t)

    def _file(self, i: int, t: int) -> None:
        r = self.ready_at(i)
        if r < 0:
            self.dependents.setdefault(self.blocker[i], []).append(i)
        elif r > t:
            heapq.heappush(self.pending, (r, i))
        else:
            self.fresh.append(i)

    def issue_pass(self, t: int) -> int:
        """One cycle of issue: ready loads and other ops oldest first, then ready stores; returns how
        many issued. A row made ready at t by an issue at t (a zero latency) is tried in this cycle when
        it comes later in that order, as a scan of every waiting row in row order would."""
        rows, pending, ready = self.rows, self.pending, self.ready
        if self.fresh:
            ready += self.fresh
            self.fresh = []
        while pending and pending[0][0] <= t:
            ready.append(heapq.heappop(pending)[1])
        ready.sort()
        still: list[int] = []
        stores: list[int] = []
        issued, k = 0, 0
        while k < len(ready):
            i = ready[k]
            k += 1
            if rows[i].cls == ST:
                stores.append(i)
                continue
            if self.try_issue(i, t):
                issued += 1
                if self.fresh:
                    ready, stores = self._merge_fresh(ready, k, i, still, stores)
            else:
                still.append(i)
        for i in sorted(stores):
            if self.try_issue(i, t):
                issued += 1
            else:
                still.append(i)
        self.ready = still
        self.nwait -= issued
        return issued

    def _merge_fresh(self, ready: list[int], k: int, at: int, still: list[int], stores: list[int]):
        """Rows made ready at this cycle: later ones join this pass (in order), earlier ones wait for the
        next cycle, stores join this cycle's store phase."""
        fresh, self.fresh = self.fresh, []
        later = []
        for j in fresh:
            if self.rows[j].cls == ST:
                stores.append(j)
            elif j > at:
                later.append(j)
            else:
                still.append(j)
        if later:
            ready = ready[:k] + sorted(ready[k:] + later)
        return ready, stores

    def oldest(self) -> int:
        """The oldest waiting row (-1: none)."""
        ages, issue = self.by_age, self.issue
        while ages and issue[ages[0]] >= 0:
            heapq.heappop(ages)
        return ages[0] if ages else -1

    def try_issue(self, i: int, t: int) -> bool:
        """Issue row i at t if its unit is free (only ready rows are offered: ``rdy[i] <= t``)."""
        row = self.rows[i]
        cls, span = row.cls, row.span
        if cls == LD or cls == ST:
            if not self._ub_ports(i, row, t):
                return False
        elif cls == ALU or cls == ALU0:
            # single-issue ops fit EXU0 only; dual ops try the other units first so that EXU0 stays
            # available to the single-issue class (what a dynamic scheduler achieves)
            units = (0,) if cls == ALU0 else range(len(self.exu_busy) - 1, -1, -1)
            if not self._take(self.exu_busy, units, t, span):
                return False
        elif cls == SFU:
            if not self._sfu(row, t):
                return False
        elif cls == PRED:
            if not self._take(self.pred_busy, range(len(self.pred_busy)), t, span):
                return False
        elif cls == BAR:
            stores = self.open_stores
            while stores and self.issue[stores[0]] >= 0:
                stores.popleft()
            if stores and stores[0] < i or any(s + self.membar_rel > t for s in self.stores_pending):
                return False
            self.open_bars.remove(i)
            self.stores_pending.clear()
        self.issue[i] = t
        for prod in self.releases_by[i]:
            done = t + row.dur if prod == i else t + self.reg_release
            heapq.heappush(self.reg_frees, done)
        blocked = self.dependents.pop(i, None)
        if blocked:
            for j in blocked:
                self._file(j, t)
        return True

    @staticmethod
    def _take(busy: list[int], units, t: int, span: int) -> bool:
        for u in units:
            if busy[u] <= t:
                busy[u] = t + span
                return True
        return False

    def _sfu(self, row: Row, t: int) -> bool:
        """A long op: one issue cycle on an execute unit, its ``ii`` on a special-function pipe."""
        exu = next((u for u in range(len(self.exu_busy) - 1, -1, -1) if self.exu_busy[u] <= t), None)
        if exu is None:
            return False
        for k, busy in enumerate(self.sfu_busy):
            last = self.sfu_last[k]
            if busy + (self.sfu_switch if last is not None and last != row.op else 0) <= t:
                self.exu_busy[exu] = t + 1
                self.sfu_busy[k] = t + row.span
                self.sfu_last[k] = row.op
                return True
        return False

    def _ub_ports(self, i: int, row: Row, t: int) -> bool:
        """Reserve UB port slots, banks and a store-queue entry for a load/store issuing at t, if free."""
        if self.open_bars and self.open_bars[0] < i:
            return False
        store = row.cls == ST
        if store:
            q = self.stores_inflight
            while q and q[0] <= t:
                heapq.heappop(q)
            if len(q) >= self.store_queue:
                return False
        bank, span = row.bank, row.span
        hold = span + self.store_bank_extra if store else span      # a write keeps its banks longer
        for k in range(hold):
            if k < span and (self.ub_used.get(t + k, 0) >= self.ub_slots
                             or store and self.ubw_used.get(t + k, 0) >= self.ub_wslots):
                return False
            if bank:
                reads, writes = self.banks.get(t + k, (0, 0))
                if bank & writes or (store or self.same_bank_reads_conflict) and bank & reads:
                    return False
        for k in range(hold):
            if k < span:
                self.ub_used[t + k] = self.ub_used.get(t + k, 0) + 1
                if store:
                    self.ubw_used[t + k] = self.ubw_used.get(t + k, 0) + 1
            if bank:
                reads, writes = self.banks.get(t + k, (0, 0))
                self.banks[t + k] = (reads, writes | bank) if store else (reads | bank, writes)
        if store:
            heapq.heappush(self.stores_inflight, t + row.dur)
            self.stores_pending.append(t + row.dur)
        return True

    def stall(self, oldest: int, t: int, cycles: int) -> None:
        """Account ``cycles`` without any issue to what holds the oldest waiting instruction: the
        producer it waits for ("wait RV_X"), its busy unit ("unit <cls>"), or the front end."""
        if oldest < 0:
            reason = "front end"
        else:
            r = self.ready_at(oldest)
            deps = self.rows[oldest].deps
            if (r < 0 or r > t) and deps:
                late = max(deps, key=lambda d: 10 ** 9 if self.issue[d[0]] < 0
                           else self.issue[d[0]] + self.rows[d[0]].lat + d[1])
                reason = "wait " + self.rows[late[0]].op
            else:
                reason = "unit " + _CLASS_NAME[self.rows[oldest].cls]
        self.stalls[reason] = self.stalls.get(reason, 0) + cycles

    def next_event(self, t: int, fe_block: int | None) -> int:
        """The next cycle at which something can change (when nothing happened at t)."""
        nxt = [fe_block] if fe_block is not None else []
        if self.pending:
            nxt.append(self.pending[0][0])
        nxt += self.exu_busy + self.pred_busy + self.stores_inflight[:1] + self.reg_frees[:1]
        nxt += [b + self.sfu_switch for b in self.sfu_busy] + [s + self.membar_rel for s in self.stores_pending]
        return min((x for x in nxt if x > t), default=t + 1)


def schedule(instrs: list, machine: Machine, detail: bool = False) -> VfTiming:
    p = machine.params["timing"]
    rows, last_reader = decode(instrs, machine)
    core = _VectorCore(rows, last_reader, p)
    _run(core, rows, last_reader, p)
    from .vf_bounds import summarise
    timing = summarise(rows, core, p, detail)
    timing.stalls = core.stalls
    return timing


def _run(core: _VectorCore, rows: list[Row], last_reader: list[int], p) -> None:
    """Dispatch and issue cycle by cycle until every row has issued."""
    width, window, loop_gap, iter_gap = p["dispatch_width"], p["window"], p["loop_entry_cycles"], p["iteration_cycles"]
    n = len(rows)
    disp = core.disp
    pc, t, fe_block, last_iter = 0, 0, 0, -iter_gap
    while pc < n or core.nwait:
        progressed = False
        # ---- dispatch, in program order ----
        if t >= fe_block:
            for k in range(width):
                if pc >= n or core.nwait >= window:
                    break
                row = rows[pc]
                if iter_gap and row.iter_start:          # an iteration starts a dispatch group
                    if k > 0 or t < last_iter + iter_gap:
                        fe_block = max(t + (k > 0), last_iter + iter_gap)
                        break
                    last_iter = t
                if row.value and not core.reg_available(t) and (core.nwait or core.reg_frees):
                    break                       # (nothing can free one: the compiler spilled; go on)
                disp[pc] = t
                progressed = True
                if row.cls == LOOP:             # the loop entry ends the dispatch group
                    core.issue[pc] = t
                    fe_block = t + loop_gap
                    pc += 1
                    break
                if row.value:
                    core.allocate(pc, last_reader[pc])
                if row.cls == BAR:
                    core.open_bars.append(pc)
                elif row.cls == ST:
                    core.open_stores.append(pc)
                core.admit(pc, t)
                pc += 1
        # ---- issue: loads and other ops oldest first, then stores ----
        issued = False
        if core.nwait:
            issued = core.issue_pass(t) > 0
            progressed = progressed or issued
        nt = t + 1 if progressed or not core.nwait and pc >= n else core.next_event(t, fe_block if pc < n else None)
        if not issued and (core.nwait or pc < n):
            core.stall(core.oldest(), t, nt - t)
        t = nt
