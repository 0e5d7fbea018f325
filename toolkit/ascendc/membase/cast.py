"""MemBase ``Cast(dst, src, RoundMode, count)`` and its level-0 form, and ``Truncate<T, RoundMode>``
(api-facts 8, 14; the Ascend 950 table of type pairs and round modes on the Cast page).

On Ascend 950 one VF converts 256/sizeof(wider type) elements per VL chunk: narrow -> wide loads unpack
(DIST_UNPACK_B8/B16/B32, DIST_UNPACK4_B8 for 8 -> 32 bit), wide -> narrow stores pack (DIST_PACK_B16/B32/
B64, DIST_PACK4_B32). Level-0 masks count lanes of the wider type. A pair or mode the table does not
list is a BAD_PARAMETER diagnostic.

Conversion rules (the reference's precision-conversion page): CAST_NONE is RINT where the conversion is
inexact; out-of-range values saturate (integers; float -> int: NaN gives 0); float -> float of one type
rounds to an integral value; int32 -> half is the dequantisation ``half(x * DEQSCALE)`` (SetDeqScale,
round mode ignored). Saturation of float -> bf16/half follows the machine setting
``float_to_bf16_overflow``. half -> bf16 converts the value with the round mode (assumed: the
conversion page's example rounds to an integral value, which the Reg Cast page does not; we follow the
type semantics). The 8- / 4-bit types (int4b_t, fp4x2_*, fp8_*, hifloat8_t): :mod:`.cast_low`. Not
modelled: complex.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from toolkit.ascendc import lowfloat as lf
from toolkit.ascendc.dtypes import BF16
from toolkit.ascendc.numerics import convert, is_floating
from toolkit.ascendc.regbase.types import RoundMode
from toolkit.ascendc.tensor import LocalTensor
from toolkit.engine.runtime import current

from . import cast_low
from .elementwise import Level0, MemBaseApi, check_dtype, parse_form, run, type_name
from .params import UnaryRepeatParams
from .types import F16, F32, F64, I16, I32, dts

R = RoundMode
_DIRECTED = frozenset({R.CAST_RINT, R.CAST_FLOOR, R.CAST_CEIL, R.CAST_ROUND, R.CAST_TRUNC})
_NONE = frozenset({R.CAST_NONE})


def _pairs(text: str, modes: frozenset) -> dict:
    out = {}
    for item in text.split(","):
        s, d = item.split()
        out[(dts(s)[0], dts(d)[0])] = modes
    return out


#: (src, dst) -> accepted round modes on Ascend 950 (the Cast page's table, modelled types only)
ALLOWED: dict[tuple[np.dtype, np.dtype], frozenset] = {
    **_pairs("int8_t int16_t, int8_t half, int8_t int32_t, uint8_t uint16_t, uint8_t half, uint8_t uint32_t, "
             "int16_t uint8_t, int16_t int32_t, int16_t uint32_t, int16_t float, uint16_t uint8_t, "
             "uint16_t uint32_t, half float, bfloat16_t float, int32_t uint8_t, int32_t int16_t, "
             "int32_t uint16_t, int32_t int64_t, uint32_t uint8_t, uint32_t int16_t, uint32_t uint16_t, "
             "int64_t int32_t", _NONE),
    **_pairs("int16_t half, half int8_t, half uint8_t, half int16_t, half bfloat16_t, half int32_t, "
             "bfloat16_t half, bfloat16_t int32_t, int32_t float, float int16_t, float bfloat16_t, "
             "float int32_t, float float, float int64_t, int64_t float, int64_t double, double bfloat16_t, "
             "double float", _DIRECTED),
    (F32, F16): _DIRECTED | {R.CAST_ODD, R.CAST_NONE},
    (I32, F32): _DIRECTED | {R.CAST_NONE},            # NONE (RINT) kept as the library accepts it (api-facts 14)
    (I32, F16): frozenset(RoundMode),                 # dequantisation: the mode is ignored
    **_pairs("double int32_t, double int64_t", frozenset({R.CAST_TRUNC})),
}
#: pairs the page allows in the count form only
COUNT_ONLY = {(s, d) for (s, d) in ALLOWED if F64 in (s, d)}


def _directed_to_float(x64: np.ndarray, dt: np.dtype, mode: str) -> np.ndarray:
    """Exact values ``x64`` (float64) rounded to float type ``dt`` with a directed / away mode."""
    r = x64.astype(dt)
    rf = r.astype(np.float64)
    down = np.nextafter(r, dt.type(-np.inf))
    up = np.nextafter(r, dt.type(np.inf))
    if mode == "FLOOR":
        return np.where(rf > x64, down, r)
    if mode == "CEIL":
        return np.where(rf < x64, up, r)
    if mode == "TRUNC":
        return np.where(np.abs(rf) > np.abs(x64), np.where(x64 > 0, down, up), r)
    if mode == "ROUND":                            # nearest, ties away from zero
        lo = np.where(rf > x64, down, r)
        hi = np.where(rf < x64, up, r)
        dlo, dhi = x64 - lo.astype(np.float64), hi.astype(np.float64) - x64
        return np.where(dlo < dhi, lo, np.where(dhi < dlo, hi, np.where(x64 >= 0, hi, lo))).astype(dt)
    return r


def _f32_to_f16_odd(x: np.ndarray) -> np.ndarray:
    """Round to odd: truncate, then set the last mantissa bit if the result is inexact."""
    x64 = x.astype(np.float64)
    t = _directed_to_float(x64, F16, "TRUNC")
    finite = np.isfinite(t) & np.isfinite(x64)
    inexact = finite & (t.astype(np.float64) != x64)
    return (t.view(np.uint16) | inexact.astype(np.uint16)).view(F16)


def _to_integral(x: np.ndarray, mode: str) -> np.ndarray:
    """float -> the same float type, rounded to an integral value (float -> float, Truncate)."""
    x64 = x.astype(np.float64)
    r = {"FLOOR": np.floor, "CEIL": np.ceil, "TRUNC": np.trunc,
         "ROUND": lambda v: np.sign(v) * np.floor(np.abs(v) + 0.5)}.get(mode, np.rint)(x64)
    return np.where(np.isfinite(x64), r, x64).astype(x.dtype)


def _to_int(x: np.ndarray, dst: np.dtype, mode: str) -> np.ndarray:
    """float -> integer with ``mode``, saturating, NaN -> 0 (exact at the 64-bit limits)."""
    x64 = x.astype(np.float64)
    r = {"FLOOR": np.floor, "CEIL": np.ceil, "TRUNC": np.trunc,
         "ROUND": lambda v: np.sign(v) * np.floor(np.abs(v) + 0.5)}.get(mode, np.rint)(x64)
    info = np.iinfo(dst)
    lo, hi = float(info.min), float(info.max)
    out = np.where(np.isnan(r), 0, np.clip(r, lo, hi))
    big = out >= hi                                 # float(int64 max) rounds up to 2**63
    return np.where(big, info.max, np.where(out <= lo, info.min, out).astype(dst)).astype(dst)


def _int_to_float(x: np.ndarray, dst: np.dtype, mode: str) -> np.ndarray:
    """integer -> float with ``mode`` (exact for 64-bit sources: decided on Python integers)."""
    if mode == "RINT":
        return x.astype(dst) if dst != BF16 else x.astype(F32).astype(BF16)
    if x.dtype.itemsize < 8:
        return _directed_to_float(x.astype(np.float64), dst, mode)
    r = x.astype(dst)
    back = np.array([int(v) for v in r.astype(np.float64).ravel()], dtype=object).reshape(r.shape) if r.size else \
        np.zeros(r.shape, object)
    exact = x.astype(object)
    down, up = np.nextafter(r, dst.type(-np.inf)), np.nextafter(r, dst.type(np.inf))
    above, below = back > exact, back < exact
    if mode == "FLOOR":
        return np.where(above, down, r)
    if mode == "CEIL":
        return np.where(below, up, r)
    if mode == "TRUNC":
        return np.where(above & (exact > 0), down, np.where(below & (exact < 0), up, r))
    return r                                        # ROUND: the RINT result (ties are far below 2**53 apart)


def _int_to_int(x: np.ndarray, dst: np.dtype) -> np.ndarray:
    info = np.iinfo(dst)
    if x.dtype.kind == "u":
        return np.minimum(x, x.dtype.type(min(info.max, np.iinfo(x.dtype).max))).astype(dst)
    lo = max(info.min, np.iinfo(x.dtype).min)
    hi = min(info.max, np.iinfo(x.dtype).max)
    return np.clip(x, x.dtype.type(lo), x.dtype.type(hi)).astype(dst)


def cast_values(x: np.ndarray, dst: np.dtype, mode: RoundMode, overflow: str, deq_scale: float = 1.0) -> np.ndarray:
    """Convert ``x`` to ``dst`` as the Ascend 950 Cast does for round mode ``mode``."""
    src = x.dtype
    if mode == R.CAST_ODD and src == F32 and dst == F16:
        return _f32_to_f16_odd(x)
    name = "RINT" if mode in (R.CAST_NONE, R.CAST_ODD) else mode.name.replace("CAST_", "")
    if src == I32 and dst == F16:
        scaled = x.astype(F32) * np.float32(2.0 ** -17) * np.float32(deq_scale) * np.float32(2.0 ** 17)
        return scaled.astype(F16)
    if src == dst:
        return _to_integral(x, name) if is_floating(src) else x.copy()
    if is_floating(src) and is_floating(dst):
        if src in (F32,) and dst in (BF16, F16):
            return convert(x, dst, name, overflow)
        if dst.itemsize > src.itemsize and not (src == F16 and dst == BF16):
            return x.astype(np.float64).astype(dst) if dst != BF16 else x.astype(F32).astype(BF16)
        x64 = x.astype(np.float64)
        if dst == BF16:                             # via float32: exact for half sources, and for
            f = _directed_to_float(x64, F32, name)  # FLOOR/CEIL/TRUNC of double ones (bf16 is a subset)
            return convert(f, BF16, name, overflow)
        return _directed_to_float(x64, dst, name)
    if is_floating(src):
        return _to_int(x, dst, name)
    if is_floating(dst):
        return _int_to_float(x, dst, name)
    return _int_to_int(x, dst)


def _dists(ws: int, wd: int) -> tuple[str, str]:
    """(load dist, store dist) of a conversion between element widths ``ws`` -> ``wd``."""
    if ws < wd:
        return ("UNPACK4_B8" if wd // ws == 4 else f"UNPACK_B{8 * ws}"), "NORM"
    if ws > wd:
        return "NORM", ("PACK4_B32" if ws // wd == 4 else f"PACK_B{8 * ws}")
    return "NORM", "NORM"


def _opcode(src: np.dtype, dst: np.dtype) -> str:
    return "RV_VCVT_" + ("F" if is_floating(src) else "I") + "2" + ("F" if is_floating(dst) else "I")


def _cast(dst: LocalTensor, src: LocalTensor, round_mode: RoundMode, *args: Any, isSetMask: bool = True,
          mask_state: Any = None) -> None:
    """``Cast(dst, src, RoundMode, count)`` or ``Cast(dst, src, RoundMode, mask, repeatTime, UnaryRepeatParams)``."""
    ctx = current()
    sdt, ddt = src.dtype, dst.dtype
    low = cast_low.ALLOWED_LOW.get((sdt, ddt))
    allowed = low or ALLOWED.get((sdt, ddt))
    if allowed is None:
        ctx.report("BAD_PARAMETER", f"Cast {type_name(sdt)} -> {type_name(ddt)} is not a supported type pair on "
                   f"Ascend 950")
    elif not isinstance(round_mode, RoundMode) or round_mode not in allowed:
        ctx.report("BAD_PARAMETER", f"Cast {type_name(sdt)} -> {type_name(ddt)} does not accept {round_mode} "
                   f"on Ascend 950 (allowed: {', '.join(sorted(m.name for m in allowed))})")
    form = parse_form(ctx, "Cast", args, UnaryRepeatParams, isSetMask, mask_state)
    if isinstance(form, Level0) and (sdt, ddt) in COUNT_ONLY:
        ctx.report("BAD_PARAMETER", f"Cast {type_name(sdt)} -> {type_name(ddt)}: count form only")
    overflow = ctx.machine.params["numerics"]["float_to_bf16_overflow"]
    if low:
        return _cast_low(ctx, dst, src, round_mode, form, overflow)
    load, store = _dists(sdt.itemsize, ddt.itemsize)
    scale = mask_state.deq_scale if mask_state is not None else 1.0
    run(ctx, "Cast", _opcode(sdt, ddt), dst, (src,), lambda v: cast_values(v[0], ddt, round_mode, overflow, scale),
        form, load=load, store=store)


def _cast_low(ctx, dst: LocalTensor, src: LocalTensor, mode: RoundMode, form: Any, overflow: str) -> None:
    """Cast from / to an 8- or 4-bit type (:mod:`.cast_low`)."""
    sdt, ddt = src.dtype, dst.dtype
    opcode = "RV_VCVT_" + ("I" if sdt in (lf.INT4B, I16) else "F") + "2" + ("I" if ddt in (lf.INT4B, I16) else "F")
    if sdt in lf.PACKED4 or ddt in lf.PACKED4:
        name = f"Cast {type_name(sdt)} -> {type_name(ddt)}"
        if isinstance(form, Level0):
            d, s, _ = cast_low.pair_views(dst, src, 0)
            n = cast_low.pair_level0(ctx, name, form)
        else:
            if form % 2:
                ctx.report("BAD_PARAMETER", f"{name}: a 4-bit operand needs an even count (got {form})")
            d, s, n = cast_low.pair_views(dst, src, form)
        load, store = _dists(s.dtype.itemsize, d.dtype.itemsize)
        fn = cast_low.packed_fn(sdt, ddt, mode, overflow, lf.order(ctx.machine))
        run(ctx, "Cast", opcode, d, (s,), fn, n, load=load, store=store)
        return
    load, store = _dists(sdt.itemsize, ddt.itemsize)
    run(ctx, "Cast", opcode, dst, (src,), cast_low.byte_fn(sdt, ddt, mode, overflow), form, load=load, store=store)


Cast = MemBaseApi(_cast, "Cast")

_TRUNC_TYPES = dts("half float bfloat16_t")


def _truncate(dst: LocalTensor, src: LocalTensor, count: Any, targs: Any = None) -> None:
    """``Truncate<T, RoundMode>(dst, src, count)``: each element rounded to an integral value of the same
    type with the template's round mode (RINT / ROUND / FLOOR / CEIL / TRUNC)."""
    api = "Truncate"
    ctx = current()
    mode = targs.enum(RoundMode, R.CAST_TRUNC) if targs is not None else R.CAST_TRUNC
    if mode not in _DIRECTED:
        ctx.report("BAD_PARAMETER", f"{api}: round mode {mode.name} is not one of RINT, ROUND, FLOOR, CEIL, TRUNC")
    if src.dtype != dst.dtype:
        ctx.report("BAD_PARAMETER", f"{api}: dst and src types differ")
    check_dtype(ctx, api, dst.dtype, _TRUNC_TYPES)
    n = parse_form(ctx, api, (count,), UnaryRepeatParams)
    name = mode.name.replace("CAST_", "")
    run(ctx, api, "RV_VTRC", dst, (src,), lambda v: _to_integral(v[0], name), n)


Truncate = MemBaseApi(_truncate, "Truncate")

