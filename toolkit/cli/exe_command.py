"""An executable the compiler driver built (``bisheng``, CMake, ``ascendc_library``), run directly:
``./demo ARGS`` from any directory.

The executable's entry point (``toolkit/asc/runtime/exe_entry.c``) replaces its process by this runner
with its own path, its ``argv[0]`` and its arguments. The program then runs as ``migrate-check run``
runs it (every launch on the emulator, owned child, one deadline), but as the executable it is: its own
path answers ``/proc/self/exe`` (``<exe dir>/gen_data.py`` lookups of an installed tree work), the
current directory is the caller's, ``argv[0]`` is what was typed. What it prints is printed unchanged
on stdout and stderr; then the per-launch report goes to stderr, so stdout is the program's alone.

Settings come from the environment (a program's command line is its own): ``MIGRATE_CHECK_JSON``,
``MIGRATE_CHECK_HTML``, ``MIGRATE_CHECK_TRACE`` (paths of the report outputs, as ``--json`` ...),
``MIGRATE_CHECK_TIMEOUT`` (seconds, default 600), ``MIGRATE_CHECK_VF_FUSION=1`` (model VF fusion even if
the program was not compiled with ``--cce-simd-vf-fusion=true``), ``MIGRATE_CHECK_SERIAL=1`` (cores one
after another), ``MIGRATE_CHECK_REPORT=0`` (no report on stderr). Exit status: the program's own when it
is not 0, else 1 for a failed gate, else 0; 2 with one line for what ``run`` reports that way (a unit
that uses an API outside the emulated scope: ``UNSUPPORTED_API ...``, a crash, a timeout).
"""
from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path

import click

from . import BadUsage, OutputPlan, guarded
from .asc_options import SECONDS

DEFAULT_TIMEOUT_S = 600.0
_OUTPUTS = {"json": "MIGRATE_CHECK_JSON", "html": "MIGRATE_CHECK_HTML", "trace": "MIGRATE_CHECK_TRACE"}


def _timeout() -> float:
    given = os.environ.get("MIGRATE_CHECK_TIMEOUT")
    if not given:
        return DEFAULT_TIMEOUT_S
    try:
        return SECONDS.convert(given, None, None)
    except click.BadParameter as err:
        raise BadUsage(f"MIGRATE_CHECK_TIMEOUT: {err.format_message()}") from None


def _facts(exe: str) -> dict:
    from toolkit.asc import objmeta
    try:
        return objmeta.merged(objmeta.read(exe))
    except (OSError, objmeta.NotElf) as err:
        raise BadUsage(f"{exe}: cannot read the program ({err})") from None


def executable(exe: str, deadline):
    """The program a built executable is, ready for :func:`toolkit.asc.runner.run_program`: its facts
    (``asc_meta``), our ``/proc/self/exe`` shim. A program with a unit the emulator cannot run is refused
    here with its ``UNSUPPORTED_API`` line (exit 2)."""
    from toolkit.asc.build import BuildError, built_from
    from toolkit.asc.errors import printable
    from toolkit.asc.link import runtime_objects
    from toolkit.asc.toolchain import find_compiler, open_cache
    facts = _facts(exe)
    if facts["unsupported"]:
        raise BadUsage(printable(facts["unsupported"]))
    try:
        _, _, shim = runtime_objects(open_cache(None), find_compiler(), deadline)
    except BuildError as err:
        raise BadUsage(printable(str(err))) from None
    return built_from([Path(exe)], Path(exe), shim, facts, True)


def run_executable(exe: str, argv0: str, args: list[str]) -> int:
    from toolkit.asc.errors import printable_lines
    from toolkit.asc.runner import run_program
    from toolkit.console.children import Deadline
    from toolkit.views.run_report import run_passed, run_text

    from .asc_commands import run_outputs
    plan = OutputPlan({k: os.environ.get(v) or None for k, v in _OUTPUTS.items()}, labels=_OUTPUTS)
    deadline = Deadline(_timeout())
    built = executable(exe, deadline)
    vf_fusion = built.vf_fusion or os.environ.get("MIGRATE_CHECK_VF_FUSION") == "1"
    with _mode():
        run = run_program(built, args, trace="trace" in plan, vf_fusion=vf_fusion, timeline="html" in plan,
                          deadline=deadline, exe_path=exe, argv0=argv0)
    plan.commit(run_outputs(run, plan))
    if os.environ.get("MIGRATE_CHECK_REPORT") != "0":
        click.echo(printable_lines(run_text(run)), err=True)
    return run.exit_status or (0 if run_passed(run) else 1)


def _mode():
    if os.environ.get("MIGRATE_CHECK_SERIAL") == "1":
        from toolkit.engine.launch import launch_mode
        return launch_mode("serial")
    return contextlib.nullcontext()


def main(argv: list[str]) -> None:
    """``argv``: the executable's path, its argv[0], its arguments."""
    if len(argv) < 2:
        print("migrate-check: error: the program runner needs the executable and its argv[0]", file=sys.stderr)
        sys.exit(2)
    sys.exit(guarded("migrate-check", lambda: run_executable(argv[0], argv[1], argv[2:])))
