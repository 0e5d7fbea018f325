"""Bit-faithful element math shared by both backends: conversions with rounding modes, tree reductions,
and the element-wise operators (bf16 computed in fp32 then rounded with RINT).

Choices where the hardware is unconfirmed are machine-model settings ([numerics] in the machine file).
"""
from __future__ import annotations

import contextlib
import functools
import zlib
from dataclasses import dataclass
from typing import Callable, Iterator

import numpy as np

from .dtypes import BF16

F32 = np.dtype(np.float32)
F16 = np.dtype(np.float16)


def is_floating(dt: np.dtype) -> bool:
    return dt == BF16 or dt.kind == "f"


def _f32_to_bf16_directed(x: np.ndarray, mode: str) -> np.ndarray:
    """f32 -> bf16 with a directed/away rounding on the top 16 bits of the f32 encoding."""
    bits = x.astype(F32).view(np.uint32)
    low = bits & 0xFFFF
    neg = (bits >> 31).astype(bool)
    top = (bits >> 16).astype(np.uint32)
    if mode == "TRUNC":
        out = top
    elif mode == "ROUND":
        out = (bits + 0x8000) >> 16
    elif mode == "FLOOR":
        out = top + ((low != 0) & neg)
    elif mode == "CEIL":
        out = top + ((low != 0) & ~neg)
    else:
        raise ValueError(mode)
    nan = np.isnan(x)
    out = np.where(nan, top | 0x0040, out)
    return out.astype(np.uint16).view(BF16)


def _to_f16_directed(x: np.ndarray, mode: str) -> np.ndarray:
    r = x.astype(F16)
    r64, x64 = r.astype(np.float64), x.astype(np.float64)
    if mode == "FLOOR":
        return np.where(r64 > x64, np.nextafter(r, F16.type(-np.inf)), r)
    if mode == "CEIL":
        return np.where(r64 < x64, np.nextafter(r, F16.type(np.inf)), r)
    if mode == "TRUNC":
        return np.where(np.abs(r64) > np.abs(x64), np.nextafter(r, F16.type(0)), r)
    if mode == "ROUND":
        lo = np.where(r64 > x64, np.nextafter(r, F16.type(-np.inf)), r)
        hi = np.where(r64 < x64, np.nextafter(r, F16.type(np.inf)), r)
        dlo, dhi = x64 - lo.astype(np.float64), hi.astype(np.float64) - x64
        away = np.where(x64 >= 0, hi, lo)
        return np.where(dlo < dhi, lo, np.where(dhi < dlo, hi, away)).astype(F16)
    raise ValueError(mode)


def _round_to_odd(x: np.ndarray, dst: np.dtype) -> np.ndarray:
    """CAST_ODD: truncate toward zero, then set the last mantissa bit if the result is inexact."""
    t = _f32_to_bf16_directed(x, "TRUNC") if dst == BF16 else _to_f16_directed(x, "TRUNC")
    bits = t.view(np.uint16)
    inexact = (t.astype(np.float64) != x.astype(np.float64)) & np.isfinite(x) & np.isfinite(t.astype(np.float64))
    return np.where(inexact, bits | 1, bits).astype(np.uint16).view(dst)


def _float_to_int(x: np.ndarray, dt: np.dtype, mode: str) -> np.ndarray:
    x64 = x.astype(np.float64)
    if mode in ("RINT", "NONE"):
        r = np.rint(x64)
    elif mode == "FLOOR":
        r = np.floor(x64)
    elif mode == "CEIL":
        r = np.ceil(x64)
    elif mode == "ROUND":
        r = np.sign(x64) * np.floor(np.abs(x64) + 0.5)
    elif mode == "TRUNC":
        r = np.trunc(x64)
    else:
        raise ValueError(mode)
    info = np.iinfo(dt)
    r = np.where(np.isnan(r), 0, np.clip(r, info.min, info.max))   # CTRL[59]=0: saturating
    return r.astype(dt)


def bf16_to_f32(x: np.ndarray) -> np.ndarray:
    """bfloat16 -> float32 exactly: a bfloat16 is the upper half of the float32 with the same bits (NaN
    payloads included), so the bits are shifted (ml_dtypes' element loop is ~5x slower)."""
    return (x.view(np.uint16).astype(np.uint32) << 16).view(F32)


def convert(x: np.ndarray, dst: np.dtype, mode: str = "RINT", overflow: str = "inf_nan") -> np.ndarray:
    """Convert ``x`` to ``dst`` with rounding ``mode`` (RINT/FLOOR/CEIL/ROUND/TRUNC/NONE/ODD)."""
    src = x.dtype
    if src == dst:
        return x.copy()
    if is_floating(dst) and is_floating(src):
        widening = dst.itemsize > src.itemsize or (dst == F32)
        if widening and src.itemsize <= 2:
            y = bf16_to_f32(x) if src == BF16 else x.astype(F32)
            return y if dst == F32 else y.astype(dst)
        xf = x.astype(F32)
        if mode == "ODD" and dst in (BF16, F16):
            out = _round_to_odd(xf, dst)
        elif dst == BF16:
            out = xf.astype(BF16) if mode in ("RINT", "NONE") else _f32_to_bf16_directed(xf, mode)
        elif dst == F16:
            out = xf.astype(F16) if mode in ("RINT", "NONE") else _to_f16_directed(xf, mode)
        else:
            out = xf.astype(dst)
        if overflow == "saturate":
            big = float(np.finfo(np.float32).max if dst == F32 else (3.3895314e38 if dst == BF16 else 65504.0))
            f = out.astype(F32)
            out = np.where(np.isnan(f), 0, np.clip(f, -big, big)).astype(dst)
        return out
    if is_floating(src) and dst.kind in "iu":
        return _float_to_int(x, dst, mode)
    if src.kind in "iu" and is_floating(dst):
        return x.astype(np.float64).astype(dst) if dst != BF16 else x.astype(np.float64).astype(F32).astype(BF16)
    return x.astype(dst)


def tree_reduce(values: np.ndarray, op: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> np.ndarray:
    """Adjacent-pair binary tree over the last axis (length a power of two): level 1 combines (x0,x1),
    (x2,x3), ...; level 2 combines adjacent level-1 results; and so on. Returns shape[:-1]."""
    v = values
    while v.shape[-1] > 1:
        v = op(v[..., 0::2], v[..., 1::2])
    return v[..., 0]


def _bf16_wrap(fn: Callable) -> Callable:
    def g(*args):
        return fn(*[a.astype(F32) if isinstance(a, np.ndarray) and a.dtype == BF16 else a for a in args]).astype(BF16)
    return g


@functools.lru_cache(maxsize=None)
def elementwise(name: str, dt: np.dtype) -> Callable:
    """The element-wise operator ``name`` for dtype ``dt`` (bf16 computed in fp32, rounded RINT); one
    function per (name, dtype), made on first use."""
    fn = _OPS[name]
    if name == "div" and dt.kind in "iu":
        return lambda a, b: _int_div(a, b, dt)
    if dt == BF16:
        fn = _bf16_wrap(fn)
    return perturbable(_OPCODE[name], fn) if name in _OPCODE else fn


def _int_div(a: np.ndarray, b: np.ndarray, dt: np.dtype) -> np.ndarray:
    """C integer division: the quotient truncates toward zero (x / 0 gives 0 here)."""
    a64, b64 = a.astype(np.int64), b.astype(np.int64)
    safe = np.where(b64 == 0, 1, b64)
    q = np.abs(a64) // np.abs(safe) * np.sign(a64) * np.sign(safe)
    return np.where(b64 == 0, 0, q).astype(dt)


def _div(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.divide(a, b)


#: unsigned view of a float width, and the bits of -0.0 in it
_UBITS = {2: np.dtype(np.uint16), 4: np.dtype(np.uint32), 8: np.dtype(np.uint64)}
_SIGN = {2: 0x8000, 4: 0x80000000, 8: 1 << 63}


def _has_bits(r: np.ndarray, bits: int) -> bool:
    """Whether some element of the float array ``r`` has exactly the encoding ``bits`` (one compare and a
    bytes scan: the signed-zero fix-ups below are rarely needed and must not cost a numpy where each)."""
    u = _UBITS.get(r.dtype.itemsize)
    return u is None or 1 in (r.view(u) == bits).tobytes()


def _fmax(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Max propagating NaN; max(+0, -0) = +0."""
    r = np.maximum(a, b)
    # only a -0 result can be wrong (a +0 is right whatever the other zero's sign): skip the fix-up without one
    if r.dtype.kind == "f" and _has_bits(r, _SIGN.get(r.dtype.itemsize, 0)):
        zero = (a == 0) & (b == 0)
        if zero.any():
            r = np.where(zero, np.where(np.signbit(a) & np.signbit(b), a, np.abs(a)), r)
    return r


def _fmin(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Min propagating NaN; min(+0, -0) = -0 (UNCONFIRMED for element-wise Min; docs state it for Reduce)."""
    r = np.minimum(a, b)
    # only a +0 result can be wrong (a -0 is right whatever the other zero's sign): skip the fix-up without one
    if r.dtype.kind == "f" and _has_bits(r, 0):
        zero = (a == 0) & (b == 0)
        if zero.any():
            r = np.where(zero, np.where(np.signbit(a) | np.signbit(b), -np.abs(a), a), r)
    return r


_OPS: dict[str, Callable] = {
    "add": np.add, "sub": np.subtract, "mul": np.multiply, "div": _div,
    "max": _fmax, "min": _fmin, "sqrt": np.sqrt, "exp": np.exp, "abs": np.abs, "neg": np.negative,
    "relu": lambda x: np.maximum(x, x.dtype.type(0)), "ln": np.log,
}


#: the element operators that are hardware instructions the precision envelope perturbs
_OPCODE = {"div": "RV_VDIV", "sqrt": "RV_VSQRT", "exp": "RV_VEXP", "ln": "RV_VLN"}


def type_min(dt: np.dtype):
    if is_floating(dt):
        return dt.type(-np.inf)
    return np.iinfo(dt).min


def type_max(dt: np.dtype):
    if is_floating(dt):
        return dt.type(np.inf)
    return np.iinfo(dt).max


# -- the precision envelope: a machine whose special-function results are off by a few ulps -------------------
#: the opcodes whose results the envelope perturbs (each has an ulp bound in the machine file's [envelope])
PERTURBABLE = ("RV_VDIV", "RV_VSQRT", "RV_VEXP", "RV_VLN", "RV_VRSQRT", "RV_VREC", "RV_VEXPSUB")


@dataclass(frozen=True)
class Perturbation:
    """Every float result of an opcode of ``ulps`` moved by up to ``ulps[opcode]`` units in the last place of
    its type, away from the correctly rounded value the emulator computes. ``direction`` "up" / "down"
    moves every result by the whole bound toward +inf / -inf; "hash" by an amount in -k..+k drawn per
    element from a hash of (``seed``, opcode, the element's input bits): a deterministic unit, the same
    whatever the core batching, the order of the calls or the route (Python port or ``.asc``). Zeros,
    infinities and NaNs are kept, a nudge never crosses zero or overflows, and with ``keep_exact`` a result
    that is exact (x / 1, sqrt(4), exp(0)) is kept too."""

    ulps: tuple[tuple[str, int], ...]
    direction: str = "hash"
    seed: int = 0
    keep_exact: bool = True

    def bound(self, opcode: str) -> int:
        return dict(self.ulps).get(opcode, 0)

    def to_json(self) -> dict:
        return {"ulps": [list(u) for u in self.ulps], "direction": self.direction, "seed": self.seed,
                "keep_exact": self.keep_exact}

    @classmethod
    def from_json(cls, d: dict) -> Perturbation:
        return cls(tuple((str(op), int(k)) for op, k in d["ulps"]), str(d["direction"]), int(d["seed"]),
                   bool(d["keep_exact"]))


#: the perturbation in force (None: the correctly rounded machine, the default)
_ACTIVE: list[Perturbation | None] = [None]


def set_perturbation(p: Perturbation | None) -> Perturbation | None:
    """Put ``p`` in force (None: none); returns the one it replaces."""
    old, _ACTIVE[0] = _ACTIVE[0], p
    return old


@contextlib.contextmanager
def perturbed(p: Perturbation | None) -> Iterator[None]:
    old = set_perturbation(p)
    try:
        yield
    finally:
        set_perturbation(old)


_M1, _M2 = np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB)


def _mix(h: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser, element-wise on uint64 (wrapping)."""
    h = (h ^ (h >> np.uint64(30))) * _M1
    h = (h ^ (h >> np.uint64(27))) * _M2
    return h ^ (h >> np.uint64(31))


def _input_hash(p: Perturbation, opcode: str, shape: tuple, inputs: tuple) -> np.ndarray:
    start = zlib.crc32(f"{p.seed}:{opcode}".encode()) | (int(p.seed) & 0xFFFFFFFF) << 32
    h = _mix(np.full(shape, start, np.uint64))
    for x in inputs:
        x = np.asarray(x)
        u = _UBITS.get(x.dtype.itemsize)
        bits = x.view(u) if u is not None else x.astype(np.float64).view(np.uint64)
        h = _mix(h ^ np.broadcast_to(bits, shape).astype(np.uint64))
    return h


def _exact(opcode: str, r: np.ndarray, inputs: tuple) -> np.ndarray | bool:
    """Where ``r`` is the exact result (checked in float64, exact for these products of narrower floats)."""
    x = [np.asarray(v).astype(np.float64) for v in inputs]
    r64 = r.astype(np.float64)
    with np.errstate(all="ignore"):
        if opcode == "RV_VDIV" and len(x) == 2:
            return r64 * x[1] == x[0]
        if opcode == "RV_VSQRT":
            return r64 * r64 == x[0]
        if opcode == "RV_VREC":
            return r64 * x[0] == 1.0
        if opcode == "RV_VRSQRT":
            return r64 * r64 * x[0] == 1.0
        if opcode == "RV_VEXP":
            return x[0] == 0.0
        if opcode == "RV_VEXPSUB" and len(x) == 2:
            return x[0] - x[1] == 0.0
    return False


def perturbable(opcode: str, fn: Callable) -> Callable:
    """``fn`` (the correctly rounded result of ``opcode``) with the perturbation in force applied to its result."""
    def g(*args):
        r = fn(*args)
        return r if _ACTIVE[0] is None else nudge(opcode, r, *args)
    return g


def nudge(opcode: str, result: np.ndarray, *inputs: np.ndarray) -> np.ndarray:
    """``result`` of ``opcode`` on ``inputs`` as the perturbation in force makes it (unchanged without one)."""
    p = _ACTIVE[0]
    if p is None:
        return result
    k = p.bound(opcode)
    dt = result.dtype
    if k <= 0 or not is_floating(dt) or dt.itemsize not in (2, 4):
        return result
    shape = result.shape
    if p.direction == "hash":
        n = (_input_hash(p, opcode, shape, inputs) % np.uint64(2 * k + 1)).astype(np.int64) - k
    else:
        n = np.full(shape, k if p.direction == "up" else -k, np.int64)
    u = _UBITS[dt.itemsize]
    bits = result.view(u).astype(np.int64)
    sign = _SIGN[dt.itemsize]
    mag = bits & (sign - 1)
    neg = (bits & sign) != 0
    inf = int(np.array(np.inf, np.float32).astype(dt).view(u)) & (sign - 1)
    moved = mag + np.where(neg, -n, n)                    # toward +inf: a larger magnitude when positive
    ok = (mag > 0) & (mag < inf) & (moved > 0) & (moved < inf)
    if p.keep_exact:
        ok &= ~np.asarray(_exact(opcode, result, inputs))
    out = np.where(ok, moved | np.where(neg, sign, 0), bits)
    return out.astype(u).view(dt)
