"""Resource pools and the other ways a kernel gets UB: TBufPool (TPipe::InitBufPool, nested pools,
shared pools), the custom pools of ``EXTERN_IMPL_BUFPOOL`` (the same object, driven by the user's own
InitBuffer through InitStartBufHandle / InitBufHandle), LocalMemAllocator<Hardware::UB>, PopStackBuffer,
the SPM buffer of TPipe::InitSpmBuffer, and the workspace pointers.

A pool is a region of the pipe's UB: TPipe::InitBufPool takes it from the pipe (one row of the UB plan,
kind ``TBufPool``); the buffers a pool gives out lie inside it and add no row. A shared pool
(``InitBufPool(pool, len, shareBuf)``) starts where ``shareBuf`` starts. LocalMemAllocator hands out
32 B aligned tensors from UB address 0 up (assumed 32 B: the UB's DataBlock), each one row of the plan.
"""
from __future__ import annotations

import sys
from typing import Any

from toolkit.engine.runtime import current
from toolkit.record.events import BufferInit

from .dtypes import np_dtype, scalar_value
from .pipe import GetTPipePtr, TPipe, TPosition, TQue, _align32, _member_name, give_slots
from .tensor import GlobalTensor, LocalTensor
from .tvalues import plain

#: TBufPool's default bufIDSize (the page: up to 4 buffers by default, at most 16)
DEFAULT_BUF_IDS = 4
MAX_BUF_IDS = 16


class TBufPool:
    """``TBufPool<pos, bufIDSize>``: a UB region given by TPipe::InitBufPool or a parent pool."""

    kind = "TBufPool"

    def __init__(self, position: TPosition = TPosition.VECCALC, buf_ids: int = DEFAULT_BUF_IDS):
        self.position = TPosition(position)
        self.buf_ids = int(buf_ids) or DEFAULT_BUF_IDS
        if self.buf_ids > MAX_BUF_IDS:
            current().report("BAD_PARAMETER", f"TBufPool bufIDSize {self.buf_ids} above {MAX_BUF_IDS}")
        self.name: str | None = None
        self.base: int | None = None
        self.size = 0
        self.cur = 0               #: the next free UB byte address (absolute)
        self.nbufs = 0

    def _require(self, what: str) -> None:
        if self.base is None:
            current().report("QUEUE_NOT_INITIALISED", f"{what} on TBufPool {self.name or '?'} before InitBufPool")

    def _take(self, what: str, nbytes: int, nbufs: int) -> int:
        ctx = current()
        addr = self.cur
        if addr + nbytes > self.base + self.size:
            ctx.report("UB_OVER_BUDGET", f"{what} needs {nbytes} B at offset {addr - self.base} of TBufPool "
                       f"{self.name or '?'} of {self.size} B", address=addr, size=nbytes)
        if self.nbufs + nbufs > self.buf_ids:
            ctx.report("TOO_MANY_BUFFERS", f"{what}: TBufPool {self.name or '?'} holds at most {self.buf_ids} "
                       f"buffers (bufIDSize)")
        self.cur += nbytes
        self.nbufs += nbufs
        return addr

    def InitBuffer(self, buf: Any, num_or_len: int, length: int | None = None) -> bool:
        """A TQue's ``num`` buffers of ``len`` bytes (or a TBuf's ``len`` bytes) inside the pool."""
        self._require("InitBuffer")
        num, each = give_slots(buf, num_or_len, length, self.cur, sys._getframe(1), self.nbufs)
        self._take(f"InitBuffer({buf.name})", num * each, num)
        pipes = current().pipes
        if isinstance(buf, TQue) and pipes and buf not in pipes[-1].queues:
            pipes[-1].queues.append(buf)
        return True

    def InitBufPool(self, pool: "TBufPool", length: int, share: "TBufPool | None" = None) -> bool:
        """A nested pool of ``len`` bytes from this one, or sharing ``share``'s start."""
        self._require("InitBufPool")
        pool.name = pool.name or _member_name(pool, sys._getframe(1)) or "pool"
        n = _align32(int(length))
        if share is not None:
            _share(pool, n, share)
        else:
            _place(pool, self._take(f"InitBufPool({pool.name})", n, 0), n)
        return True

    def Reset(self) -> None:
        """Ends the pool's use: its buffers may be handed out again from its start."""
        self._require("Reset")
        self.cur, self.nbufs = self.base, 0

    # -- the custom pools of EXTERN_IMPL_BUFPOOL -----------------------------------------------------
    def Init(self) -> None:
        """Starts handing out from the pool's start (a custom pool's constructor calls it)."""
        if self.base is not None:
            self.cur, self.nbufs = self.base, 0

    def GetBufHandle(self, offset: Any) -> int:
        k = int(scalar_value(offset))
        if not 0 <= k < self.buf_ids:
            current().report("BAD_PARAMETER", f"GetBufHandle({k}) outside the pool's {self.buf_ids} buffers")
        return k

    def GetCurAddr(self) -> int:
        """The next free UB byte address of the pool (absolute, assumed: the pages do not say)."""
        return self.cur

    def SetCurAddr(self, addr: Any) -> None:
        self.cur = int(scalar_value(addr))

    def GetCurBufSize(self) -> int:
        return self.nbufs

    def SetCurBufSize(self, n: Any) -> None:
        self.nbufs = int(scalar_value(n))


def _place(pool: TBufPool, addr: int, n: int) -> None:
    pool.base, pool.size, pool.cur, pool.nbufs = addr, n, addr, 0


def _share(pool: TBufPool, n: int, share: TBufPool) -> None:
    if share.base is None or n > share.size:
        current().report("BAD_PARAMETER", f"InitBufPool({pool.name}, {n}) shares {share.name or '?'}, which "
                         f"is not initialised or smaller ({share.size} B)")
    _place(pool, share.base, n)


def init_buf_pool(pipe: TPipe, pool: TBufPool, length: int, share: TBufPool | None = None) -> bool:
    """``TPipe::InitBufPool(pool, len[, shareBuf])``: a new region of the pipe (a row of the UB plan), or
    the region of ``shareBuf``."""
    pool.name = pool.name or _member_name(pool, sys._getframe(2)) or f"pool{len(pipe.plan)}"
    n = _align32(int(length))
    if share is not None:
        _share(pool, n, share)
        return True
    fake = _PlanBuffer(pool.name, pool.position)
    pipe.InitBuffer(fake, n)
    _place(pool, fake.addrs[0], n)
    return True


class _PlanBuffer:
    """What TPipe::InitBuffer books for a pool: one region, kind TBufPool."""

    kind = "TBufPool"

    def __init__(self, name: str, position: TPosition):
        self.name, self.position = name, position
        self.addrs: list[int] = []
        self.bytes_each = 0

    @property
    def position_name(self) -> str:
        return self.position.value


# -- LocalMemAllocator ---------------------------------------------------------------------------------
class LocalMemAllocator:
    """``LocalMemAllocator<Hardware::UB>``: tensors one after another from UB address 0 (32 B aligned)."""

    def __init__(self, hardware: Any = "UB"):
        if getattr(hardware, "name", hardware) != "UB":
            raise TypeError(f"LocalMemAllocator<{getattr(hardware, 'name', hardware)}>: only the UB is emulated")
        self.cur = 0
        self.count = 0
        self.pending_name: str | None = None    # the .asc route's name for the next Alloc (toolkit.asc.hooks)

    def GetCurAddr(self) -> int:
        return self.cur

    def Alloc(self, *targs_and_size: Any) -> LocalTensor:
        """``Alloc<[pos,] T, tileSize>()`` or ``Alloc<[pos,] T>(tileSize)``: ``tileSize`` elements of T."""
        args = plain(targs_and_size)
        pos = next((a for a in args if isinstance(a, TPosition)), TPosition.VECCALC)
        rest = [a for a in args if not isinstance(a, TPosition)]
        if len(rest) != 2:
            raise TypeError("LocalMemAllocator::Alloc takes an element type and a tile size")
        dt, n = np_dtype(rest[0]), int(scalar_value(rest[1]))
        ctx = current()
        addr, nbytes = self.cur, _align32(n * dt.itemsize)
        self.cur += nbytes
        self.count += 1
        budget = ctx.machine.ub_budget_bytes
        name, self.pending_name = self.pending_name or f"alloc{self.count - 1}", None
        ctx.emit(BufferInit(name, "LocalMemAllocator", pos.value, 1, nbytes, addr))
        if self.cur > budget:
            ctx.report("UB_OVER_BUDGET", f"LocalMemAllocator::Alloc({name}) brings the UB in use to {self.cur} B, "
                       f"budget {budget} B", address=addr, size=nbytes)
        return LocalTensor(addr, dt, n, pos.value)


def PopStackBuffer(t: Any, pos: TPosition = TPosition.VECCALC, tensor: Any = None) -> LocalTensor:
    """``PopStackBuffer<T, pos>(popLocal)``: a tensor over all the UB the pipe has not handed out (from
    the last TPipe's next free address to the end of the UB budget)."""
    ctx = current()
    start = ctx.pipes[-1].top if ctx.pipes else 0
    dt = np_dtype(t)
    n = max(ctx.machine.ub_budget_bytes - start, 0) // dt.itemsize
    return LocalTensor(start, dt, n, TPosition(pos).value)


# -- SPM buffer -----------------------------------------------------------------------------------------
def init_spm(pipe: TPipe, workspace: Any, size: Any = None) -> None:
    """``InitSpmBuffer(workspace, bufferSize)``: the SPM buffer is ``bufferSize`` bytes of GM from
    ``workspace`` (the L1 form, ``InitSpmBuffer(bufferSize)``, is not on Ascend 950)."""
    if size is None:
        raise TypeError("InitSpmBuffer(bufferSize) (SPM in L1) is not supported on Ascend 950: give a GM workspace")
    n = int(scalar_value(size))
    pipe.spm = (workspace, n)


def _spm_tensor(pipe: TPipe, t: LocalTensor, offset: Any, nbytes: int, what: str) -> GlobalTensor:
    ctx = current()
    if pipe.spm is None:
        ctx.report("QUEUE_NOT_INITIALISED", f"{what} before InitSpmBuffer")
    ws, size = pipe.spm
    off = int(scalar_value(offset))
    if off < 0 or off + nbytes > size:
        ctx.report("GM_OUT_OF_BOUNDS", f"{what} of {nbytes} B at offset {off} outside the {size} B SPM buffer",
                   address=off, size=nbytes, gm=ws.buf.name)
    g = GlobalTensor(t.dtype)
    g.buf, g.offset, g.count = ws.buf, ws.offset + off, (size - off) // t.dtype.itemsize
    return g


def spm_copy(pipe: TPipe, local: LocalTensor, params: Any, offset: Any, to_spm: bool) -> None:
    """Write/ReadSpmBuffer(tensor, DataCopyParams | size in bytes, offset): a DataCopy to or from the SPM."""
    from .dma import DataCopy, DataCopyParams
    what = "WriteSpmBuffer" if to_spm else "ReadSpmBuffer"
    if isinstance(params, DataCopyParams):
        p = params
        nbytes = ((p.blockCount - 1) * (p.blockLen + (p.dstStride if to_spm else p.srcStride)) + p.blockLen) * 32
        arg = params
    else:
        nbytes = int(scalar_value(params))
        arg = nbytes // local.dtype.itemsize
    g = _spm_tensor(pipe, local, offset, max(nbytes, 0), what)
    DataCopy(g, local, arg) if to_spm else DataCopy(local, g, arg)


__all__ = ["GetTPipePtr", "LocalMemAllocator", "PopStackBuffer", "TBufPool"]
