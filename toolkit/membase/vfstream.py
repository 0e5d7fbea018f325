"""The VF each MemBase call runs as on Ascend 950 (api-facts 13-15), as instruction records.

Records are ``(opcode, dst_id, src_ids, aux)`` as in RegBase (``toolkit.events``); register ids are
fresh per written value and local to the VF instance (starting at 1), so equal parameters give equal
streams. Streams are cached per parameter key and shared: never mutate a returned list.

* count form: ``VLOOP(chunks)``; per VL chunk: ITER, PLT (UpdateMask), VLD per source, op, VST.
* level-0 form: mask set-up once (PMOV for a bit mask, PLT for a continuous one), ``VLOOP(repeat)``;
  per repeat: ITER, VSLDB per source, op, VSSTB, and a VST->VLD MEMBAR between consecutive repeats.
"""
from __future__ import annotations

import functools

from ..diagnostics import kernel_frame
from ..events import ITER, VLOOP, VfCall

MEMBAR = ("RV_MEMBAR", -1, (), "VST_VLD")


class _Ids:
    __slots__ = ("n",)

    def __init__(self) -> None:
        self.n = 0

    def __call__(self) -> int:
        self.n += 1
        return self.n


def _mask_setup(ids: _Ids, out: list, kind: str, value: int) -> int:
    m = ids()
    out.append(("RV_PMOV", m, (), None) if kind == "bits" else ("RV_PLT", m, (), value))
    return m


@functools.lru_cache(maxsize=4096)
def count_stream(opcode: str, nsrc: int, count: int, lanes: int, load: str = "NORM", store: str = "NORM") -> list:
    """Count form over ``count`` elements, ``lanes`` per VL chunk; ``nsrc`` loaded sources."""
    ids, out = _Ids(), []
    trips = -(-count // lanes)
    if trips == 0:
        return out
    out.append((VLOOP, -1, (), trips))
    rem = count
    for _ in range(trips):
        out.append((ITER, -1, (), 1))
        m = ids()
        out.append(("RV_PLT", m, (), rem))
        rem = max(rem - lanes, 0)
        loads = []
        for _s in range(nsrc):
            a = ids()
            out.append(("RV_VLD", a, (), load))
            loads.append(a)
        c = ids()
        out.append((opcode, c, tuple(loads) + (m,), None))
        out.append(("RV_VST", -1, (c, m), store))
    return out


@functools.lru_cache(maxsize=4096)
def level0_stream(opcode: str, nsrc: int, repeat: int, mask_kind: str, mask_value: int) -> list:
    """Level-0 form: ``repeat`` repeats of block-strided loads, op, block-strided store."""
    ids, out = _Ids(), []
    m = _mask_setup(ids, out, mask_kind, mask_value)
    if repeat == 0:
        return out
    out.append((VLOOP, -1, (), repeat))
    for r in range(repeat):
        out.append((ITER, -1, (), 1))
        loads = []
        for _s in range(nsrc):
            a = ids()
            out.append(("RV_VSLDB", a, (m,), None))
            loads.append(a)
        c = ids()
        out.append((opcode, c, tuple(loads) + (m,), None))
        out.append(("RV_VSSTB", -1, (c, m), None))
        if r + 1 < repeat:
            out.append(MEMBAR)
    return out


@functools.lru_cache(maxsize=1024)
def reduce_stream(repeat: int, mask_kind: str, mask_value: int, nbytes: int) -> list:
    """WholeReduceSum: per repeat VSLDB, VCADD, VSTUI of one element; VSTAS after the loop."""
    ids, out = _Ids(), []
    m = _mask_setup(ids, out, mask_kind, mask_value)
    u = ids()                                       # the UnalignRegForStore
    if repeat:
        out.append((VLOOP, -1, (), repeat))
        for _ in range(repeat):
            out.append((ITER, -1, (), 1))
            a = ids()
            out.append(("RV_VSLDB", a, (m,), None))
            c = ids()
            out.append(("RV_VCADD", c, (a, m), None))
            u2 = ids()
            out.append(("RV_VSTUI", u2, (c, u), nbytes))
            u = u2
    out.append(("RV_VSTAS", -1, (u,), None))
    return out


@functools.lru_cache(maxsize=1024)
def brcb_stream(repeat: int, width: int) -> list:
    """Brcb: an all-lanes mask, then per repeat an E2B load and a block-strided store."""
    ids, out = _Ids(), []
    m = ids()
    out.append(("RV_PSET", m, (), width))
    if repeat:
        out.append((VLOOP, -1, (), repeat))
        dist = "E2B_B16" if width == 2 else "E2B_B32"
        for _ in range(repeat):
            out.append((ITER, -1, (), 1))
            a = ids()
            out.append(("RV_VLD", a, (), dist))
            out.append(("RV_VSSTB", -1, (a, m), None))
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
    out.append(("RV_PMOV", m, (), None))
    u = ids()
    if chunk_bytes:
        out.append((VLOOP, -1, (), len(chunk_bytes)))
    for r, row in enumerate(chunk_bytes):
        out.append((ITER, -1, (), 1))
        if counter and row:
            out.append((VLOOP, -1, (), len(row)))
        for j, nb in enumerate(row):
            masks: tuple = (m,)
            if counter:
                out.append((ITER, -1, (), 2))
                p = ids()
                out.append(("RV_PLT", p, (), counts[r][j]))
                masks = (m, p)
            a = ids()
            out.append(("RV_VSLDB", a, (m,), None) if strided else ("RV_VLD", a, (), "NORM"))
            q = ids()
            out.append(("RV_VSQZ", q, (a,) + masks, None))
            u2 = ids()
            out.append(("RV_VSTUI", u2, (q, u), nb))
            u = u2
    out.append(("RV_VSTAS", -1, (u,), None))
    return out


def emit(ctx, name: str, nparams: int, instrs: list, meta: dict) -> None:
    """Append the VfCall event of one MemBase call to core ``ctx``."""
    ctx.emit(VfCall(name, "membase", nparams, instrs, kernel_frame(), meta))
