"""``migrate-check port MEMBASE.asc -o REGBASE.asc [--report] [--html FILE] [--json PATH]``: write the
RegBase version of a MemBase kernel (toolkit.port) and prove it: build and run both programs, compare
their GM outputs within the dtype tolerance, report UB and cycles per region and in total.

Exit codes: 0 the port is equivalent (or ``--no-prove``); 1 it is not (outputs differ beyond tolerance,
the port does not build or run, its own host check or an error diagnostic fails); 2 bad input (the
source does not parse, the original does not build or run, an output path cannot be used).
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

import click

from . import EXIT_GATE, EXIT_OK, BadUsage, OutputPlan, cli, dump_json


@cli.command("port", context_settings={"ignore_unknown_options": True})
@click.argument("source", type=str)
@click.option("-o", "--output", "output", type=str, required=True, help="write the RegBase port to this .asc file")
@click.option("-I", "include_dirs", multiple=True, metavar="DIR", help="add DIR to the include path")
@click.option("-D", "defines", multiple=True, metavar="NAME[=VALUE]", help="define a macro")
@click.option("--json", "json_path", type=str, default=None, help="write the JSON report to PATH ('-' = stdout)")
@click.option("--report", is_flag=True, help="also write the HTML report next to the output (REGBASE.html)")
@click.option("--html", "html_path", type=str, default=None, help="write the HTML report to FILE")
@click.option("--no-prove", is_flag=True, help="only write the port (no build, run or comparison)")
@click.option("--atol", type=float, default=None, help="absolute tolerance of the output comparison (default by dtype)")
@click.option("--timeout", type=click.FloatRange(min=0.1), default=600.0, show_default=True,
              help="stop each program after S seconds")
@click.option("--detail", is_flag=True, help="print both programs' full run reports and the compare tables")
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def port_command(source, output, include_dirs, defines, json_path, report, html_path, no_prove, atol, timeout,
                 detail, args) -> int:
    """Port a MemBase .asc kernel to RegBase VFs and prove the port (build, run, compare both)."""
    from toolkit.port.frontend import FrontendError
    from toolkit.port.port import port_source
    if report and html_path is None:
        html_path = str(Path(output).with_suffix(".html"))
    src = Path(source)
    if not src.is_file():
        raise BadUsage(f"{source}: no such file")
    if os.path.realpath(output) == os.path.realpath(source):
        raise BadUsage("-o must not be the source file")
    plan = OutputPlan({"output": output, "json": json_path, "html": html_path}, labels={"output": "-o"})
    try:
        result = port_source(src, list(include_dirs), list(defines))
    except FrontendError as err:
        raise BadUsage(str(err)) from None
    proof = None
    if not no_prove:
        proof = _prove(result, src, Path(output), list(include_dirs), list(defines), timeout, atol,
                       "html" in plan, list(args))
    from toolkit.port.report import port_json, port_page, port_text
    contents = {"output": result.text, "json": dump_json(port_json(result, output, proof))}
    if "html" in plan:
        if proof is None:
            raise BadUsage("the HTML report needs the proof (drop --no-prove)")
        contents["html"] = port_page(result, output, proof)
    plan.commit(contents)
    if not plan.stdout_taken:
        click.echo(port_text(result, output, proof, detail))
    return EXIT_OK if proof is None or proof.passed else EXIT_GATE


def _prove(result, src: Path, output: Path, include_dirs, defines, timeout, atol, timeline, args):
    """Build and run the port from a temporary file beside ``output`` (so its includes resolve as they
    will there); the outputs are written only after the proof."""
    from toolkit.port.proof import ProofError, prove
    out_dir = output.resolve().parent
    fd, tmp = tempfile.mkstemp(prefix=f".{output.stem}-port-", suffix=".asc", dir=out_dir)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(result.text)
        try:
            return prove(result, src, Path(tmp), include_dirs, defines, timeout, atol, timeline, args)
        except ProofError as err:
            raise BadUsage(str(err)) from None
    finally:
        os.unlink(tmp)


__all__ = ["port_command"]
