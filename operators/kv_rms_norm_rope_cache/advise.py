"""``migrate-check kv_rms_norm_rope_cache --advise``: what spending the UB would buy.

For each backend run, every ubFactor from 1 to the largest that the tiling and the UB budget allow is
run as a sweep point (the same host side, gate and cycle model as the report; local process pool,
``--jobs``), and :func:`toolkit.sweep.advisor.advise` names the single ubFactor change with the fewest
kernel cycles, the UB it uses and the pipe that then bounds the critical path.
"""
from __future__ import annotations

from toolkit.sweep.advisor import advise
from toolkit.sweep.engine import run_with_progress

from . import host
from .sweep import LABELS, canonical, run_point, run_row


def kv_advice(params: host.KvParams, runs: dict[str, host.BackendRun], cycles: dict[str, dict], *,
              data_dir: str | None = None, force: bool = False, jobs: int | None = None) -> dict[str, dict]:
    """backend -> the advisor's result (``line``, ``change``), from a ubFactor sweep of that backend;
    ``cycles``: each run's cycle summary (the report's, not modelled again)."""
    base_params = dict(params.__dict__)
    points, bases = [], {}
    for backend, run in runs.items():
        bases[backend] = run_row(backend, base_params, run, cycles[backend])
        top = min(run.tiling.blockFactor, run.ub.max_ub_factor or 0)
        points += [{"series": backend, "params": {**base_params, "ub_factor": v}, "force": force,
                    "data_dir": data_dir} for v in range(1, top + 1) if v != run.tiling.ubFactor]
    rows = run_with_progress(run_point, points, "advisor sweep", canonical=canonical, jobs=jobs)
    out = {}
    for backend, base in bases.items():
        result = advise(base, rows, LABELS)
        values = [r["params"]["ub_factor"] for r in rows if r["series"] == backend]
        result["swept"] = {"ub_factor": sorted(values + [params.ub_factor])}
        out[backend] = result
    return out


def advice_text(advice: dict[str, dict]) -> str:
    lines = ["Advisor (ubFactor sweep, cycle model bounds)"]
    for result in advice.values():
        swept = result["swept"]["ub_factor"]
        lines.append(f"  {result['line']}  [swept ubFactor {swept[0]}..{swept[-1]}]")
    return "\n".join(lines)
