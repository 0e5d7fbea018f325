"""``migrate-check``: the command-line front end (click).

    migrate-check kv_rms_norm_rope_cache [--batch ... --backend both --json out.json]
    migrate-check simd_vf_story[/family[/variant]] [--json -]

Exit codes: 0 every gate passed; 1 a gate failed (golden mismatch, UB plan over budget, a kernel
diagnostic of error severity); 2 bad input (one line on stderr, no traceback, no output file).
"""
from __future__ import annotations

import json
import os
import sys
import tempfile
from typing import Any

import click

EXIT_OK, EXIT_GATE, EXIT_BAD_INPUT = 0, 1, 2


from .outputs import BadUsage  # noqa: E402  (re-exported: commands raise toolkit.cli.BadUsage)


def check_writable(*paths: str | None) -> None:
    """Refuse an output path whose directory does not exist, or two outputs (say ``--json`` and
    ``--trace``) sharing one path or both on stdout, before doing any work."""
    given = [p for p in paths if p is not None]
    for path in given:
        if given.count(path) > 1:
            raise BadUsage(f"two outputs write to {'stdout' if path == '-' else path}; give them different paths")
    for path in paths:
        if path is None or path == "-":
            continue
        directory = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(directory):
            raise BadUsage(f"cannot write {path}: directory {directory} does not exist")
        if os.path.isdir(path):
            raise BadUsage(f"cannot write {path}: it is a directory")


def write_output(path: str, text: str) -> None:
    """Write ``text`` to ``path`` atomically (never a partial file); ``-`` means stdout."""
    if path == "-":
        click.echo(text)
        return
    directory = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(directory):
        raise BadUsage(f"cannot write {path}: directory {directory} does not exist")
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=".migrate-check-", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)          # mkstemp creates 0600; give the usual permissions
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def dump_json(data: Any) -> str:
    return json.dumps(data, indent=2, sort_keys=False, default=_json_default)


def _json_default(o: Any) -> Any:
    if hasattr(o, "item"):
        return o.item()
    if hasattr(o, "to_json"):
        return o.to_json()
    raise TypeError(f"not JSON serialisable: {type(o).__name__}")


class TargetGroup(click.Group):
    """Sub-commands are targets. ``NAME/rest`` selects inside a target (``simd_vf_story/reduce``): the
    command NAME runs with ``ctx.meta["selector"] = "NAME/rest"``."""

    def get_command(self, ctx: click.Context, name: str):
        head = name.split("/", 1)[0]
        if head != name:
            ctx.meta["selector"] = name
        return super().get_command(ctx, head)


@click.group(cls=TargetGroup, context_settings={"help_option_names": ["-h", "--help"]})
def cli() -> None:
    """Check an Ascend C kernel migration (MemBase -> RegBase) on the CPU."""


#: Entry-point group through which operator packages add their commands (``toolkit`` never imports
#: ``operators``: each operator registers itself in pyproject.toml).
COMMAND_GROUP = "migrate_check.commands"


def _register() -> None:
    from importlib.metadata import entry_points

    from . import cli_machine  # noqa: F401  (generic commands add themselves to ``cli``)
    for ep in entry_points(group=COMMAND_GROUP):
        if ep.name not in cli.commands:
            cli.add_command(ep.load(), ep.name)


def main(argv: list[str] | None = None) -> int:
    """Entry point of the console script; returns (and exits with) the exit code."""
    _register()
    try:
        code = cli.main(args=argv, prog_name="migrate-check", standalone_mode=False)
    except click.UsageError as err:
        if type(err).__name__.startswith("NoArgsIsHelp"):
            click.echo(err.format_message())
        else:
            click.echo(f"migrate-check: error: {err.format_message()}", err=True)
        code = EXIT_BAD_INPUT
    except BadUsage as err:
        click.echo(f"migrate-check: error: {err}", err=True)
        code = EXIT_BAD_INPUT
    except click.exceptions.Exit as ex:
        code = ex.exit_code
    except click.Abort:
        code = EXIT_BAD_INPUT
    code = EXIT_OK if code is None else int(code)
    if argv is None:
        sys.exit(code)
    return code
