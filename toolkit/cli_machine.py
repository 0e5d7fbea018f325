"""``migrate-check machine``: print and sanity-check the machine model (every number with its source)."""
from __future__ import annotations

import click

from .cli import EXIT_GATE, EXIT_OK, cli, dump_json
from .outputs import OutputPlan
from .machine import MachineError, load_machine

#: opcodes the emulator records (RegBase API and the MemBase VF streams); each needs a cost entry
RECORDED_OPCODES = (
    "RV_VLD", "RV_VSLDB", "RV_VLDUS", "RV_VLDAS", "RV_VST", "RV_VSSTB", "RV_VSTUI", "RV_VSTAS",
    "RV_VADD", "RV_VSUB", "RV_VMUL", "RV_VDIV", "RV_VMAX", "RV_VMIN", "RV_VADDS", "RV_VMULS", "RV_VMAXS",
    "RV_VMINS", "RV_VSQRT", "RV_VEXP", "RV_VABS", "RV_VLN", "RV_VRELU", "RV_VDUP", "RV_VSEL", "RV_VCADD",
    "RV_VCMAX", "RV_VCMIN", "RV_VCVT_F2F", "RV_VCVT_F2I", "RV_VCVT_I2F", "RV_VCVT_I2I", "RV_VSQZ",
    "RV_PLT", "RV_PSET", "RV_PMOV", "RV_VLOOP", "RV_MEMBAR",
)


@cli.command("machine")
@click.option("--json", "json_path", type=str, default=None, help="write the model as JSON to PATH ('-' = stdout)")
def machine_command(json_path) -> int:
    """Print the machine model (parameters, sources, opcode costs) and check it is complete."""
    plan = OutputPlan({"json": json_path})
    m = load_machine()
    missing = []
    for op in RECORDED_OPCODES:
        try:
            m.instr(op)
        except MachineError:
            missing.append(op)
    if "json" in plan:
        data = {"name": m.name, "version": m.version,
                "params": {s: {k: {"value": v, "source": m.sources[s][k]} for k, v in sec.items()}
                           for s, sec in m.params.items()},
                "instructions": {op: c.__dict__ for op, c in m.instructions.items()},
                "missing_opcodes": missing}
        plan.commit({"json": dump_json(data)})
    if not plan.stdout_taken:
        lines = [f"machine {m.name} v{m.version}"]
        for section, params in m.params.items():
            lines.append(f"[{section}]")
            lines += [f"  {k} = {v!r}  # {m.sources[section][k]}" for k, v in params.items()]
        lines.append("[instructions] opcode: lane issue duration latency ii")
        lines += [f"  {op}: {c.lane} {c.issue} {c.duration} {c.latency} {c.ii}" for op, c in m.instructions.items()]
        lines.append("missing cost entries: " + (", ".join(missing) if missing else "none"))
        click.echo("\n".join(lines))
    return EXIT_GATE if missing else EXIT_OK
