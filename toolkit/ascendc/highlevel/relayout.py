"""The data-movement kernel behind the high-level tensor transforms (高阶API/张量变换): Broadcast, Pad, UnPad,
TransData and the high-level Transpose are each an element map ``dst[i] = src[idx[i]]`` (``idx[i] < 0``: a
pad position, which takes the pad value), run as basic-API calls:

1. the pad value (when the map has pad positions) is written by ``Duplicate`` into one 32 B block at the
   start of the temporary buffer;
2. the map is cut into chunks of a multiple of 32 elements (each chunk's destination starts 32 B aligned);
   per chunk the scalar unit stores the uint32 byte offsets into the temporary buffer (one scalar store
   per element), and one ``Gather`` moves the chunk. Offsets are taken from the lower of the source and
   the pad block, so a pad position reads the pad block.

A larger temporary buffer holds longer chunks (fewer Gather calls). Minimum: the pad block plus one chunk
of ``MIN_CHUNK`` offsets; maximum: the pad block plus the whole map. Both are what the host helpers return.
"""
from __future__ import annotations

import numpy as np

from toolkit.ascendc import membase as MB
from toolkit.ascendc.tensor import LocalTensor
from toolkit.engine.runtime import current
from toolkit.record.diagnostics import kernel_frame
from toolkit.record.events import ScalarOp, shared

from .tmpbuf import tmp_buffer

U32 = np.dtype(np.uint32)
PAD_BLOCK = 32
MIN_CHUNK = 256          #: elements per Gather with the minimum temporary buffer
CHUNK_ALIGN = 32         #: chunk lengths are multiples of this (32 B aligned destination for every type)


def _up(n: int, k: int) -> int:
    return (int(n) + k - 1) // k * k


def tmp_sizes(count: int) -> tuple[int, int]:
    """(max, min) temporary bytes of a map of ``count`` destination elements."""
    full = _up(max(int(count), 1), CHUNK_ALIGN)
    return PAD_BLOCK + 4 * full, PAD_BLOCK + 4 * min(full, MIN_CHUNK)


def check_disjoint(api: str, dst: LocalTensor, src: LocalTensor, n_dst: int, n_src: int) -> None:
    """The tensors hold what the shapes say, and (the pages) source and destination do not overlap."""
    for what, t, n in (("destination", dst, n_dst), ("source", src, n_src)):
        if n > t.count:
            current().report("BAD_PARAMETER", f"{api}: the shapes need {n} {what} elements, the tensor holds "
                             f"{t.count}")
    a0, a1 = dst.addr, dst.addr + n_dst * dst.dtype.itemsize
    b0, b1 = src.addr, src.addr + n_src * src.dtype.itemsize
    if n_dst and n_src and a0 < b1 and b0 < a1:
        current().report("BAD_PARAMETER", f"{api}: the source [{b0}, {b1}) and destination [{a0}, {a1}) overlap "
                         f"(the page does not allow it)")


def _store_offsets(table: LocalTensor, offsets: np.ndarray) -> None:
    """The scalar unit's stores of the offset table (one per element)."""
    ctx = current()
    n = offsets.size
    ctx.ub.check(table.addr, n * 4, "offset table", 4)
    ctx.ub.write(table.addr, offsets.astype(U32).view(np.uint8))
    ev = shared(ScalarOp, "ub_write", 4, kernel_frame())
    for _ in range(n):
        ctx.emit(ev)


def relayout(api: str, dst: LocalTensor, src: LocalTensor, idx: np.ndarray, pad_value, tmp: LocalTensor | None,
             n_src: int | None = None) -> None:
    """``dst[i] = src[idx[i]]`` (pad value where ``idx[i] < 0``) for ``i < idx.size``; ``tmp`` is the caller's
    sharedTmpBuffer or None (the framework's space, of the maximum size)."""
    ctx = current()
    dt = dst.dtype
    if src.dtype != dt:
        ctx.report("BAD_PARAMETER", f"{api}: the source and destination element types differ")
    n = int(idx.size)
    if n == 0:
        return
    n_src = int(idx.max()) + 1 if n_src is None else n_src
    check_disjoint(api, dst, src, n, max(n_src, 0))
    mx, mn = tmp_sizes(n)
    have = mx if tmp is None else tmp.count * tmp.dtype.itemsize
    buf = tmp_buffer(api, tmp, mn if tmp is not None else mx)
    if tmp is not None:
        _check_tmp_disjoint(api, buf, min(have, mx), ((dst, n), (src, n_src)))
    chunk = max(CHUNK_ALIGN, min((min(have, mx) - PAD_BLOCK) // 4 // CHUNK_ALIGN * CHUNK_ALIGN, _up(n, CHUNK_ALIGN)))
    pad = LocalTensor(buf.addr, dt, PAD_BLOCK // dt.itemsize, buf.position)
    has_pad = bool((idx < 0).any())
    if has_pad:
        MB.Duplicate(pad, _cast(pad_value, dt), PAD_BLOCK // dt.itemsize)
    base = min(src.addr, pad.addr) if has_pad else src.addr
    view = LocalTensor(base, dt, 1, src.position)
    sz = dt.itemsize
    offs = np.where(idx < 0, pad.addr - base, src.addr - base + idx.astype(np.int64) * sz)
    table = LocalTensor(buf.addr + PAD_BLOCK, U32, chunk, buf.position)
    for c0 in range(0, n, chunk):
        part = offs[c0:c0 + chunk]
        _store_offsets(table, part)
        MB.Gather(dst[c0], view, table, 0, int(part.size))


def _check_tmp_disjoint(api: str, buf: LocalTensor, used: int, tensors) -> None:
    lo, hi = buf.addr, buf.addr + used
    for t, count in tensors:
        if count > 0 and t.addr < hi and lo < t.addr + count * t.dtype.itemsize:
            current().report("BAD_PARAMETER", f"{api}: sharedTmpBuffer [{lo}, {hi}) overlaps an operand at UB "
                             f"{t.addr} (the page does not allow it)")


def _cast(value, dt: np.dtype):
    """The pad value in the element type (an int32 padValue into half / float / ints, as C++ converts it)."""
    from toolkit.ascendc.dtypes import scalar_value
    v = scalar_value(value)
    if dt.kind in "iu":
        return int(np.array(int(v)).astype(dt))
    return float(v)
