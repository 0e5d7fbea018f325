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
