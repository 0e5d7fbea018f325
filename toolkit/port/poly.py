"""Integer polynomials over the C++ names of a kernel (``rows * dv_ + 64``): the lengths, offsets and
strides of a region's vector calls.

Why not sympy: the port needs six operations (add, multiply, exact division, equality, a sign test
under "every name is a positive count", substitution) and must print the result back as the C++ the
kernel can compile at the call site (unsigned arithmetic, the user's own names); an opaque atom keeps
any other C++ integer expression (``(rows + 7) / 8``) intact. A monomial is a sorted tuple of atom
names; coefficients are Fractions so ``n / 2`` of ``n = rows * dk_`` stays exact.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Mapping

Monomial = tuple[str, ...]


@dataclass(frozen=True)
class Poly:
    terms: tuple[tuple[Monomial, Fraction], ...] = ()

    # -- construction -----------------------------------------------------------------------------
    @staticmethod
    def const(v: int | Fraction) -> "Poly":
        return Poly((((), Fraction(v)),)) if v else Poly()

    @staticmethod
    def sym(name: str) -> "Poly":
        return Poly((((name,), Fraction(1)),))

    @staticmethod
    def _make(d: dict[Monomial, Fraction]) -> "Poly":
        return Poly(tuple(sorted((m, c) for m, c in d.items() if c)))

    def _dict(self) -> dict[Monomial, Fraction]:
        return dict(self.terms)

    # -- arithmetic -------------------------------------------------------------------------------
    def __add__(self, other: "Poly | int") -> "Poly":
        other = lift(other)
        d = self._dict()
        for m, c in other.terms:
            d[m] = d.get(m, Fraction(0)) + c
        return Poly._make(d)

    __radd__ = __add__

    def __neg__(self) -> "Poly":
        return Poly(tuple((m, -c) for m, c in self.terms))

    def __sub__(self, other: "Poly | int") -> "Poly":
        return self + (-lift(other))

    def __rsub__(self, other: "Poly | int") -> "Poly":
        return lift(other) - self

    def __mul__(self, other: "Poly | int") -> "Poly":
        other = lift(other)
        d: dict[Monomial, Fraction] = {}
        for m1, c1 in self.terms:
            for m2, c2 in other.terms:
                m = tuple(sorted(m1 + m2))
                d[m] = d.get(m, Fraction(0)) + c1 * c2
        return Poly._make(d)

    __rmul__ = __mul__

    def div(self, other: "Poly | int") -> "Poly | None":
        """Exact quotient (every term divisible by a single-term divisor), else None."""
        other = lift(other)
        if len(other.terms) != 1:
            return self if other == Poly.const(1) else (Poly.const(1) if self == other and self.terms else None)
        (dm, dc), = other.terms
        out: dict[Monomial, Fraction] = {}
        for m, c in self.terms:
            rest = list(m)
            for a in dm:
                if a not in rest:
                    return None
                rest.remove(a)
            out[tuple(rest)] = c / dc
        return Poly._make(out)

    # -- queries ----------------------------------------------------------------------------------
    @property
    def is_const(self) -> bool:
        return all(not m for m, _ in self.terms)

    @property
    def value(self) -> Fraction | None:
        return (self.terms[0][1] if self.terms else Fraction(0)) if self.is_const else None

    def int_value(self) -> int | None:
        v = self.value
        return int(v) if v is not None and v.denominator == 1 else None

    def nonneg(self) -> bool:
        """True when >= 0 for every assignment of positive integers to the names (every coefficient >= 0)."""
        return all(c >= 0 for _, c in self.terms)

    def atoms(self) -> set[str]:
        return {a for m, _ in self.terms for a in m}

    def coeff(self, atom: str) -> "Poly":
        """The coefficient of ``atom`` in a polynomial affine in it (higher powers: see ``affine_in``)."""
        d: dict[Monomial, Fraction] = {}
        for m, c in self.terms:
            if atom in m:
                rest = list(m)
                rest.remove(atom)
                d[tuple(rest)] = d.get(tuple(rest), Fraction(0)) + c
        return Poly._make(d)

    def without(self, atom: str) -> "Poly":
        return Poly(tuple((m, c) for m, c in self.terms if atom not in m))

    def affine_in(self, atom: str) -> bool:
        return all(m.count(atom) <= 1 for m, _ in self.terms)

    def subs(self, values: Mapping[str, "Poly"]) -> "Poly":
        out = Poly()
        for m, c in self.terms:
            t = Poly.const(c)
            for a in m:
                t = t * values.get(a, Poly.sym(a))
            out = out + t
        return out

    # -- C++ ---------------------------------------------------------------------------------------
    def cpp(self, names: Mapping[str, str] | None = None) -> str:
        """C++ text; ``names`` renames atoms (inside a VF: the parameter that carries the value)."""
        if not self.terms:
            return "0"
        parts: list[tuple[bool, str]] = []
        den = 1
        for _, c in self.terms:
            den = den * c.denominator // _gcd(den, c.denominator)
        for m, c in self.terms:
            k = c * den
            mag = abs(k)
            factors = [(names or {}).get(a, a) for a in m]
            factors = [f if _simple(f) else f"({f})" for f in factors]
            body = " * ".join(([str(mag)] if mag != 1 or not factors else []) + factors)
            parts.append((k < 0, body))
        parts.sort(key=lambda p: p[0])                 # positive terms first: unsigned-safe order
        text = parts[0][1] if not parts[0][0] else "-" + parts[0][1]
        for neg, body in parts[1:]:
            text += (" - " if neg else " + ") + body
        return text if den == 1 else f"({text}) / {den}"

    def __str__(self) -> str:
        return self.cpp()

    def __repr__(self) -> str:
        return f"Poly({self.cpp()})"


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a


def _simple(text: str) -> bool:
    return all(ch.isalnum() or ch in "_.>-" for ch in text) and "->" not in text.replace("this->", "")


def lift(v: "Poly | int | Fraction") -> Poly:
    return v if isinstance(v, Poly) else Poly.const(v)


ZERO, ONE = Poly(), Poly.const(1)
