"""Exponential, logarithmic and hyperbolic high-level APIs (float32 working precision).

Algorithms (assumed where the page gives only the function): Log / Log2 / Log10 are the basic Ln scaled;
Exp with ``taylorExpandLevel`` n > 0 is exp(floor(x)) * sum_{i=0..n} frac**i / i! (the page's split into
integer and fractional part; n = 0 is the basic Exp). Sinh / Tanh use the Cephes single-precision
polynomials near 0 (|x| <= 1, |x| < 0.625) and exponentials elsewhere; Cosh = e/2 + 1/(2e) with
e = exp(|x| - ln 2) (no early overflow). Asinh / Acosh / Atanh go through log1p(u) computed as
u * ln(1 + u) / ((1 + u) - 1) (exact to rounding; u where 1 + u == 1), with ln(2|x|) beyond 1e4.
"""
from __future__ import annotations

import math

from toolkit.ascendc.regbase.types import CMPMODE, RoundMode

from .math_common import Work

R = RoundMode
LT, GT, EQ, GE = CMPMODE.LT, CMPMODE.GT, CMPMODE.EQ, CMPMODE.GE
LN2 = math.log(2.0)
SINH_C = [2.03721912945e-4, 8.33028376239e-3, 1.66667160211e-1]
TANH_C = [-5.70498872745e-3, 2.06390887954e-2, -5.37397155531e-2, 1.33314422036e-1, -3.33332819422e-1]


def log_body(w: Work, out, x) -> None:
    w.ln(out, x)


def log2_body(w: Work, out, x) -> None:
    w.ln(out, x)
    w.muls(out, out, 1.0 / LN2)


def log10_body(w: Work, out, x) -> None:
    w.ln(out, x)
    w.muls(out, out, 1.0 / math.log(10.0))


def exp_taylor(level: int):
    def body(w: Work, out, x) -> None:
        if level == 0:
            w.exp(out, x)
            return
        xa, xb = w.node(), w.node()
        w.rnd(xa, x, R.CAST_FLOOR)
        w.sub(xb, x, xa)
        coeffs = [1.0 / math.factorial(i) for i in range(level, -1, -1)]
        if level == 1:
            w.adds(out, xb, 1.0)
        else:
            w.horner(out, xb, coeffs)
        w.exp(xa, xa)
        w.mul(out, out, xa)
        w.free(xa, xb)
    return body


def signed(w: Work, out, x, mag) -> None:
    """out = x < 0 ? -mag : mag."""
    m, t = w.node(), w.node()
    w.muls(t, mag, -1.0)
    w.sel(out, w.cmp(m, x, 0.0, LT), t, mag)
    w.free(m, t)


def sinh_body(w: Work, out, x) -> None:
    a, e, y = w.node(), w.node(), w.node()
    w.abs(a, x)
    w.adds(e, a, -LN2)
    w.exp(e, e)                        # e**|x| / 2
    w.rec(y, e)
    w.muls(y, y, -0.25)
    w.add(e, e, y)                     # large branch
    w.mul(y, a, a)
    w.horner(out, y, SINH_C)
    w.mul(out, out, y)
    w.mul(out, out, a)
    w.add(out, out, a)                 # small branch
    m = w.node()
    w.sel(y, w.cmp(m, a, 1.0, GT), e, out)
    w.free(m)
    signed(w, out, x, y)
    w.free(a, e, y)


def cosh_body(w: Work, out, x) -> None:
    e, y = w.node(), w.node()
    w.abs(e, x)
    w.adds(e, e, -LN2)
    w.exp(e, e)
    w.rec(y, e)
    w.muls(y, y, 0.25)
    w.add(out, e, y)
    w.free(e, y)


def tanh_body(w: Work, out, x) -> None:
    a, e, y, m = w.node(), w.node(), w.node(), w.node()
    w.abs(a, x)
    w.muls(e, a, 2.0)
    w.exp(e, e)
    w.adds(e, e, 1.0)
    w.rec(e, e)
    w.muls(e, e, -2.0)
    w.adds(e, e, 1.0)                  # 1 - 2 / (e**2|x| + 1)
    w.mul(y, a, a)
    w.horner(out, y, TANH_C)
    w.mul(out, out, y)
    w.mul(out, out, a)
    w.add(out, out, a)
    w.sel(y, w.cmp(m, a, 0.625, GE), e, out)
    w.free(m)
    signed(w, out, x, y)
    w.free(a, e, y)


def log1p(w: Work, d, u) -> None:
    """d = ln(1 + u), accurate for small u (d may not be u)."""
    t, n, m = w.node(), w.node(), w.node()
    w.adds(t, u, 1.0)
    w.ln(n, t)
    w.adds(t, t, -1.0)
    w.div(n, n, t)
    w.mul(n, n, u)
    w.sel(d, w.cmp(m, t, 0.0, EQ), u, n)
    w.free(t, n, m)


def _large_log(w: Work, d, a, big_from: float, small) -> None:
    """d = a > big_from ? ln(a) + ln 2 : small."""
    t, m = w.node(), w.node()
    w.ln(t, a)
    w.adds(t, t, LN2)
    w.sel(d, w.cmp(m, a, big_from, GT), t, small)
    w.free(t, m)


def asinh_body(w: Work, out, x) -> None:
    """asinh|x| = log1p(|x| + x**2 / (1 + sqrt(1 + x**2)))."""
    a, u, s = w.node(), w.node(), w.node()
    w.abs(a, x)
    w.mul(u, a, a)
    w.adds(s, u, 1.0)
    w.sqrt(s, s)
    w.adds(s, s, 1.0)
    w.div(u, u, s)
    w.add(u, u, a)
    log1p(w, s, u)
    _large_log(w, u, a, 1e4, s)
    signed(w, out, x, u)
    w.free(a, u, s)


def acosh_body(w: Work, out, x) -> None:
    """acosh(x) = log1p((x - 1) + sqrt((x - 1)(x + 1)))."""
    u, s = w.node(), w.node()
    w.adds(u, x, -1.0)
    w.adds(s, x, 1.0)
    w.mul(s, s, u)
    w.sqrt(s, s)
    w.add(u, u, s)
    log1p(w, s, u)
    _large_log(w, out, x, 1e4, s)
    w.free(u, s)


def atanh_body(w: Work, out, x) -> None:
    """atanh|x| = log1p(2|x| / (1 - |x|)) / 2."""
    a, u = w.node(), w.node()
    w.abs(a, x)
    w.muls(u, a, -1.0)
    w.adds(u, u, 1.0)
    w.div(u, a, u)
    w.muls(u, u, 2.0)
    log1p(w, a, u)
    w.muls(a, a, 0.5)
    signed(w, out, x, a)
    w.free(a, u)
