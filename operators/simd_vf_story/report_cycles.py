"""Cycle columns of the simd_vf_story report: our timing beside the vendor's cycle figures.

Adds to every KernelReport ``extra["cycles"]`` (run and per-VF cannsim-named metrics), ``per_vf["cycles"]``
(one VF instance) and ``total["pushq_vf_cycles"]`` (sum over the run), and registers text columns.
"""
from __future__ import annotations

from toolkit.calibration.cannsim import run_metrics, vf_metrics
from toolkit.calibration.vf_rows import PUSHQ, vs_vendor
from toolkit.timing.model import TimingModel

from .registry import MEASUREMENT_SCOPE
from .report import EXTRA_COLUMNS, Column, KernelReport

CYCLE_KEYS = ("pushq_vf_cycles", "steady_cycles", "ipc", "rvecex_sum_cycles", "rvecld_sum_cycles",
              "rvecst_sum_cycles", "bottleneck", "bounds")
RUN_KEYS = ("pushq_vf_sum_cycles", "push_pb_sum_cycles", "mte2_sum_cycles", "mte3_sum_cycles", "core_cycles",
            "rvecex_sum_cycles", "rvecld_sum_cycles", "rvecst_sum_cycles")


def add_cycles(k: KernelReport, model: TimingModel) -> None:
    core = model.core(0, k.result.events)
    run = run_metrics(core)
    vf = vf_metrics(core.vfs[0][1]) if core.vfs else {}
    k.per_vf["cycles"] = vf.get("pushq_vf_cycles", 0)
    for key in CYCLE_KEYS:
        if key in vf:
            k.per_vf[key] = vf[key]
    for key in RUN_KEYS:
        k.total[key] = run[key]
    k.total["pushq_vf_cycles"] = run["pushq_vf_sum_cycles"]
    scope = MEASUREMENT_SCOPE.get(k.variant.family, "vf")
    compared = vs_vendor(k.measured, k.measured_sum_cycles, run, vf, scope)
    k.extra["cycles"] = {"scope": scope, "run": run, "per_vf": vf, "vs_vendor": compared}


def _pushq(k: KernelReport):
    scope = k.extra.get("cycles", {}).get("scope", "vf")
    return k.total.get("pushq_vf_cycles") if scope == "run" else k.per_vf.get("cycles")


def _pushq_vendor(k: KernelReport) -> str:
    cmp = k.extra.get("cycles", {}).get("vs_vendor", {})
    for metric in PUSHQ:
        if metric in cmp:
            c = cmp[metric]
            return f"{c['vendor']:g} ({c['error_pct']:+.1f}%)"
    return "-"


COLUMNS = [
    Column("PUSHQ cycles", _pushq),
    Column("vendor (err)", _pushq_vendor),
    Column("IPC", lambda k: k.per_vf.get("ipc")),
    Column("VF bound", lambda k: k.per_vf.get("bottleneck"), align="<"),
]


def register_columns() -> None:
    for col in COLUMNS:
        if col not in EXTRA_COLUMNS:
            EXTRA_COLUMNS.append(col)
