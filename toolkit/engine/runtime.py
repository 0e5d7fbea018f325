"""The emulated core a kernel runs on, and how API calls find it.

Ascend C APIs are free functions (``AscendC::DataCopy``, ``AscendC::Reg::Add``); the core they act on
is implicit. Here the launcher installs a :class:`CoreContext` for the duration of one core's run
(a ``contextvars.ContextVar`` set and reset around the call, so nothing leaks between runs).
"""
from __future__ import annotations

import contextvars
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Iterator

from toolkit.ascendc.memory import UbMemory
from toolkit.machine import Machine, load_machine
from toolkit.record.diagnostics import Diagnostics

if TYPE_CHECKING:
    from toolkit.ascendc.pipe import TPipe

_CURRENT: contextvars.ContextVar["CoreContext | None"] = contextvars.ContextVar("ascend_core", default=None)


class CoreContext:
    """State of one emulated AIV core during a kernel run: UB, event log, diagnostics, active VF."""

    uniform = None                #: a uniform group's member ids (toolkit.engine.uniform.GroupCore); a core: None

    def __init__(self, machine: Machine | None = None, core_id: int = 0, block_num: int = 1,
                 diagnostics: Diagnostics | None = None, dry_run: bool = False, ub_buffer=None,
                 shared: dict | None = None, ub_defined=None, ub_zeroed: bool = False):
        self.machine = machine or load_machine()
        self.core_id = core_id
        self.block_num = block_num
        self.diag = diagnostics if diagnostics is not None else Diagnostics()
        self.dry_run = dry_run
        self.ub = UbMemory(self.machine.ub_bytes, self.diag, core_id, allocate=not dry_run, buffer=ub_buffer,
                           defined=ub_defined, zeroed=ub_zeroed)
        self.events: list[Any] = []
        self.vf = None            # the active VF recorder (toolkit.ascendc.regbase.vf.VfRecorder) or None
        self.pipes: list["TPipe"] = []
        self.shared = shared if shared is not None else {}   # per launch: interned VF instruction streams
        self.scheduler = None     # the lock-step scheduler (toolkit.engine.lockstep) when the launch runs so
        self.abort_diag = None    # the fatal diagnostic that stopped the core, for a native caller (.asc route)
        self.state: dict = {}     # per-core API state the hardware keeps in registers (event flags, mutexes,
        #                           the DMA atomic mode, special registers): toolkit.ascendc.sync, .atomic ...
        self.at_finish: list = [] # end-of-kernel checks the APIs registered (unpaired flags ...)
        self.cross = None         # the launch's runner when a core must wait for others (SyncAll,
        #                           CrossCoreWaitFlag): toolkit.engine.lockstep

    def intern_stream(self, instrs) -> tuple:
        """One tuple object per distinct VF instruction stream of a launch: cores and tiles running the
        same VF body share it, so the stream is stored once and timed once."""
        t = tuple(instrs)
        # the stream interned last with this length first: the same VF body again compares equal at little
        # cost (a batched loop's records are the same objects: identity is checked before equality), where
        # hashing a stream costs every field of every instruction
        last = self.shared.get(("last stream", len(t)))
        if last is not None and last == t:
            return last
        t = self.shared.setdefault(t, t)
        self.shared[("last stream", len(t))] = t
        return t

    def emit(self, event: Any) -> None:
        self.events.append(event)

    def report(self, code: str, message: str, **kw: Any):
        return self.diag.report(code, message, core=self.core_id, **kw)

    def finish(self) -> None:
        """End-of-kernel checks (queue leaks)."""
        for pipe in self.pipes:
            pipe.check_leaks(self)
        for check in self.at_finish:
            check(self)


def current() -> CoreContext:
    ctx = _CURRENT.get()
    if ctx is None:
        raise RuntimeError("no emulated core is active: run kernels through toolkit.engine.launch (or toolkit.engine.runtime.running)")
    return ctx


@contextmanager
def running(ctx: CoreContext) -> Iterator[CoreContext]:
    token = _CURRENT.set(ctx)
    try:
        yield ctx
    finally:
        _CURRENT.reset(token)


def enter(ctx: CoreContext) -> contextvars.Token:
    """Make ``ctx`` the current core until :func:`leave` (for callers that cannot use ``running``:
    the .asc route opens and closes a core from two separate native calls)."""
    return _CURRENT.set(ctx)


def leave(token: contextvars.Token) -> None:
    _CURRENT.reset(token)


def current_or_none() -> CoreContext | None:
    return _CURRENT.get()


def one_core(ctx, what: str):
    """The one core a per-core read or write (``what``: a scalar UB access, GetBlockIdx) is for: ``ctx``
    itself, or the member of a lock-step batch of one core (a VF run per core: ``regbase.vfscalar``,
    ``asc.rawub``). A batch of several cores cannot give one Python value per core: refused (only a VF whose
    per-core call the static checks missed gets here)."""
    members = getattr(ctx, "members", None)
    if members is None:
        return ctx
    if len(members) == 1:
        return members[0]
    ctx.report("UNSUPPORTED_API", f"{what} inside a VF that {len(members)} lock-step cores share (its code was "
               f"not found to make that call); run with --serial")


def GetBlockIdx() -> int:
    ctx = current()
    if ctx.uniform is not None:               # the cores of a uniform group: one value per member
        return ctx.uniform
    return one_core(ctx, "GetBlockIdx").core_id


def GetBlockNum() -> int:
    return current().block_num
