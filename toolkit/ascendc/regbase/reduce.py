"""RegBase reductions: ``Reduce<SUM|MAX|MIN>`` / ReduceSum / ReduceMax / ReduceMin (VCADD / VCMAX / VCMIN),
per DataBlock ``ReduceDataBlock`` (VCGADD / VCGMAX / VCGMIN) and ``PairReduceElem`` (VCPADD).

Order: adjacent-pair binary tree over all VL lanes (machine setting ``reduce_order``); masked-off lanes
enter as 0 (SUM), type-min (MAX), type-max (MIN). The result lands in lane 0; MAX/MIN put the index of
the first occurrence in lane 1 (as uint bits); every other lane is 0 (setting ``reduce_other_lanes``).
"""
from __future__ import annotations

import numpy as np

from toolkit.ascendc.numerics import elementwise, tree_reduce, type_max, type_min
from toolkit.engine.runtime import current

from .template import TArgs, template
from .types import VL, MaskMergeMode, MaskReg, ReduceType, RegTensor
from .vf import current_recorder

_OPCODE = {ReduceType.SUM: "RV_VCADD", ReduceType.MAX: "RV_VCMAX", ReduceType.MIN: "RV_VCMIN"}
_SUM_OUT = {np.dtype(np.int16): np.dtype(np.int32), np.dtype(np.uint16): np.dtype(np.uint32)}


def reduce_lanes(kind: ReduceType, x: np.ndarray, active: np.ndarray) -> tuple:
    """(value, index of first occurrence or None) of each register's lanes: ``x`` (B, lanes) -> (B,);
    one register's lanes (1-D) give scalars."""
    if x.ndim == 1:
        value, index = reduce_lanes(kind, x[None], np.asarray(active).reshape(1, -1))
        return value[0], (None if index is None else int(index[0]))
    dt = x.dtype
    if kind == ReduceType.SUM:
        out_dt = _SUM_OUT.get(dt, dt)
        v = np.where(active, x, 0).astype(out_dt)
        return tree_reduce(v, elementwise("add", out_dt)), None
    fill = type_min(dt) if kind == ReduceType.MAX else type_max(dt)
    v = np.where(active, x, fill).astype(dt)
    best = tree_reduce(v, elementwise("max" if kind == ReduceType.MAX else "min", dt))
    f = v.astype(np.float64) if dt.kind != "f" else v
    nan_best = np.isnan(np.asarray(best, dtype=np.float64))
    hit = np.where(nan_best[:, None], np.isnan(f), v == best[:, None])
    return best, np.where(hit.any(axis=1), np.argmax(hit, axis=1), 0)


def _reduce(t: TArgs, kind: ReduceType, dst: RegTensor, src: RegTensor, mask: MaskReg,
            src_type: np.dtype | None = None) -> None:
    rec = current().vf or current_recorder()
    dt = src_type or t.type(0) or src.dtype
    w = dt.itemsize
    active, _ = mask.lanes(w)
    x = src.raw.view(dt)
    value, index = reduce_lanes(kind, x, active)
    out_dt = np.asarray(value).dtype
    out = np.zeros((x.shape[0], VL // out_dt.itemsize), dtype=out_dt)
    out[:, 0] = value
    if index is not None:
        idx_dt = np.dtype(f"uint{8 * out_dt.itemsize}")
        out.view(idx_dt)[:, 1] = index
    ld = src.lane_defined(w)
    lane_def = None
    if ld is not None:
        lane_def = np.ones(out.shape, bool)
        lane_def[:, 0] = (ld | ~active).all(axis=1)
    srcs = (src.id, mask.id)          # read before dst (possibly src itself) gets its new value id
    dst.acc_lanes = None
    dst.set(out, lane_def, rec, out_dt.itemsize)
    rec.emit(_OPCODE[kind], dst.id, srcs, None, mask=mask.id)


@template
def Reduce(t: TArgs, dst: RegTensor, src: RegTensor, mask: MaskReg) -> None:
    """``Reduce<ReduceType = SUM, T (dst), U (src), mode>(dst, src, mask)``: the source's element type is U,
    else the source register's (T only names the result type: int16 sums give int32)."""
    kind = t.enum(ReduceType, ReduceType.SUM)
    if t.enum(MaskMergeMode, MaskMergeMode.ZEROING) != MaskMergeMode.ZEROING:
        current().report("BAD_PARAMETER", "Reduce supports only MaskMergeMode::ZEROING")
    _reduce(t, kind, dst, src, mask, t.type(1) or src.dtype)


@template
def ReduceSum(t: TArgs, dst: RegTensor, src: RegTensor, mask: MaskReg) -> None:
    _reduce(t, ReduceType.SUM, dst, src, mask)


@template
def ReduceMax(t: TArgs, dst: RegTensor, src: RegTensor, mask: MaskReg) -> None:
    _reduce(t, ReduceType.MAX, dst, src, mask)


@template
def ReduceMin(t: TArgs, dst: RegTensor, src: RegTensor, mask: MaskReg) -> None:
    _reduce(t, ReduceType.MIN, dst, src, mask)


_BLOCK_OPCODE = {ReduceType.SUM: "RV_VCGADD", ReduceType.MAX: "RV_VCGMAX", ReduceType.MIN: "RV_VCGMIN"}


@template
def ReduceDataBlock(t: TArgs, dst: RegTensor, src: RegTensor, mask: MaskReg) -> None:
    """``ReduceDataBlock<type, T, mode>(dst, src, mask)``: each 32 B DataBlock reduced (the same tree,
    masked lanes as in Reduce), block j's result in lane j; no index; the other lanes 0."""
    rec = current_recorder()
    kind = t.enum(ReduceType, ReduceType.SUM)
    dt = t.type(0) or src.dtype
    w = dt.itemsize
    active, _ = mask.lanes(w)
    x = src.raw.view(dt)
    rows = max(x.shape[0], active.shape[0])
    per = 32 // w
    xb = np.broadcast_to(x, (rows, VL // w)).reshape(rows * 8, per)
    ab = np.broadcast_to(active, (rows, VL // w)).reshape(rows * 8, per)
    value, _ = reduce_lanes(kind, xb, ab)
    value = np.asarray(value).reshape(rows, 8)
    out_dt = value.dtype
    out = np.zeros((rows, VL // out_dt.itemsize), dtype=out_dt)
    out[:, :8] = value
    ld = src.lane_defined(w)
    lane_def = None
    if ld is not None:
        lane_def = np.ones(out.shape, bool)
        lane_def[:, :8] = (np.broadcast_to(ld | ~active, (rows, VL // w)).reshape(rows, 8, per)).all(axis=2)
    srcs = (src.id, mask.id)
    dst.acc_lanes = None
    dst.set(out, lane_def, rec, out_dt.itemsize)
    rec.emit(_BLOCK_OPCODE[kind], dst.id, srcs, None, mask=mask.id)


@template
def PairReduceElem(t: TArgs, dst: RegTensor, src: RegTensor, mask: MaskReg) -> None:
    """``PairReduceElem<SUM, T, mode>(dst, src, mask)``: dst[i] = src[2i] + src[2i+1] in the low half (masked
    elements count as 0), the high half 0 (VCPADD)."""
    rec = current_recorder()
    dt = t.type(0) or src.dtype
    w = dt.itemsize
    active, _ = mask.lanes(w)
    x = np.where(active, src.raw.view(dt), dt.type(0)).astype(dt)
    rows = x.shape[0]
    out = np.zeros((rows, VL // w), dt)
    out[:, :VL // w // 2] = elementwise("add", dt)(x[:, 0::2], x[:, 1::2])
    ld = src.lane_defined(w)
    lane_def = None
    if ld is not None:
        ok = ld | ~active
        lane_def = np.ones(out.shape, bool)
        lane_def[:, :VL // w // 2] = ok[:, 0::2] & ok[:, 1::2]
    srcs = (src.id, mask.id)
    dst.acc_lanes = None
    dst.set(out, lane_def, rec, w)
    rec.emit("RV_VCPADD", dst.id, srcs, None, mask=mask.id)
