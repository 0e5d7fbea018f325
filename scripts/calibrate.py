#!/usr/bin/env python3
"""Judge (and optionally fit) the cycle model against the vendor-measured calibration table.

    python scripts/calibrate.py            # per-row table, MAPE, orderings, acceptance summary
    python scripts/calibrate.py --json -   # the same as JSON
    python scripts/calibrate.py --fit      # coordinate search over the fitted machine parameters
    python scripts/calibrate.py --no-loo   # skip the leave-one-family-out refits (faster)

Fitting and judging are apart (operators/simd_vf_story/fitting.py): the fit moves only the declared
fitted machine parameters (never a kernel) to minimise the whole-VF cycle MAPE of the rows it is
given plus a penalty per violated ordering; ``--hold-out`` leaves groups out of it, ``--write``
stores the values in the machine file. Every run also judges the model leave-one-family-out: each
group's rows predicted by a fit made without them (loo_mape).
"""
from __future__ import annotations

import json
import re
import sys
from importlib import resources

from operators.simd_vf_story import calibration as cal
from operators.simd_vf_story import fitting
from operators.softmax import calibration as whole_kernel
from toolkit.cli import ArgParser, BadUsage, guarded, write_output
from toolkit.console.outputs import OutputPlan
from toolkit.machine import load_machine


def write_machine(machine) -> None:
    """Store fitted values in the machine file (value fields only; sources stay)."""
    path = resources.files("toolkit").joinpath("machine/ascend950.toml")
    text = path.read_text(encoding="utf-8")
    base = load_machine()
    for param in fitting.FITTED:
        kind, key, new = param.kind, param.key, param.get(machine)
        if new == param.get(base):
            continue
        if kind == "timing":
            text = re.sub(rf"^({key} = {{ value = )[^,]+", rf"\g<1>{new}", text, flags=re.M)
        else:
            op, field = key.split(".")
            block = re.search(rf"^\[instructions\.{op}\]\n(?:[^\[].*\n)*", text, flags=re.M)
            patched = re.sub(rf"^{field} = .*$", f"{field} = {new}", block.group(0), flags=re.M)
            text = text[:block.start()] + patched + text[block.end():]
    write_output(str(path), text)              # atomic, keeps the file mode


def table(preds) -> str:
    lines = [f"{'group':16s} {'variant':28s} {'metric':22s} {'measured':>9s} {'predicted':>9s} {'error':>8s}"]
    for p in preds:
        ours = "-" if p.ours is None else f"{p.ours:.0f}"
        err = "n/m" if p.error_pct is None else f"{p.error_pct:+.1f}%"
        lines.append(f"{p.row.kernel:16s} {p.row.variant:28s} {p.row.metric:22s} {p.measured:9.0f} {ours:>9s} {err:>8s}")
    return "\n".join(lines)


def loo_table(folds) -> str:
    """Leave-one-family-out: each group's VF rows predicted by a fit made without them."""
    lines = ["leave-one-family-out (fit without the group, predict it):",
             f"{'group':16s} {'variant':28s} {'measured':>9s} {'predicted':>9s} {'error':>8s}  refitted"]
    for f in folds:
        moved = ", ".join(f"{p.key}={v}" for p, v in zip(fitting.FITTED, f.values)
                          if v != p.get(load_machine())) or "-"
        for p in f.held_out:
            lines.append(f"{p.row.kernel:16s} {p.row.variant[:28]:28s} {p.measured:9.0f} {p.ours:9.0f} "
                         f"{p.error_pct:+7.1f}%  {moved}")
    return "\n".join(lines)


def row_json(p) -> dict:
    return {"group": p.row.kernel, "variant": p.row.variant, "metric": p.row.metric, "measured": p.measured,
            "predicted": p.ours, "error_pct": p.error_pct}


def vf_summary(preds, folds) -> dict:
    """The acceptance figures: whole-VF rows, their MAPE, leave-one-family-out MAPE, orderings."""
    s = cal.summary(preds)
    return {"vf_rows": s["vf_rows"], "vf_mape": s["vf_mape"],
            "loo_mape": None if folds is None else round(fitting.loo_mape(folds), 2),
            "orderings": s["orderings"], "orderings_ok": s["orderings_ok"]}


def report(preds, folds=None) -> str:
    s = cal.summary(preds)
    out = [table(preds), ""]
    if folds is not None:
        out += [loo_table(folds), ""]
    v = vf_summary(preds, folds)
    loo = "not computed (--no-loo)" if v["loo_mape"] is None else f"{v['loo_mape']:.1f}% (target <= 10%)"
    out.append(f"whole-VF cycles: {v['vf_rows']} rows, MAPE {v['vf_mape']:.1f}% (target <= 5%); "
               f"leave-one-family-out MAPE {loo}")
    out.append(f"orderings within groups: {s['orderings_ok']}/{s['orderings']} reproduced")
    for o in cal.orderings(preds):
        out.append(f"  [{'ok' if o.ok else 'MISS'}] {o.describe()}")
    out.append(f"MTE2/MTE3 sum_cycles: {s['mte_rows']} rows, {s['mte_over_20pct']} outside 20%")
    out.append(f"per-opcode sum_cycles: {s['opcode_sum_rows']} rows, MAPE {s['opcode_sum_mape']:.1f}%, "
               f"{s['opcode_sum_over_10pct']} outside 10%")
    out.append("n/m = not modelled (RVECSU: scalar address work inside the VF)")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = ArgParser(prog="calibrate.py", description=__doc__.splitlines()[0])
    ap.add_argument("--fit", action="store_true", help="search machine timing parameters")
    ap.add_argument("--write", action="store_true", help="with --fit: store the fitted values in the machine file")
    ap.add_argument("--json", default=None, help="write rows and summary as JSON to PATH ('-' = stdout)")
    ap.add_argument("--hold-out", default="", metavar="GROUP[,GROUP]",
                    help="with --fit: calibration groups left out of the fit (judged only)")
    ap.add_argument("--no-loo", action="store_true", help="skip the leave-one-family-out refits")
    args = ap.parse_args(argv)
    if args.write and not args.fit:
        raise BadUsage("--write needs --fit (it stores the fitted values)")
    plan = OutputPlan({"json": args.json})     # every output checked before the work
    if args.write:
        OutputPlan({"machine": str(resources.files("toolkit").joinpath("machine/ascend950.toml"))})
    events = cal.collect()
    ev = fitting.Evaluator(events, load_machine())
    values = ev.values(ev.base)
    if args.fit:
        held = frozenset(g for g in args.hold_out.split(",") if g)
        values, score = fitting.fit(ev, values, held, rounds=3, log=True)
        print(f"fitted objective {score:.2f} (held out: {', '.join(sorted(held)) or 'none'})", file=sys.stderr)
        for param, v in zip(fitting.FITTED, values):
            print(f"  {param.key} = {v}", file=sys.stderr)
        if args.write:
            write_machine(ev.machine(values))
    preds = ev.predictions(values)
    wk_data, wk_text = whole_kernel.rows(ev.machine(values))   # hardware whole-kernel rows (task, pipe busy)
    folds = None if args.no_loo else fitting.leave_one_family_out(ev, values)
    if "json" in plan:
        data = {"rows": [row_json(p) for p in preds],
                "loo": [] if folds is None else [row_json(p) for f in folds for p in f.held_out],
                "summary": {**cal.summary(preds), **vf_summary(preds, folds)}}
        data["whole_kernel"] = wk_data
        plan.commit({"json": json.dumps(data, indent=2)})
    if not plan.stdout_taken:
        print(report(preds, folds))
        print("\n" + wk_text)
    return 0


if __name__ == "__main__":
    sys.exit(guarded("calibrate.py", main))
