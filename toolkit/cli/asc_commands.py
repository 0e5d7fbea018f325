"""``migrate-check run FILE.asc`` and ``migrate-check compare A.asc B.asc``: build the user's unmodified
source (host ``main()`` included), run it with every launch on the emulator, report per launch.

Exit codes: the program's own status when it is not 0; else 1 when a gate failed (an error diagnostic,
a UB plan over budget, for ``compare`` outputs that differ beyond tolerance); else 0. A source that
does not compile, a crash, a timeout (build and run together) or a failure of the tool itself: 2, one
line with its code (README), never the program's status.
"""
from __future__ import annotations

import os
from typing import Any

import click

from . import BadUsage, OutputPlan, cli, dump_json, finish, output_options
from .asc_options import TOLERANCE, apply, build_options


def printable_lines(text: str) -> str:
    from toolkit.asc.errors import printable_lines as lines
    return lines(text)


def valid_text(text: str) -> str:
    from toolkit.asc.errors import valid_text as valid
    return valid(text)

_BUILD_OPTIONS = [*build_options("stop the build and run of a program after S seconds (one budget for both)"),
                  output_options("json", "trace", "html")]


def _envelope_options(fn):
    """``--precision-envelope`` and ``--envelope-seeds N``."""
    fn = click.option("--envelope-seeds", "envelope_seeds", type=click.IntRange(min=0), default=None, metavar="N",
                      help="seeded reruns of the envelope beside all-up and all-down (default: machine file)")(fn)
    return click.option(
        "--precision-envelope", "envelope", is_flag=True,
        help="rerun with Div/Sqrt/Exp/Ln/Rsqrt/Reciprocal results moved within their ulp bounds (machine file "
             "[envelope]); report the worst per output and gate on it")(fn)


def _build_options(fn):
    return apply(_BUILD_OPTIONS, fn)


def split_sources(source: str, args: list[str]) -> tuple[list[str], list[str]]:
    """``run a.asc b.cpp -- ARGS``: the leading arguments that are source files (by suffix: .asc, .cpp,
    .cc, .cxx, .c ...) are more sources of the program; the rest are its arguments."""
    import os

    from toolkit.asc.build import SOURCE_SUFFIXES
    sources, k = [source], 0
    while k < len(args) and args[k].endswith(SOURCE_SUFFIXES) and os.path.isfile(args[k]):
        sources.append(args[k])
        k += 1
    return sources, list(args[k:])


def _run_one(source, include_dirs, defines, timeout: float, args: list[str], trace: bool,
             vf_fusion: bool = False, timeline: bool = False, perturbation=None):
    """Build and run one program (``source``: a path or a list of them) under one deadline; a build
    failure is exit 2 (one line)."""
    from toolkit.asc.build import BuildError, build
    from toolkit.asc.errors import printable
    from toolkit.asc.runner import run_program
    from toolkit.console.children import Deadline
    deadline = Deadline(timeout)
    try:
        built = build(source, list(include_dirs), list(defines), deadline=deadline)
    except BuildError as err:
        raise BadUsage(printable(str(err))) from None
    return run_program(built, args, trace=trace, vf_fusion=vf_fusion, timeline=timeline, deadline=deadline,
                       perturbation=perturbation)


def _fail_on(runs: list) -> None:
    """A run that did not reach its own end (crash, timeout, tool failure): exit 2, one line, no report."""
    from toolkit.asc.errors import printable
    for run in runs:
        if run.failure is not None:
            raise BadUsage(printable(f"{run.source}: {run.failure}"))


def _echo_program_output(run, to_stdout: bool) -> None:
    """The program's own output, byte for byte (a GBK string it prints stays GBK)."""
    import sys
    if to_stdout and run.stdout_bytes:
        _write_bytes(sys.stdout, run.stdout_bytes)
    if run.stderr:
        click.echo(run.stderr, err=True, nl=not run.stderr.endswith("\n"))


def _write_bytes(stream, data: bytes) -> None:
    buffer = getattr(stream, "buffer", None)
    if buffer is not None:
        stream.flush()
        buffer.write(data if data.endswith(b"\n") else data + b"\n")
        buffer.flush()
    else:                                          # a text-only stream (a test's capture)
        text = data.decode("utf-8", "replace")
        stream.write(text if text.endswith("\n") else text + "\n")


def _trace_of(runs: list) -> dict:
    from toolkit.views.trace import merge_traces
    return merge_traces([lr["trace"] for run in runs for lr in run.launches if "trace" in lr])


def _run_cmake(cmake_dir: str, target: str | None, build_dir: str | None, timeout: float, args: list[str],
               trace: bool, vf_fusion: bool, timeline: bool, perturbation=None):
    """``run --cmake DIR --target NAME``: build the target through CMake and run what it built."""
    from toolkit.asc.build import BuildError
    from toolkit.asc.cann.cmake import build_target
    from toolkit.asc.errors import printable
    from toolkit.asc.runner import run_program
    from toolkit.console.children import Deadline

    from .exe_command import executable
    if not target:
        raise BadUsage("--cmake DIR needs --target NAME (the executable to build and run)")
    deadline = Deadline(timeout)
    try:
        exe = str(build_target(cmake_dir, target, build_dir, deadline))
    except BuildError as err:
        raise BadUsage(printable(str(err))) from None
    built = executable(exe, deadline)
    return run_program(built, args, trace=trace, vf_fusion=vf_fusion or built.vf_fusion, timeline=timeline,
                       deadline=deadline, exe_path=exe, argv0=exe, perturbation=perturbation)


@cli.command("run", context_settings={"ignore_unknown_options": True})
@click.argument("source", type=str, required=False)
@_build_options
@click.option("--cmake", "cmake_dir", type=str, default=None, metavar="DIR",
              help="build --target NAME of the CMake project in DIR (against `migrate-check cann-home`) and run it")
@click.option("--target", type=str, default=None, metavar="NAME", help="the CMake target of --cmake")
@click.option("--build-dir", type=str, default=None, metavar="B", help="the build directory of --cmake (DIR/build)")
@_envelope_options
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def run_command(source, include_dirs, defines, timeout, json_path, trace_path, html_path, vf_fusion, cmake_dir,
                target, build_dir, envelope, envelope_seeds, args) -> int:
    """Build and run an .asc program (more sources may follow: run a.asc b.cpp), or a CMake target
    (--cmake DIR --target NAME); every kernel launch runs on the emulator (args after --)."""
    from toolkit.views.run_report import run_passed, run_text
    plan = OutputPlan({"json": json_path, "trace": trace_path, "html": html_path})
    if cmake_dir is not None:
        args = ([source] if source is not None else []) + list(args)
        run = _run_cmake(cmake_dir, target, build_dir, timeout, args, trace_path is not None, vf_fusion,
                         timeline="html" in plan)

        def rerun(p):
            return _run_cmake(cmake_dir, target, build_dir, timeout, args, False, vf_fusion, False, p)
    elif source is None:
        raise BadUsage("missing SOURCE (or --cmake DIR --target NAME)")
    else:
        sources, args = split_sources(source, list(args))
        run = _run_one(sources, include_dirs, defines, timeout, args, trace_path is not None, vf_fusion,
                       timeline="html" in plan)

        def rerun(p):
            return _run_one(sources, include_dirs, defines, timeout, args, False, vf_fusion, perturbation=p)
    contents = run_outputs(run, plan)
    passed, tail = run_passed(run), ""
    if envelope:
        from toolkit.asc.envelope import asc_envelope_text, run_envelope
        from toolkit.machine import load_machine
        from toolkit.views.run_report import run_json
        env = run_envelope(run, rerun, load_machine(), envelope_seeds)
        contents["json"] = dump_json({**run_json(run), "precision_envelope": env})
        passed, tail = passed and env["passed"], "\n\n" + asc_envelope_text(env, "its golden")
    code = finish(plan, contents, lambda: printable_lines(run_text(run) + tail), passed)
    return run.exit_status or code                 # the program's own failure status comes first


def run_outputs(run, plan: OutputPlan) -> dict[str, Any]:
    """The program's own output echoed, a run that did not reach its end refused (exit 2), then what the
    plan's outputs hold (JSON, trace, HTML)."""
    from toolkit.views.run_report import run_json
    _echo_program_output(run, not plan.stdout_taken)
    _fail_on([run])
    contents: dict[str, Any] = {"json": dump_json(run_json(run))}
    if "trace" in plan:
        contents["trace"] = dump_json(_trace_of([run]))
    if "html" in plan:
        from toolkit.views.html_asc import run_page
        contents["html"] = valid_text(run_page(run))
    return contents


@cli.command("compare", context_settings={"ignore_unknown_options": True})
@click.argument("source_a", type=str)
@click.argument("source_b", type=str)
@_build_options
@click.option("--atol", type=TOLERANCE, default=None,
              help="absolute tolerance of the output comparison (default by dtype: bf16 6e-2, fp16 1e-3, fp32 1e-4)")
@click.option("--advise", type=str, default=None, metavar="NAME=V1,V2,...",
              help="sweep this macro over the values for both programs and name the change that buys most")
@click.option("--jobs", type=click.IntRange(min=1), default=None,
              help="processes: the two programs side by side (default: when two CPUs are usable; 1: one after the "
                   "other) and the --advise sweep's workers")
@click.option("--with", "shared", multiple=True, type=click.Path(exists=True, dir_okay=False), metavar="FILE",
              help="a source linked into both programs, e.g. the shared host main of two kernel files "
                   "(compare a_kernel.cpp b_kernel.cpp --with main.cpp); repeatable")
@_envelope_options
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def compare_command(source_a, source_b, include_dirs, defines, timeout, json_path, trace_path, html_path, vf_fusion,
                    atol, advise, jobs, shared, envelope, envelope_seeds, args) -> int:
    """Run two .asc programs (say MemBase and RegBase) and compare them launch by launch: verdicts, UB
    saving, speed-up and the element-wise difference of their kernels' outputs."""
    from toolkit.views.run_report import compare_json, compare_text
    plan = OutputPlan({"json": json_path, "trace": trace_path, "html": html_path})
    axis = _advise_axis(advise)
    sources = [[s, *shared] if shared else s for s in (source_a, source_b)]
    runs = _run_both(sources, jobs, lambda s: _run_one(s, include_dirs, defines, timeout, list(args),
                                                       trace_path is not None, vf_fusion, timeline="html" in plan))
    _fail_on(runs)
    result = compare_json(runs[0], runs[1], atol)
    if envelope:
        from toolkit.asc.envelope import compare_envelope
        from toolkit.machine import load_machine

        def rerun(p):
            return tuple(_run_both(sources, jobs, lambda s: _run_one(s, include_dirs, defines, timeout, list(args),
                                                                     False, vf_fusion, perturbation=p)))
        result["precision_envelope"] = compare_envelope(rerun, atol, load_machine(), envelope_seeds)
        result["passed"] = result["passed"] and result["precision_envelope"]["passed"]
    if axis:
        from toolkit.sweep.asc_advice import compare_advice
        result["advisor"] = compare_advice(sources, runs, axis, list(include_dirs), list(defines),
                                           timeout, list(args), jobs, vf_fusion)
    contents: dict[str, Any] = {"json": dump_json(result)}
    if "trace" in plan:
        contents["trace"] = dump_json(_trace_of(runs))
    if "html" in plan:
        from toolkit.views.html_asc import compare_page
        contents["html"] = valid_text(compare_page(runs[0], runs[1], result))
    code = finish(plan, contents, lambda: printable_lines(compare_text(runs[0], runs[1], result, ("a", "b"))
                                                         + _envelope_text(result) + _advice_text(result)),
                  result["passed"])
    return next((run.exit_status for run in runs if run.exit_status), code)


def _run_both(sources: list, jobs: int | None, run_one) -> list:
    """``run_one(source)`` of each program, side by side when ``--jobs`` (default: the CPUs) allows two."""
    from toolkit.asc.runner import side_by_side
    names = [os.path.basename(s[0] if isinstance(s, list) else s) for s in sources]
    return side_by_side([lambda s=s: run_one(s) for s in sources], names, jobs)


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


def _envelope_text(result: dict) -> str:
    if "precision_envelope" not in result:
        return ""
    from toolkit.asc.envelope import asc_envelope_text
    return "\n\n" + asc_envelope_text(result["precision_envelope"], "the other program")


def _advice_text(result: dict) -> str:
    from toolkit.sweep.asc_advice import advice_text
    return "\n" + advice_text(result["advisor"]) if result.get("advisor") else ""


__all__ = ["run_command", "compare_command"]
