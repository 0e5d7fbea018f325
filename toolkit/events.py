"""Typed event records: what one functional run leaves behind for the views.

A core's run is an ordered list of events. Views (counters, timing, UB report, trace) read them and
never reach into the emulator. Vector instructions inside a VF are compact tuples
``(opcode, dst, srcs, aux)``:

* ``opcode``: vendor name (``RV_VADD``, ``RV_VLD`` ...) or a pseudo-op (``ITER`` marks the start of a
  hardware-loop iteration; it costs nothing and is not counted);
* ``dst``: register id written (-1 if none); ids are local to the VF instance;
* ``srcs``: register ids read (data registers, the mask register, the old ``dst`` for MERGING);
* ``aux``: small int detail (trip count of ``RV_VLOOP``, bytes of a DMA-like access) or None.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

Instr = tuple  # (opcode: str, dst: int, srcs: tuple[int, ...], aux: int | None)

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
    """An explicit cross-pipe wait (SetFlag/WaitFlag): ``dst`` pipe waits for ``src`` pipe."""

    src: str
    dst: str


@dataclass(slots=True)
class PipeBarrier:
    pipe: str

ALIAS = "ALIAS"
#: Pseudo-ops in a VF stream: no cost, not counted (ITER marks a loop iteration start; ALIAS names the
#: second register written by a dual-output instruction).
PSEUDO_OPS = frozenset({ITER, ALIAS})
