"""``migrate-check run FILE.asc`` and ``migrate-check compare A.asc B.asc``: build the user's unmodified
source (host ``main()`` included), run it with every launch on the emulator, report per launch.

Exit codes: the program's own status when it is not 0; else 1 when a gate failed (an error diagnostic,
a UB plan over budget, for ``compare`` outputs that differ beyond tolerance); else 0. A source that
does not compile, a crash or a timeout: 2, one line.
"""
from __future__ import annotations

from typing import Any

import click

from . import BadUsage, OutputPlan, cli, dump_json, finish, output_options

_BUILD_OPTIONS = [
    click.option("-I", "include_dirs", multiple=True, metavar="DIR", help="add DIR to the include path"),
    click.option("-D", "defines", multiple=True, metavar="NAME[=VALUE]", help="define a macro"),
    click.option("--timeout", type=click.FloatRange(min=0.1), default=600.0, show_default=True,
                 help="stop the program after S seconds"),
    output_options("json", "trace", "html"),
    click.option("--vf-fusion", is_flag=True,
                 help="model the compiler's VF fusion (--cce-simd-vf-fusion=true); default off, as samples are profiled"),
]


def _build_options(fn):
    for opt in reversed(_BUILD_OPTIONS):
        fn = opt(fn)
    return fn


def _run_one(source: str, include_dirs, defines, timeout: float, args: list[str], trace: bool,
             vf_fusion: bool = False, timeline: bool = False):
    from toolkit.asc.build import BuildError, build
    from toolkit.asc.runner import run_program
    try:
        built = build(source, list(include_dirs), list(defines))
    except BuildError as err:
        raise BadUsage(str(err)) from None
    return run_program(built, args, timeout=timeout, trace=trace, vf_fusion=vf_fusion, timeline=timeline)


def _echo_program_output(run, to_stdout: bool) -> None:
    if to_stdout and run.stdout:
        click.echo(run.stdout, nl=not run.stdout.endswith("\n"))
    if run.stderr:
        click.echo(run.stderr, err=True, nl=not run.stderr.endswith("\n"))


def _trace_of(runs: list) -> dict:
    from toolkit.views.trace import merge_traces
    return merge_traces([lr["trace"] for run in runs for lr in run.launches if "trace" in lr])


@cli.command("run", context_settings={"ignore_unknown_options": True})
@click.argument("source", type=str)
@_build_options
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def run_command(source, include_dirs, defines, timeout, json_path, trace_path, html_path, vf_fusion, args) -> int:
    """Build and run an .asc program; every kernel launch runs on the emulator (args after --)."""
    from toolkit.views.run_report import run_json, run_passed, run_text
    plan = OutputPlan({"json": json_path, "trace": trace_path, "html": html_path})
    run = _run_one(source, include_dirs, defines, timeout, list(args), trace_path is not None, vf_fusion,
                   timeline="html" in plan)
    _echo_program_output(run, not plan.stdout_taken)
    contents: dict[str, Any] = {"json": dump_json(run_json(run))}
    if "trace" in plan:
        contents["trace"] = dump_json(_trace_of([run]))
    if "html" in plan:
        from toolkit.views.html_asc import run_page
        contents["html"] = run_page(run)
    if run.failure is not None:
        raise BadUsage(f"{source}: {run.failure}")
    code = finish(plan, contents, lambda: run_text(run), run_passed(run))
    return run.exit_status or code                 # the program's own failure status comes first


@cli.command("compare", context_settings={"ignore_unknown_options": True})
@click.argument("source_a", type=str)
@click.argument("source_b", type=str)
@_build_options
@click.option("--atol", type=float, default=None,
              help="absolute tolerance of the output comparison (default by dtype: bf16 6e-2, fp16 1e-3, fp32 1e-4)")
@click.option("--advise", type=str, default=None, metavar="NAME=V1,V2,...",
              help="sweep this macro over the values for both programs and name the change that buys most")
@click.option("--jobs", type=click.IntRange(min=1), default=None, help="worker processes of the --advise sweep")
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def compare_command(source_a, source_b, include_dirs, defines, timeout, json_path, trace_path, html_path, vf_fusion,
                    atol, advise, jobs, args) -> int:
    """Run two .asc programs (say MemBase and RegBase) and compare them launch by launch: verdicts, UB
    saving, speed-up and the element-wise difference of their kernels' outputs."""
    from toolkit.views.run_report import compare_json, compare_text
    plan = OutputPlan({"json": json_path, "trace": trace_path, "html": html_path})
    axis = _advise_axis(advise)
    runs = [_run_one(s, include_dirs, defines, timeout, list(args), trace_path is not None, vf_fusion,
                     timeline="html" in plan) for s in (source_a, source_b)]
    for run in runs:
        if run.failure is not None:
            raise BadUsage(f"{run.source}: {run.failure}")
    result = compare_json(runs[0], runs[1], atol)
    if axis:
        from toolkit.sweep.asc_advice import compare_advice
        result["advisor"] = compare_advice([source_a, source_b], runs, axis, list(include_dirs), list(defines),
                                           timeout, list(args), jobs, vf_fusion)
    contents: dict[str, Any] = {"json": dump_json(result)}
    if "trace" in plan:
        contents["trace"] = dump_json(_trace_of(runs))
    if "html" in plan:
        from toolkit.views.html_asc import compare_page
        contents["html"] = compare_page(runs[0], runs[1], result)
    code = finish(plan, contents, lambda: compare_text(runs[0], runs[1], result, ("a", "b")) + _advice_text(result),
                  result["passed"])
    return next((run.exit_status for run in runs if run.exit_status), code)


def _advise_axis(spec: str | None) -> tuple[str, list] | None:
    """``--advise NAME=v1,v2,...`` read before any run (a bad one is exit 2 with nothing run)."""
    if spec is None:
        return None
    from toolkit.sweep.asc_advice import parse_advise
    from toolkit.sweep.values import BadValues
    try:
        return parse_advise(spec)
    except BadValues as err:
        raise BadUsage(str(err)) from None


def _advice_text(result: dict) -> str:
    from toolkit.sweep.asc_advice import advice_text
    return "\n" + advice_text(result["advisor"]) if result.get("advisor") else ""


__all__ = ["run_command", "compare_command"]
