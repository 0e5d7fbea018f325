"""Uniform execution: the cores of a launch run their scalar code **once**, as a group.

Lock-step (toolkit.engine.lockstep) runs each core's Python in its own greenlet and batches the calls
they park at; the scalar code around those calls (tile loops, offsets, queue operations, flags, GetValue)
still runs once per core. Here a Python kernel runs once for a group of cores: ``GetBlockIdx()`` is a
:class:`~toolkit.engine.percore.PerCore` value, what is computed from it stays per core, and each batchable
call (a DMA, a VF, a MemBase call) runs at once over the group exactly as a lock-step group runs it (the
same request classes, the same :class:`~toolkit.engine.batch.BatchCore`), each member seeing its own
arguments. Queue operations, flags and barriers are the members' common events, emitted to every member's
own stream; a scalar GM or UB access is made by each member in turn.

The group stays one as long as its members agree wherever the code needs one value. Where they do not
(a tail core's shorter loop, a data-dependent branch), the attempt is rolled back (GM to its state at the
launch, UB and the cores' streams fresh) and the group is split by what each member had there; the parts
then run as groups of their own, one after another (a race-free kernel does not depend on the order of its
cores; the GM race check replays every write in core order as the other runners do). Anything a group
cannot take (a diagnostic, a fatal rule, a cross-core wait, a per-core VF, an API that needs one core, any
error) rolls the whole launch back, and it runs in lock-step, which reports it as it always did. So the
results, events and diagnostics are the lock-step run's; ``launch_mode("lockstep")`` turns this off, and
the launch's ``meta["uniform"]`` says how it went (``--json``).
"""
from __future__ import annotations

import copy
from typing import Any, Callable

import numpy as np

from toolkit.ascendc.tensor import GlobalTensor
from toolkit.machine import Machine
from toolkit.record.diagnostics import Diagnostics, KernelAbort

from . import gm_races
from .batch import BatchCore, each_core
from .percore import (
    Divergence,
    PerCore,
    Unsupported,
    _fields,
    has_percore,
    specializer,
    split,
)
from .runtime import CoreContext, running

#: rounds of splitting before a launch gives up on groups (each round reruns the launch from its start)
MAX_ROUNDS = 4


class _GroupUb:
    """The members' UBs as the scalar code of a group may use them: the checks every member makes. Data
    access belongs to the batched calls (which see a BatchCore) or to each member (GetValue)."""

    def __init__(self, members: list):
        self.members, self.size = members, members[0].ub.size

    def check(self, addr: int, nbytes: int, what: str, align: int = 1) -> None:
        each_core(self.members, lambda m: m.ub.check(addr, nbytes, what, align))

    def require_defined(self, addr: int, nbytes: int, what: str) -> None:
        for m in self.members:
            m.ub.require_defined(addr, nbytes, what)

    def __getattr__(self, name: str) -> Any:
        raise Unsupported(f"UB {name} outside a batched call")


class GroupCore:
    """What ``current()`` is while a group runs its scalar code (see the module docstring)."""

    def __init__(self, members: list[CoreContext], runner: "GroupRunner"):
        first = members[0]
        self.members = members
        ids = [m.core_id for m in members]
        self.uniform = PerCore(ids) if len(ids) > 1 else ids[0]      # GetBlockIdx()
        self.machine, self.block_num, self.diag = first.machine, first.block_num, first.diag
        self.dry_run, self.shared, self.vf = False, first.shared, None
        self.scheduler = runner
        self.ub = _GroupUb(members)
        self.pipes: list = []
        self.state: dict = {}         # the members' per-core API state is one (their flow is one)
        for m in members:
            m.state = self.state
        self.at_finish: list = []

    @property
    def core_id(self) -> int:
        raise Unsupported("an API that needs one core id")

    @property
    def cross(self) -> Any:
        raise Unsupported("a cross-core synchronisation")

    @property
    def events(self) -> list:
        return self.members[0].events        # the members' streams are as long (GetSystemCycle)

    def emit(self, event: Any) -> None:
        for m in self.members:
            m.events.append(event)

    def report(self, code: str, message: str, **kw: Any):
        raise Unsupported(f"a diagnostic ({code})")

    def intern_stream(self, instrs) -> tuple:
        return self.members[0].intern_stream(instrs)

    def finish(self) -> None:
        for pipe in self.pipes:
            pipe.check_leaks(self)
        for check in self.at_finish:
            check(self)


class GroupRunner:
    """The ``scheduler`` of a group: a call a lock-step core would park at runs at once for the group."""

    def __init__(self, members: list[CoreContext], data2d: np.ndarray, defined2d: np.ndarray):
        self.members, self.data2d, self.defined2d = members, data2d, defined2d
        self.calls = 0

    def park(self, req: Any) -> None:
        if getattr(req, "core", None) is not None:
            raise Unsupported("a VF that runs per core")
        n = len(self.members)
        if not has_percore((req.args, getattr(req, "kwargs", None))):
            run = lambda bctx: req.run(bctx, [req] * n)          # noqa: E731
        elif getattr(req, "gm_offsets_free", False) and not has_percore([a for a in req.args
                                                                          if type(a) is not GlobalTensor]):
            i = next(k for k, a in enumerate(req.args[:2]) if type(a) is GlobalTensor)
            per = specializer(req.args[i])        # a copy whose GM tensors are the members' own
            globs = [per(k) for k in range(n)]
            req.args = (*req.args[:i], globs[0], *req.args[i + 1:])
            run = lambda bctx: req.run_globs(bctx, globs)         # noqa: E731
        else:
            reqs = _specialized(req, n)
            split([r.make_key() for r in reqs], "a batchable call with per-core arguments")
            run = lambda bctx: reqs[0].run(bctx, reqs)            # noqa: E731
        self.calls += 1
        bctx = BatchCore(self.members, self.data2d, self.defined2d)
        diag = self.members[0].diag
        with running(bctx):
            stopped = run(bctx)
        if stopped or len(diag):
            raise Unsupported("a diagnostic in a batched call")
        return None


def _specialized(req: Any, n: int) -> list:
    """The request as each of the ``n`` members would have parked it."""
    args = specializer(req.args)
    kwargs = specializer(req.kwargs) if getattr(req, "kwargs", None) else None
    t = type(req)
    fixed = [(f, getattr(req, f)) for f in _fields(t) if f not in ("args", "key") and hasattr(req, f)]
    out = []
    for k in range(n):
        r = object.__new__(t)
        for f, v in fixed:
            setattr(r, f, v)
        r.args = args(k)
        if kwargs is not None:
            r.kwargs = kwargs(k)
        out.append(r)
    return out


class _Checkpoint:
    """GM as it was when the launch started, and the loop-batching counters (restored by a rollback)."""

    def __init__(self, bufs: list, shared: dict):
        self.bufs, self.shared = bufs, shared
        self.loops = copy.deepcopy(shared.get("loop_batching"))
        for b in bufs:
            b.checkpoint()

    def rollback(self) -> None:
        for b in self.bufs:
            b.rollback()
            b.writer[:] = -1
        self.shared.pop("loop_batching", None)
        if self.loops is not None:
            self.shared["loop_batching"] = copy.deepcopy(self.loops)

    def release(self) -> None:
        for b in self.bufs:
            b.release()


def launch_uniform(kernel_run: Callable[[], None], block_num: int, machine: Machine, diag: Diagnostics,
                   shared: dict, gm_bufs: list) -> tuple[list[CoreContext] | None, dict]:
    """Run a launch as uniform groups: (the cores' contexts, the ``meta["uniform"]`` record); contexts
    None when the launch must run in lock-step instead (GM and the shared state are back as they were)."""
    bufs = list({id(b): b for b in gm_bufs}.values())
    point = _Checkpoint(bufs, shared)
    parts = [list(range(block_num))]
    why = None
    try:
        for rnd in range(1, MAX_ROUNDS + 1):
            logged = gm_races.start(bufs)
            try:
                ctxs, calls = _round(kernel_run, parts, block_num, machine, shared)
            except Divergence as d:
                point.rollback()
                parts, why = d.refined, d.why
                continue
            except (Unsupported, KernelAbort, Exception) as err:     # lock-step runs it (and reports it)
                point.rollback()
                return None, {"groups": len(parts), "rounds": rnd, "fallback": _why(err)}
            for ctx in ctxs:                     # the attempt stands: the cores report to the launch
                ctx.diag = ctx.ub.diag = diag
            gm_races.finish(logged, diag)
            return ctxs, {"groups": len(parts), "rounds": rnd, "group_calls": calls, "split_at": why}
        point.rollback()
        return None, {"groups": len(parts), "rounds": MAX_ROUNDS, "fallback": f"still splitting: {why}"}
    finally:
        point.release()
        for b in bufs:
            b.race_log, b.race_seen = None, False


def _why(err: BaseException) -> str:
    if isinstance(err, (Unsupported, KernelAbort)):
        return str(err) if isinstance(err, Unsupported) else f"a fatal diagnostic ({err.diag.code})"
    return f"{type(err).__name__}: {err}"[:200]


def _round(kernel_run: Callable[[], None], parts: list[list[int]], block_num: int, machine: Machine,
           shared: dict) -> tuple[list[CoreContext], int]:
    """Every part as one group, in order, from fresh cores: (all contexts in core order, calls run)."""
    size = machine.ub_bytes
    data2d = np.zeros((block_num, size), dtype=np.uint8)
    defined2d = np.zeros((block_num, size), dtype=bool)
    ctxs: dict[int, CoreContext] = {}
    calls = 0
    for p, cores in enumerate(parts):
        private = Diagnostics()                  # an attempt reports nothing to the launch
        members = [CoreContext(machine, c, block_num, private, ub_buffer=data2d[c], ub_defined=defined2d[c],
                               shared=shared, ub_zeroed=True) for c in cores]
        runner = GroupRunner(members, data2d, defined2d)
        group = GroupCore(members, runner)
        try:
            with running(group):
                kernel_run()
                group.finish()
        except Divergence as d:
            d.refined = parts[:p] + [[cores[i] for i in part] for part in d.parts] + parts[p + 1:]
            raise
        if len(private):
            raise Unsupported("a diagnostic")
        calls += runner.calls
        ctxs.update((m.core_id, m) for m in members)
    return [ctxs[c] for c in range(block_num)], calls
