"""Element math of the MemBase APIs beyond the shared operators of :mod:`toolkit.ascendc.numerics`: bitwise
ops, shifts, the activation and reciprocal families, fused multiply-add, saturating conversions.

Conventions (each is the page's formula computed in the element type, bf16 in fp32 then rounded RINT):

* integer add / sub / mul / neg / abs wrap modulo 2^bits (assumed: the pages state no saturation);
* integer division truncates toward zero, x / 0 gives 0 (as :func:`numerics._int_div`; unsigned 64-bit
  values stay exact here);
* Reciprocal, Rsqrt, Sqrt, Exp, Ln: one correct rounding of the exact result (machine setting
  ``div_sqrt_exp``: the hardware is within 1 ulp; every config algo of the pages is within that bound);
* fused multiply-add: MulAddDst, FusedMulAdd and MulAddRelu round once, as the Reg MulAddDst / MulDstAdd
  the Ascend 950 library runs them with (their Reg pages: one instruction, more precise than Mul + Add);
  Axpy follows the Reg Axpy's machine setting ``axpy_fused``;
* shifts follow the pages: unsigned logical, signed right shifts arithmetic, signed left shifts keep the
  sign bit; a shift of at least the bit width gives 0 (right shift of a negative value: -1).
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from toolkit.ascendc.dtypes import BF16
from toolkit.ascendc.numerics import elementwise, perturbable
from toolkit.ascendc.regbase import rounding

from .types import F32, F64, bits_view, is_float


def int_div(a: np.ndarray, b: np.ndarray, dt: np.dtype) -> np.ndarray:
    """C integer division (truncation toward zero), x / 0 = 0."""
    if dt.kind == "u":
        safe = np.where(b == 0, dt.type(1), b)
        return np.where(b == 0, dt.type(0), a // safe).astype(dt)
    a64, b64 = a.astype(np.int64), b.astype(np.int64)
    safe = np.where(b64 == 0, 1, b64)
    q = np.abs(a64) // np.abs(safe) * np.sign(a64) * np.sign(safe)
    return np.where(b64 == 0, 0, q).astype(dt)


def _correct(fn: Callable, dt: np.dtype) -> Callable:
    """One rounding of ``fn`` evaluated in float64 (exact enough for every float type here)."""
    def g(*a):
        return fn(*[x.astype(F64) for x in a]).astype(F32).astype(dt) if dt == BF16 else \
            fn(*[x.astype(F64) for x in a]).astype(dt)
    return g


def shift_left(x: np.ndarray, n: np.ndarray, dt: np.dtype) -> np.ndarray:
    bits = dt.itemsize * 8
    u = bits_view(dt)
    n = np.asarray(n).astype(np.int64)
    big = (n >= bits) | (n < 0)
    s = np.where(big, 0, n).astype(u)
    raw = x.view(u) if x.dtype == dt else x.astype(dt).view(u)
    out = (raw << s).astype(u)
    if dt.kind == "i":                      # the sign bit stays, the bit below it is the first one lost
        sign = u.type(1 << (bits - 1))
        out = (out & ~sign) | (raw & sign)
        out = np.where(big, raw & sign, out).astype(u)
    else:
        out = np.where(big, u.type(0), out).astype(u)
    return out.view(dt)


def shift_right(x: np.ndarray, n: np.ndarray, dt: np.dtype) -> np.ndarray:
    bits = dt.itemsize * 8
    n = np.asarray(n).astype(np.int64)
    big = (n >= bits) | (n < 0)
    s = np.where(big, 0, n)
    if dt.kind == "i":
        out = (x.astype(np.int64) >> s).astype(dt)
        return np.where(big, np.where(x < 0, dt.type(-1), dt.type(0)), out).astype(dt)
    out = (x >> s.astype(dt)).astype(dt)
    return np.where(big, dt.type(0), out).astype(dt)


def fma(a: np.ndarray, b: np.ndarray, c: np.ndarray, dt: np.dtype, fused: bool) -> np.ndarray:
    """a * b + c in ``dt``: one rounding when ``fused``, else the product rounded first."""
    if not is_float(dt):
        return (a.astype(dt) * b.astype(dt) + c.astype(dt)).astype(dt)
    if fused:                                     # one correct rounding (the Reg fma: round-to-odd float64)
        return rounding.fma(a.astype(dt), b.astype(dt), c.astype(dt), dt)
    mul, add = elementwise("mul", dt), elementwise("add", dt)
    return add(mul(a.astype(dt), b.astype(dt)), c.astype(dt))


def _bitwise(op: Callable) -> Callable:
    def g(a, b):
        dt = a.dtype
        u = bits_view(dt)
        return op(a.view(u), np.asarray(b).astype(dt).view(u) if np.ndim(b) else
                  np.array(b, dtype=dt).view(u)).view(dt)
    return g


def _not(a):
    u = bits_view(a.dtype)
    return (~a.view(u)).view(a.dtype)


def _leaky(dt: np.dtype) -> Callable:
    mul = elementwise("mul", dt)
    return lambda x, s: np.where(x >= 0, x, mul(x, s)).astype(dt)


def op(name: str, dt: np.dtype) -> Callable:
    """The element operator ``name`` for element type ``dt`` (see the module doc)."""
    if name in ("add", "sub", "mul", "max", "min", "abs", "neg", "sqrt", "exp", "ln", "relu"):
        return elementwise(name, dt)
    if name == "div":
        return elementwise("div", dt) if is_float(dt) else (lambda a, b: int_div(a, b, dt))
    if name == "reciprocal":
        return perturbable("RV_VREC", _correct(lambda x: 1.0 / x, dt)) if is_float(dt) else \
            (lambda x: int_div(np.ones_like(x), x, dt))
    if name == "rsqrt":
        return perturbable("RV_VRSQRT", _correct(lambda x: 1.0 / np.sqrt(x), dt))
    if name == "and":
        return _bitwise(np.bitwise_and)
    if name == "or":
        return _bitwise(np.bitwise_or)
    if name == "not":
        return _not
    if name == "shl":
        return lambda x, n: shift_left(x, n, dt)
    if name == "shr":
        return lambda x, n: shift_right(x, n, dt)
    if name == "leakyrelu":
        return _leaky(dt)
    if name == "prelu":
        mul = elementwise("mul", dt)
        return lambda x, a: np.where(x >= 0, x, mul(x, a)).astype(dt)
    raise KeyError(name)
