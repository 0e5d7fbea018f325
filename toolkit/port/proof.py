"""The proof of a port: build and run the original and the port (``toolkit.asc``: the programs' own host
checks decide PASS), compare what every launch wrote to GM within the dtype tolerance (``compare``'s
gate, :func:`toolkit.views.run_report.compare_json`), and attribute UB bytes and VF cycles to regions.

Per region, on each program's slowest core: the VFs issued from the region's lines (the MemBase calls'
library VFs) against the VFs issued from the port's call site, their cycles from the cycle model; the
UB of the temporaries the region's port removed; the new VF's bottleneck.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from toolkit.asc.build import BuildError, build, source_dir_of
from toolkit.asc.runner import ProgramRun, run_program, side_by_side
from toolkit.views.run_report import compare_json

from .port import PortResult


class ProofError(Exception):
    """The original program cannot be built or run (bad input)."""


@dataclass
class Proof:
    passed: bool
    compare: dict | None
    runs: tuple[ProgramRun, ProgramRun] | None
    port_error: str = ""                     #: the port did not build or crashed
    regions: list[dict] = field(default_factory=list)
    totals: dict = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


def prove(result: PortResult, original: Path, ported: Path, include_dirs: list[str], defines: list[str],
          timeout: float, atol: float | None, timeline: bool = False, args: list[str] = ()) -> Proof:
    """Build and run the original and the port, side by side where two CPUs allow (a failure of the
    original stops the port's run: exit 2, as before the port ran); compare and attribute."""
    original = original.resolve()
    sdir = source_dir_of(original)

    def run_original() -> ProgramRun:
        try:
            built = build(original, include_dirs, defines)
        except BuildError as err:
            raise ProofError(f"{original}: {err}") from None
        run = run_program(built, list(args), timeout=timeout, keep_events=True, timeline=timeline)
        if run.failure is not None:
            raise ProofError(f"{original}: {run.failure}")
        return run

    def run_port() -> ProgramRun | str:
        incs = [*include_dirs, str(original.parent), str(sdir / "include")]
        defs = [*defines] if ported.parent.resolve() == original.parent else [*defines, f'SOURCE_DIR="{sdir}"']
        try:
            built = build(ported, incs, defs)
        except BuildError as err:
            return f"the port does not build: {err}"
        return run_program(built, list(args), timeout=timeout, keep_events=True, timeline=timeline)

    run_a, run_b = side_by_side([run_original, run_port], [original.name, ported.name])
    if isinstance(run_b, str):
        return Proof(False, None, None, run_b)
    if run_b.failure is not None:
        return Proof(False, None, (run_a, run_b), f"the port failed to run: {run_b.failure}")
    cmp = compare_json(run_a, run_b, atol)
    proof = Proof(cmp["passed"], cmp, (run_a, run_b))
    proof.regions = [_region_figures(rep, run_a, run_b, original, ported) for rep in result.regions]
    proof.totals = _totals(cmp)
    proof.warnings = _port_warnings(run_b, result)
    return proof


def _slowest_events(run: ProgramRun) -> list[tuple[dict, list]]:
    out = []
    for lr in run.launches:
        core = lr["cycles"].get("slowest_core") or 0
        events = lr.get("events") or []
        out.append((lr, events[core] if core < len(events) else []))
    return out


def _vf_figures(run: ProgramRun, path: Path, lines: set[int]) -> tuple[int, int]:
    from toolkit.machine import load_machine
    from toolkit.record.events import VfCall
    from toolkit.timing.model import TimingModel
    model = TimingModel(load_machine())
    count = cycles = 0
    want = os.path.realpath(path)
    for _, events in _slowest_events(run):
        for ev in events:
            if isinstance(ev, VfCall) and ev.where[1] in lines and os.path.realpath(ev.where[0]) == want:
                count += 1
                cycles += int(model.vf(ev).cycles)
    return count, cycles


def _region_figures(rep, run_a: ProgramRun, run_b: ProgramRun, original: Path, ported: Path) -> dict:
    before = _vf_figures(run_a, original, set(range(rep.line, rep.end_line + 1)))
    out = {"function": rep.function, "lines": [rep.line, rep.end_line], "status": rep.status,
           "vf_count_before": before[0], "vf_cycles_before": before[1]}
    if rep.status == "ported":
        after = _vf_figures(run_b, ported, {rep.call_line})
        out.update(vf_count_after=after[0], vf_cycles_after=after[1],
                   speedup=round(before[1] / after[1], 2) if after[1] else None,
                   bottleneck=_bottleneck(run_b, rep.vf))
    ub_a = {b["name"]: b for lr in run_a.launches for b in lr["ub"]["buffers"]}
    freed = {n: ub_a[n.strip("_")]["num"] * ub_a[n.strip("_")]["bytes_each"] for n in rep.removes
             if n.strip("_") in ub_a}
    out["ub_freed"] = freed
    out["ub_freed_bytes"] = sum(freed.values())
    return out


def _bottleneck(run: ProgramRun, vf: str) -> str:
    for lr in run.launches:
        kind = lr["cycles"].get("vf_kinds", {}).get(vf)
        if kind:
            return kind["bottleneck"]
    return ""


def _totals(cmp: dict) -> dict:
    pairs = cmp["launches"]
    ub_a = sum(p["ub_a"] for p in pairs)
    ub_b = sum(p["ub_b"] for p in pairs)
    cyc_a = sum(p["cycles_a"] or 0 for p in pairs)
    cyc_b = sum(p["cycles_b"] or 0 for p in pairs)
    return {"ub_before": ub_a, "ub_after": ub_b,
            "ub_saving_pct": round(100.0 * (ub_a - ub_b) / ub_a, 1) if ub_a else None,
            "cycles_before": cyc_a, "cycles_after": cyc_b,
            "speedup": round(cyc_a / cyc_b, 3) if cyc_a and cyc_b else None}


def _port_warnings(run: ProgramRun, result: PortResult) -> list[str]:
    """Diagnostics of the ported program at the lines the port wrote (its VFs and call sites)."""
    out = []
    for lr in run.launches:
        for d in lr["diagnostics"]:
            if d["code"] in ("VF_SOFTWARE_LOOP", "REGISTER_SPILL", "REGISTER_LIMIT", "UB_MISALIGNED"):
                out.append(f"{d['severity']} {d['code']} at {d['location']}: {d['message']}")
    return out
