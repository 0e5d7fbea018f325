"""Special functions and two-operand float APIs: Erf, Erfc, Lgamma, Digamma, Power, Hypot, Fmod, plus the
rounding family (Floor, Ceil, Trunc, Round, Rint, Frac), Sign, ClampMax / ClampMin and Fma.

Algorithms (assumed; the pages give only the functions): Erf on |x| < 1 is its Taylor series to x**21
(error < 1e-8), beyond it 1 - erfc; erfc(|x| >= 1) is the Chebyshev fit of Numerical Recipes' erfcc
(fractional error < 1.2e-7; exp(-x**2) split so its large part is exact). Lgamma / Digamma shift the argument to >= 4 with the recurrence (a product
of 4 factors / a sum of 4 reciprocals), use the Stirling / asymptotic series there, and reflect arguments
below 0.5 (sin / tan of pi x through the trig polynomials on x - rint(x)). Power: exp(b ln|a|), negative
bases only with integral exponents (sign from their parity, NaN otherwise), b == 0 gives 1. Hypot:
max * sqrt(1 + (min/max)**2). Fmod: a - trunc(a/b) b (the page's formula; the last step fused).
Round: half away from zero (CAST_ROUND); Rint: half to even.
"""
from __future__ import annotations

import math

from toolkit.ascendc.regbase.types import CMPMODE, RoundMode

from .math_common import Work
from .math_trig import cos_poly, parity_sign, sin_poly

R = RoundMode
LT, GT, EQ, GE, NE = CMPMODE.LT, CMPMODE.GT, CMPMODE.EQ, CMPMODE.GE, CMPMODE.NE
TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)
ERF_C = [TWO_OVER_SQRT_PI * (-1) ** n / (math.factorial(n) * (2 * n + 1)) for n in range(10, -1, -1)]
ERFC_NR = [0.17087277, -0.82215223, 1.48851587, -1.13520398, 0.27886807, -0.18628806, 0.09678418, 0.37409196,
           1.00002368, -1.26551223]
HALF_LN_2PI = 0.5 * math.log(2.0 * math.pi)


def _erf_small(w: Work, d, x) -> None:
    z = w.node()
    w.mul(z, x, x)
    w.horner(d, z, ERF_C)
    w.mul(d, d, x)
    w.free(z)


def _erfc_big(w: Work, d, a) -> None:
    """d = erfc(a) for a >= 0 (Numerical Recipes erfcc: t exp(-a**2 + P(t)), t = 1 / (1 + a/2)); exp(-a**2)
    as exp(-h**2) exp(-(a - h)(a + h)) with h = rint(16 a) / 16, so the large part of the argument is exact."""
    t, e, h = w.node(), w.node(), w.node()
    w.muls(t, a, 0.5)
    w.adds(t, t, 1.0)
    w.rec(t, t)
    w.horner(d, t, ERFC_NR)
    w.muls(h, a, 16.0)
    w.rnd(h, h, R.CAST_RINT)
    w.muls(h, h, 1.0 / 16.0)
    w.sub(e, a, h)
    u = w.node()
    w.add(u, h, a)
    w.mul(e, e, u)
    w.free(u)
    w.sub(d, d, e)                     # P(t) - (a - h)(a + h)
    w.mul(h, h, h)
    w.muls(h, h, -1.0)
    w.exp(h, h)                        # exp(-h**2)
    w.exp(d, d)
    w.mul(d, d, h)
    w.mul(d, d, t)
    w.free(t, e, h)


def erf_body(w: Work, out, x) -> None:
    a, s, b, m = w.node(), w.node(), w.node(), w.node()
    w.abs(a, x)
    _erf_small(w, s, x)
    w.mins(a, a, 11.0)                 # erfc(11) is below the smallest float: inf gives 0, not inf - inf
    _erfc_big(w, b, a)
    w.muls(b, b, -1.0)
    w.adds(b, b, 1.0)                  # erf(|x|)
    w.muls(a, b, -1.0)
    w.sel(b, w.cmp(m, x, 0.0, LT), a, b)
    w.abs(a, x)
    w.sel(out, w.cmp(m, a, 1.0, LT), s, b)
    w.free(a, s, b, m)


def erfc_body(w: Work, out, x) -> None:
    a, s, b, m = w.node(), w.node(), w.node(), w.node()
    w.abs(a, x)
    _erf_small(w, s, x)
    w.muls(s, s, -1.0)
    w.adds(s, s, 1.0)
    w.mins(a, a, 11.0)
    _erfc_big(w, b, a)
    w.muls(a, b, -1.0)
    w.adds(a, a, 2.0)
    w.sel(b, w.cmp(m, x, 0.0, LT), a, b)
    w.abs(a, x)
    w.sel(out, w.cmp(m, a, 1.0, LT), s, b)
    w.free(a, s, b, m)


def _reflect_arg(w: Work, v, x) -> None:
    """v = x < 0.5 ? 1 - x : x."""
    t, m = w.node(), w.node()
    w.muls(t, x, -1.0)
    w.adds(t, t, 1.0)
    w.sel(v, w.cmp(m, x, 0.5, LT), t, x)
    w.free(t, m)


SHIFT = 4        #: arguments below it go up by SHIFT through the recurrence (the series are exact to 1e-8 there)


def _shift(w: Work, z, small, v) -> None:
    """z = v < SHIFT ? v + SHIFT : v; mask bits in working tensor ``small``."""
    t = w.node()
    w.adds(t, v, float(SHIFT))
    w.sel(z, w.cmp(small, v, float(SHIFT), LT), t, v)
    w.free(t)


def _pi_r(w: Work, r, x) -> None:
    """r = pi * (x - rint(x)), in [-pi/2, pi/2]."""
    w.rnd(r, x, R.CAST_RINT)
    w.sub(r, x, r)
    w.muls(r, r, math.pi)


def lgamma_body(w: Work, out, x) -> None:
    v, z, sm, acc = w.node(), w.node(), w.node(), w.node()
    _reflect_arg(w, v, x)
    _shift(w, z, sm, v)
    t = w.node()
    w.ln(acc, z)
    w.adds(t, z, -0.5)
    w.mul(acc, acc, t)
    w.sub(acc, acc, z)
    w.adds(acc, acc, HALF_LN_2PI)
    w.rec(t, z)
    w.mul(z, t, t)
    _series(w, v, z, t)
    w.add(acc, acc, v)                 # lgamma(z)
    _reflect_arg(w, v, x)
    w.dup(z, 1.0)
    for k in range(SHIFT):
        w.adds(t, v, float(k))
        w.mul(z, z, t)
    w.ln(z, z)
    w.sub(z, acc, z)
    bits = w.cmp(t, v, float(SHIFT), LT)
    w.sel(acc, bits, z, acc)           # lgamma(v)
    _pi_r(w, z, x)
    sin_poly(w, t, z)
    w.abs(t, t)
    w.ln(t, t)
    w.muls(t, t, -1.0)
    w.adds(t, t, math.log(math.pi))
    w.sub(t, t, acc)                   # ln(pi / |sin(pi x)|) - lgamma(1 - x)
    w.sel(acc, w.cmp(z, x, 0.5, LT), t, acc)
    w.dup(t, float("inf"))
    w.sel(out, w.cmp(z, x, float("inf"), EQ), t, acc)          # lgamma(inf) = inf
    w.free(v, z, sm, acc, t)


def _series(w: Work, d, z2, inv) -> None:
    """d = 1/(12 z) - 1/(360 z**3) + 1/(1260 z**5) - 1/(1680 z**7), with z2 = 1/z**2, inv = 1/z."""
    w.horner(d, z2, [-1 / 1680, 1 / 1260, -1 / 360, 1 / 12])
    w.mul(d, d, inv)


def digamma_body(w: Work, out, x) -> None:
    v, z, sm, acc, t = w.node(), w.node(), w.node(), w.node(), w.node()
    _reflect_arg(w, v, x)
    _shift(w, z, sm, v)
    w.ln(acc, z)
    w.rec(t, z)
    w.muls(sm, t, -0.5)
    w.add(acc, acc, sm)
    w.mul(z, t, t)
    w.horner(sm, z, [1 / 240, -1 / 252, 1 / 120, -1 / 12])
    w.mul(sm, sm, z)
    w.add(acc, acc, sm)                # psi(z)
    w.dup(z, 0.0)
    for k in range(SHIFT):
        w.adds(t, v, float(k))
        w.rec(t, t)
        w.add(z, z, t)
    w.sub(z, acc, z)
    w.sel(acc, w.cmp(t, v, float(SHIFT), LT), z, acc)       # psi(v)
    _pi_r(w, z, x)
    sin_poly(w, t, z)
    cos_poly(w, v, z)
    w.div(t, v, t)
    w.muls(t, t, -math.pi)
    w.add(t, t, acc)                   # psi(1 - x) - pi / tan(pi x)
    w.sel(out, w.cmp(z, x, 0.5, LT), t, acc)
    w.free(v, z, sm, acc, t)


def power_body(w: Work, out, a, b) -> None:
    r, t, m, u = w.node(), w.node(), w.node(), w.node()
    w.abs(r, a)
    w.ln(r, r)
    w.mul(r, r, b)
    w.exp(r, r)                        # |a| ** b
    parity_sign(w, t, b, -1.0)         # -1 for odd b (integral), 1 for even
    w.mul(t, t, r)
    w.rnd(u, b, R.CAST_RINT)
    w.sub(u, u, b)
    w.dup(m, float("nan"))
    bits = w.cmp(u, u, 0.0, EQ)        # integral exponent
    m2 = w.node()
    w.sel(t, bits, t, m)               # negative base
    w.sel(r, w.cmp(m2, a, 0.0, LT), t, r)
    w.dup(t, 1.0)
    w.sel(out, w.cmp(m2, b, 0.0, EQ), t, r)
    w.free(r, t, m, u, m2)


def hypot_body(w: Work, out, a, b) -> None:
    x, y, m = w.node(), w.node(), w.node()
    w.abs(x, a)
    w.abs(y, b)
    w.max(m, x, y)
    w.min(x, x, y)
    w.div(x, x, m)
    w.mul(x, x, x)
    w.adds(x, x, 1.0)
    w.sqrt(x, x)
    w.mul(x, x, m)
    _zero_where(w, x, m)
    w.sel(out, w.cmp(y, m, float("inf"), EQ), m, x)
    w.free(x, y, m)


def _zero_where(w: Work, x, m) -> None:
    """x = m == 0 ? 0 : x."""
    bits_node = w.node()
    w.sel(x, w.cmp(bits_node, m, 0.0, NE), x, 0.0)
    w.free(bits_node)


def fmod_body(w: Work, out, a, b) -> None:
    q = w.node()
    w.div(q, a, b)
    w.rnd(q, q, R.CAST_TRUNC)
    w.muls(q, q, -1.0)
    w.copy(out, a)
    w.fma(out, q, b)                   # a - trunc(a / b) * b, one rounding
    w.free(q)


def rounding(mode: RoundMode):
    def body(w: Work, out, x) -> None:
        w.rnd(out, x, mode)
    return body


def frac_body(w: Work, out, x) -> None:
    t = w.node()
    w.rnd(t, x, R.CAST_TRUNC)
    w.sub(out, x, t)
    w.free(t)


def sign_body(w: Work, out, x) -> None:
    """1 for x > 0, -1 for x < 0, 0 for +-0 (NaN: 0, assumed)."""
    t, m = w.node(), w.node()
    w.dup(t, 1.0)
    w.sel(t, w.cmp(m, x, 0.0, GT), t, 0.0)
    _neg_one_where(w, out, x, t, m)
    w.free(t, m)


def _neg_one_where(w: Work, out, x, t, m) -> None:
    u = w.node()
    w.dup(u, -1.0)
    w.sel(out, w.cmp(m, x, 0.0, LT), u, t)
    w.free(u)


def clamp_max_body(w: Work, out, x, s) -> None:
    w.mins(out, x, s)


def clamp_min_body(w: Work, out, x, s) -> None:
    w.maxs(out, x, s)


def fma_body(w: Work, out, a, b, c) -> None:
    w.copy(out, c)
    w.fma(out, a, b)
