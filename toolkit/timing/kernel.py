"""Whole-launch timing: every core's pipes, GM shared between the cores, launch and tail.

Cores run their own event streams; what couples them is GM. The launch is simulated as a fixed point:
first every core alone (each DMA at the single-core cost), then, for every DMA, (a) how many cores
move data in the same direction during it (time average of the number of cores with that MTE pipe
busy, its own core included: they share the GM bandwidth) and (b) for reads, how many bytes the other
cores have in flight meanwhile (each core at most ``[memory] dma_outstanding_bytes``: the queue a new
read request waits behind) are fed back into the DMA cost (:func:`toolkit.timing.core.dma_cost`) and
the cores are simulated again, ``[memory] load_iterations`` times at most or until no DMA's figures
move by more than 1 %. A launch on one core is the single-core model exactly.

Cost: cores with equal event signatures are one group, simulated once per pass; the passes before the
last one keep only what the GM load needs (DMA slices), the last one (or the one found to converge, run
again) keeps every slice. The figures are those of every core simulated in detail on every pass.
"""
from __future__ import annotations

import bisect
from typing import Callable

import numpy as np

from toolkit.engine.gcpause import no_cycle_collection
from toolkit.machine import Machine
from toolkit.record.events import PIPE_MTE2, PIPE_MTE3

from .core import CoreTiming, merged, rebind

DMA_PIPES = (PIPE_MTE2, PIPE_MTE3)
#: reads wait behind the requests of every core (a write is posted: it completes once the core sent it)
QUEUED_PIPES = (PIPE_MTE2,)
CoreFn = Callable[..., CoreTiming]           #: (core, events, concurrency, detail=) -> CoreTiming


class StepProfile:
    """A step function of time (sum of weighted intervals) with its running integral."""

    def __init__(self, steps: dict[int, float]):
        self.times = sorted(steps)
        self.level: list[float] = []
        self.integral: list[float] = []
        level = area = 0.0
        prev = self.times[0] if self.times else 0
        for t in self.times:
            area += level * (t - prev)
            level += steps[t]
            self.level.append(level)
            self.integral.append(area)
            prev = t

    def _area(self, t: int) -> float:
        k = bisect.bisect_right(self.times, t) - 1
        if k < 0:
            return 0.0
        return self.integral[k] + self.level[k] * (t - self.times[k])

    def averages(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """:meth:`average` of every interval [a[i], b[i]) as one array operation (the same float
        operations in the same order, so the same values)."""
        if not self.times:
            return np.zeros(len(a))
        times, level = np.asarray(self.times, dtype=np.int64), np.asarray(self.level)
        integral = np.asarray(self.integral)

        def at(t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            k = np.searchsorted(times, t, side="right") - 1
            kk = np.maximum(k, 0)
            area = np.where(k < 0, 0.0, integral[kk] + level[kk] * (t - times[kk]))
            return area, np.where(k < 0, 0.0, level[kk])

        area_a, level_a = at(a)
        area_b, _ = at(b)
        width = b - a
        with np.errstate(divide="ignore", invalid="ignore"):
            mean = (area_b - area_a) / width
        return np.where(width <= 0, level_a, mean)

    def average(self, a: int, b: int) -> float:
        """Mean level over [a, b) (the level at ``a`` for an empty interval)."""
        if b <= a:
            k = bisect.bisect_right(self.times, a) - 1
            return self.level[k] if k >= 0 else 0.0
        return (self._area(b) - self._area(a)) / (b - a)


def _add(steps: dict[int, float], s: int, e: int, w: float) -> None:
    steps[s] = steps.get(s, 0.0) + w
    steps[e] = steps.get(e, 0.0) - w


class BusyProfile(StepProfile):
    """How many cores have ``pipe`` busy (a core with overlapping copies counts once; ``counts``: how
    many cores each timing stands for, default one each)."""

    def __init__(self, timings: list[CoreTiming], pipe: str, counts: list[int] | None = None):
        steps: dict[int, float] = {}
        for k, ct in enumerate(timings):
            w = float(counts[k]) if counts else 1.0
            for s, e in merged([(sl.start, sl.end) for sl in ct.slices if sl.pipe == pipe]):
                _add(steps, s, e, w)
        super().__init__(steps)


def in_flight(ct: CoreTiming, pipe: str, window: float) -> StepProfile:
    """Bytes one core has requested and not yet received on ``pipe``, at most ``window``."""
    steps: dict[int, float] = {}
    for sl in ct.slices:
        if sl.pipe == pipe:
            _add(steps, sl.start, sl.end, float(sl.args.get("bytes", 0)))
    raw = StepProfile(steps)
    capped: dict[int, float] = {}
    prev = 0.0
    for t, level in zip(raw.times, raw.level):
        v = min(level, window)
        if v != prev:
            capped[t] = v - prev
            prev = v
    return StepProfile(capped)


class QueueProfile(StepProfile):
    """Bytes in flight over all cores on ``pipe`` (each core at most ``window``; ``counts`` as in
    :class:`BusyProfile`: levels are whole bytes, so a weighted sum equals the sum over the cores)."""

    def __init__(self, per_core: list[StepProfile], counts: list[int] | None = None):
        steps: dict[int, float] = {}
        for k, prof in enumerate(per_core):
            w = counts[k] if counts else 1
            prev = 0.0
            for t, level in zip(prof.times, prof.level):
                steps[t] = steps.get(t, 0.0) + (level - prev) * w
                prev = level
        super().__init__(steps)


def concurrency(timings: list[CoreTiming], machine: Machine,
                counts: list[int] | None = None) -> list[dict[str, list[tuple[float, float]]]]:
    """Per core and MTE pipe, for each of its DMAs in order: (cores moving data in that direction
    meanwhile, >= 1; bytes the other cores have in flight ahead of it on a queued pipe, else 0).
    ``counts``: timing k stands for ``counts[k]`` identical cores (their rows are equal)."""
    window = machine.params["memory"]["dma_outstanding_bytes"]
    out: list[dict[str, list[tuple[float, float]]]] = [{} for _ in timings]
    for pipe in DMA_PIPES:
        busy = BusyProfile(timings, pipe, counts)
        queued = pipe in QUEUED_PIPES
        own = [in_flight(ct, pipe, window) if queued else None for ct in timings]
        total = QueueProfile(own, counts) if queued else None
        for k, ct in enumerate(timings):
            mine = [sl for sl in ct.slices if sl.pipe == pipe]
            a = np.fromiter((sl.start for sl in mine), dtype=np.int64, count=len(mine))
            b = np.fromiter((sl.end for sl in mine), dtype=np.int64, count=len(mine))
            cores = np.maximum(1.0, busy.averages(a, b))
            ahead = np.maximum(0.0, total.averages(a, b) - own[k].averages(a, b)) if queued \
                else np.zeros(len(mine))
            out[k][pipe] = list(zip(cores.tolist(), ahead.tolist()))
    return out


def _lookup(table: dict[str, list[tuple[float, float]]]) -> Callable[[str, int], tuple[float, float]]:
    return lambda pipe, k: table[pipe][k] if k < len(table[pipe]) else (1.0, 0.0)


def _moved(old: list[dict], new: list[dict], tol: float = 0.01) -> bool:
    for a, b in zip(old, new):
        for pipe in DMA_PIPES:
            for x, y in zip(a[pipe], b[pipe]):
                if abs(x[0] - y[0]) > tol * x[0] or abs(x[1] - y[1]) > tol * max(x[1], 1024.0):
                    return True
    return False


def _groups(streams: list[tuple[int, list]], key: Callable[[list], object] | None) -> tuple[list[int], list[int]]:
    """(group of each core, first core of each group): cores with equal ``key(events)`` share a group;
    without a key every core is its own group."""
    first: dict = {}
    member, reps = [], []
    for k, (_, events) in enumerate(streams):
        g = first.setdefault(key(events) if key is not None else k, len(reps))
        if g == len(reps):
            reps.append(k)
        member.append(g)
    return member, reps


def simulate_launch(core_fn: CoreFn, streams: list[tuple[int, list]], machine: Machine,
                    key: Callable[[list], object] | None = None) -> list[CoreTiming]:
    """Timing of every core of a launch (``streams``: (core id, events)) with shared GM bandwidth.

    ``key(events)`` (e.g. :func:`toolkit.timing.core.core_signature`) groups cores whose timing is
    equal by construction: each group is simulated once per pass and its GM load counted once per
    member (equal timings put equal load on GM, so they also get equal concurrency: exact, as the
    load profiles sum whole bytes and core counts), and each other member gets the group's timing
    with its own core id and VF events (:func:`toolkit.timing.core.rebind`)."""
    with no_cycle_collection():
        return _fixed_point(core_fn, streams, machine, key)


def _fixed_point(core_fn: CoreFn, streams: list[tuple[int, list]], machine: Machine,
                 key: Callable[[list], object] | None) -> list[CoreTiming]:
    if len(streams) < 2 or not float(machine.params["memory"]["dma_outstanding_bytes"]).is_integer():
        key = None                   # one core: nothing to share; fractional byte levels: sum core by core
    member, reps = _groups(streams, key)
    heads = [streams[k] for k in reps]
    counts = [member.count(g) for g in range(len(reps))]

    def run(loads: list | None, detail: bool) -> list[CoreTiming]:
        tables = [None] * len(heads) if loads is None else [_lookup(load) for load in loads]
        return [core_fn(core, events, table, detail=detail) for (core, events), table in zip(heads, tables)]

    passes = 1 + (int(machine.params["memory"]["load_iterations"]) if len(streams) >= 2 else 0)
    loads = None
    for k in range(passes):
        # a pass known to be the last one runs in detail; the others need only the DMA slices (the
        # GM load); a pass that converges early is run again in detail with the same loads
        if k == passes - 1:
            timings = run(loads, True)
            break
        timings = run(loads, False)
        new = concurrency(timings, machine, counts)
        if loads is not None and not _moved(loads, new):
            timings = run(loads, True)
            break
        loads = new
    out = []
    for k, (core, events) in enumerate(streams):
        g = member[k]
        out.append(timings[g] if reps[g] == k else rebind(timings[g], core, events))
    return out
