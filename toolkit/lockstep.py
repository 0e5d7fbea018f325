"""Lock-step execution of the SPMD cores of one launch.

Every core runs the kernel's own (scalar) code in its own greenlet, with its own CoreContext. Calls that
are batchable (a VF instance today) do not run where the core makes them: the core *parks* there. When
every live core is parked or done, the parked calls are grouped by their static identity (the VF and all
its arguments: UB addresses, scalars, the call site) and each group runs **once** over a core axis
(:class:`toolkit.batch.BatchCore`: registers and UB reads carry one row per core), after which its cores
resume. Cores whose control flow diverges (a tail block, a data-dependent branch) simply form other
groups, and rejoin when they reach the same call again.

Results, diagnostics and event streams equal the core-by-core run (``mode="serial"``, kept as the
reference): the API implementations are the same functions (they work on rows), events go to each core's
own stream in its own order, diagnostics are reported for each core and ordered as a serial run orders
them (:meth:`Diagnostics.finalize`). Cores only interact through GM, which a race-free kernel does not
make order dependent (GM_WRITE_CONFLICT reports a race).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import numpy as np

from .batch import BatchCore
from .diagnostics import Diagnostics, KernelAbort
from .dtypes import CScalar
from .machine import Machine
from .runtime import CoreContext, running
from .tensor import ScalarRead, ScalarReadInt, UbPtr

_DONE = object()


@dataclass
class VfRequest:
    """A parked VF call: what runs, with what, and its static identity."""

    vf: Any
    launch: str
    args: tuple
    kwargs: dict
    where: tuple
    key: tuple = field(default=())


def arg_key(a: Any) -> tuple:
    """The static identity of one argument (equal keys: the cores may run the call as one)."""
    if isinstance(a, UbPtr):
        return ("p", a.addr, a.dtype.str)
    if isinstance(a, CScalar):
        return ("c", type(a).__name__, a.value)
    if isinstance(a, (ScalarRead, ScalarReadInt)):
        return ("s", type(a).__name__, a.real, getattr(a, "kind", None))
    if isinstance(a, (bool, int, float, str, np.generic)):
        return ("v", type(a).__name__, a)
    return ("o", id(a))


def vf_key(req: VfRequest) -> tuple:
    return (id(req.vf), req.launch, req.where, tuple(arg_key(a) for a in req.args),
            tuple((k, arg_key(v)) for k, v in sorted(req.kwargs.items())))


class Scheduler:
    """Runs the cores of one launch in lock-step (see the module docstring)."""

    def __init__(self, ctxs: list[CoreContext], data2d: np.ndarray, defined2d: np.ndarray,
                 run_vf: Callable[[BatchCore, VfRequest], None]):
        import greenlet
        self._greenlet = greenlet
        self.ctxs = ctxs
        self.data2d, self.defined2d = data2d, defined2d
        self.run_vf = run_vf
        self.main = None
        self.parked: dict[int, VfRequest] = {}

    # -- inside a core's greenlet --------------------------------------------------------------------
    def park(self, req: VfRequest) -> None:
        """Called by a core at a batchable call: wait until its group ran; a fatal rule broken there
        stops this core as it would have stopped it alone."""
        req.key = vf_key(req)
        outcome = self.main.switch(req)
        if isinstance(outcome, KernelAbort):
            raise outcome

    # -- the scheduler -------------------------------------------------------------------------------
    def run(self, body: Callable[[CoreContext], None]) -> None:
        self.main = self._greenlet.getcurrent()
        glets = {}
        for ctx in self.ctxs:
            ctx.scheduler = self
            g = self._greenlet.greenlet(lambda ctx=ctx: (body(ctx), _DONE)[1])
            glets[ctx.core_id] = g
            self._step(ctx.core_id, g.switch())
        while self.parked:
            groups: dict[tuple, list[int]] = {}
            for core, req in self.parked.items():
                groups.setdefault(req.key, []).append(core)
            for cores in sorted(groups.values(), key=lambda cs: cs[0]):
                outcomes = self._execute(sorted(cores))
                for core in sorted(cores):
                    self.parked.pop(core)
                    self._step(core, glets[core].switch(outcomes.get(core)))

    def _step(self, core: int, got: Any) -> None:
        if got is not _DONE:
            self.parked[core] = got

    def _execute(self, cores: list[int]) -> dict[int, KernelAbort]:
        members = [self.ctxs[c] for c in cores]
        bctx = BatchCore(members, self.data2d, self.defined2d)
        req = self.parked[cores[0]]
        try:
            with running(bctx):
                self.run_vf(bctx, req)
        except KernelAbort as stop:
            return {c: KernelAbort(stop.diag) for c in cores}
        return {}


def launch_cores(kernel: Callable[..., None], block_num: int, args: Sequence[Any], machine: Machine,
                 diag: Diagnostics, shared: dict, run_vf: Callable) -> tuple[list[CoreContext], dict[int, Any]]:
    """Run ``kernel(*args)`` on ``block_num`` cores in lock-step; (the cores' contexts, aborts by core)."""
    size = machine.ub_bytes
    data2d = np.zeros((block_num, size), dtype=np.uint8)
    defined2d = np.zeros((block_num, size), dtype=bool)
    ctxs = [CoreContext(machine, c, block_num, diag, ub_buffer=data2d[c], ub_defined=defined2d[c], shared=shared)
            for c in range(block_num)]
    aborted: dict[int, Any] = {}

    def body(ctx: CoreContext) -> None:
        with running(ctx):
            try:
                kernel(*args)
                ctx.finish()
            except KernelAbort as stop:
                aborted[ctx.core_id] = stop.diag

    Scheduler(ctxs, data2d, defined2d, run_vf).run(body)
    return ctxs, aborted
