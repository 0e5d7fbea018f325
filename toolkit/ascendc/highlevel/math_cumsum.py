"""``CumSum<T, config>(dst, lastRow, src, [sharedTmpBuffer], CumSumInfo{outter, inner})``: running sums of a
[outter, inner] matrix along the first axis (row i = row i-1 + src row i) or the last axis (column j =
column j-1 + src column j), line by line in float32, as the page's LINEBYLINE algorithm (the SKLANSKY one
is accepted and gives the same sums up to the order of the additions: assumed equal).

The first axis is one Add per row. The last axis transposes through Gather (byte offsets built with
CreateVecIndex and integer Div / Mul / Adds) into [inner, P] rows (P = outter rounded up to 8), adds rows,
and gathers back. ``outputLastRow`` copies the last row of the result into ``lastRow``.
Temporary space (one formula with the host query): the float32 working rows, the transposed copy and its
offsets (see :func:`tmp_bytes`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from toolkit.ascendc import membase as MB
from toolkit.ascendc.regbase.types import RoundMode
from toolkit.ascendc.tensor import LocalTensor
from toolkit.engine.runtime import current

from .math_common import F32, HighLevelApi, acquire_tmp, ceil_to

I32 = np.dtype(np.int32)
U32 = np.dtype(np.uint32)
LAST_AXIS, LAST_ROW = 1, 2          #: bits of the config value the bridge sends


@dataclass
class CumSumInfo:
    outter: int = 0
    inner: int = 0


def tmp_bytes(outter: int, inner: int, type_size: int, last_axis: bool) -> int:
    """Temporary bytes CumSum uses (minimum = maximum): float32 copies of src and dst for a non-float32
    type; for the last axis the transposed [inner, P] float32 matrix and three int32 rows for the Gather
    offsets."""
    n = outter * inner
    conv = 2 * ceil_to(n, 64) * 4 if type_size != 4 else 0
    if not last_axis:
        return conv
    m = inner * ceil_to(outter, 8)
    return conv + ceil_to(m, 64) * 4 + 3 * ceil_to(max(m, n), 64) * 4


def _first_axis(s: LocalTensor, d: LocalTensor, outter: int, inner: int) -> None:
    MB.Copy(d, s, inner)
    for i in range(1, outter):
        MB.Add(d[i * inner], d[(i - 1) * inner], s[i * inner], inner)


def _perm_offsets(off: LocalTensor, count: int, div: int, mul: int) -> None:
    """off[k] = ((k mod div) * mul + k div div) * 4 for k < count (off has three regions of ``count``)."""
    step = ceil_to(count, 64)
    q, c = off[step], off[2 * step]
    MB.CreateVecIndex(off, np.int32(0), count)
    MB.Duplicate(c, np.int32(div), count)
    MB.Div(q, off, c, count)                       # k div div
    MB.Muls(c, q, np.int32(div), count)
    MB.Sub(off, off, c, count)                     # k mod div
    MB.Muls(off, off, np.int32(mul), count)
    MB.Add(off, off, q, count)
    MB.Muls(off, off, np.int32(4), count)


def _last_axis(s: LocalTensor, d: LocalTensor, outter: int, inner: int, work: int) -> None:
    """d = running sums along each row of s ([outter, inner] float32), through a transposed copy [inner, p]
    (p = outter rounded up to 8 floats: 32 B rows)."""
    p = ceil_to(outter, 8)
    m, n = inner * p, outter * inner
    tr = LocalTensor(work, F32, ceil_to(m, 64))
    off = LocalTensor(work + ceil_to(m, 64) * 4, I32, 3 * ceil_to(max(m, n), 64))
    _perm_offsets(off, m, p, inner)                # element j*p + i of tr <- s[i, j] (padding lanes: unused)
    MB.Gather(tr, s, off.ReinterpretCast(U32), 0, m)
    for j in range(1, inner):
        MB.Add(tr[j * p], tr[(j - 1) * p], tr[j * p], p)
    _perm_offsets(off, n, inner, p)                # d[i, j] <- element j*p + i of tr
    MB.Gather(d, tr, off.ReinterpretCast(U32), 0, n)


def _cumsum(dst: LocalTensor, lastRow: LocalTensor, src: LocalTensor, *rest: Any, config: int = LAST_AXIS) -> None:
    """``CumSum<T, config>(dst, lastRowTensor, src, [sharedTmpBuffer], cumSumInfo)``."""
    ctx = current()
    api = "CumSum"
    tmp = next((a for a in rest if isinstance(a, LocalTensor)), None)
    info = rest[-1]
    outter, inner = int(info.outter), int(info.inner)
    dt = dst.dtype
    if dt not in (np.dtype(np.float16), F32) or src.dtype != dt:
        ctx.report("BAD_PARAMETER", f"{api}: half or float tensors of one type")
    if outter <= 0 or inner <= 0 or (inner * dt.itemsize) % 32:
        ctx.report("BAD_PARAMETER", f"{api}: outter and inner must be > 0 and inner * sizeof(T) a multiple of 32 B "
                   f"(got {outter} x {inner})")
    last = bool(int(config) & LAST_AXIS)
    need = tmp_bytes(outter, inner, dt.itemsize, last)
    addr, _ = acquire_tmp(api, tmp, need) if need else (0, 0)
    n = outter * inner
    s, d = src, dst
    if dt != F32:
        s = LocalTensor(addr, F32, ceil_to(n, 64))
        d = LocalTensor(addr + ceil_to(n, 64) * 4, F32, ceil_to(n, 64))
        addr += 2 * ceil_to(n, 64) * 4
        MB.Cast(s, src, RoundMode.CAST_NONE, n)
    if last:
        _last_axis(s, d, outter, inner, addr)
    else:
        _first_axis(s, d, outter, inner)
    if dt != F32:
        MB.Cast(dst, d, RoundMode.CAST_RINT, n)
    if int(config) & LAST_ROW:
        MB.Copy(lastRow, dst[(outter - 1) * inner], inner)


CumSum = HighLevelApi(_cumsum, "CumSum")
