"""Trigonometric high-level APIs: Sin, Cos, Tan, SinCos, Asin, Acos, Atan (float32 working precision).

Algorithms (assumed; the pages give only the function): the periodic ones reduce by a multiple k of pi/2
with a three-part Cody-Waite constant to |r| <= pi/4, evaluate the Taylor polynomials of sin (to r**13)
and cos (to r**14) there and pick / negate by the quadrant k mod 4 (Tan: sin r / cos r or -cos r / sin r
by the parity of k). Asin / Acos / Atan follow the Cephes single-precision reductions and minimax polynomials
(asin: |x| > 0.5 through sqrt((1 - |x|) / 2); atan: three intervals split at tan(pi/8), tan(3pi/8)).
"""
from __future__ import annotations

import math

from toolkit.ascendc.regbase.types import CMPMODE, RoundMode

from .math_common import Work

R = RoundMode
LT, GT, EQ = CMPMODE.LT, CMPMODE.GT, CMPMODE.EQ
INV_PI = 1.0 / math.pi
#: pi split in three (the first two exact in few bits: k * part is exact for |k| < 2**16)
PI3 = (3.140625, 9.67502593994140625e-4, 1.509957990978376432e-7)
HALF_PI3 = tuple(p / 2 for p in PI3)
SIN_C = [1 / 6227020800, -1 / 39916800, 1 / 362880, -1 / 5040, 1 / 120, -1 / 6]      # r**13 ... r**3
COS_C = [-1 / 87178291200, 1 / 479001600, -1 / 3628800, 1 / 40320, -1 / 720, 1 / 24, -1 / 2]
ASIN_C = [4.2163199048e-2, 2.4181311049e-2, 4.5470025998e-2, 7.4953002686e-2, 1.6666752422e-1]
ATAN_C = [8.05374449538e-2, -1.38776856032e-1, 1.99777106478e-1, -3.33329491539e-1]


def reduce(w: Work, r, x, k, parts) -> None:
    """r = x - k * (parts[0] + parts[1] + parts[2]) (k an integral float32 tensor)."""
    t = w.node()
    w.muls(t, k, -parts[0])
    w.add(r, x, t)
    for p in parts[1:]:
        w.muls(t, k, -p)
        w.add(r, r, t)
    w.free(t)


def sin_poly(w: Work, d, r) -> None:
    """d = sin(r) for |r| <= pi/2 (d may not be r)."""
    z = w.node()
    w.mul(z, r, r)
    w.horner(d, z, SIN_C)
    w.mul(d, d, z)
    w.mul(d, d, r)
    w.add(d, d, r)
    w.free(z)


def cos_poly(w: Work, d, r) -> None:
    """d = cos(r) for |r| <= pi/2."""
    z = w.node()
    w.mul(z, r, r)
    w.horner(d, z, COS_C)
    w.mul(d, d, z)
    w.adds(d, d, 1.0)
    w.free(z)


def parity_sign(w: Work, d, k, odd_value: float) -> None:
    """d = odd_value for odd integral k, -odd_value for even k."""
    w.muls(d, k, 0.5)
    w.rnd(d, d, R.CAST_FLOOR)
    w.muls(d, d, -2.0)
    w.add(d, d, k)                     # 0 or 1
    w.muls(d, d, 2.0 * odd_value)
    w.adds(d, d, -odd_value)


def _quadrant(w: Work, out, x, cosine: bool) -> None:
    """sin / cos of x through r = x - k pi/2 (|r| <= pi/4) and the quadrant q = k mod 4: sin x is
    (s, c, -s, -c)[q], cos x is (c, -s, -c, s)[q] with s = sin r, c = cos r."""
    k, r, s, c, q, m = w.node(), w.node(), w.node(), w.node(), w.node(), w.node()
    w.muls(k, x, 2.0 * INV_PI)
    w.rnd(k, k, R.CAST_RINT)
    reduce(w, r, x, k, HALF_PI3)
    sin_poly(w, s, r)
    cos_poly(w, c, r)
    if cosine:
        w.adds(k, k, 1.0)                  # cos x = sin(x + pi/2): one quadrant on
    w.muls(q, k, 0.25)
    w.rnd(q, q, R.CAST_FLOOR)
    w.muls(q, q, -4.0)
    w.add(q, q, k)                         # k mod 4 in {0, 1, 2, 3}
    w.muls(r, q, 0.5)
    w.rnd(r, r, R.CAST_FLOOR)
    w.muls(r, r, -2.0)
    w.add(r, r, q)                         # q odd
    w.sel(s, w.cmp(m, r, 0.5, GT), c, s)
    w.muls(c, s, -1.0)
    w.sel(out, w.cmp(m, q, 1.5, GT), c, s)
    w.free(k, r, s, c, q, m)


def sin_body(w: Work, out, x) -> None:
    _quadrant(w, out, x, False)


def cos_body(w: Work, out, x) -> None:
    _quadrant(w, out, x, True)


def tan_body(w: Work, out, x) -> None:
    """tan(x): r = x - k pi/2 in [-pi/4, pi/4]; sin(r)/cos(r) for even k, -cos(r)/sin(r) for odd k."""
    k, r, s, c = w.node(), w.node(), w.node(), w.node()
    w.muls(k, x, 2.0 * INV_PI)
    w.rnd(k, k, R.CAST_RINT)
    reduce(w, r, x, k, HALF_PI3)
    sin_poly(w, s, r)
    cos_poly(w, c, r)
    w.div(out, s, c)
    w.muls(c, c, -1.0)
    w.div(s, c, s)                     # -cos / sin
    parity_sign(w, r, k, 1.0)          # 1 odd, -1 even
    w.where(out, r, GT, 0.0, s, out)
    w.free(k, r, s, c)


def sincos_body(w: Work, out_sin, out_cos, x) -> None:
    sin_body(w, out_sin, x)
    cos_body(w, out_cos, x)


def _asin_core(w: Work, y, a, big) -> None:
    """y = asin-kernel of a = |x|: for a > 0.5 (mask ``big``) asin of s = sqrt((1 - a) / 2), else of a."""
    z, s = w.node(), w.node()
    w.muls(z, a, -0.5)
    w.adds(z, z, 0.5)
    w.sqrt(s, z)
    w.sel(s, big, s, a)
    w.mul(y, a, a)
    w.sel(z, big, z, y)
    w.horner(y, z, ASIN_C)
    w.mul(y, y, z)
    w.mul(y, y, s)
    w.add(y, y, s)
    w.free(z, s)


def asin_body(w: Work, out, x) -> None:
    a, m, y = w.node(), w.node(), w.node()
    w.abs(a, x)
    big = w.cmp(m, a, 0.5, GT)
    _asin_core(w, y, a, big)
    w.muls(a, y, -2.0)
    w.adds(a, a, math.pi / 2)
    w.sel(y, big, a, y)
    w.muls(a, y, -1.0)
    neg = w.cmp(m, x, 0.0, LT)
    w.sel(out, neg, a, y)
    w.free(a, m, y)


def acos_body(w: Work, out, x) -> None:
    """|x| <= 0.5: pi/2 - asin(x); x > 0.5: 2 asin(s); x < -0.5: pi - 2 asin(s)."""
    a, m, y, t = w.node(), w.node(), w.node(), w.node()
    w.abs(a, x)
    big = w.cmp(m, a, 0.5, GT)
    _asin_core(w, y, a, big)
    w.muls(a, y, 2.0)                  # big, x > 0
    w.muls(t, y, -2.0)
    w.adds(t, t, math.pi)              # big, x < 0
    neg = w.cmp(m, x, 0.0, LT)
    w.sel(a, neg, t, a)
    w.muls(t, y, -1.0)
    w.sel(y, neg, t, y)                # asin(x) for the small range
    w.muls(y, y, -1.0)
    w.adds(y, y, math.pi / 2)
    w.abs(t, x)
    big = w.cmp(m, t, 0.5, GT)
    w.sel(out, big, a, y)
    w.free(a, m, y, t)


def atan_body(w: Work, out, x) -> None:
    a, m, t, y0, u = w.node(), w.node(), w.node(), w.node(), w.node()
    w.abs(a, x)
    w.adds(t, a, 1.0)
    w.adds(u, a, -1.0)
    w.div(t, u, t)                     # (a - 1) / (a + 1)
    mid = w.cmp(m, a, 0.4142135623730950, GT)
    w.sel(t, mid, t, a)
    _sel_const(w, y0, mid, math.pi / 4, 0.0)
    w.rec(u, a)
    w.muls(u, u, -1.0)                 # -1 / a
    big = w.cmp(m, a, 2.414213562373095, GT)
    w.sel(t, big, u, t)
    _sel_scalar_first(w, y0, big, math.pi / 2, y0)
    w.mul(u, t, t)
    w.horner(a, u, ATAN_C)
    w.mul(a, a, u)
    w.mul(a, a, t)
    w.add(a, a, t)
    w.add(a, a, y0)
    w.muls(t, a, -1.0)
    neg = w.cmp(m, x, 0.0, LT)
    w.sel(out, neg, t, a)
    w.free(a, m, t, y0, u)


def _sel_const(w: Work, d, bits, a: float, b: float) -> None:
    """d = bit ? a : b for two constants."""
    w.dup(d, b)
    _sel_scalar_first(w, d, bits, a, d)


def _sel_scalar_first(w: Work, d, bits, a: float, b) -> None:
    """d = bit ? a : b[i] (Select takes its scalar second: swap by selecting b where the bit is 0)."""
    t = w.node()
    w.dup(t, a)
    w.sel(d, bits, t, b)
    w.free(t)

