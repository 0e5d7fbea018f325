#!/usr/bin/env python3
"""Regenerate the pinned calibration snapshot (review the diff; commit it with the model version).

    python scripts/snapshot_calibration.py

Writes ``tests/snapshots/calibrate.txt`` (what ``scripts/calibrate.py`` prints: the fit table and the
leave-one-family-out table) and ``tests/snapshots/calibrate.json``: the machine version, every cycle
figure of the calibration table, the acceptance summary, the KV headline cycles of both backends,
and for every fitted parameter a *witness*: the figure that moves most when the parameter is doubled
(``tests/test_calibration_snapshot.py`` checks that the witness still leaves its tolerance band, so a
fitted parameter can never drift without a failing test).
"""
from __future__ import annotations

import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from toolkit.calibration import report, vf_fit, vf_rows  # noqa: E402
from toolkit.machine import load_machine  # noqa: E402

SNAPSHOT_DIR = ROOT / "tests" / "snapshots"
REL_BAND, ABS_BAND = 0.01, 2.0      #: a figure may move by max(1 %, 2 cycles) without a snapshot update


def band(value: float) -> float:
    return max(REL_BAND * abs(value), ABS_BAND)


def doubled(value):
    """The 2x perturbation of a fitted value (0 -> 1: doubling zero changes nothing)."""
    return value * 2 if value else 1


def row_key(p) -> str:
    return f"{p.row.kernel} | {p.row.variant} | {p.row.metric}"


def kv_headline(machine) -> dict:
    """Kernel cycles of the KV sample (default shape) on both backends."""
    from operators.kv_rms_norm_rope_cache import host
    from toolkit.timing.model import TimingModel
    p = host.KvParams()
    case = host.load_case(p, None)
    out = {}
    for backend in ("membase", "regbase"):
        run = host.run_backend(backend, p, case, machine)
        out[backend] = TimingModel(machine).launch(run.launch).kernel_cycles
    return out


def witnesses(ev: vf_fit.Evaluator, preds: list) -> dict:
    """Per fitted (or pinned) parameter: the figure that moves most, in bands, when it is doubled."""
    base = {row_key(p): p.ours for p in preds if p.ours is not None}
    out = {}
    for param in vf_fit.FITTED + vf_fit.PINNED:
        value = param.get(ev.base)
        moved = [(abs(p.ours - base[row_key(p)]) / band(base[row_key(p)]), p)
                 for p in vf_rows.predict_rows(ev.events, param.set(ev.base, doubled(value)))
                 if p.ours is not None and row_key(p) in base]
        score, p = max(moved, key=lambda m: m[0])
        out[param.key] = {"value": value, "doubled": doubled(value), "row": row_key(p), "variant": p.source.key,
                          "predicted": base[row_key(p)], "predicted_doubled": p.ours, "bands_moved": round(score, 2)}
    return out


def main() -> int:
    machine = load_machine()
    ev = vf_fit.Evaluator(vf_rows.collect(), machine)
    values = ev.values(machine)
    preds = ev.predictions(values)
    folds = vf_fit.leave_one_family_out(ev, values)
    SNAPSHOT_DIR.mkdir(parents=True, exist_ok=True)
    (SNAPSHOT_DIR / "calibrate.txt").write_text(report.report(preds, folds) + "\n", encoding="utf-8")
    data = {
        "model_version": machine.version,
        "band": {"relative": REL_BAND, "cycles": ABS_BAND},
        "summary": report.vf_summary(preds, folds),
        "rows": {row_key(p): p.ours for p in preds if p.ours is not None},
        "kv_kernel_cycles": kv_headline(machine),
        "witnesses": witnesses(ev, preds),
    }
    (SNAPSHOT_DIR / "calibrate.json").write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    weak = [k for k, w in data["witnesses"].items() if w["bands_moved"] <= 1.0]
    print(f"snapshot of model {machine.version}: {len(data['rows'])} figures, "
          f"VF MAPE {data['summary']['vf_mape']}%, LOO MAPE {data['summary']['loo_mape']}%")
    if weak:
        print("fitted parameters that move no figure out of its band when doubled: " + ", ".join(weak))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
