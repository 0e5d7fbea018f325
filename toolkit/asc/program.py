"""State of one ``.asc`` program run inside the child process: interned strings, the C++-visible object
handles, device memory, the UB mapping and the launch in progress (its cores run in lock-step or one after
another, each a :class:`~toolkit.engine.runtime.CoreContext` exactly as ``toolkit.engine.launch`` makes them for the Python
kernels).
"""
from __future__ import annotations

import ctypes
import os
from collections import Counter
from typing import Any

import numpy as np

from toolkit.ascendc.memory import GmBuffer
from toolkit.ascendc.tensor import GlobalTensor, GmPtr
from toolkit.compiler import stream_passes
from toolkit.engine.gcpause import no_cycle_collection
from toolkit.engine.launch import CoreRun, LaunchResult, apply_passes
from toolkit.engine.runtime import CoreContext, current_or_none, running
from toolkit.machine import Machine
from toolkit.record.diagnostics import Diagnostic, Diagnostics, KernelAbort

from .memmap import GmArena, UbRegion

#: the largest blockDim of a launch (the vendor's limit: a kernel runs on 1 to 65535 blocks)
MAX_BLOCK_DIM = 65535


class NativeRuntime:
    """The entry points of the program's runtime (runtime.cpp) the launch driver calls."""

    def __init__(self, lib: ctypes.CDLL):
        self.run_core = getattr(lib, "__asc_run_core")
        self.run_core.argtypes, self.run_core.restype = [ctypes.c_void_p, ctypes.c_uint], ctypes.c_int
        self.set_core = getattr(lib, "__asc_set_core")
        self.set_core.argtypes, self.set_core.restype = [ctypes.c_longlong, ctypes.c_void_p], None
        self.set_ub_span = getattr(lib, "__asc_set_ub_span")
        self.set_ub_span.argtypes, self.set_ub_span.restype = [ctypes.c_uint64, ctypes.c_uint64], None


class LaunchState:
    """One ``kernel<<<blockDim, ...>>>(args)``: its diagnostics, cores and what it wrote to GM."""

    def __init__(self, prog: "ProgramState", name: str, where: tuple[str, int], block_dim: int):
        self.prog, self.name, self.where, self.block_dim = prog, name, where, block_dim
        self.diag = Diagnostics()
        self.cores: list[CoreRun] = []
        self.args: list[Any] = []
        self.gm_dtypes: dict[str, Counter] = {}
        self.ub_high = 0
        self.shared: dict = {}
        self.execution: dict[str, Any] = {"mode": "serial"}
        self.failed = False                     # the launch could not run (it is not recorded)
        for buf in prog.arena.buffers():
            buf.writer[:] = -1

    @property
    def base_name(self) -> str:
        """The kernel's name without namespace and template arguments (how its parameters are known)."""
        return self.name.split("<", 1)[0].split("::")[-1].strip()

    def run(self, body: int) -> None:
        """Run the launch's cores: ``body`` is the native ``std::function<int(unsigned)>`` that runs the
        kernel on one core (returns 1 when a fatal diagnostic stopped it). In lock-step the cores run in
        greenlets (toolkit.engine.lockstep): a core's native stack is parked with it, and before a core resumes
        the native side is told which core it is (its UB base, for raw ``__ubuf__`` pointers)."""
        prog, n = self.prog, self.block_dim
        if not 1 <= n <= MAX_BLOCK_DIM:
            self.failed = True
            prog.host_error(f"{self.name}<<<{n}>>>: blockDim must be 1 to {MAX_BLOCK_DIM}; the kernel did not run",
                            "", self.where, code="BAD_PARAMETER")
            return
        prog.ub.ensure(n)
        lib = prog.native
        lib.set_ub_span(*prog.ub.span)
        defined = np.zeros((n, prog.machine.ub_bytes), dtype=bool)
        ctxs = [CoreContext(prog.machine, c, n, self.diag, ub_buffer=prog.ub.slot(c), ub_defined=defined[c],
                            shared=self.shared) for c in range(n)]

        def switch(core: int) -> None:
            lib.set_core(core, prog.ub.address(core))

        def one_core(ctx: CoreContext) -> None:
            # a greenlet starts with a fresh context: numpy's error state is set again (as in a Python VF)
            with running(ctx), np.errstate(all="ignore"):
                self._finish_core(ctx, bool(lib.run_core(body, ctx.core_id)))

        try:
            with no_cycle_collection():
                self._run_cores(ctxs, one_core, switch, defined)
        finally:
            lib.set_core(-1, 0)
        self.cores.sort(key=lambda r: r.core)

    def _run_cores(self, ctxs: list, one_core, switch, defined) -> None:
        """Every core: in lock-step (greenlets, toolkit.engine.lockstep) or one after another."""
        prog, n = self.prog, self.block_dim
        from toolkit.engine.lockstep import run_lockstep, run_serial
        # one after another (cross-core waits honoured); "uniform" is for Python kernels: lock-step here
        if prog.mode == "serial" or n == 1:
            run_serial(ctxs, one_core, prog.arena.buffers(), self.diag, switch)
            return
        stats = run_lockstep(ctxs, prog.ub.rows(n), defined, one_core, prog.arena.buffers(), self.diag, switch)
        self.execution = {"mode": "lockstep", **stats}

    def _finish_core(self, ctx: CoreContext, aborted: bool) -> None:
        from .loopdefer import core_ended
        aborted = core_ended() or aborted          # a replayed loop aborted it, C++ not told yet
        abort = ctx.abort_diag
        if not aborted:
            try:
                ctx.finish()
            except KernelAbort as stop:
                abort = stop.diag
        ctx.vf = None
        self.ub_high = max(self.ub_high, ctx.ub.high)
        events = apply_passes(ctx.events, stream_passes(self.prog.vf_fusion))
        self.cores.append(CoreRun(ctx.core_id, events, abort if aborted or abort else None))

    def result(self) -> LaunchResult:
        return LaunchResult(self.name, self.block_dim, self.cores, self.diag, self.prog.machine,
                            {"where": self.where, "ub_high": self.ub_high, "execution": self.execution})


class ProgramState:
    """Everything the bridge needs between two native calls (one instance per child process)."""

    def __init__(self, machine: Machine, results, kernel_params: dict[str, list[str]],
                 want_trace: bool = False, keep_events: bool = False, vf_fusion: bool = False,
                 want_timeline: bool = False, mode: str = "lockstep"):
        from toolkit.timing.model import TimingModel
        self.machine = machine
        self.timing_model = TimingModel(machine)
        self.want_trace = want_trace
        self.keep_events = keep_events
        self.vf_fusion = vf_fusion
        self.want_timeline = want_timeline
        self.mode = mode                    #: how launches run their cores (toolkit.engine.launch.MODES)
        self.native: NativeRuntime | None = None   #: the program's runtime entry points (set by the child)
        self.strings: list[str] = []
        self._string_ids: dict[str, int] = {}
        self.objects: dict[int, Any] = {}
        self._handles: dict[int, int] = {}
        self.declared: set[int] = set()
        self._next = 0
        self.arena = GmArena()
        self.ub = UbRegion(machine.ub_bytes)
        self.launch: LaunchState | None = None
        self.vf_call_site: tuple | None = None
        self.kernel_params = kernel_params
        self.launches = 0
        self._results = results              #: the channel to the tool (toolkit.asc.channel.Writer)

    # -- strings and handles ----------------------------------------------------------------------
    def intern(self, s: str) -> int:
        got = self._string_ids.get(s)
        if got is None:
            got = self._string_ids[s] = len(self.strings)
            self.strings.append(s)
        return got

    def new_handle(self, obj: Any) -> int:
        self._next += 1
        self.objects[self._next] = obj
        self._handles[id(obj)] = self._next
        return self._next

    def handle_of(self, obj: Any) -> int:
        return self._handles[id(obj)]

    def drop(self, handle: int) -> Any:
        obj = self.objects.pop(handle, None)
        if obj is not None and self._handles.get(id(obj)) == handle:
            del self._handles[id(obj)]
        return obj

    # -- GM ------------------------------------------------------------------------------------------
    def locate(self, addr: int, what: str) -> tuple[GmBuffer, int]:
        got = self.arena.find(addr)
        if got is None:
            ctx = current_or_none()
            msg = f"{what}: address 0x{addr:x} is not in any device allocation (aclrtMalloc)"
            if ctx is not None:
                ctx.report("GM_OUT_OF_BOUNDS", msg, address=addr)
            raise ValueError(msg)
        return got

    def global_tensor(self, addr: int, count: int, dtype) -> GlobalTensor:
        buf, off = self.locate(addr, "GlobalTensor")
        g = GlobalTensor(dtype)
        g.SetGlobalBuffer(GmPtr(buf, off, dtype), None if count < 0 else count)   # count < 0: to the end
        if self.launch is not None:
            self.launch.gm_dtypes.setdefault(buf.name, Counter())[dtype.name] += 1
        return g

    def gm_ptr(self, addr: int, dtype) -> GmPtr:
        buf, off = self.locate(addr, "__gm__ pointer")
        return GmPtr(buf, off, dtype)

    # -- aborts and host-side errors ---------------------------------------------------------------
    def aborted(self, diag: Diagnostic) -> None:
        """A fatal diagnostic stopped the current core (every core of a batch running one VF body)."""
        ctx = current_or_none()
        for core in getattr(ctx, "members", [ctx]) if ctx is not None else []:
            core.abort_diag = diag

    def host_error(self, message: str, detail: str, where: tuple[str, int] | None = None,
                   code: str = "UNSUPPORTED_API") -> None:
        """An API call of the host code (outside any kernel) the emulator could not do: a failed gate."""
        loc = f"{where[0]}:{where[1]}" if where else "?"
        self.write({"kind": "host_error", "code": code, "message": f"{loc}: {message}", "detail": detail})

    def write(self, record: dict) -> None:
        self._results.write(record)


def device_alloc(size: int) -> int:
    """``aclrtMalloc``: the address of a new device buffer of ``size`` bytes, or 0 when the emulator cannot
    hold it (more than the host's physical memory, or an allocation that fails): the C side then returns
    ACL_ERROR_BAD_ALLOC, as the device does, and the program decides."""
    from . import bridge
    try:
        limit = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError):
        limit = 1 << 62
    if size > limit:
        return 0
    try:
        return bridge.PROGRAM.arena.alloc(size).data.ctypes.data
    except (MemoryError, ValueError, OverflowError):
        return 0
