"""DataCopy / DataCopyPad between GM and UB (MTE2 in, MTE3 out), per api-facts section 12.

GM->UB DataCopyPad: GM block k starts at ``src + k*(blockLen + srcStride)`` bytes; UB block k at
``dst + k*AlignUp(dstStride*32 + leftPad*sz + blockLen + rightPad*sz, 32)``; each UB block is padded
to 32 B (left/right padding with ``paddingValue`` when ``isPad``; with no padding requested, the
filler is the block's first element; otherwise the filler is unspecified and stays *undefined*).
UB->GM DataCopyPad: UB block k at ``src + k*AlignUp(srcStride*32 + blockLen, 32)``; GM block k at
``dst + k*(blockLen + dstStride)``; only ``blockLen`` bytes per block reach GM.
DataCopy moves ``count*sizeof(T)`` rounded *down* to 32 B, or blocks in 32 B units with DataCopyParams.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .diagnostics import kernel_frame
from .dtypes import scalar_value
from .events import Dma
from .runtime import current
from .tensor import GlobalTensor, LocalTensor, check_gm, gm_write


@dataclass
class DataCopyParams:
    """Block mode of DataCopy: blockLen and strides in 32 B units."""

    blockCount: int = 1
    blockLen: int = 0
    srcStride: int = 0
    dstStride: int = 0


@dataclass
class DataCopyExtParams:
    """blockCount, blockLen (bytes), srcStride, dstStride (units depend on direction), rsv."""

    blockCount: int = 1
    blockLen: int = 0
    srcStride: int = 0
    dstStride: int = 0
    rsv: int = 0


DataCopyPadParams = DataCopyExtParams


@dataclass
class DataCopyPadExtParams:
    isPad: bool = False
    leftPadding: int = 0
    rightPadding: int = 0
    paddingValue: Any = 0


def _align32(n: int) -> int:
    return (n + 31) // 32 * 32


def _block_index(starts: np.ndarray, length: int) -> np.ndarray:
    return (starts[:, None] + np.arange(length, dtype=np.int64)[None, :]).ravel()


def _check_ext(ctx, ext: DataCopyExtParams, what: str) -> None:
    m = ctx.machine
    if not 0 <= ext.blockCount <= m.gm_max_block_count or not 0 <= ext.blockLen <= m.gm_max_block_len:
        ctx.report("BAD_PARAMETER", f"{what}: blockCount {ext.blockCount} / blockLen {ext.blockLen} out of range "
                   f"(<= {m.gm_max_block_count} / <= {m.gm_max_block_len})")


def _check_gm_blocks(g: GlobalTensor, n: int, step: int, length: int, api: str) -> None:
    """GM footprint of ``n`` blocks of ``length`` bytes, ``step`` apart, checked in Python integers
    before any int64 address array is built: an address that comes from data (say an index of
    2**56) is a GM_OUT_OF_BOUNDS like any other, never an overflow."""
    if n <= 0 or length <= 0:
        return
    lo = g.offset + min(0, (n - 1) * step)
    check_gm(g.buf, lo, g.offset + max(0, (n - 1) * step) + length - lo, api)


def _int(v: int) -> int:
    """One int object per UB address or byte count a DMA record holds (a record then costs its own
    object and its GM offset, nothing more): these take few values, unlike GM offsets."""
    return _INTS.setdefault(v, v)


_INTS: dict[int, int] = {}


def _run(starts: np.ndarray, length: int) -> bool:
    """Blocks of ``length`` bytes at ``starts`` are one contiguous run (a single burst or back to back)."""
    return starts.size == 1 or bool(np.all(np.diff(starts) == length))


def _gm_to_ub(ctx, dst: LocalTensor, src: GlobalTensor, gm_starts: np.ndarray, ub_starts: np.ndarray,
              length: int, api: str, fill: list | None = None) -> None:
    """Copy ``len(gm_starts)`` blocks of ``length`` bytes GM->UB (callers computed the layout); one
    contiguous run on both sides moves as one slice (the same bytes, checks and event)."""
    ub = ctx.ub
    nblk = gm_starts.size
    if nblk == 0 or length == 0:
        return
    if _run(gm_starts, length) and _run(ub_starts, length):
        g0, u0, total = int(gm_starts[0]), int(ub_starts[0]), nblk * length
        ub.check(u0, total, api)
        check_gm(src.buf, g0, total, api)
        if not ctx.dry_run:
            ub.write(u0, src.buf.data[g0:g0 + total])
    else:
        ub.check(int(ub_starts.min()), int(ub_starts.max() - ub_starts.min()) + length, api)
        check_gm(src.buf, int(gm_starts.min()), int(gm_starts.max() - gm_starts.min()) + length, api)
        if not ctx.dry_run:
            ub.write_at(_block_index(ub_starts, length), src.buf.data[_block_index(gm_starts, length)])
    if not ctx.dry_run:
        for addr, nbytes, value, defined in fill or ():
            ub.write(addr, value, defined)
    ctx.emit(Dma("GM2UB", api, _int(dst.addr), src.buf.name, src.offset, _int(nblk * length), nblk, _int(length),
                 kernel_frame()))


def _ub_to_gm(ctx, dst: GlobalTensor, src: LocalTensor, gm_starts: np.ndarray, ub_starts: np.ndarray,
              length: int, api: str) -> None:
    """Copy blocks UB->GM; a contiguous UB side is read as one slice, a contiguous GM side written at once."""
    ub = ctx.ub
    nblk = gm_starts.size
    if nblk == 0 or length == 0:
        return
    ub.check(int(ub_starts.min()), int(ub_starts.max() - ub_starts.min()) + length, api)
    check_gm(dst.buf, int(gm_starts.min()), int(gm_starts.max() - gm_starts.min()) + length, api)
    if not ctx.dry_run:
        if _run(ub_starts, length):
            u0 = int(ub_starts[0])
            data, shadow = ub.data[u0:u0 + nblk * length], ub.defined[u0:u0 + nblk * length]
            first = u0 + int(np.argmin(shadow)) if not shadow.all() else None
        else:
            ub_idx = _block_index(ub_starts, length)
            data, shadow = ub.data[ub_idx], ub.defined[ub_idx]
            first = int(ub_idx[int(np.argmin(shadow))]) if not shadow.all() else None
        if first is not None:
            missing = int((~shadow).sum())
            ctx.report("UNDEFINED_READ", f"{api} to {dst.buf.name} copies {missing} never-written "
                       f"UB byte(s), first at {first}", address=first, size=missing)
        if _run(gm_starts, length):
            gm_write(dst.buf, int(gm_starts[0]), data)
        else:
            for k in range(nblk):
                gm_write(dst.buf, int(gm_starts[k]), data[k * length:(k + 1) * length])
    ctx.emit(Dma("UB2GM", api, _int(src.addr), dst.buf.name, dst.offset, _int(nblk * length), nblk, _int(length),
                 kernel_frame()))


@dataclass
class _Move:
    """One DataCopy / DataCopyPad call laid out: cores that make it with the same UB side and parameters
    have the same move; only their GM tensor (its offset) differs (toolkit.dma_cores runs them at once)."""

    api: str
    local: LocalTensor
    to_ub: bool
    n: int
    length: int
    gm_step: int               #: bytes from one GM block start to the next
    ub_starts: np.ndarray      #: UB address of each block's data
    entry: tuple[int, int]     #: (UB address, bytes) checked first, 32 B aligned
    pad: tuple | None = None   #: GM->UB DataCopyPad: (left bytes, right bytes, pad params, element size)

    def gm_starts(self, g: GlobalTensor) -> np.ndarray:
        return g.offset + self.gm_step * np.arange(self.n, dtype=np.int64)


def _plan_copy(ctx, dst: Any, src: Any, count_or_params: Any) -> tuple[_Move, GlobalTensor]:
    if isinstance(count_or_params, DataCopyParams):
        p = count_or_params
        n, length = int(p.blockCount), int(p.blockLen) * 32
        src_step, dst_step = length + int(p.srcStride) * 32, length + int(p.dstStride) * 32
    else:
        nbytes = int(scalar_value(count_or_params)) * src.dtype.itemsize
        n, length, src_step, dst_step = 1, nbytes // 32 * 32, 0, 0
        if nbytes % 32:
            ctx.report("DATACOPY_TRUNCATED", f"DataCopy of {nbytes} B moves only {length} B "
                       f"({nbytes - length} B tail dropped)", size=nbytes)
    k = np.arange(n, dtype=np.int64)
    if isinstance(dst, LocalTensor) and isinstance(src, GlobalTensor):
        return _Move("DataCopy", dst, True, n, length, src_step, dst.addr + dst_step * k, (dst.addr, 0)), src
    if isinstance(dst, GlobalTensor) and isinstance(src, LocalTensor):
        return _Move("DataCopy", src, False, n, length, dst_step, src.addr + src_step * k, (src.addr, 0)), dst
    raise TypeError("DataCopy between UB tensors is not emulated (use a vector copy)")


def _plan_copy_pad(ctx, dst: Any, src: Any, ext: DataCopyExtParams,
                   pad: DataCopyPadExtParams | None) -> tuple[_Move, GlobalTensor] | None:
    _check_ext(ctx, ext, "DataCopyPad")
    n, length = int(ext.blockCount), int(ext.blockLen)
    if n == 0 or length == 0:
        return None
    k = np.arange(n, dtype=np.int64)
    if isinstance(dst, LocalTensor) and isinstance(src, GlobalTensor):
        pad = pad or DataCopyPadExtParams()
        sz = dst.dtype.itemsize
        left, right = int(pad.leftPadding) * sz, int(pad.rightPadding) * sz
        ub_stride = _align32(int(ext.dstStride) * 32 + left + length + right)
        # the whole padded footprint (padding included) must lie in UB
        entry = (dst.addr, (n - 1) * ub_stride + _align32(left + length + right))
        return _Move("DataCopyPad", dst, True, n, length, length + int(ext.srcStride), dst.addr + k * ub_stride + left,
                     entry, (left, right, pad, sz)), src
    if isinstance(dst, GlobalTensor) and isinstance(src, LocalTensor):
        ub_stride = _align32(int(ext.srcStride) * 32 + length)
        return _Move("DataCopyPad", src, False, n, length, length + int(ext.dstStride), src.addr + k * ub_stride,
                     (src.addr, 0)), dst
    raise TypeError("DataCopyPad needs one LocalTensor and one GlobalTensor")


def _perform(ctx, mv: _Move, g: GlobalTensor) -> None:
    """Run a laid-out move on one core: the UB entry check, the GM footprint, then the blocks."""
    ctx.ub.check(mv.entry[0], mv.entry[1], mv.api, align=32)
    _check_gm_blocks(g, mv.n, mv.gm_step, mv.length, mv.api)
    gm_starts = mv.gm_starts(g)
    if not mv.to_ub:
        _ub_to_gm(ctx, g, mv.local, gm_starts, mv.ub_starts, mv.length, mv.api)
        return
    fill = None
    if mv.pad is not None and not ctx.dry_run:
        left, right, pad, sz = mv.pad
        fill = _pad_fill(ctx, g, gm_starts, mv.ub_starts - left, mv.length, left, right, pad, sz)
    _gm_to_ub(ctx, mv.local, g, gm_starts, mv.ub_starts, mv.length, mv.api, fill)


def _parked(ctx, fn, args: tuple) -> bool:
    """In lock-step, a copy outside any VF waits for the other cores (toolkit.dma_cores)."""
    if ctx.scheduler is None or ctx.vf is not None:
        return False
    global _DmaRequest
    if _DmaRequest is None:
        from .dma_cores import DmaRequest as _DmaRequest      # dma_cores imports this module
    ctx.scheduler.park(_DmaRequest(fn, args, kernel_frame()))
    return True


_DmaRequest = None


def DataCopy(dst: Any, src: Any, count_or_params: Any) -> None:
    """``DataCopy(dst, src, count)`` (contiguous, 32 B granules) or ``DataCopy(dst, src, DataCopyParams)``."""
    ctx = current()
    if not _parked(ctx, DataCopy, (dst, src, count_or_params)):
        _perform(ctx, *_plan_copy(ctx, dst, src, count_or_params))


def DataCopyPad(dst: Any, src: Any, ext: DataCopyExtParams, pad: DataCopyPadExtParams | None = None) -> None:
    ctx = current()
    if not _parked(ctx, DataCopyPad, (dst, src, ext, pad)):
        plan = _plan_copy_pad(ctx, dst, src, ext, pad)
        if plan is not None:
            _perform(ctx, *plan)


def _pad_fill(ctx, src: GlobalTensor, gm_starts, ub_starts, length, left, right, pad, sz) -> list:
    """UB-side padding of each block: (addr, nbytes, bytes, defined) writes applied after the data."""
    fill = []
    total = _align32(left + length + right)
    dummy = total - (left + length + right)
    pad_bytes = np.array([pad.paddingValue], dtype=src.dtype).view(np.uint8)
    for g, u in zip(gm_starts.tolist(), ub_starts.tolist()):
        if left or right:
            defined = bool(pad.isPad)
            for addr, nb in ((u, left), (u + left + length, right + dummy)):
                if nb:
                    fill.append((addr, nb, np.resize(pad_bytes, nb), defined))
        elif dummy:
            first = src.buf.data[g:g + sz]
            fill.append((u + length, dummy, np.resize(first, dummy), True))
    return fill
