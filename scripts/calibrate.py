#!/usr/bin/env python3
"""Judge (and optionally fit) the cycle model against the vendor-measured calibration table.

    python scripts/calibrate.py            # per-row table, MAPE, orderings, acceptance summary
    python scripts/calibrate.py --json -   # the same as JSON
    python scripts/calibrate.py --fit      # coordinate search over the fitted machine parameters
    python scripts/calibrate.py --no-loo   # skip the leave-one-family-out refits (faster)

Fitting and judging are apart (toolkit/calibration/vf_fit.py): the fit moves only the declared
fitted machine parameters (never a kernel) to minimise the whole-VF cycle MAPE of the rows it is
given plus a penalty per violated ordering; ``--hold-out`` leaves groups out of it, ``--write``
stores the values in the machine file. Every run also judges the model leave-one-family-out: each
group's rows predicted by a fit made without them (loo_mape). The kernels behind the rows are the
ones the operator packages register (entry-point group ``migrate_check.calibration``).
"""
from __future__ import annotations

import json
import sys
from importlib import resources

from toolkit.calibration import report, vf_fit, vf_rows, whole_kernel, whole_kernel_fit
from toolkit.calibration.sources import RegistrationError, registered
from toolkit.cli import ArgParser, BadUsage, guarded, write_output
from toolkit.console.outputs import OutputPlan
from toolkit.machine import isa, load_machine

MACHINE_FILE = "machine/ascend950.toml"


def write_machine(machine) -> None:
    """Store fitted values in the machine file (value fields only; sources stay)."""
    path = resources.files("toolkit").joinpath(MACHINE_FILE)
    text = vf_fit.machine_file_text(path.read_text(encoding="utf-8"), machine, load_machine())
    write_output(str(path), text)              # atomic, keeps the file mode


def held_out(option: str) -> frozenset[str]:
    """The groups of ``--hold-out`` (comma-separated); an unknown group is a usage error."""
    held = [g for g in option.split(",") if g]
    known = vf_rows.vf_groups()
    unknown = [g for g in held if g not in known]
    if unknown:
        raise BadUsage(f"--hold-out: unknown calibration group {', '.join(map(repr, unknown))} "
                       f"(groups with VF cycle rows: {', '.join(known)})")
    return frozenset(held)


def parse(argv: list[str] | None):
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
    if args.hold_out and not args.fit:
        raise BadUsage("--hold-out needs --fit (it leaves groups out of the fit)")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    plan = OutputPlan({"json": args.json})     # every output checked before the work
    if args.write:
        OutputPlan({"machine": str(resources.files("toolkit").joinpath(MACHINE_FILE))})
    try:
        registered()
    except RegistrationError as err:
        raise BadUsage(str(err)) from None
    held = held_out(args.hold_out)
    ev = vf_fit.Evaluator(vf_rows.collect(), load_machine())
    values = ev.values(ev.base)
    if args.fit:
        values, score = vf_fit.fit(ev, values, held, rounds=3, log=True)
        print(f"fitted objective {score:.2f} (held out: {', '.join(sorted(held)) or 'none'})", file=sys.stderr)
        for param, v in zip(vf_fit.FITTED, values):
            print(f"  {param.key} = {v}", file=sys.stderr)
        if args.write:
            write_machine(ev.machine(values))
    preds = ev.predictions(values)
    wk_launches = whole_kernel.collect()
    wk_data, wk_text = whole_kernel.rows(ev.machine(values), wk_launches)   # hardware rows (task, pipe busy)
    folds = None if args.no_loo else vf_fit.leave_one_family_out(ev, values)
    if not args.no_loo:                        # each variant judged by settings fitted without it
        wk_data["leave_one_variant_out"] = whole_kernel_fit.loo_summary(
            whole_kernel_fit.leave_one_variant_out(wk_launches, ev.machine(values)))
        wk_text += "\n" + whole_kernel_fit.loo_text(wk_data["leave_one_variant_out"])
    if "json" in plan:
        plan.commit({"json": json.dumps(report.json_data(preds, folds, wk_data), indent=2)})
    if not plan.stdout_taken:
        print(report.report(preds, folds))
        print("\n" + wk_text)
        guessed = isa.assumed(ev.machine(values))
        print(f"\nassumed instruction costs (no measured figure, see their source notes): {len(guessed)}: "
              + ", ".join(guessed))
    return 0


if __name__ == "__main__":
    sys.exit(guarded("calibrate.py", main))
