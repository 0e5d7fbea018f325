"""Fitting and judging the VF cycle model against the calibration rows, kept apart.

* :data:`FITTED` declares every machine parameter a fit may move (the ones whose source note in the
  machine file says "fit"), with the candidate values the search tries.
* :func:`fit` is a coordinate search on a declared subset of rows (the groups not held out): the
  objective is the MAPE of the whole-VF cycle rows of that subset plus a penalty per violated
  within-group ordering. Nothing else (no kernel, no row) is a parameter.
* :func:`leave_one_family_out` judges: for each family (calibration group) it fits without the
  family's rows, starting from the machine file, and predicts them; ``loo_mape`` is the MAPE of those
  held-out predictions over all VF rows.

Predictions are cached per parameter vector, so the folds share the evaluations they have in common.
"""
from __future__ import annotations

import re
import sys
from dataclasses import dataclass

from toolkit.machine import Machine, with_instr, with_overrides

from . import vf_rows
from .search import coordinate_search

ORDER_PENALTY = 5.0     #: objective points per violated within-group ordering


@dataclass(frozen=True)
class Param:
    kind: str                      #: "timing" ([timing] value) or "instr" (an opcode field)
    key: str                       #: "window", "RV_VCMAX.ii", ...
    candidates: tuple

    def get(self, machine: Machine):
        if self.kind == "timing":
            return machine.params["timing"][self.key]
        op, field = self.key.split(".")
        return getattr(machine.instr(op), field)

    def set(self, machine: Machine, value) -> Machine:
        if self.kind == "timing":
            return with_overrides(machine, "timing", **{self.key: value})
        op, field = self.key.split(".")
        return with_instr(machine, op, **{field: value})


#: the fitted parameters of the VF model (source note "fit" in the machine file) and their candidates
FITTED = (
    Param("timing", "vf_start_cycles", (8, 10, 12, 14, 15, 16, 17, 18, 20, 23)),
    Param("timing", "vf_drain_cycles", (2, 4, 5, 6, 7, 8, 10, 12)),
    Param("timing", "vf_log_extra_cycles", (0, 4, 8, 10, 12, 13, 14, 16, 18, 20)),
    Param("timing", "store_bank_cycles", (1, 2, 3)),
    Param("timing", "loop_entry_cycles", (3, 4, 5, 6, 7, 8)),
    Param("timing", "loop_refetch_cycles", (0, 1, 2, 3, 4, 5, 6, 7)),
    Param("timing", "dispatch_to_issue", (2, 3, 4)),
    Param("timing", "store_extra_latency", (0, 1, 2, 3)),
    Param("timing", "scalar_ub_read_cycles", (16, 24, 32, 40, 48)),
    Param("instr", "RV_VCMAX.ii", (1, 2, 3, 4)),
    Param("instr", "RV_VSEL.ii", (1, 2)),
)


#: parameters fitted to other rows of the table (MTE2/MTE3 sum_cycles), pinned by the snapshot too
PINNED = (
    Param("timing", "mte2_latency", ()), Param("timing", "mte2_bytes_per_cycle", ()),
    Param("timing", "mte3_latency", ()), Param("timing", "mte3_bytes_per_cycle", ()),
)


class Evaluator:
    """Predictions of every calibration row for a parameter vector (cached)."""

    def __init__(self, events: dict, base: Machine, params: tuple[Param, ...] = FITTED):
        self.events, self.base, self.params = events, base, params
        self._cache: dict[tuple, list] = {}

    def values(self, machine: Machine) -> tuple:
        return tuple(p.get(machine) for p in self.params)

    def machine(self, values: tuple) -> Machine:
        m = self.base
        for p, v in zip(self.params, values):
            if p.get(m) != v:
                m = p.set(m, v)
        return m

    def predictions(self, values: tuple) -> list:
        got = self._cache.get(values)
        if got is None:
            got = self._cache[values] = vf_rows.predict_rows(self.events, self.machine(values))
        return got


def vf_preds(preds: list, exclude: frozenset = frozenset()) -> list:
    """The whole-VF cycle rows (PUSHQ slices, VF start-to-end), without the excluded groups."""
    return [p for p in preds if p.kind == "pushq" and p.ours is not None and p.row.kernel not in exclude]


def objective(preds: list, exclude: frozenset = frozenset()) -> float:
    rows = vf_preds(preds, exclude)
    misses = sum(not o.ok for o in vf_rows.orderings(rows))
    return vf_rows.mape(rows, "pushq") + ORDER_PENALTY * misses


def _neighbours(p: Param, value) -> tuple:
    """The candidates next to ``value`` (below and above it in the candidate list)."""
    c = sorted(p.candidates)
    lower = [v for v in c if v < value][-1:]
    upper = [v for v in c if v > value][:1]
    return tuple(lower + upper)


def fit(ev: Evaluator, start: tuple, exclude: frozenset = frozenset(), rounds: int = 2,
        log: bool = False, local: bool = False) -> tuple[tuple, float]:
    """Coordinate search from ``start`` on the rows outside ``exclude`` (``local``: each parameter
    tries only the candidates next to its current value)."""
    def choices(k: int, value) -> tuple:
        return _neighbours(ev.params[k], value) if local else ev.params[k].candidates

    def told(r: int, k: int, value, score: float) -> None:
        if log:
            print(f"  round {r}: {ev.params[k].key} = {value} -> {score:.2f}", file=sys.stderr)

    return coordinate_search(start, choices, lambda values: objective(ev.predictions(values), exclude),
                             rounds, told)


@dataclass
class Fold:
    group: str
    values: tuple                  #: parameters fitted without the group
    held_out: list                 #: the group's VF rows predicted by that fit


def leave_one_family_out(ev: Evaluator, start: tuple, rounds: int = 2) -> list[Fold]:
    """For each calibration group with VF rows: fit without it (a local coordinate search from the
    machine file's values ``start``), predict it."""
    groups = list(dict.fromkeys(p.row.kernel for p in vf_preds(ev.predictions(start))))
    folds = []
    for g in groups:
        values, _ = fit(ev, start, frozenset({g}), rounds, local=True)
        held = [p for p in vf_preds(ev.predictions(values)) if p.row.kernel == g]
        folds.append(Fold(g, values, held))
    return folds


def loo_mape(folds: list[Fold]) -> float:
    return vf_rows.mape([p for f in folds for p in f.held_out], "pushq")


def machine_file_text(text: str, fitted: Machine, base: Machine) -> str:
    """The machine file ``text`` with the values of :data:`FITTED` that differ between ``fitted`` and
    ``base`` replaced (value fields only; the sources stay)."""
    for param in FITTED:
        key, new = param.key, param.get(fitted)
        if new == param.get(base):
            continue
        if param.kind == "timing":
            text = re.sub(rf"^({key} = {{ value = )[^,]+", rf"\g<1>{new}", text, flags=re.M)
        else:
            op, field = key.split(".")
            block = re.search(rf"^\[instructions\.{op}\]\n(?:[^\[].*\n)*", text, flags=re.M)
            patched = re.sub(rf"^{field} = .*$", f"{field} = {new}", block.group(0), flags=re.M)
            text = text[:block.start()] + patched + text[block.end():]
    return text
