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
    from toolkit.harness.data import user_input
    from toolkit.harness.lineup import Lineup

    from . import host
    from .common import SoftmaxShape

    variants = _select(ctx.meta.get("selector", "softmax"), host.VARIANTS)
    shape = SoftmaxShape(total_m, total_n, single_core_m, total_n, 2 * total_n)
    with user_input():
        if min(total_m, total_n, single_core_m) <= 0 or seed < 0:
            raise host.BadInput("--total-m, --total-n, --single-core-m must be positive and --seed >= 0")
        check_envelope("shape", host.envelope_violations(shape), force)
        plan = OutputPlan({"json": json_path, "trace": trace_path})
        x, golden = host.read_case(data_dir, shape) if data_dir else host.gen_data(shape, seed)
    machine = load_machine()
    lineup = Lineup({v: host.run_variant(v, x, golden, shape, machine) for v in variants}, machine)
    report = lineup.to_json({"params": {"total_m": total_m, "total_n": total_n, "single_core_m": single_core_m,
                                        "seed": seed, "blocks": shape.blocks, "data_dir": data_dir}}, "variants")
    contents = {"json": dump_json(report)}
    if "trace" in plan:
        contents["trace"] = dump_json(lineup.trace())
    return finish(plan, contents, lambda: lineup.text("UB plan (bytes)", cite_clock=True), report["passed"])


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


command = softmax_command
__all__ = ["command", "softmax_command"]

