"""``migrate-check sweep TARGET ...``: run every combination of parameter values and report cycles against
UB bytes, with the Pareto front.

    migrate-check sweep kv_rms_norm_rope_cache --ub-factor 1..44 --batch 8,64 --backend both [--jobs N]
    migrate-check sweep A.asc [B.asc ...] -D NAME=v1,v2,... [-I DIR] [--timeout S] [-- ARGS]

Common options: ``--jobs N`` (local process pool, default: one per CPU), ``--dask ADDRESS`` (a
``dask.distributed`` scheduler, e.g. ``tcp://10.0.0.5:8786``), ``--csv``, ``--json``, ``--html`` (page
with the picture and the table), ``--plot`` (the picture alone, ``.svg`` or ``.png``). Operators add
their targets through the ``migrate_check.sweeps`` entry-point group (a click command each).

Exit codes: 0 when every point that fits the UB budget passed (refused points are data); 1 when a point
failed a gate or crashed (its row says why; the sweep still ran every point); 2 bad input.
"""
from __future__ import annotations

import os
from typing import Any, Callable

import click

from . import BadUsage, OutputPlan, cli, dump_json, finish

SWEEP_GROUP = "migrate_check.sweeps"
PLOT_FORMATS = {".svg": "svg", ".png": "png"}

_COMMON = [
    click.option("--jobs", type=click.IntRange(min=1), default=None,
                 help="worker processes of the local pool (default: one per CPU)"),
    click.option("--dask", "dask_address", type=str, default=None, metavar="ADDRESS",
                 help="run the points on this dask.distributed scheduler instead of the local pool"),
    click.option("--csv", "csv_path", type=str, default=None, help="write the rows as CSV to PATH ('-' = stdout)"),
    click.option("--json", "json_path", type=str, default=None, help="write the JSON document to PATH ('-' = stdout)"),
    click.option("--html", "html_path", type=str, default=None, help="write the HTML page (picture + table) to PATH"),
    click.option("--plot", "plot_path", type=str, default=None, help="write the picture to PATH (.svg or .png)"),
]


def sweep_options(fn):
    for opt in reversed(_COMMON):
        fn = opt(fn)
    return fn


class SweepRun:
    """One sweep's outputs (checked up front) and how it runs; ``opts``: the common options."""

    def __init__(self, opts: dict[str, Any]):
        plot = opts.get("plot_path")
        self.plot_format = None
        if plot is not None and plot != "-":
            ext = "." + plot.rsplit(".", 1)[-1].lower() if "." in plot else ""
            if ext not in PLOT_FORMATS:
                raise BadUsage(f"--plot {plot}: the file name must end in .svg or .png")
            self.plot_format = PLOT_FORMATS[ext]
        elif plot == "-":
            self.plot_format = "svg"
        self.plan = OutputPlan({"json": opts.get("json_path"), "csv": opts.get("csv_path"),
                                "html": opts.get("html_path"), "plot": plot})
        self.jobs, self.dask = opts.get("jobs"), opts.get("dask_address")

    @property
    def executor(self) -> str:
        return f"dask {self.dask}" if self.dask else "local pool"

    def run(self, fn: Callable[[dict], dict], points: list[dict], canonical=None) -> tuple[list[dict], int]:
        """Rows of the points (and how many distinct runs were made); a progress line on a terminal."""
        from toolkit.sweep.engine import SweepError, run_with_progress
        try:
            rows = run_with_progress(fn, points, f"sweep on {self.executor}", canonical=canonical, jobs=self.jobs,
                                     dask=self.dask)
        except SweepError as err:
            raise BadUsage(str(err)) from None
        return rows, sum("same_run_as" not in r for r in rows)       # a copied row names the run it repeats

    def finish(self, doc: dict, title: str) -> int:
        from toolkit.sweep import report
        contents: dict[str, Any] = {"json": dump_json(doc)}
        if "csv" in self.plan:
            contents["csv"] = report.csv_text(doc)
        if "html" in self.plan:
            contents["html"] = report.html_page(doc, title)
        if "plot" in self.plan:
            contents["plot"] = report.plot(doc, self.plot_format)
        failed = any(r["status"] in ("fail", "crash") for r in doc["rows"])
        return finish(self.plan, contents, lambda: report.text_table(doc), not failed)


def parse_axis(text: str, kind, option: str) -> list:
    from toolkit.sweep.values import BadValues, parse_values
    try:
        return parse_values(text, kind, option)
    except BadValues as err:
        raise BadUsage(str(err)) from None


def combinations(axes: dict[str, list]) -> list[dict]:
    from toolkit.sweep.values import BadValues, product
    try:
        return product(axes)
    except BadValues as err:
        raise BadUsage(str(err)) from None


class _ProgramArgs(click.Command):
    """Arguments after ``--`` go to the program (ctx.meta["program_args"]), not to the source list."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if "--" in args:
            k = args.index("--")
            args, ctx.meta["program_args"] = args[:k], args[k + 1:]
        return super().parse_args(ctx, args)


def _defines(defines: tuple[str, ...]) -> tuple[list[str], dict[str, list]]:
    """(-D given one value, -D NAME=v1,v2 swept: name -> values). A comma inside brackets or quotes
    does not separate values (``-D 'ARR={1,2}'`` is one value); a range must be a valid one."""
    from toolkit.sweep.values import BadValues, is_range, split_items
    fixed, swept = [], {}
    for d in defines:
        name, eq, value = d.partition("=")
        try:
            many = eq and (len(split_items(value, f"-D {name}")) > 1 or is_range(value))
        except BadValues as err:
            raise BadUsage(str(err)) from None
        if many:
            swept[name] = parse_axis(value, None, f"-D {name}")
        else:
            fixed.append(d)
    return fixed, swept


def _asc_options(fn):
    from .asc_options import apply, build_options
    return apply(build_options("stop a point's build and run after S seconds (that point crashes, the sweep goes on)"),
                 fn)


@click.command("asc", cls=_ProgramArgs, hidden=True)
@click.argument("more_sources", nargs=-1, type=str)
@_asc_options
@sweep_options
@click.pass_context
def asc_sweep(ctx: click.Context, more_sources, include_dirs, defines, timeout, vf_fusion, **opts) -> int:
    """Sweep .asc programs over -D values (every combination, each program a series)."""
    from toolkit.sweep import asc_target
    sources = [ctx.meta["sweep_source"], *more_sources]
    bad = [s for s in sources if not s.endswith(".asc")]
    if bad:
        raise BadUsage(f"sweep: {bad[0]!r} is not an .asc program (sources first, then options)")
    missing = [s for s in sources if not os.path.isfile(s)]
    if missing:
        raise BadUsage(f"{missing[0]}: no such file")
    sweep = SweepRun(opts)
    fixed, swept = _defines(defines)
    combos = combinations(swept)
    points = asc_target.make_points(sources, combos, fixed, list(include_dirs), timeout,
                                    list(ctx.meta.get("program_args", [])), vf_fusion)
    rows, runs = sweep.run(asc_target.run_point, points)
    series = asc_target.series_labels(sources)
    from toolkit.sweep import (
        report,  # after the points: its pictures need matplotlib (slow to import)
    )
    doc = report.sweep_doc(" ".join(sources), swept or {"(none)": [""]}, series, rows, runs=runs,
                           executor=sweep.executor)
    return sweep.finish(doc, f"sweep of {', '.join(series)}")


class SweepGroup(click.Group):
    """``sweep NAME``: an operator's sweep (entry point group ``migrate_check.sweeps``) or an ``.asc`` file."""

    def _load(self) -> None:
        from importlib.metadata import entry_points
        for ep in entry_points(group=SWEEP_GROUP):
            if ep.name not in self.commands:
                self.add_command(ep.load(), ep.name)

    def list_commands(self, ctx: click.Context) -> list[str]:
        self._load()
        return sorted(self.commands)

    def get_command(self, ctx: click.Context, name: str):
        if name.endswith(".asc"):
            ctx.meta["sweep_source"] = name
            return asc_sweep
        self._load()
        return super().get_command(ctx, name)


@cli.group("sweep", cls=SweepGroup)
def sweep_group() -> None:
    """Run every combination of parameter values (local pool or Dask): cycles vs UB bytes, Pareto front.

    COMMAND is an operator's sweep (below) or one or more .asc programs: sweep A.asc [B.asc] -D NAME=v1,v2"""


__all__ = ["sweep_group", "sweep_options", "SweepRun", "parse_axis", "combinations"]
