"""The per-launch summary every route reports: UB plan against the budget, counters, cycles, diagnostics,
verdict. One function for the Python kernels and the ``.asc`` programs, so both say the same thing of
the same launch.
"""
from __future__ import annotations

from typing import Any, Iterable

from toolkit.engine.launch import LaunchResult
from toolkit.machine import Machine
from toolkit.record.diagnostics import ERROR
from toolkit.record.events import BufferInit
from toolkit.timing.model import TimingModel

from .counters import run_counters
from .cycles import cycle_summary
from .ub_report import UbReport, ub_report


def gate(diagnostics: Iterable, ub: UbReport | None = None, checks: Iterable = ()) -> bool:
    """The pass/fail gate of one launch, for every route and operator: every check of its outputs passed
    (anything with ``passed``), its UB plan fits the budget (when there is a plan to judge) and no
    diagnostic has error severity. A core that aborted did so on a fatal diagnostic, which is an error
    in the list, so an aborted launch fails here too."""
    return (all(c.passed for c in checks) and (ub is None or ub.fits)
            and not any(d.severity == ERROR for d in diagnostics))


def launch_ub(result: LaunchResult) -> UbReport:
    """The InitBuffer plan of the launch's first core; with no TPipe at all (tensors at raw UB
    addresses) the highest UB byte the launch touched stands for the footprint."""
    machine = result.machine
    events = result.cores[0].events if result.cores else []
    rep = ub_report(events, machine.ub_budget_bytes)
    if not any(isinstance(e, BufferInit) for e in events) and result.meta.get("ub_high"):
        high = int(result.meta["ub_high"])
        rep.buffers = [{"name": "(raw UB addresses)", "position": "VECCALC", "num": 1, "bytes_each": high,
                        "bytes": high}]
        rep.total_bytes = high
        rep.extra["raw"] = True
    return rep


def launch_counters(result: LaunchResult, machine: Machine) -> dict[str, int]:
    """Counters summed over every core of the launch (VF count, loop entries, RVEC*, RV_* counts)."""
    events = [e for core in result.cores for e in core.events]
    return run_counters(events, machine)


def launch_summary(result: LaunchResult, model: TimingModel | None = None, timing=None) -> dict[str, Any]:
    """JSON-ready summary: ``kernel, block_dim, passed, ub, counters, cycles, diagnostics``
    (``timing``: the launch's KernelTiming if the caller already has it)."""
    machine = result.machine
    model = model or TimingModel(machine)
    ub = launch_ub(result)
    timing = timing if timing is not None else model.launch(result)
    cycles = cycle_summary(timing, result.aborted)
    diags = list(result.diagnostics)
    return {"kernel": result.kernel, "block_dim": result.block_num, "passed": gate(diags, ub), "ub": ub.to_json(),
            "counters": launch_counters(result, machine), "cycles": cycles,
            "diagnostics": [d.to_json() for d in diags]}
