"""Variants of one operator run on one case and reported side by side: timed under one cycle model, the
text report (each run's block, the UB plans beside each other, the cycle table), the JSON of every run
with its cycles, and the Chrome trace of every launch.

A run is timed where it ran: in this process (the lineup keeps its timing and makes any view of it when
asked) or in a worker process (:mod:`toolkit.harness.forked`), which sends back the run without its
events, its cycle summary and the views asked for beforehand, since a timing is too large to send.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping

from toolkit.machine import Machine
from toolkit.timing.model import KernelTiming, TimingModel
from toolkit.views.cycles import compare_cycles_table, cycle_summary
from toolkit.views.timeline import slowest_core_timeline
from toolkit.views.trace import launch_trace, merge_traces
from toolkit.views.ub_report import compare_table

from .run import Run

View = Callable[[Run, int, KernelTiming, TimingModel], Any]


def _trace(run: Run, index: int, timing: KernelTiming, model: TimingModel) -> dict:
    """The launch's Chrome trace, its processes numbered from 1000 x its place in the lineup."""
    return launch_trace(run.label, timing, model, 1000 * index)


def _timeline(run: Run, index: int, timing: KernelTiming, model: TimingModel) -> dict | None:
    """The pipe timeline of the slowest core (None for an aborted launch)."""
    return None if run.launch.aborted else slowest_core_timeline(timing)


#: the views of a timed run, by name: one function each, wherever the run was timed
VIEWS: dict[str, View] = {"trace": _trace, "timeline": _timeline}


@dataclass
class Timed:
    """A run timed under the lineup's model: its cycle summary and the views made of its timing."""
    run: Run
    cycles: dict[str, Any]
    views: dict[str, Any] = field(default_factory=dict)


def time_run(run: Run, index: int, model: TimingModel, views: Iterable[str] = ()) -> tuple[KernelTiming, Timed]:
    """(the timing of ``run``, the :class:`Timed` record with the ``views`` named), ``index``: the run's
    place in the lineup."""
    timing = model.launch(run.launch)
    cycles = cycle_summary(timing, aborted=run.launch.aborted)
    return timing, Timed(run, cycles, {name: VIEWS[name](run, index, timing, model) for name in views})


class Lineup:
    """``runs``: variant -> :class:`Run`, each with a UB plan; timed when made, except the variants in
    ``timed`` (timed already: by a worker, or here with their ``timings``, under ``model``: the one
    model whose VF memo the views then reuse)."""

    def __init__(self, runs: Mapping[str, Run], machine: Machine, timed: Mapping[str, Timed] | None = None,
                 timings: Mapping[str, KernelTiming] | None = None, model: TimingModel | None = None):
        self.runs = dict(runs)
        self.machine = machine
        self.model = model or TimingModel(machine)
        self.timings: dict[str, KernelTiming] = dict(timings or {})
        self.views: dict[str, dict[str, Any]] = {}
        self.cycles: dict[str, dict[str, Any]] = {}
        for index, (k, run) in enumerate(self.runs.items()):
            if timed is not None and k in timed:
                t = timed[k]
            else:
                self.timings[k], t = time_run(run, index, self.model)
            self.cycles[k], self.views[k] = t.cycles, dict(t.views)

    def view(self, name: str, variant: str) -> Any:
        """View ``name`` (:data:`VIEWS`) of a variant's timing: made by the process that timed it."""
        made = self.views[variant]
        if name not in made:
            if variant not in self.timings:
                raise LookupError(f"{variant}: the worker that timed it was not asked for its {name}")
            index = list(self.runs).index(variant)
            made[name] = VIEWS[name](self.runs[variant], index, self.timings[variant], self.model)
        return made[name]

    @property
    def passed(self) -> bool:
        return all(r.passed for r in self.runs.values())

    def runs_json(self) -> dict[str, dict[str, Any]]:
        """variant -> the run's JSON with its cycle summary."""
        return {k: {**r.to_json(), "cycles": self.cycles[k]} for k, r in self.runs.items()}

    def to_json(self, head: dict[str, Any], section: str) -> dict[str, Any]:
        """The report: ``head`` (the command's parameters ...), ``passed``, then the runs under ``section``."""
        return {**head, "passed": self.passed, section: self.runs_json()}

    def cycles_title(self, cite_clock: bool = False) -> str:
        m = self.machine
        cite = f": {m.sources['core']['clock_mhz']}" if cite_clock else ""
        return f"Cycles (model {m.name} v{m.version}; 1 cycle = 1/{m.clock_mhz} us{cite})"

    def text(self, ub_title: str, cite_clock: bool = False) -> str:
        lines: list[str] = []
        for run in self.runs.values():
            lines.extend(run.text_lines())
        lines += [ub_title, compare_table({k: r.ub for k, r in self.runs.items()}), "",
                  self.cycles_title(cite_clock), compare_cycles_table(self.cycles)]
        return "\n".join(lines)

    def trace(self) -> dict:
        """One trace of every launch: a process per core, launch k's numbered from 1000 k."""
        return merge_traces([self.view("trace", k) for k in self.runs])
