"""What scripts/calibrate.py prints: every VF cycle row measured vs predicted, the leave-one-family-out
table, the acceptance summary (text), and the same as JSON with the whole-kernel rows."""
from __future__ import annotations

from toolkit.machine import load_machine

from . import vf_rows
from .vf_fit import FITTED, Fold, loo_mape
from .vf_rows import Prediction


def table(preds: list[Prediction]) -> str:
    lines = [f"{'group':16s} {'variant':28s} {'metric':22s} {'measured':>9s} {'predicted':>9s} {'error':>8s}"]
    for p in preds:
        ours = "-" if p.ours is None else f"{p.ours:.0f}"
        err = "n/m" if p.error_pct is None else f"{p.error_pct:+.1f}%"
        lines.append(f"{p.row.kernel:16s} {p.row.variant:28s} {p.row.metric:22s} {p.measured:9.0f} {ours:>9s} {err:>8s}")
    return "\n".join(lines)


def loo_table(folds: list[Fold]) -> str:
    """Leave-one-family-out: each group's VF rows predicted by a fit made without them."""
    lines = ["leave-one-family-out (fit without the group, predict it):",
             f"{'group':16s} {'variant':28s} {'measured':>9s} {'predicted':>9s} {'error':>8s}  refitted"]
    base = load_machine()
    for f in folds:
        moved = ", ".join(f"{p.key}={v}" for p, v in zip(FITTED, f.values) if v != p.get(base)) or "-"
        for p in f.held_out:
            lines.append(f"{p.row.kernel:16s} {p.row.variant[:28]:28s} {p.measured:9.0f} {p.ours:9.0f} "
                         f"{p.error_pct:+7.1f}%  {moved}")
    return "\n".join(lines)


def row_json(p: Prediction) -> dict:
    return {"group": p.row.kernel, "variant": p.row.variant, "metric": p.row.metric, "measured": p.measured,
            "predicted": p.ours, "error_pct": p.error_pct}


def vf_summary(preds: list[Prediction], folds: list[Fold] | None) -> dict:
    """The acceptance figures: whole-VF rows, their MAPE, leave-one-family-out MAPE, orderings."""
    s = vf_rows.summary(preds)
    return {"vf_rows": s["vf_rows"], "vf_mape": s["vf_mape"],
            "loo_mape": None if folds is None else round(loo_mape(folds), 2),
            "orderings": s["orderings"], "orderings_ok": s["orderings_ok"]}


def report(preds: list[Prediction], folds: list[Fold] | None = None) -> str:
    s = vf_rows.summary(preds)
    out = [table(preds), ""]
    if folds is not None:
        out += [loo_table(folds), ""]
    v = vf_summary(preds, folds)
    loo = "not computed (--no-loo)" if v["loo_mape"] is None else f"{v['loo_mape']:.1f}% (target <= 10%)"
    out.append(f"whole-VF cycles: {v['vf_rows']} rows, MAPE {v['vf_mape']:.1f}% (target <= 5%); "
               f"leave-one-family-out MAPE {loo}")
    out.append(f"orderings within groups: {s['orderings_ok']}/{s['orderings']} reproduced")
    for o in vf_rows.orderings(preds):
        out.append(f"  [{'ok' if o.ok else 'MISS'}] {o.describe()}")
    out.append(f"MTE2/MTE3 sum_cycles: {s['mte_rows']} rows, {s['mte_over_20pct']} outside 20%")
    out.append(f"per-opcode sum_cycles: {s['opcode_sum_rows']} rows, MAPE {s['opcode_sum_mape']:.1f}%, "
               f"{s['opcode_sum_over_10pct']} outside 10%")
    out.append("n/m = not modelled (RVECSU: scalar address work inside the VF)")
    return "\n".join(out)


def json_data(preds: list[Prediction], folds: list[Fold] | None, whole_kernel: dict) -> dict:
    """The ``--json`` document: VF rows, held-out predictions, summary, whole-kernel rows."""
    return {"rows": [row_json(p) for p in preds],
            "loo": [] if folds is None else [row_json(p) for f in folds for p in f.held_out],
            "summary": {**vf_rows.summary(preds), **vf_summary(preds, folds)},
            "whole_kernel": whole_kernel}
