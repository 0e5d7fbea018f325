"""RegBase ``Cast<DstT, SrcT, CastTrait>(dst, src, mask)`` with RegLayout lane placement (api-facts 8).

Width change: the instruction processes as many elements as fit the wider type. Narrow -> wide with
ratio r: ``dst[j] = convert(src[r*j + layout])``; wide -> narrow: ``dst[r*j + layout] = convert(src[j])``
and the other narrow slots of lane j are 0. The mask is read at the *source* element granularity.
"""
from __future__ import annotations

import functools

import numpy as np

from toolkit.ascendc.dtypes import BF16
from toolkit.ascendc.numerics import convert, is_floating
from toolkit.engine.runtime import current

from .template import TArgs, template
from .types import VL, CastTrait, MaskMergeMode, MaskReg, RegLayout, RegTensor, RoundMode
from .vf import current_recorder


@functools.lru_cache(maxsize=None)
def _slots(n: int, r: int, layout: int) -> np.ndarray:
    return np.arange(n) * r + layout


def _opcode(src: np.dtype, dst: np.dtype) -> str:
    sf, df = is_floating(src), is_floating(dst)
    return "RV_VCVT_" + {(True, True): "F2F", (True, False): "F2I", (False, True): "I2F",
                         (False, False): "I2I"}[(sf, df)]


@template
def Cast(t: TArgs, dst: RegTensor, src: RegTensor, mask: MaskReg) -> None:
    ctx = current()
    rec = ctx.vf or current_recorder()
    ddt = t.type(0) or dst.dtype
    sdt = t.type(1) or src.dtype
    trait = t.trait or CastTrait()
    layout = max(trait.layoutMode.value, 0) if trait.layoutMode != RegLayout.UNKNOWN else 0
    mode = trait.mrgMode if trait.mrgMode != MaskMergeMode.UNKNOWN else MaskMergeMode.ZEROING
    rmode = trait.roundMode
    if rmode == RoundMode.UNKNOWN:      # unspecified: round to nearest when narrowing a float, else exact
        rmode = RoundMode.CAST_RINT if is_floating(sdt) and ddt.itemsize < sdt.itemsize else RoundMode.CAST_NONE
    if is_floating(sdt) and ddt == BF16 and sdt.itemsize == 4 and rmode == RoundMode.CAST_NONE:
        ctx.report("BAD_PARAMETER", "Cast float -> bfloat16_t needs a rounding mode (CAST_NONE is rejected)")
    if rmode == RoundMode.CAST_HYBRID:
        ctx.report("BAD_PARAMETER", "Cast with RoundMode::CAST_HYBRID is not emulated")
    rname = rmode.name.replace("CAST_", "")
    overflow = rec.machine.params["numerics"]["float_to_bf16_overflow"]
    ws, wd = sdt.itemsize, ddt.itemsize
    x = src.raw.view(sdt)
    sdef = src.lane_defined(ws)
    old_id = dst.id
    if ws < wd:                                   # narrow -> wide: pick slot r*j + layout
        r = wd // ws
        sel = _slots(VL // wd, r, layout)
        vals = convert(x[:, sel], ddt, rname, overflow)
        active = mask.lanes(ws)[0][:, sel]
        lane_def = None if sdef is None else sdef[:, sel]
        out_lane = ddt
        result = vals
    elif ws > wd:                                 # wide -> narrow: write slot r*j + layout of lane j
        r = ws // wd
        vals = convert(x, ddt, rname, overflow)
        active = mask.lanes(ws)[0]
        lane_def = sdef
        result = np.zeros((vals.shape[0], VL // wd), dtype=ddt)
        result[:, _slots(vals.shape[1], r, layout)] = vals
        result = result.view(np.dtype(f"uint{8 * ws}"))   # handle lanes at the source width
        out_lane = result.dtype
    else:
        vals = convert(x, ddt, rname, overflow)
        active = mask.lanes(ws)[0]
        lane_def = sdef
        result, out_lane = vals, ddt
    full = bool(active.all())
    if not full:
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
