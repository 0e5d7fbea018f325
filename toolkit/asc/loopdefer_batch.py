"""The batched replay of a recorded ``.asc`` hardware loop (``toolkit.asc.loopdefer``): the body's calls run
once, each with its arguments merged over the iterations, inside a ``LoopBatch``
(``toolkit.ascendc.regbase.loopbatch``): registers hold one row per (iteration, core), UB is accessed at
per-iteration addresses, the records are expanded to the serial run's at the end.

What a batch needs (else it is refused, and the calls are replayed serially): at least two iterations;
every iteration recorded the same calls (API, file, line, number of words); every object a call made in
an iteration is released in that iteration (no register outlives its iteration) and used only there;
arguments that differ between iterations are ints or UB addresses (per-iteration values), or the count
of an ``UpdateMask``; the runtime hooks (``rt.new``, ``rt.free`` ...) get the same arguments in every
iteration (a placeholder handle counting as the one of iteration 0 made at the same position).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from toolkit.ascendc.dtypes import CScalar
from toolkit.ascendc.itervec import Iv, NotBatchable
from toolkit.ascendc.regbase import loopbatch
from toolkit.ascendc.tensor import UbPtr
from toolkit.record.diagnostics import SOURCE_LOCATION

from . import bridge
from .loopdefer import Placeholder, groups

_HANDLES = (bridge.T_REG, bridge.T_MASK, bridge.T_OBJ, bridge.T_AREG)

_HANDLE_FIRST = ("free", "copy", "end")          # kinds whose first argument is a handle


def replay_batched(r) -> bool:
    """Replay the recording ``r`` once over its iterations (True), or leave it to the serial replay."""
    n = len(r.iters)
    if n < 2:
        return False
    guard = r.guard
    batch = loopbatch.start_replay(guard.rec, guard.loop, n, guard.where)
    if batch is None:
        return False
    err: BaseException | None = None
    try:
        canon = _check(r)
        guard.rec.loop_iteration(guard.loop)
        _run_body(r, canon, batch)
    except Exception as e:             # NotBatchable, a diagnostic, any failure: the serial replay reports it
        err = e
    ok = loopbatch.finish_replay(batch, err)
    _release(r, ok)
    return ok


def _check(r) -> dict[int, int]:
    """Refuse a recording a batch cannot replay; the placeholder of iteration 0 for every placeholder."""
    body = r.iters[0]
    canon: dict[int, int] = {}
    for k, it in enumerate(r.iters):
        if len(it) != len(body):
            raise NotBatchable("iterations make different calls")
        made, released = set(), set()
        for e, e0 in zip(it, body):
            if e.api is not e0.api or e.line != e0.line or e.fid != e0.fid or len(e.words) != len(e0.words):
                raise NotBatchable("iterations make different calls")
            if e.ph:
                made.add(e.ph)
                canon[e.ph] = e0.ph
            if e.kind in ("free", "end"):
                released.add(e.words[1])
        if made != released:
            raise NotBatchable("a register outlives its iteration, or one made before the loop is released")
    return canon


def _run_body(r, canon: dict[int, int], batch) -> None:
    prog = bridge.PROGRAM
    for p, e0 in enumerate(r.iters[0]):
        col = [it[p] for it in r.iters]
        SOURCE_LOCATION.set((prog.strings[e0.fid], e0.line))
        if e0.api.name.startswith("rt."):
            first = e0.kind in _HANDLE_FIRST or e0.api.name == "rt.loop_iter"
            targs, args, _ = bridge.decode(_same_words(col, canon, first))
        else:
            _check_owner(col, r.owner)
            targs, args = _merge(col)
        result = e0.api(targs, args)
        if e0.ph:
            _bind_all(result, col, e0, batch)


def _same_words(col: list, canon: dict, handle_first: bool) -> tuple:
    """The words of a runtime hook, the same in every iteration (a placeholder as iteration 0's)."""
    out = None
    for e in col:
        w = e.words
        if handle_first:
            w = (w[0], canon.get(w[1], w[1]), *w[2:])
        if out is None:
            out = w
        elif w != out:
            raise NotBatchable(f"{col[0].api.name} differs between iterations")
    return out


def _check_owner(col: list, owner: dict) -> None:
    """A placeholder an iteration passes must be one it made (not an earlier iteration's: loop-carried)."""
    for k, e in enumerate(col):
        for kind, w in groups(e.words):
            got = owner.get(w) if kind in _HANDLES else None
            if got is not None and got != k:
                raise NotBatchable("a register made in one iteration is used in another")


def _bind_all(result: Any, col: list, e0, batch) -> None:
    """Every iteration's placeholder of this position names the object the batched call made."""
    prog = bridge.PROGRAM
    obj, fresh = result, None
    if type(result) is int:                       # rt.new / rt.copy / rt.loop_begin: a fresh handle
        fresh = result
        obj = prog.objects.pop(fresh)
        if prog._handles.get(id(obj)) == fresh:
            del prog._handles[id(obj)]
        if e0.kind == "copy" and hasattr(obj, "keep_last"):
            batch.made(obj)
    for e in col:
        prog.objects[e.ph] = obj
    prog._handles[id(obj)] = e0.ph
    if fresh is not None and fresh in prog.declared:
        prog.declared.discard(fresh)
        prog.declared.add(e0.ph)


def _release(r, ok: bool) -> None:
    """After the batch: every placeholder was released in its iteration (drop them all); after a refusal
    they go back to placeholders for the serial replay."""
    prog = bridge.PROGRAM
    for it in r.iters:
        for e in it:
            if e.ph:
                obj = prog.objects.pop(e.ph, None)
                if obj is not None and prog._handles.get(id(obj)) == e.ph:
                    del prog._handles[id(obj)]
                prog.declared.discard(e.ph)
                if not ok:
                    prog.objects[e.ph] = Placeholder(e.ph)


# -- merging the arguments of the iterations -------------------------------------------------------------
_TEMPLATE_KINDS = (bridge.T_TTYPE, bridge.T_TENUM, bridge.T_TTRAIT, bridge.T_TVALUE, bridge.T_TNAMED)


def _template_words(e) -> list:
    return [(k, v) for k, v in groups(e.words) if k in _TEMPLATE_KINDS]


def _merge(col: list) -> tuple[list, list]:
    """One call's template arguments (the same in every iteration) and arguments merged over them."""
    t0 = _template_words(col[0])
    if any(_template_words(e) != t0 for e in col[1:]):
        raise NotBatchable("template arguments differ between iterations")
    decoded = [bridge.decode(e.words) for e in col]
    a0 = decoded[0][1]
    if any(len(d[1]) != len(a0) for d in decoded):
        raise NotBatchable("iterations pass different arguments")
    return decoded[0][0], [_merge_arg([d[1][i] for d in decoded]) for i in range(len(a0))]


def _eq(x: Any, y: Any) -> bool:
    try:
        return bool(x == y)
    except Exception:
        return False


def _merge_arg(vals: list) -> Any:
    v0 = vals[0]
    if all(v is v0 for v in vals):
        return v0
    t = type(v0)
    if any(type(v) is not t for v in vals):
        raise NotBatchable("an argument of different kinds in different iterations")
    if t is int or t is float:
        return _per_iteration(vals)
    if t is UbPtr:
        if any(v.dtype != v0.dtype for v in vals):
            raise NotBatchable("UB pointers of different types")
        p = UbPtr(0, v0.dtype)
        p.addr = _per_iteration([v.addr for v in vals])
        return p
    if isinstance(v0, CScalar):                   # UpdateMask's count: its value in each iteration
        return _per_iteration([v.value for v in vals])
    if hasattr(v0, "keep_last") or not all(_eq(v, v0) for v in vals):
        raise NotBatchable("an argument that differs between iterations")
    return v0


def _per_iteration(vals: list) -> Any:
    v0 = vals[0]
    if all(v == v0 for v in vals):
        return v0
    a = np.asarray(vals)
    if a.dtype.kind not in "iuf":
        raise NotBatchable("per-iteration values of no numeric type")
    return Iv(a.astype(np.int64) if a.dtype.kind in "iu" and a.dtype != np.uint64 else a)
