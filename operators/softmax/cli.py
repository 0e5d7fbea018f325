"""``migrate-check softmax[/variant]``: the softmax story's variants side by side under one host side."""
from __future__ import annotations

import click

from toolkit.cli import (
    BadUsage,
    check_envelope,
    dump_json,
    finish,
    force_option,
    output_options,
)
from toolkit.console.outputs import OutputPlan
from toolkit.machine import load_machine
from toolkit.views.ub_report import compare_table, gate_lines

from .sample_shape import SINGLE_CORE_M, TOTAL_M, TOTAL_N


@click.command("softmax")
@click.option("--total-m", type=int, default=TOTAL_M, show_default=True, help="rows of x (TOTAL_M)")
@click.option("--total-n", type=int, default=TOTAL_N, show_default=True, help="row length (TOTAL_N = SINGLE_CORE_N)")
@click.option("--single-core-m", type=int, default=SINGLE_CORE_M, show_default=True, help="rows per block")
@click.option("--seed", type=int, default=42, show_default=True, help="gen_data seed (legacy np.random.seed)")
@click.option("--data-dir", type=str, default=None,
              help="run on DIR/input/input_x.bin and compare with DIR/output/golden.bin (gen_data layout)")
@output_options("json", "trace")
@force_option
@click.pass_context
def softmax_command(ctx: click.Context, total_m, total_n, single_core_m, seed, data_dir, json_path, trace_path,
                    force) -> int:
    """Softmax 0_membase / 3_multi_row / 7_merged_vf_direct: sample gate, float64 check, UB, cycles, task time."""
    from toolkit.views.launch_summary import time_launches

    from . import host
    from .common import SoftmaxShape

    variants = _select(ctx.meta.get("selector", "softmax"), host.VARIANTS)
    shape = SoftmaxShape(total_m, total_n, single_core_m, total_n, 2 * total_n)
    try:
        if min(total_m, total_n, single_core_m) <= 0 or seed < 0:
            raise host.BadInput("--total-m, --total-n, --single-core-m must be positive and --seed >= 0")
        check_envelope("shape", host.envelope_violations(shape), force)
        plan = OutputPlan({"json": json_path, "trace": trace_path})
        x, golden = host.read_case(data_dir, shape) if data_dir else host.gen_data(shape, seed)
    except host.BadInput as err:
        raise BadUsage(str(err)) from None
    machine = load_machine()
    runs = {v: host.run_variant(v, x, golden, shape, machine) for v in variants}
    model, timings, cycles = time_launches({v: r.launch for v, r in runs.items()}, machine)
    report = {"params": {"total_m": total_m, "total_n": total_n, "single_core_m": single_core_m, "seed": seed,
                         "blocks": shape.blocks, "data_dir": data_dir},
              "passed": all(r.passed for r in runs.values()),
              "variants": {v: {**host.variant_json(r), "cycles": cycles[v]} for v, r in runs.items()}}
    contents = {"json": dump_json(report)}
    if "trace" in plan:
        from toolkit.views.trace import launch_trace, merge_traces
        contents["trace"] = dump_json(merge_traces([launch_trace(v, timings[v], model, k * 1000)
                                                    for k, v in enumerate(runs)]))
    return finish(plan, contents, lambda: _text(runs, cycles, machine), report["passed"])


def _select(selector: str, variants: dict) -> list[str]:
    """``softmax`` = every variant; ``softmax/NAME`` = one (``3`` or ``3_multi_row``)."""
    parts = selector.split("/")
    if len(parts) == 1:
        return list(variants)
    want = parts[1]
    hits = [v for v in variants if v == want or v.split("_", 1)[0] == want]
    if len(parts) > 2 or not hits:
        raise BadUsage(f"unknown softmax variant {'/'.join(parts[1:])!r} (known: {', '.join(variants)})")
    return hits


def _text(runs: dict, cycles: dict, machine) -> str:
    from toolkit.views.cycles import compare_cycles_table

    lines: list[str] = []
    for v, run in runs.items():
        lines.append(f"Run {v}, blocks {run.shape.blocks}, tileLen {run.shape.tileLen}")
        lines.extend(run.compare.lines)
        lines.append(run.verdict())
        c = run.check64
        lines.append(f"float64 softmax: max abs error {c.worst_error:.3g} at {c.worst_index}, {c.failures} over "
                     f"1e-3")
        lines.extend(gate_lines(run.launch.diagnostics, run.ub, run.passed))
    lines.append("UB plan (bytes)")
    lines.append(compare_table({v: r.ub for v, r in runs.items()}))
    lines.append("")
    src = machine.sources["core"]["clock_mhz"]
    lines.append(f"Cycles (model {machine.name} v{machine.version}; 1 cycle = 1/{machine.clock_mhz} us: {src})")
    lines.append(compare_cycles_table(cycles))
    return "\n".join(lines)


command = softmax_command
__all__ = ["command", "softmax_command"]

