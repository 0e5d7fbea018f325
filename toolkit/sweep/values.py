"""Value lists of sweep axes: ``8,64``, ``1..44`` (inclusive), ``1..44:4`` (step), mixed (``1,2,4..8``).

Items are separated by commas outside brackets and quotes, so a macro value ``{1,2}``, ``F(a,b)`` or
``"a,b"`` is one value (``{1,2},{3,4}`` two). An item that starts like a number followed by ``..`` is a
range and must be a good one (``5..1``, ``1..10:0``, ``1..x`` and a range of more than
:data:`MAX_POINTS` values are refused, for macros as for the KV sweep's options); other items are
integers when every item is one, else text.
"""
from __future__ import annotations

import itertools
import re
from typing import Callable

MAX_POINTS = 100_000
_RANGE_START = re.compile(r"\s*[+-]?[\d.]*\d[\d.]*\s*\.\.|\s*[+-]?\d+\s*\.\.")
_OPEN, _CLOSE = "([{", ")]}"


class BadValues(ValueError):
    """A value list that cannot be read (one line naming the option and the item)."""


def split_items(text: str, option: str = "value") -> list[str]:
    """``text`` split at the commas outside (), [], {} and quotes."""
    items, cur, stack, quote = [], [], [], None
    i = 0
    while i < len(text):
        ch = text[i]
        if quote:
            if ch == "\\" and i + 1 < len(text):
                cur.append(text[i:i + 2])
                i += 2
                continue
            if ch == quote:
                quote = None
        elif ch in "\"'":
            quote = ch
        elif ch in _OPEN:
            stack.append(_CLOSE[_OPEN.index(ch)])
        elif ch in _CLOSE:
            if not stack or stack.pop() != ch:
                raise BadValues(f"{option} {text!r}: unbalanced {ch!r}")
        elif ch == "," and not stack:
            items.append("".join(cur))
            cur = []
            i += 1
            continue
        cur.append(ch)
        i += 1
    if quote or stack:
        raise BadValues(f"{option} {text!r}: unclosed {quote or repr(stack[-1])}")
    items.append("".join(cur))
    return items


def is_range(item: str) -> bool:
    """Whether an item is written as a range (``FIRST..``): it must then be a valid one."""
    return bool(_RANGE_START.match(item))


def parse_values(text: str, kind: Callable | None = int, option: str = "value") -> list:
    """The values of one axis, in the order given, duplicates dropped; ``kind`` None: integers when
    every item is one (ranges included), else every item as text (the values of a macro)."""
    items = [item.strip() for item in split_items(str(text), option)]
    out: list = []
    for item in items:
        if not item:
            raise BadValues(f"{option} {text!r}: empty item in the list")
        if is_range(item) and kind in (int, None):
            out.extend(_range(item, option))
        elif kind is None:
            out.append(_int_or_text(item))
        else:
            try:
                out.append(kind(item))
            except ValueError:
                raise BadValues(f"{option} {text!r}: {item!r} is not {_kind_name(kind)}") from None
        if len(out) > MAX_POINTS:
            raise BadValues(f"{option} {text!r}: more than {MAX_POINTS} values")
    if kind is None and not all(isinstance(v, int) for v in out):
        out = [str(v) if isinstance(v, int) else v for v in out]
    return list(dict.fromkeys(out))


def _int_or_text(item: str):
    try:
        return int(item)
    except ValueError:
        return item


def _kind_name(kind: Callable) -> str:
    return {int: "an integer", float: "a number"}.get(kind, "a value")


def _range(item: str, option: str) -> list[int]:
    span, colon, step_text = item.partition(":")
    lo_text, _, hi_text = span.partition("..")
    try:
        lo, hi, step = int(lo_text), int(hi_text), int(step_text) if colon else 1
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
