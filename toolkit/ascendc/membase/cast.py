"""MemBase ``Cast(dst, src, RoundMode, count)`` and its level-0 form (api-facts 8, 14).

On Ascend 950 one VF converts 256/sizeof(wider type) elements per VL chunk (64 for bf16 <-> fp32):
16 -> 32 bit loads with DIST_UNPACK_B16, 32 -> 16 bit stores with DIST_PACK_B32. Level-0 masks count
lanes of the wider type. Allowed round modes per type pair follow the 950 table; a mode the
library rejects is a BAD_PARAMETER diagnostic. Saturation of float -> bf16/half follows the machine
setting ``float_to_bf16_overflow`` (the effective CTRL[48] default is UNCONFIRMED).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from toolkit.ascendc.dtypes import BF16
from toolkit.ascendc.numerics import convert, is_floating
from toolkit.ascendc.regbase.types import RoundMode
from toolkit.ascendc.tensor import LocalTensor
from toolkit.engine.runtime import current

from .elementwise import MemBaseApi, parse_form, run, type_name
from .params import UnaryRepeatParams

F32, F16, I32 = np.dtype(np.float32), np.dtype(np.float16), np.dtype(np.int32)
R = RoundMode
_DIRECTED = {R.CAST_RINT, R.CAST_FLOOR, R.CAST_CEIL, R.CAST_ROUND, R.CAST_TRUNC}

#: (src, dst) -> accepted round modes (950 table, api-facts 8 / 14). Widening float conversions are exact
#: and accept only CAST_NONE; CAST_NONE means RINT where the conversion can be inexact.
_ALLOWED: dict[tuple[np.dtype, np.dtype], set] = {
    (BF16, F32): {R.CAST_NONE},
    (F16, F32): {R.CAST_NONE},
    (F32, BF16): _DIRECTED,
    (F32, F16): _DIRECTED | {R.CAST_NONE, R.CAST_ODD},
    (F32, I32): _DIRECTED,
    (I32, F32): _DIRECTED | {R.CAST_NONE},
}


def _allowed(src: np.dtype, dst: np.dtype) -> set:
    got = _ALLOWED.get((src, dst))
    if got is not None:
        return got
    if is_floating(src) and not is_floating(dst):
        return _DIRECTED                           # float -> int needs an explicit rounding
    return _DIRECTED | {R.CAST_NONE}


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


def cast_values(x: np.ndarray, dst: np.dtype, mode: RoundMode, overflow: str) -> np.ndarray:
    """Convert ``x`` to ``dst`` as the 950 Cast does for round mode ``mode``."""
    src = x.dtype
    if mode == R.CAST_ODD and src == F32 and dst == F16:
        return _f32_to_f16_odd(x)
    name = "RINT" if mode in (R.CAST_NONE, R.CAST_ODD) else mode.name.replace("CAST_", "")
    if src.kind in "iu" and is_floating(dst) and name != "RINT":
        return _directed_to_float(x.astype(np.float64), dst, name)
    return convert(x, dst, name, overflow)


def _opcode(src: np.dtype, dst: np.dtype) -> str:
    return "RV_VCVT_" + ("F" if is_floating(src) else "I") + "2" + ("F" if is_floating(dst) else "I")


def _cast(dst: LocalTensor, src: LocalTensor, round_mode: RoundMode, *args: Any) -> None:
    """``Cast(dst, src, RoundMode, count)`` or ``Cast(dst, src, RoundMode, mask, repeatTime, UnaryRepeatParams)``."""
    ctx = current()
    sdt, ddt = src.dtype, dst.dtype
    ws, wd = sdt.itemsize, ddt.itemsize
    if ws not in (2, 4) or wd not in (2, 4):
        ctx.report("BAD_PARAMETER", f"Cast {type_name(sdt)} -> {type_name(ddt)}: only 16/32-bit types are modelled")
    if not isinstance(round_mode, RoundMode) or round_mode not in _allowed(sdt, ddt):
        ctx.report("BAD_PARAMETER", f"Cast {type_name(sdt)} -> {type_name(ddt)} does not accept {round_mode} "
                   f"on Ascend 950 (allowed: {', '.join(sorted(m.name for m in _allowed(sdt, ddt)))})")
    form = parse_form(ctx, "Cast", args, UnaryRepeatParams)
    overflow = ctx.machine.params["numerics"]["float_to_bf16_overflow"]
    load = "UNPACK_B16" if ws < wd else "NORM"
    store = "PACK_B32" if ws > wd else "NORM"
    run(ctx, "Cast", _opcode(sdt, ddt), dst, (src,), lambda v: cast_values(v[0], ddt, round_mode, overflow),
        form, load=load, store=store)


Cast = MemBaseApi(_cast, "Cast")
