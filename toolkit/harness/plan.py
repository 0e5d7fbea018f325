"""The UB plan of a kernel from a dry run of its Init: every InitBuffer is recorded, even past the
budget (the real run stops at the first InitBuffer over the budget, as a debug build asserts), so the
report can show the whole plan of a kernel that cannot start."""
from __future__ import annotations

from typing import Any, Callable

from toolkit.engine.launch import dry_run
from toolkit.machine import Machine
from toolkit.record.diagnostics import Diagnostics
from toolkit.views.ub_report import UbReport, ub_report

#: the diagnostics by which an InitBuffer plan refuses to start
PLAN_REFUSALS = ("UB_OVER_BUDGET", "TOO_MANY_BUFFERS")


def init_plan(init: Callable[[], Any], machine: Machine, max_ub_factor: int | None = None
              ) -> tuple[UbReport, Diagnostics]:
    """(the UB plan of ``init()`` run on one core without data, the dry run's diagnostics)."""
    events, diags = dry_run(init, machine)
    return ub_report(events, machine.ub_budget_bytes, max_ub_factor), diags


def plan_refused(diags: Diagnostics) -> bool:
    """Whether the plan's InitBuffer calls refused to start (over the budget, too many buffers)."""
    return any(d.code in PLAN_REFUSALS for d in diags)
