"""``migrate-check compare A.asc B.asc --advise NAME=v1,v2,...``: the advisor of a comparison.

Both programs are swept over the values of one macro (the other ``-D`` as given; local process pool,
``--jobs``); each side's advice compares its own run (the configuration as compared) with the sweep
rows one change away: the value with the fewest kernel cycles, the UB it uses and the pipe that then
bounds the critical path (:func:`toolkit.sweep.advisor.advise`).
"""
from __future__ import annotations

from .advisor import advise
from .asc_target import make_points, program_row, run_point, series_labels
from .engine import run_with_progress
from .values import BadValues, parse_values

DEFAULT = "(default)"


def parse_advise(text: str) -> tuple[str, list]:
    """``NAME=v1,v2,...`` -> (NAME, values); :class:`BadValues` otherwise."""
    name, eq, values = text.partition("=")
    if not eq or not name.strip() or not values.strip():
        raise BadValues(f"--advise {text!r}: expected NAME=v1,v2,... (a macro and the values to try)")
    return name.strip(), parse_values(values, None, f"--advise {name}")


def current_value(name: str, defines: list[str]):
    """The value ``-D`` gives the macro (the last one wins), else ``(default)``."""
    value = DEFAULT
    for d in defines:
        n, eq, v = d.partition("=")
        if n == name:
            value = v if eq else "1"
    try:
        return int(value)
    except ValueError:
        return value


def compare_advice(sources: list[str], runs: list, axis: tuple[str, list], include_dirs: list[str],
                   defines: list[str], timeout: float, args: list[str], jobs: int | None = None,
                   vf_fusion: bool = False) -> dict[str, dict]:
    """side label -> the advisor's result (``line``, ``change``, ``swept``); ``axis``: (macro, values)."""
    name, values = axis
    cur = current_value(name, defines)
    fixed = [d for d in defines if d.partition("=")[0] != name]
    combos = [{name: v} for v in values if v != cur]
    points = make_points(sources, combos, fixed, include_dirs, timeout, args, vf_fusion)
    rows = run_with_progress(run_point, points, "advisor sweep", jobs=jobs)
    out = {}
    for label, run in zip(series_labels(sources), runs):
        result = advise(program_row(label, {name: cur}, run), rows)
        result["swept"] = {name: values}
        out[label] = result
    return out


def advice_text(advice: dict[str, dict]) -> str:
    lines = ["Advisor (sweep of one macro, cycle model bounds)"]
    lines += [f"  {a['line']}" for a in advice.values()]
    return "\n".join(lines)
