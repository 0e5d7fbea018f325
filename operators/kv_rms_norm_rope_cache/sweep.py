"""``migrate-check sweep kv_rms_norm_rope_cache``: the sample over every combination of its options.

    migrate-check sweep kv_rms_norm_rope_cache --ub-factor 1..44 --batch 8,64 --backend both [--jobs N]

Each point is what ``migrate-check kv_rms_norm_rope_cache`` runs for those options: the same host side,
CompareBf16 gate, UB plan and cycle model. What keeps points cheap, without changing any figure:

* a plan over the UB budget is found by dry-running the kernel's ``Init`` (as the real kernel refuses
  at its first InitBuffer): that point is ``refused`` without running the kernel;
* a ubFactor above blockFactor is capped to it by the tiling (as the sample does): those points are the
  same run, made once (``same_run_as`` in the row);
* a worker keeps the generated data of the last shapes, the machine model and the VF timing memo.
"""
from __future__ import annotations

import dataclasses
import functools
from typing import TYPE_CHECKING, Any

import click

from toolkit.cli import force_option
from toolkit.cli.sweep_command import SweepRun, combinations, parse_axis, sweep_options
from toolkit.machine import load_machine
from toolkit.sweep.rows import OK, REFUSED, make_row, status_of

if TYPE_CHECKING:                    # imported where used: `sweep --help` does not load the emulator
    from . import host

PARAMS = {"batch": int, "num_head": int, "seq": int, "dv": int, "dk": int, "ub_factor": int, "cores": int,
          "seed": int, "epsilon": float}
LABELS = {"ub_factor": "ubFactor", "num_head": "num_head"}


@functools.lru_cache(maxsize=None)
def _machine():
    return load_machine()


@functools.lru_cache(maxsize=None)
def _model():
    from toolkit.timing.model import TimingModel
    return TimingModel(_machine())


def _case(p: host.KvParams, data_dir: str | None = None) -> dict:
    """The data of ``p``'s shape: ``data_dir``'s files, else generated (ubFactor and cores do not change
    the data, so a worker generates it once per shape)."""
    from . import host
    if data_dir is not None:
        return host.load_case(p, data_dir)
    return _case_of(dataclasses.replace(p, ub_factor=1, cores=1))


@functools.lru_cache(maxsize=2)
def _case_of(p: host.KvParams) -> dict:
    from . import host
    return host.load_case(p, None)


def _max_ub(backend: str, p: host.KvParams) -> int:
    return _max_ub_of(backend, dataclasses.replace(p, ub_factor=1))


@functools.lru_cache(maxsize=16)
def _max_ub_of(backend: str, p: host.KvParams) -> int:
    from . import host
    return host.max_ub_factor(_kernel_cls(backend), p, _machine())


def _kernel_cls(backend: str):
    from . import host
    return host.backend_module(backend).KernelKvRmsNormRopeCache


def params_of(point: dict) -> host.KvParams:
    from . import host
    d = dict(point["params"])
    if d.get("cores") is None:
        d["cores"] = _machine().aiv_cores
    return host.KvParams(**d)


def canonical(point: dict) -> tuple:
    """Points with equal keys are the same run (the tiling caps ubFactor at blockFactor)."""
    from . import host
    p = params_of(point)
    try:
        t = host.make_tiling(p, _machine())
    except (ValueError, ZeroDivisionError):
        return (point["series"], tuple(sorted(point["params"].items())), point.get("force"))
    key = {**p.__dict__, "ub_factor": t.ubFactor}
    return (point["series"], tuple(sorted(key.items())), point.get("force"))


def run_point(point: dict) -> dict:
    """The row of one (backend, options) point."""
    from toolkit.views.cycles import cycle_summary

    from . import host
    backend, p = point["series"], params_of(point)
    try:
        p.validate()
    except host.BadInput as err:
        return make_row(backend, point["params"], REFUSED, f"bad option: {err}")
    issues = host.envelope_violations(backend, p)
    if issues and not point.get("force"):
        return make_row(backend, point["params"], REFUSED, f"outside the sample's envelope: {issues[0]}")
    machine = _machine()
    tiling = host.make_tiling(p, machine)
    fits, ub = host.plan_fits(_kernel_cls(backend), p, machine, tiling.ubFactor, _max_ub(backend, p))
    extra = {"ub_factor_used": tiling.ubFactor, "block_factor": tiling.blockFactor,
             "max_ub_factor": ub.max_ub_factor}
    if not fits:
        return make_row(backend, point["params"], REFUSED, f"UB plan {ub.total_bytes} B over the budget "
                        f"{ub.budget_bytes} B (largest ubFactor that fits: {ub.max_ub_factor})", ub=ub.to_json(),
                        **extra)
    run = host.run_backend(backend, p, _case(p, point.get("data_dir")), machine)
    cycles = cycle_summary(_model().launch(run.launch), aborted=run.launch.aborted)
    return run_row(backend, point["params"], run, cycles)


def run_row(backend: str, params: dict, run: host.BackendRun, cycles: dict) -> dict[str, Any]:
    """The row of a finished run and its cycle summary (also the advisor's base row in the KV report)."""
    status = status_of(run.ub.fits, run.passed)
    return make_row(backend, params, status, None if status == OK else run.failure(),
                    ub=run.ub.to_json(), cycles=cycles, ub_factor_used=run.tiling.ubFactor,
                    block_factor=run.tiling.blockFactor, max_ub_factor=run.ub.max_ub_factor,
                    errors={n: c.errors for n, c in run.checks.items()})


def make_points(axes: dict[str, list], backends: list[str], force: bool) -> list[dict]:
    return [{"series": b, "params": combo, "force": force} for b in backends for combo in combinations(axes)]


def _axis_options(fn):
    defaults = {"batch": "8", "num_head": "1", "seq": "128", "dv": "512", "dk": "128", "ub_factor": "8",
                "cores": None, "seed": "2026", "epsilon": "1e-5"}
    for name in reversed(list(PARAMS)):
        fn = click.option(f"--{name.replace('_', '-')}", name, type=str, default=defaults[name],
                          show_default=True, help="value list: 8,64 or FIRST..LAST[:STEP]")(fn)
    return fn


@click.command("kv_rms_norm_rope_cache")
@_axis_options
@click.option("--backend", type=click.Choice(["membase", "regbase", "both"]), default="both", show_default=True)
@force_option
@sweep_options
def command(backend, force, **opts) -> int:
    """Sweep KvRmsNormRopeCache over value lists of its options (every combination, both backends)."""
    from toolkit.sweep import report
    axes = {}
    for name, kind in PARAMS.items():
        text = opts.pop(name)
        axes[name] = [None] if text is None else parse_axis(text, kind, f"--{name.replace('_', '-')}")
    sweep = SweepRun(opts)
    backends = ["membase", "regbase"] if backend == "both" else [backend]
    points = make_points(axes, backends, force)
    rows, runs = sweep.run(run_point, points, canonical)
    doc = report.sweep_doc("kv_rms_norm_rope_cache", axes, backends, rows, runs=runs, executor=sweep.executor)
    return sweep.finish(doc, "kv_rms_norm_rope_cache sweep")


__all__ = ["command", "run_point", "run_row", "canonical", "make_points", "LABELS"]
