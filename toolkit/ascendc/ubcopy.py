"""DataCopy between two UB tensors (UB与UB数据搬运): ``DataCopy(dst, src, count)`` (count elements,
rounded down to whole 32 B blocks) and ``DataCopy(dst, src, DataCopyParams)`` (blockCount blocks of
blockLen DataBlocks, srcStride / dstStride DataBlocks between them; a 0 count or length is a no-op).

The bytes and their definedness move as they are. The copy is recorded as a DMA ``UB2UB`` whose source is
the UB (``gm`` "UB", ``gm_offset`` the source address): the pages do not say which unit moves UB to UB
data; it is costed as a burst on the MTE3 queue (assumed).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from toolkit.record.diagnostics import kernel_frame
from toolkit.record.events import Dma

from .dtypes import scalar_value
from .tensor import LocalTensor


def _blocks(ctx, src: LocalTensor, spec: Any) -> tuple[int, int, int, int]:
    """(blocks, bytes each, source step, destination step) of the copy."""
    from .dma import DataCopyParams
    if isinstance(spec, DataCopyParams):
        length = int(spec.blockLen) * 32
        return int(spec.blockCount), length, length + int(spec.srcStride) * 32, length + int(spec.dstStride) * 32
    nbytes = int(scalar_value(spec)) * src.dtype.itemsize
    length = nbytes // 32 * 32
    if nbytes % 32:
        ctx.report("DATACOPY_TRUNCATED", f"DataCopy of {nbytes} B moves only {length} B "
                   f"({nbytes - length} B tail dropped)", size=nbytes)
    return 1, length, length, length


def ub_to_ub(ctx, dst: LocalTensor, src: LocalTensor, spec: Any) -> None:
    """One UB -> UB DataCopy on the current core (or a lock-step batch: rows move alike)."""
    n, length, src_step, dst_step = _blocks(ctx, src, spec)
    ctx.ub.check(src.addr, 0, "DataCopy (UB to UB) source", align=32)
    ctx.ub.check(dst.addr, 0, "DataCopy (UB to UB) destination", align=32)
    if n <= 0 or length <= 0:
        return
    ctx.ub.check(src.addr, (n - 1) * src_step + length, "DataCopy (UB to UB) source")
    ctx.ub.check(dst.addr, (n - 1) * dst_step + length, "DataCopy (UB to UB) destination")
    if not ctx.dry_run:
        moved = []
        for k in range(n):                       # every block read before any is written (overlaps)
            a = src.addr + k * src_step
            data = np.array(ctx.ub.rd(a, length))
            defined = ctx.ub.rdef(a, length)
            moved.append((dst.addr + k * dst_step, data, True if defined is None else np.array(defined)))
        for addr, data, defined in moved:
            ctx.ub.wr(addr, data, defined)
    ctx.emit(Dma("UB2UB", "DataCopy", dst.addr, "UB", src.addr, n * length, n, length, kernel_frame()))
