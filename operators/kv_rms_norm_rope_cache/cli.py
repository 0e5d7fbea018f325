"""``migrate-check kv_rms_norm_rope_cache``: both backends of the sample under one host side."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from toolkit.cli import check_envelope, dump_json, finish, force_option, output_options
from toolkit.console.outputs import OutputPlan
from toolkit.machine import load_machine

if TYPE_CHECKING:                    # imported where used: `--help` does not load the emulator
    from toolkit.harness.lineup import Lineup

#: rows (batch x num_head x seq) from which the backends run side by side by default: about 0.5 s of
#: emulation each on the bench machine; below it a worker's fork and start cost a good part of what it saves
SIDE_BY_SIDE_ROWS = 4096


DEFAULTS = dict(batch=8, num_head=1, seq=128, dv=512, dk=128, ub_factor=8, seed=2026, epsilon=1e-5)


@click.command("kv_rms_norm_rope_cache")
@click.option("--batch", type=int, default=DEFAULTS["batch"], show_default=True)
@click.option("--num-head", type=int, default=DEFAULTS["num_head"], show_default=True)
@click.option("--seq", type=int, default=DEFAULTS["seq"], show_default=True, help="sequence length (= cacheLength)")
@click.option("--dv", type=int, default=DEFAULTS["dv"], show_default=True, help="RMSNorm width")
@click.option("--dk", type=int, default=DEFAULTS["dk"], show_default=True, help="RoPE width (even)")
@click.option("--ub-factor", type=int, default=DEFAULTS["ub_factor"], show_default=True,
              help="rows per UB tile (capped by blockFactor)")
@click.option("--cores", type=int, default=None, help="AIV cores (default: the machine model's, 56)")
@click.option("--seed", type=int, default=DEFAULTS["seed"], show_default=True)
@click.option("--epsilon", type=float, default=DEFAULTS["epsilon"], show_default=True)
@click.option("--backend", type=click.Choice(["membase", "regbase", "both"]), default="both", show_default=True)
@click.option("--data-dir", type=str, default=None,
              help="run on DIR/input/*.bin and compare with DIR/output/*_golden.bin (gen_data layout)")
@output_options("json", "trace", "html")
@force_option
@click.option("--advise", is_flag=True, help="sweep ubFactor (every value that fits) and name the change that buys most")
@click.option("--jobs", type=click.IntRange(min=1), default=None,
              help="processes: the backends (and their --precision-envelope reruns) side by side (default: "
                   f"from {SIDE_BY_SIDE_ROWS} rows, one each as CPUs allow; 1: one after the other) and the --advise "
                   "sweep's workers")
@click.option("--precision-envelope", "envelope", is_flag=True,
              help="rerun each backend with Div/Sqrt/Exp/Ln/Rsqrt/Reciprocal results moved within their ulp "
                   "bounds (machine file [envelope]); report the worst per output, gate on it")
@click.option("--envelope-seeds", type=click.IntRange(min=0), default=None, metavar="N",
              help="seeded reruns of the envelope beside all-up and all-down (default: machine file)")
def kv_command(batch, num_head, seq, dv, dk, ub_factor, cores, seed, epsilon, backend, data_dir, json_path,
               trace_path, force, html_path, advise, jobs, envelope, envelope_seeds) -> int:
    """KvRmsNormRopeCache: MemBase vs RegBase, golden gate, UB budget, cycles."""
    from toolkit.harness.data import user_input
    from toolkit.harness.envelope import reruns
    from toolkit.harness.forked import run_lineup

    from . import host
    from .envelope import kv_envelope

    params = host.KvParams(batch, num_head, seq, dv, dk, ub_factor, cores, seed, epsilon)
    backends = ["membase", "regbase"] if backend == "both" else [backend]
    with user_input():
        params.validate()
        for b in backends:
            check_envelope(f"{b}/full_load", host.envelope_violations(b, params), force)
        plan = OutputPlan({"json": json_path, "trace": trace_path, "html": html_path})
        case = host.load_case(params, data_dir)
    machine = load_machine()
    rounds = 1 + (len(reruns(machine, envelope_seeds)) if envelope else 0)
    views = tuple(v for v, out in (("trace", "trace"), ("timeline", "html")) if out in plan)
    workers = _workers(host.make_tiling(params, machine).totalRows, len(backends), jobs)
    with _progress(params, machine, len(backends) * rounds) as line:
        lineup = run_lineup(_backend_runs(params, case, machine, backends), machine, views=views,
                            workers=workers, stage=lambda note: line.update(line.done, note=note))
        if envelope:
            line.update(line.done, note="precision envelope")
            env = kv_envelope(params, case, machine, backends, envelope_seeds, workers=workers)
        del case                             # gated: the inputs and goldens are not needed any more
    runs = lineup.runs
    report = _report_json(params, lineup)
    if envelope:
        report["precision_envelope"] = env
        report["passed"] = report["passed"] and env["passed"]
    if advise:
        from .advise import kv_advice
        report["advisor"] = kv_advice(params, runs, lineup.cycles, data_dir=data_dir, force=force, jobs=jobs)
    contents = {"json": dump_json(report)}
    if "html" in plan:
        from .html import kv_page
        contents["html"] = kv_page(params, report, lineup)
    if "trace" in plan:
        contents["trace"] = dump_json(lineup.trace())
    return finish(plan, contents, lambda: lineup.text("UB budget (bytes)") + _envelope_text(report)
                  + _advice_text(report), report["passed"])


def _backend_runs(params, case: dict, machine, backends: list[str]) -> dict:
    """backend -> the function that runs and gates it; its output bytes are dropped once compared (the
    report reads the comparisons), so a long run does not hold one backend's outputs while the next one runs."""
    from . import host

    def run(b: str):
        r = host.run_backend(b, params, case, machine)
        r.outputs.clear()
        return r

    return {b: (lambda b=b: run(b)) for b in backends}


def _workers(rows: int, n_backends: int, jobs: int | None) -> int:
    """Processes the backends run in: ``--jobs`` when given, else one per backend (at most the usable
    CPUs) for a case of :data:`SIDE_BY_SIDE_ROWS` rows (the tiling's totalRows) or more, else one."""
    from toolkit.console.children import usable_cpus

    if jobs is not None:
        return jobs
    return min(n_backends, usable_cpus()) if rows >= SIDE_BY_SIDE_ROWS else 1


def _progress(params, machine, n_backends: int):
    """Rows emulated (each finished core's rows, every backend) on a progress line on stderr when it is a
    terminal and the run lasts (toolkit.console.progress)."""
    from toolkit.console.progress import progress_line

    from . import host

    t = host.make_tiling(params, machine)

    def rows(core: int, _block_num: int) -> int:
        return max(0, min(t.blockFactor, t.totalRows - core * t.blockFactor))

    return progress_line(t.totalRows * n_backends, "rows", rows, note="emulating")


def _report_json(params, lineup: Lineup) -> dict[str, Any]:
    t = next(iter(lineup.runs.values())).tiling
    cores = params.cores if params.cores is not None else lineup.machine.aiv_cores
    return lineup.to_json({"params": {**params.__dict__, "cores": cores},
                           "tiling": {"block_num": t.blockNum, "block_factor": t.blockFactor,
                                      "ub_factor": t.ubFactor}}, "backends")


def _envelope_text(report: dict) -> str:
    if "precision_envelope" not in report:
        return ""
    from .envelope import kv_envelope_text
    return "\n\n" + kv_envelope_text(report["precision_envelope"])


def _advice_text(report: dict) -> str:
    if not report.get("advisor"):
        return ""
    from .advise import advice_text
    return "\n\n" + advice_text(report["advisor"])


command = kv_command
__all__ = ["command", "kv_command"]
