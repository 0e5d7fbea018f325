"""Fitting the whole-kernel machine settings (scalar, memory, launch) against the hardware rows.

``python -m toolkit.calibration.whole_kernel_fit [--fit]`` prints the whole-kernel table under the
machine file (and, with ``--fit``, under the settings the search finds, listed on stderr).
"""
from __future__ import annotations

import argparse
import sys

from toolkit.machine import Machine, load_machine, with_overrides

from . import whole_kernel as wk
from .search import coordinate_search

#: what the fit may move: (section, key, candidates)
SEARCH = [
    ("scalar", "entry_cycles", [1200, 1350, 1500, 1650]),
    ("scalar", "membase_call_cycles", [20, 30, 40, 50]),
    ("scalar", "flag_latency_cycles", [5, 10, 20, 40]),
    ("memory", "gm_read_bytes_per_cycle", [800, 880, 970]),
    ("memory", "dma_outstanding_bytes", [8192, 16384, 32768]),
    ("launch", "launch_cycles", [1650, 2200, 2800, 3300, 3800]),
]


def fit(launches: dict, machine: Machine, rounds: int = 2) -> tuple[Machine, float]:
    """Coordinate search over :data:`SEARCH` minimising :func:`~.whole_kernel.objective` on ``launches``
    (see :func:`~.whole_kernel.collect`)."""
    def machine_of(values: tuple) -> Machine:
        m = machine
        for (section, key, _), v in zip(SEARCH, values):
            if m.params[section][key] != v:
                m = with_overrides(m, section, **{key: v})
        return m

    start = tuple(machine.params[section][key] for section, key, _ in SEARCH)
    best, score = coordinate_search(start, lambda k, _: SEARCH[k][2],
                                    lambda values: wk.objective(wk.predict_rows(launches, machine_of(values))),
                                    rounds)
    return machine_of(best), score


def leave_one_variant_out(launches: dict, machine: Machine, rounds: int = 2) -> dict[tuple[str, str], list]:
    """For each whole-kernel variant: the settings fitted on the other variants of its group (from
    ``machine``), its rows predicted under them. (group, variant) -> its held-out predictions. A group
    with one variant has nothing to fit on and is left out."""
    out = {}
    for key in launches:
        rest = {k: v for k, v in launches.items() if k != key and k[0] == key[0]}
        if not rest:
            continue
        fitted, _ = fit(rest, machine, rounds)
        out[key] = [p for p in wk.predict_rows({key: launches[key]}, fitted) if p.ours is not None]
    return out


def loo_summary(folds: dict[tuple[str, str], list]) -> dict:
    """Task-time MAPE of the held-out predictions and each variant's task error (%)."""
    task = {f"{g}/{v}": next((p.error_pct for p in ps if p.row.metric == "task_us"), None)
            for (g, v), ps in folds.items()}
    errs = [abs(e) for e in task.values() if e is not None]
    return {"task_mape": round(sum(errs) / len(errs), 2) if errs else None,
            "task_error_pct": {k: None if e is None else round(e, 2) for k, e in task.items()}}


def loo_text(summary: dict) -> str:
    if summary["task_mape"] is None:
        return "whole-kernel leave-one-variant-out: no group with two variants"
    each = ", ".join(f"{k} {e:+.1f}%" for k, e in summary["task_error_pct"].items() if e is not None)
    return (f"whole-kernel leave-one-variant-out (settings fitted on the other variants): task MAPE "
            f"{summary['task_mape']:.1f}% ({each})")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="whole-kernel rows: measured vs predicted")
    ap.add_argument("--fit", action="store_true", help="search the whole-kernel machine settings")
    args = ap.parse_args(argv)
    launches = wk.collect()
    machine = load_machine()
    if args.fit:
        machine, score = fit(launches, machine)
        print(f"fitted objective {score:.2f}", file=sys.stderr)
        for section, key, _ in SEARCH:
            print(f"  [{section}] {key} = {machine.params[section][key]}", file=sys.stderr)
    print(wk.report(wk.predict_rows(launches, machine)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
