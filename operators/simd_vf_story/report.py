"""Run a selection of simd_vf_story variants and set our counters beside the vendor's figures.

``run_selector("simd_vf_story" | "simd_vf_story/<family>" | "simd_vf_story/<family>/<variant>")``
returns a :class:`StoryReport` (``passed``, ``to_json()``, ``to_text()``).

Which vendor metric is compared with which of our counters, and how, is toolkit.calibration's
(``counter_rows``, ``vf_rows.vs_vendor``). The text view is built from :class:`Column` objects: a later
model (cycles) appends columns to :data:`EXTRA_COLUMNS` and puts its numbers in ``KernelReport.extra``.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable

from toolkit.calibration.counter_rows import Comparison, compare, measured_figures
from toolkit.machine import load_machine
from toolkit.views.counters import run_counters, vf_counters, vf_events

from .hostlib import VariantResult, run_module
from .registry import FAMILIES, MEASUREMENT_SCOPE, VARIANTS, Variant, family_variants

ROOT = "simd_vf_story"

#: scope of the instruction-count columns of the text view, per family (the vendor's tables give
#: per-VF figures for the VF_REPEAT families and run totals for broadcast)
FAMILY_SCOPE = {fam: ("total" if scope == "run" else "per_vf") for fam, scope in MEASUREMENT_SCOPE.items()}


class SelectorError(ValueError):
    """A selector that names no simd_vf_story kernel (one-line message with the valid choices)."""


@dataclass
class KernelReport:
    """One variant: host check, counters of the first VF instance and of the run, vendor figures."""

    variant: Variant
    result: VariantResult
    main_vf: str | None
    per_vf: dict[str, int]
    total: dict[str, int]
    measured: dict[str, float | int] = field(default_factory=dict)
    measured_sum_cycles: dict[str, float | int] = field(default_factory=dict)   # of count/sum_cycles cells
    extra: dict[str, Any] = field(default_factory=dict)     # filled by later models (cycles ...)

    @property
    def passed(self) -> bool:
        return self.result.passed

    def counters(self, scope: str) -> dict[str, int]:
        return self.per_vf if scope == "per_vf" else self.total

    def comparisons(self) -> list[Comparison]:
        return compare(self.measured, self.counters)

    def vendor_for(self, scope: str, key: str) -> Comparison | None:
        for c in self.comparisons():
            if (c.scope, c.key) == (scope, key):
                return c
        return None

    @property
    def calibration_ok(self) -> bool:
        return all(c.ok for c in self.comparisons())

    def to_json(self) -> dict[str, Any]:
        v, r = self.variant, self.result
        return {"group": v.group, "variant": v.cal_variant, "key": v.key, "passed": self.passed,
                "max_error": r.max_error, "tolerance": r.check.rule, "vf_count": self.total["vf_count"],
                "main_vf": self.main_vf, "per_vf": self.per_vf, "total": self.total, "measured": self.measured,
                "measured_sum_cycles": self.measured_sum_cycles,
                "calibration": [c.to_json() for c in self.comparisons()], "calibration_ok": self.calibration_ok,
                "diagnostics": [d.one_line() for d in r.diagnostics], "seconds": round(r.seconds, 4),
                **({"extra": self.extra} if self.extra else {})}


def build_kernel_report(variant: Variant, result: VariantResult) -> KernelReport:
    machine = load_machine()
    vfs = vf_events(result.events)
    per_vf = vf_counters(vfs[0], machine) if vfs else {}
    per_vf.pop("RV_VLOOP", None)         # loop entries already counted as loop_entries
    total = run_counters(result.events, machine)
    total.pop("RV_VLOOP", None)
    measured, sums = measured_figures(variant.group, variant.cal_variant)
    return KernelReport(variant, result, vfs[0].name if vfs else None, per_vf, total, measured, sums)


def select(selector: str) -> list[Variant]:
    """The variants a selector names; :class:`SelectorError` for anything else."""
    parts = selector.strip().strip("/").split("/")
    families = ", ".join(FAMILIES)
    if parts[0] != ROOT or len(parts) > 3:
        raise SelectorError(f"unknown selector {selector!r}: use {ROOT}, {ROOT}/<family> ({families}) "
                            f"or {ROOT}/<family>/<variant>")
    if len(parts) == 1:
        return list(VARIANTS.values())
    if parts[1] not in FAMILIES:
        raise SelectorError(f"unknown family {parts[1]!r} in {selector!r}: one of {families}")
    if len(parts) == 2:
        return family_variants(parts[1])
    key = f"{parts[1]}/{parts[2]}"
    if key not in VARIANTS:
        names = ", ".join(v.name for v in family_variants(parts[1]))
        raise SelectorError(f"unknown variant {parts[2]!r} in {ROOT}/{parts[1]}: one of {names}")
    return [VARIANTS[key]]


# -- text view ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Column:
    """A text-table column: ``ours(k)`` gives our figure, ``vendor(k)`` the comparison shown beside it."""

    header: str
    ours: Callable[[KernelReport], Any]
    vendor: Callable[[KernelReport], Comparison | None] | None = None
    align: str = ">"

    def cell(self, k: KernelReport) -> str:
        value = self.ours(k)
        text = "-" if value is None else (f"{value:g}" if isinstance(value, float) else str(value))
        cmp = self.vendor(k) if self.vendor else None
        if cmp is not None:
            text += f" (vendor {cmp.vendor:g})" + ("" if cmp.ok else " !")
        return text


def counter_column(header: str, scope: str, key: str) -> Column:
    return Column(header, lambda k: k.counters(scope).get(key, 0), lambda k: k.vendor_for(scope, key))


#: columns appended to every table (a cycle model adds e.g. our cycles, vendor cycles, error %)
EXTRA_COLUMNS: list[Column] = []


def key_opcodes(group: str, kernels: list[KernelReport], scope: str) -> list[str]:
    """Opcodes shown for a group: the vendor's RV_* rows first, then every other opcode we counted."""
    machine = load_machine()
    vendor = [m for k in kernels for m in k.measured if m.startswith("RV_")]
    ours = {op for k in kernels for op in k.counters(scope) if op.startswith("RV_")}
    lane_order = {"RVECEX": 0, "RVECLD": 1, "RVECST": 2}
    rest = sorted(ours - set(vendor), key=lambda op: (lane_order.get(machine.instr(op).lane, 3), op))
    return list(dict.fromkeys(vendor)) + rest


def group_columns(family: str, group: str, kernels: list[KernelReport]) -> list[Column]:
    scope = FAMILY_SCOPE.get(family, "per_vf")
    cols = [
        Column("variant", lambda k: k.variant.cal_variant, align="<"),
        Column("check", lambda k: "PASS" if k.passed else "FAIL", align="<"),
        Column("max err", lambda k: f"{k.result.max_error:.2e}"),
        counter_column("VF count", "total", "vf_count"),
        counter_column("loop entries", "total", "loop_entries"),
        counter_column("RVECEX", scope, "rvecex_events"),
    ]
    cols += [counter_column(op, scope, op) for op in key_opcodes(group, kernels, scope)]
    return cols + EXTRA_COLUMNS


def render_table(columns: list[Column], kernels: list[KernelReport]) -> list[str]:
    rows = [[c.header for c in columns]] + [[c.cell(k) for c in columns] for k in kernels]
    widths = [max(len(r[i]) for r in rows) for i in range(len(columns))]
    lines = []
    for n, row in enumerate(rows):
        lines.append("  ".join(f"{t:{c.align}{w}}" for t, c, w in zip(row, columns, widths)).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return lines


@dataclass
class StoryReport:
    selector: str
    kernels: list[KernelReport]
    seconds: float = 0.0
    timing_model: Any = None

    @property
    def passed(self) -> bool:
        return all(k.passed for k in self.kernels)

    @property
    def calibration_ok(self) -> bool:
        return all(k.calibration_ok for k in self.kernels)

    def to_json(self) -> dict[str, Any]:
        return {"selector": self.selector, "passed": self.passed, "calibration_ok": self.calibration_ok,
                "seconds": round(self.seconds, 3), "kernels": [k.to_json() for k in self.kernels]}

    def groups(self) -> dict[str, list[KernelReport]]:
        out: dict[str, list[KernelReport]] = {}
        for k in self.kernels:
            out.setdefault(k.variant.group, []).append(k)
        return out

    def to_text(self) -> str:
        lines: list[str] = []
        for group, kernels in self.groups().items():
            family = kernels[0].variant.family
            scope = FAMILY_SCOPE.get(family, "per_vf")
            what = "per VF instance" if scope == "per_vf" else "summed over the run"
            lines.append(f"== {group}: RVECEX and opcode counts {what}; VF count and loop entries per run; "
                         f"(vendor N) = cannsim figure, ! = mismatch ==")
            lines += render_table(group_columns(family, group, kernels), kernels)
            for k in kernels:
                lines += [f"  {k.variant.cal_variant}: {d.one_line()}" for d in k.result.diagnostics]
            lines.append("")
        n_ok = sum(k.passed for k in self.kernels)
        cal = sum(len(k.comparisons()) for k in self.kernels)
        cal_ok = sum(c.ok for k in self.kernels for c in k.comparisons())
        lines.append(f"{self.selector}: {n_ok}/{len(self.kernels)} host checks PASS, {cal_ok}/{cal} vendor "
                     f"counter figures matched, {self.seconds:.2f} s")
        return "\n".join(lines)


def run_selector(selector: str, with_cycles: bool = True) -> StoryReport:
    variants = select(selector)
    t0 = time.perf_counter()
    kernels = [build_kernel_report(v, run_module(v.module, v.name)) for v in variants]
    report = StoryReport(selector, kernels, time.perf_counter() - t0)
    if with_cycles:
        from toolkit.timing.model import TimingModel

        from .report_cycles import add_cycles, register_columns
        report.timing_model = TimingModel(load_machine())
        register_columns()
        for k in kernels:
            add_cycles(k, report.timing_model)
        report.seconds = time.perf_counter() - t0
    return report
