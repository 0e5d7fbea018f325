"""Whole-kernel calibration rows (hardware task time and per-pipe busy time) and their scoring.

Rows (``toolkit/calibration/data/hw_whole_kernel.csv``): ``kernel`` (group), ``variant``, ``metric``, ``value``,
``note``. Metrics: ``task_us`` (the profiler's task time: launch + slowest core + tail) and
``{vector,scalar,mte2,mte3}_busy_us`` (busy time of a pipe per core, averaged over the cores).
An operator registers a :class:`~.sources.WholeKernelSource` per group (its variants' launches);
this module times the launches under any machine model and compares them with the rows. It knows no kernel.
"""
from __future__ import annotations

import csv
import functools
import io
from dataclasses import dataclass
from importlib import resources
from itertools import combinations

from toolkit.machine import Machine
from toolkit.record.events import PIPE_MTE2, PIPE_MTE3, PIPE_S, PIPE_V
from toolkit.timing.model import KernelTiming, TimingModel

from .sources import whole_kernel_sources

TASK_TOL, PIPE_TOL = 15.0, 20.0           #: acceptance: task time within 15 %, per-pipe busy within 20 %
PIPE_METRICS = {"vector_busy_us": PIPE_V, "scalar_busy_us": PIPE_S, "mte2_busy_us": PIPE_MTE2,
                "mte3_busy_us": PIPE_MTE3}


@dataclass(frozen=True)
class KernelRow:
    kernel: str
    variant: str
    metric: str
    value: float
    note: str


@functools.lru_cache(maxsize=None)
def load_rows() -> tuple[KernelRow, ...]:
    text = resources.files(__package__).joinpath("data/hw_whole_kernel.csv").read_text(encoding="utf-8")
    return tuple(KernelRow(r["kernel"], r["variant"], r["metric"], float(r["value"]), r.get("note") or "")
                 for r in csv.DictReader(io.StringIO(text)))


@dataclass(frozen=True)
class StepTarget:
    """A measured task-time ratio between two variants of a group (``data/hw_whole_kernel_steps.csv``):
    the step the toolkit exists to predict (e.g. MemBase -> RegBase). Variants are named by number (the
    part of the variant name before ``_``)."""

    kernel: str
    src: str
    dst: str
    measured: float
    tolerance: float
    note: str


@functools.lru_cache(maxsize=None)
def load_steps() -> tuple[StepTarget, ...]:
    text = resources.files(__package__).joinpath("data/hw_whole_kernel_steps.csv").read_text(encoding="utf-8")
    return tuple(StepTarget(r["kernel"], r["from"], r["to"], float(r["measured_ratio"]), float(r["tolerance_pct"]),
                            r.get("note") or "") for r in csv.DictReader(io.StringIO(text)))


def _number(variant: str) -> str:
    return variant.split("_", 1)[0]


def steps(preds: list["KernelPrediction"]) -> list[dict]:
    """Every step target with our ratio of the two variants' task times (None: a variant not registered)."""
    task = {(p.row.kernel, _number(p.row.variant)): (p.row.variant, p.ours) for p in preds
            if p.row.metric == "task_us" and p.ours is not None}
    out = []
    for t in load_steps():
        a, b = task.get((t.kernel, t.src)), task.get((t.kernel, t.dst))
        ours = a[1] / b[1] if a and b and b[1] else None
        err = 100.0 * (ours - t.measured) / t.measured if ours is not None else None
        out.append({"kernel": t.kernel, "from": a[0] if a else t.src, "to": b[0] if b else t.dst,
                    "measured": t.measured, "ours": ours, "error_pct": err, "tolerance_pct": t.tolerance,
                    "ok": err is not None and abs(err) <= t.tolerance})
    return out


def steps_report(preds: list["KernelPrediction"]) -> str:
    lines = []
    for s in steps(preds):
        head = f"step {s['kernel']} {s['from']} -> {s['to']}: measured {s['measured']:.3f}x"
        if s["ours"] is None:
            lines.append(f"{head}, ours n/a (variant not registered) [target: within {s['tolerance_pct']:g}%]")
        else:
            lines.append(f"{head}, ours {s['ours']:.3f}x ({s['error_pct']:+.1f}%) "
                         f"[target: within {s['tolerance_pct']:g}%: {'ok' if s['ok'] else 'missed'}]")
    return "\n".join(lines)


def kernel_metrics(kt: KernelTiming) -> dict[str, float]:
    """Our figures for the row metrics, in microseconds."""
    out = {"task_us": kt.us(kt.task_cycles)}
    n = max(len(kt.cores), 1)
    for metric, pipe in PIPE_METRICS.items():
        out[metric] = kt.us(sum(c.busy[pipe] for c in kt.cores) / n)
    return out


@dataclass
class KernelPrediction:
    row: KernelRow
    ours: float | None

    @property
    def error_pct(self) -> float | None:
        if self.ours is None or not self.row.value:
            return None
        return 100.0 * (self.ours - self.row.value) / self.row.value

    @property
    def tolerance(self) -> float:
        return TASK_TOL if self.row.metric == "task_us" else PIPE_TOL

    @property
    def ok(self) -> bool:
        return self.error_pct is not None and abs(self.error_pct) <= self.tolerance


def predict(timings: dict[tuple[str, str], KernelTiming]) -> list[KernelPrediction]:
    """One prediction per row; ``timings`` maps (kernel, variant) to the variant's launch timing."""
    cache = {key: kernel_metrics(kt) for key, kt in timings.items()}
    return [KernelPrediction(r, cache[(r.kernel, r.variant)].get(r.metric) if (r.kernel, r.variant) in cache
                             else None) for r in load_rows()]


def collect() -> dict[tuple[str, str], object]:
    """The functional run of every registered group: (group, variant) -> its launch (every core's events)."""
    return {(s.group, v): launch for s in whole_kernel_sources() for v, launch in s.run().items()}


def predict_rows(launches: dict[tuple[str, str], object], machine: Machine) -> list[KernelPrediction]:
    """The rows predicted from ``launches`` (see :func:`collect`) timed under ``machine``."""
    model = TimingModel(machine)
    return predict({key: model.launch(result) for key, result in launches.items()})


def rows(machine: Machine, launches: dict | None = None) -> tuple[dict, str]:
    """Every whole-kernel row under ``machine`` (running the kernels unless ``launches`` are given):
    (JSON data, text report)."""
    preds = predict_rows(collect() if launches is None else launches, machine)
    data = {"rows": [{"group": p.row.kernel, "variant": p.row.variant, "metric": p.row.metric,
                      "measured": p.row.value, "predicted": p.ours, "error_pct": p.error_pct} for p in preds],
            "summary": summary(preds), "steps": steps(preds)}
    return data, report(preds)


def orderings(preds: list[KernelPrediction]) -> list[tuple[str, str, str, bool]]:
    """Within each kernel group, every pair of task times keeps its measured order: (group, a, b, ok)."""
    tasks: dict[str, list[KernelPrediction]] = {}
    for p in preds:
        if p.row.metric == "task_us" and p.ours is not None:
            tasks.setdefault(p.row.kernel, []).append(p)
    out = []
    for group, ps in tasks.items():
        for a, b in combinations(ps, 2):
            out.append((group, a.row.variant, b.row.variant, (a.row.value > b.row.value) == (a.ours > b.ours)))
    return out


def summary(preds: list[KernelPrediction]) -> dict:
    done = [p for p in preds if p.error_pct is not None]
    task = [p for p in done if p.row.metric == "task_us"]
    pipes = [p for p in done if p.row.metric != "task_us"]
    orders = orderings(preds)
    mape = lambda ps: round(sum(abs(p.error_pct) for p in ps) / len(ps), 2) if ps else 0.0  # noqa: E731
    return {"task_rows": len(task), "task_ok": sum(p.ok for p in task), "task_mape": mape(task),
            "pipe_rows": len(pipes), "pipe_ok": sum(p.ok for p in pipes), "pipe_mape": mape(pipes),
            "orderings": len(orders), "orderings_ok": sum(o[3] for o in orders)}


def objective(preds: list[KernelPrediction]) -> float:
    """Fit objective: task MAPE + half the pipe MAPE + 10 per violated ordering or missed tolerance."""
    s = summary(preds)
    misses = (s["task_rows"] - s["task_ok"]) + (s["pipe_rows"] - s["pipe_ok"])
    return s["task_mape"] + 0.5 * s["pipe_mape"] + 10.0 * (misses + s["orderings"] - s["orderings_ok"])


def table(preds: list[KernelPrediction]) -> str:
    lines = [f"{'kernel':10s} {'variant':22s} {'metric':16s} {'measured':>9s} {'predicted':>9s} {'error':>8s}"]
    for p in preds:
        ours = "-" if p.ours is None else f"{p.ours:.3f}"
        err = "n/m" if p.error_pct is None else f"{p.error_pct:+.1f}%"
        lines.append(f"{p.row.kernel:10s} {p.row.variant:22s} {p.row.metric:16s} {p.row.value:9.3f} {ours:>9s} "
                     f"{err:>8s}{'' if p.ok else '  (outside ' + format(p.tolerance, 'g') + '%)'}")
    return "\n".join(lines)


def report(preds: list[KernelPrediction]) -> str:
    s = summary(preds)
    out = [table(preds), ""]
    out.append(f"whole-kernel task time: {s['task_rows']} rows, MAPE {s['task_mape']:.1f}%, {s['task_ok']} within "
               f"{TASK_TOL:g}%; per-pipe busy: {s['pipe_rows']} rows, MAPE {s['pipe_mape']:.1f}%, {s['pipe_ok']} "
               f"within {PIPE_TOL:g}%; task-time orderings {s['orderings_ok']}/{s['orderings']}")
    step_lines = steps_report(preds)
    if step_lines:
        out += ["", step_lines]
    return "\n".join(out)
