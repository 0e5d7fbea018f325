"""The VF each MemBase call runs as on Ascend 950 (api-facts 13-15), as instruction records.

Records are :class:`~toolkit.record.events.Instr` as in RegBase; register ids are fresh per written value and
local to the VF instance (starting at 1), so equal parameters give equal streams. Loads and stores
carry the UB address and bytes they touch (so the timing view applies the same bank and port rules
as to RegBase). Streams are cached per parameter key and shared: never mutate a returned list.

* count form: ``VLOOP(chunks)``; per VL chunk: ITER, PLT (UpdateMask), VLD per source, op, VST.
* level-0 form: mask set-up once (PMOV for a bit mask, PLT for a continuous one), ``VLOOP(repeat)``;
  per repeat: ITER, VSLDB per source, op, VSSTB, and a VST->VLD MEMBAR between consecutive repeats.

Operand addresses are given as ``(addr, element bytes)`` (count form) or ``(addr, blkStride,
repStride)`` (level-0 form), destination first.
"""
from __future__ import annotations

import functools

from toolkit.record.diagnostics import kernel_frame
from toolkit.record.events import BLOCK_STRIDED, ITER, VLOOP, Instr, VfCall

from .level0 import BLOCK

MEMBAR = Instr("RV_MEMBAR", -1, (), "VST_VLD", loop=1)


class _Ids:
    __slots__ = ("n",)

    def __init__(self) -> None:
        self.n = 0

    def __call__(self) -> int:
        self.n += 1
        return self.n


def _mask_setup(ids: _Ids, out: list, kind: str, value: int) -> int:
    m = ids()
    out.append(Instr("RV_PMOV", m) if kind == "bits" else Instr("RV_PLT", m, (), value))
    return m


def _strided(op: str, dst: int, srcs: tuple, m: int, operand: tuple, r: int) -> Instr:
    """A block-strided load/store of repeat r of a level-0 operand ``(addr, blkStride, repStride)``."""
    addr, blk, rep = operand
    return Instr(op, dst, srcs, blk, m, BLOCK_STRIDED, addr + r * rep * BLOCK, BLOCK, 1)


@functools.lru_cache(maxsize=4096)
def count_stream(opcode: str | tuple, count: int, lanes: int, addrs: tuple, load: str = "NORM", store: str = "NORM",
                 ndst: int = 1) -> list:
    """Count form over ``count`` elements, ``lanes`` per VL chunk; ``addrs`` = ((dst addr, element
    bytes), (src addr, element bytes), ...): one load per source (the first ``ndst`` entries are
    destinations, each stored from the step's result)."""
    ids, out = _Ids(), []
    trips = -(-count // lanes)
    if trips == 0:
        return out
    out.append(Instr(VLOOP, -1, (), trips))
    rem = count
    for k in range(trips):
        out.append(Instr(ITER, -1, (), 1, loop=1))
        m = ids()
        out.append(Instr("RV_PLT", m, (), rem, loop=1))
        n = min(rem, lanes)
        rem = max(rem - lanes, 0)
        loads = []
        for a, w in addrs[ndst:]:
            r = ids()
            out.append(Instr("RV_VLD", r, (), None, -1, load, a + k * lanes * w, n * w, 1))
            loads.append(r)
        c = _body(ids, out, opcode, loads, m)
        for a, w in addrs[:ndst]:
            out.append(Instr("RV_VST", -1, (c, m), None, m, store, a + k * lanes * w, n * w, 1))
    return out


def _body(ids: _Ids, out: list, opcode: str | tuple, loads: list, m: int) -> int:
    """The op(s) of one step: ``opcode`` reads every load; a chain ``(op1, op2, ...)`` feeds each op the
    previous one's result. Returns the register of the last result."""
    chain = (opcode,) if isinstance(opcode, str) else opcode
    srcs = tuple(loads)
    c = loads[0] if loads else -1             # an empty chain (a copy) stores the load
    for op in chain:
        c = ids()
        out.append(Instr(op, c, srcs + (m,), None, m, loop=1))
        srcs = (c,)
    return c


@functools.lru_cache(maxsize=4096)
def level0_stream(opcode: str | tuple, repeat: int, mask_kind: str, mask_value: int, addrs: tuple) -> list:
    """Level-0 form: ``repeat`` repeats of block-strided loads, op, block-strided store; ``addrs`` =
    ((dst addr, blkStride, repStride), (src addr, blkStride, repStride), ...): one load per source."""
    ids, out = _Ids(), []
    m = _mask_setup(ids, out, mask_kind, mask_value)
    if repeat:
        out.append(Instr(VLOOP, -1, (), repeat))
    for r in range(repeat):
        out.append(Instr(ITER, -1, (), 1, loop=1))
        _repeat(ids, out, opcode, addrs, m, r, r + 1 < repeat)
    return out


@functools.lru_cache(maxsize=4096)
def counter_stream(opcode: str | tuple, count: int, lanes: int, addrs: tuple) -> list:
    """Level-0 form in counter mode (SetMaskCount): ceil(count / lanes) repeats, each with its UpdateMask
    (PLT) of the remaining count, block-strided loads, op(s), block-strided store, barrier between repeats."""
    ids, out = _Ids(), []
    repeat = -(-count // lanes)
    if repeat:
        out.append(Instr(VLOOP, -1, (), repeat))
    rem = count
    for r in range(repeat):
        out.append(Instr(ITER, -1, (), 1, loop=1))
        m = ids()
        out.append(Instr("RV_PLT", m, (), rem, loop=1))
        rem = max(rem - lanes, 0)
        _repeat(ids, out, opcode, addrs, m, r, r + 1 < repeat)
    return out


def _repeat(ids: _Ids, out: list, opcode: str | tuple, addrs: tuple, m: int, r: int, barrier: bool) -> None:
    """One level-0 repeat: a block-strided load per source, the op(s), the block-strided store."""
    loads = []
    for operand in addrs[1:]:
        a = ids()
        out.append(_strided("RV_VSLDB", a, (m,), m, operand, r))
        loads.append(a)
    c = _body(ids, out, opcode, loads, m)
    out.append(_strided("RV_VSSTB", -1, (c, m), m, addrs[0], r))
    if barrier:
        out.append(MEMBAR)


@functools.lru_cache(maxsize=1024)
def reduce_stream(repeat: int, mask_kind: str, mask_value: int, nbytes: int, addrs: tuple,
                  opcode: str = "RV_VCADD") -> list:
    """Level-0 reductions (WholeReduceSum ...): per repeat VSLDB, the reduction, VSTUI of its ``nbytes``
    result; VSTAS after the loop. ``addrs`` = ((dst addr, dstRepStride in results), (src addr, blkStride,
    repStride))."""
    ids, out = _Ids(), []
    m = _mask_setup(ids, out, mask_kind, mask_value)
    u = ids()                                       # the UnalignRegForStore
    (daddr, drep), src = addrs
    if repeat:
        out.append(Instr(VLOOP, -1, (), repeat))
        for r in range(repeat):
            out.append(Instr(ITER, -1, (), 1, loop=1))
            a = ids()
            out.append(_strided("RV_VSLDB", a, (m,), m, src, r))
            c = ids()
            out.append(Instr(opcode, c, (a, m), None, m, loop=1))
            u2 = ids()
            out.append(Instr("RV_VSTUI", u2, (c, u), nbytes, -1, None, daddr + r * drep * nbytes, nbytes, 1))
            u = u2
    out.append(Instr("RV_VSTAS", -1, (u,)))
    return out


@functools.lru_cache(maxsize=1024)
def brcb_stream(repeat: int, width: int, addrs: tuple) -> list:
    """Brcb: an all-lanes mask, then per repeat an E2B load and a block-strided store; ``addrs`` =
    ((dst addr, blkStride, repStride), src addr)."""
    ids, out = _Ids(), []
    m = ids()
    out.append(Instr("RV_PSET", m, (), width))
    if repeat:
        out.append(Instr(VLOOP, -1, (), repeat))
        dist = "E2B_B16" if width <= 2 else "E2B_B32"
        (daddr, blk, rep), saddr = addrs
        for r in range(repeat):
            out.append(Instr(ITER, -1, (), 1, loop=1))
            a = ids()
            out.append(Instr("RV_VLD", a, (), None, -1, dist, saddr + r * 8 * width, 8 * width, 1))
            out.append(_strided("RV_VSSTB", -1, (a, m), m, (daddr, blk, rep), r))
    return out


@functools.lru_cache(maxsize=1024)
def gather_stream(chunk_bytes: tuple[tuple[int, ...], ...], counter: bool, strided: bool,
                  counts: tuple[tuple[int, ...], ...]) -> list:
    """GatherMask: pattern mask once; per VL chunk (PLT in counter mode), load, VSQZ, VSTUI; VSTAS.

    ``chunk_bytes[r][j]`` = bytes chunk j of repeat r stores; ``counts[r][j]`` = PLT input (counter mode).
    Normal mode has one chunk per repeat in one loop; counter mode nests a chunk loop in a repeat loop.
    """
    ids, out = _Ids(), []
    m = ids()
    out.append(Instr("RV_PMOV", m))
    u = ids()
    if chunk_bytes:
        out.append(Instr(VLOOP, -1, (), len(chunk_bytes)))
    for r, row in enumerate(chunk_bytes):
        out.append(Instr(ITER, -1, (), 1, loop=1))
        if counter and row:
            out.append(Instr(VLOOP, -1, (), len(row), loop=1))
        for j, nb in enumerate(row):
            masks: tuple = (m,)
            if counter:
                out.append(Instr(ITER, -1, (), 2, loop=2))
                p = ids()
                out.append(Instr("RV_PLT", p, (), counts[r][j], loop=2))
                masks = (m, p)
            a = ids()
            out.append(Instr("RV_VSLDB", a, (m,), 1, m, BLOCK_STRIDED, loop=1) if strided
                       else Instr("RV_VLD", a, (), None, -1, "NORM", loop=1))
            q = ids()
            out.append(Instr("RV_VSQZ", q, (a,) + masks, None, m, loop=1))
            u2 = ids()
            out.append(Instr("RV_VSTUI", u2, (q, u), nb, loop=1))
            u = u2
    out.append(Instr("RV_VSTAS", -1, (u,)))
    return out


@functools.lru_cache(maxsize=1024)
def gather_scatter_stream(opcode: str, steps: int, addr: int) -> list:
    """Gather / Gatherb / Scatter: per VL chunk or repeat, the offsets load, the indexed access (VGATHER,
    VGATHERB, VSCATTER) and, for the gathers, the store of the gathered register."""
    ids, out = _Ids(), []
    m = ids()
    out.append(Instr("RV_PSET", m, (), 4))
    if steps:
        out.append(Instr(VLOOP, -1, (), steps))
    for _ in range(steps):
        out.append(Instr(ITER, -1, (), 1, loop=1))
        o = ids()
        out.append(Instr("RV_VLD", o, (), None, -1, "NORM", loop=1))
        if opcode == "RV_VSCATTER":
            x = ids()
            out.append(Instr("RV_VLD", x, (), None, -1, "NORM", loop=1))
            out.append(Instr(opcode, -1, (x, o, m), None, m, loop=1))
        else:
            g = ids()
            out.append(Instr(opcode, g, (o, m), None, m, loop=1))
            out.append(Instr("RV_VST", -1, (g, m), None, m, "NORM", loop=1))
    return out


def emit(ctx, name: str, nparams: int, instrs: list, meta: dict) -> None:
    """Append the VfCall event of one MemBase call to core ``ctx``."""
    ctx.emit(VfCall(name, "membase", nparams, ctx.intern_stream(instrs), kernel_frame(), meta))
