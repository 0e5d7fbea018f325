"""The precision envelope (``--precision-envelope``): rerun a kernel on a machine whose Div / Sqrt / Exp / Ln /
Rsqrt / Reciprocal / ExpSub results are off by up to the machine file's bound (``[envelope]``, ulps per
opcode), and report per output the worst the gate saw, so a port that passes only because the emulator
rounds those results correctly is caught before hardware.

The reruns: every result moved by the whole bound toward +inf ("all up"), toward -inf ("all down"), then
``seeds`` seeded per-element draws in -k..+k ("seed 1" ...), each a deterministic machine
(:class:`toolkit.ascendc.numerics.Perturbation`). Per output and over all reruns: the most elements that
differ from the reference (``mismatches``), the most beyond the gate's tolerance (``errors``), the largest
difference (``max_diff``, with the rerun that gave it) and whether the gate held every time (``passed``).
"""
from __future__ import annotations

from typing import Any, Callable, Iterable

import numpy as np

from toolkit.ascendc.numerics import PERTURBABLE, Perturbation
from toolkit.machine import Machine

#: what the reports call the perturbed opcodes
OP_NAMES = {"RV_VDIV": "Div", "RV_VSQRT": "Sqrt", "RV_VEXP": "Exp", "RV_VLN": "Ln", "RV_VRSQRT": "Rsqrt",
            "RV_VREC": "Reciprocal", "RV_VEXPSUB": "ExpSub"}


def bounds(machine: Machine) -> dict[str, int]:
    """opcode -> its ulp bound (the machine file's ``[envelope]``)."""
    env = machine.params["envelope"]
    return {op: int(env[op]) for op in PERTURBABLE}


def reruns(machine: Machine, seeds: int | None = None,
           only: dict[str, int] | None = None) -> list[tuple[str, Perturbation]]:
    """The perturbed machines of one envelope, labelled: all up, all down, then ``seeds`` seeded draws
    (default: the machine file's ``[envelope] seeds``). ``only``: these bounds instead of the file's."""
    env = machine.params["envelope"]
    ulps = tuple(sorted((only if only is not None else bounds(machine)).items()))
    keep = env["exact_results"] == "kept"
    n = int(env["seeds"]) if seeds is None else seeds
    out = [("all up", Perturbation(ulps, "up", 0, keep)), ("all down", Perturbation(ulps, "down", 0, keep))]
    return out + [(f"seed {s}", Perturbation(ulps, "hash", s, keep)) for s in range(1, n + 1)]


def bf16_stats(actual: np.ndarray, golden: np.ndarray, check: Any) -> dict[str, Any]:
    """One output of one rerun against its golden: elements that differ, the gate's ``check`` (errors,
    max_diff, passed: a :class:`toolkit.harness.golden.CompareResult`)."""
    a = np.asarray(actual).view(np.uint16).ravel()
    g = np.asarray(golden).view(np.uint16).ravel()
    return {"elements": int(g.size), "mismatches": int(np.count_nonzero(a != g)), "errors": int(check.errors),
            "max_diff": float(check.max_diff), "passed": bool(check.passed)}


def worst(per_rerun: Iterable[tuple[str, dict[str, dict[str, Any]]]]) -> dict[str, dict[str, Any]]:
    """name -> the worst of its stats over the reruns (``per_rerun``: label, name -> stats); ``worst_rerun``
    names the rerun with the most gate errors, then the most differing elements, then the largest diff."""
    out: dict[str, dict[str, Any]] = {}
    ranks: dict[str, tuple] = {}
    for label, stats in per_rerun:
        for name, s in stats.items():
            w = out.setdefault(name, {"elements": s.get("elements"), "mismatches": None, "errors": None,
                                      "max_diff": 0.0, "worst_rerun": None, "passed": True,
                                      **({"tolerance": s["tolerance"]} if "tolerance" in s else {})})
            if _rank(s) > ranks.get(name, (0, 0, 0.0)):
                ranks[name], w["worst_rerun"] = _rank(s), label
            for key in ("mismatches", "errors"):
                if s.get(key) is not None:
                    w[key] = max(w[key] or 0, int(s[key]))
            diff = s.get("max_diff")
            if diff is not None and not diff <= w["max_diff"]:          # NaN / inf count as worst
                w["max_diff"] = float(diff)
            w["passed"] = w["passed"] and bool(s.get("passed", True))
    return out


def _rank(s: dict[str, Any]) -> tuple[int, int, float]:
    """How bad one rerun's stats are: gate errors first, then differing elements, then the largest diff."""
    diff = s.get("max_diff")
    diff = np.inf if diff is not None and np.isnan(diff) else (diff or 0.0)
    return (int(s.get("errors") or 0), int(s.get("mismatches") or 0), float(diff))


def envelope_json(machine: Machine, labels: list[str], groups: dict[str, dict[str, Any]],
                  only: dict[str, int] | None = None) -> dict[str, Any]:
    """``{bounds, reruns, passed, groups}``: ``groups`` maps a backend / launch to ``{outputs: {name: worst},
    ...}``; it passed when every output's gate held under every rerun."""
    passed = all(g.get("passed", True) and all(o["passed"] for o in g["outputs"].values())
                 for g in groups.values())
    return {"bounds": only if only is not None else bounds(machine), "reruns": labels, "passed": passed,
            "groups": groups}


def title(env: dict[str, Any]) -> str:
    ops = ", ".join(f"{OP_NAMES.get(op, op)} {k}" for op, k in env["bounds"].items() if k)
    labels = env["reruns"]
    return (f"Precision envelope (results within ulps: {ops or 'none'}; {len(labels)} reruns: "
            f"{', '.join(labels)})")


def _diff(v: float) -> str:
    return "inf" if not np.isfinite(v) else f"{v:g}"


def output_line(name: str, w: dict[str, Any], reference: str) -> str:
    """``NAME: worst M of N differ from REFERENCE, E beyond TOL, max diff D (worst: RERUN)``."""
    parts = []
    if w.get("mismatches") is not None:
        of = f" of {w['elements']}" if w.get("elements") is not None else ""
        parts.append(f"worst {w['mismatches']}{of} differ from {reference}")
    if w.get("errors") is not None:
        tol = f"beyond {w['tolerance']:g}" if w.get("tolerance") is not None else "errors"
        parts.append(f"{w['errors']} {tol}")
    parts.append(f"max diff {_diff(w['max_diff'])}")
    where = f" (worst: {w['worst_rerun']})" if w.get("worst_rerun") else ""
    return f"  {name}: {', '.join(parts)}{where}"


def envelope_text(env: dict[str, Any], reference: str,
                  group_head: Callable[[str, dict[str, Any]], list[str]] | None = None) -> str:
    """The text block: the title, per group its head lines and one line per output, the verdict."""
    lines = [title(env)]
    for gname, g in env["groups"].items():
        lines += group_head(gname, g) if group_head else [gname]
        lines += [output_line(n, w, g.get("reference", reference)) for n, w in g["outputs"].items()]
    held = "held under every rerun" if env["passed"] else "FAILED under some rerun"
    lines.append(f"envelope {'PASS' if env['passed'] else 'FAIL'}: the gate {held}")
    return "\n".join(lines)
