"""The values a region computes, as expressions of one row's column ``c`` (structural, hashable: equal
subexpressions are one register in the VF).

A vector-width node is a function of the column: a ``Load`` leaf reads element ``col + c`` of an array
(``cs = 2``: element ``2 (col + c) + phase``); ``VOp`` applies one RegBase operation. A scalar-width
node has one value per row, kept in lane 0 of a register: ``Red`` reduces a vector value over the row,
``SOp`` computes on lane 0, ``Param`` / ``Const`` come from outside the region. A vector op with a
scalar-width operand broadcasts it (``Duplicate`` from lane 0) or, for a ``Param``, takes the scalar form.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

from .poly import Poly
from .scope import Root


@dataclass(frozen=True)
class Arr:
    """A 2-D array in UB: row r, column c at byte ``base + r * rs + c * size`` (``size`` of the access dtype)."""

    root: Root
    base: Poly
    rs: Poly


class E:
    scalar_width = False


@dataclass(frozen=True)
class Load(E):
    arr: Arr
    col: Poly
    dtype: str
    cs: int = 1
    phase: int = 0


@dataclass(frozen=True)
class Const(E):
    value: float
    dtype: str
    scalar_width = True


@dataclass(frozen=True)
class Param(E):
    text: str               #: the C++ expression at the call site
    dtype: str
    scalar_width = True


@dataclass(frozen=True)
class VOp(E):
    op: str                 #: Reg operation (Add, Adds, Exp, Cast, Dup ...)
    dtype: str              #: result element type
    args: tuple
    attrs: tuple = ()

    def attr(self, key: str, default=None):
        return dict(self.attrs).get(key, default)


@dataclass(frozen=True)
class SOp(E):
    op: str
    dtype: str
    args: tuple
    attrs: tuple = ()
    scalar_width = True


@dataclass(frozen=True)
class Red(E):
    kind: str               #: sum | max | min
    dtype: str
    pieces: tuple           #: ((lo, hi, vector E in row columns), ...): the row being reduced
    scalar_width = True


def dtype_of(e: E) -> str:
    return e.dtype


@functools.lru_cache(maxsize=None)
def shift(e: E, d: Poly) -> E:
    """``e`` read ``d`` columns further along the row (scalar-width nodes do not depend on the column)."""
    if e.scalar_width or d == Poly():
        return e
    if isinstance(e, Load):
        return Load(e.arr, e.col + d, e.dtype, e.cs, e.phase)
    if isinstance(e, VOp):
        attrs = e.attrs
        if e.op == "Piecewise":
            attrs = (("cuts", tuple(c - d for c in e.attr("cuts"))),)
        return VOp(e.op, e.dtype, tuple(shift(a, d) for a in e.args), attrs)
    return e


def piecewise(dtype: str, pieces: list[tuple]) -> E:
    """One value over columns cut into pieces (array columns): lanes left of cut k take piece k."""
    if len(pieces) == 1:
        return pieces[0][2]
    return VOp("Piecewise", dtype, tuple(p[2] for p in pieces), (("cuts", tuple(p[1] for p in pieces[:-1])),))


def children(e: E) -> tuple:
    if isinstance(e, (VOp, SOp)):
        return e.args
    if isinstance(e, Red):
        return tuple(p[2] for p in e.pieces)
    return ()


def walk(e: E, seen: set | None = None):
    seen = set() if seen is None else seen
    if e in seen:
        return
    seen.add(e)
    for c in children(e):
        yield from walk(c, seen)
    yield e


def depends_on_column(e: E) -> bool:
    return not e.scalar_width
