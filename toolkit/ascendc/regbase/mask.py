"""Mask generation: CreateMask (PSET) and UpdateMask (PLT with post-update of the count)."""
from __future__ import annotations

from typing import Any

import numpy as np

from toolkit.ascendc.dtypes import CScalar
from toolkit.ascendc.itervec import BATCH, Iv

from .template import TArgs, template
from .types import VL, MaskPattern, MaskReg
from .vf import current_recorder, plt_site


def _fill_nibbles(rec) -> bool:
    return rec.machine.params["numerics"]["b32_mask_fill"] == "nibble"


def bits_for_lanes(active: np.ndarray, width: int, nibble: bool) -> np.ndarray:
    """Predicate bits (1 or B, 256) for per-element flags (lanes,) or (1 or B, lanes) at width ``width``."""
    if type(active) is not np.ndarray:
        active = np.asarray(active)
    if active.ndim != 2:
        active = active.reshape(-1, active.shape[-1])
    bits = np.zeros((active.shape[0], VL), dtype=bool)
    n = active.shape[1]
    if nibble or width == 1:
        bits[:, :n * width] = np.repeat(active, width, axis=1)
    else:
        bits[:, ::width][:, :n] = active
    return bits


def _prefix_table(width: int, nibble: bool) -> np.ndarray:
    """Row n: the predicate bits of lanes ``i < n`` (read-only), n = 0 .. VL/width."""
    lanes = VL // width
    table = bits_for_lanes(np.arange(lanes) < np.arange(lanes + 1)[:, None], width, nibble)
    table.flags.writeable = False
    return table


#: (width, nibble fill) -> every UpdateMask result (a PLT runs per loop trip: a row look-up, not an arange
#: and a scatter); built at import, a static table like the dist tables
_PLT_BITS = {(w, nib): _prefix_table(w, nib) for w in (1, 2, 4, 8) for nib in (False, True)}


def _pattern_lanes(pattern: MaskPattern, n: int) -> np.ndarray:
    idx = np.arange(n)
    fixed = {MaskPattern.VL1: 1, MaskPattern.VL2: 2, MaskPattern.VL3: 3, MaskPattern.VL4: 4, MaskPattern.VL8: 8,
             MaskPattern.VL16: 16, MaskPattern.VL32: 32, MaskPattern.VL64: 64, MaskPattern.VL128: 128}
    if pattern == MaskPattern.ALL:
        return np.ones(n, dtype=bool)
    if pattern == MaskPattern.ALLF:
        return np.zeros(n, dtype=bool)
    if pattern in fixed:
        return idx < fixed[pattern]
    if pattern == MaskPattern.M3:
        return idx % 3 == 0
    if pattern == MaskPattern.M4:
        return idx % 4 == 0
    if pattern == MaskPattern.H:
        return idx < n // 2
    if pattern == MaskPattern.Q:
        return idx < n // 4
    raise ValueError(f"unknown MaskPattern {pattern}")


def _width(t: TArgs, default: int = 4) -> int:
    dt = t.type(0)
    return dt.itemsize if dt is not None else default


def pset(rec, width: int, pattern: MaskPattern, key_prefix: str = "b") -> MaskReg:
    """A PSET result. Identical PSETs of one VF are one instruction (no inputs: CSE + hoist)."""
    key = (key_prefix, width, pattern)
    active = _pattern_lanes(pattern, VL // width)
    bits = bits_for_lanes(active, width, _fill_nibbles(rec) or key_prefix == "all")
    got = rec.pset_ids.get(key)
    if got is not None:
        return MaskReg(bits, _id=got)
    m = MaskReg(bits, _id=rec.new_id())
    rec.pset_ids[key] = m.id
    rec.emit("RV_PSET", m.id, (), width)
    return m


@template
def CreateMask(t: TArgs) -> MaskReg:
    """``CreateMask<T, MaskPattern mode = ALL>()``."""
    rec = current_recorder()
    return pset(rec, _width(t), t.enum(MaskPattern, MaskPattern.ALL))


@template
def UpdateMask(t: TArgs, count: Any) -> MaskReg:
    """``UpdateMask<T>(uint32_t& count)``: lanes ``i < min(count, VL/sizeof(T))``; count -= VL_T (saturating).
    In a batched loop body (regbase/loopbatch.py) the count may hold one value per iteration: one mask row
    per (iteration, core) when they differ."""
    rec = current_recorder()
    width = _width(t)
    lanes_per_vl = VL // width
    batch, carried = BATCH.batch, False
    if batch is not None and isinstance(count, CScalar):
        c, carried = batch.count(count, lanes_per_vl)     # carried: its post-update is the batch's
    else:
        c = count.value if isinstance(count, CScalar) else count
    table = _PLT_BITS[width, _fill_nibbles(rec)]
    if type(c) is not Iv:
        c = int(c)
        n = min(max(c, 0), lanes_per_vl)
        m = MaskReg(table[n:n + 1], _id=rec.new_id())
        post: Any = 0 if c < lanes_per_vl else c - lanes_per_vl
    else:
        v = c.values
        n = np.clip(v, 0, lanes_per_vl)
        m = MaskReg(table[n[:1]] if (n == n[0]).all() else np.repeat(table[n], batch.base, axis=0),
                    _id=rec.new_id())
        post = Iv(np.where(v < lanes_per_vl, 0, v - lanes_per_vl))
    if isinstance(count, CScalar) and not carried:
        count.value = post
    rec.emit("RV_PLT", m.id, (), c)
    rec.note_plt(plt_site(), c)
    return m
