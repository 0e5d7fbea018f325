"""Typed event records: what one functional run leaves behind for the views.

A core's run is an ordered list of events. Views (counters, timing, UB report, trace) read them and
never reach into the emulator. Vector instructions inside a VF are :class:`Instr` records (a
NamedTuple: the first four fields can be given positionally, as plain ``(opcode, dst, srcs, aux)``
tuples were before).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

#: ``dist`` of block-strided VSLDB/VSSTB records: 8 blocks of 32 B from ``ub_addr``, ``aux`` blocks apart
BLOCK_STRIDED = "DATA_BLOCK_COPY"


class Instr(NamedTuple):
    """One vector instruction of a VF stream (hashable: the VF timing memo keys on the stream)."""

    opcode: str             #: vendor name (RV_VADD, RV_VLD ...) or a pseudo-op (ITER, ALIAS: no cost)
    dst: int = -1           #: register id written (-1: none); ids are local to the VF instance
    srcs: tuple = ()        #: register ids read (data, the mask, the old dst for MERGING)
    aux: Any = None         #: small detail: VLOOP trip count, PLT count, VSTUI bytes, ITER loop depth
    mask: int = -1          #: the predicate register among ``srcs`` (-1: none)
    dist: str | None = None  #: load/store distribution (NORM, UNPACK_B16, E2B_B32, ...)
    ub_addr: int = -1       #: first UB byte a load/store touches (-1: no UB access recorded)
    ub_bytes: int = 0       #: UB bytes touched from ``ub_addr`` (the footprint of the access)
    loop: int = 0           #: hardware-loop nesting depth of the instruction (0: straight-line code)

ITER = "ITER"
VLOOP = "RV_VLOOP"

PIPE_MTE2 = "MTE2"
PIPE_MTE3 = "MTE3"
PIPE_V = "VECTOR"
PIPE_S = "SCALAR"


@dataclass(slots=True)
class BufferInit:
    """TPipe::InitBuffer: ``num`` buffers of ``bytes_each`` (already 32 B rounded) at UB ``addr``."""

    name: str
    kind: str            # "TQue" or "TBuf"
    position: str        # VECIN / VECOUT / VECCALC
    num: int
    bytes_each: int
    addr: int
    depth: int = 0


@dataclass(slots=True)
class QueueOp:
    """AllocTensor / EnQue / DeQue / FreeTensor on a queue buffer slot."""

    op: str              # "alloc" | "enque" | "deque" | "free"
    queue: str
    position: str
    slot: int


@dataclass(slots=True)
class Dma:
    """DataCopy / DataCopyPad between GM and UB."""

    direction: str       # "GM2UB" (MTE2) or "UB2GM" (MTE3)
    api: str
    ub_addr: int
    gm: str
    gm_offset: int
    nbytes: int          # bytes moved on the GM side
    bursts: int          # blockCount
    burst_len: int       # bytes per burst (GM side)
    where: tuple[str, int] = ("?", 0)

    @property
    def pipe(self) -> str:
        return PIPE_MTE2 if self.direction == "GM2UB" else PIPE_MTE3


@dataclass(slots=True)
class VfCall:
    """One VF instance: a ``__simd_vf__`` function or the VF a MemBase API call runs as."""

    name: str
    launch: str          # "asc_vf_call" | "direct" | "membase"
    nparams: int
    instrs: list = field(default_factory=list)
    where: tuple[str, int] = ("?", 0)
    meta: dict[str, Any] = field(default_factory=dict)

    def signature(self) -> tuple:
        """Hashable identity of the instruction stream (timing depends on nothing else)."""
        return (self.nparams, self.launch, tuple(self.instrs))


@dataclass(slots=True)
class ScalarOp:
    """Main-scalar work that the pipes wait on: GM scalar read, UB GetValue / SetValue."""

    kind: str            # "gm_read" | "ub_read" | "ub_write" | "gm_write"
    nbytes: int
    where: tuple[str, int] = ("?", 0)
    gm: str | None = None
    gm_offset: int = 0


@dataclass(slots=True)
class Sync:
    """SetFlag / WaitFlag of a HardEvent ``src``_``dst`` with an event id. ``kind`` "set": the ``src`` pipe
    signals once everything it was given before is done; "wait": the ``dst`` pipe waits for the oldest
    unconsumed set of the same (event, id). A wait without an id (or without a matching set) waits for
    everything the ``src`` pipe was given so far."""

    src: str
    dst: str
    event_id: int | None = None
    kind: str = "wait"            # "set" | "wait"


@dataclass(slots=True)
class PipeBarrier:
    pipe: str

def shared(cls: type, *fields: Any) -> Any:
    """The one ``cls(*fields)`` record of the process: records are never changed once emitted, so every
    call with the same values (a flag, a barrier, a UB scalar read at one source line) shares one
    instance and a run stores each distinct one once. Only for records without per-call data (an
    address, an offset): the table grows with the distinct values."""
    key = (cls, *fields)
    ev = _SHARED.get(key)
    if ev is None:
        ev = _SHARED[key] = cls(*fields)
    return ev


_SHARED: dict[tuple, Any] = {}

ALIAS = "ALIAS"
#: Pseudo-ops in a VF stream: no cost, not counted (ITER marks a loop iteration start; ALIAS names the
#: second register written by a dual-output instruction).
PSEUDO_OPS = frozenset({ITER, ALIAS})
