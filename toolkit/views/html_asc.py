"""HTML pages of ``migrate-check run FILE.asc --html`` and ``compare A.asc B.asc --html``: the shared
sections of :mod:`toolkit.views.html_report` built from the launch records (the ``.asc`` child adds each
launch's slowest-core timeline when an HTML output was asked for)."""
from __future__ import annotations

import os

from . import html_report as H
from .run_report import launch_json, run_passed


def _side(prefix: str, k: int, lr: dict, many: bool) -> str:
    kernel = lr["kernel"].split("<", 1)[0]
    return f"{prefix}{kernel}" + (f" #{k}" if many else "")


def _sides(runs: list[tuple[str, object]]) -> dict[str, dict]:
    """Every launch of every run under a unique side name."""
    out = {}
    for prefix, run in runs:
        many = len(run.launches) > 1
        for k, lr in enumerate(run.launches):
            out[_side(prefix, k, lr, many)] = lr
    return out


def _program_gates(name: str, run) -> list[tuple[str, bool, str]]:
    gates = [(f"{name}: program", run.failure is None and run.exit_status == 0,
              run.failure or f"exit status {run.exit_status} (its own check)")]
    for k, lr in enumerate(run.launches):
        ub = lr["ub"]
        errors = [d for d in lr["diagnostics"] if d["severity"] == "error"]
        gates.append((f"{name}: launch {k} {lr['kernel']} UB budget", ub["fits"],
                      f"{ub['total_bytes']} B of {ub['budget_bytes']} B ({ub['percent_used']:.1f}%)"))
        gates.append((f"{name}: launch {k} diagnostics", not errors,
                      f"{len(errors)} error(s), {len(lr['diagnostics']) - len(errors)} warning(s)"))
    return gates


def _shared_sections(sides: dict[str, dict]) -> list[H.Section]:
    return [
        H.ub_section({s: lr["ub"] for s, lr in sides.items()}),
        H.timeline_section({s: lr.get("timeline") for s, lr in sides.items()}),
        H.vf_section({s: lr["cycles"] for s, lr in sides.items()}),
        H.diagnostics_section({s: lr["diagnostics"] for s, lr in sides.items()}),
    ]


def _program_output(runs: list[tuple[str, object]]) -> H.Section:
    body = "".join(f"<h3>{H.esc(name or os.path.basename(run.source))}</h3><pre>{H.esc(run.stdout[-20000:])}</pre>"
                   for name, run in runs)
    return H.Section("program-output", "Program output", body)


def run_page(run) -> str:
    name = os.path.basename(run.source)
    outputs = [[f"launch {k}", o["arg"], o["dtype"], o["bytes_written"]]
               for k, lr in enumerate(run.launches) for o in launch_json(lr)["outputs"]]
    sides = _sides([("", run)])
    sections = [H.verdict_section(_program_gates(name, run), outputs, [],
                                  ("launch", "output", "dtype", "bytes written"))]
    sections += (_shared_sections(sides) if sides else []) + [_program_output([("", run)])]
    verdict = "PASS" if run_passed(run) else "FAIL"
    return H.page(f"migrate-check run {name}", f"{run.source}: {len(run.launches)} launch(es), {verdict}", sections)


def compare_page(ra, rb, result: dict, names: tuple[str, str] = ("a", "b")) -> str:
    gates = _program_gates(names[0], ra) + _program_gates(names[1], rb)
    counts = result["launch_counts"]
    gates.append(("launch counts", counts[0] == counts[1], f"{counts[0]} vs {counts[1]}"))
    outputs = []
    for k, pair in enumerate(result["launches"]):
        bad = [o["arg"] for o in pair["outputs"] if o["mismatches"] != 0]
        gates.append((f"launch {k} outputs a vs b", not bad, f"beyond tolerance: {', '.join(bad)}" if bad
                      else f"{len(pair['outputs'])} output(s) within tolerance"))
        outputs += [[f"launch {k}", o["arg"], o["dtype"], o["elements"],
                     "-" if o["max_abs_diff"] is None else H.max_diff_text(o["max_abs_diff"]),
                     o.get("note") or o["mismatches"], o.get("tolerance", "-")] for o in pair["outputs"]]
    notes = [f"launch {k}: UB {p['ub_a']} -> {p['ub_b']} B (saving {p['ub_saving_pct']}%), kernel cycles "
             f"{p['cycles_a']} -> {p['cycles_b']} (speed-up {p['speedup']}x)" for k, p in enumerate(result["launches"])]
    advisor = [a["line"] for a in (result.get("advisor") or {}).values()]
    sections = [H.verdict_section(gates, outputs, advisor,
                                  ("launch", "output", "dtype", "elements", "max |a-b|", "errors", "tolerance"), notes)]
    runs = [(f"{names[0]}: ", ra), (f"{names[1]}: ", rb)]
    sides = _sides(runs)
    sections += (_shared_sections(sides) if sides else []) + [_program_output(runs)]
    title = f"migrate-check compare {os.path.basename(ra.source)} {os.path.basename(rb.source)}"
    return H.page(title, f"a = {ra.source}; b = {rb.source}; {'PASS' if result['passed'] else 'FAIL'}", sections)
