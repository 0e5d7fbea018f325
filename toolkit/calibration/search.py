"""Coordinate search over a few discrete parameters: the fit of every calibration (the VF model's
parameters against the vendor rows, the whole-kernel settings against hardware)."""
from __future__ import annotations

from typing import Any, Callable, Iterable


def coordinate_search(start: tuple, choices: Callable[[int, Any], Iterable], score: Callable[[tuple], float],
                      rounds: int, on_better: Callable[[int, int, Any, float], None] | None = None
                      ) -> tuple[tuple, float]:
    """From ``start``, try for each parameter ``k`` the values ``choices(k, current value)``, keeping a
    trial that lowers ``score``; at most ``rounds`` sweeps, fewer once a sweep improves nothing.
    ``on_better(round, k, value, score)`` is told each improvement. Returns (values, score)."""
    best, best_score = start, score(start)
    for r in range(rounds):
        improved = False
        for k in range(len(start)):
            for v in choices(k, best[k]):
                if v == best[k]:
                    continue
                trial = best[:k] + (v,) + best[k + 1:]
                s = score(trial)
                if s < best_score - 1e-9:
                    best, best_score, improved = trial, s, True
                    if on_better is not None:
                        on_better(r, k, v, s)
        if not improved:
            break
    return best, best_score
