"""The run record: one variant of an operator launched on a case, the checks of its outputs, its UB plan,
and the one gate that judges it (``toolkit.views.launch_summary.gate``, as the ``.asc`` route's).

An operator subclasses :class:`Run` for what its reports add (the KV tiling, the softmax step) and
overrides the few report hooks: :meth:`Run.header`, :meth:`Run.text_lines`, :meth:`Run.json_head`,
:meth:`Run.json_checks`. A check is anything with ``passed`` and ``describe(name)`` (the one line a sweep
row gives as its reason): :class:`toolkit.harness.golden.CompareResult`, ``CheckResult`` and the
simd_vf_story family checks.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from toolkit.engine.launch import LaunchResult
from toolkit.machine import Machine
from toolkit.record.diagnostics import Diagnostics
from toolkit.views.launch_summary import gate
from toolkit.views.ub_report import UbReport, gate_lines

from .case import Case, launch_case


@dataclass
class Run:
    variant: str                     # the variant's key (a backend, a variant name)
    label: str                       # how the reports name it
    launch: LaunchResult
    checks: dict[str, Any]           # check name -> result (``passed``, ``describe``)
    ub: UbReport | None = None       # the UB plan, when it is gated
    outputs: dict[str, np.ndarray] = field(repr=False, default_factory=dict)
    seconds: float = 0.0             # wall time of the launch and the checks

    @property
    def passed(self) -> bool:
        return gate(self.launch.diagnostics, self.ub, self.checks.values())

    @property
    def diagnostics(self) -> Diagnostics:
        return self.launch.diagnostics

    @property
    def events(self) -> list:
        """Core 0's event stream (all of it for a single-core kernel)."""
        return self.launch.cores[0].events

    def failure(self) -> str | None:
        """Why the gate failed, in one line (None when it passed): the reason of a sweep row."""
        if self.ub is not None and not self.ub.fits:
            return f"UB plan {self.ub.total_bytes} B over the budget {self.ub.budget_bytes} B"
        bad = [c.describe(n) for n, c in self.checks.items() if not c.passed]
        if bad:
            return "golden FAIL: " + ", ".join(bad)
        errors = self.diagnostics.errors()
        if errors:
            return f"error diagnostic {errors[0].code} at {errors[0].location()}"
        return None

    # -- report hooks -------------------------------------------------------------------------------
    def header(self) -> str:
        return f"Run {self.label}"

    def gate_lines(self) -> list[str]:
        """The lines that close the run's text block: each diagnostic, the UB plan when it is over the
        budget, PASS or FAIL, a blank line."""
        return gate_lines(self.diagnostics, self.ub, self.passed)

    def text_lines(self) -> list[str]:
        """The run's block of a text report: the header, each check's lines, the gate's."""
        lines = [self.header()]
        for c in self.checks.values():
            lines.extend(c.lines)
        return lines + self.gate_lines()

    def json_head(self) -> dict[str, Any]:
        return {"label": self.label}

    def json_checks(self) -> dict[str, Any]:
        return {"outputs": {n: c.to_json() for n, c in self.checks.items()}}

    def to_json(self) -> dict[str, Any]:
        loops, groups = self.launch.meta.get("loop_batching"), self.launch.meta.get("uniform")
        return {**self.json_head(), "passed": self.passed, **self.json_checks(),
                **({"ub": self.ub.to_json()} if self.ub is not None else {}),
                **({"loop_batching": loops} if loops else {}),
                **({"uniform": groups} if groups else {}),
                "diagnostics": [d.to_json() for d in self.diagnostics]}

    def gate_rows(self, golden: str) -> list[tuple[str, bool, str]]:
        """The gates as rows of an HTML verdict (what, passed, detail); ``golden``: how the output check
        is named (its method and tolerance)."""
        bad = [n for n, c in self.checks.items() if not c.passed]
        rows = [(f"{self.variant}: {golden}", not bad, f"mismatches in {', '.join(bad)}" if bad
                 else f"all {len(self.checks)} outputs within tolerance")]
        if self.ub is not None:
            ub = self.ub
            rows.append((f"{self.variant}: UB budget", ub.fits,
                         f"{ub.total_bytes} B of {ub.budget_bytes} B ({round(ub.percent, 2):.1f}%)"))
        errors = len(self.diagnostics.errors())
        rows.append((f"{self.variant}: kernel diagnostics", not errors,
                     f"{errors} error(s), {len(self.diagnostics) - errors} warning(s)"))
        return rows


def run_case(entry: Callable[..., None], blocks: int, case: Case, check: Callable[[dict], dict[str, Any]], *,
             variant: str, label: str | None = None, ub: Callable[[], UbReport] | None = None,
             machine: Machine | None = None, name: str | None = None, record: type[Run] = Run,
             **fields: Any) -> Run:
    """Launch ``entry`` on the case, check its outputs (``check(outputs)`` -> name -> result), then take
    the UB plan (``ub()``, e.g. from a dry run of the kernel's Init): the ``record`` (a :class:`Run`
    subclass, with its own ``fields``)."""
    t0 = time.perf_counter()
    result, outputs = launch_case(entry, blocks, case, machine, name)
    checks = check(outputs)
    plan = ub() if ub is not None else None
    return record(variant, label or variant, result, checks, plan, outputs, time.perf_counter() - t0, **fields)
