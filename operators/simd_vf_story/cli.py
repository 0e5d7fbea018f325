"""``migrate-check simd_vf_story[/family[/variant]]``: the vendor's VF pattern catalogue."""
from __future__ import annotations

import click

from toolkit.cli import check_writable, EXIT_GATE, EXIT_OK, BadUsage, dump_json, write_output


@click.command("simd_vf_story")
@click.option("--json", "json_path", type=str, default=None, help="write the JSON report to PATH ('-' = stdout)")
@click.option("--trace", "trace_path", type=str, default=None, help="write a Chrome trace (JSON) to FILE")
@click.pass_context
def story_command(ctx: click.Context, json_path, trace_path) -> int:
    """The 26 simd_vf_story kernels: host checks, VF/loop/instruction counters beside the vendor's figures."""
    from . import report as story_report

    check_writable(json_path, trace_path)
    selector = ctx.meta.get("selector", "simd_vf_story")
    try:
        report = story_report.run_selector(selector)
    except story_report.SelectorError as err:
        raise BadUsage(str(err)) from None
    if trace_path is not None:
        from toolkit.views.trace import story_trace
        write_output(trace_path, dump_json(story_trace(report)))
    if json_path is not None:
        write_output(json_path, dump_json(report.to_json()))
    if json_path != "-":
        click.echo(report.to_text())
    return EXIT_OK if report.passed else EXIT_GATE


command = story_command
