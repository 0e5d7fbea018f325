"""``migrate-check simd_vf_story[/family[/variant]]``: the vendor's VF pattern catalogue."""
from __future__ import annotations

import click

from toolkit.cli import BadUsage, dump_json, finish, output_options
from toolkit.console.outputs import OutputPlan


@click.command("simd_vf_story")
@output_options("json", "trace", "html")
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
    return finish(plan, contents, report.to_text, report.passed)


command = story_command
