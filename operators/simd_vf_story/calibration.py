"""Our cycle figures for every cycle row of calibration.csv, and the acceptance summary.

The functional run of each variant happens once (:func:`collect`); the timing view is recomputed for
any machine model (:func:`predict_rows`), which is what fitting needs. Nothing here knows a kernel by
name: rows are matched to variants through the registry, and the vendor's measurement scope comes
from the family (run sums for broadcast, one VF of the VF_REPEAT loop otherwise).
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from operators.vf_micro.registry import VARIANTS as MICRO_VARIANTS
from toolkit.calibration.vendor_rows import CalRow, load_calibration
from toolkit.machine import Machine
from toolkit.timing.model import TimingModel
from toolkit.views.cannsim import predict, run_metrics, vf_metrics

from .hostlib import run_module
from .registry import MEASUREMENT_SCOPE, Variant
from .registry import VARIANTS as STORY_VARIANTS

#: every calibrated kernel: the story variants and the VF micro-kernels
VARIANTS: dict[str, Variant] = {**STORY_VARIANTS, **MICRO_VARIANTS}
#: (calibration group, calibration variant) -> the kernel its rows measure
BY_ROW: dict[tuple[str, str], Variant] = {(v.group, v.cal_variant): v for v in VARIANTS.values()}

PUSHQ = ("pushq_vf_sum_cycles", "pushq_vf_cycles", "vf_cycles")
MTE = ("mte2_sum_cycles", "mte3_sum_cycles")
NOT_MODELLED = ("rvecsu_sum_cycles",)
CYCLE_METRICS = PUSHQ + MTE + NOT_MODELLED + ("push_pb_sum_cycles", "rvecex_sum_cycles", "rvecld_sum_cycles",
                                              "steady_cycles", "rveclp_sum_cycles")


@dataclass
class Prediction:
    row: CalRow
    variant: Variant
    measured: float
    ours: float | None

    @property
    def kind(self) -> str:
        m = self.row.metric
        if m in PUSHQ:
            return "pushq"
        if m in MTE:
            return "mte"
        if m.startswith("RV_"):
            return "opcode_sum"
        return "other"

    @property
    def error_pct(self) -> float | None:
        if self.ours is None or not self.measured:
            return None
        return 100.0 * (self.ours - self.measured) / self.measured


def collect(variants: list[Variant] | None = None) -> dict[str, list]:
    """Functional run of each variant: key -> its core's event stream."""
    return {v.key: run_module(v.module, v.name).events for v in (variants or VARIANTS.values())}


def is_cycle_row(row: CalRow) -> bool:
    return row.metric in CYCLE_METRICS or (row.metric.startswith("RV_") and row.second is not None)


def predict_rows(events: dict[str, list], machine: Machine) -> list[Prediction]:
    model = TimingModel(machine)
    metrics: dict[str, tuple[dict, dict]] = {}
    for key, evs in events.items():
        core = model.core(0, evs)
        first_vf = core.vfs[0][1] if core.vfs else None
        metrics[key] = (run_metrics(core), vf_metrics(first_vf) if first_vf else {})
    out = []
    for row in load_calibration():
        v = BY_ROW.get((row.kernel, row.variant))
        if v is None or v.key not in metrics or not is_cycle_row(row):
            continue
        run, vf = metrics[v.key]
        scope = MEASUREMENT_SCOPE.get(v.family, "vf")
        if row.metric.startswith("RV_"):
            ours = predict(row.metric, run, vf, scope)[1]
            measured = row.second
        elif row.metric in NOT_MODELLED:
            ours, measured = None, row.number
        else:
            ours, measured = predict(row.metric, run, vf, scope)[0], row.number
        out.append(Prediction(row, v, measured, ours))
    return out


def mape(preds: list[Prediction], kind: str) -> float:
    errs = [abs(p.error_pct) for p in preds if p.kind == kind and p.error_pct is not None]
    return sum(errs) / len(errs) if errs else 0.0


@dataclass
class OrderCheck:
    group: str
    a: Prediction
    b: Prediction
    measured_gap: float
    ok: bool

    def describe(self) -> str:
        rel = "faster than" if self.a.measured < self.b.measured else "slower than"
        if self.measured_gap < 5.0:
            rel = "within 5% of"
        return (f"{self.group}: {self.a.row.variant} {rel} {self.b.row.variant} "
                f"(measured {self.a.measured:.0f} vs {self.b.measured:.0f}, ours {self.a.ours:.0f} vs {self.b.ours:.0f})")


def _gap(x: float, y: float) -> float:
    return 100.0 * abs(x - y) / min(x, y)


def orderings(preds: list[Prediction]) -> list[OrderCheck]:
    """Within each group: a measured gap >= 5% must keep its sign; pairs within 5% must stay within 5%."""
    out = []
    by_group: dict[str, list[Prediction]] = {}
    for p in preds:
        if p.kind == "pushq" and p.ours is not None:
            by_group.setdefault(p.row.kernel, []).append(p)
    for group, ps in by_group.items():
        for a, b in combinations(ps, 2):
            gap = _gap(a.measured, b.measured)
            if gap >= 5.0:
                ok = (a.measured < b.measured) == (a.ours < b.ours)
            else:
                ok = _gap(a.ours, b.ours) < 5.0
            out.append(OrderCheck(group, a, b, gap, ok))
    return out


def summary(preds: list[Prediction]) -> dict:
    orders = orderings(preds)
    within = lambda kind, tol: [p for p in preds if p.kind == kind and p.error_pct is not None  # noqa: E731
                                and abs(p.error_pct) > tol]
    vf_rows, vf_mape = sum(p.kind == "pushq" for p in preds), round(mape(preds, "pushq"), 2)
    return {
        "pushq_rows": vf_rows,
        "pushq_mape": vf_mape,
        "vf_rows": vf_rows,              # the same figures under the acceptance name (every whole-VF cycle row)
        "vf_mape": vf_mape,
        "orderings": len(orders),
        "orderings_ok": sum(o.ok for o in orders),
        "mte_rows": sum(p.kind == "mte" for p in preds),
        "mte_over_20pct": len(within("mte", 20.0)),
        "opcode_sum_rows": sum(p.kind == "opcode_sum" for p in preds),
        "opcode_sum_over_10pct": len(within("opcode_sum", 10.0)),
        "opcode_sum_mape": round(mape(preds, "opcode_sum"), 2),
    }
