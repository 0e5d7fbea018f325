"""``migrate-check simd_vf_story[/family[/variant]] --html FILE``: the catalogue as one offline page.

Verdict (host checks, counters against the vendor's figures), per family our PUSHQ cycles beside the
vendor simulator's, the UB plans and core-0 pipe timelines of each family's variants side by side, the
VF table and the diagnostics."""
from __future__ import annotations

from toolkit.calibration.vf_rows import PUSHQ
from toolkit.machine import load_machine
from toolkit.views import charts
from toolkit.views import html_report as H
from toolkit.views.timeline import core_timeline
from toolkit.views.ub_report import ub_report


def _vendor_pushq(k: dict) -> tuple[float | None, float | None]:
    """(ours, vendor) of the PUSHQ figure the vendor measured for this kernel (None when not measured)."""
    cmp = k.get("extra", {}).get("cycles", {}).get("vs_vendor", {})
    for metric in PUSHQ:
        if metric in cmp:
            return cmp[metric]["ours"], cmp[metric]["vendor"]
    return None, None


def _verdict(kernels: list[dict]) -> H.Section:
    gates = [(k["key"], k["passed"], f"max error {k['max_error']:.3g} ({k['tolerance']})") for k in kernels]
    matched = sum(c["ok"] for k in kernels for c in k["calibration"])
    total = sum(len(k["calibration"]) for k in kernels)
    gates.append(("vendor counter figures (VF count, loop entries, RV_* counts)", matched == total,
                  f"{matched}/{total} matched"))
    return H.verdict_section(gates, [], [])


def _cycles(groups: dict[str, list[dict]]) -> H.Section:
    body = []
    for group, kernels in groups.items():
        rows = [(k["variant"], *_vendor_pushq(k)) for k in kernels]
        body.append(f"<h3>{H.esc(group)}</h3>")
        body.append(H.chart(charts.to_svg(charts.cycles_vs_vendor(f"{group}: PUSHQ cycles", rows))))
        body.append(H.table(["variant", "ours", "vendor", "error"],
                            [[v, "-" if o is None else o, "-" if m is None else m,
                              f"{100.0 * (o - m) / m:+.1f}%" if o is not None and m else "-"] for v, o, m in rows]))
    return H.Section("story-cycles", "Cycles: ours beside the vendor's", "\n".join(body))


def _per_group_charts(report, groups: dict[str, list[dict]]) -> tuple[H.Section, H.Section]:
    budget = load_machine().ub_budget_bytes
    by_key = {kr.variant.key: kr for kr in report.kernels}
    ub_body, tl_body = [], []
    for group, kernels in groups.items():
        runs = {k["variant"]: by_key[k["key"]] for k in kernels}
        plans = {v: ub_report(kr.result.events, budget).to_json() for v, kr in runs.items()}
        lines = {v: core_timeline(report.timing_model.core(0, kr.result.events)) for v, kr in runs.items()}
        ub_body += [f"<h3>{H.esc(group)}</h3>", H.chart(charts.to_svg(charts.ub_map(plans)))]
        tl_body += [f"<h3>{H.esc(group)}</h3>", H.chart(charts.to_svg(charts.timeline(lines)))]
    return (H.Section("ub-map", "UB map", "\n".join(ub_body)),
            H.Section("timeline", "Pipe timeline (core 0)", "\n".join(tl_body)))


def _vf_table(kernels: list[dict]) -> H.Section:
    rows = []
    for k in kernels:
        per_vf = k["per_vf"]
        rows.append([k["key"], k.get("main_vf") or "-", k["vf_count"], per_vf.get("cycles", "-"),
                     f"{per_vf['ipc']:.2f}" if isinstance(per_vf.get("ipc"), (int, float)) else "-",
                     H.highest_bound(per_vf.get("bounds") or {}), per_vf.get("bottleneck", "-")])
    return H.Section("vf-table", "VF table", H.table(
        ["kernel", "VF kind", "count", "cycles (one VF)", "IPC", "highest bound", "bottleneck"], rows, left=2))


def story_page(report) -> str:
    doc = report.to_json()
    kernels = doc["kernels"]
    groups: dict[str, list[dict]] = {}
    for k in kernels:
        groups.setdefault(k["group"], []).append(k)
    diags = {kr.variant.key: [d.to_json() for d in kr.result.diagnostics] for kr in report.kernels}
    ub, timeline = _per_group_charts(report, groups)
    sections = [_verdict(kernels), _cycles(groups), ub, timeline, _vf_table(kernels), H.diagnostics_section(diags)]
    return H.page(f"migrate-check {doc['selector']}", f"{len(kernels)} kernels in {len(groups)} group(s)", sections)
