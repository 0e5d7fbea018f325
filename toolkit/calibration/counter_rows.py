"""Our counters against the vendor's counter rows of ``data/calibration.csv`` (VF count, loop entries,
opcode counts exact; RVECEX events within 1 %), and the measured figures of one kernel's rows.

Which vendor metric is compared with which of our counters is the table :data:`METRICS` (plus every
``RV_*`` opcode, per VF instance: the first number of its ``count/sum_cycles`` cell).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from .vendor_rows import rows_for

#: calibration metric -> (scope, our counter key, relative tolerance; 0 = exact)
METRICS: dict[str, tuple[str, str, float]] = {
    "vf_count": ("total", "vf_count", 0.0),
    "rveclp_sum_cycles": ("total", "loop_entries", 0.0),     # one RVECLP cycle per loop entry
    "rvecex_events": ("per_vf", "rvecex_events", 0.01),
}


def metric_target(metric: str) -> tuple[str, str, float] | None:
    """(scope "total" | "per_vf", our counter key, relative tolerance) of a counter metric; None if not one."""
    if metric in METRICS:
        return METRICS[metric]
    if metric.startswith("RV_"):
        return ("per_vf", metric, 0.0)
    return None


def _number(text: str) -> float | int | None:
    try:
        v = float(text)
    except ValueError:
        return None
    return int(v) if v.is_integer() else v


def measured_figures(group: str, variant: str) -> tuple[dict[str, float | int], dict[str, float | int]]:
    """The vendor's figures of one kernel: (metric -> first number, metric -> sum_cycles of the
    ``count/sum_cycles`` cells)."""
    measured: dict[str, float | int] = {}
    sums: dict[str, float | int] = {}
    for row in rows_for(group, variant):
        parts = [_number(p) for p in row.value.split("/")]
        if parts[0] is None:
            continue
        measured[row.metric] = parts[0]
        if len(parts) > 1 and parts[1] is not None:
            sums[row.metric] = parts[1]
    return measured, sums


@dataclass
class Comparison:
    metric: str
    scope: str
    key: str
    ours: float
    vendor: float
    rel_tol: float

    @property
    def ok(self) -> bool:
        if self.rel_tol == 0:
            return self.ours == self.vendor
        return abs(self.ours - self.vendor) <= self.rel_tol * abs(self.vendor)

    @property
    def error_pct(self) -> float:
        return 100.0 * (self.ours - self.vendor) / self.vendor if self.vendor else 0.0

    def to_json(self) -> dict[str, Any]:
        return {"metric": self.metric, "scope": self.scope, "counter": self.key, "ours": self.ours,
                "vendor": self.vendor, "rule": "exact" if self.rel_tol == 0 else f"within {self.rel_tol:.0%}",
                "error_pct": round(self.error_pct, 3), "ok": self.ok}


def compare(measured: dict[str, float | int], counters: Callable[[str], dict]) -> list[Comparison]:
    """A comparison per counter metric of ``measured``; ``counters(scope)`` gives our counters of a scope."""
    out = []
    for metric, vendor in measured.items():
        target = metric_target(metric)
        if target is not None:
            scope, key, tol = target
            out.append(Comparison(metric, scope, key, counters(scope).get(key, 0), vendor, tol))
    return out
