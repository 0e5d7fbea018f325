"""DataCopy / DataCopyPad of the cores of a lock-step group at once (toolkit.lockstep).

Cores that reach a copy with the same UB side and parameters differ only in their GM tensor (its
offset: each core moves its own rows). The group runs the copy once: the layout is computed once (the
same ``_Move`` the core-by-core path uses), the UB side is read or written as one array over the cores'
rows, and only what is per core stays per core: the GM footprint check, the GM bytes, the writer record,
the DMA event and the diagnostics, each in the order a core-by-core run makes them. Forms with per-core
data-dependent UB content (DataCopyPad padding filled from GM) run core by core through the same code.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from .batch import BatchCore
from .diagnostics import SOURCE_LOCATION, KernelAbort, kernel_frame
from .dma import _block_index, _check_gm_blocks, _int, _Move, _perform, _plan_copy, _plan_copy_pad, _run, DataCopy
from .events import Dma
from .lockstep import arg_key
from .runtime import enter, leave
from .tensor import GlobalTensor, check_gm, gm_write


@dataclass
class DmaRequest:
    """A parked copy: its identity leaves out the GM tensor's offset (the per-core part)."""

    fn: Callable
    args: tuple
    where: tuple
    key: tuple = field(default=())

    def make_key(self) -> tuple:
        return (self.fn, self.where, tuple(_gm_key(a) if type(a) is GlobalTensor else arg_key(a)
                                           for a in self.args))

    def run_group(self, bctx: BatchCore, reqs: list["DmaRequest"]) -> dict[int, KernelAbort]:
        token = SOURCE_LOCATION.set(self.where)
        try:
            return _run_group(bctx, self, reqs)
        finally:
            SOURCE_LOCATION.reset(token)


def _gm_key(g: GlobalTensor) -> tuple:
    return ("G", id(g.buf), g.dtype)


def _glob(req: DmaRequest) -> GlobalTensor:
    return next(a for a in req.args[:2] if isinstance(a, GlobalTensor))


def _run_group(bctx: BatchCore, req: DmaRequest, reqs: list[DmaRequest]) -> dict[int, KernelAbort]:
    if req.fn is DataCopy:
        plan = _plan_copy(bctx, *req.args)
    else:
        plan = _plan_copy_pad(bctx, *req.args)
        if plan is None:
            return {}
    mv = plan[0]
    globs = [_glob(r) for r in reqs]
    if mv.to_ub and mv.pad is not None and (mv.pad[0] or mv.pad[1] or (mv.length % 32)):
        return _core_by_core(bctx.members, mv, globs)          # padding filled per core (from its GM)
    bctx.ub.check(mv.entry[0], mv.entry[1], mv.api, align=32)
    outcomes: dict[int, KernelAbort] = {}
    reach = (min(0, (mv.n - 1) * mv.gm_step), max(0, (mv.n - 1) * mv.gm_step) + mv.length)
    if mv.n <= 0 or mv.length <= 0 or _inside(globs, *reach):    # no core can break the footprint rule
        alive = list(zip(bctx.members, globs))
    else:
        alive = _each(bctx.members, globs, outcomes,
                      lambda m, g: _check_gm_blocks(g, mv.n, mv.gm_step, mv.length, mv.api))
    if alive and mv.n and mv.length:
        sub = bctx if len(alive) == len(bctx.members) else BatchCore([m for m, _ in alive], bctx.ub.data2d,
                                                                      bctx.ub.defined2d)
        (_to_ub if mv.to_ub else _to_gm)(sub, mv, alive, outcomes)
    return outcomes


def _inside(globs: list[GlobalTensor], lo: int, hi: int) -> bool:
    """Every core's GM bytes [offset + lo, offset + hi) lie in its buffer (then no bounds report fires)."""
    return all(g.buf is not None and g.offset + lo >= 0 and g.offset + hi <= g.buf.size for g in globs)


def _each(members: list, globs: list, outcomes: dict, fn: Callable) -> list[tuple[Any, GlobalTensor]]:
    """Run ``fn(core, its GM tensor)`` on each core as that core; the ones a fatal rule stops drop out."""
    alive = []
    for m, g in zip(members, globs):
        token = enter(m)
        try:
            fn(m, g)
            alive.append((m, g))
        except KernelAbort as stop:
            outcomes[m.core_id] = stop
        finally:
            leave(token)
    return alive


def _core_by_core(members: list, mv: _Move, globs: list) -> dict[int, KernelAbort]:
    outcomes: dict[int, KernelAbort] = {}
    _each(members, globs, outcomes, lambda m, g: _perform(m, mv, g))
    return outcomes


def _spans(mv: _Move) -> tuple[int, int, np.ndarray]:
    lo = int(mv.ub_starts.min())
    return lo, int(mv.ub_starts.max()) - lo + mv.length, mv.gm_step * np.arange(mv.n, dtype=np.int64)


def _gm_span_checked(mv: _Move, rel: np.ndarray, alive: list, outcomes: dict) -> list:
    """The GM span check of dma._ub_to_gm / _gm_to_ub, per core; the cores it stops drop out."""
    lo, span = int(rel.min()), int(rel.max() - rel.min()) + mv.length
    if _inside([g for _, g in alive], lo, lo + span):
        return alive
    return _each([m for m, _ in alive], [g for _, g in alive], outcomes,
                 lambda m, g: check_gm(g.buf, g.offset + lo, span, mv.api))


def _to_gm(sub: BatchCore, mv: _Move, alive: list, outcomes: dict) -> None:
    """UB->GM for the cores in ``sub`` (the steps of dma._ub_to_gm, in its order)."""
    lo, span, rel = _spans(mv)
    sub.ub.check(lo, span, mv.api)
    alive = _gm_span_checked(mv, rel, alive, outcomes)
    if not alive:
        return
    rows = [m.ub.core for m, _ in alive]
    total = mv.n * mv.length
    contiguous_ub = _run(mv.ub_starts, mv.length)
    idx = np.arange(lo, lo + total) if contiguous_ub else _block_index(mv.ub_starts, mv.length)
    data = sub.ub.data2d[rows][:, idx] if not contiguous_ub else sub.ub.data2d[rows, lo:lo + total]
    shadow = sub.ub.defined2d[rows][:, idx] if not contiguous_ub else sub.ub.defined2d[rows, lo:lo + total]
    ok = shadow.all(axis=1)
    contiguous_gm = _run(rel, mv.length)
    where = kernel_frame()
    for k, (m, g) in enumerate(alive):
        token = enter(m)                          # the per-core steps run as that core
        try:
            if not ok[k]:
                missing = int((~shadow[k]).sum())
                first = int(idx[int(np.argmin(shadow[k]))])
                m.report("UNDEFINED_READ", f"{mv.api} to {g.buf.name} copies {missing} never-written "
                         f"UB byte(s), first at {first}", address=first, size=missing)
            if contiguous_gm:
                gm_write(g.buf, g.offset + int(rel[0]), data[k])
            else:
                for b in range(mv.n):
                    gm_write(g.buf, g.offset + int(rel[b]), data[k, b * mv.length:(b + 1) * mv.length])
        finally:
            leave(token)
        m.emit(Dma("UB2GM", mv.api, _int(mv.local.addr), g.buf.name, g.offset, _int(total), mv.n, _int(mv.length),
                   where))


def _to_ub(sub: BatchCore, mv: _Move, alive: list, outcomes: dict) -> None:
    """GM->UB for the cores in ``sub`` (the steps of dma._gm_to_ub, in its order)."""
    lo, span, rel = _spans(mv)           # a contiguous move: the span is the total, as dma._gm_to_ub checks
    total = mv.n * mv.length
    sub.ub.check(lo, span, mv.api)
    alive = _gm_span_checked(mv, rel, alive, outcomes)
    if not alive:
        return
    if _run(rel, mv.length):
        r0 = int(rel[0])
        data = np.stack([g.buf.data[g.offset + r0:g.offset + r0 + total] for _, g in alive])
    else:
        gidx = _block_index(rel, mv.length)
        data = np.stack([g.buf.data[g.offset + gidx] for _, g in alive])
    rows = np.asarray([m.ub.core for m, _ in alive])
    if _run(mv.ub_starts, mv.length):
        u0 = int(mv.ub_starts[0])
        sub.ub.data2d[rows, u0:u0 + total] = data
        sub.ub.defined2d[rows, u0:u0 + total] = True
    else:
        uidx = _block_index(mv.ub_starts, mv.length)
        sub.ub.data2d[rows[:, None], uidx[None, :]] = data
        sub.ub.defined2d[rows[:, None], uidx[None, :]] = True
    where = kernel_frame()
    for m, g in alive:
        m.emit(Dma("GM2UB", mv.api, _int(mv.local.addr), g.buf.name, g.offset, _int(total), mv.n, _int(mv.length),
                   where))
