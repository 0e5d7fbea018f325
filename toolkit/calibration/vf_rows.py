"""Our cycle figures for every cycle row of ``data/calibration.csv``, and how they are scored.

The functional run of each registered kernel happens once (:func:`collect`); the timing view is
recomputed for any machine model (:func:`predict_rows`), which is what fitting needs. Nothing here
knows a kernel by name: rows are matched to the registered :class:`~.sources.VfSource` by group and
variant, and the vendor's measurement scope is the source's (run sums, or one VF instance).
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from toolkit.machine import Machine
from toolkit.timing.model import TimingModel

from .cannsim import predict, run_metrics, vf_metrics
from .sources import VfSource, vf_sources
from .vendor_rows import CalRow, load_calibration

PUSHQ = ("pushq_vf_sum_cycles", "pushq_vf_cycles", "vf_cycles")
MTE = ("mte2_sum_cycles", "mte3_sum_cycles")
NOT_MODELLED = ("rvecsu_sum_cycles",)
CYCLE_METRICS = PUSHQ + MTE + NOT_MODELLED + ("push_pb_sum_cycles", "rvecex_sum_cycles", "rvecld_sum_cycles",
                                              "steady_cycles", "rveclp_sum_cycles")


@dataclass
class Prediction:
    row: CalRow
    source: VfSource
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


def collect(sources: list[VfSource] | None = None) -> dict[str, list]:
    """Functional run of each source (every registered one by default): key -> its core's event stream."""
    return {s.key: s.run() for s in (sources or vf_sources())}


def is_cycle_row(row: CalRow) -> bool:
    return row.metric in CYCLE_METRICS or (row.metric.startswith("RV_") and row.second is not None)


def vf_groups() -> list[str]:
    """The groups with whole-VF cycle rows of a registered kernel (what a fit can hold out), in table order."""
    rows = {(s.group, s.variant) for s in vf_sources()}
    return list(dict.fromkeys(r.kernel for r in load_calibration() if r.metric in PUSHQ and (r.kernel, r.variant) in rows))


def predict_rows(events: dict[str, list], machine: Machine) -> list[Prediction]:
    """One prediction per cycle row whose kernel is in ``events`` (key -> event stream), in table order."""
    by_row = {(s.group, s.variant): s for s in vf_sources()}
    model = TimingModel(machine)
    metrics: dict[str, tuple[dict, dict]] = {}
    for key, evs in events.items():
        core = model.core(0, evs)
        first_vf = core.vfs[0][1] if core.vfs else None
        metrics[key] = (run_metrics(core), vf_metrics(first_vf) if first_vf else {})
    out = []
    for row in load_calibration():
        s = by_row.get((row.kernel, row.variant))
        if s is None or s.key not in metrics or not is_cycle_row(row):
            continue
        run, vf = metrics[s.key]
        if row.metric.startswith("RV_"):
            ours = predict(row.metric, run, vf, s.scope)[1]
            measured = row.second
        elif row.metric in NOT_MODELLED:
            ours, measured = None, row.number
        else:
            ours, measured = predict(row.metric, run, vf, s.scope)[0], row.number
        out.append(Prediction(row, s, measured, ours))
    return out


def vs_vendor(measured: dict, sums: dict, run: dict, vf: dict, scope: str) -> dict[str, dict]:
    """Our cycle figure beside each measured cycle figure of one kernel (``measured``, ``sums``: see
    :func:`~.counter_rows.measured_figures`; ``run``, ``vf``: :mod:`.cannsim` metrics): metric (``RV_X:sum_cycles``
    for opcode cells) -> ours, vendor, error %."""
    compared = {}
    for metric, value in measured.items():
        if metric.startswith("RV_"):
            ours = predict(metric, run, vf, scope)[1]
            value = sums.get(metric)
            metric = f"{metric}:sum_cycles"
        elif metric.endswith("cycles") and metric != "rveclp_sum_cycles":
            ours = predict(metric, run, vf, scope)[0]
        else:
            continue
        if ours is None or value is None:
            continue
        compared[metric] = {"ours": ours, "vendor": value,
                            "error_pct": round(100.0 * (ours - value) / value, 2) if value else None}
    return compared


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
