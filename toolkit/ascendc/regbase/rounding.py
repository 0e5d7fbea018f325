"""Element conversions and fused arithmetic the Reg API needs beyond :mod:`toolkit.ascendc.numerics`:
a single-rounding multiply-add, float rounding to an integral value in the same type, integer conversions
with truncation or saturation, integer -> float with a rounding mode, and float -> integer without
saturation.

Everything works on numpy arrays of the element type and is a plain function of its operands.
"""
from __future__ import annotations

import numpy as np

from toolkit.ascendc.dtypes import BF16
from toolkit.ascendc.numerics import convert, is_floating

F16, F32, F64 = np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)


def _round_to_odd_f64(hi: np.ndarray, err: np.ndarray) -> np.ndarray:
    """The float64 value nearest the exact ``hi + err`` with an odd last bit when it is inexact: rounding
    that once more to a type of at most 51 mantissa bits gives the correctly rounded result."""
    bits = hi.view(np.uint64)
    inexact = (err != 0) & np.isfinite(hi)
    even = (bits & 1) == 0
    toward = np.where(err > 0, np.inf, -np.inf)
    return np.where(inexact & even, np.nextafter(hi, toward), hi)


def fma(a: np.ndarray, b: np.ndarray, c: np.ndarray, dt: np.dtype) -> np.ndarray:
    """a * b + c with one rounding to ``dt`` (half, bfloat16, float); integer types wrap (exact)."""
    if not is_floating(dt):
        with np.errstate(over="ignore"):
            return (a.astype(dt) * b.astype(dt) + c.astype(dt)).astype(dt)
    a64, b64, c64 = (np.asarray(v).astype(F32).astype(F64) for v in (a, b, c))
    with np.errstate(invalid="ignore", over="ignore"):
        p = a64 * b64                               # exact: 24 + 24 mantissa bits fit float64
        s = p + c64
        z = s - p                                   # TwoSum: the rounding error of s
        err = np.where(np.isfinite(s), (p - (s - z)) + (c64 - z), 0.0)
        r = _round_to_odd_f64(s, err)
        if dt == BF16:
            return _f64_to_bf16(r)
        return r.astype(dt)                         # float64 -> half / float: one correct rounding


def _f64_to_bf16(x: np.ndarray) -> np.ndarray:
    """float64 -> bfloat16 rounded to nearest even once (through a round-to-odd float32)."""
    f = x.astype(F32)
    back = f.astype(F64)
    with np.errstate(invalid="ignore"):
        nudge = (back != x) & np.isfinite(x) & ((f.view(np.uint32) & 1) == 0)
        f = np.where(nudge, np.nextafter(f, np.where(x > back, np.float32(np.inf), np.float32(-np.inf))), f)
    return f.astype(F32).astype(BF16)


_NP_ROUND = {"RINT": np.rint, "NONE": np.rint, "UNKNOWN": np.rint, "FLOOR": np.floor, "CEIL": np.ceil,
             "TRUNC": np.trunc, "ROUND": lambda v: np.sign(v) * np.floor(np.abs(v) + 0.5)}


def round_integral(x: np.ndarray, mode: str) -> np.ndarray:
    """Truncate: each float element rounded to an integral value of the same type (bf16 via float32)."""
    f = x.astype(F64)
    with np.errstate(invalid="ignore"):
        r = _NP_ROUND[mode](f)
    return r.astype(x.dtype) if x.dtype != BF16 else r.astype(F32).astype(BF16)


def int_to_int(x: np.ndarray, dst: np.dtype, saturate: bool) -> np.ndarray:
    """Integer conversion: truncation to the low bits, or saturation to the destination range."""
    if not saturate:
        return x.astype(dst)
    info = np.iinfo(dst)
    if x.dtype.kind == "u":
        return np.minimum(x, x.dtype.type(min(info.max, np.iinfo(x.dtype).max))).astype(dst)
    return np.clip(x.astype(np.int64), max(info.min, np.iinfo(np.int64).min),
                   min(info.max, np.iinfo(np.int64).max)).astype(dst)


def float_to_int(x: np.ndarray, dst: np.dtype, mode: str, saturate: bool) -> np.ndarray:
    """Float -> integer rounded with ``mode``. Saturating: out-of-range values clamp; not saturating: they
    keep their low bits. In both, NaN gives 0 and +/-inf the type extremes (Cast page, table 4)."""
    mode = "RINT" if mode in ("NONE", "UNKNOWN") else mode
    if saturate:
        return convert(x, dst, mode)
    f = x.astype(F64)
    with np.errstate(invalid="ignore"):
        r = np.where(np.isfinite(f), _NP_ROUND[mode](f), 0.0)
    big = np.abs(r) >= 2.0 ** 63
    out = np.where(big, 0, r).astype(np.int64).astype(dst)      # numpy keeps the low bits
    if big.any():                                               # |x| >= 2^63: the low bits exactly
        out[big] = [np.array(int(v) % (1 << 64), np.uint64).astype(np.dtype(f"uint{8 * dst.itemsize}")
                                                                    ).view(dst) for v in r[big]]
    info = np.iinfo(dst)
    out = np.where(np.isnan(f), dst.type(0), out)
    return np.where(np.isinf(f), np.where(f > 0, dst.type(info.max), dst.type(info.min)), out).astype(dst)


def int_to_float(x: np.ndarray, dst: np.dtype, mode: str) -> np.ndarray:
    """Integer -> float with a rounding mode (RINT for NONE/UNKNOWN); exact intermediate in long double
    (64 mantissa bits on the host) for 64-bit integers."""
    wide = np.longdouble if x.dtype.itemsize == 8 else F64
    v = x.astype(wide)
    target = F32 if dst == BF16 else dst
    r = v.astype(target) if x.dtype.itemsize < 8 else x.astype(target)
    if mode in ("RINT", "NONE", "UNKNOWN"):
        return r if dst != BF16 else convert(r, BF16, "RINT")
    back = r.astype(wide)
    up, down = np.nextafter(r, target.type(np.inf)), np.nextafter(r, target.type(-np.inf))
    if mode == "FLOOR":
        r = np.where(back > v, down, r)
    elif mode == "CEIL":
        r = np.where(back < v, up, r)
    elif mode == "TRUNC":
        r = np.where(np.abs(back) > np.abs(v), np.where(v > 0, down, up), r)
    elif mode == "ROUND":                                    # ties away from zero
        lo = np.where(back > v, down, r)
        hi = np.where(back < v, up, r)
        dlo, dhi = v - lo.astype(wide), hi.astype(wide) - v
        r = np.where(dlo < dhi, lo, np.where(dhi < dlo, hi, np.where(v >= 0, hi, lo)))
    return r.astype(target) if dst != BF16 else convert(r.astype(F32), BF16, mode)
