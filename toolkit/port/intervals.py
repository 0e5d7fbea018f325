"""Order and overlap of polynomial bounds (column ranges, byte spans), decided under "every name is a
positive count"; what cannot be decided is a reason to keep the region MemBase, never a guess."""
from __future__ import annotations

from .poly import Poly, lift
from .scope import PortError


class Undecided(PortError):
    pass


def le(a: Poly, b: Poly) -> bool | None:
    """a <= b: True / False when decided, else None."""
    d = lift(b) - lift(a)
    if d.nonneg():
        return True
    if (-d).nonneg() and d != Poly():
        return False
    return None


def lt(a: Poly, b: Poly) -> bool | None:
    r = le(b, a)
    return None if r is None else not r


def pmax(a: Poly, b: Poly, why: str = "") -> Poly:
    r = le(a, b)
    if r is None:
        raise Undecided(f"cannot order {a} and {b}{why}")
    return b if r else a


def pmin(a: Poly, b: Poly, why: str = "") -> Poly:
    r = le(a, b)
    if r is None:
        raise Undecided(f"cannot order {a} and {b}{why}")
    return a if r else b


def solve_equal(a: Poly, b: Poly) -> tuple[str, int] | None:
    """(atom, value) making a == b when a - b is k * atom + c with integer k, c and a positive integer
    solution; None otherwise."""
    d = lift(a) - lift(b)
    atoms = d.atoms()
    if len(atoms) != 1:
        return None
    atom = next(iter(atoms))
    if not d.affine_in(atom):
        return None
    k, c = d.coeff(atom).value, d.without(atom).value
    if k is None or c is None or k == 0:
        return None
    v = -c / k
    if v.denominator != 1 or v <= 0:
        return None
    return atom, int(v)
