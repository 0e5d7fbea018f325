"""VF scheduler: cycles of one VF instance from its instruction stream alone (cycle-stepped).

Model (every number from the machine file, ``[timing]`` and the per-opcode entries); each resource is
one class of :mod:`toolkit.timing.vf_units`, which this module only steps through the cycles:
* Start and drain: an isolated VF dispatches its first instruction ``vf_start_cycles`` after it
  starts and ends ``vf_drain_cycles`` after its last instruction completes (``vf_time``); in the
  PUSHQ slices of VFs launched back to back the start overlaps the previous VF (``cycles``). The
  vendor's cycle-accurate model logs a VF from its dispatch (``log_cycles``): ``vf_log_extra_cycles``
  more than ``vf_time``.
* Dispatch (:class:`~toolkit.timing.vf_units.FrontEnd`): in program order, ``dispatch_width`` per
  cycle, into the issue queue (:class:`~toolkit.timing.vf_units.IssueQueue`, ``window`` entries); a
  hardware-loop entry ends the dispatch group and stalls dispatch, an iteration starts a new group
  (:class:`~toolkit.timing.vf_units.LoopEntry`, :class:`~toolkit.timing.vf_units.LoopIterations`); a vector value needs a physical register
  (:class:`~toolkit.timing.vf_units.RegisterFile`).
* Issue: out of order, oldest first (stores after the other ready rows), once the row is ready
  (:class:`~toolkit.timing.vf_units.IssueQueue`) and every unit its class needs accepts it: execute
  units, special-function pipes, the mask unit, the memory order of barriers, the store queue, the UB
  ports and banks.
* Trace: an execute op's event lasts its ``duration`` from issue; a load/store event starts when its
  operands are ready and ends ``duration`` after it actually issued (queueing shows as a longer event).
"""
from __future__ import annotations

from toolkit.machine import Machine

from .vf_bounds import summarise
from .vf_decode import Row, decode
from .vf_timing import VfTiming
from .vf_units import UNITS, FrontEnd, IssueQueue, OpClass, Unit, hook

__all__ = ["VectorCore", "VfTiming", "schedule"]


class VectorCore:
    """One schedule: the rows, their dispatch and issue cycles, and the hardware units (``units``, in
    dispatch order) that hold every resource; it steps them cycle by cycle."""

    def __init__(self, rows: list[Row], last_reader: list[int], p, units=UNITS) -> None:
        self.rows, self.last_reader = rows, last_reader
        n = len(rows)
        self.disp = [0] * n
        self.issue = [-1] * n
        self.pc = 0                                         # next row to dispatch
        self.stalls: dict[str, int] = {}                    # cycles without issue, by reason
        self.units: list[Unit] = []
        for cls in units:
            self.units.append(cls(p, self))
        self.front, self.queue = self.find(FrontEnd), self.find(IssueQueue)
        self.gates = [self._hooks("can_dispatch", c) for c in OpClass]       # per row class
        self.on_dispatch = [self._hooks("dispatched", c) for c in OpClass]
        self.free_times = self._hooks("next_free")
        self.queue.connect([self._route(c) for c in OpClass], self._hooks("issued"))

    def find(self, kind: type) -> Unit:
        """The unit of class ``kind`` (constructed before the caller: see ``UNITS``' order)."""
        for u in self.units:
            if isinstance(u, kind):
                return u
        raise LookupError(f"no {kind.__name__} among the vector core's units")

    def _hooks(self, name: str, cls: OpClass | None = None) -> list:
        """The units' hooks ``name`` in unit order (``cls``: of the units that look at its dispatch)."""
        units = [u for u in self.units if cls is None or u.dispatch_classes is None or cls in u.dispatch_classes]
        return [f for f in (hook(u, name) for u in units) if f is not None]

    def _route(self, cls: OpClass):
        """``take(i, row, t) -> bool`` for rows of ``cls``: every serving unit accepts, then each reserves."""
        units = [u for u in self.units if cls in u.serves]
        if not units:
            return lambda i, row, t: True
        if len(units) == 1:
            return units[0].try_reserve
        checks = [u.can_issue for u in units]
        commits = [f for f in (hook(u, "reserve") for u in units) if f is not None]

        def take(i: int, row: Row, t: int) -> bool:
            for check in checks:
                if not check(i, row, t):
                    return False
            for commit in commits:
                commit(i, row, t)
            return True
        return take

    # ---- dispatch -----------------------------------------------------------------------------
    def dispatch(self, t: int) -> bool:
        """Dispatch at t in program order until the width is used or a unit stops it; whether any row went."""
        rows, disp, gates, on_dispatch, queue = self.rows, self.disp, self.gates, self.on_dispatch, self.queue
        admit, window = queue.admit, queue.window
        n, pc = len(rows), self.pc
        went = False
        for k in range(self.front.width):
            if pc >= n or queue.nwait >= window:             # every issue-queue entry taken
                break
            row = rows[pc]
            cls = row.cls
            for gate in gates[cls]:
                if not gate(pc, row, t, k):
                    self.pc = pc
                    return went
            disp[pc] = t
            went = True
            i, pc = pc, pc + 1
            done = False
            for f in on_dispatch[cls]:
                done = f(i, row, t) or done
            if done:                                        # executed at dispatch: ends the group
                break
            admit(i, t)
        self.pc = pc
        return went

    # ---- time ---------------------------------------------------------------------------------
    def stall(self, oldest: int, t: int, cycles: int) -> None:
        """Account ``cycles`` without any issue to what holds the oldest waiting instruction: the
        producer it waits for ("wait RV_X"), its busy unit ("unit <class>"), or the front end."""
        if oldest < 0:
            reason = "front end"
        else:
            r = self.queue.ready_at(oldest)
            rows, issue = self.rows, self.issue
            deps = rows[oldest].deps
            if (r < 0 or r > t) and deps:
                late = max(deps, key=lambda d: 10 ** 9 if issue[d[0]] < 0 else issue[d[0]] + rows[d[0]].lat + d[1])
                reason = "wait " + rows[late[0]].op
            else:
                reason = "unit " + rows[oldest].cls.unit_name
        self.stalls[reason] = self.stalls.get(reason, 0) + cycles

    def next_event(self, t: int) -> int:
        """The next cycle at which something can change (when nothing happened at t)."""
        nxt: list[int] = []
        for f in self.free_times:
            nxt += f(t)
        return min((x for x in nxt if x > t), default=t + 1)

    def run(self) -> None:
        """Dispatch and issue cycle by cycle until every row has issued."""
        n, front, queue = len(self.rows), self.front, self.queue
        t = 0
        while self.pc < n or queue.nwait:
            progressed = t >= front.blocked_until and self.dispatch(t)
            issued = False
            if queue.nwait:                 # loads and other ops oldest first, then stores
                issued = queue.issue_pass(t) > 0
                progressed = progressed or issued
            nt = t + 1 if progressed or not queue.nwait and self.pc >= n else self.next_event(t)
            if not issued and (queue.nwait or self.pc < n):
                self.stall(queue.oldest(), t, nt - t)
            t = nt


def schedule(instrs: list, machine: Machine, detail: bool = False, units=UNITS) -> VfTiming:
    """The timing of one VF instance (``detail``: with its per-instruction slices); ``units``: the
    hardware units of the vector core (default :data:`toolkit.timing.vf_units.UNITS`)."""
    p = machine.params["timing"]
    rows, last_reader = decode(instrs, machine)
    core = VectorCore(rows, last_reader, p, units)
    core.run()
    timing = summarise(rows, core.issue, core.queue.ready_at, p, detail, units)
    timing.stalls = core.stalls
    return timing
