"""The 8- and 4-bit element types of Ascend 950 as host element types: dtypes, decoding and rounding encoders.

Storage (one numpy dtype per C type, all one byte wide, so UB views, moves and selects keep the bits):

* ``fp8_e4m3fn_t``, ``fp8_e5m2_t``, ``fp8_e8m0_t``: the ml_dtypes types ``float8_e4m3fn``, ``float8_e5m2``,
  ``float8_e8m0fnu`` (same bit layouts as the data-type page: e4m3fn has no infinity and one NaN per sign,
  S.1111.111; e5m2 is IEEE-like; e8m0 is 2**(E - 127) with 0xFF as NaN).
* ``hifloat8_t``: ml_dtypes has no HiFloat8, so it is a named one-byte record dtype and the values come from a
  256-entry table built here from the data-type page's dot-field rules (see ``_hif8_value``).
* ``fp4x2_e2m1_t``, ``fp4x2_e1m2_t``, ``int4x2_t``, ``int4b_t``: two 4-bit elements per byte (named one-byte
  record dtypes: a tensor's count is in bytes; the APIs' element counts are in 4-bit elements). Which nibble
  holds the first element is the machine setting ``[numerics] packed4_order`` ("low_first", assumed: the
  pages say only that two elements share a byte). fp4 e2m1's 16 values are ml_dtypes' ``float4_e2m1fn``; e1m2
  is not in ml_dtypes and is a 16-entry table (bias 1: the page's range 7 * 2**-2 fixes it; the page's
  generic bias formula would give bias 0 and a range of 3.5).

Encoding (``encode``) rounds over the sorted table of finite magnitudes, so every type and every round mode
(RINT: nearest, ties to the even code; ROUND: nearest, ties away from zero; FLOOR / CEIL / TRUNC) goes through
one routine. A value past the largest finite one overflows where the next step (one more ulp) would be taken:
to Inf (e5m2, hifloat8), to NaN (e4m3fn, no Inf), or to the largest finite value with ``saturate`` (then NaN
gives 0, the saturation mode of api-facts 8). fp4 and int4 have no Inf/NaN: they always saturate, NaN -> 0.
"""
from __future__ import annotations

import functools

import ml_dtypes
import numpy as np

FP8_E4M3FN = np.dtype(ml_dtypes.float8_e4m3fn)
FP8_E5M2 = np.dtype(ml_dtypes.float8_e5m2)
FP8_E8M0 = np.dtype(ml_dtypes.float8_e8m0fnu)
HIF8 = np.dtype([("hifloat8", "u1")])
FP4X2_E2M1 = np.dtype([("fp4x2_e2m1", "u1")])
FP4X2_E1M2 = np.dtype([("fp4x2_e1m2", "u1")])
INT4X2 = np.dtype([("int4x2", "u1")])
INT4B = np.dtype([("int4b", "u1")])

#: C spelling of each dtype (messages, type tags)
NAMES: dict[np.dtype, str] = {FP8_E4M3FN: "fp8_e4m3fn_t", FP8_E5M2: "fp8_e5m2_t", FP8_E8M0: "fp8_e8m0_t",
                              HIF8: "hifloat8_t", FP4X2_E2M1: "fp4x2_e2m1_t", FP4X2_E1M2: "fp4x2_e1m2_t",
                              INT4X2: "int4x2_t", INT4B: "int4b_t"}
BY_NAME = {v: k for k, v in NAMES.items()}
PACKED4 = frozenset({FP4X2_E2M1, FP4X2_E1M2, INT4X2, INT4B})
FLOAT8 = frozenset({FP8_E4M3FN, FP8_E5M2, FP8_E8M0, HIF8})


def is_low(dt: np.dtype) -> bool:
    """One of the 8- / 4-bit types of this module."""
    return dt in NAMES


def _hif8_value(code: int) -> float:
    """HiFloat8 value of ``code`` by the data-type page: sign S, then the dot field D (a prefix code: 11, 10,
    01 are two bits, 001 three, 0001 / 0000 four), then E (D=11: 4 bits, 10: 3, 01: 2, 001: 1, 0001/0000: 0)
    and M (the rest). E's top bit is the exponent's sign; its magnitude is the other E bits with a leading 1
    (a 1-bit E is +-1). Normal: (-1)**S * 2**Ev * (1 + M / 2**len(M)). D=0000 is the subnormal range
    (-1)**S * 2**(M - 23). Specials (the page's figure of special values, as in the HiF8 format): 0x00 zero,
    0x80 NaN, S.11.0111.1 (0x6F / 0xEF) +-Inf."""
    s = -1.0 if code & 0x80 else 1.0
    rest = code & 0x7F
    if rest == 0:
        return float("nan") if s < 0 else 0.0
    if rest == 0x6F:
        return s * float("inf")
    for prefix, plen, ebits in ((0b11, 2, 4), (0b10, 2, 3), (0b01, 2, 2), (0b001, 3, 1), (0b0001, 4, 0)):
        if rest >> (7 - plen) == prefix:
            break
    else:                                                 # D = 0000: subnormal
        return s * 2.0 ** ((rest & 7) - 23)
    mbits = 7 - plen - ebits
    e = (rest >> mbits) & ((1 << ebits) - 1)
    m = rest & ((1 << mbits) - 1)
    if ebits == 0:
        ev = 0
    else:
        mag = (e & ((1 << (ebits - 1)) - 1)) | (1 << (ebits - 1))
        ev = -mag if e >> (ebits - 1) else mag
    return s * 2.0 ** ev * (1 + m / 2 ** mbits)


def _e1m2_value(code: int) -> float:
    """fp4 e1m2 (S, 1-bit E, 2-bit M, bias 1): E=0 subnormal M/4, E=1 normal 1 + M/4; no Inf / NaN."""
    s = -1.0 if code & 8 else 1.0
    e, m = (code >> 2) & 1, code & 3
    return s * ((1 + m / 4) if e else m / 4)


@functools.lru_cache(maxsize=None)
def table(dt: np.dtype) -> np.ndarray:
    """float64 value of every code of ``dt`` (256 entries; 16 for the packed 4-bit types)."""
    if dt == HIF8:
        return np.array([_hif8_value(c) for c in range(256)])
    if dt == FP4X2_E1M2:
        return np.array([_e1m2_value(c) for c in range(16)])
    if dt == FP4X2_E2M1:
        return np.arange(16, dtype=np.uint8).view(ml_dtypes.float4_e2m1fn).astype(np.float64)
    if dt in (INT4X2, INT4B):
        return np.array([c - 16 if c >= 8 else c for c in range(16)], dtype=np.float64)
    return np.arange(256, dtype=np.uint8).view(dt).astype(np.float64)


def decode(codes: np.ndarray, dt: np.dtype) -> np.ndarray:
    """float64 values of element codes (uint8; 4-bit codes for the packed types)."""
    return table(dt)[np.asarray(codes, dtype=np.uint8)]


@functools.lru_cache(maxsize=None)
def _grid(dt: np.dtype) -> tuple[np.ndarray, np.ndarray, float]:
    """(sorted finite non-negative magnitudes, their codes, the overflow step past the largest)."""
    t = table(dt)
    codes = np.arange(t.size)
    keep = np.isfinite(t) & (t >= 0) & ~np.signbit(t)
    mags, cs = t[keep], codes[keep]
    order = np.argsort(mags, kind="stable")
    mags, cs = mags[order], cs[order]
    uniq = np.concatenate(([True], np.diff(mags) > 0))
    mags, cs = mags[uniq], cs[uniq]
    # the overflow step: where the Inf / NaN code would sit as a finite value (e5m2: 2**16, e4m3fn: 480);
    # for hifloat8 the Inf code S.11.0111.1 reads as 1.5 * 2**15, so values from 1.25 * 2**15 overflow
    step = 1.5 * 2.0 ** 15 if dt == HIF8 else mags[-1] + (mags[-1] - mags[-2])
    return mags, cs, step


def _specials(dt: np.dtype) -> tuple[int | None, int | None, int]:
    """(code of +Inf or None, code of NaN or None, sign bit) of ``dt``."""
    t = table(dt)
    inf = np.flatnonzero(np.isposinf(t))
    nan = np.flatnonzero(np.isnan(t))
    sign = 0 if dt == FP8_E8M0 else (8 if dt in PACKED4 else 0x80)
    if dt == FP8_E5M2:
        nan = np.array([0x7E])            # the quiet NaN (top mantissa bit set, the page's qNaN) of e5m2
    return (int(inf[0]) if inf.size else None), (int(nan[0]) if nan.size else None), sign


def encode(x: np.ndarray, dt: np.dtype, mode: str = "RINT", saturate: bool = False) -> np.ndarray:
    """Codes (uint8) of ``x`` rounded to ``dt`` with ``mode`` (RINT / ROUND / FLOOR / CEIL / TRUNC; NONE = RINT)."""
    if dt in (INT4X2, INT4B):
        raise ValueError("encode: int4 is an integer type (use the float -> integer rounding)")
    x = np.asarray(x, dtype=np.float64)
    mags, cs, step = _grid(dt)
    inf_code, nan_code, sign = _specials(dt)
    a = np.abs(x)
    neg = np.signbit(x) & (sign != 0)
    fin = np.where(np.isfinite(a), a, 0.0)
    lo = np.clip(np.searchsorted(mags, fin, side="right") - 1, 0, mags.size - 1)
    hi_val = np.where(lo + 1 < mags.size, mags[np.minimum(lo + 1, mags.size - 1)], step)
    lo_val = mags[lo]
    exact = fin == lo_val
    # the magnitude rounding that each mode makes (towards -inf for a negative x means away from zero)
    up_dir = {"FLOOR": neg, "CEIL": ~neg, "TRUNC": np.zeros_like(neg)}
    if mode in up_dir:
        up = up_dir[mode] & ~exact
    else:
        mid = (lo_val + hi_val) / 2
        odd_lo = (cs[lo] & 1) == 1
        tie_up = np.ones_like(neg) if mode == "ROUND" else odd_lo
        up = (fin > mid) | ((fin == mid) & tie_up)
    over = up & (lo + 1 >= mags.size)
    code = np.where(up, cs[np.minimum(lo + 1, mags.size - 1)], cs[lo]).astype(np.int64)
    big = np.isinf(a) | over
    if not saturate and sign != 8:
        code = np.where(big, inf_code if inf_code is not None else nan_code, code)
    else:
        code = np.where(big, cs[-1], code)
    code = np.where(neg & ((code != 0) | (dt != HIF8)), code | sign, code)
    if dt == FP8_E8M0:
        code = np.where(np.signbit(x) & (x != 0), nan_code, code)
    nan_out = nan_code if (nan_code is not None and not saturate) else 0
    return np.where(np.isnan(x), nan_out, code).astype(np.uint8)


def order(machine=None) -> str:
    """Element order of the packed 4-bit types: "low_first" (element 2k in bits 0-3) or "high_first"."""
    if machine is None:
        from toolkit.engine.runtime import current
        machine = current().machine
    return machine.params["numerics"].get("packed4_order", "low_first")


def unpack4(b: np.ndarray, first: str = "low_first") -> np.ndarray:
    """4-bit codes of packed bytes, in element order (twice as many as bytes)."""
    b = np.asarray(b, dtype=np.uint8)
    lo, hi = b & 0xF, b >> 4
    pair = (lo, hi) if first == "low_first" else (hi, lo)
    return np.stack(pair, axis=-1).reshape(*b.shape[:-1], b.shape[-1] * 2)


def pack4(c: np.ndarray, first: str = "low_first") -> np.ndarray:
    """Packed bytes of 4-bit codes in element order (an even count)."""
    c = np.asarray(c, dtype=np.uint8) & 0xF
    a, b = c[..., 0::2], c[..., 1::2]
    return ((a | (b << 4)) if first == "low_first" else ((a << 4) | b)).astype(np.uint8)


def hif8_hybrid(x: np.ndarray, saturate: bool = False) -> np.ndarray:
    """hifloat8 codes of float32 / half ``x`` under CAST_HYBRID, the Reg Cast page's bit rule: where the result
    keeps few mantissa bits (|Ev| in [4, 15], the subnormal range Ev in [-23, -16]) it rounds up when the 14
    (half: 2) bits from the first dropped bit down are >= the source's own lowest 14 bits (half: {bit 0, 1});
    elsewhere (|Ev| <= 3) it rounds half away from zero, as CAST_ROUND. Half subnormal sources (below the rule's
    exponent range) round as CAST_ROUND (assumed)."""
    x = np.asarray(x)
    f32 = x.dtype == np.float32
    u = x.view(np.uint32 if f32 else np.uint16).astype(np.int64)
    man = 23 if f32 else 10
    ev = ((u >> man) & (0xFF if f32 else 0x1F)) - (127 if f32 else 15)
    x64 = x.astype(np.float64)
    base = encode(x64, HIF8, "ROUND", saturate)
    down = encode(x64, HIF8, "TRUNC", saturate)
    up_code = encode(np.abs(x64), HIF8, "CEIL", saturate)
    up_code = np.where(np.signbit(x64) & (up_code != 0), up_code | 0x80, up_code)
    mb = np.where(np.abs(ev) <= 7, 2, 1)                          # mantissa bits kept for |Ev| in [4, 15]
    ta = np.where(ev < -15, man - 1, man - 1 - mb)                # the first dropped bit
    if f32:
        width, thr = 14, u & 0x3FFF
    else:
        width, thr = 2, ((u & 1) << 1) | 1
    lo_shift = np.maximum(ta - width + 1, 0)
    frac = (u >> lo_shift) & ((1 << width) - 1)
    frac = np.where(ev == -23, (1 << (width - 1)) | ((u >> (man - width + 1)) & ((1 << (width - 1)) - 1)), frac)
    hybrid = ((np.abs(ev) >= 4) & (np.abs(ev) <= 15)) | ((ev >= -23) & (ev <= -16))
    if not f32:
        hybrid &= ev > -15
    chosen = np.where(frac >= thr, up_code, down)
    return np.where(hybrid & np.isfinite(x64), chosen, base).astype(np.uint8)


def e8m0_from_bf16(bits: np.ndarray) -> np.ndarray:
    """fp8_e8m0_t codes of bfloat16 bit patterns (Reg Cast page): the exponent field, sign and mantissa
    dropped (the data-type page's definition); +-Inf -> 0xFE (the largest), NaN -> 0xFF."""
    b = np.asarray(bits).astype(np.int64)
    e = (b >> 7) & 0xFF
    nan = (e == 0xFF) & ((b & 0x7F) != 0)
    return np.where(nan, 0xFF, np.where(e == 0xFF, 0xFE, e)).astype(np.uint8)


def to_int4(x: np.ndarray, mode: str = "RINT") -> np.ndarray:
    """4-bit two's-complement codes of ``x`` (integers saturate; floats round with ``mode``, NaN -> 0)."""
    x64 = np.asarray(x).astype(np.float64)
    if np.asarray(x).dtype.kind != "i":
        r = {"FLOOR": np.floor, "CEIL": np.ceil, "TRUNC": np.trunc,
             "ROUND": lambda v: np.sign(v) * np.floor(np.abs(v) + 0.5)}.get(mode, np.rint)(x64)
        x64 = np.where(np.isnan(r), 0.0, r)
    return (np.clip(x64, -8, 7).astype(np.int64) & 0xF).astype(np.uint8)


def encode_from(x: np.ndarray, dst: np.dtype, mode: str, saturate: bool) -> np.ndarray:
    """Element codes (uint8; 4-bit codes for the packed types) of the half / float / bfloat16 / int16 array
    ``x`` converted to ``dst`` with round mode ``mode`` (NONE / UNKNOWN = RINT; HYBRID for hifloat8)."""
    if dst in (INT4B, INT4X2):
        return to_int4(x, mode)
    if dst == HIF8 and mode == "HYBRID":
        return hif8_hybrid(x if x.dtype in (np.float32, np.float16) else x.astype(np.float32), saturate)
    if dst == FP8_E8M0:
        return e8m0_from_bf16(np.asarray(x).astype(ml_dtypes.bfloat16).view(np.uint16))
    mode = "RINT" if mode in ("NONE", "UNKNOWN", "ODD") else mode
    return encode(np.asarray(x).astype(np.float64), dst, mode, saturate)


def decode_to(c: np.ndarray, src: np.dtype, dst: np.dtype) -> np.ndarray:
    """``dst`` values of element codes ``c`` of ``src`` (every documented conversion out of a low type is
    exact: the values fit the wider type)."""
    v = decode(c, src)
    if dst == np.dtype(ml_dtypes.bfloat16):
        return v.astype(np.float32).astype(dst)
    return v.astype(dst)
