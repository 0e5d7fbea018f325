"""Resources of one core that several pipes use, as :mod:`toolkit.timing.vf_units` holds the vector
core's: the core timeline (:mod:`toolkit.timing.core`) asks every unit of :data:`CORE_UNITS`, in order,
at the two places where a pipe's work takes shared hardware: a DMA (MTE2 writes what it copies into
UB, MTE3 reads what it copies out of UB) and a VF body (its loads read UB, its stores write it:
:attr:`toolkit.timing.vf_timing.VfTiming.ub_port_cycles`). A unit may stretch the work it grants.

Adding a shared resource: one :class:`CoreUnit` subclass (its numbers in the machine file with their
sources), added to :data:`CORE_UNITS`; the pipes need no change.
"""
from __future__ import annotations

from toolkit.machine import Machine
from toolkit.record.events import PIPE_MTE2, PIPE_MTE3, PIPE_V

from .vf_timing import VfTiming


class CoreUnit:
    """A resource of the core shared between pipes; the defaults grant every request unchanged."""

    def __init__(self, machine: Machine) -> None:
        self.machine = machine

    def dma(self, pipe: str, start: int, latency: int, occupancy: int, nbytes: int) -> int:
        """A DMA of ``nbytes`` on ``pipe`` that could hold its pipe for ``occupancy`` cycles from
        ``start`` (its data arriving ``latency`` later): the occupancy granted."""
        return occupancy

    def vf(self, start: int, end: int, timing: VfTiming) -> int:
        """A VF body that could run from ``start`` to ``end`` (alone): the end granted."""
        return end

    def counters(self) -> dict[str, float]:
        """What the unit adds to the core's counters (cycles it delayed each pipe's work, ...)."""
        return {}


class SharedUbPorts(CoreUnit):
    """The UB ports, shared by MTE2 (UB writes), MTE3 (UB reads) and the VFs' loads and stores
    (ascend950-facts 1.2: GM<->UB transfers and the VF's UB accesses use the same UB read/write ports
    and block each other). Per cycle the UB serves ``ub_slots`` accesses, at most ``ub_write_slots`` of
    them writes (the VF's own figures, :class:`toolkit.timing.vf_units.UbPorts`); a VF load or store
    takes one slot for its ii (a store ``store_bank_cycles``: it keeps its banks that long), a DMA one slot per ``ub_dma_access_bytes`` it moves (MTE2: writes while
    its data arrives, from start + latency; MTE3: reads from its start).

    Each granted piece of work holds its average slot use (reads and writes per cycle) over its
    interval (a step profile). A new DMA or VF body gets the slots the work granted before it leaves:
    in a stretch of time where the sum would exceed a limit it progresses at the fraction that fits,
    so it ends later (the timeline grants work in program order, so the earlier-issued work keeps its
    ports). The cycles added are counted per pipe (:meth:`counters`: ``ub_contention_<pipe>_cycles``)."""

    def __init__(self, machine: Machine) -> None:
        super().__init__(machine)
        p = machine.params["timing"]
        self.slots, self.write_slots = float(p["ub_slots"]), float(p["ub_write_slots"])
        self.access_bytes = p["ub_dma_access_bytes"]
        self.store_hold = p["store_bank_cycles"]          # a VF store keeps its banks this many cycles
        self.users: list[tuple[int, int, float, float]] = []     # (start, end, reads/cycle, writes/cycle)
        self.end_max = 0                                          # the latest end of the granted work
        self.delay = {PIPE_MTE2: 0, PIPE_MTE3: 0, PIPE_V: 0}
        self.latest = {PIPE_MTE2: 0, PIPE_MTE3: 0, PIPE_V: 0}     # latest start per pipe (monotonic)

    def _seen(self, pipe: str, start: int) -> None:
        """Note a request of ``pipe`` at ``start``; drop work that ended before every pipe's latest start
        (each pipe's starts only grow, so no later request can overlap it)."""
        latest = self.latest
        if start > latest[pipe]:
            latest[pipe] = start
        users = self.users
        if users and users[0][1] <= latest[pipe]:         # else above the floor (<= latest[pipe]) too
            floor = min(latest.values())
            if floor and users[0][1] <= floor:
                self.users = [u for u in users if u[1] > floor]

    def _others(self, t0: int, t1: int) -> list[tuple[int, float, float]]:
        """The granted slot use over [t0, t1) as steps (time, reads/cycle, writes/cycle) from t0 on."""
        cuts = {t0}
        for s, e, _, _ in self.users:
            if e > t0 and s < t1:
                cuts.update(x for x in (s, e) if t0 < x < t1)
        steps = []
        for t in sorted(cuts):
            r = sum(u[2] for u in self.users if u[0] <= t < u[1])
            w = sum(u[3] for u in self.users if u[0] <= t < u[1])
            steps.append((t, r, w))
        return steps

    def _grant(self, start: int, length: int, reads: float, writes: float) -> int:
        """The cycles a piece of work of ``length`` cycles alone, using ``reads`` and ``writes`` slot
        cycles in all, takes from ``start`` among the granted work (it is recorded)."""
        if length <= 0 or reads + writes <= 0:
            return length
        rr, rw = reads / length, writes / length
        if not self.users or (self.end_max <= start and rr + rw <= self.slots and rw <= self.write_slots):
            self._record(start, length, reads, writes)     # nothing granted overlaps it, and it fits alone
            return length
        # the granted work ends by the latest user's end: past it the work runs at full rate
        horizon = max(start + length, self.end_max)
        steps = self._others(start, horizon) + [(horizon, 0.0, 0.0)]
        left, t = float(length), start
        for (t_a, r, w), (t_b, _, _) in zip(steps, steps[1:]):
            free_all, free_w = max(self.slots - r - w, 0.0), max(self.write_slots - w, 0.0)
            frac = min(1.0, free_all / (rr + rw))
            if rw > 0:
                frac = min(frac, free_w / rw)
            frac = max(frac, 0.05)                       # never starved outright (arbitration alternates)
            span = t_b - t_a
            if span * frac >= left:
                t = t_a + left / frac
                left = 0.0
                break
            left -= span * frac
            t = t_b
        end = int(round(t + left))
        got = max(end - start, length)
        self._record(start, got, reads, writes)
        return got

    def _record(self, start: int, got: int, reads: float, writes: float) -> None:
        self.users.append((start, start + got, reads / got, writes / got))
        self.end_max = max(self.end_max, start + got)

    def dma(self, pipe: str, start: int, latency: int, occupancy: int, nbytes: int) -> int:
        if not self.access_bytes:
            return occupancy
        self._seen(pipe, start)
        slots = nbytes / self.access_bytes
        if pipe == PIPE_MTE2:
            begin, reads, writes = start + latency, 0.0, slots
        else:
            begin, reads, writes = start, slots, 0.0
        if occupancy > 0 and slots > 0 and self.end_max <= begin and slots / occupancy <= self.slots \
                and writes / occupancy <= self.write_slots:
            self._record(begin, occupancy, reads, writes)      # _grant's first case, the usual one
            return occupancy
        got = self._grant(begin, occupancy, reads, writes)
        self.delay[pipe] += got - occupancy
        return got

    def vf(self, start: int, end: int, timing: VfTiming) -> int:
        if not self.access_bytes:
            return end
        self._seen(PIPE_V, start)
        reads, writes = timing.ub_port_cycles
        # a VF store keeps its banks ``store_bank_cycles`` (the VF's own port rule): that much of the slots
        got = self._grant(start, end - start, float(reads + writes * (self.store_hold - 1)), float(writes))
        self.delay[PIPE_V] += start + got - end
        return start + got

    def counters(self) -> dict[str, float]:
        return {f"ub_contention_{pipe.lower()}_cycles": c for pipe, c in self.delay.items()}


#: the shared resources of a core, in the order the timeline asks them
CORE_UNITS: tuple[type[CoreUnit], ...] = (SharedUbPorts,)
