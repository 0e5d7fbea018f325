"""Text and JSON of ``migrate-check run`` / ``compare``: per launch the verdict, UB plan, counters, cycles
and diagnostics; for a comparison the two sides paired launch by launch with UB saving, speed-up and the
element-wise difference of what each launch wrote to GM."""
from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np

from .cycles import compare_cycles_table
from .ub_report import UbReport, compare_table

#: default tolerance of the golden-free output comparison, by element type: bf16 as CompareBf16 (6e-2),
#: half and float as the samples' CompareFloat-style gates; integers must match exactly
DEFAULT_TOL = {"bfloat16": 6e-2, "float16": 1e-3, "float32": 1e-4, "float64": 1e-6}


def ub_from_json(d: dict) -> UbReport:
    return UbReport(d["buffers"], d["total_bytes"], d["budget_bytes"], d.get("max_ub_factor"))


def launch_json(lr: dict) -> dict:
    """A launch record without its raw output bytes and trace (what --json shows)."""
    out = {k: v for k, v in lr.items() if k not in ("outputs", "trace", "timeline", "kind", "index")}
    out["outputs"] = [{"arg": o["arg"], "dtype": o["dtype"], "bytes_written": int(np.unpackbits(
        np.frombuffer(o["written"], np.uint8))[:o["nbytes"]].sum())} for o in lr.get("outputs", [])]
    return out


def run_json(run) -> dict[str, Any]:
    return {"source": run.source, "exit_status": run.exit_status, "passed": run_passed(run),
            "stdout": run.stdout, "stderr": run.stderr, "failure": run.failure,
            "host_errors": [e["message"] for e in run.host_errors],
            "launches": [launch_json(lr) for lr in run.launches]}


def run_passed(run) -> bool:
    """The program's own status is 0, every launch passed, and the host side hit nothing the emulator
    could not do (a host-side API error is a failed gate, never silent)."""
    return run.failure is None and run.exit_status == 0 and run.launches_passed and not run.host_errors


def _counters_line(c: dict) -> str:
    rv = ", ".join(f"{k} {v}" for k, v in c.items() if k.startswith("RV_") and k != "RV_VLOOP")
    return f"VF count {c.get('vf_count', 0)}, loop entries {c.get('loop_entries', 0)}; {rv}"


def launch_text(k: int, lr: dict) -> str:
    cyc = lr["cycles"]
    lines = [f"launch {k}: {lr['kernel']} <<<{lr['block_dim']}>>> at {lr['where'][0]}:{lr['where'][1]}"
             f"  {'PASS' if lr['passed'] else 'FAIL'}"]
    ub = lr["ub"]
    plan = ", ".join(f"{b['name']} {b['num']}x{b['bytes_each']}" for b in ub["buffers"]) or "no buffers"
    lines.append(f"  UB {ub['total_bytes']} B of {ub['budget_bytes']} B ({ub['percent_used']}%): {plan}")
    lines.append("  counters: " + _counters_line(lr["counters"]))
    if cyc.get("kernel_cycles") is None:
        lines.append(f"  cycles: n/a ({cyc.get('reason', 'aborted')})")
    else:
        pipes = ", ".join(f"{p} {v}" for p, v in cyc["pipes"].items())
        lines.append(f"  cycles: {cyc['kernel_cycles']} (slowest core {cyc['slowest_core']}); busy {pipes}")
        if cyc.get("task_us") is not None:
            lines[-1] += f"; task {cyc['task_us']:.3f} us"
        lines.append(f"  bottleneck: {cyc['bottleneck']}")
    for d in lr["diagnostics"]:
        lines.append("  " + _diag_line(d))
    return "\n".join(lines)


def _diag_line(d: dict) -> str:
    again = f" [{d['occurrences']} times]" if d.get("occurrences", 1) > 1 else ""
    cores = d.get("cores")
    where = f"core {d['core']} " if d.get("core") is not None and not cores else ""
    if cores and len(cores) > 1:
        where = f"{len(cores)} cores "
    return f"{d['severity']} {d['code']} {where}at {d['location']}: {d['message']}{again}"


def run_text(run) -> str:
    parts = [launch_text(k, lr) for k, lr in enumerate(run.launches)]
    parts += [f"error {e.get('code', 'UNSUPPORTED_API')} on the host at {e['message']}" for e in run.host_errors]
    if run.failure:
        parts.append(f"program: {run.failure}")
    status = run.exit_status
    verdict = "PASS" if run_passed(run) else "FAIL"
    parts.append(f"program exit status {status if status is not None else 'n/a'}; {len(run.launches)} "
                 f"launch(es); {verdict}")
    return "\n".join(parts)


# -- compare -------------------------------------------------------------------------------------------
def _decode(o: dict) -> tuple[np.ndarray, np.ndarray]:
    dt = np.dtype(ml_dtypes.bfloat16) if o["dtype"] == "bfloat16" else np.dtype(o["dtype"])
    data = np.frombuffer(o["data"], np.uint8)
    mask = np.unpackbits(np.frombuffer(o["written"], np.uint8))[:o["nbytes"]].astype(bool)
    n = data.size // dt.itemsize
    vals = data[:n * dt.itemsize].view(dt)
    elem_written = mask[:n * dt.itemsize].reshape(n, dt.itemsize).any(axis=1)
    return vals, elem_written


def output_diff(a: dict | None, b: dict | None, atol: float | None) -> dict:
    o = a or b
    dtype = o["dtype"]
    if a is None or b is None:
        return {"arg": o["arg"], "dtype": dtype, "elements": 0, "max_abs_diff": None, "mismatches": None,
                "note": f"written only by {'b' if a is None else 'a'}"}
    va, wa = _decode(a)
    vb, wb = _decode(b)
    n = max(va.size, vb.size)
    xa, xb = np.zeros(n, np.float64), np.zeros(n, np.float64)
    xa[:va.size], xb[:vb.size] = va.astype(np.float64), vb.astype(np.float64)
    w = np.zeros(n, bool)
    w[:wa.size] |= wa
    w[:wb.size] |= wb
    diff = np.abs(xa - xb)[w]
    tol = atol if atol is not None else DEFAULT_TOL.get(dtype, 0.0)
    bad = int(np.count_nonzero(~(diff <= tol))) if diff.size else 0       # NaN differences count
    differing = int(np.count_nonzero(~(diff == 0))) if diff.size else 0
    return {"arg": o["arg"], "dtype": dtype, "elements": int(w.sum()),
            "max_abs_diff": float(np.nanmax(diff)) if diff.size else 0.0, "mismatches": bad, "tolerance": tol,
            "differing": differing}


def pair_json(la: dict, lb: dict, atol: float | None) -> dict:
    ua, ub = la["ub"]["total_bytes"], lb["ub"]["total_bytes"]
    ca, cb = la["cycles"].get("kernel_cycles"), lb["cycles"].get("kernel_cycles")
    outs_a = {o["arg"]: o for o in la.get("outputs", [])}
    outs_b = {o["arg"]: o for o in lb.get("outputs", [])}
    names = list(dict.fromkeys([*outs_a, *outs_b]))
    return {"kernel_a": la["kernel"], "kernel_b": lb["kernel"],
            "ub_a": ua, "ub_b": ub, "ub_saving_pct": round(100.0 * (ua - ub) / ua, 1) if ua else None,
            "cycles_a": ca, "cycles_b": cb, "speedup": round(ca / cb, 3) if ca and cb else None,
            "outputs": [output_diff(outs_a.get(n), outs_b.get(n), atol) for n in names]}


def compare_json(ra, rb, atol: float | None) -> dict:
    pairs = [pair_json(a, b, atol) for a, b in zip(ra.launches, rb.launches)]
    same_count = len(ra.launches) == len(rb.launches)
    outputs_ok = all(o["mismatches"] == 0 for p in pairs for o in p["outputs"])
    passed = run_passed(ra) and run_passed(rb) and same_count and outputs_ok
    return {"a": run_json(ra), "b": run_json(rb), "passed": passed, "launches": pairs,
            "launch_counts": [len(ra.launches), len(rb.launches)]}


def compare_text(ra, rb, result: dict, names: tuple[str, str]) -> str:
    lines = []
    for side, run in zip(names, (ra, rb)):
        lines.append(f"== {side}: {run.source}")
        lines.append(run_text(run))
    for k, (la, lb, p) in enumerate(zip(ra.launches, rb.launches, result["launches"])):
        lines.append("")
        lines.append(f"== launch {k}: {p['kernel_a']}  vs  {p['kernel_b']}")
        lines.append(compare_table({names[0]: ub_from_json(la["ub"]), names[1]: ub_from_json(lb["ub"])}))
        lines.append(compare_cycles_table({names[0]: la["cycles"], names[1]: lb["cycles"]}))
        for o in p["outputs"]:
            if o["mismatches"] is None:
                lines.append(f"output {o['arg']} ({o['dtype']}): {o['note']}")
            else:
                lines.append(f"output {o['arg']} ({o['dtype']}): {o['elements']} elements, max |a-b| "
                             f"{o['max_abs_diff']:.6g}, {o['mismatches']} beyond {o['tolerance']:g}")
    a, b = result["launch_counts"]
    if a != b:
        lines.append(f"launch counts differ: {a} vs {b}")
    lines.append("PASS" if result["passed"] else "FAIL")
    return "\n".join(lines)
