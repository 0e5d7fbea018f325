"""DataCopy / DataCopyPad between GM and UB (MTE2 in, MTE3 out), per api-facts 12.

GM->UB DataCopyPad: GM block k starts at ``src + k*(blockLen + srcStride)`` bytes; UB block k at
``dst + k*AlignUp(dstStride*32 + leftPad*sz + blockLen + rightPad*sz, 32)``; each UB block is padded
to 32 B (left/right padding with ``paddingValue`` when ``isPad``; with no padding requested, the
filler is the block's first element; otherwise the filler is unspecified and stays *undefined*).
UB->GM DataCopyPad: UB block k at ``src + k*AlignUp(srcStride*32 + blockLen, 32)``; GM block k at
``dst + k*(blockLen + dstStride)``; only ``blockLen`` bytes per block reach GM.
DataCopy moves ``count*sizeof(T)`` rounded *down* to 32 B, or blocks in 32 B units with DataCopyParams;
between two LocalTensors it is a UB to UB copy (toolkit.ascendc.ubcopy). DataCopyPad's Compact mode
(``PaddingMode::Compact``) packs the blocks back to back and pads once, after the last one.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any, Callable

import numpy as np

from toolkit.engine.batch import BatchCore
from toolkit.engine.lockstep import arg_key
from toolkit.engine.runtime import current, enter, leave
from toolkit.record.diagnostics import SOURCE_LOCATION, WARNING, KernelAbort, kernel_frame
from toolkit.record.events import Dma

from .atomic import any_dma_mode, dma_mode, gm_combine
from .dma_loop import (  # noqa: F401 (the API)
    DataCopyMVType,
    LoopModeParams,
    ResetLoopModePara,
    SetLoopModePara,
    SetPadValue,
    loop_pairs,
    pad_register,
)
from .dtypes import scalar_value
from .tensor import GlobalTensor, LocalTensor, check_gm, gm_write, gm_write_rows


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




def _int(v: int) -> int:
    """One int object per UB address or byte count a DMA record holds (a record then costs its own
    object and its GM offset, nothing more): these take few values, unlike GM offsets."""
    return _INTS.setdefault(v, v)


_INTS: dict[int, int] = {}


def _run(starts: np.ndarray, length: int) -> bool:
    """Blocks of ``length`` bytes at ``starts`` are one contiguous run (a single burst or back to back)."""
    return starts.size == 1 or bool(np.all(np.diff(starts) == length))


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
    compact: bool = False      #: PaddingMode::Compact: blocks back to back, one padding after the last

    @property
    def moves(self) -> bool:
        return self.n > 0 and self.length > 0

    @property
    def gm_reach(self) -> tuple[int, int]:
        """[lo, hi) of the bytes the blocks touch, relative to the GM tensor's offset."""
        last = (self.n - 1) * self.gm_step
        return min(0, last), max(0, last) + self.length

    @property
    def fills(self) -> bool:
        """GM->UB blocks whose 32 B UB block also gets padding (written per core: it may come from GM)."""
        if not self.to_ub or self.pad is None:
            return False
        left, right = self.pad[0], self.pad[1]
        if self.compact:
            return bool(right or (self.n * self.length) % 32)
        return bool(left or right or _align32(left + self.length + right) != left + self.length + right)


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


def _plan_copy_pad(ctx, dst: Any, src: Any, ext: DataCopyExtParams, pad: DataCopyPadExtParams | None = None,
                   mode: Any = None) -> tuple[_Move, GlobalTensor] | None:
    _check_ext(ctx, ext, "DataCopyPad")
    n, length = int(ext.blockCount), int(ext.blockLen)
    if n == 0 or length == 0:
        return None
    k = np.arange(n, dtype=np.int64)
    if mode is PaddingMode.Compact:
        return _plan_compact(dst, src, ext, pad, n, length, k)
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


def _plan_compact(dst: Any, src: Any, ext: DataCopyExtParams, pad: DataCopyPadExtParams | None, n: int,
                  length: int, k: np.ndarray) -> tuple[_Move, GlobalTensor]:
    """Compact mode: UB block k at ``k * blockLen`` (no 32 B alignment per block, the UB stride unused);
    GM->UB pads once after the last block (rightPadding, then dummy bytes to 32 B; leftPadding unused)."""
    if isinstance(dst, LocalTensor) and isinstance(src, GlobalTensor):
        pad = pad or DataCopyPadExtParams()
        sz = dst.dtype.itemsize
        right = int(pad.rightPadding) * sz
        entry = (dst.addr, _align32(n * length + right))
        return _Move("DataCopyPad", dst, True, n, length, length + int(ext.srcStride), dst.addr + k * length,
                     entry, (0, right, pad, sz), compact=True), src
    if isinstance(dst, GlobalTensor) and isinstance(src, LocalTensor):
        return _Move("DataCopyPad", src, False, n, length, length + int(ext.dstStride), src.addr + k * length,
                     (src.addr, 0), compact=True), dst
    raise TypeError("DataCopyPad needs one LocalTensor and one GlobalTensor")


def _perform(ctx, mv: _Move, g: GlobalTensor) -> None:
    """Run a laid-out move on one core (a fatal rule it breaks raises, as anywhere else)."""
    stop = _execute(ctx, mv, [ctx], [g]).get(ctx.core_id)
    if stop is not None:
        raise stop


def _execute(ctx, mv: _Move, cores: list, globs: list[GlobalTensor]) -> dict[int, KernelAbort]:
    """Run a laid-out move for ``cores`` (``ctx`` is the one core, or the BatchCore of a lock-step group;
    ``globs[k]`` is core k's GM tensor). Each core meets the steps a core-by-core run makes, in its
    order: the UB entry check, the GM footprint (checked in Python integers before any int64 address
    array is built: an address that comes from data, say an index of 2**56, is a GM_OUT_OF_BOUNDS like any
    other, never an overflow), the UB span, then the bytes (never-written UB bytes bound for GM reported),
    the padding and the event. The UB side moves as one array over the cores' rows; a contiguous run
    moves as one slice. Returns the fatal diagnostics that stopped some of the cores (not all of them:
    a rule all break alike raises)."""
    ctx.ub.check(mv.entry[0], mv.entry[1], mv.api, align=32)
    outcomes: dict[int, KernelAbort] = {}
    alive = list(zip(cores, globs))
    if not mv.moves:
        return outcomes
    lo, hi = mv.gm_reach
    if not all(g.buf is not None and g.offset + lo >= 0 and g.offset + hi <= g.buf.size for g in globs):
        alive = _each(alive, outcomes, lambda m, g: check_gm(g.buf, g.offset + lo, hi - lo, mv.api))
        if not alive:
            return outcomes
        if len(alive) < len(cores):
            ctx = BatchCore([m for m, _ in alive], ctx.ub.data2d, ctx.ub.defined2d)
    u0 = int(mv.ub_starts.min())
    ctx.ub.check(u0, int(mv.ub_starts.max()) - u0 + mv.length, mv.api)
    if not ctx.dry_run:
        (_to_ub if mv.to_ub else _to_gm)(ctx, mv, alive)
    where = kernel_frame()
    direction, nbytes, length = ("GM2UB" if mv.to_ub else "UB2GM"), _int(mv.n * mv.length), _int(mv.length)
    addr = _int(mv.local.addr)
    for m, g in alive:
        m.emit(Dma(direction, mv.api, addr, g.buf.name, g.offset, nbytes, mv.n, length, where))
    return outcomes


def _each(alive: list, outcomes: dict, fn: Callable) -> list:
    """Run ``fn(core, its GM tensor)`` as each core; the ones a fatal rule stops drop out."""
    kept = []
    for m, g in alive:
        token = enter(m)
        try:
            fn(m, g)
            kept.append((m, g))
        except KernelAbort as stop:
            outcomes[m.core_id] = stop
        finally:
            leave(token)
    return kept


def _to_gm(ctx, mv: _Move, alive: list) -> None:
    """UB -> GM: the cores' UB bytes read at once; per core the undefined-byte report and the GM write."""
    total = mv.n * mv.length
    if _run(mv.ub_starts, mv.length):
        u0 = int(mv.ub_starts[0])
        idx, data, undefined = None, ctx.ub.rd(u0, total), ctx.ub.rdef(u0, total)
    else:
        idx = _block_index(mv.ub_starts, mv.length)
        data, undefined = ctx.ub.gather(np.uint8, idx), ctx.ub.gather_def(1, idx)
        undefined = None if undefined.all() else undefined
    rel = mv.gm_step * np.arange(mv.n, dtype=np.int64)
    contiguous_gm = _run(rel, mv.length)

    def write(k: int, m, g: GlobalTensor) -> None:
        if undefined is not None and not undefined[k].all():
            shadow = undefined[k]
            first = int(np.argmin(shadow))
            first = int(idx[first]) if idx is not None else int(mv.ub_starts[0]) + first
            missing = int((~shadow).sum())
            m.report("UNDEFINED_READ", f"{mv.api} to {g.buf.name} copies {missing} never-written "
                     f"UB byte(s), first at {first}", address=first, size=missing, severity=WARNING)
        mode = dma_mode(m)
        put = (lambda buf, off, raw: gm_write(buf, off, raw, m)) if mode is None else \
            (lambda buf, off, raw: gm_combine(buf, off, raw, mode))
        if contiguous_gm:
            put(g.buf, g.offset + int(rel[0]), data[k])
        else:
            for b in range(mv.n):
                put(g.buf, g.offset + int(rel[b]), data[k, b * mv.length:(b + 1) * mv.length])

    bufs = {id(g.buf) for _, g in alive}
    members = [m for m, _ in alive]
    if undefined is None and contiguous_gm and len(bufs) == 1 and not any_dma_mode(members):
        r0 = int(rel[0])                        # the usual group: plain rows into one buffer
        gm_write_rows(alive[0][1].buf, [g.offset + r0 for _, g in alive], data, members)
        return
    for k, (m, g) in enumerate(alive):          # each core's own context is passed, not made current
        write(k, m, g)


def _to_ub(ctx, mv: _Move, alive: list) -> None:
    """GM -> UB: the cores' GM bytes written to their UB rows at once, then each core's padding."""
    total = mv.n * mv.length
    rel = mv.gm_step * np.arange(mv.n, dtype=np.int64)
    if _run(rel, mv.length):
        r0 = int(rel[0])
        rows = [g.buf.data[g.offset + r0:g.offset + r0 + total] for _, g in alive]
        if _run(mv.ub_starts, mv.length) and hasattr(ctx.ub, "wr_rows") and not mv.fills:
            ctx.ub.wr_rows(int(mv.ub_starts[0]), rows)          # a group: each row copied once
            return
        data = np.stack(rows)
    else:
        gidx = _block_index(rel, mv.length)
        data = np.stack([g.buf.data[g.offset + gidx] for _, g in alive])
    if _run(mv.ub_starts, mv.length):
        ctx.ub.wr(int(mv.ub_starts[0]), data)
    else:
        ctx.ub.scatter(np.uint8, _block_index(mv.ub_starts, mv.length), data, None)
    if mv.fills:
        left, right, pad, sz = mv.pad
        for m, g in alive:
            reg = pad_register(m)
            if mv.compact:            # one tail after the packed blocks, filled as one block's would be
                fills = _pad_fill(g, g.offset + rel[:1], mv.ub_starts[:1], mv.n * mv.length, 0, right, pad, sz, reg)
            else:
                fills = _pad_fill(g, g.offset + rel, mv.ub_starts - left, mv.length, left, right, pad, sz, reg)
            for addr, _, value, defined in fills:
                m.ub.write(addr, value, defined)


class DmaRequest:
    """A copy parked in lock-step (toolkit.engine.lockstep): its identity leaves out the GM tensor's offset (the
    per-core part), so cores moving their own rows with the same UB side and parameters run it at once."""

    __slots__ = ("fn", "args", "where", "key")
    #: a uniform group (toolkit.engine.uniform) needs no key check for per-core GM tensors: not in the key
    gm_offsets_free = True

    def __init__(self, fn: Callable, args: tuple, where: tuple):
        self.fn, self.args, self.where = fn, args, where

    def make_key(self) -> tuple:
        key = arg_key
        return (self.fn, self.where, tuple([("G", id(a.buf), a.dtype) if type(a) is GlobalTensor else key(a)
                                            for a in self.args]))

    def run(self, bctx, reqs: list["DmaRequest"]) -> dict[int, KernelAbort]:
        return self.run_globs(bctx, [next(a for a in r.args[:2] if isinstance(a, GlobalTensor)) for r in reqs])

    def run_globs(self, bctx, globs: list[GlobalTensor]) -> dict[int, KernelAbort]:
        """Run for the group, member k moving its own GM tensor ``globs[k]`` (the rest of the arguments
        are the same for all: this request's)."""
        token = SOURCE_LOCATION.set(self.where)
        try:
            plan = _plan_copy(bctx, *self.args) if self.fn is DataCopy else _plan_copy_pad(bctx, *self.args)
            if plan is None:
                return {}
            return _execute(bctx, plan[0], bctx.members, globs)
        finally:
            SOURCE_LOCATION.reset(token)


def _parked(ctx, fn, args: tuple) -> bool:
    """In lock-step, a copy outside any VF waits for the other cores and runs with them."""
    if ctx.scheduler is None or ctx.vf is not None:
        return False
    ctx.scheduler.park(DmaRequest(fn, args, kernel_frame()))
    return True


def DataCopy(dst: Any, src: Any, count_or_params: Any) -> None:
    """``DataCopy(dst, src, count)`` (contiguous, 32 B granules) or ``DataCopy(dst, src, DataCopyParams)``;
    UB to UB when both are LocalTensors."""
    ctx = current()
    if isinstance(dst, LocalTensor) and isinstance(src, LocalTensor):
        from .ubcopy import ub_to_ub
        ub_to_ub(ctx, dst, src, count_or_params)
        return
    for d, s in loop_pairs(dst, src):                # the loop mode (SetLoopModePara): one pair when off
        if not _parked(ctx, DataCopy, (d, s, count_or_params)):
            _perform(ctx, *_plan_copy(ctx, d, s, count_or_params))


class PaddingMode(Enum):
    """DataCopyPad<T, mode>: Normal pads every block to 32 B; Compact packs the blocks and pads once."""

    Normal = 0
    Compact = 1


def DataCopyPad(*args: Any) -> None:
    """``DataCopyPad<T[, mode]>(dst, src, DataCopyExtParams[, DataCopyPadExtParams])`` (a leading
    PaddingMode is the template argument; Normal when there is none)."""
    mode = args[0] if args and isinstance(args[0], PaddingMode) else PaddingMode.Normal
    dst, src, ext, *rest = args[1:] if args and isinstance(args[0], PaddingMode) else args
    pad = rest[0] if rest else None
    ctx = current()
    for d, s in loop_pairs(dst, src):                # the loop mode (SetLoopModePara): one pair when off
        if not _parked(ctx, DataCopyPad, (d, s, ext, pad, mode)):
            plan = _plan_copy_pad(ctx, d, s, ext, pad, mode)
            if plan is not None:
                _perform(ctx, *plan)


def _pad_fill(src: GlobalTensor, gm_starts, ub_starts, length, left, right, pad, sz, reg=None) -> list:
    """UB-side padding of each block: (addr, nbytes, bytes, defined) writes applied after the data; with
    isPad false the padding is SetPadValue's value (``reg``) when one was set, else undefined."""
    fill = []
    total = _align32(left + length + right)
    dummy = total - (left + length + right)
    value = pad.paddingValue if pad.isPad or reg is None else reg
    pad_bytes = np.array([value], dtype=src.dtype).view(np.uint8)
    for g, u in zip(gm_starts.tolist(), ub_starts.tolist()):
        if left or right:
            defined = bool(pad.isPad) or reg is not None
            for addr, nb in ((u, left), (u + left + length, right + dummy)):
                if nb:
                    fill.append((addr, nb, np.resize(pad_bytes, nb), defined))
        elif dummy:
            first = src.buf.data[g:g + sz]
            fill.append((u + length, dummy, np.resize(first, dummy), True))
    return fill
