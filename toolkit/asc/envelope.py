"""``--precision-envelope`` of ``migrate-check run`` and ``compare``: the program(s) rerun on the perturbed
machines of :mod:`toolkit.harness.envelope` (the build is cached: only the runs repeat).

``run``: the gate is the program's own. Per rerun its verdict (exit status, launches, PASS) and the
compare lines it prints in the samples' format (``NAME precision P%, errors E, max diff M at I``) give
the ``program`` group; each launch's outputs are measured against the unperturbed run (elements that
moved, the largest move). ``compare``: both programs run on the same perturbed machine, each launch pair's
outputs against each other with the comparison's tolerance.
"""
from __future__ import annotations

import re
from typing import Any, Callable

from toolkit.ascendc.numerics import Perturbation
from toolkit.harness.envelope import envelope_json, envelope_text, reruns, worst
from toolkit.machine import Machine
from toolkit.views.run_report import compare_json, output_diff, run_passed

from .runner import ProgramRun

#: a compare line of the samples' CompareBf16 / CompareFloat
PRINTED = re.compile(r"^(\S+) precision (\S+)%, errors (\d+), max diff (\S+) at (\d+)\s*$", re.M)


def printed_checks(stdout: str) -> dict[str, dict[str, Any]]:
    """name -> ``{errors, max_diff, passed}`` of the program's printed compare lines (the last one of a name)."""
    out = {}
    for m in PRINTED.finditer(stdout):
        try:
            diff = float(m.group(4))
        except ValueError:
            diff = float("inf")
        out[m.group(1)] = {"errors": int(m.group(3)), "max_diff": diff, "passed": int(m.group(3)) == 0,
                           "mismatches": None}
    return out


def _verdict(run: ProgramRun) -> str:
    if run.failure is not None:
        return run.failure.split(":", 1)[0]
    return "PASS" if run_passed(run) else f"FAIL (exit status {run.exit_status})"


def _moved(base: ProgramRun, run: ProgramRun) -> dict[str, dict[str, dict[str, Any]]]:
    """``launch K: KERNEL`` -> arg -> how far the rerun's output moved from the unperturbed run's."""
    groups: dict[str, dict[str, dict[str, Any]]] = {}
    for k, (lb, lr) in enumerate(zip(base.launches, run.launches)):
        outs = {o["arg"]: o for o in lr.get("outputs", [])}
        stats = {}
        for o in lb.get("outputs", []):
            d = output_diff(o, outs.get(o["arg"]), None)
            stats[f"{o['arg']} ({o['dtype']})"] = {"elements": d["elements"], "mismatches": d.get("differing"),
                                                   "errors": None, "max_diff": d["max_abs_diff"], "passed": True}
        groups[f"launch {k}: {lb['kernel']}"] = stats
    return groups


def run_envelope(base: ProgramRun, rerun: Callable[[Perturbation], ProgramRun], machine: Machine,
                 seeds: int | None = None) -> dict[str, Any]:
    """The envelope of one program (``rerun(p)``: the program run on the machine ``p``)."""
    machines = reruns(machine, seeds)
    printed, verdicts, moved = [], {}, {}
    for label, p in machines:
        run = rerun(p)
        verdicts[label] = _verdict(run)
        printed.append((label, printed_checks(run.stdout)))
        for g, stats in _moved(base, run).items():
            moved.setdefault(g, []).append((label, stats))
    groups = {"program": {"label": "the program's own gate", "verdicts": verdicts, "reference": "its golden",
                          "passed": all(v == "PASS" for v in verdicts.values()), "outputs": worst(printed)}}
    groups.update({g: {"label": g, "reference": "the unperturbed run", "outputs": worst(per)}
                   for g, per in moved.items()})
    return envelope_json(machine, [label for label, _ in machines], groups)


def compare_envelope(rerun: Callable[[Perturbation], tuple[ProgramRun, ProgramRun]], atol: float | None,
                     machine: Machine, seeds: int | None = None) -> dict[str, Any]:
    """The envelope of a comparison (``rerun(p)``: both programs run on the machine ``p``)."""
    machines = reruns(machine, seeds)
    verdicts, per_pair = {}, {}
    for label, p in machines:
        ra, rb = rerun(p)
        failed = next((r.failure for r in (ra, rb) if r.failure is not None), None)
        result = compare_json(ra, rb, atol)
        verdicts[label] = failed.split(":", 1)[0] if failed else ("PASS" if result["passed"] else "FAIL")
        for k, pair in enumerate(result["launches"]):
            stats = {f"{o['arg']} ({o['dtype']})": {
                "elements": o["elements"], "mismatches": o.get("differing"), "errors": o["mismatches"],
                "max_diff": o["max_abs_diff"], "passed": o["mismatches"] == 0, "tolerance": o.get("tolerance")}
                for o in pair["outputs"] if o["mismatches"] is not None}
            per_pair.setdefault(f"launch {k}: {pair['kernel_a']} vs {pair['kernel_b']}", []).append((label, stats))
    groups = {g: {"label": g, "reference": "the other program", "outputs": worst(per)} for g, per in per_pair.items()}
    groups["verdicts"] = {"label": "the comparison's verdict", "verdicts": verdicts, "outputs": {},
                          "passed": all(v == "PASS" for v in verdicts.values())}
    return envelope_json(machine, [label for label, _ in machines], groups)


def _head(name: str, g: dict[str, Any]) -> list[str]:
    lines = [g["label"]]
    if "verdicts" in g:
        v = g["verdicts"]
        ok = sum(x == "PASS" for x in v.values())
        bad = ", ".join(f"{label}: {x}" for label, x in v.items() if x != "PASS")
        lines[0] += f": PASS under {ok} of {len(v)} reruns" + (f" ({bad})" if bad else "")
    return lines


def asc_envelope_text(env: dict[str, Any], reference: str) -> str:
    return envelope_text(env, reference, _head)
