"""State of one ``.asc`` program run inside the child process: interned strings, the C++-visible object
handles, device memory, the UB mapping and the launch in progress (its cores run one after another, each
a :class:`~toolkit.runtime.CoreContext` exactly as ``host.launch`` makes them for the Python kernels).
"""
from __future__ import annotations

import pickle
from collections import Counter
from typing import Any

from ..diagnostics import Diagnostic, Diagnostics, KernelAbort
from ..launch import CoreRun, LaunchResult
from ..machine import Machine
from ..memory import GmBuffer
from ..regbase.fusion import fuse_vfs
from ..runtime import CoreContext, current_or_none, enter, leave
from ..tensor import GlobalTensor, GmPtr
from .memmap import GmArena, UbRegion


class LaunchState:
    """One ``kernel<<<blockDim, ...>>>(args)``: its diagnostics, cores and what it wrote to GM."""

    def __init__(self, prog: "ProgramState", name: str, where: tuple[str, int], block_dim: int):
        self.prog, self.name, self.where, self.block_dim = prog, name, where, block_dim
        self.diag = Diagnostics()
        self.cores: list[CoreRun] = []
        self.ctx: CoreContext | None = None
        self.token = None
        self.abort: Diagnostic | None = None
        self.args: list[Any] = []
        self.gm_dtypes: dict[str, Counter] = {}
        self.ub_high = 0
        self.shared: dict = {}
        for buf in prog.arena.buffers():
            buf.writer[:] = -1

    def core_begin(self, core: int) -> tuple[int, int]:
        ub = self.prog.ub
        self.ctx = CoreContext(self.prog.machine, core, self.block_dim, self.diag, ub_buffer=ub.slot(0),
                               shared=self.shared)
        self.token = enter(self.ctx)
        self.abort = None
        return 1, ub.address(0)

    def core_end(self, core: int, aborted: bool) -> None:
        ctx = self.ctx
        if not aborted:
            try:
                ctx.finish()
            except KernelAbort as stop:
                self.abort = stop.diag
        ctx.vf = None
        self.ub_high = max(self.ub_high, ctx.ub.high)
        leave(self.token)
        events = fuse_vfs(ctx.events) if self.prog.vf_fusion else ctx.events
        self.cores.append(CoreRun(core, events, self.abort if aborted or self.abort else None))
        self.ctx = None

    def result(self) -> LaunchResult:
        return LaunchResult(self.name, self.block_dim, self.cores, self.diag, self.prog.machine,
                            {"where": self.where, "ub_high": self.ub_high})


class ProgramState:
    """Everything the bridge needs between two native calls (one instance per child process)."""

    def __init__(self, machine: Machine, results_path: str, kernel_params: dict[str, list[str]],
                 want_trace: bool = False, keep_events: bool = False, vf_fusion: bool = False,
                 want_timeline: bool = False):
        from ..timing.model import TimingModel
        self.machine = machine
        self.timing_model = TimingModel(machine)
        self.want_trace = want_trace
        self.keep_events = keep_events
        self.vf_fusion = vf_fusion
        self.want_timeline = want_timeline
        self.strings: list[str] = []
        self._string_ids: dict[str, int] = {}
        self.objects: dict[int, Any] = {}
        self._handles: dict[int, int] = {}
        self.declared: set[int] = set()
        self._next = 0
        self.arena = GmArena()
        self.ub = UbRegion(1, machine.ub_bytes)
        self.launch: LaunchState | None = None
        self.vf_call_site: tuple | None = None
        self.kernel_params = kernel_params
        self.launches = 0
        self._results = open(results_path, "ab")

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
        g.buf, g.offset = buf, off
        g.count = (buf.size - off) // dtype.itemsize if count < 0 else int(count)
        if self.launch is not None:
            self.launch.gm_dtypes.setdefault(buf.name, Counter())[dtype.name] += 1
        return g

    def gm_ptr(self, addr: int, dtype) -> GmPtr:
        buf, off = self.locate(addr, "__gm__ pointer")
        return GmPtr(buf, off, dtype)

    # -- aborts and host-side errors ---------------------------------------------------------------
    def aborted(self, diag: Diagnostic) -> None:
        if self.launch is not None:
            self.launch.abort = diag

    def host_error(self, message: str, detail: str) -> None:
        self.write({"kind": "host_error", "message": message, "detail": detail})

    def write(self, record: dict) -> None:
        self._results.write(pickle.dumps(record, protocol=pickle.HIGHEST_PROTOCOL))
        self._results.flush()
