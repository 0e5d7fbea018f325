"""Functional execution of one MemBase call on UB bytes: bounds, sequential steps, definedness.

The hardware runs a MemBase call as a VF looping over repeats (or VL chunks): each step loads its
sources, computes and stores before the next step loads (a VST->VLD barrier per repeat), so a later
step sees what an earlier one wrote. :func:`apply` executes all steps at once with numpy when no step
reads an element that an earlier step wrote (exact check, cached per layout), and step by step
otherwise. When an element is written twice, the last write wins. Masked-off elements are not
listed in the accesses, so their UB bytes keep their content.

Definedness (UB shadow): a destination element is defined iff every source element it was computed
from is defined.
"""
from __future__ import annotations

from typing import Callable, NamedTuple, Sequence

import numpy as np

from .level0 import Access, last_writes

_UINT = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}
_ONES = {1: 1, 2: 0x0101, 4: 0x01010101, 8: 0x0101010101010101}
_HAZARD_CACHE: dict[tuple, bool] = {}
_HAZARD_CACHE_MAX = 8192

Compute = Callable[[list], np.ndarray]
Defined = Callable[[list], np.ndarray]


class Operand(NamedTuple):
    """A UB operand of one call: base byte address, element type, access, base alignment."""

    addr: int
    dtype: np.dtype
    acc: Access
    align: int = 32


def apply(ctx, api: str, dst: Operand, srcs: Sequence[Operand], fn: Compute, dfn: Defined | None = None) -> None:
    """Check bounds, then write ``fn(source values)`` to ``dst`` with sequential-step semantics.

    ``fn`` and ``dfn`` map the gathered source arrays (values / per-element definedness, None = all
    defined) of any number of whole steps to the destination entries of the same steps.
    """
    ub = ctx.ub
    for s in srcs:
        ub.check(s.addr, s.acc.read_span, api, s.align)
    ub.check(dst.addr, dst.acc.ehi * dst.dtype.itemsize, api, dst.align)
    if ctx.dry_run or dst.acc.idx.size == 0:
        return
    if _hazard(dst, srcs):
        for r in range(dst.acc.nsteps):
            _run(ub, dst, srcs, fn, dfn, r)
    else:
        _run(ub, dst, srcs, fn, dfn, None)


def _run(ub, dst: Operand, srcs: Sequence[Operand], fn: Compute, dfn: Defined | None, r: int | None) -> None:
    """One call (``r`` None) or its step ``r``; every array has a leading core axis (rows of a batch)."""
    if r is not None and dst.acc.starts[r] == dst.acc.starts[r + 1]:
        return
    vals, defs = [], []
    for s in srcs:
        v, d = _gather(ub, s, r)
        vals.append(v)
        defs.append(d)
    with np.errstate(all="ignore"):
        # a compute that depends on the entry's position (Select's selMask bit) takes the step too
        out = np.asarray(fn(vals, entries(dst.acc, r)) if getattr(fn, "positional", False) else fn(vals),
                         dtype=dst.dtype)
    acc = dst.acc
    n = acc.idx.size if r is None else int(acc.starts[r + 1] - acc.starts[r])
    if out.ndim < 2:                                   # no sources: one value per entry (CreateVecIndex)
        if out.ndim == 1 and out.size == n:            # or a scalar broadcast (Duplicate)
            out = out[None, :]
        else:
            out = np.broadcast_to(out.reshape(-1)[:1] if out.ndim else out, (1, n))
    dd = None
    if any(d is not None for d in defs):
        if dfn is not None:
            dd = dfn([np.ones(v.shape, bool) if d is None else d for v, d in zip(vals, defs)])
        else:
            for d in defs:
                if d is not None:
                    dd = d if dd is None else (dd & d)
        if dd.all():
            dd = None
    _scatter(ub, dst, out, dd, r)


def entries(acc: Access, r: int | None) -> slice:
    """The entries of step ``r`` (None: all) of an access, as a slice of its arrays."""
    return slice(None) if r is None else slice(int(acc.starts[r]), int(acc.starts[r + 1]))


def _gather(ub, op: Operand, r: int | None) -> tuple[np.ndarray, np.ndarray | None]:
    """Values and per-element definedness (None: all defined) of an operand, (rows, n)."""
    w = op.dtype.itemsize
    acc = op.acc
    if r is None and acc.contiguous:
        a, n = op.addr, acc.idx.size * w
        sh = ub.rdef(a, n)
        return ub.rd(a, n).view(op.dtype), (None if sh is None else sh.view(_UINT[w]) == _ONES[w])
    if r is None:
        idx = acc.idx
        lo, hi = op.addr + acc.elo * w, op.addr + acc.ehi * w
        all_def = ub.rdef(lo, hi - lo) is None
    else:
        idx = acc.idx[acc.starts[r]:acc.starts[r + 1]]
        all_def = False
    pos = idx + op.addr // w
    v = ub.gather(op.dtype, pos)
    if all_def:
        return v, None
    d = ub.gather_def(w, pos)
    return v, (None if d.all() else d)


def _scatter(ub, dst: Operand, out: np.ndarray, dd: np.ndarray | None, r: int | None) -> None:
    w = dst.dtype.itemsize
    acc = dst.acc
    if r is None and acc.contiguous:
        raw = np.ascontiguousarray(out).view(np.uint8)
        ub.wr(dst.addr, raw, True if dd is None else np.repeat(dd, w, axis=1))
        return
    if r is None:
        idx, keep = acc.idx, acc.keep
    else:
        idx = acc.idx[acc.starts[r]:acc.starts[r + 1]]
        keep = last_writes(idx)
    if keep is not None:
        idx, out = idx[keep], out[:, keep]
        dd = None if dd is None else dd[:, keep]
    ub.scatter(dst.dtype, idx + dst.addr // w, out, dd)


def _hazard(dst: Operand, srcs: Sequence[Operand]) -> bool:
    """True if some step reads an element that an earlier step of the same call wrote."""
    dacc = dst.acc
    if dacc.nsteps <= 1:
        return False
    dw = dst.dtype.itemsize
    wlo, whi = dst.addr + dacc.elo * dw, dst.addr + dacc.ehi * dw
    cand = [s for s in srcs if s.acc.idx.size and s.addr + s.acc.elo * s.dtype.itemsize < whi
            and s.addr + s.acc.ehi * s.dtype.itemsize > wlo]
    if not cand:
        return False
    key = (dacc.key, dw, tuple((s.addr - dst.addr, s.acc.key, s.dtype.itemsize) for s in cand))
    got = _HAZARD_CACHE.get(key)
    if got is None:
        if len(_HAZARD_CACHE) >= _HAZARD_CACHE_MAX:
            _HAZARD_CACHE.clear()
        got = _HAZARD_CACHE[key] = _exact_hazard(dst, cand)
    return got


def _bytes(rel: np.ndarray, w: int) -> np.ndarray:
    return (rel[:, None] + np.arange(w, dtype=np.int64)[None, :]).ravel()


def _exact_hazard(dst: Operand, cand: Sequence[Operand]) -> bool:
    """Byte-exact: first write step of every written byte vs the step of every read of it."""
    dacc, dw = dst.acc, dst.dtype.itemsize
    base = dacc.elo * dw
    span = dacc.ehi * dw - base
    wb = _bytes(dacc.idx * dw - base, dw)
    first = np.full(span, dacc.nsteps, dtype=np.int64)
    u, i = np.unique(wb, return_index=True)          # entries are in step order: first occurrence
    first[u] = np.repeat(dacc.step, dw)[i]
    for s in cand:
        sw = s.dtype.itemsize
        rb = _bytes(s.acc.idx * sw + (s.addr - dst.addr - base), sw)
        rstep = np.repeat(s.acc.step, sw)
        inside = (rb >= 0) & (rb < span)
        if (first[rb[inside]] < rstep[inside]).any():
            return True
    return False
