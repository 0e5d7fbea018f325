"""Text, JSON and HTML of ``migrate-check port``: per region what was ported (its VF, rows, stages,
registers, the sizes it had to assume) or why it stays MemBase (which call, which reason); UB and VF
cycles before and after per region and in total; the ``compare`` verdict of the two programs.

The HTML page is the report's standard page (``toolkit.views.html_report``: verdict, UB map, pipe
timelines, VF table, diagnostics) with the regions and the generated VFs added.
"""
from __future__ import annotations

import os

from toolkit.views import html_report as H
from toolkit.views.run_report import compare_text, run_json

from .port import PortResult
from .proof import Proof


def port_json(result: PortResult, output: str, proof: Proof | None) -> dict:
    regions = []
    for k, rep in enumerate(result.regions):
        d = rep.to_json()
        if proof is not None and proof.regions:
            d["figures"] = proof.regions[k]
        regions.append(d)
    out = {"source": result.source, "output": output, "regions": regions,
           "removed_buffers": result.removed_buffers, "proved": proof is not None}
    if proof is not None:
        out.update(passed=proof.passed, port_error=proof.port_error or None, totals=proof.totals,
                   warnings=proof.warnings,
                   compare=({k: v for k, v in proof.compare.items() if k not in ("a", "b")}
                            if proof.compare else None))
        if proof.runs is not None:
            out["runs"] = {"membase": _run(proof.runs[0]), "port": _run(proof.runs[1])}
    else:
        out["passed"] = True
    return out


def _run(run) -> dict:
    d = run_json(run)
    for lr in d["launches"]:
        lr.pop("events", None)            # the raw event streams the proof attributes cycles from
    return d


def _region_lines(rep, fig: dict | None, all_reports) -> list[str]:
    head = f"region {rep.function} (lines {rep.line}-{rep.end_line}, {len(rep.calls)} vector call(s))"
    if rep.status != "ported":
        at = f" at {rep.at}" if rep.at else ""
        return [f"{head}: stays MemBase{at}: {rep.reason}"]
    lines = [f"{head}: ported as {rep.vf} (rows {rep.rows}; {rep.stages} stage(s), {rep.loops} loop(s), "
             f"{rep.registers} registers at most); call at line {rep.call_line}"]
    lines += [f"  assumes {a}" for a in rep.assumptions]
    lines += [f"  note: {n}" for n in rep.notes]
    if fig:
        if fig.get("ub_freed"):
            others = [r.function for r in all_reports if r is not rep and set(r.removes) & set(rep.removes)]
            shared = f" (with {', '.join(others)})" if others else ""
            lines.append("  UB: frees " + ", ".join(f"{n} {b} B" for n, b in fig["ub_freed"].items()) + shared)
        sp = f" ({fig['speedup']}x)" if fig.get("speedup") else ""
        lines.append(f"  VFs on the slowest core: {fig['vf_count_before']} MemBase VF(s), {fig['vf_cycles_before']} "
                     f"cycles -> {fig.get('vf_count_after', 0)} VF(s), {fig.get('vf_cycles_after', 0)} cycles{sp}")
        if fig.get("bottleneck"):
            lines.append(f"  bottleneck of {rep.vf}: {fig['bottleneck']}")
    elif rep.removes:
        lines.append("  UB: removes the InitBuffer of " + ", ".join(rep.removes))
    return lines


def port_text(result: PortResult, output: str, proof: Proof | None, detail: bool = False) -> str:
    lines = [f"port {result.source} -> {output}"]
    for k, rep in enumerate(result.regions):
        fig = proof.regions[k] if proof is not None and proof.regions else None
        lines += _region_lines(rep, fig, result.regions)
    if not result.regions:
        lines.append("no compute region (MemBase vector calls on LocalTensors) found")
    if result.removed_buffers:
        lines.append("removed InitBuffer of: " + ", ".join(result.removed_buffers))
    if proof is None:
        lines.append("not proved (--no-prove)")
        return "\n".join(lines)
    if proof.port_error:
        lines += [proof.port_error, "FAIL"]
        return "\n".join(lines)
    t = proof.totals
    lines.append(f"UB: {t['ub_before']} -> {t['ub_after']} B (saving {t['ub_saving_pct']}%)")
    lines.append(f"kernel cycles (slowest core): {t['cycles_before']} -> {t['cycles_after']} (speed-up {t['speedup']}x)")
    lines += [f"diagnostic of the port: {w}" for w in proof.warnings]
    if detail:
        ra, rb = proof.runs
        lines += ["", compare_text(ra, rb, proof.compare, ("membase", "port"))]
    else:
        for k, pair in enumerate(proof.compare["launches"]):
            for o in pair["outputs"]:
                if o["mismatches"] is None:
                    lines.append(f"launch {k} output {o['arg']}: {o['note']}")
                else:
                    lines.append(f"launch {k} output {o['arg']} ({o['dtype']}): max |a-b| {o['max_abs_diff']:.6g}, "
                                 f"{o['mismatches']} beyond {o['tolerance']:g}")
        for name, run in zip(("membase", "port"), proof.runs):
            lines.append(f"{name}: program exit status {run.exit_status}, "
                         f"{'PASS' if run.exit_status == 0 and run.launches_passed else 'FAIL'}")
    lines.append("PASS" if proof.passed else "FAIL")
    return "\n".join(lines)


def port_page(result: PortResult, output: str, proof: Proof) -> str:
    gates = []
    if proof.runs is not None:
        for name, run in zip(("membase", "port"), proof.runs):
            gates.append((f"{name}: program", run.failure is None and run.exit_status == 0,
                          run.failure or f"exit status {run.exit_status} (its own check)"))
            for k, lr in enumerate(run.launches):
                errors = [d for d in lr["diagnostics"] if d["severity"] == "error"]
                gates.append((f"{name}: launch {k} diagnostics", not errors, f"{len(errors)} error(s)"))
    if proof.port_error:
        gates.append(("port builds and runs", False, proof.port_error))
    outputs = []
    if proof.compare:
        for k, pair in enumerate(proof.compare["launches"]):
            bad = [o["arg"] for o in pair["outputs"] if o["mismatches"] != 0]
            gates.append((f"launch {k} outputs membase vs port", not bad,
                          f"beyond tolerance: {', '.join(bad)}" if bad else f"{len(pair['outputs'])} within tolerance"))
            outputs += [[f"launch {k}", o["arg"], o["dtype"], o["elements"],
                         "-" if o["max_abs_diff"] is None else H.max_diff_text(o["max_abs_diff"]),
                         o.get("note") or o["mismatches"], o.get("tolerance", "-")] for o in pair["outputs"]]
    t = proof.totals
    notes = [f"UB {t['ub_before']} -> {t['ub_after']} B (saving {t['ub_saving_pct']}%), kernel cycles "
             f"{t['cycles_before']} -> {t['cycles_after']} (speed-up {t['speedup']}x)"] if t else []
    sections = [H.verdict_section(gates, outputs, [], ("launch", "output", "dtype", "elements", "max |a-b|",
                                                       "errors", "tolerance"), notes), _regions_section(result, proof)]
    if proof.runs is not None:
        sides = {}
        for name, run in zip(("membase", "port"), proof.runs):
            for k, lr in enumerate(run.launches):
                sides[f"{name}" + (f" #{k}" if len(run.launches) > 1 else "")] = lr
        sections += [H.ub_section({s: lr["ub"] for s, lr in sides.items()}),
                     H.timeline_section({s: lr.get("timeline") for s, lr in sides.items()}),
                     H.vf_section({s: lr["cycles"] for s, lr in sides.items()}),
                     H.diagnostics_section({s: lr["diagnostics"] for s, lr in sides.items()})]
    code = "".join(f"<h3>{H.esc(name)}</h3><pre>{H.esc(text)}</pre>" for name, text in result.vf_code.items())
    sections.append(H.Section("vfs", "Generated VFs", code or "<p>none</p>"))
    title = f"migrate-check port {os.path.basename(result.source)}"
    return H.page(title, f"{result.source} -> {output}; {'PASS' if proof.passed else 'FAIL'}", sections)


def _regions_section(result: PortResult, proof: Proof) -> H.Section:
    rows = []
    for k, rep in enumerate(result.regions):
        fig = proof.regions[k] if proof.regions else {}
        rows.append([rep.function, f"{rep.line}-{rep.end_line}", rep.status, rep.vf or "-",
                     rep.reason or "; ".join(rep.assumptions) or "-", fig.get("ub_freed_bytes", 0),
                     f"{fig.get('vf_cycles_before', '-')} -> {fig.get('vf_cycles_after', '-')}",
                     fig.get("bottleneck", "") or "-"])
    body = H.table(["function", "lines", "status", "VF", "reason / assumptions", "UB freed (B)",
                    "VF cycles (slowest core)", "bottleneck"], rows, left=5)
    return H.Section("regions", "Regions", body)
