"""Variants of one operator run on one case and reported side by side: timed under one cycle model, the
text report (each run's block, the UB plans beside each other, the cycle table), the JSON of every run
with its cycles, and the Chrome trace of every launch.
"""
from __future__ import annotations

from typing import Any, Mapping

from toolkit.machine import Machine
from toolkit.timing.model import TimingModel
from toolkit.views.cycles import compare_cycles_table, cycle_summary
from toolkit.views.trace import launches_trace
from toolkit.views.ub_report import compare_table

from .run import Run


class Lineup:
    """``runs``: variant -> :class:`Run`, each with a UB plan; timed when made."""

    def __init__(self, runs: Mapping[str, Run], machine: Machine):
        self.runs = dict(runs)
        self.machine = machine
        self.model = TimingModel(machine)
        self.timings = {k: self.model.launch(r.launch) for k, r in self.runs.items()}
        self.cycles = {k: cycle_summary(self.timings[k], aborted=r.launch.aborted) for k, r in self.runs.items()}

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
        return launches_trace(((r.label, self.timings[k]) for k, r in self.runs.items()), self.model)
