"""The batched replay of a recorded ``.asc`` hardware loop (``toolkit.asc.loopdefer``): the body's calls run
once, each with its arguments merged over the iterations, inside a ``LoopBatch``
(``toolkit.ascendc.regbase.loopbatch``): registers hold one row per (iteration, core), UB is accessed at
per-iteration addresses, the records are expanded to the serial run's at the end.

What a batch needs (else it is refused, and the calls are replayed serially): at least two iterations;
every iteration recorded the same calls (API, file, line, number of words); every object a call made in
an iteration is released in that iteration and used only there, but for a variable rebound every
iteration (``mask = UpdateMask<T>(count)``: the next iteration releases it, iteration 0 releases the
variable's object of before the loop, the last iteration's outlives the loop);
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
from .hooks import _REG_KINDS
from .loopdefer import Placeholder

_HANDLES = (bridge.T_REG, bridge.T_MASK, bridge.T_OBJ, bridge.T_AREG)
_TEMPLATE_KINDS = (bridge.T_TTYPE, bridge.T_TENUM, bridge.T_TTRAIT, bridge.T_TVALUE, bridge.T_TNAMED)

_HANDLE_FIRST = ("free", "copy", "end")          # kinds whose first argument is a handle


class _Plan:
    """What the checks of a recording found (:func:`_check`)."""

    def __init__(self):
        self.canon: dict[int, int] = {}        # placeholder -> the one of iteration 0 made at its position
        self.pos: dict[int, int] = {}          # placeholder -> its body position
        self.rebinds: set[int] = set()         # positions of frees of the previous iteration's object
        self.survivors: set[int] = set()       # positions whose last iteration's object outlives the loop
        self.once: dict[str, int] = {}         # register kind -> registers made before the loop, released once


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
    plan = _Plan()
    try:
        _check(r, plan)
        guard.rec.loop_iteration(guard.loop)
        _run_body(r, plan, batch)
    except Exception as e:             # NotBatchable, a diagnostic, any failure: the serial replay reports it
        err = e
    declared = guard.rec.declared
    for kind, k in plan.once.items():  # released in iteration 0 only: not once per iteration
        declared[kind] += k
    ok = loopbatch.finish_replay(batch, err)
    if ok:
        for kind, k in plan.once.items():
            declared[kind] -= k
    _release(r, plan, ok)
    return ok


def _check(r, plan: _Plan) -> None:
    """Refuse a recording a batch cannot replay: iterations that differ, registers made in an iteration
    and not released in it (but a variable rebound every iteration, ``mask = UpdateMask(...)``: it
    releases the previous iteration's, its last one outlives the loop)."""
    body = r.iters[0]
    for it in r.iters:
        if len(it) != len(body):
            raise NotBatchable("iterations make different calls")
        for p, (e, e0) in enumerate(zip(it, body)):
            if e.api is not e0.api or e.line != e0.line or e.fid != e0.fid or len(e.words) != len(e0.words):
                raise NotBatchable("iterations make different calls")
            if e.ph:
                plan.canon[e.ph], plan.pos[e.ph] = e0.ph, p
    released: list[int] = []
    for p, e0 in enumerate(body):
        if e0.kind in ("free", "end"):
            released.append(_released(r, p, plan))
    if sorted(released) != [p for p, e in enumerate(body) if e.ph]:
        raise NotBatchable("a register outlives its iteration, or one made before the loop is released")


def _released(r, p: int, plan: _Plan) -> int:
    """The body position whose objects the release at ``p`` releases."""
    col = [it[p].words[1] for it in r.iters]
    owner = r.owner
    if all(owner.get(h) == k for k, h in enumerate(col)):
        qs = {plan.pos[h] for h in col}
    elif col[0] not in owner and r.iters[0][p].kind == "free" and \
            all(owner.get(h) == k - 1 for k, h in enumerate(col) if k):
        qs = {plan.pos[h] for h in col[1:]}
        made = r.iters[0][next(iter(qs))]
        if len(qs) != 1 or made.kind not in ("obj", "mask_count") or made.api.name.startswith("rt."):
            raise NotBatchable("a register rebound in the loop is made by a copy")
        plan.rebinds.add(p)
        plan.survivors |= qs
        prog = bridge.PROGRAM
        if col[0] in prog.declared:
            kind = _REG_KINDS[type(prog.objects[col[0]]).__name__]
            plan.once[kind] = plan.once.get(kind, 0) + 1
    else:
        raise NotBatchable("a register made in one iteration is released in another")
    if len(qs) != 1:
        raise NotBatchable("iterations release different registers")
    return next(iter(qs))


def _run_body(r, plan: _Plan, batch) -> None:
    prog = bridge.PROGRAM
    for p, e0 in enumerate(r.iters[0]):
        col = [it[p] for it in r.iters]
        SOURCE_LOCATION.set((prog.strings[e0.fid], e0.line))
        if p in plan.rebinds:                      # iteration 0 releases the variable's object of before
            targs, args, _ = bridge.decode(e0.words)
        elif e0.api.name.startswith("rt."):
            first = e0.kind in _HANDLE_FIRST or e0.api.name == "rt.loop_iter"
            targs, args, _ = bridge.decode(_same_words(col, plan.canon, first))
        else:
            targs, args = _merge(col, r.owner)
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


def _release(r, plan: _Plan, ok: bool) -> None:
    """After the batch: the placeholders were released (dropped) but the last iteration's of a rebound
    variable (it names the batch's object, collapsed to that iteration); after a refusal they go back to
    placeholders for the serial replay."""
    prog = bridge.PROGRAM
    last = len(r.iters) - 1
    for k, it in enumerate(r.iters):
        for p, e in enumerate(it):
            if ok and k == last and p in plan.survivors:
                obj = prog.objects[e.ph]
                prog._handles[id(obj)] = e.ph
                continue
            if e.ph:
                obj = prog.objects.pop(e.ph, None)
                if obj is not None and prog._handles.get(id(obj)) == e.ph:
                    del prog._handles[id(obj)]
                prog.declared.discard(e.ph)
                if not ok:
                    prog.objects[e.ph] = Placeholder(e.ph)


# -- merging the arguments of the iterations -------------------------------------------------------------
def _layout(words: tuple) -> list:
    """(kind, argument index or -1 for a template argument, index of its payload word) per group."""
    out, i, n, a = [], 0, len(words), 0
    while i < n:
        kind = words[i] & 0xFF
        if kind in _TEMPLATE_KINDS:
            out.append((kind, -1, i + 1))
        else:
            out.append((kind, a, i + 1))
            a += 1
        i += bridge.group_len(words, i)
    return out


def _merge(col: list, owner: dict) -> tuple[list, list]:
    """One call's template arguments and arguments, from iteration 0's words, the words that differ
    between iterations merged: ints and UB addresses per iteration, registers the same object."""
    words0 = col[0].words
    targs, args, _ = bridge.decode(words0)
    columns = list(zip(*[e.words for e in col]))
    payload = {w: (kind, a) for kind, a, w in _layout(words0)}
    objects = bridge.PROGRAM.objects
    for w, column in enumerate(columns):
        got = payload.get(w)
        if got is not None and got[0] in _HANDLES:
            for k, h in enumerate(column):
                o = owner.get(h)
                if o is not None and o != k:
                    raise NotBatchable("a register made in one iteration is used in another")
        v0 = column[0]
        if column.count(v0) == len(column):
            continue
        if got is None or got[1] < 0:
            raise NotBatchable("iterations pass different kinds of arguments")
        kind, a = got
        if kind in _HANDLES:
            if any(objects[h] is not args[a] for h in column):
                raise NotBatchable("a register argument differs between iterations")
        elif kind in (bridge.T_INT, bridge.T_FLT):
            args[a] = _per_iteration(list(column))
        elif kind == bridge.T_UINT:
            args[a] = _per_iteration([v + (1 << 64) if v < 0 else v for v in column])
        elif kind == bridge.T_REF:                    # UpdateMask's count: its value in each iteration
            box = type(args[a])
            unsigned = box.dtype.kind == "u"
            args[a] = _per_iteration([box(v + (1 << 64) if v < 0 and unsigned else v).value for v in column])
        elif kind == bridge.T_UBPTR:
            p = UbPtr(0, args[a].dtype)
            p.addr = _per_iteration([v & bridge.UB_ADDR_MASK for v in column])
            args[a] = p
        else:
            raise NotBatchable("an argument that differs between iterations")
    for a, v in enumerate(args):
        if isinstance(v, CScalar):
            args[a] = v.value
    return targs, args


def _per_iteration(vals: list) -> Any:
    v0 = vals[0]
    if all(v == v0 for v in vals):
        return v0
    a = np.asarray(vals)
    if a.dtype.kind not in "iuf":
        raise NotBatchable("per-iteration values of no numeric type")
    return Iv(a.astype(np.int64) if a.dtype.kind in "iu" and a.dtype != np.uint64 else a)
