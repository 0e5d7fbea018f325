"""Synchronisation inside one core: SetFlag / WaitFlag (HardEvent, also as ``TQueSync<src, dst>``),
PipeBarrier, Mutex::Lock / Unlock with AllocMutexID / ReleaseMutexID, and DataSyncBarrier.

Execution is sequential in the emulator, so these record the edge for the timing views and check that
flags and locks pair up as the hardware needs (``SYNC_UNPAIRED``): a WaitFlag nobody sets hangs its pipe,
a second SetFlag of the same (event, id) before its WaitFlag is undefined, a Lock needs an Unlock of the
same pipe. Cross-core synchronisation (SyncAll, CrossCoreSetFlag ...) is in :mod:`toolkit.ascendc.crosscore`.
"""
from __future__ import annotations

from enum import Enum
from typing import Any

from toolkit.ascendc.regbase.template import TArgs, template
from toolkit.engine.runtime import current
from toolkit.record.diagnostics import WARNING
from toolkit.record.events import PIPE_MTE2, PIPE_MTE3, PIPE_S, PIPE_V, Sync, shared
from toolkit.record.events import PipeBarrier as PipeBarrierEvent

from .dtypes import scalar_value

_PIPES = {"MTE2": PIPE_MTE2, "MTE3": PIPE_MTE3, "V": PIPE_V, "S": PIPE_S}
#: event ids of SetFlag / WaitFlag on Ascend 950 (SetFlag-WaitFlag page: 0-7)
EVENT_IDS = 8


class HardEvent(Enum):
    MTE2_V = ("MTE2", "V")
    V_MTE2 = ("V", "MTE2")
    V_MTE3 = ("V", "MTE3")
    MTE3_V = ("MTE3", "V")
    S_MTE3 = ("S", "MTE3")
    MTE3_S = ("MTE3", "S")
    S_MTE2 = ("S", "MTE2")
    MTE2_S = ("MTE2", "S")
    S_V = ("S", "V")
    V_S = ("V", "S")
    MTE2_MTE3 = ("MTE2", "MTE3")
    MTE3_MTE2 = ("MTE3", "MTE2")


class PipeType(Enum):
    PIPE_MTE2 = PIPE_MTE2
    PIPE_MTE3 = PIPE_MTE3
    PIPE_V = PIPE_V
    PIPE_S = PIPE_S
    PIPE_ALL = "ALL"
    PIPE_M = "M"              #: the cube pipes: accepted where a pipe_t is (PipeBarrier), not emulated
    PIPE_MTE1 = "MTE1"
    PIPE_FIX = "FIX"


class MemDsbT(Enum):
    """What DataSyncBarrier waits for: GM and UB accesses, GM only, UB only, the SEQ accesses."""

    ALL = 0
    DDR = 1
    UB = 2
    SEQ = 3


def _state(ctx, key: str, make: Any) -> Any:
    got = ctx.state.get(key)
    if got is None:
        got = ctx.state[key] = make()
        if key == "flags":
            ctx.at_finish.append(_flags_at_end)
    return got


def _event_id(value: Any, api: str) -> int:
    k = int(scalar_value(value))
    if not 0 <= k < EVENT_IDS:
        current().report("BAD_PARAMETER", f"{api}: event id {k} outside 0-{EVENT_IDS - 1}")
    return k


def sync_flag(src: str, dst: str, event_id: Any, kind: str, api: str) -> None:
    """One SetFlag ("set") or WaitFlag ("wait") of the edge ``src`` -> ``dst`` (pipe names)."""
    ctx = current()
    k = _event_id(event_id, api)
    flags = _state(ctx, "flags", dict)
    key = (src, dst, k)
    pending = flags.get(key, 0)
    if kind == "set":
        if pending > 0:
            ctx.report("SYNC_UNPAIRED", f"{api}<{src}_{dst}>({k}) while the previous one was not waited for "
                       f"(two SetFlag of one event and id without a WaitFlag between are undefined)")
        flags[key] = pending + 1
    else:
        if pending <= 0 and dst == "S":
            ctx.report("SYNC_UNPAIRED", f"{api}<{src}_{dst}>({k}) with no SetFlag before it: the scalar "
                       f"unit waits forever")
        flags[key] = pending - 1
    ctx.emit(shared(Sync, _PIPES[src], _PIPES[dst], k, kind))


def _flags_at_end(ctx) -> None:
    for (src, dst, k), pending in sorted(ctx.state.get("flags", {}).items()):
        if pending < 0:
            ctx.report("SYNC_UNPAIRED", f"WaitFlag<{src}_{dst}>({k}) was never matched by a SetFlag: the "
                       f"{dst} pipe waits forever")
        elif pending > 0:
            ctx.report("SYNC_UNPAIRED", f"SetFlag<{src}_{dst}>({k}) was never waited for before the kernel "
                       f"ended", severity=WARNING)


def _flag(t: TArgs, event_id: Any, kind: str, api: str) -> None:
    ev = t.enum(HardEvent)
    if ev is None:
        raise TypeError(f"{api} needs a HardEvent template argument")
    sync_flag(*ev.value, event_id, kind, api)


@template
def SetFlag(t: TArgs, event_id: Any = 0) -> None:
    """``SetFlag<HardEvent::X_Y>(eventId)``: pipe X signals event (X_Y, id) once its earlier work is done."""
    _flag(t, event_id, "set", "SetFlag")


@template
def WaitFlag(t: TArgs, event_id: Any = 0) -> None:
    """``WaitFlag<HardEvent::X_Y>(eventId)``: pipe Y waits for (and consumes) the matching SetFlag."""
    _flag(t, event_id, "wait", "WaitFlag")


@template
def PipeBarrier(t: TArgs) -> None:
    """``PipeBarrier<PIPE_X>()``: later instructions of that pipe wait for earlier ones."""
    pipe = t.enum(PipeType)
    current().emit(shared(PipeBarrierEvent, pipe.value if pipe else PIPE_V))


_SHORT = {PipeType.PIPE_MTE2: "MTE2", PipeType.PIPE_MTE3: "MTE3", PipeType.PIPE_V: "V", PipeType.PIPE_S: "S"}


def pipe_name(pipe: Any, api: str) -> str:
    """The short name (MTE2, MTE3, V, S) of a single pipe; PIPE_ALL is refused where a pipe is needed."""
    p = _SHORT.get(pipe)
    if p is None:
        raise TypeError(f"{api} takes a single pipe (PIPE_V, PIPE_MTE2, PIPE_MTE3, PIPE_S), not {pipe}")
    return p


class TQueSync:
    """``TQueSync<src, dst>``: SetFlag / WaitFlag of the edge between two pipes (the portable form)."""

    def __init__(self, src: PipeType, dst: PipeType):
        self.src, self.dst = pipe_name(src, "TQueSync"), pipe_name(dst, "TQueSync")
        if (self.src, self.dst) not in {e.value for e in HardEvent}:
            raise TypeError(f"TQueSync<{src.name}, {dst.name}>: no such edge on the vector core")

    def SetFlag(self, event_id: Any) -> None:
        sync_flag(self.src, self.dst, event_id, "set", "TQueSync::SetFlag")

    def WaitFlag(self, event_id: Any) -> None:
        sync_flag(self.src, self.dst, event_id, "wait", "TQueSync::WaitFlag")


# -- Mutex --------------------------------------------------------------------------------------------
#: MutexIDs AllocMutexID hands out (Lock page: 0-27 for kernels, 28-31 reserved)
MUTEX_IDS = 28


def AllocMutexID() -> int:
    """The lowest MutexID not allocated (held until ReleaseMutexID)."""
    ctx = current()
    used = _state(ctx, "mutex_ids", set)
    free = [k for k in range(MUTEX_IDS) if k not in used]
    if not free:
        ctx.report("BAD_PARAMETER", f"AllocMutexID: all {MUTEX_IDS} MutexIDs are allocated (ReleaseMutexID them)")
    used.add(free[0])
    return free[0]


def ReleaseMutexID(mutex_id: Any) -> None:
    ctx = current()
    k = int(scalar_value(mutex_id))
    used = _state(ctx, "mutex_ids", set)
    if k not in used:
        ctx.report("SYNC_UNPAIRED", f"ReleaseMutexID({k}) of a MutexID AllocMutexID did not hand out")
    used.discard(k)


def _mutex_id(value: Any, api: str) -> int:
    k = int(scalar_value(value))
    if not 0 <= k < 32:
        current().report("BAD_PARAMETER", f"{api}: MutexID {k} outside 0-31")
    return k


@template
def Lock(t: TArgs, mutex_id: Any) -> None:
    """``Mutex::Lock<pipe>(id)``: the pipe's later instructions wait until the mutex's last Unlock (by
    another pipe) has let its earlier instructions finish. Recorded as that pipe waiting for the unlocking
    pipe (assumed: for everything that pipe was given up to the Lock, a conservative edge)."""
    ctx = current()
    pipe = pipe_name(t.enum(PipeType), "Mutex::Lock")
    k = _mutex_id(mutex_id, "Mutex::Lock")
    locks = _state(ctx, "mutex", dict)
    held, last = locks.get(k, (None, None))
    if held is not None:
        ctx.report("SYNC_UNPAIRED", f"Mutex::Lock<{pipe}>({k}) while it is locked by {held} (Lock and Unlock "
                   f"of one MutexID must alternate)")
    locks[k] = (pipe, last)
    if last is not None and last != pipe:
        ctx.emit(shared(Sync, _PIPES[last], _PIPES[pipe], None, "wait"))


@template
def Unlock(t: TArgs, mutex_id: Any) -> None:
    """``Mutex::Unlock<pipe>(id)``: releases the mutex once the pipe's earlier instructions are done."""
    ctx = current()
    pipe = pipe_name(t.enum(PipeType), "Mutex::Unlock")
    k = _mutex_id(mutex_id, "Mutex::Unlock")
    locks = _state(ctx, "mutex", dict)
    held, _ = locks.get(k, (None, None))
    if held != pipe:
        ctx.report("SYNC_UNPAIRED", f"Mutex::Unlock<{pipe}>({k}) without a Lock<{pipe}>({k}) before it")
    locks[k] = (None, pipe)


@template
def DataSyncBarrier(t: TArgs) -> None:
    """``DataSyncBarrier<MemDsbT::X>()``: the scalar unit waits until the earlier memory accesses of the
    kind named are done (GM: the DMA pipes; UB: the DMA pipes and the vector pipe; SEQ: none here)."""
    kind = t.enum(MemDsbT, MemDsbT.ALL)
    srcs = {MemDsbT.ALL: ("MTE2", "MTE3", "V"), MemDsbT.DDR: ("MTE2", "MTE3"), MemDsbT.UB: ("MTE2", "MTE3", "V"),
            MemDsbT.SEQ: ()}[kind]
    ctx = current()
    for s in srcs:
        ctx.emit(shared(Sync, _PIPES[s], PIPE_S, None, "wait"))
