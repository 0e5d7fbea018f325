"""TPipe / TQue / TBuf: UB allocation (InitBuffer accounting) and the queue state machine.

InitBuffer rounds each buffer up to 32 B and lays buffers out back to back from UB address 0 in call
order; the running total is checked against the UB budget (248 KB by default) and the count against
64 buffers. The plan of a run (name, position, count, bytes) is part of its result.

Queue slots follow FREE -> ALLOCATED -> ENQUEUED -> DEQUEUED -> FREE; any other transition is a
stable-coded diagnostic (DeQue before EnQue, double free, no free buffer, leak at kernel end).

TPipe::Reset / Destroy give the UB back: a later InitBuffer starts at address 0 again (a plan row already
recorded with the same name, place and size is not recorded twice). Event ids (FetchEventID / AllocEventID /
ReleaseEventID) are 8 per HardEvent: FetchEventID hands out the lowest id AllocEventID does not hold.
Resource pools (TBufPool, the custom pools of EXTERN_IMPL_BUFPOOL) and LocalMemAllocator are in
:mod:`toolkit.ascendc.bufpool`.
"""
from __future__ import annotations

import sys
from collections import deque
from enum import Enum
from typing import Any

from toolkit.engine.runtime import current
from toolkit.record.diagnostics import kernel_frame
from toolkit.record.events import BufferInit, QueueOp

from .dtypes import np_dtype
from .sync import EVENT_IDS
from .tensor import LocalTensor


class TPosition(str, Enum):
    GM = "GM"
    VECIN = "VECIN"
    VECOUT = "VECOUT"
    VECCALC = "VECCALC"
    # the other logical positions of the TPosition page (cube buffers, SPM ...): accepted in templates
    A1 = "A1"
    A2 = "A2"
    B1 = "B1"
    B2 = "B2"
    C1 = "C1"
    C2 = "C2"
    CO1 = "CO1"
    CO2 = "CO2"
    SPM = "SPM"
    TSCM = "TSCM"
    C2PIPE2GM = "C2PIPE2GM"
    C2PIPE2LOCAL = "C2PIPE2LOCAL"
    LCM = "VECCALC"          # aliases
    SHM = "SPM"


QuePosition = TPosition

FREE, ALLOCATED, ENQUEUED, DEQUEUED = "free", "allocated", "enqueued", "dequeued"


def _align32(n: int) -> int:
    return (int(n) + 31) // 32 * 32


def _member_name(obj: Any, frame) -> str | None:
    """Name of the attribute of the caller's ``self`` holding ``obj`` (``inQueue_`` -> ``inQueue``)."""
    owner = frame.f_locals.get("self")
    for name, value in (vars(owner).items() if owner is not None and hasattr(owner, "__dict__") else ()):
        if value is obj:
            return name.rstrip("_")
    for name, value in frame.f_locals.items():
        if value is obj and name != "self":
            return name.rstrip("_")
    return None


class _Buffer:
    """Common part of TQue and TBuf: the slots InitBuffer gave it."""

    kind = "?"

    def __init__(self, position: TPosition):
        self.position = TPosition(position)
        self.name: str | None = None
        self.addrs: list[int] = []
        self.bytes_each = 0
        self._events: dict[tuple, QueueOp] = {}

    @property
    def position_name(self) -> str:
        return self.position.value

    def _op(self, op: str, idx: int) -> QueueOp:
        """The event of ``op`` on slot ``idx``: one object per (op, slot, name), shared by every use (events
        are records nothing changes; a queue emits four per tile)."""
        key = (op, idx, self.name)
        ev = self._events.get(key)
        if ev is None:
            ev = self._events[key] = QueueOp(op, self.name, self.position_name, idx)
        return ev

    def _require_init(self, what: str) -> None:
        if not self.addrs:
            current().report("QUEUE_NOT_INITIALISED", f"{what} on {self.kind} {self.name or '?'} before InitBuffer")


class TQue(_Buffer):
    """``TQue<pos, depth>``; ``num`` buffers come from ``TPipe::InitBuffer(que, num, len)``."""

    kind = "TQue"

    def __init__(self, position: TPosition, depth: int = 1):
        super().__init__(position)
        self.depth = int(depth)
        self.state: list[str] = []
        self.alloc_site: list[tuple[str, int]] = []
        self.cursor = 0
        self.fifo: deque[int] = deque()

    def AllocTensor(self, t: Any = float, tensor: Any = None) -> LocalTensor:
        """``AllocTensor<T>()``, or the in-place ``AllocTensor<T>(tensor)`` (the tensor becomes the buffer)."""
        self._require_init("AllocTensor")
        ctx = current()
        n = len(self.addrs)
        for k in range(n):
            idx = (self.cursor + k) % n
            if self.state[idx] == FREE:
                self.cursor = (idx + 1) % n
                self.state[idx] = ALLOCATED
                self.alloc_site[idx] = kernel_frame()
                ctx.emit(self._op("alloc", idx))
                dt = np_dtype(t)
                return LocalTensor(self.addrs[idx], dt, self.bytes_each // dt.itemsize, self.position_name,
                                   (self, idx))
        ctx.report("QUEUE_NO_FREE_BUFFER", f"{self.name}.AllocTensor: all {n} buffer(s) are in use")

    def _slot_of(self, t: LocalTensor, what: str) -> int:
        if t.slot is None or t.slot[0] is not self:
            current().report("BAD_PARAMETER", f"{self.name}.{what}: tensor does not belong to this queue")
        return t.slot[1]

    def EnQue(self, *args: Any) -> bool:
        """``EnQue(tensor)`` or ``EnQue<srcUserPos, dstUserPos, T>(tensor)`` (the positions name the data
        flow of a TQueBind; the buffer is the same)."""
        t = args[-1]
        idx = self._slot_of(t, "EnQue")
        ctx = current()
        if self.state[idx] != ALLOCATED:
            ctx.report("QUEUE_BAD_STATE", f"{self.name}.EnQue of buffer {idx}, which is {self.state[idx]} "
                       f"(EnQue takes a tensor fresh from AllocTensor)")
        if len(self.fifo) >= max(self.depth, 1) and self.depth > 0:
            ctx.report("QUEUE_DEPTH_EXCEEDED", f"{self.name}.EnQue: {len(self.fifo)} tensor(s) already queued, "
                       f"depth {self.depth}")
        self.state[idx] = ENQUEUED
        self.fifo.append(idx)
        ctx.emit(self._op("enque", idx))
        return True

    def DeQue(self, *targs: Any) -> LocalTensor:
        """``DeQue<T>()``, the in-place ``DeQue<T>(tensor)`` or ``DeQue<srcUserPos, dstUserPos, T>()``."""
        t = next((a for a in reversed(targs) if not isinstance(a, (TPosition, LocalTensor))), float)
        self._require_init("DeQue")
        ctx = current()
        if not self.fifo:
            ctx.report("QUEUE_DEQUE_EMPTY", f"{self.name}.DeQue with nothing EnQue'd")
        idx = self.fifo.popleft()
        self.state[idx] = DEQUEUED
        ctx.emit(self._op("deque", idx))
        dt = np_dtype(t)
        return LocalTensor(self.addrs[idx], dt, self.bytes_each // dt.itemsize, self.position_name, (self, idx))

    def FreeTensor(self, t: LocalTensor) -> None:
        idx = self._slot_of(t, "FreeTensor")
        ctx = current()
        if self.state[idx] == FREE:
            ctx.report("QUEUE_DOUBLE_FREE", f"{self.name}.FreeTensor of buffer {idx}, which is already free")
        if idx in self.fifo:
            self.fifo.remove(idx)
        self.state[idx] = FREE
        ctx.emit(self._op("free", idx))

    def HasTensorInQue(self) -> bool:
        return bool(self.fifo)

    def GetTensorCountInQue(self) -> int:
        """Tensors EnQue'd and not yet DeQue'd."""
        return len(self.fifo)

    def HasIdleBuffer(self) -> bool:
        """Whether AllocTensor would find a free buffer."""
        return FREE in self.state

    def VacantInQue(self) -> bool:
        """Whether another EnQue fits the queue depth."""
        return len(self.fifo) < max(self.depth, 1)

    def FreeAllEvent(self) -> None:
        """Gives back the event ids the queue's buffers hold: the emulator keeps none (nothing to do)."""

    def InitStartBufHandle(self, handle: int, num: int, length: int) -> None:
        """A custom TBufPool gives this queue ``num`` buffers of ``length`` bytes (their addresses follow
        from InitBufHandle)."""
        self.addrs = [0] * int(num)
        self.bytes_each = _align32(int(length))
        self.state = [FREE] * int(num)
        self.alloc_site = [("?", 0)] * int(num)
        self.fifo.clear()
        self.cursor = 0
        pipes = current().pipes
        if pipes and self not in pipes[-1].queues:
            pipes[-1].queues.append(self)          # checked for leaks at kernel end like the others

    def InitBufHandle(self, index: int, handle: int, addr: int, length: int) -> None:
        """Buffer ``index`` of the queue is UB [addr, addr + length) (addr: a UB byte address; the custom
        pool it comes from is not needed)."""
        k = int(index)
        if not 0 <= k < len(self.addrs):
            current().report("BAD_PARAMETER", f"InitBufHandle: index {k} outside the {len(self.addrs)} buffers "
                             f"InitStartBufHandle gave")
        self.addrs[k] = int(addr)
        self.name = self.name or _member_name(self, sys._getframe(1)) or "custom"


class TBuf(_Buffer):
    """``TBuf<pos>``: one un-queued buffer; ``Get<T>()`` returns the whole region."""

    kind = "TBuf"

    def __init__(self, position: TPosition = TPosition.VECCALC):
        super().__init__(position)

    def Get(self, t: Any = float, length: int | None = None) -> LocalTensor:
        self._require_init("Get")
        dt = np_dtype(t)
        n = self.bytes_each // dt.itemsize if length is None else int(length)
        return LocalTensor(self.addrs[0], dt, n, self.position_name)

    def GetWithOffset(self, t: Any, size: Any, offset: Any) -> LocalTensor:
        """``GetWithOffset<T>(size, bufOffset)``: ``size`` elements from ``bufOffset`` bytes into the buffer
        (the offset 32 B aligned, the tensor inside the buffer)."""
        self._require_init("GetWithOffset")
        dt = np_dtype(t)
        n, off = int(size), int(offset)
        if off % 32 or off < 0 or off + n * dt.itemsize > self.bytes_each:
            current().report("BAD_PARAMETER", f"{self.name}.GetWithOffset({n}, {off}): the offset must be 32 B "
                             f"aligned and the tensor inside the {self.bytes_each} B buffer")
        return LocalTensor(self.addrs[0] + off, dt, n, self.position_name)

    def InitStartBufHandle(self, handle: int, num: int, length: int) -> None:
        if int(num) != 1:
            current().report("BAD_PARAMETER", f"InitStartBufHandle on a TBuf takes num 1, not {int(num)}")
        self.bytes_each = _align32(int(length))
        self.addrs = [0]

    def InitBufHandle(self, index: int, handle: int, addr: int, length: int) -> None:
        self.addrs = [int(addr)]
        self.name = self.name or _member_name(self, sys._getframe(1)) or "custom"


def give_slots(buf: _Buffer, num_or_len: int, length: int | None, addr: int, frame, k: int) -> tuple[int, int]:
    """InitBuffer's part on the buffer (a TPipe's or a TBufPool's): its name (from the caller's source),
    ``num`` slots of ``len`` bytes rounded up to 32 B from ``addr``, its queue state. (num, bytes each)."""
    if isinstance(buf, TQue):
        if length is None:
            raise TypeError("InitBuffer(TQue, num, len)")
        num, nbytes = int(num_or_len), int(length)
    else:
        num, nbytes = 1, int(num_or_len)
    buf.name = buf.name or _member_name(buf, frame) or f"buffer{k}"
    each = _align32(nbytes)
    buf.addrs = [addr + j * each for j in range(num)]
    buf.bytes_each = each
    if isinstance(buf, TQue):
        buf.state = [FREE] * num
        buf.alloc_site = [("?", 0)] * num
        buf.fifo.clear()
        buf.cursor = 0
    return num, each


class TPipe:
    """Owns the UB pool of a kernel: InitBuffer hands out back-to-back 32 B aligned regions."""

    def __init__(self) -> None:
        self.top = 0
        self.nbuffers = 0
        self.plan: list[BufferInit] = []
        self.sites: dict[str, tuple[str, int]] = {}
        self.queues: list[TQue] = []
        self.events_held: dict = {}           # HardEvent -> event ids AllocEventID holds
        self.spm = None                       # (GM workspace tensor, bytes) of InitSpmBuffer
        current().pipes.append(self)

    def InitBuffer(self, buf: _Buffer, num_or_len: int, length: int | None = None) -> bool:
        num, each = give_slots(buf, num_or_len, length, self.top, sys._getframe(1), len(self.plan))
        if isinstance(buf, TQue) and buf not in self.queues:
            self.queues.append(buf)
        event = BufferInit(buf.name, buf.kind, buf.position_name, num, each, self.top, getattr(buf, "depth", 0))
        self.record(event)
        self.top += num * each
        self.nbuffers += num
        ctx = current()
        fatal = not ctx.dry_run          # a dry run (plan only) keeps going to record the whole plan
        if self.nbuffers > ctx.machine.max_buffers:
            ctx.report("TOO_MANY_BUFFERS", f"{self.nbuffers} buffers after InitBuffer({buf.name})",
                       plan=[_plan_row(p) for p in self.plan], raise_fatal=fatal)
        budget = ctx.machine.ub_budget_bytes
        if self.top > budget:
            ctx.report("UB_OVER_BUDGET", f"InitBuffer({buf.name}) brings the UB plan to {self.top} B, budget "
                       f"{budget} B: " + ", ".join(f"{p.name} {p.num}x{p.bytes_each}" for p in self.plan),
                       address=event.addr, size=num * each, plan=[_plan_row(p) for p in self.plan],
                       raise_fatal=fatal)
        return True

    def record(self, event: BufferInit) -> None:
        """One row of the UB plan (not again after a Reset or a new TPipe that re-creates the same buffer at
        the same place)."""
        ctx = current()
        if any(event in p.plan for p in ctx.pipes):
            return
        self.plan.append(event)
        self.sites[event.name] = kernel_frame()
        ctx.emit(event)

    def check_leaks(self, ctx) -> None:
        for que in self.queues:
            for idx, st in enumerate(que.state):
                if st != FREE:
                    ctx.report("QUEUE_LEAK", f"{que.name} buffer {idx} is still {st} at kernel end",
                               where=que.alloc_site[idx])

    # -- event ids -------------------------------------------------------------------------------
    def FetchEventID(self, evt: Any) -> int:
        """``FetchEventID<HardEvent>()`` / ``FetchEventID(HardEvent)``: an id of that event type for a
        SetFlag/WaitFlag pair, not held (the lowest one AllocEventID does not hold)."""
        held = self.events_held.get(evt, set())
        free = [k for k in range(EVENT_IDS) if k not in held]
        if not free:
            current().report("BAD_PARAMETER", f"FetchEventID<{getattr(evt, 'name', evt)}>: all {EVENT_IDS} "
                             f"event ids are held by AllocEventID")
        return free[0]

    def AllocEventID(self, evt: Any) -> int:
        """``AllocEventID<HardEvent>()``: the lowest free id of that event type, held until ReleaseEventID."""
        k = self.FetchEventID(evt)
        self.events_held.setdefault(evt, set()).add(k)
        return k

    def ReleaseEventID(self, evt: Any, event_id: Any) -> None:
        k = int(event_id)
        held = self.events_held.get(evt, set())
        if k not in held:
            current().report("SYNC_UNPAIRED", f"ReleaseEventID<{getattr(evt, 'name', evt)}>({k}) of an id "
                             f"AllocEventID did not hand out")
        held.discard(k)

    # -- pools and the SPM buffer (toolkit.ascendc.bufpool) ------------------------------------------
    def InitBufPool(self, pool: Any, length: int, share: Any = None) -> bool:
        """``InitBufPool(pool, len[, shareBuf])``: a TBufPool region of the pipe (or shared with another)."""
        from .bufpool import init_buf_pool
        return init_buf_pool(self, pool, length, share)

    def InitSpmBuffer(self, workspace: Any, size: Any = None) -> None:
        from .bufpool import init_spm
        init_spm(self, workspace, size)

    def WriteSpmBuffer(self, tensor: LocalTensor, params: Any, offset: Any = 0) -> None:
        """UB -> SPM: ``params`` a DataCopyParams or a size in bytes; ``offset`` bytes into the SPM."""
        from .bufpool import spm_copy
        spm_copy(self, tensor, params, offset, True)

    def ReadSpmBuffer(self, tensor: LocalTensor, params: Any, offset: Any = 0) -> None:
        """SPM -> UB, the reverse of WriteSpmBuffer."""
        from .bufpool import spm_copy
        spm_copy(self, tensor, params, offset, False)

    # -- life cycle --------------------------------------------------------------------------------
    def Reset(self) -> None:
        """Gives every buffer back (a later InitBuffer starts at address 0 again) and the event ids."""
        self.top = 0
        self.nbuffers = 0
        self.events_held.clear()

    def Destroy(self) -> None:
        """Frees the pipe's resources (a new TPipe, or InitBuffer on this one, may reuse the UB)."""
        self.Reset()

    DestroyWithoutPipeAll = Destroy


def GetTPipePtr() -> "TPipe | None":
    """The TPipe the running kernel created last (``GetTPipePtr()``)."""
    pipes = current().pipes
    return pipes[-1] if pipes else None


def _plan_row(p: BufferInit) -> dict:
    return {"name": p.name, "position": p.position, "num": p.num, "bytes_each": p.bytes_each,
            "bytes": p.num * p.bytes_each}
