"""The softmax variants as whole-kernel calibration rows (``toolkit/calibration/data/hw_whole_kernel.csv``).

:func:`collect` runs each variant once on the sample's data (functional run, all 32 cores);
:func:`predict_rows` times those launches under any machine model, so fitting re-times without
re-running. ``python -m operators.softmax.calibration [--fit]`` prints the table (and searches the
whole-kernel machine settings: scalar costs, shared GM bandwidth, launch; never a kernel).
"""
from __future__ import annotations

import argparse
import sys

from toolkit.calibration import whole_kernel as ck
from toolkit.calibration.search import coordinate_search
from toolkit.machine import Machine, load_machine, with_overrides
from toolkit.timing.model import TimingModel

from . import host

KERNEL = "softmax"

#: what ``--fit`` may move: (section, key, candidates)
SEARCH = [
    ("scalar", "entry_cycles", [1200, 1350, 1500, 1650]),
    ("scalar", "membase_call_cycles", [20, 30, 40, 50]),
    ("scalar", "flag_latency_cycles", [5, 10, 20, 40]),
    ("memory", "gm_read_bytes_per_cycle", [800, 880, 970]),
    ("memory", "dma_outstanding_bytes", [8192, 16384, 32768]),
    ("launch", "launch_cycles", [1650, 2200, 2800, 3300, 3800]),
]


def collect() -> dict[str, object]:
    """variant -> its LaunchResult (the event streams of every core)."""
    x, golden = host.gen_data()
    machine = load_machine()
    return {v: host.run_variant(v, x, golden, machine=machine).launch for v in host.VARIANTS}


def predict_rows(launches: dict[str, object], machine: Machine) -> list[ck.KernelPrediction]:
    model = TimingModel(machine)
    return ck.predict({(KERNEL, v): model.launch(result) for v, result in launches.items()})


def rows(machine: Machine) -> tuple[dict, str]:
    """The whole-kernel rows under ``machine`` for scripts/calibrate.py: (JSON data, text report)."""
    preds = predict_rows(collect(), machine)
    data = {"rows": [{"group": p.row.kernel, "variant": p.row.variant, "metric": p.row.metric,
                      "measured": p.row.value, "predicted": p.ours, "error_pct": p.error_pct} for p in preds],
            "summary": ck.summary(preds)}
    return data, ck.report(preds)


def fit(launches: dict[str, object], machine: Machine, rounds: int = 2) -> tuple[Machine, float]:
    """Coordinate search over SEARCH minimising :func:`toolkit.calibration.whole_kernel.objective`."""
    def machine_of(values: tuple) -> Machine:
        m = machine
        for (section, key, _), v in zip(SEARCH, values):
            if m.params[section][key] != v:
                m = with_overrides(m, section, **{key: v})
        return m

    start = tuple(machine.params[section][key] for section, key, _ in SEARCH)
    best, score = coordinate_search(start, lambda k, _: SEARCH[k][2],
                                    lambda values: ck.objective(predict_rows(launches, machine_of(values))), rounds)
    return machine_of(best), score


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="softmax whole-kernel rows: measured vs predicted")
    ap.add_argument("--fit", action="store_true", help="search the whole-kernel machine settings")
    args = ap.parse_args(argv)
    launches = collect()
    machine = load_machine()
    if args.fit:
        machine, score = fit(launches, machine)
        print(f"fitted objective {score:.2f}", file=sys.stderr)
        for section, key, _ in SEARCH:
            print(f"  [{section}] {key} = {machine.params[section][key]}", file=sys.stderr)
    print(ck.report(predict_rows(launches, machine)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
