"""The advisor: from a sweep's rows and the cycle model's bounds, the single change that buys most.

``advise(base, rows)`` looks at the rows of ``base``'s series that ran and passed, whose parameters
differ from ``base``'s in exactly one value (a row that only repeats another run, e.g. a ubFactor capped
to blockFactor, is not a change), and picks the fewest kernel cycles (then the fewest UB bytes). The
line states what it costs in UB and saves in cycles, and which pipe holds most of the critical path
after the change (the cycle model's bound), e.g.::

    regbase: ubFactor 8 -> 19 uses 84 KB (+38 KB) and saves 12% cycles (10309 -> 9070); MTE2 becomes the bound (41% of the critical path)

Every figure comes from the rows: a test runs the suggested configuration and finds the same numbers.
"""
from __future__ import annotations

from typing import Any

from .rows import OK


def _kb(n: int | None) -> str:
    return "-" if n is None else f"{n / 1024:.0f} KB"


def _changed(base: dict, row: dict) -> list[str]:
    keys = set(base["params"]) | set(row["params"])
    return [k for k in keys if base["params"].get(k) != row["params"].get(k)]


def candidates(base: dict, rows: list[dict]) -> list[tuple[str, dict]]:
    """(the parameter changed, row) for every passing row one change away from ``base``."""
    out = []
    for r in rows:
        if r["series"] != base["series"] or r["status"] != OK or r.get("kernel_cycles") is None:
            continue
        if r.get("same_run_as"):
            continue
        changed = _changed(base, r)
        if len(changed) == 1:
            out.append((changed[0], r))
    return out


def advise(base: dict, rows: list[dict], labels: dict[str, str] | None = None) -> dict[str, Any]:
    """The advice for ``base`` (a row of the configuration as run) as data plus its ``line``."""
    labels = labels or {}
    cands = candidates(base, rows)
    out: dict[str, Any] = {"series": base["series"], "base": dict(base["params"]), "change": None}
    if not cands:
        out["line"] = f"{base['series']}: the sweep has no passing configuration one change away"
        return out
    param, best = min(cands, key=lambda c: (c[1]["kernel_cycles"], c[1]["ub_bytes"] or 0))
    name = labels.get(param, param)
    cur = base.get("kernel_cycles") if base["status"] == OK else None
    if cur is not None and best["kernel_cycles"] >= cur:
        values = sorted(r["params"][p] for p, r in cands if p == param)
        out["line"] = (f"{base['series']}: no single {name} change in {values[0]}..{values[-1]} saves cycles; "
                       f"{base['params'][param]} is the best ({cur} cycles, {_kb(base.get('ub_bytes'))}); "
                       f"{_bound(base, None)}")
        return out
    out["change"] = {"param": param, "from": base["params"].get(param), "to": best["params"][param],
                     "kernel_cycles_from": cur, "kernel_cycles_to": best["kernel_cycles"],
                     "ub_bytes_from": base.get("ub_bytes"), "ub_bytes_to": best["ub_bytes"],
                     "saving_pct": round(100.0 * (cur - best["kernel_cycles"]) / cur, 1) if cur else None,
                     "bound_from": base.get("bound"), "bound_to": best.get("bound"),
                     "bound_share_to": best.get("bound_share")}
    out["line"] = _line(base, best, name, out["change"])
    return out


def _line(base: dict, best: dict, name: str, c: dict) -> str:
    head = f"{base['series']}: {name} {c['from']} -> {c['to']}"
    if c["kernel_cycles_from"] is None:
        return (f"{head}: the current configuration is {base['status']} ({base.get('reason')}); {c['to']} fits in "
                f"{_kb(c['ub_bytes_to'])} and runs in {c['kernel_cycles_to']} cycles; {_bound(best, None)}")
    delta = (c["ub_bytes_to"] or 0) - (c["ub_bytes_from"] or 0)
    return (f"{head} uses {_kb(c['ub_bytes_to'])} ({'+' if delta >= 0 else '-'}{abs(delta) / 1024:.0f} KB) and "
            f"saves {_pct(c['saving_pct'])}% cycles ({c['kernel_cycles_from']} -> {c['kernel_cycles_to']}); "
            f"{_bound(best, base)}")


def _pct(value: float) -> str:
    return f"{value:.0f}" if abs(value) >= 10 else f"{value:.1f}"


def _bound(row: dict, before: dict | None) -> str:
    pipe = row.get("bound")
    if pipe is None:
        return "no bound known"
    share = f" ({row['bound_share']:.0f}% of the critical path)" if row.get("bound_share") is not None else ""
    if before is None:
        return f"the bound is {pipe}{share}"
    verb = "stays" if before.get("bound") == pipe else "becomes"
    return f"{pipe} {verb} the bound{share}"
