"""``migrate-check machine``: print and sanity-check the machine model (every number with its source)."""
from __future__ import annotations

import click

from toolkit.console.outputs import OutputPlan
from toolkit.machine import load_machine
from toolkit.machine.citations import cited_sections
from toolkit.machine.isa import REGISTRY, check

from . import EXIT_GATE, EXIT_OK, cli, dump_json

#: opcodes the emulator records (RegBase API and the MemBase VF streams): the registry
RECORDED_OPCODES = tuple(REGISTRY)


@cli.command("machine")
@click.option("--json", "json_path", type=str, default=None, help="write the model as JSON to PATH ('-' = stdout)")
@click.option("--cites", is_flag=True, help="under each entry, the heading of every fact-sheet section its source cites")
def machine_command(json_path, cites) -> int:
    """Print the machine model (parameters, sources, opcode costs) and check it is complete.

    The JSON gives each parameter and opcode ``cites``: the sections of docs/ its source cites, with headings."""
    plan = OutputPlan({"json": json_path})
    m = load_machine()
    missing, unused = check(m)
    if "json" in plan:
        data = {"name": m.name, "version": m.version,
                "params": {s: {k: {"value": v, "source": m.sources[s][k], "cites": cited_sections(m.sources[s][k])}
                               for k, v in sec.items()} for s, sec in m.params.items()},
                "instructions": {op: {**c.__dict__, "cites": cited_sections(c.source)}
                                 for op, c in m.instructions.items()},
                "missing_opcodes": missing, "unused_opcodes": unused}
        plan.commit({"json": dump_json(data)})
    if not plan.stdout_taken:
        lines = [f"machine {m.name} v{m.version}"]
        for section, params in m.params.items():
            lines.append(f"[{section}]")
            for k, v in params.items():
                lines.append(f"  {k} = {v!r}  # {m.sources[section][k]}")
                lines += _cite_lines(m.sources[section][k]) if cites else []
        lines.append("[instructions] opcode: lane unit issue duration latency ii")
        for op, c in m.instructions.items():
            lines.append(f"  {op}: {c.lane} {c.unit} {c.issue} {c.duration} {c.latency} {c.ii}")
            lines += _cite_lines(c.source) if cites else []
        lines.append("against the opcode registry (toolkit/machine/isa.py):")
        lines.append("  missing or misplaced cost entries: " + (", ".join(missing) if missing else "none"))
        lines.append("  entries no API records: " + (", ".join(unused) if unused else "none"))
        click.echo("\n".join(lines))
    return EXIT_GATE if missing or unused else EXIT_OK


def _cite_lines(source: str) -> list[str]:
    """``    api-facts 12: DataCopy / DataCopyPad ...`` for each section ``source`` cites (docs/README.md)."""
    return [f"      {c['sheet']} {c['section']}: {c['heading'] or '(no such section in docs/)'}"
            for c in cited_sections(source)]
