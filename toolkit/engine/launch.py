"""Launch a kernel on ``blockNum`` emulated AIV cores over shared GM (``kernel<<<blockNum, ...>>>(args)``).

The cores run in lock-step (``toolkit.engine.lockstep``: each core in its own greenlet, batchable calls
once over a core axis) or, in "serial" mode, one after another: the reference the lock-step run equals.
Each core has its own UB, event stream and VF recorder over shared GM buffers, and shares the run's
Diagnostics. A fatal diagnostic stops that core (as the hardware would abort) and the launch carries on
with the others, so one run reports every core's problems.
"""
from __future__ import annotations

import contextvars
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Sequence

import numpy as np

from toolkit.ascendc.memory import GmBuffer
from toolkit.ascendc.tensor import GmPtr
from toolkit.machine import Machine, load_machine
from toolkit.record.diagnostics import Diagnostic, Diagnostics, KernelAbort
from toolkit.record.events import BufferInit

from .gcpause import no_cycle_collection
from .malloc import keep_blocks
from .listeners import core_done
from .runtime import CoreContext, running


@dataclass
class CoreRun:
    """What one core left behind: its event stream, its UB plan and whether it aborted."""

    core: int
    events: list
    aborted: Diagnostic | None = None

    @property
    def plan(self) -> list[BufferInit]:
        return [e for e in self.events if isinstance(e, BufferInit)]


@dataclass
class LaunchResult:
    kernel: str
    block_num: int
    cores: list[CoreRun]
    diagnostics: Diagnostics
    machine: Machine
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def aborted(self) -> list[Diagnostic]:
        return [c.aborted for c in self.cores if c.aborted is not None]


def gm_alloc(name: str, data: np.ndarray | int, fill: int = 0, share: bool = False) -> GmPtr:
    """A GM buffer holding ``data`` (or ``data`` bytes of ``fill``) as a ``GM_ADDR``; ``share``: copy
    ``data`` only if the kernel writes it (see :class:`toolkit.ascendc.memory.GmBuffer`)."""
    return GmPtr(GmBuffer(name, data, fill, share), 0, np.uint8)


#: how a launch runs its cores: "uniform" (a Python kernel's scalar code once for groups of cores, else
#: lock-step: toolkit.engine.uniform), "lockstep" (SPMD cores together, batchable calls run once over a
#: core axis: toolkit.engine.lockstep) or "serial" (one core after another: the reference)
MODES = ("uniform", "lockstep", "serial")
_MODE: contextvars.ContextVar[str] = contextvars.ContextVar("launch_mode", default="uniform")


@contextmanager
def launch_mode(mode: str) -> Iterator[None]:
    """Run the launches made inside the block in ``mode`` (``--serial`` on the commands)."""
    if mode not in MODES:
        raise ValueError(f"launch mode {mode!r}: one of {MODES}")
    token = _MODE.set(mode)
    try:
        yield
    finally:
        _MODE.reset(token)


def current_mode() -> str:
    """The launch mode in force (``--serial`` on the commands sets "serial"; the .asc child is told it)."""
    return _MODE.get()


def launch(kernel: Callable[..., None], block_num: int, args: Sequence[Any],
           machine: Machine | None = None, name: str | None = None,
           passes: Sequence[Callable[[list], list]] = (), mode: str | None = None) -> LaunchResult:
    """Run ``kernel(*args)`` on ``block_num`` cores; ``passes`` rewrite each core's event stream after the run
    (the compiler effects the caller models, e.g. ``toolkit.compiler.stream_passes(vf_fusion=True)``); ``mode``
    "serial" runs the cores one after another (the reference the lock-step run equals)."""
    mode = mode or _MODE.get()
    if mode not in MODES:
        raise ValueError(f"launch mode {mode!r}: one of {MODES}")
    machine = machine or load_machine()
    diag = Diagnostics()
    for a in args:
        if isinstance(a, GmPtr):
            a.buf.writer[:] = -1
    shared: dict = {}                       # the launch's interned VF streams (see CoreContext.intern_stream)
    keep_blocks()
    meta: dict[str, Any] = {}
    with no_cycle_collection():
        runs = _run_cores(kernel, block_num, args, machine, diag, shared, mode, meta)
    cores = [CoreRun(ctx.core_id, apply_passes(ctx.events, passes), aborted) for ctx, aborted in runs]
    diag.finalize()
    if "loop_batching" in shared:
        meta["loop_batching"] = dict(shared["loop_batching"])
    return LaunchResult(name or getattr(kernel, "__name__", "kernel"), block_num, cores, diag, machine, meta)


def apply_passes(events: list, passes: Sequence[Callable[[list], list]]) -> list:
    """A core's event stream after the compiler passes the caller asked for (``toolkit.compiler.stream_passes``)."""
    for p in passes:
        events = p(events)
    return events


def _run_cores(kernel: Callable[..., None], block_num: int, args: Sequence[Any], machine: Machine,
               diag: Diagnostics, shared: dict, mode: str, meta: dict) -> list:
    """(context, abort diagnostic or None) of every core, run in ``mode`` (``meta["uniform"]``: how a
    uniform run went)."""
    aborted: dict[int, Diagnostic | None] = {}
    gm_bufs = [a.buf for a in args if isinstance(a, GmPtr)]
    if mode == "uniform" and block_num > 1:
        from .uniform import launch_uniform
        ctxs, meta["uniform"] = launch_uniform(lambda: kernel(*args), block_num, machine, diag, shared, gm_bufs)
        if ctxs is not None:
            for ctx in ctxs:
                core_done(ctx.core_id, block_num)
            return [(ctx, None) for ctx in ctxs]
        mode = "lockstep"

    def run_core(ctx: CoreContext) -> None:
        with running(ctx):
            try:
                kernel(*args)
                ctx.finish()
            except KernelAbort as stop:
                aborted[ctx.core_id] = stop.diag

    if mode != "serial" and block_num > 1:      # one core: nothing to share, the serial loop is the same run
        from .lockstep import launch_cores
        ctxs = launch_cores(run_core, block_num, machine, diag, shared, gm_bufs)
        for ctx in ctxs:
            core_done(ctx.core_id, block_num)
    else:                                         # one core after another; cross-core waits honoured
        from .lockstep import run_serial
        ctxs = [CoreContext(machine, block, block_num, diag, shared=shared) for block in range(block_num)]

        def run_one(ctx: CoreContext) -> None:
            run_core(ctx)
            core_done(ctx.core_id, block_num)
        run_serial(ctxs, run_one, gm_bufs, diag)
    return [(ctx, aborted.get(ctx.core_id)) for ctx in ctxs]


def dry_run(fn: Callable[[], Any], machine: Machine | None = None) -> tuple[list, Diagnostics]:
    """Run ``fn`` (typically a kernel's Init) on a core without UB data: only the buffer plan and the
    budget checks happen. Returns (events, diagnostics); fatal diagnostics do not raise."""
    diag = Diagnostics()
    ctx = CoreContext(machine, 0, 1, diag, dry_run=True)
    with running(ctx):
        try:
            fn()
        except KernelAbort:
            pass
    return ctx.events, diag
