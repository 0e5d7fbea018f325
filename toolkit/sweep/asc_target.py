"""Sweep points of ``.asc`` programs: ``migrate-check sweep A.asc [B.asc ...] -D NAME=v1,v2 ...``.

Each point builds the program with its defines (the build cache makes a repeated point free) and runs it
isolated, as ``migrate-check run`` does; the row sums the kernel cycles of its launches, takes the
largest UB plan, and the bound of the launch with the most cycles. Each program is a series.
"""
from __future__ import annotations

import os
from typing import Any

from toolkit.views.run_report import run_passed

from .rows import CRASH, FAIL, OK, make_row, status_of


def series_labels(sources: list[str]) -> list[str]:
    """Short distinct names: ``membase/full_load`` for ``.../membase/full_load.asc``."""
    # a program of several sources is named by its first (its kernel source)
    sources = [s if isinstance(s, str) else s[0] for s in sources]
    parts = [os.path.normpath(os.path.abspath(s))[:-4 if s.endswith(".asc") else None].split(os.sep) for s in sources]
    longest = max(len(p) for p in parts)
    for depth in range(min(2, longest), longest + 1):
        labels = ["/".join(p[-depth:]) for p in parts]
        if len(set(labels)) == len(labels):
            return labels
    return [os.path.normpath(s) for s in sources]


def make_points(sources: list[str], combos: list[dict], fixed: list[str], include_dirs: list[str],
                timeout: float, args: list[str], vf_fusion: bool = False) -> list[dict]:
    labels = series_labels(sources)
    return [{"series": label, "params": combo, "source": src, "include_dirs": list(include_dirs),
             "defines": [*fixed, *(f"{k}={v}" for k, v in combo.items())], "timeout": timeout, "args": list(args),
             "vf_fusion": vf_fusion} for src, label in zip(sources, labels) for combo in combos]


def run_point(point: dict) -> dict:
    """One point: build and run under one deadline (``timeout`` bounds both), its row."""
    from toolkit.asc.build import BuildError, build
    from toolkit.asc.runner import run_program
    from toolkit.console.children import Deadline
    deadline = Deadline(point["timeout"])
    try:
        built = build(point["source"], point["include_dirs"], point["defines"], deadline=deadline)
    except BuildError as err:
        return make_row(point["series"], point["params"], CRASH, f"build: {' '.join(str(err).split())}"[:400])
    run = run_program(built, point["args"], vf_fusion=point.get("vf_fusion", False), deadline=deadline)
    return program_row(point["series"], point["params"], run)


def program_row(series: str, params: dict, run) -> dict[str, Any]:
    """The row of one program run (also the advisor's base row of ``compare``)."""
    if run.failure is not None:
        return make_row(series, params, CRASH, run.failure, exit_status=run.exit_status, launches=len(run.launches))
    launches = run.launches
    if not launches:
        return make_row(series, params, FAIL, f"no kernel launch (program exit status {run.exit_status})",
                        exit_status=run.exit_status, launches=0)
    ub = max((lr["ub"] for lr in launches), key=lambda u: u["total_bytes"])
    heavy = max(launches, key=lambda lr: lr["cycles"].get("kernel_cycles") or 0)
    fits = all(lr["ub"]["fits"] for lr in launches)
    passed = run_passed(run)
    status = status_of(fits, passed)
    row = make_row(series, params, status, None if status == OK else _reason(run, fits, ub), ub=ub,
                   cycles=heavy["cycles"], exit_status=run.exit_status, launches=len(launches))
    cycles = [lr["cycles"].get("kernel_cycles") for lr in launches]
    tasks = [lr["cycles"].get("task_cycles") for lr in launches]
    row["kernel_cycles"] = None if None in cycles else sum(cycles)
    row["task_cycles"] = None if None in tasks else sum(tasks)
    return row


def _reason(run, fits: bool, ub: dict) -> str:
    if not fits:
        return f"UB plan {ub['total_bytes']} B over the budget {ub['budget_bytes']} B"
    bad = [d for lr in run.launches for d in lr["diagnostics"] if d.get("severity") == "error"]
    if bad:
        d = bad[0]
        return f"error diagnostic {d['code']} at {d['location']}" + (f" (+{len(bad) - 1} more)" if len(bad) > 1 else "")
    if run.exit_status:
        return f"the program's own check failed (exit status {run.exit_status})"
    return "a launch failed its gates"
