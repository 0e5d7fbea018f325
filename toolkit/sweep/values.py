"""Value lists of sweep axes: ``8,64``, ``1..44`` (inclusive), ``1..44:4`` (step), mixed (``1,2,4..8``)."""
from __future__ import annotations

import itertools
from typing import Callable

MAX_POINTS = 100_000


class BadValues(ValueError):
    """A value list that cannot be read (one line naming the option and the item)."""


def parse_values(text: str, kind: Callable | None = int, option: str = "value") -> list:
    """The values of one axis, in the order given, duplicates dropped; ``kind`` None: integers when
    every item is one (ranges included), else every item as text (the values of a macro)."""
    if kind is None:
        try:
            return parse_values(text, int, option)
        except BadValues:
            return parse_values(text, str, option)
    out: list = []
    for item in str(text).split(","):
        item = item.strip()
        if not item:
            raise BadValues(f"{option} {text!r}: empty item in the list")
        if ".." in item and kind is int:
            out.extend(_range(item, option))
            continue
        try:
            out.append(kind(item))
        except ValueError:
            raise BadValues(f"{option} {text!r}: {item!r} is not {_kind_name(kind)}") from None
        if len(out) > MAX_POINTS:
            raise BadValues(f"{option} {text!r}: more than {MAX_POINTS} values")
    return list(dict.fromkeys(out))


def _kind_name(kind: Callable) -> str:
    return {int: "an integer", float: "a number"}.get(kind, "a value")


def _range(item: str, option: str) -> list[int]:
    span, _, step_text = item.partition(":")
    lo_text, _, hi_text = span.partition("..")
    try:
        lo, hi, step = int(lo_text), int(hi_text), int(step_text or 1)
    except ValueError:
        raise BadValues(f"{option} {item!r}: a range is FIRST..LAST[:STEP] with integers") from None
    if step <= 0 or hi < lo:
        raise BadValues(f"{option} {item!r}: a range needs FIRST <= LAST and a positive step")
    if (hi - lo) // step + 1 > MAX_POINTS:
        raise BadValues(f"{option} {item!r}: more than {MAX_POINTS} values")
    return list(range(lo, hi + 1, step))


def product(axes: dict[str, list]) -> list[dict]:
    """Every combination, the last axis varying fastest."""
    names = list(axes)
    total = 1
    for v in axes.values():
        total *= max(len(v), 1)
    if total > MAX_POINTS:
        raise BadValues(f"{total} combinations: more than {MAX_POINTS} points")
    return [dict(zip(names, combo)) for combo in itertools.product(*(axes[n] for n in names))]
