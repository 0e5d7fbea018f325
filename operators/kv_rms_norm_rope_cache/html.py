"""``migrate-check kv_rms_norm_rope_cache --html FILE``: the report as one offline page (verdict, UB map,
pipe timelines of the slowest cores, VF table, diagnostics, and the advisor when ``--advise`` ran)."""
from __future__ import annotations

from toolkit.views import html_report as H
from toolkit.views.timeline import slowest_core_timeline
from toolkit.views.ub_report import ub_report

from . import host


def _largest(params: host.KvParams, runs: dict, machine) -> dict[str, tuple[int, int]]:
    """backend -> (largest ubFactor that fits, the plan's total bytes at it), from a dry run of Init."""
    out = {}
    for b, run in runs.items():
        top = run.ub.max_ub_factor
        if top:
            cls = host.backend_module(b).KernelKvRmsNormRopeCache
            out[b] = (top, ub_report(host.plan_fits(cls, params, machine, top)[1], machine.ub_budget_bytes).total_bytes)
    return out


def _gates(backends: dict) -> list[tuple[str, bool, str]]:
    gates = []
    for b, r in backends.items():
        bad = [n for n, o in r["outputs"].items() if o["errors"]]
        gates.append((f"{b}: golden (CompareBf16, tolerance {host.TOLERANCE:g})", not bad,
                      f"mismatches in {', '.join(bad)}" if bad else f"all {len(r['outputs'])} outputs within tolerance"))
        ub = r["ub"]
        gates.append((f"{b}: UB budget", ub["fits"], f"{ub['total_bytes']} B of {ub['budget_bytes']} B "
                                                    f"({ub['percent_used']:.1f}%)"))
        errors = [d for d in r["diagnostics"] if d["severity"] == "error" or d.get("fatal")]
        gates.append((f"{b}: kernel diagnostics", not errors,
                      f"{len(errors)} error(s), {len(r['diagnostics']) - len(errors)} warning(s)"))
    return gates


def _speed(backends: dict) -> str:
    cyc = {b: r["cycles"].get("kernel_cycles") for b, r in backends.items()}
    text = ", ".join(f"{b} {c if c is not None else 'n/a'}" for b, c in cyc.items())
    if cyc.get("membase") and cyc.get("regbase"):
        text += f" (speed-up {cyc['membase'] / cyc['regbase']:.2f}x)"
    return "kernel cycles (slowest core): " + text


def kv_page(params: host.KvParams, report: dict, runs: dict, timings: dict, machine) -> str:
    backends = report["backends"]
    outputs = [[b, n, o["errors"], H.max_diff_text(o["max_diff"]), f"{o['precision']:.6f}%"]
               for b, r in backends.items() for n, o in r["outputs"].items()]
    advisor = [a["line"] for a in (report.get("advisor") or {}).values()]
    timelines = {b: (slowest_core_timeline(t) if not runs[b].launch.aborted else None) for b, t in timings.items()}
    t = report["tiling"]
    sections = [
        H.verdict_section(_gates(backends), outputs, advisor,
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
