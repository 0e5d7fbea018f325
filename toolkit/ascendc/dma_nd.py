"""The software-emulated DataCopy forms of the vendor (软仿接口) and NDDMA: DataCopy with SliceInfo
arrays (GM <-> UB slices of a multi-dimensional tensor) and the GM -> UB multi-dimensional DMA with
per-dimension strides and left / right padding (NdDmaParams).

Slices (the SliceInfo page): dimension 0 is the innermost; in it a slice is ``burstLen`` DataBlocks of
elements, slices ``stride`` elements apart, from ``startIndex`` to ``endIndex`` (inclusive); in an outer
dimension a slice is one index, indices ``stride`` apart. An element's offset is its index in each
dimension times the product of the ``shapeValue`` of the dimensions inside it. The source and destination
slice lists give the same number of elements, copied in order.

NDDMA (the NDDMA page): per dimension ``loopSize`` elements between ``loopLpSize`` left and ``loopRpSize``
right padding elements; destination element (j_0 .. j_n) sits at sum j_k * loopDstStride_k, its source
at sum (j_k - lp_k) * loopSrcStride_k, and a padding position takes the constant value, or with
``isNearestValueMode`` the element of the nearest index inside the dimension. NdDmaConfig's loopLpSize /
loopRpSize (below 0xFFFF) replace every dimension's own.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

import numpy as np

from toolkit.engine.runtime import current
from toolkit.record.diagnostics import kernel_frame
from toolkit.record.events import Dma

from .dtypes import scalar_value
from .tensor import GlobalTensor, LocalTensor, check_gm, gm_write

#: NdDmaConfig's "not set" padding size
UNSET_PAD = 0xFFFF


@dataclass
class SliceInfo:
    startIndex: int = 0
    endIndex: int = 0
    stride: int = 0
    burstLen: int = 1
    shapeValue: int = 0


def _indices(info: SliceInfo, dim: int, elems_per_block: int) -> list[int]:
    run = int(info.burstLen) * elems_per_block if dim == 0 else 1
    out, k = [], int(info.startIndex)
    while k <= int(info.endIndex):
        out.extend(range(k, min(k + run, int(info.endIndex) + 1)))
        k += run + int(info.stride)
    return out


def _segments(info: SliceInfo, elems_per_block: int) -> int:
    """How many dimension-0 slices (bursts) a SliceInfo cuts."""
    run, n, k = int(info.burstLen) * elems_per_block, 0, int(info.startIndex)
    while k <= int(info.endIndex):
        n, k = n + 1, k + run + int(info.stride)
    return n


def slice_offsets(slices: list[SliceInfo], itemsize: int) -> np.ndarray:
    """Element offsets of every sliced element, the innermost dimension fastest."""
    if not slices:
        return np.zeros(0, np.int64)
    per_block = max(32 // itemsize, 1)
    units = np.cumprod([1] + [int(s.shapeValue) for s in slices[:-1]])
    axes = [np.asarray(_indices(s, d, per_block), dtype=np.int64) * u for d, (s, u) in enumerate(zip(slices, units))]
    return np.sum(np.meshgrid(*axes[::-1], indexing="ij"), axis=0).reshape(-1)


def slice_copy(dst: Any, src: Any, dst_slices: list[SliceInfo], src_slices: list[SliceInfo]) -> None:
    """``DataCopy(dst, src, dstSliceInfo[], srcSliceInfo[], dimValue)`` between GM and UB."""
    ctx = current()
    dt = dst.dtype
    d_off, s_off = slice_offsets(dst_slices, dt.itemsize), slice_offsets(src_slices, dt.itemsize)
    if d_off.size != s_off.size or len(dst_slices) != len(src_slices) or not 0 < len(dst_slices) <= 8:
        ctx.report("BAD_PARAMETER", f"DataCopy slices: {s_off.size} source elements for {d_off.size} destination "
                   f"elements ({len(src_slices)} / {len(dst_slices)} dimensions, at most 8)")
    values = _read(ctx, src, s_off, "DataCopy (slices)")
    _write(ctx, dst, d_off, values, "DataCopy (slices)")
    outer = int(np.prod([len(_indices(s, d, 1)) for d, s in enumerate(src_slices) if d > 0]))
    _record(ctx, dst, src, values.size * dt.itemsize, _segments(src_slices[0], max(32 // dt.itemsize, 1)) * outer)


def _read(ctx, t: Any, offsets: np.ndarray, what: str) -> np.ndarray:
    dt = t.dtype
    if offsets.size == 0:
        return np.zeros(0, dt)
    hi = int(offsets.max()) + 1
    if isinstance(t, LocalTensor):
        ctx.ub.check(t.addr, 0, what, align=32)
        ctx.ub.check(t.addr, hi * dt.itemsize, what)
        return ctx.ub.view(t.addr, hi * dt.itemsize).view(dt)[offsets].copy()
    check_gm(t.buf, t.offset, hi * dt.itemsize, what)
    return t.buf.data[t.offset:t.offset + hi * dt.itemsize].view(dt)[offsets].copy()


def _write(ctx, t: Any, offsets: np.ndarray, values: np.ndarray, what: str) -> None:
    dt = t.dtype
    if offsets.size == 0:
        return
    hi = int(offsets.max()) + 1
    if isinstance(t, LocalTensor):
        ctx.ub.check(t.addr, 0, what, align=32)
        ctx.ub.check(t.addr, hi * dt.itemsize, what)
        ctx.ub.view(t.addr, hi * dt.itemsize).view(dt)[offsets] = values
        byte = (offsets[:, None] * dt.itemsize + np.arange(dt.itemsize)[None, :]).reshape(-1)
        ctx.ub.defined[t.addr + byte] = True
        return
    check_gm(t.buf, t.offset, hi * dt.itemsize, what)
    for off, v in zip(offsets.tolist(), values):                 # element by element: the writer record
        gm_write(t.buf, t.offset + off * dt.itemsize, np.asarray([v], dt).view(np.uint8))


def _record(ctx, dst: Any, src: Any, nbytes: int, bursts: int) -> None:
    to_ub = isinstance(dst, LocalTensor)
    local, glob = (dst, src) if to_ub else (src, dst)
    ctx.emit(Dma("GM2UB" if to_ub else "UB2GM", "DataCopy", local.addr, glob.buf.name, glob.offset, nbytes,
                 max(bursts, 1), nbytes // max(bursts, 1), kernel_frame()))


# -- NDDMA --------------------------------------------------------------------------------------------------
def nd_dma(dst: LocalTensor, src: GlobalTensor, nearest: bool, lp_all: int, rp_all: int, constant: Any,
           loops: list[tuple[int, int, int, int, int]]) -> None:
    """GM -> UB NDDMA; ``loops``: (src stride, dst stride, size, left pad, right pad) per dimension, 0 innermost."""
    ctx = current()
    if not 1 <= len(loops) <= 5:
        ctx.report("BAD_PARAMETER", f"NDDMA: {len(loops)} dimensions (1 to 5)")
    dims = []
    for s_stride, d_stride, size, lp, rp in loops:
        lp = lp if lp_all == UNSET_PAD else lp_all
        rp = rp if rp_all == UNSET_PAD else rp_all
        if size < 1:
            ctx.report("BAD_PARAMETER", "NDDMA: loopSize below 1")
        dims.append((int(s_stride), int(d_stride), int(size), int(lp), int(rp)))
    dst_off, src_off, inside = [], [], []
    for js in itertools.product(*[range(lp + size + rp) for _, _, size, lp, rp in reversed(dims)]):
        js = js[::-1]                                           # innermost first
        d = sum(j * ds for j, (_, ds, _, _, _) in zip(js, dims))
        idx = [j - lp for j, (_, _, _, lp, _) in zip(js, dims)]
        ok = all(0 <= i < size for i, (_, _, size, _, _) in zip(idx, dims))
        clamped = [min(max(i, 0), size - 1) for i, (_, _, size, _, _) in zip(idx, dims)]
        dst_off.append(d)
        src_off.append(sum(i * ss for i, (ss, _, _, _, _) in zip(clamped, dims)))
        inside.append(ok)
    dst_off, src_off, inside = np.asarray(dst_off), np.asarray(src_off), np.asarray(inside)
    values = _read(ctx, src, src_off, "DataCopy (NDDMA)")
    if not nearest:
        values[~inside] = np.asarray(scalar_value(constant)).astype(dst.dtype)
    _write(ctx, dst, dst_off, values, "DataCopy (NDDMA)")
    n_in = int(inside.sum())
    ctx.emit(Dma("GM2UB", "DataCopy", dst.addr, src.buf.name, src.offset, n_in * dst.dtype.itemsize,
                 max(n_in // max(dims[0][2], 1), 1), dims[0][2] * dst.dtype.itemsize, kernel_frame()))
