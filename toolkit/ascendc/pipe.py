"""TPipe / TQue / TBuf: UB allocation (InitBuffer accounting) and the queue state machine.

InitBuffer rounds each buffer up to 32 B and lays buffers out back to back from UB address 0 in call
order; the running total is checked against the UB budget (248 KB by default) and the count against
64 buffers. The plan of a run (name, position, count, bytes) is part of its result.

Queue slots follow FREE -> ALLOCATED -> ENQUEUED -> DEQUEUED -> FREE; any other transition is a
stable-coded diagnostic (DeQue before EnQue, double free, no free buffer, leak at kernel end).
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
from .tensor import LocalTensor


class TPosition(str, Enum):
    GM = "GM"
    VECIN = "VECIN"
    VECOUT = "VECOUT"
    VECCALC = "VECCALC"


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

    @property
    def position_name(self) -> str:
        return self.position.value

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

    def AllocTensor(self, t: Any = float) -> LocalTensor:
        self._require_init("AllocTensor")
        ctx = current()
        n = len(self.addrs)
        for k in range(n):
            idx = (self.cursor + k) % n
            if self.state[idx] == FREE:
                self.cursor = (idx + 1) % n
                self.state[idx] = ALLOCATED
                self.alloc_site[idx] = kernel_frame()
                ctx.emit(QueueOp("alloc", self.name, self.position_name, idx))
                dt = np_dtype(t)
                return LocalTensor(self.addrs[idx], dt, self.bytes_each // dt.itemsize, self.position_name,
                                   (self, idx))
        ctx.report("QUEUE_NO_FREE_BUFFER", f"{self.name}.AllocTensor: all {n} buffer(s) are in use")

    def _slot_of(self, t: LocalTensor, what: str) -> int:
        if t.slot is None or t.slot[0] is not self:
            current().report("BAD_PARAMETER", f"{self.name}.{what}: tensor does not belong to this queue")
        return t.slot[1]

    def EnQue(self, t: LocalTensor) -> bool:
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
        ctx.emit(QueueOp("enque", self.name, self.position_name, idx))
        return True

    def DeQue(self, t: Any = float) -> LocalTensor:
        self._require_init("DeQue")
        ctx = current()
        if not self.fifo:
            ctx.report("QUEUE_DEQUE_EMPTY", f"{self.name}.DeQue with nothing EnQue'd")
        idx = self.fifo.popleft()
        self.state[idx] = DEQUEUED
        ctx.emit(QueueOp("deque", self.name, self.position_name, idx))
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
        ctx.emit(QueueOp("free", self.name, self.position_name, idx))

    def HasTensorInQue(self) -> bool:
        return bool(self.fifo)


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


class TPipe:
    """Owns the UB pool of a kernel: InitBuffer hands out back-to-back 32 B aligned regions."""

    def __init__(self) -> None:
        self.top = 0
        self.nbuffers = 0
        self.plan: list[BufferInit] = []
        self.sites: dict[str, tuple[str, int]] = {}
        self.queues: list[TQue] = []
        self.event_ids: dict = {}            # HardEvent -> next id FetchEventID hands out
        current().pipes.append(self)

    def InitBuffer(self, buf: _Buffer, num_or_len: int, length: int | None = None) -> bool:
        ctx = current()
        if isinstance(buf, TQue):
            if length is None:
                raise TypeError("InitBuffer(TQue, num, len)")
            num, nbytes = int(num_or_len), int(length)
        else:
            num, nbytes = 1, int(num_or_len)
        buf.name = buf.name or _member_name(buf, sys._getframe(1)) or f"buffer{len(self.plan)}"
        each = _align32(nbytes)
        buf.addrs = [self.top + k * each for k in range(num)]
        buf.bytes_each = each
        if isinstance(buf, TQue):
            buf.state = [FREE] * num
            buf.alloc_site = [("?", 0)] * num
            self.queues.append(buf)
        event = BufferInit(buf.name, buf.kind, buf.position_name, num, each, self.top,
                           getattr(buf, "depth", 0))
        self.plan.append(event)
        self.sites[buf.name] = kernel_frame()
        ctx.emit(event)
        self.top += num * each
        self.nbuffers += num
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

    def check_leaks(self, ctx) -> None:
        for que in self.queues:
            for idx, st in enumerate(que.state):
                if st != FREE:
                    ctx.report("QUEUE_LEAK", f"{que.name} buffer {idx} is still {st} at kernel end",
                               where=que.alloc_site[idx])

    def FetchEventID(self, evt: Any) -> int:
        """``TPipe::FetchEventID<HardEvent>()``: an event id for one SetFlag/WaitFlag pair of that event
        type (ids handed out round robin over the 8 hardware ids)."""
        k = self.event_ids.get(evt, 0)
        self.event_ids[evt] = (k + 1) % 8
        return k

    def Destroy(self) -> None:
        pass


def GetTPipePtr() -> "TPipe | None":
    """The TPipe the running kernel created last (``GetTPipePtr()``)."""
    pipes = current().pipes
    return pipes[-1] if pipes else None


def _plan_row(p: BufferInit) -> dict:
    return {"name": p.name, "position": p.position, "num": p.num, "bytes_each": p.bytes_each,
            "bytes": p.num * p.bytes_each}
