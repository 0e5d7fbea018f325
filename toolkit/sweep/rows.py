"""The fields every sweep row has, whatever ran the point (a Python port or an ``.asc`` program).

``series`` (the line of the picture: a backend, a program), ``params`` (the point's values), ``status``:
``ok`` (ran, every gate passed), ``refused`` (UB plan over budget: the kernel cannot start), ``fail``
(ran, a gate failed: golden mismatch, error diagnostic, program status), ``crash`` (the point could not
run: exception, crash, timeout); ``reason`` (one line, None for ok); ``passed``; ``ub_bytes`` /
``ub_budget``; ``kernel_cycles`` / ``task_cycles`` (None when the kernel did not run to the end);
``bound`` (the pipe with most of the slowest core's critical path) and ``bound_share`` (its percent);
``bottleneck`` (the cycle model's own words); ``pipes`` (busy cycles per pipe).
"""
from __future__ import annotations

from typing import Any

OK, REFUSED, FAIL, CRASH = "ok", "refused", "fail", "crash"


def critical_bound(cycles: dict) -> tuple[str | None, float | None]:
    """The pipe holding most of the critical path of the slowest core, and its percent of the path."""
    path = {k: v for k, v in (cycles.get("critical_path") or {}).items() if k != "wait"}
    total = sum((cycles.get("critical_path") or {}).values())
    if not path or not total:
        return None, None
    pipe = max(path, key=path.get)
    return pipe, round(100.0 * path[pipe] / total, 1)


def cycle_fields(cycles: dict | None) -> dict[str, Any]:
    cycles = cycles or {}
    bound, share = critical_bound(cycles)
    return {"kernel_cycles": cycles.get("kernel_cycles"), "task_cycles": cycles.get("task_cycles"),
            "bound": bound, "bound_share": share, "bottleneck": cycles.get("bottleneck"),
            "pipes": dict(cycles.get("pipes") or {})}


def make_row(series: str, params: dict, status: str, reason: str | None, *, ub: dict | None = None,
             cycles: dict | None = None, **extra: Any) -> dict[str, Any]:
    """A row; ``ub``: the UB JSON of the plan (``total_bytes``, ``budget_bytes``); ``cycles``: a cycle
    summary (:func:`toolkit.views.cycles.cycle_summary`)."""
    row = {"series": series, "params": dict(params), "status": status, "passed": status == OK, "reason": reason,
           "ub_bytes": ub.get("total_bytes") if ub else None, "ub_budget": ub.get("budget_bytes") if ub else None}
    row.update(cycle_fields(cycles))
    row.update(extra)
    return row


def status_of(fits: bool, passed: bool) -> str:
    """The status of a point that ran: ``refused`` when its plan is over the budget, else ok / fail."""
    return REFUSED if not fits else OK if passed else FAIL
