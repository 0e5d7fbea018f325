"""Lock-step execution of the SPMD cores of one launch.

Every core runs the kernel's own (scalar) code in its own greenlet, with its own CoreContext. Calls that
are batchable (a VF instance, a MemBase call, a DataCopy/DataCopyPad, a native VF body of the .asc
route) do not run where the core makes them: the core *parks* there. When every live core is parked or
done, the parked calls are grouped by their static identity (the call and all its arguments: UB
addresses, scalars, the call site) and each group runs **once** over a core axis
(:class:`toolkit.engine.batch.BatchCore`: registers and UB reads carry one row per core), after which its cores
resume. Cores whose control flow diverges (a tail block, a data-dependent branch) simply form other
groups, and rejoin when they reach the same call again.

Results, diagnostics and event streams equal the core-by-core run (``mode="serial"``, kept as the
reference): the API implementations are the same functions (they work on rows), events go to each core's
own stream in its own order, diagnostics are reported for each core and ordered as a serial run orders
them (:meth:`Diagnostics.finalize`). Cores only interact through GM, which a race-free kernel does not
make order dependent (GM_WRITE_CONFLICT reports a race), and through cross-core synchronisation: a core
that must wait for others (SyncAll, CrossCoreWaitFlag, IBWait ...: toolkit.ascendc.crosscore) parks with a
:class:`WaitRequest`, resumed once its condition holds; :func:`run_serial` gives the core-by-core run the
same waits (a core runs until it ends or waits, then the next one).
"""
from __future__ import annotations

import operator

from dataclasses import dataclass, fields, is_dataclass
from enum import Enum
from typing import Any, Callable, Iterable

import numpy as np

from toolkit.ascendc.dtypes import CScalar
from toolkit.ascendc.memory import GmBuffer
from toolkit.ascendc.tensor import LocalTensor, ScalarRead, ScalarReadInt, UbPtr
from toolkit.machine import Machine
from toolkit.record.diagnostics import SOURCE_LOCATION, Diagnostics, KernelAbort

from . import gm_races
from .batch import BatchCore
from .runtime import CoreContext, running

_DONE = object()


class _Parked:
    """A call a core parked: its static identity (``make_key``; equal keys run as one) and ``run(bctx,
    reqs)``, which runs it once for the group (``bctx`` over the member cores, ``reqs`` their requests in
    core order) and returns the fatal diagnostics that stopped some members only (a rule all members
    break alike raises)."""

    __slots__ = ("args", "kwargs", "where", "key")

    def arg_keys(self) -> tuple:
        return (tuple(arg_key(a) for a in self.args),
                tuple((k, arg_key(v)) for k, v in sorted(self.kwargs.items())) if self.kwargs else ())


class VfRequest(_Parked):
    """A parked Python ``__simd_vf__`` call (``asc_vf_call`` or direct)."""

    __slots__ = ("vf", "launch", "core")

    def __init__(self, vf: Any, launch: str, args: tuple, kwargs: dict, where: tuple, core: int | None = None):
        self.vf, self.launch, self.args, self.kwargs, self.where = vf, launch, args, kwargs, where
        self.core = core                  #: a VF that runs per core (scalar UB access): its core, else None

    def make_key(self) -> tuple:
        return (id(self.vf), self.launch, self.where, self.arg_keys(), self.core)

    def run(self, bctx, reqs: list) -> dict[int, KernelAbort]:
        from toolkit.ascendc.regbase.vf import execute_vf
        execute_vf(bctx, self.vf, self.launch, self.args, self.kwargs, self.where)
        return {}


class CallRequest(_Parked):
    """A parked API call outside any VF (a MemBase call: itself one library VF on Ascend 950)."""

    __slots__ = ("fn",)

    def __init__(self, fn: Callable, args: tuple, kwargs: dict, where: tuple):
        self.fn, self.args, self.kwargs, self.where = fn, args, kwargs, where

    def make_key(self) -> tuple:
        return (id(self.fn), self.where, self.arg_keys())

    def run(self, bctx, reqs: list) -> dict[int, KernelAbort]:
        token = SOURCE_LOCATION.set(self.where)        # the kernel line, for events and diagnostics
        try:
            self.fn(*self.args, **self.kwargs)
        finally:
            SOURCE_LOCATION.reset(token)
        for k, a in enumerate(self.args):              # by-reference scalars (GatherMask's rsvdCnt)
            if isinstance(a, CScalar):
                for o in reqs[1:]:
                    o.args[k].value = a.value
        return {}


class WaitRequest:
    """A core waiting for other cores (``cond()`` tells whether it may go on; ``what`` names the wait)."""

    __slots__ = ("cond", "what", "key")

    def __init__(self, cond: Callable[[], bool], what: str):
        self.cond, self.what = cond, what

    def make_key(self) -> tuple:
        return ("wait", id(self))


def _deadlock(ctx: CoreContext, req: WaitRequest) -> KernelAbort:
    try:
        ctx.report("CROSS_CORE_DEADLOCK", f"{req.what}: every other core ended or waits too; the hardware "
                   f"hangs here", where=ctx.state.get("wait_where"))
    except KernelAbort as stop:
        return stop
    raise AssertionError("CROSS_CORE_DEADLOCK is fatal")


class _Waits:
    """What both runners do at a cross-core wait: park the core; resume waiting cores whose condition
    holds, in core order, settling the GM writes made so far (toolkit.engine.gm_races.settle)."""

    def wait(self, ctx: CoreContext, cond: Callable[[], bool], what: str, where: tuple) -> None:
        if cond():
            return
        ctx.state["wait_where"] = where
        outcome = self.main.switch(WaitRequest(cond, what))
        if isinstance(outcome, KernelAbort):
            raise outcome

    def ready(self) -> list[int]:
        return sorted(c for c, r in self.parked.items() if isinstance(r, WaitRequest) and r.cond())

    def release(self, core: int, outcome: Any = None) -> None:
        self.parked.pop(core)
        if outcome is None:
            gm_races.settle(self.gm_bufs, self.diag)
        self._step(core, self._switch(core, outcome))

    def deadlock(self) -> None:
        """Only cores that wait are left, none may go on: each stops as the hardware would hang."""
        for core in sorted(self.parked):
            self.release(core, _deadlock(self.ctxs[core], self.parked[core]))


@dataclass
class LeaderRequest:
    """A parked call whose code must run on the leader core's own stack (a native ``__simd_vf__`` body of
    the ``.asc`` route): the scheduler resumes the lowest core of the group with a :class:`BatchCore`
    (``Lead``); the leader runs the body over the group's core axis and parks again with ``LEAD_DONE``;
    the other cores then resume with ``None`` (skip: the body ran for them)."""

    key: tuple

    def make_key(self) -> tuple:
        return self.key


@dataclass
class Lead:
    """What a :class:`LeaderRequest`'s leader resumes with: the batch it runs the body for."""

    batch: BatchCore


#: what the leader parks with once the body ran
LEAD_DONE = object()


def arg_key(a: Any) -> tuple:
    """The static identity of one argument (equal keys: the cores may run the call as one)."""
    t = type(a)
    h = _KEYS.get(t)
    if h is None:
        h = _KEYS[t] = _key_of_type(t)
    return h(a)


def _float_key(a: Any) -> tuple:
    """A float by its bits: -0.0 is not 0.0 and NaNs with other payloads are other values."""
    return ("f", type(a).__name__, np.float64(a).tobytes() if isinstance(a, float) else a.tobytes())


def _key_of_type(t: type) -> Callable[[Any], tuple]:
    """How to key a value of type ``t`` (chosen once per type: the calls are on the hot path)."""
    if issubclass(t, UbPtr):
        return lambda a: ("p", a.addr, a.dtype)
    if issubclass(t, LocalTensor):
        return lambda a: ("L", a.addr, a.dtype, a.count, a.position)
    if issubclass(t, Enum):
        return lambda a: ("e", t.__name__, a.name)
    if issubclass(t, (list, tuple)):
        return lambda a: ("t", tuple(arg_key(x) for x in a))
    if is_dataclass(t):
        names = tuple(f.name for f in fields(t))
        # attrgetter of two or more names gives the tuple in one C call; fewer fields: read them one by one
        get = operator.attrgetter(*names) if len(names) > 1 else lambda a: tuple(getattr(a, n) for n in names)

        def dataclass_key(a: Any) -> tuple:
            values = get(a)
            # the usual parameter block: ints and bools (C++ struct fields convert them alike)
            if _INT_TYPES.issuperset(map(type, values)):
                return ("d", t, values)
            return ("d", t, tuple(arg_key(v) for v in values))
        return dataclass_key
    if issubclass(t, CScalar):
        return lambda a: ("c", t.__name__, a.value)
    if issubclass(t, (ScalarRead, ScalarReadInt)):
        return lambda a: ("s", t.__name__, arg_key(a.real), getattr(a, "kind", None))
    if issubclass(t, (float, np.floating)):
        return _float_key
    if issubclass(t, (bool, int, str, np.generic)):
        return lambda a: ("v", t.__name__, a)
    return lambda a: ("o", id(a))


_KEYS: dict[type, Callable[[Any], tuple]] = {}
_INT_TYPES = frozenset({int, bool})


class Scheduler(_Waits):
    """Runs the cores of one launch in lock-step (see the module docstring)."""

    def __init__(self, ctxs: list[CoreContext], data2d: np.ndarray, defined2d: np.ndarray,
                 on_switch: Callable[[int], None] | None = None, gm_bufs: list = (), diag: Diagnostics = None):
        import greenlet
        self._greenlet = greenlet
        self.ctxs = ctxs
        self.data2d, self.defined2d = data2d, defined2d
        self.on_switch = on_switch      # told the core about to run (the .asc route switches its native state)
        self.main = None
        self.parked: dict[int, Any] = {}
        self.glets: dict[int, Any] = {}
        self.stats = {"calls_parked": 0, "groups_run": 0}   # how much the lock-step run shared
        self.gm_bufs, self.diag = list(gm_bufs), diag

    # -- inside a core's greenlet --------------------------------------------------------------------
    def park(self, req) -> Any:
        """Called by a core at a batchable call: wait until its group ran; a fatal rule broken there
        stops this core as it would have stopped it alone. Returns what the core resumes with (None, or a
        :class:`Lead` for the leader of a :class:`LeaderRequest` group)."""
        req.key = req.make_key()
        outcome = self.main.switch(req)
        if isinstance(outcome, KernelAbort):
            raise outcome
        return outcome

    def lead_done(self) -> None:
        """The leader of a :class:`LeaderRequest` group ran the body: hand control back (see _lead)."""
        self.main.switch(LEAD_DONE)

    # -- the scheduler -------------------------------------------------------------------------------
    def run(self, body: Callable[[CoreContext], None]) -> None:
        try:
            self._run(body)
        finally:
            self._detach()

    def _detach(self) -> None:
        """Drop the links between the scheduler and its cores (core -> scheduler -> cores is a cycle: left
        in place, a launch's contexts, UB and events would wait for the cyclic collector, which every
        entry point pauses)."""
        for ctx in self.ctxs:
            ctx.scheduler = ctx.cross = None
        self.glets.clear()
        self.parked.clear()
        self.main = None

    def _run(self, body: Callable[[CoreContext], None]) -> None:
        self.main = self._greenlet.getcurrent()
        for ctx in self.ctxs:
            ctx.scheduler = ctx.cross = self
            g = self._greenlet.greenlet(lambda ctx=ctx: (body(ctx), _DONE)[1])
            self.glets[ctx.core_id] = g
            self._step(ctx.core_id, self._switch(ctx.core_id))
        while self.parked:
            ready = self.ready()
            if ready:
                for core in ready:
                    self.release(core)
                continue
            groups: dict[tuple, list[int]] = {}
            for core, req in self.parked.items():
                if not isinstance(req, WaitRequest):
                    groups.setdefault(req.key, []).append(core)
            if not groups:
                self.deadlock()
                continue
            for cores in sorted(groups.values(), key=lambda cs: cs[0]):
                cores = sorted(cores)
                self.stats["calls_parked"] += len(cores)
                self.stats["groups_run"] += 1
                if isinstance(self.parked[cores[0]], LeaderRequest):
                    outcomes, ended = self._lead(cores)
                else:
                    outcomes, ended = self._execute(cores), set()
                for core in cores:
                    self.parked.pop(core)
                    if core not in ended:
                        self._step(core, self._switch(core, outcomes.get(core)))

    def _switch(self, core: int, *value: Any) -> Any:
        """Resume ``core`` (start it, with no value) until it parks or ends."""
        if self.on_switch is not None:
            self.on_switch(core)
        return self.glets[core].switch(*value)

    def _step(self, core: int, got: Any) -> None:
        if got is not _DONE:
            self.parked[core] = got

    def _lead(self, cores: list[int]) -> tuple[dict[int, KernelAbort], set[int]]:
        """Run a :class:`LeaderRequest` group: the lowest core runs the body for all (see the class)."""
        leader = cores[0]
        bctx = BatchCore([self.ctxs[c] for c in cores], self.data2d, self.defined2d)
        got = self._switch(leader, Lead(bctx))
        if got is LEAD_DONE:
            return {}, set()
        # the leader ended inside the body: a fatal rule stopped it, and every core of the group with it
        stop = self.ctxs[leader].abort_diag
        self._step(leader, got)
        return ({c: KernelAbort(stop) for c in cores[1:]} if stop is not None else {}), {leader}

    def _execute(self, cores: list[int]) -> dict[int, KernelAbort]:
        bctx = BatchCore([self.ctxs[c] for c in cores], self.data2d, self.defined2d)
        reqs = [self.parked[c] for c in cores]
        try:
            with running(bctx):
                return reqs[0].run(bctx, reqs)
        except KernelAbort as stop:
            return {c: KernelAbort(stop.diag) for c in cores}


def launch_cores(run_core: Callable[[CoreContext], None], block_num: int, machine: Machine, diag: Diagnostics,
                 shared: dict, gm_bufs: Iterable[GmBuffer] = ()) -> list[CoreContext]:
    """Run ``run_core(ctx)`` (the kernel on one core) for ``block_num`` cores in lock-step; their contexts."""
    size = machine.ub_bytes
    data2d = np.zeros((block_num, size), dtype=np.uint8)
    defined2d = np.zeros((block_num, size), dtype=bool)
    ctxs = [CoreContext(machine, c, block_num, diag, ub_buffer=data2d[c], ub_defined=defined2d[c], shared=shared,
                        ub_zeroed=True)
            for c in range(block_num)]
    run_lockstep(ctxs, data2d, defined2d, run_core, gm_bufs, diag)
    return ctxs


def run_lockstep(ctxs: list[CoreContext], data2d: np.ndarray, defined2d: np.ndarray,
                 run_core: Callable[[CoreContext], None], gm_bufs: Iterable[GmBuffer], diag: Diagnostics,
                 on_switch: Callable[[int], None] | None = None) -> dict:
    """Run the cores of one launch in lock-step (both routes: Python kernels and ``.asc`` programs), the
    GM writes to ``gm_bufs`` judged for conflicts as a core-by-core run judges them (toolkit.engine.gm_races);
    returns how much the cores shared (:attr:`Scheduler.stats`)."""
    logged = gm_races.start(gm_bufs)
    sched = Scheduler(ctxs, data2d, defined2d, on_switch, logged, diag)
    try:
        sched.run(run_core)
    finally:
        gm_races.finish(logged, diag)
    return sched.stats


class SerialRunner(_Waits):
    """The core-by-core run (``mode="serial"``, the reference): core 0 runs until it ends or waits for
    other cores, then core 1 ..., then the lowest waiting core whose condition holds, and so on. A kernel
    with no cross-core wait runs each core to its end in turn. Each core runs in its own greenlet (so a
    wait can suspend it, native stack included)."""

    def __init__(self, ctxs: list[CoreContext], on_switch: Callable[[int], None] | None,
                 gm_bufs: Iterable[GmBuffer], diag: Diagnostics):
        import greenlet
        self._greenlet = greenlet
        self.ctxs, self.on_switch = ctxs, on_switch
        self.gm_bufs, self.diag = list({id(b): b for b in gm_bufs}.values()), diag
        self.parked: dict[int, Any] = {}
        self.glets: dict[int, Any] = {}
        self.main = None

    _switch = Scheduler._switch
    _step = Scheduler._step

    def run(self, body: Callable[[CoreContext], None]) -> None:
        self.main = self._greenlet.getcurrent()
        try:
            for ctx in self.ctxs:
                ctx.cross = self
                self.glets[ctx.core_id] = self._greenlet.greenlet(lambda ctx=ctx: (body(ctx), _DONE)[1])
                self._step(ctx.core_id, self._switch(ctx.core_id))
            while self.parked:
                ready = self.ready()
                if ready:
                    self.release(ready[0])
                else:
                    self.deadlock()
        finally:
            for ctx in self.ctxs:
                ctx.cross = None
            self.glets.clear()
            self.main = None


def run_serial(ctxs: list[CoreContext], run_core: Callable[[CoreContext], None], gm_bufs: Iterable[GmBuffer],
               diag: Diagnostics, on_switch: Callable[[int], None] | None = None) -> None:
    """Run the cores of one launch one after another (both routes), cross-core waits honoured."""
    SerialRunner(ctxs, on_switch, gm_bufs, diag).run(run_core)
