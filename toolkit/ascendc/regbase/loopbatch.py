"""Hardware loops as array operations: a VF loop's body runs once over all its iterations.

A hardware loop (RVECLP) runs the same instruction sequence every iteration, addresses moving with the
index. So :func:`start_batch` (called by ``vf.VLOOP``) runs the body once, the loop variable an
:class:`~toolkit.ascendc.itervec.Iv` (one value per iteration), registers holding one row per (iteration,
core) instead of per core (``rows = trips * B``, row ``k * B + b``): every body instruction is one numpy
operation over all iterations of all lock-step cores. Loops inside the body run as before, over those rows.

What keeps it exact (else the loop, or the whole VF instance, runs iteration by iteration as before, and
the run's ``loop_batching`` statistics say why):

* an accumulator (``Add(acc, acc, x, mask)`` and the like on a register made before the loop, not read
  before) runs as a chain: that one update iteration by iteration (``loopscan.py``); any other register
  (or mask) read in the body before the body writes it, and written later, is loop-carried: refused at
  its write (its iterations need the sequential order), as is an accumulator written twice;
* a Python local read before it is assigned in the body and assigned in it (``p = p + 64``), an attribute
  or item store, ``global``, ``break`` / ``return``, a call on a local object or of a kernel function that
  does such things: refused before the body runs (static look at the loop's source, ``loopsource.py``);
  the body's locals are left holding their last iteration's value;
* a ``uint32_t`` count that an ``UpdateMask`` in the body decrements (the VL-chunk idiom) is carried
  exactly: iteration k sees ``max(count - k * VL_T, 0)``;
* UB: stores are held until the body has run, then done in order; a load of bytes a store of the body
  writes (in any iteration), a store an earlier load of a later iteration would have seen, stores of two
  iterations that overlap: refused (hazards are judged on the exact per-iteration ranges);
* any diagnostic, out-of-bounds or misaligned access in any iteration, any API not known to work on
  iteration rows (:data:`BATCHABLE`), the index used as one Python value: refused, and the serial rerun
  reports it with its iteration, core and line, as today.

After the body the instruction records are expanded to what the serial run records (value ids shifted
per iteration, per-iteration addresses and counts, PSETs once, loop-invariant PLTs hoisted), so the
streams, and the cycles timed from them, are the serial run's. ``MIGRATE_CHECK_LOOP_BATCH=0`` or
``--unbatched-loops`` turns batching off (the reference it equals).

The ``.asc`` route records a C++ loop's calls and replays them through :func:`start_replay` /
:func:`finish_replay` (``toolkit.asc.loopdefer``): the same batch, with no Python frame.
"""
from __future__ import annotations

import bisect
import os
import threading
from collections import Counter
from contextlib import contextmanager
from typing import Any, Iterator

import numpy as np

from toolkit.ascendc.itervec import BATCH as _TLS
from toolkit.ascendc.itervec import KEYS, Iv, NotBatchable
from toolkit.engine.runtime import current
from toolkit.record.events import Instr

from .loopsource import impure_call, loop_facts, settle_locals
from .loopub import IterUb

#: API implementations (by ``__name__``) that work on iteration rows as they do on core rows; any other
#: Reg API called in a batched body refuses the batch (``toolkit.ascendc.regbase.template``)
BATCHABLE = frozenset({
    "RV_VADD", "RV_VSUB", "RV_VMUL", "RV_VDIV", "RV_VMAX", "RV_VMIN", "RV_VADDS", "RV_VMULS", "RV_VMAXS",
    "RV_VMINS", "RV_VSQRT", "RV_VEXP", "RV_VABS", "RV_VLN", "RV_VRELU", "Mula", "Duplicate", "Select",
    "LocalMemBar", "LoadAlign", "StoreAlign", "CreateMask", "UpdateMask", "Cast", "Reduce", "ReduceSum",
    "ReduceMax", "ReduceMin",
})

_MAX_PAIRWISE = 4096          #: iterations up to which UB hazards are judged pair by pair


class _Switch(threading.local):
    on = True          #: per thread, not a context variable: a core's greenlet starts with an empty context


_SWITCH = _Switch()


@contextmanager
def loop_batching(on: bool) -> Iterator[None]:
    """Batch hardware loops (the default) or run every iteration on its own (``--unbatched-loops``)."""
    before, _SWITCH.on = _SWITCH.on, on
    try:
        yield
    finally:
        _SWITCH.on = before


def batching_on() -> bool:
    return _SWITCH.on and os.environ.get("MIGRATE_CHECK_LOOP_BATCH", "1") != "0"


def stats(shared: dict) -> Counter:
    """The launch's loop statistics: ``batched`` and ``serial: <reason>`` counts."""
    return shared.setdefault("loop_batching", Counter())


def _tile(a: np.ndarray | None, n: int) -> np.ndarray | None:
    """Core rows (B, x) repeated for every iteration: (n * B, x); one row stays one row (it broadcasts)."""
    if a is None or a.shape[0] == 1:
        return a
    return np.tile(a, (n, 1))


class LoopBatch:
    """One batched run of a hardware loop's body (see the module docstring)."""

    def __init__(self, ctx, rec, loop, start: int, trips: int):
        self.ctx, self.rec, self.loop = ctx, rec, loop
        self.n = trips
        self.base = rec.batch
        self.rows = trips * rec.batch
        self.index = Iv(np.arange(start, start + trips, dtype=np.int64), (start, 1))
        self.reads: set[int] = set()
        self.tiles: dict[tuple, Any] = {}
        self.saved: dict[int, tuple] = {}          # id(reg) -> (reg, its state at loop entry)
        self.created: list = []                    # registers and masks the body declared
        self.scalars: dict[int, list] = {}         # id(count) -> [count, entry value, post Iv]
        self.pending: list = []                    # the body's UB stores, done at commit in order
        self.scanned: set[int] = set()             # accumulators run as a chain (regbase/loopscan.py)
        self.carry: dict[int, int] = {}            # their pre-loop value id -> the id the chain writes
        self.accesses: dict[str, list] = {"L": [], "S": []}   # per kind: (per-iteration starts, bytes)
        self.spans = {"L": (1 << 62, -1), "S": (1 << 62, -1)}  # per kind: the byte range spanned so far
        self.first_instr = len(rec.instrs)
        self.first_id = rec.next_id
        self.pset_keys = set(rec.pset_ids)
        self.declared = dict(rec.declared)
        self.hints = len(rec.unroll_hints)          # #pragma unroll hints of inner loops: one per iteration
        self.peak = dict(rec.peak)
        # recorder state a body left part-way (the .asc route's replay goes on with the same recorder)
        self.rec_state = (list(rec.loops), set(rec.software_loops), len(rec.unalign_stores), rec.ar,
                          rec.squeeze_bytes)
        self.ub = ctx.ub
        self.report = ctx.__dict__.get("report")
        self.key = next(KEYS)
        self.site = None

    # -- entering and leaving -------------------------------------------------------------------
    def enter(self) -> None:
        ub = IterUb(self.ub, self)               # (refuses lock-step cores that are not consecutive rows)
        self.rec.batch = self.rows
        self.ctx.ub = ub
        self.ctx.report = _refuse_report
        _TLS.batch, _TLS.key = self, self.key

    def _leave(self) -> None:
        _TLS.batch, _TLS.key = None, 0
        self.rec.batch = self.base
        self.ctx.ub = self.ub
        if self.report is None:
            self.ctx.__dict__.pop("report", None)
        else:
            self.ctx.report = self.report

    def abort(self) -> None:
        """Undo everything the body did: UB bytes, registers written, counts, records, ids."""
        if _TLS.batch is not self:
            return
        self._leave()
        for reg, state in self.saved.values():
            reg.restore(state)
        for count, v0, *_ in self.scalars.values():
            count.value = v0
        rec = self.rec
        del rec.instrs[self.first_instr:]
        rec.next_id = self.first_id
        for k in set(rec.pset_ids) - self.pset_keys:
            del rec.pset_ids[k]
        rec.declared, rec.peak = self.declared, self.peak
        del rec.unroll_hints[self.hints:]
        loops, software, unalign, rec.ar, rec.squeeze_bytes = self.rec_state
        rec.loops[:], rec.software_loops = loops, software
        del rec.unalign_stores[unalign:]

    # -- registers --------------------------------------------------------------------------------
    def read(self, obj, attr: str, value):
        """A register's (or mask's) ``attr`` read in the body while it still holds its pre-loop value."""
        self.reads.add(id(obj))
        key = (id(obj), attr)
        got = self.tiles.get(key)
        if got is None or got[0] is not value:
            got = self.tiles[key] = (value, _tile(value, self.n))
        return got[1]

    def first_write(self, reg) -> None:
        """``reg`` (made before the loop) gets its first value of the body."""
        if id(reg) in self.reads:
            raise NotBatchable("a loop-carried register (read before the body writes it)", static=True)
        self.saved[id(reg)] = (reg, reg.snapshot())

    def chained(self, reg, before: int) -> None:
        """``reg`` (value id ``before`` at loop entry) was updated as a chain: no other write in the body."""
        self.scanned.add(id(reg))
        self.carry[before] = reg.id

    def rewrite(self, reg) -> None:
        if id(reg) in self.scanned:
            raise NotBatchable("an accumulator written twice in the body", static=True)

    def made(self, obj) -> None:
        self.created.append(obj)

    # -- scalar counts (UpdateMask) -------------------------------------------------------------
    def count(self, count, lanes: int) -> tuple[Any, bool]:
        """(per-iteration value of the count an UpdateMask in the body reads, whether it is carried: made
        before the loop and stepped here by ``lanes`` each iteration, its post-update done)."""
        v = count.value
        if id(count) in self.scalars:
            raise NotBatchable("a count decremented more than once per iteration", static=True)
        if type(v) is Iv or getattr(count, "born", 0) == self.key:   # a per-iteration count of the body
            return v, False
        v = int(v)
        k = np.arange(self.n, dtype=np.int64)
        entry = np.where(k == 0, v, np.maximum(v - k * lanes, 0))
        post = Iv(np.where(entry < lanes, 0, entry - lanes))
        self.scalars[id(count)] = [count, v, post, lanes]
        count.value = post
        return Iv(entry), True

    # -- UB hazards -------------------------------------------------------------------------------
    def access(self, kind: str, at, nbytes: int) -> None:
        """A load ("L") or store ("S") of ``nbytes`` at ``at`` (loopub.Starts): refuse what batching
        would reorder (see the module docstring). Each kind's accesses so far are kept with the byte range
        they span, so an access outside the other kind's range (separate buffers) costs no pair test."""
        if self.n > _MAX_PAIRWISE:
            raise NotBatchable(f"{self.n} iterations: UB hazards not judged")
        lo, hi, starts = at.lo, at.hi + nbytes, at.values
        stores, loads = self.spans["S"], self.spans["L"]
        if kind == "L":
            if stores[0] < hi and lo < stores[1]:
                for s2, n2 in self.accesses["S"]:
                    _refuse_pairs(s2, n2, starts, nbytes, np.less_equal, "a load of bytes the body stored")
        else:
            if loads[0] < hi and lo < loads[1]:
                for s2, n2 in self.accesses["L"]:
                    _refuse_pairs(starts, nbytes, s2, n2, np.less, "a store feeds a later iteration's load")
            if stores[0] < hi and lo < stores[1]:
                for s2, n2 in self.accesses["S"]:
                    _refuse_pairs(s2, n2, starts, nbytes, np.greater, "stores of two iterations overlap")
            _refuse_pairs(starts, nbytes, starts, nbytes, np.not_equal, "stores of two iterations overlap")
        span = self.spans[kind]
        self.spans[kind] = (min(span[0], lo), max(span[1], hi))
        self.accesses[kind].append((starts, nbytes))

    def left_early(self) -> None:
        """The loop was left in its body (an exception, ``break``, ``return``): undone, and the VF instance
        runs again unbatched (:func:`abandon_batch` names the reason)."""
        if _TLS.batch is self:
            self.abort()
            self.rec.rerun = self

    # -- the end of the body ------------------------------------------------------------------------
    def finish(self) -> bool:
        """The body ran once: commit it (True), or undo it for the serial iterations (False)."""
        try:
            self.commit()
            settle_locals(self.frame, self.facts.outlive, _last_value)
        except NotBatchable as err:
            return self.undo(err)
        finally:
            self.frame = None
        stats(self.ctx.shared)["batched"] += 1
        return True

    def undo(self, err: BaseException) -> bool:
        """The batch refused after its body (``err``): undone for the serial iterations (False)."""
        self.abort()
        self.loop.iteration, self.loop.plts = -1, []
        _refuse(self.ctx, self.site, _reason(err), getattr(err, "static", False))
        return False

    def commit(self) -> None:
        """The body ran: registers keep their last iteration, counts their final value, the records
        expand to every iteration's."""
        rec, n, base = self.rec, self.n, self.base
        for count, v0, post, lanes in self.scalars.values():
            if count.value is not post:
                raise NotBatchable("a decremented count was reassigned in the body", static=True)
        self._leave()
        for store in self.pending:
            store()
        if self.pending:
            self.ub.writes += 1
        for count, v0, post, lanes in self.scalars.values():
            count.value = max(v0 - n * lanes, 0)
        once = {rec.pset_ids[k] for k in set(rec.pset_ids) - self.pset_keys}
        ids = IdPlan(self.first_id, rec.next_id, once, self.carry)
        last = n - 1
        for reg, _ in self.saved.values():
            reg.keep_last(self.rows, base, ids.at(reg.id, last))
        for obj in self.created:
            obj.keep_last(self.rows, base, ids.at(obj.id, last))
        hoisted = {i - self.first_instr for i in _hoisted(self.loop)}
        body = rec.instrs[self.first_instr:]
        key = ("loop_batch", tuple(_hashable(r) for r in body), n, self.first_id, rec.next_id, frozenset(once),
               frozenset(hoisted), tuple(sorted(self.carry.items())))
        got = self.ctx.shared.get(key)       # a body seen before in this launch (same addresses): its records
        if got is None:
            got = self.ctx.shared[key] = expand(body, n, ids, hoisted)
        rec.instrs[self.first_instr:] = got
        rec.next_id = ids.next_after(n)
        rec.unroll_hints[self.hints:] = rec.unroll_hints[self.hints:] * n
        for kind, before in self.declared.items():
            # serial: iteration k starts at before + k * net and rises to its peak inside the body (a register
            # the C++ route declares in the body is undeclared by its destructor in the same iteration)
            net = rec.declared[kind] - before
            rec.declared[kind] = before + n * net
            rec.peak[kind] = max(self.peak[kind], rec.peak[kind] + (n - 1) * max(net, 0))
        self.loop.iteration = n - 1
        self.loop.plts = []


def start_batch(rec, loop, start: int, trips: int, frame) -> "LoopBatch | None":
    """A batch for the loop just entered at ``frame``'s line, or None (it runs serially; the reason is
    counted in the launch's statistics and remembered for the loop's site)."""
    if not deferrable(rec):
        return None
    ctx = current()
    site = (frame.f_code, frame.f_lineno)
    why = _known(ctx, site)
    facts = None
    if why is None:
        facts = loop_facts(*site)
        why = facts.refusal
    if why is None:
        why = impure_call(frame, facts.callees)
    if why is None and getattr(ctx.ub, "writes", -1) != rec.ub_writes:
        stats(ctx.shared)["serial: UB stored earlier in the VF instance"] += 1
        return None
    if why is not None:
        _refuse(ctx, site, why, site in _REFUSED or facts is not None)
        return None
    batch = _entered(LoopBatch(ctx, rec, loop, start, trips), site)
    if batch is not None:
        batch.frame, batch.facts = frame, facts
    return batch


def _entered(batch: "LoopBatch", site: tuple) -> "LoopBatch | None":
    """``batch`` entered (None if entering refused it: counted and remembered for ``site``)."""
    batch.site = site
    try:
        batch.enter()
    except NotBatchable as err:
        batch.abort()
        _refuse(batch.ctx, site, str(err), err.static)
        return None
    return batch


def start_replay(rec, loop, trips: int, site: tuple) -> "LoopBatch | None":
    """A batch for a hardware loop of the .asc route (``toolkit.asc.loopdefer``): its ``trips`` iterations'
    calls were recorded and are replayed once over all of them; ``site`` is the loop's (file, line). None:
    replay them serially (the reason is counted, as :func:`start_batch` does)."""
    if not deferrable(rec):
        return None
    ctx = current()
    why = _known(ctx, site)
    if why is not None:
        _refuse(ctx, site, why, site in _REFUSED)
        return None
    return _entered(LoopBatch(ctx, rec, loop, 0, trips), site)


def deferrable(rec) -> bool:
    """Whether a loop of ``rec`` may be batched now (the switch on, no batch running, ``rec`` the current VF)."""
    if not rec.allow_batch or _TLS.batch is not None or not batching_on():
        return False
    ctx = current()
    return ctx.vf is rec


def _known(ctx, site: tuple) -> str | None:
    """Why the loop at ``site`` is known not to batch (its code, for the process; its data, for the launch)."""
    return _REFUSED.get(site) or ctx.shared.get("loop_refused", {}).get(site)


def refused(site: tuple) -> bool:
    return _known(current(), site) is not None


def count_refused(site: tuple) -> None:
    """A loop at a site known not to batch ran serially: counted as :func:`start_batch` counts it."""
    ctx = current()
    why = _known(ctx, site)
    if why is not None:
        _refuse(ctx, site, why, site in _REFUSED)


def finish_replay(batch: "LoopBatch", err: BaseException | None) -> bool:
    """The replayed body ran (``err`` None) or failed with ``err``: commit (True) or undo it (False)."""
    if err is None:
        try:
            batch.commit()
        except NotBatchable as e:
            err = e
    if err is not None:
        return batch.undo(err)
    stats(batch.ctx.shared)["batched"] += 1
    return True


def abandon_batch(rec, err: BaseException | None) -> bool:
    """``err`` escaped a VF instance (None: the instance returned, a batched body having left its loop
    early): if it left a batched body of ``rec`` open, undo the batch (True: the instance runs again
    unbatched; the failure is remembered for the loop's site)."""
    b = _TLS.batch
    if b is None or b.rec is not rec:
        b = rec.rerun or None                 # already undone when the loop's generator was closed
        if b is None:
            return False
    b.abort()
    if err is None:
        _refuse(b.ctx, b.site, "the body leaves the loop early", True)
    elif isinstance(err, Exception):
        _refuse(b.ctx, b.site, _reason(err), getattr(err, "static", False))
    return True


def _reason(err: BaseException) -> str:
    return str(err) if isinstance(err, NotBatchable) else f"{type(err).__name__} in the body"


#: loop site (code, line) -> why its code cannot be batched: later launches of the process run it serially
#: at once (a refusal by this run's data is remembered for the launch only)
_REFUSED: dict[tuple, str] = {}


def remember_refusal(ctx, site, why: str, static: bool = True) -> None:
    """The loop at ``site`` does not batch (``static``: for any launch of this process); not counted."""
    ctx.shared.setdefault("loop_refused", {})[site] = why
    if static:
        if len(_REFUSED) > 4096:
            _REFUSED.clear()
        _REFUSED[site] = why


def _refuse(ctx, site, why: str, static: bool) -> None:
    remember_refusal(ctx, site, why, static)
    code = site[0] if site else None
    where = f" at {os.path.basename(getattr(code, 'co_filename', code))}:{site[1]}" if site else ""
    stats(ctx.shared)[f"serial: {why}{where}"] += 1


def _last_value(v: Any) -> Any:
    """What a local holding per-iteration values holds after the serial loop (None: leave it)."""
    if type(v) is Iv:
        return v.values[-1].item()
    if type(getattr(v, "addr", None)) is Iv:             # a UbPtr
        return type(v)(v.addr.values[-1].item(), v.dtype)
    if type(getattr(v, "value", None)) is Iv:            # a C scalar: changed in place
        v.value = v.value.values[-1].item()
    return None


def _refuse_pairs(a: np.ndarray, na: int, b: np.ndarray, nb: int, order, why: str) -> None:
    """Refuse if some iteration pair (k of ``a``, k' of ``b``) with ``order(k, k')`` has overlapping ranges."""
    if na <= 0 or nb <= 0:
        return
    if a.max() + na <= b.min() or b.max() + nb <= a.min():
        return
    over = (a[:, None] < b[None, :] + nb) & (b[None, :] < a[:, None] + na)
    k = np.arange(a.size)
    if (over & order(k[:, None], k[None, :])).any():
        raise NotBatchable(why)


def _refuse_report(code: str, message: str, **kw: Any):
    raise NotBatchable(f"diagnostic {code} in a batched body")


def _hoisted(loop) -> set[int]:
    """Body record positions of PLTs the serial run hoists: one per body per site, one count for all."""
    by_site: dict[Any, list] = {}
    for rec in loop.plts:
        by_site.setdefault(rec[1], []).append(rec)
    out = set()
    for recs in by_site.values():
        if len(recs) == 1:
            c = recs[0][2]
            if type(c) is not Iv or c.uniform():
                out.add(recs[0][0])
    return out


_new = tuple.__new__


def _hashable(r):
    if r is None or not any(type(f) is Iv for f in r):
        return r
    return tuple(("iv", f.values.tobytes()) if type(f) is Iv else f for f in r)


class IdPlan:
    """Value ids the serial run gives: iteration 0 allocates the body's ``m0`` ids (``first < id <= end``),
    among them the PSETs made once (``once``); every later iteration allocates the others again, in order."""

    def __init__(self, first: int, end: int, once: set, carry: dict | None = None):
        self.first, self.m0 = first, end - first
        self.once = sorted(once)
        self.per_iter = self.m0 - len(once)
        self.carry = carry or {}          # pre-loop id an accumulator chain reads -> the id it writes

    def src_at(self, v: Any, k: int) -> Any:
        """A source id in iteration ``k``: a chain's pre-loop input is the previous iteration's result."""
        d = self.carry.get(v) if k else None
        return self.at(v, k) if d is None else self.at(d, k - 1)

    def rank(self, v: Any) -> int | None:
        """1-based position of ``v`` among the body's per-iteration ids, None if ``v`` does not move."""
        if type(v) is not int or not self.first < v <= self.first + self.m0 or v in self.once:
            return None
        return v - self.first - bisect.bisect_left(self.once, v)

    def base(self, k: int) -> int:
        return self.first + self.m0 + (k - 1) * self.per_iter

    def at(self, v: Any, k: int) -> Any:
        r = self.rank(v)
        return v if r is None or k == 0 else self.base(k) + r

    def next_after(self, n: int) -> int:
        return self.first + self.m0 + (n - 1) * self.per_iter


def expand(body: list, n: int, ids: IdPlan, hoisted: set) -> list:
    """The records of ``n`` iterations from the body's one run (see :meth:`LoopBatch.commit`): the body's
    value ids take each iteration's (:class:`IdPlan`), Iv fields the iteration's value, PSETs made in the
    body and hoisted PLTs stay in iteration 0."""
    plan = []
    for pos, r in enumerate(body):
        if r is None:
            continue
        moving = [(f, ids.rank(r[f])) for f in (1, 4) if ids.rank(r[f]) is not None]
        srcs = any(ids.rank(v) is not None or v in ids.carry for v in r[2])
        ivs = [f for f in (3, 6, 7) if type(r[f]) is Iv]
        first_only = pos in hoisted or (r[0] == "RV_PSET" and r[1] in ids.once)
        plan.append((r, moving, srcs, ivs, first_only))
    out: list = []
    for k in range(n):
        base = ids.base(k)
        for r, moving, srcs, ivs, first_only in plan:
            if k and first_only:
                continue
            if not (ivs or (k and (moving or srcs))):
                out.append(r)
                continue
            f = list(r)
            if k:
                for i, rank in moving:
                    f[i] = base + rank
                if srcs:
                    f[2] = tuple(ids.src_at(v, k) for v in r[2])
            for i in ivs:
                f[i] = r[i].values[k].item()
            out.append(_new(Instr, f))
    return out
