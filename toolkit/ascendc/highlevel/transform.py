"""``AscendC::`` tensor transforms of the high-level library (高阶API/张量变换), part 1: Broadcast (the
[dim, axis] forms and the rank 1..9 form of Ascend 950 with its kernel-side GetBroadcastTilingInfo), Pad,
UnPad, Fill (Global Memory), their tiling structs and host helpers. TransData and the high-level Transpose
are in :mod:`.transform_layout`.

Broadcasts of the last axis from 1 follow the Broadcast page's own steps (:mod:`.broadcast_page`: Brcb,
Copy, GatherMask); UnPad is a GatherMask compaction and Pad's scenario 2 a Copy plus a masked Duplicate
(same module); the rest (other broadcasts, Pad's scenario 1) is an element map run by
:func:`.relayout.relayout` (Duplicate of the pad value, an offset table per chunk, Gather). Layouts (from
the pages):

* Broadcast: ND, every source axis equal to the destination's or 1 (a broadcast axis); dst = src broadcast
  to the destination shape (numpy's broadcast_to).
* Pad: src [height, width]. Scenario 1 (width not 32 B aligned, all of it valid): each row becomes leftPad
  pad values, the row, rightPad pad values; the padded width must not exceed the width rounded up to 32 B
  (assumed: the destination rows are that padded width, leftPad + width + rightPad, one after another).
  Scenario 2 (width 32 B aligned, the valid width oriWidth less): same width; columns [oriWidth, oriWidth
  + rightPad) take the pad value, the others are copied; leftPad must be 0.
* UnPad: src [height, width] (width 32 B aligned); dst [height, width - rightPad] rows one after another;
  leftPad is ignored (the page: not in effect).
* Fill: Global Memory ``size`` elements set to ``value`` through a UB block (Duplicate, then DataCopyPad
  UB -> GM per block, after a V -> MTE3 flag).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from toolkit.ascendc import membase as MB
from toolkit.ascendc.dtypes import TemplateValue, scalar_value
from toolkit.ascendc.tensor import LocalTensor
from toolkit.engine.runtime import current_or_none

from . import broadcast_page as BP
from .math_common import HighLevelApi
from .relayout import check_disjoint, relayout, tmp_sizes
from .tmpbuf import tmp_buffer

MAX_RANK = 9
FILL_UB_BYTES = 8192     #: the UB block Fill writes from (assumed; the page does not give its size)


def _bad(msg: str) -> None:
    """A BAD_PARAMETER diagnostic in a kernel; on the host side (no core running) a ValueError."""
    ctx = current_or_none()
    if ctx is None:
        raise ValueError(msg)
    ctx.report("BAD_PARAMETER", msg)


def _dims(v: Any, n: int | None = None) -> list[int]:
    dims = [int(scalar_value(x)) for x in (v.GetDims() if hasattr(v, "GetDims") else v)]
    return dims if n is None else dims[:n]


# -- Broadcast ------------------------------------------------------------------------------------------------
@dataclass
class BroadcastTiling:
    """The kernel-side Broadcast tiling (GetBroadcastTilingInfo): the rank and both shapes. ``axis`` is the
    [dim, axis] forms' axis (-1: every broadcast axis the shapes give). Field layout: assumed (not published)."""

    rank: int = 0
    axis: int = -1
    srcInnerPad: bool = False
    dstShape0: int = 0
    dstShape1: int = 0
    dstShape2: int = 0
    dstShape3: int = 0
    dstShape4: int = 0
    dstShape5: int = 0
    dstShape6: int = 0
    dstShape7: int = 0
    dstShape8: int = 0
    srcShape0: int = 0
    srcShape1: int = 0
    srcShape2: int = 0
    srcShape3: int = 0
    srcShape4: int = 0
    srcShape5: int = 0
    srcShape6: int = 0
    srcShape7: int = 0
    srcShape8: int = 0

    def shapes(self) -> tuple[list[int], list[int]]:
        r = int(self.rank)
        return ([int(getattr(self, f"dstShape{k}")) for k in range(r)],
                [int(getattr(self, f"srcShape{k}")) for k in range(r)])


def _tiling_of(rank: int, dst: list[int], src: list[int], axis: int = -1, inner_pad: bool = False) -> BroadcastTiling:
    t = BroadcastTiling(int(rank), int(axis), bool(inner_pad))
    for k in range(min(int(rank), MAX_RANK)):
        setattr(t, f"dstShape{k}", int(dst[k]))
        setattr(t, f"srcShape{k}", int(src[k]))
    return t


def GetBroadcastTilingInfo(rank, dstShape, srcShape, srcInnerPad=False, tiling: BroadcastTiling | None = None,
                           **_: Any) -> BroadcastTiling:
    """``GetBroadcastTilingInfo<T>(rank, dstShape, srcShape, srcInnerPad, tiling)`` (kernel side)."""
    r = int(scalar_value(rank))
    if not 1 <= r <= MAX_RANK:
        _bad(f"GetBroadcastTilingInfo: rank {r} is outside [1, {MAX_RANK}]")
    if bool(srcInnerPad):
        _bad("GetBroadcastTilingInfo: srcInnerPad must be false (the page)")
    t = _tiling_of(r, _dims(dstShape, r), _dims(srcShape, r), -1, bool(srcInnerPad))
    if tiling is not None:
        for f in fields(t):
            setattr(tiling, f.name, getattr(t, f.name))
    return t


def _broadcast_map(api: str, dst_shape: list[int], src_shape: list[int], axis: int, itemsize: int) -> np.ndarray:
    r = len(dst_shape)
    if not 1 <= r <= MAX_RANK or len(src_shape) != r:
        _bad(f"{api}: rank {r} (source rank {len(src_shape)}): both shapes have the same rank in [1, {MAX_RANK}]")
    for k, (d, s) in enumerate(zip(dst_shape, src_shape)):
        if s != d and s != 1:
            _bad(f"{api}: axis {k}: source {s} and destination {d} (a source axis is the destination's or 1)")
    if axis >= 0:
        if r > 2 or axis >= r:
            _bad(f"{api}: dim {r} / axis {axis}: the [dim, axis] forms take dim 1 or 2 and axis 0 or 1")
        if r == 2 and axis == 0 and (src_shape[1] * itemsize) % 32:
            _bad(f"{api}: dim 2, axis 0: srcShape[1] ({src_shape[1]} elements) must be 32 B aligned")
        if src_shape[axis] != 1 and src_shape[axis] != dst_shape[axis]:
            _bad(f"{api}: axis {axis} is not a broadcast axis of the shapes")
    idx = np.arange(math.prod(src_shape), dtype=np.int64).reshape(src_shape)
    return np.broadcast_to(idx, dst_shape).ravel()


def _broadcast(dst: LocalTensor, src: LocalTensor, *args: Any, dim: int | None = None, axis: int | None = None,
               **_: Any) -> None:
    """``Broadcast<T, dim, axis>(dst, src, dstShape, srcShape[, sharedTmpBuffer])``, the 950 form
    ``Broadcast<T>(dst, src, dstShape, srcShape, BroadcastTiling*)`` and the flattened form of the .asc
    route ``(dst, src, BroadcastTiling[, sharedTmpBuffer])``."""
    api = "Broadcast"
    rest = list(args)
    tmp = rest.pop() if rest and isinstance(rest[-1], LocalTensor) else None
    if rest and isinstance(rest[0], BroadcastTiling) and len(rest) == 1:         # the flattened form
        t = rest[0]
        dshape, sshape = t.shapes()
        ax = int(t.axis)
    elif len(rest) == 3 and isinstance(rest[2], BroadcastTiling):                # the rank 1..9 form
        r = int(rest[2].rank)
        dshape, sshape, ax = _dims(rest[0], r), _dims(rest[1], r), -1
    elif len(rest) == 2:                                                         # Broadcast<T, dim, axis>
        dshape, sshape = _dims(rest[0]), _dims(rest[1])
        if dim is not None and (int(dim) != len(dshape) or int(dim) != len(sshape)):
            _bad(f"{api}: dim {dim} but shapes of {len(dshape)} / {len(sshape)} entries")
        ax = 0 if axis is None and len(dshape) == 1 else (-1 if axis is None else int(axis))
    else:
        _bad(f"{api}: unrecognised arguments (shapes and an optional sharedTmpBuffer, or a BroadcastTiling)")
        return
    idx = _broadcast_map(api, dshape, sshape, ax, dst.dtype.itemsize)
    rows = BP.rows_of(dshape, sshape, dst.dtype.itemsize)
    if rows is not None:                              # the page's Brcb / Copy / GatherMask steps
        check_disjoint(api, dst, src, idx.size, math.prod(sshape))
        BP.broadcast_rows(api, dst, src, rows[0], rows[1], tmp)
        return
    relayout(api, dst, src, idx, 0, tmp, math.prod(sshape))


class _BroadcastApi:
    """Broadcast[T, dim, axis] (and [T, dim, axis, isReuseSource]) binds dim and axis; types are deduced."""

    __name__ = "Broadcast"
    __doc__ = _broadcast.__doc__

    def __call__(self, *args: Any, **kw: Any) -> None:
        _broadcast(*args, **kw)

    def __getitem__(self, targs: Any):
        ints = [int(a) for a in (targs if isinstance(targs, tuple) else (targs,))
                if isinstance(a, (int, np.integer)) and not isinstance(a, bool)]
        kw = {k: v for k, v in zip(("dim", "axis"), ints)}
        for a in targs if isinstance(targs, tuple) else (targs,):
            if isinstance(a, TemplateValue):
                kw[a.name] = a.value
        return lambda *args: _broadcast(*args, **kw)


Broadcast = _BroadcastApi()


def GetBroadCastMaxMinTmpSize(*args: Any) -> None:
    """``([platform,] srcShape, dstShape, typeSize, isReuseSource, maxValue, minValue)``."""
    src_shape, dst_shape, ts, _reuse, mx, mn = host_args(args, 6)
    rows = BP.rows_of(_dims(dst_shape), _dims(src_shape), int(ts))
    if rows is not None:
        mx.value = mn.value = BP.tmp_bytes(rows[0], rows[1], int(ts))
        return
    mx.value, mn.value = tmp_sizes(math.prod(_dims(dst_shape)) if _dims(dst_shape) else 0)


def host_args(args: tuple, n: int) -> tuple:
    """A host query's arguments without its leading PlatformAscendC (the .asc route does not send it; a Python
    caller may pass one, or None)."""
    return tuple(args[len(args) - n:]) if len(args) > n else tuple(args)


# -- Pad / UnPad ----------------------------------------------------------------------------------------------
@dataclass
class PadParams:
    leftPad: int = 0
    rightPad: int = 0
    padValue: int = 0


@dataclass
class UnPadParams:
    leftPad: int = 0
    rightPad: int = 0


@dataclass
class PadTiling:
    """PadTilingFunc's result (field layout assumed: the vendor's is not published)."""

    srcHeight: int = 0
    srcWidth: int = 0
    srcOriWidth: int = 0
    alignedWidth: int = 0
    typeSize: int = 0
    tmpBufferSize: int = 0


@dataclass
class UnPadTiling:
    """UnPadTilingFunc's result (field layout assumed: the vendor's is not published)."""

    srcHeight: int = 0
    srcWidth: int = 0
    typeSize: int = 0
    tmpBufferSize: int = 0


def _hw(shape: Any) -> tuple[int, int]:
    d = _dims(shape)
    return (d[0], d[1]) if len(d) >= 2 else (1, d[0] if d else 0)


def _aligned(w: int, ts: int) -> int:
    per = 32 // max(int(ts), 1) or 1
    return (w + per - 1) // per * per


def GetPadMaxMinTmpSize(srcShape, typeSize, maxValue, minValue) -> None:
    """An unaligned width (scenario 1): the element map's sizes; an aligned one (scenario 2): none needed."""
    h, w = _hw(srcShape)
    if w == _aligned(w, int(typeSize)):
        maxValue.value = minValue.value = 0
        return
    maxValue.value, minValue.value = tmp_sizes(h * _aligned(w, int(typeSize)))


def PadTilingFunc(srcShape, oriSrcShape, stackBufferSize, typeSize, tiling: PadTiling | None = None) -> PadTiling:
    h, w = _hw(srcShape)
    _, ow = _hw(oriSrcShape)
    ts = int(typeSize)
    t = PadTiling(h, w, ow or w, _aligned(ow or w, ts), ts, int(stackBufferSize))
    return _copy_into(tiling, t)


def GetUnPadMaxMinTmpSize(*args: Any) -> None:
    """``(platform, srcShape, typeSize, maxValue, minValue)`` (the platform is optional here)."""
    srcShape, _ts, mx, mn = host_args(args, 4)
    _, w = _hw(srcShape)
    mx.value = mn.value = BP.pattern_bytes(w)


def UnPadTilingFunc(srcShape, stackBufferSize, typeSize, tiling: UnPadTiling | None = None) -> UnPadTiling:
    h, w = _hw(srcShape)
    return _copy_into(tiling, UnPadTiling(h, w, int(typeSize), int(stackBufferSize)))


def _copy_into(out: Any, t: Any) -> Any:
    if out is not None and type(out) is type(t):
        for f in fields(t):
            setattr(out, f.name, getattr(t, f.name))
    return t


def _pad_map(api: str, h: int, w: int, ow: int, left: int, right: int, sz: int) -> np.ndarray:
    per = 32 // sz
    if (h * w * sz) % 32:
        _bad(f"{api}: the source ({h} x {w} elements) must hold a multiple of 32 B")
    rows = np.arange(h, dtype=np.int64)[:, None] * w
    if w % per:                                            # scenario 1: pad on both sides
        if ow != w:
            _bad(f"{api}: srcShape width {w} is not 32 B aligned, so it must equal the original width {ow}")
        if left + w + right > _aligned(w, sz):
            _bad(f"{api}: leftPad {left} + width {w} + rightPad {right} exceeds the 32 B aligned width "
                 f"{_aligned(w, sz)}")
        col = np.arange(left + w + right, dtype=np.int64) - left
        return np.where((col >= 0) & (col < w), rows + col, -1).ravel()
    if ow >= w:
        _bad(f"{api}: the width {w} is 32 B aligned and all valid: nothing to pad (the page does not support it)")
    if left:
        _bad(f"{api}: a 32 B aligned width pads on the right only (leftPad {left})")
    if ow + right > w:
        _bad(f"{api}: original width {ow} + rightPad {right} exceeds the width {w}")
    col = np.arange(w, dtype=np.int64)
    return np.where((col >= ow) & (col < ow + right), -1, rows + col).ravel()


def _pad(dst: LocalTensor, src: LocalTensor, padParams: PadParams, *rest: Any) -> None:
    """``Pad(dst, src, padParams[, sharedTmpBuffer], tiling)``."""
    api = "Pad"
    tmp = rest[0] if len(rest) == 2 else None
    tiling: PadTiling = rest[-1]
    sz = dst.dtype.itemsize
    h, w, ow = int(tiling.srcHeight), int(tiling.srcWidth), int(tiling.srcOriWidth) or int(tiling.srcWidth)
    left, right = int(padParams.leftPad), int(padParams.rightPad)
    idx = _pad_map(api, h, w, ow, left, right, sz)
    value = int(scalar_value(padParams.padValue))
    if w % (32 // sz) == 0:                           # scenario 2: Copy and a masked Duplicate
        check_disjoint(api, dst, src, h * w, h * w)
        BP.pad_right_in_place(dst, src, h, w, ow, right, _pad_value(value, dst.dtype))
        return
    relayout(api, dst, src, idx, value, tmp, h * w)


def _pad_value(v: int, dt: np.dtype):
    return int(np.array(v).astype(dt)) if dt.kind in "iu" else float(v)


def _unpad(dst: LocalTensor, src: LocalTensor, unPadParams: UnPadParams, *rest: Any) -> None:
    """``UnPad(dst, src, unPadParams[, sharedTmpBuffer], tiling)``: rightPad columns off each row."""
    api = "UnPad"
    tmp = rest[0] if len(rest) == 2 else None
    tiling: UnPadTiling = rest[-1]
    sz = dst.dtype.itemsize
    h, w, right = int(tiling.srcHeight), int(tiling.srcWidth), int(unPadParams.rightPad)
    if (w * sz) % 32:
        _bad(f"{api}: the width {w} is not 32 B aligned (the page does not support it)")
    if not 0 < right < 32 // sz:
        _bad(f"{api}: rightPad {right} must be more than 0 and less than 32 B ({32 // sz} elements)")
    check_disjoint(api, dst, src, h * (w - right), h * w)
    BP.unpad_rows(api, dst, src, h, w, w - right, tmp)


# -- Fill (Global Memory) -------------------------------------------------------------------------------------
def Fill(gmWorkspaceAddr, size, value) -> None:
    """``Fill(gmWorkspaceAddr, size, value)``: ``size`` elements of Global Memory set to ``value``."""
    from toolkit.ascendc import sync
    from toolkit.ascendc.dma import DataCopyExtParams, DataCopyPad
    gm = gmWorkspaceAddr
    n = int(scalar_value(size))
    if n <= 0:
        return
    dt = gm.dtype
    buf = tmp_buffer("Fill", None, FILL_UB_BYTES)
    per = FILL_UB_BYTES // dt.itemsize
    ub = LocalTensor(buf.addr, dt, per, buf.position)
    MB.Duplicate(ub, _value(value, dt), min(per, -(-n * dt.itemsize // 32) * 32 // dt.itemsize))
    sync.SetFlag[sync.HardEvent.V_MTE3](0)
    sync.WaitFlag[sync.HardEvent.V_MTE3](0)
    for off in range(0, n, per):
        cnt = min(per, n - off)
        DataCopyPad(gm[off], ub, DataCopyExtParams(1, cnt * dt.itemsize, 0, 0, 0))


def _value(v: Any, dt: np.dtype):
    x = scalar_value(v)
    return int(x) if dt.kind in "iu" else float(x)


Pad = HighLevelApi(_pad, "Pad")
UnPad = HighLevelApi(_unpad, "UnPad")
