"""``migrate-check machine``: print and sanity-check the machine model (every number with its source)."""
from __future__ import annotations

import click

from toolkit.console.outputs import OutputPlan
from toolkit.machine import load_machine
from toolkit.machine.isa import REGISTRY, check

from . import EXIT_GATE, EXIT_OK, cli, dump_json

#: opcodes the emulator records (RegBase API and the MemBase VF streams): the registry
RECORDED_OPCODES = tuple(REGISTRY)


@cli.command("machine")
@click.option("--json", "json_path", type=str, default=None, help="write the model as JSON to PATH ('-' = stdout)")
def machine_command(json_path) -> int:
    """Print the machine model (parameters, sources, opcode costs) and check it is complete."""
    plan = OutputPlan({"json": json_path})
    m = load_machine()
    missing, unused = check(m)
    if "json" in plan:
        data = {"name": m.name, "version": m.version,
                "params": {s: {k: {"value": v, "source": m.sources[s][k]} for k, v in sec.items()}
                           for s, sec in m.params.items()},
                "instructions": {op: c.__dict__ for op, c in m.instructions.items()},
                "missing_opcodes": missing, "unused_opcodes": unused}
        plan.commit({"json": dump_json(data)})
    if not plan.stdout_taken:
        lines = [f"machine {m.name} v{m.version}"]
        for section, params in m.params.items():
            lines.append(f"[{section}]")
            lines += [f"  {k} = {v!r}  # {m.sources[section][k]}" for k, v in params.items()]
        lines.append("[instructions] opcode: lane unit issue duration latency ii")
        lines += [f"  {op}: {c.lane} {c.unit} {c.issue} {c.duration} {c.latency} {c.ii}"
                  for op, c in m.instructions.items()]
        lines.append("against the opcode registry (toolkit/machine/isa.py):")
        lines.append("  missing or misplaced cost entries: " + (", ".join(missing) if missing else "none"))
        lines.append("  entries no API records: " + (", ".join(unused) if unused else "none"))
        click.echo("\n".join(lines))
    return EXIT_GATE if missing or unused else EXIT_OK
