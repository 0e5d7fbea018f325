"""RegBase ``Cast<DstT, SrcT, CastTrait>(dst, src, mask)`` with RegLayout lane placement (the RegLayout page's
pseudocode), rounding and saturation modes (Cast page, tables 4-9).

Width change: the instruction processes as many elements as fit the wider type. Narrow -> wide with
ratio r: ``dst[j] = convert(src[r*j + layout])``; wide -> narrow: ``dst[r*j + layout] = convert(src[j])``
and the other narrow slots of lane j are 0. The mask is read at the *source* element granularity.

Saturation: with the documented default control register (CTRL[60] = 1: global mode) the trait's satMode
is ignored and CTRL[48] / CTRL[59] decide; machine setting ``[numerics] cast_saturation`` = "global" models
that (float -> int and int -> int saturate, float -> float follows ``float_to_bf16_overflow``); "per_trait"
honours SatMode (UNKNOWN then falls back to the global rule). Int -> float always saturates (the page).
The 8- / 4-bit types (fp8, hifloat8, e8m0, fp4x2, int4x2): :mod:`.cast_low` (their lanes and values).
"""
from __future__ import annotations

import functools

import numpy as np

from toolkit.ascendc.dtypes import BF16
from toolkit.ascendc.numerics import convert, is_floating
from toolkit.engine.runtime import current

from toolkit.ascendc import lowfloat as lf

from . import cast_low
from .rounding import float_to_int, int_to_float, int_to_int
from .template import TArgs, template
from .types import VL, CastTrait, MaskMergeMode, MaskReg, RegLayout, RegTensor, RoundMode, SatMode
from .vf import current_recorder


@functools.lru_cache(maxsize=None)
def _slots(n: int, r: int, layout: int) -> np.ndarray:
    return np.arange(n) * r + layout


def _floatish(dt: np.dtype) -> bool:
    return is_floating(dt) or (lf.is_low(dt) and dt not in (lf.INT4X2, lf.INT4B))


def _opcode(src: np.dtype, dst: np.dtype) -> str:
    sf, df = _floatish(src), _floatish(dst)
    return "RV_VCVT_" + {(True, True): "F2F", (True, False): "F2I", (False, True): "I2F",
                         (False, False): "I2I"}[(sf, df)]


def _saturate(rec, trait: CastTrait, sdt: np.dtype, ddt: np.dtype) -> bool:
    per_trait = rec.machine.params["numerics"]["cast_saturation"] == "per_trait"
    if per_trait and trait.satMode != SatMode.UNKNOWN:
        return trait.satMode == SatMode.SAT
    if is_floating(sdt) and is_floating(ddt):
        return rec.machine.params["numerics"]["float_to_bf16_overflow"] == "saturate"
    return True                      # CTRL[59] = 0: float -> int and int -> int saturate


def convert_elements(x: np.ndarray, ddt: np.dtype, rname: str, saturate: bool) -> np.ndarray:
    """One conversion, element by element (rounding ``rname``: RINT/FLOOR/CEIL/ROUND/TRUNC/ODD/NONE)."""
    sdt = x.dtype
    if is_floating(sdt) and is_floating(ddt):
        return convert(x, ddt, "RINT" if rname == "UNKNOWN" else rname, "saturate" if saturate else "inf_nan")
    if is_floating(sdt):
        return float_to_int(x, ddt, rname, saturate)
    if is_floating(ddt):
        return int_to_float(x, ddt, rname)
    return int_to_int(x, ddt, saturate)


def _round_name(trait: CastTrait, sdt: np.dtype, ddt: np.dtype) -> str:
    rmode = trait.roundMode
    if rmode == RoundMode.CAST_HYBRID:
        current().report("BAD_PARAMETER", "Cast with RoundMode::CAST_HYBRID (hifloat8_t) is not emulated")
    if is_floating(sdt) and ddt == BF16 and sdt.itemsize == 4 and rmode == RoundMode.CAST_NONE:
        current().report("BAD_PARAMETER", "Cast float -> bfloat16_t needs a rounding mode (CAST_NONE is rejected)")
    if rmode in (RoundMode.UNKNOWN, RoundMode.CAST_NONE):
        return "RINT"                # NONE: round to nearest where the conversion can be inexact
    return rmode.name.replace("CAST_", "")


def _plan(rec, trait: CastTrait, sdt: np.dtype, ddt: np.dtype):
    """(round name, saturate, the lane conversion, (source, destination) lane dtypes) of one Cast."""
    if not cast_low.involved(sdt, ddt):
        rname = _round_name(trait, sdt, ddt)
        saturate = _saturate(rec, trait, sdt, ddt)
        return rname, saturate, lambda a: convert_elements(a, ddt, rname, saturate), (sdt, ddt)
    rmode = trait.roundMode
    rname = "UNKNOWN" if rmode in (RoundMode.UNKNOWN, RoundMode.CAST_NONE) else rmode.name.replace("CAST_", "")
    cast_low.check(current().report, sdt, ddt, rname)
    both_float = _floatish(sdt) and _floatish(ddt)         # fp8 / hifloat8 / fp4 / e8m0: CTRL[48], api-facts 8
    saturate = _saturate(rec, trait, np.dtype(np.float32) if both_float else sdt, np.dtype(np.float32)
                         if both_float else ddt)
    first = lf.order(rec.machine)
    return rname, saturate, lambda a: cast_low.convert(a, sdt, ddt, rname, saturate, first), \
        cast_low.lane_types(sdt, ddt)


@template
def Cast(t: TArgs, dst: RegTensor, src: RegTensor, mask: MaskReg) -> None:
    rec = current_recorder()
    ddt = t.type(0) or dst.dtype
    sdt = t.type(1) or src.dtype
    trait = t.trait or CastTrait()
    layout = max(trait.layoutMode.value, 0) if trait.layoutMode != RegLayout.UNKNOWN else 0
    mode = trait.mrgMode if trait.mrgMode != MaskMergeMode.UNKNOWN else MaskMergeMode.ZEROING
    rname, saturate, conv, (sdt_l, ddt_l) = _plan(rec, trait, sdt, ddt)
    ws, wd = sdt_l.itemsize, ddt_l.itemsize
    x = src.raw.view(sdt_l)
    sdef = src.lane_defined(ws)
    old_id = dst.id
    if ws < wd:                                   # narrow -> wide: pick slot r*j + layout
        r = wd // ws                              # a slice where it can be (no fancy-index copy)
        sel = slice(layout, None, r) if layout < r else _slots(VL // wd, r, layout)
        result = conv(x[:, sel])
        active = mask.lanes(ws)[0][:, sel]
        lane_def = None if sdef is None else sdef[:, sel]
        out_lane = ddt_l
    elif ws > wd:                                 # wide -> narrow: write slot r*j + layout of lane j
        vals = conv(x)
        active = mask.lanes(ws)[0]
        lane_def = sdef
        result = np.zeros((vals.shape[0], VL // wd), dtype=ddt_l)
        result[:, _slots(vals.shape[1], ws // wd, layout)] = vals
        result = result.view(np.dtype(f"uint{8 * ws}"))   # handle lanes at the source width
        out_lane = result.dtype
    else:
        result = conv(x)
        active = mask.lanes(ws)[0]
        lane_def = sdef
        out_lane = ddt_l
    if not bool(active.all()):
        if mode == MaskMergeMode.MERGING:
            result = np.where(active, result, dst.raw.view(out_lane))
            old_def = dst.lane_defined(out_lane.itemsize)      # inactive lanes keep dst (and its shadow)
            if lane_def is not None or old_def is not None:
                lane_def = np.where(active, True if lane_def is None else lane_def,
                                    True if old_def is None else old_def)
        else:
            result = np.where(active, result, out_lane.type(0))
            if lane_def is not None:
                lane_def = lane_def | ~active
    srcs = (src.id, mask.id)          # read before dst (possibly src itself) gets its new value id
    dst.acc_lanes = None
    dst.set(np.asarray(result, dtype=out_lane), lane_def, rec, out_lane.itemsize)
    opcode = _opcode(sdt, ddt)
    if mode == MaskMergeMode.MERGING:
        tmp = rec.new_id()
        rec.emit(opcode, tmp, srcs, None, mask=mask.id)
        rec.emit("RV_VSEL", dst.id, (tmp, old_id, mask.id), None, mask=mask.id)
    else:
        rec.emit(opcode, dst.id, srcs, None, mask=mask.id)
