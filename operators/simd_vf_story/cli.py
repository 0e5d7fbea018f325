"""``migrate-check simd_vf_story[/family[/variant]]``: the vendor's VF pattern catalogue."""
from __future__ import annotations

import click

from toolkit.cli import EXIT_GATE, EXIT_OK, BadUsage, dump_json
from toolkit.outputs import OutputPlan


@click.command("simd_vf_story")
@click.option("--json", "json_path", type=str, default=None, help="write the JSON report to PATH ('-' = stdout)")
@click.option("--trace", "trace_path", type=str, default=None, help="write a Chrome trace (JSON) to FILE")
@click.option("--html", "html_path", type=str, default=None, help="write the report as a self-contained HTML page")
@click.pass_context
def story_command(ctx: click.Context, json_path, trace_path, html_path) -> int:
    """The 26 simd_vf_story kernels: host checks, VF/loop/instruction counters beside the vendor's figures."""
    from . import report as story_report

    plan = OutputPlan({"json": json_path, "trace": trace_path, "html": html_path})
    selector = ctx.meta.get("selector", "simd_vf_story")
    try:
        report = story_report.run_selector(selector)
    except story_report.SelectorError as err:
        raise BadUsage(str(err)) from None
    contents = {"json": dump_json(report.to_json())}
    if "trace" in plan:
        from toolkit.views.trace import story_trace
        contents["trace"] = dump_json(story_trace(report))
    if "html" in plan:
        from .html import story_page
        contents["html"] = story_page(report)
    plan.commit(contents)
    if not plan.stdout_taken:
        click.echo(report.to_text())
    return EXIT_OK if report.passed else EXIT_GATE


command = story_command
