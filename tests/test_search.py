"""The coordinate search every calibration fit uses, on a function whose minimum is known."""
from toolkit.calibration.search import coordinate_search


def test_finds_the_minimum_of_a_separable_bowl_and_reports_each_step():
    grid = (0, 1, 2, 3, 4)
    steps = []
    best, score = coordinate_search((0, 4), lambda k, v: grid, lambda p: (p[0] - 3) ** 2 + (p[1] - 1) ** 2,
                                    rounds=3, on_better=lambda r, k, v, s: steps.append((r, k, v, s)))
    assert best == (3, 1) and score == 0
    # x: 18 -> 13 -> 10 -> 9 (x = 4 is worse); then y, tried from 0 up: 1 at y = 0, 0 at y = 1
    assert steps == [(0, 0, 1, 13), (0, 0, 2, 10), (0, 0, 3, 9), (0, 1, 0, 1), (0, 1, 1, 0)]


def test_stops_after_a_sweep_that_improves_nothing():
    calls = []

    def score(p):
        calls.append(p)
        return abs(p[0] - 1)
    best, _ = coordinate_search((1,), lambda k, v: (0, 1, 2), score, rounds=5)
    assert best == (1,) and len(calls) == 3          # the start, then 0 and 2 once: one sweep only
