"""``migrate-check``: the command-line front end (click), and what every entry point shares.

    migrate-check kv_rms_norm_rope_cache [--batch ... --backend both --json out.json]
    migrate-check simd_vf_story[/family[/variant]] [--json -]

Exit codes (the same for ``scripts/*.py``): 0 every gate passed; 1 a gate failed (golden mismatch,
UB plan over budget, a kernel diagnostic of error severity); 2 bad input (one line on stderr, no
traceback, no output file); 130 interrupted by SIGINT (Ctrl-C), 143 by SIGTERM, 129 by SIGHUP (one
line "interrupted", no output file); 141 stdout was a pipe its reader closed (nothing printed).

Outputs (``--json``, ``--trace`` ...) go through :class:`toolkit.console.outputs.OutputPlan`: checked before
the run, written together after it, all or none.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import signal
import sys
from typing import Any, Callable, Iterator

import click

from toolkit.console.outputs import BadUsage, OutputPlan, signal_handlers
from toolkit.engine.gcpause import no_cycle_collection

EXIT_OK, EXIT_GATE, EXIT_BAD_INPUT = 0, 1, 2
EXIT_SIGPIPE = 128 + 13
__all__ = ["BadUsage", "OutputPlan", "EXIT_OK", "EXIT_GATE", "EXIT_BAD_INPUT", "ArgParser", "guarded",
           "dump_json", "output_options", "force_option", "check_envelope", "finish", "main", "cli"]


class Interrupted(BaseException):
    """SIGINT / SIGTERM / SIGHUP during a run: unwinds (removing temp files), exit 128 + signal."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.code = 128 + signum


def _raise_interrupted(signum: int, frame: Any) -> None:
    raise Interrupted(signum)


@contextlib.contextmanager
def _exit_signals() -> Iterator[None]:
    """SIGINT/SIGTERM/SIGHUP raise :class:`Interrupted` (unless ignored, e.g. a background job);
    SIGXFSZ is ignored so a file-size limit fails the write (EFBIG) instead of killing the process."""
    handlers = {getattr(signal, name): signal.SIG_IGN if name == "SIGXFSZ" else _raise_interrupted
                for name in ("SIGINT", "SIGTERM", "SIGHUP", "SIGXFSZ") if hasattr(signal, name)}
    with signal_handlers(handlers):
        yield


def _quiet_stdout() -> None:
    """After EPIPE on stdout: send what is still buffered to /dev/null so the exit is quiet."""
    with contextlib.suppress(AttributeError, OSError, ValueError):
        fd = sys.stdout.fileno()
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, fd)
        os.close(null)


def _say(prog: str, text: str) -> None:
    with contextlib.suppress(OSError, ValueError):
        print(f"{prog}: {text}", file=sys.stderr, flush=True)


def guarded(prog: str, body: Callable[[], int | None]) -> int:
    """Run an entry point's ``body`` and map how it ended to an exit code (module docstring): a
    BadUsage or an I/O error is one line on stderr, an interrupt one line "interrupted", a closed
    stdout pipe nothing at all. Never a traceback for these. The body runs with the cyclic garbage
    collector paused (toolkit.engine.gcpause: a command's objects are acyclic; the collector only walks them)."""
    try:
        with _exit_signals(), no_cycle_collection():
            code = body()
            with contextlib.suppress(AttributeError, ValueError):
                sys.stdout.flush()                   # an EPIPE still buffered surfaces here
    except BadUsage as err:
        _say(prog, f"error: {err}")
        return EXIT_BAD_INPUT
    except (Interrupted, KeyboardInterrupt) as stop:
        _say(prog, "interrupted")
        return getattr(stop, "code", 128 + signal.SIGINT)
    except BrokenPipeError:
        _quiet_stdout()
        return EXIT_SIGPIPE
    except MemoryError:
        _say(prog, "error: out of memory")
        return EXIT_BAD_INPUT
    except OSError as err:                       # an I/O failure outside the checked paths
        reason = (err.strerror or str(err)).lower()
        _say(prog, f"error: {err.filename}: {reason}" if err.filename else f"error: {reason}")
        return EXIT_BAD_INPUT
    except SystemExit as ex:                     # argparse --help
        return ex.code if isinstance(ex.code, int) else (EXIT_OK if ex.code is None else EXIT_BAD_INPUT)
    return EXIT_OK if code is None else int(code)


class ArgParser(argparse.ArgumentParser):
    """argparse for the scripts with the CLI's error handling: a bad option raises BadUsage (one line
    through :func:`guarded`, exit 2) instead of printing the usage block."""

    def error(self, message: str):
        raise BadUsage(message)


def write_output(path: str, text: str) -> None:
    """Write one output safely (``-`` = stdout); prefer one :class:`OutputPlan` for all of a run's outputs."""
    OutputPlan({"output": path}, labels={"output": "output"}).commit({"output": text})


def dump_json(data: Any) -> str:
    """Strict JSON (what jq and browsers accept): a non-finite float (an inf or NaN max diff from
    hostile data) becomes null."""
    try:
        return json.dumps(data, indent=2, sort_keys=False, default=_json_default, allow_nan=False)
    except ValueError:
        return json.dumps(_finite(json.loads(json.dumps(data, default=_json_default))), indent=2)


def _finite(o: Any) -> Any:
    if isinstance(o, float):
        return o if math.isfinite(o) else None
    if isinstance(o, dict):
        return {k: _finite(v) for k, v in o.items()}
    if isinstance(o, list):
        return [_finite(v) for v in o]
    return o


def _json_default(o: Any) -> Any:
    if hasattr(o, "item"):
        return o.item()
    if hasattr(o, "to_json"):
        return o.to_json()
    raise TypeError(f"not JSON serialisable: {type(o).__name__}")


#: the report outputs the commands offer (``--json`` ...), and their help
OUTPUT_HELP = {"json": "write the JSON report to PATH ('-' = stdout)",
               "trace": "write a Chrome trace (JSON) to FILE",
               "html": "write the report as a self-contained HTML page"}
force_option = click.option("--force", is_flag=True, help="run shapes outside the sample's envelope anyway")


def output_options(*names: str) -> Callable:
    """Decorator: the options ``--NAME`` (parameter ``NAME_path``) of these report outputs."""
    def add(fn: Callable) -> Callable:
        for name in reversed(names):
            fn = click.option(f"--{name}", f"{name}_path", type=str, default=None, help=OUTPUT_HELP[name])(fn)
        return fn
    return add


def check_envelope(what: str, issues: list[str], force: bool) -> None:
    """A shape outside the sample's envelope (``issues``) is bad input unless ``--force``."""
    if issues and not force:
        raise BadUsage(f"{what} outside the sample's envelope: {issues[0]} (use --force to run anyway)")


def finish(plan: OutputPlan, contents: dict[str, Any], text: Callable[[], str], passed: bool) -> int:
    """Write the requested outputs (all or none), print the text report unless an output took stdout;
    the gates' exit code."""
    plan.commit(contents)
    if not plan.stdout_taken:
        click.echo(text())
    return EXIT_OK if passed else EXIT_GATE


class TargetGroup(click.Group):
    """Sub-commands are targets. ``NAME/rest`` selects inside a target (``simd_vf_story/reduce``): the
    command NAME runs with ``ctx.meta["selector"] = "NAME/rest"``."""

    def get_command(self, ctx: click.Context, name: str):
        head = name.split("/", 1)[0]
        if head != name:
            ctx.meta["selector"] = name
        return super().get_command(ctx, head)


@click.group(cls=TargetGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--serial", is_flag=True,
              help="run the cores of every launch one after another (the reference) instead of in lock-step")
@click.option("--lockstep", is_flag=True,
              help="run each core's scalar code on its own, in lock-step, instead of once for groups of cores "
                   "(Python kernels)")
@click.option("--unbatched-loops", is_flag=True,
              help="run every iteration of a VF hardware loop on its own (the reference) instead of each body "
                   "instruction once over all iterations")
@click.pass_context
def cli(ctx: click.Context, serial: bool, lockstep: bool, unbatched_loops: bool) -> None:
    """Check an Ascend C kernel migration (MemBase -> RegBase) on the CPU."""
    if serial or lockstep:
        from toolkit.engine.launch import launch_mode
        ctx.with_resource(launch_mode("serial" if serial else "lockstep"))
    if unbatched_loops:
        from toolkit.ascendc.regbase.loopbatch import loop_batching
        ctx.with_resource(loop_batching(False))


#: Entry-point group through which operator packages add their commands (``toolkit`` never imports
#: ``operators``: each operator registers itself in pyproject.toml).
COMMAND_GROUP = "migrate_check.commands"


def _register() -> None:
    from importlib.metadata import entry_points

    from toolkit.cli import asc_commands as cli_asc  # noqa: F401  (generic commands add themselves to ``cli``)
    from toolkit.cli import cann_command as cli_cann  # noqa: F401
    from toolkit.cli import api_command as cli_api  # noqa: F401
    from toolkit.cli import machine_command as cli_machine
    from toolkit.cli import port_command as cli_port  # noqa: F401
    from toolkit.cli import sweep_command as cli_sweep
    for ep in entry_points(group=COMMAND_GROUP):
        if ep.name not in cli.commands:
            cli.add_command(ep.load(), ep.name)


def _invoke(args: list[str]) -> int:
    """Parse and run one command; usage errors become BadUsage, bare ``migrate-check`` prints its
    help to stderr (exit 2)."""
    try:
        with cli.make_context("migrate-check", args) as ctx:
            code = cli.invoke(ctx)
    except click.exceptions.Exit as ex:          # --help
        return ex.exit_code
    except click.UsageError as err:
        if type(err).__name__.startswith("NoArgsIsHelp"):
            click.echo(err.format_message(), err=True)
            return EXIT_BAD_INPUT
        raise BadUsage(err.format_message()) from None
    except click.ClickException as err:
        raise BadUsage(err.format_message()) from None
    except click.Abort:
        raise KeyboardInterrupt from None
    return EXIT_OK if code is None else int(code)


def main(argv: list[str] | None = None) -> int:
    """Entry point of the console script; returns (and, run as a script, exits with) the exit code."""
    _register()
    code = guarded("migrate-check", lambda: _invoke(sys.argv[1:] if argv is None else list(argv)))
    if argv is None:
        sys.exit(code)
    return code
