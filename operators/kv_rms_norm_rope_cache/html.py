"""``migrate-check kv_rms_norm_rope_cache --html FILE``: the report as one offline page (verdict, UB map,
pipe timelines of the slowest cores, VF table, diagnostics, and the advisor when ``--advise`` ran)."""
from __future__ import annotations

from toolkit.views import html_report as H

from . import host


def _largest(params: host.KvParams, runs: dict, machine) -> dict[str, tuple[int, int]]:
    """backend -> (largest ubFactor that fits, the plan's total bytes at it), from a dry run of Init."""
    out = {}
    for b, run in runs.items():
        top = run.ub.max_ub_factor
        if top:
            cls = host.backend_module(b).KernelKvRmsNormRopeCache
            out[b] = (top, host.plan_fits(cls, params, machine, top)[1].total_bytes)
    return out


def _speed(backends: dict) -> str:
    cyc = {b: r["cycles"].get("kernel_cycles") for b, r in backends.items()}
    text = ", ".join(f"{b} {c if c is not None else 'n/a'}" for b, c in cyc.items())
    if cyc.get("membase") and cyc.get("regbase"):
        text += f" (speed-up {cyc['membase'] / cyc['regbase']:.2f}x)"
    return "kernel cycles (slowest core): " + text


def kv_page(params: host.KvParams, report: dict, lineup) -> str:
    backends, runs, machine = report["backends"], lineup.runs, lineup.machine
    outputs = [[b, n, o["errors"], H.max_diff_text(o["max_diff"]), f"{o['precision']:.6f}%"]
               for b, r in backends.items() for n, o in r["outputs"].items()]
    advisor = [a["line"] for a in (report.get("advisor") or {}).values()]
    timelines = {b: lineup.view("timeline", b) for b in runs}
    t = report["tiling"]
    gates = [row for run in runs.values() for row in run.gate_rows(host.GOLDEN)]
    sections = [
        H.verdict_section(gates, outputs, advisor,
                          ("backend", "output", "errors", "max diff", "precision"), [_speed(backends)]),
        H.ub_section({b: r["ub"] for b, r in backends.items()}, _largest(params, runs, machine)),
        H.timeline_section(timelines),
        H.vf_section({b: r["cycles"] for b, r in backends.items()}),
        H.diagnostics_section({b: r["diagnostics"] for b, r in backends.items()}),
    ]
    p = report["params"]
    subtitle = (f"batch {p['batch']}, num_head {p['num_head']}, seq {p['seq']}, dv {p['dv']}, dk {p['dk']}, "
                f"cores {p['cores']}; blockNum {t['block_num']}, blockFactor {t['block_factor']}, ubFactor "
                f"{t['ub_factor']}; model {machine.name} v{machine.version}, {machine.clock_mhz} MHz")
    return H.page(f"kv_rms_norm_rope_cache: {' vs '.join(backends)}", subtitle, sections)
