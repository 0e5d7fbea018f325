"""Launch a kernel on ``blockNum`` emulated AIV cores over shared GM (``kernel<<<blockNum, ...>>>(args)``).

Cores run one after another on the same GM buffers; each has its own UB, event stream and VF
recorder, and shares the run's Diagnostics. A fatal diagnostic stops that core (as the hardware
would abort) and the launch carries on with the next core, so one run reports every core's problems.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import numpy as np

from .diagnostics import Diagnostic, Diagnostics, KernelAbort
from .events import BufferInit
from .machine import Machine, load_machine
from .memory import GmBuffer
from .regbase.fusion import fuse_vfs
from .runtime import CoreContext, running
from .tensor import GmPtr


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


def gm_alloc(name: str, data: np.ndarray | int, fill: int = 0) -> GmPtr:
    """A GM buffer holding ``data`` (or ``data`` bytes of ``fill``) as a ``GM_ADDR``."""
    return GmPtr(GmBuffer(name, data, fill), 0, np.uint8)


def launch(kernel: Callable[..., None], block_num: int, args: Sequence[Any],
           machine: Machine | None = None, name: str | None = None, vf_fusion: bool = False) -> LaunchResult:
    """Run ``kernel(*args)`` on ``block_num`` cores; ``vf_fusion`` models the compiler's VF fusion
    (:mod:`toolkit.regbase.fusion`)."""
    machine = machine or load_machine()
    diag = Diagnostics()
    for a in args:
        if isinstance(a, GmPtr):
            a.buf.writer[:] = -1
    cores = []
    shared: dict = {}                       # the launch's interned VF streams (see CoreContext.intern_stream)
    for block in range(block_num):
        ctx = CoreContext(machine, block, block_num, diag, shared=shared)
        aborted = None
        with running(ctx):
            try:
                kernel(*args)
                ctx.finish()
            except KernelAbort as stop:
                aborted = stop.diag
        cores.append(CoreRun(block, fuse_vfs(ctx.events) if vf_fusion else ctx.events, aborted))
    return LaunchResult(name or getattr(kernel, "__name__", "kernel"), block_num, cores, diag, machine)


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
