"""Diagnostics: stable codes, the rule each one enforces, and the Diagnostics object a run returns.

A check that fails creates a :class:`Diagnostic` naming the code, the kernel source line, the
address/size and the rule broken. Fatal ones (the hardware would abort) also raise
:class:`KernelAbort`, which the launcher catches per core; the rest are collected and the run goes on.

Severity rule (issue 18 point 5: the tool's verdict never contradicts a correct program). A check is an
*error* when a program that breaks it gets a wrong hardware result (or none: a hang, an abort) in the
bytes or values it produces; it is a *warning* when the hardware result of everything the program wrote
or computed is right and only something the program may not care about is affected (speed, bytes it
never wrote, resources it did not give back). A code has one default severity (:data:`CODES`); a check
whose two cases differ reports the code at the severity of its case (``report(..., severity=...)``):

- ``UNDEFINED_READ`` by a scalar read (GetValue of never-written UB): error, the value the scalar unit
  gets is undefined and feeds the program's control flow or arithmetic.
- ``UNDEFINED_READ`` by a DMA to GM (DataCopy / DataCopyPad of a UB range part of which was never
  written): warning. Copying out a whole buffer of which the kernel wrote only part is legal; the GM
  bytes that receive the never-written UB bytes hold undefined values, which matters only if someone
  reads them, and then that reader's own check fails on the undefined values.
- ``QUEUE_LEAK``: warning (a buffer still allocated at kernel end wastes nothing the result needs).
- ``GM_WRITE_CONFLICT``: error (the bytes depend on the cores' order); writes separated by a cross-core
  synchronisation (SyncAll, CrossCoreWaitFlag) and DMA atomics (SetAtomicAdd ...) do not conflict.
"""
from __future__ import annotations

import contextvars
import os
import sys
from dataclasses import asdict, dataclass, field
from typing import Any, Iterator

ERROR = "error"
WARNING = "warning"

#: code -> (severity, fatal, rule). Codes are stable: tests and CI gates key on them.
CODES: dict[str, tuple[str, bool, str]] = {
    "UB_MISALIGNED": (ERROR, True, "UB address of an aligned access (LoadAlign/StoreAlign/DataCopy) must be aligned"),
    "UB_OUT_OF_BOUNDS": (ERROR, True, "UB access must stay inside the physical UB"),
    "GM_OUT_OF_BOUNDS": (ERROR, True, "GM access must stay inside the GM buffer"),
    "UB_OVER_BUDGET": (ERROR, True, "InitBuffer total must fit the UB budget"),
    "TOO_MANY_BUFFERS": (ERROR, True, "at most 64 buffers over all InitBuffer calls"),
    "UNDEFINED_READ": (ERROR, False, "UB bytes that were never written must not reach a scalar read (error) or GM (warning: legal when nobody reads those GM bytes)"),
    "QUEUE_DEQUE_EMPTY": (ERROR, True, "DeQue needs a tensor EnQue'd before"),
    "QUEUE_DOUBLE_FREE": (ERROR, True, "FreeTensor of a buffer that is not allocated"),
    "QUEUE_NO_FREE_BUFFER": (ERROR, True, "AllocTensor needs a free buffer (FreeTensor the previous ones)"),
    "QUEUE_DEPTH_EXCEEDED": (ERROR, True, "more consecutive EnQue than the queue depth"),
    "QUEUE_BAD_STATE": (ERROR, True, "EnQue needs a tensor from AllocTensor that was not queued yet"),
    "QUEUE_NOT_INITIALISED": (ERROR, True, "a queue or TBuf must be given memory by InitBuffer before use"),
    "QUEUE_LEAK": (WARNING, False, "every allocated queue buffer should be freed before the kernel ends"),
    "UNALIGN_STORE_NOT_FLUSHED": (ERROR, False, "StoreUnAlign must be followed by StoreUnAlignPost before the VF ends"),
    "GM_WRITE_CONFLICT": (ERROR, False, "two cores must not write the same GM bytes (unless a cross-core sync separates the writes or DMA atomics accumulate them)"),
    "SYNC_UNPAIRED": (ERROR, False, "SetFlag/WaitFlag and Mutex Lock/Unlock pair up: a wait nobody signals hangs its pipe, a second SetFlag of one event and id before its WaitFlag is undefined"),
    "CROSS_CORE_DEADLOCK": (ERROR, True, "a core that waits for other cores (SyncAll, CrossCoreWaitFlag, IBWait, WaitPreBlock) needs them to reach the matching signal; otherwise it hangs"),
    "ZEROING_ACCUMULATOR": (WARNING, False, "an accumulator updated in ZEROING mode under a partial mask loses the lanes outside it; use MERGING"),
    "REGISTER_LIMIT": (ERROR, True, "VF register file limits (UnalignRegForLoad 4, UnalignRegForStore 4)"),
    "REGISTER_SPILL": (WARNING, False, "more than 32 RegTensor / 8 MaskReg live in one VF spill to UB"),
    "BAD_PARAMETER": (ERROR, True, "API parameter outside its documented range"),
    "DATACOPY_TRUNCATED": (WARNING, False, "DataCopy moves whole 32 B blocks: a count whose bytes are not a multiple of 32 loses its tail (use DataCopyPad)"),
    "COUNT_TRUNCATED": (WARNING, False, "an API that works on whole 256 B repeats (Compare, Compares, Select ...) ignores the tail of a count that is not a multiple of one"),
    "MASK_ZERO": (WARNING, False, "a level-0 call with an empty mask is not guaranteed to be a no-op on Ascend 950"),
    "VF_RULE": (ERROR, True, "RegBase registers and APIs live inside __simd_vf__ functions; a VF may call only __simd_callee__ functions"),
    "VF_SOFTWARE_LOOP": (WARNING, False, "a VF loop with while/do, continue, break, return, goto, switch, a data-dependent if or ?: cannot be a hardware loop: the compiler emits scalar branches per iteration (slow)"),
    "KERNEL_ASSERT": (ERROR, True, "a kernel assert / ascendc_assert whose condition is false stops the core (its message is printed)"),
    "KERNEL_TRAP": (ERROR, True, "Trap() stops the core"),
    "SQUEEZE_STATUS_MISSING": (ERROR, False, "the AR form of StoreUnAlign stores the byte count of the Squeeze<STORE_REG> before it: the two must alternate"),
    "UNSUPPORTED_API": (ERROR, True, "the emulator implements the Ascend C surface listed in the README; other names or forms are refused"),
}

_PKG_DIRS = (os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep,)
#: kernel locations are printed relative to the project (the directory holding ``toolkit/``)
_PROJECT = os.path.dirname(_PKG_DIRS[0].rstrip(os.sep))


#: Source location of the API call in progress when the caller is not Python (the .asc route sets it
#: for every call it bridges); ``None`` for Python kernels, whose location comes from the call stack.
SOURCE_LOCATION: contextvars.ContextVar[tuple[str, int] | None] = contextvars.ContextVar("asc_location",
                                                                                      default=None)


def kernel_caller():
    """The innermost frame outside the toolkit package (the kernel code that called the API), or None."""
    f = sys._getframe(1)
    while f is not None and f.f_code.co_filename.startswith(_PKG_DIRS):
        f = f.f_back
    return f


#: one (file, line) tuple per kernel source line: the events of every call made there share it
_LOCATIONS: dict[tuple[str, int], tuple[str, int]] = {}


def kernel_frame() -> tuple[str, int]:
    """(file, line) of the kernel source line that called the API (interned: events store it compactly)."""
    loc = SOURCE_LOCATION.get()
    if loc is not None:
        return loc
    f = kernel_caller()
    if f is None:
        return ("?", 0)
    where = (f.f_code.co_filename, f.f_lineno)
    return _LOCATIONS.setdefault(where, where)


@dataclass
class Diagnostic:
    code: str
    severity: str
    message: str
    rule: str
    file: str = "?"
    line: int = 0
    core: int | None = None
    address: int | None = None
    size: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    occurrences: int = 1
    cores: list[int] = field(default_factory=list)    # every core that broke the rule here

    @property
    def fatal(self) -> bool:
        return CODES[self.code][1]

    def location(self) -> str:
        """``file:line``, the file relative to the project when inside it, else absolute."""
        if self.file == "?":
            return f"?:{self.line}"
        path = os.path.abspath(self.file)
        rel = os.path.relpath(path, _PROJECT)
        return f"{path if rel.startswith(os.pardir) else rel}:{self.line}"

    def one_line(self) -> str:
        many = len(self.cores) > 1
        where = (f"on {len(self.cores)} cores (first core {self.core}) " if many
                 else f"core {self.core} " if self.core is not None else "")
        addr = ""
        if self.address is not None:
            addr = f" [addr 0x{self.address:x}" + (f", {self.size} B]" if self.size is not None else "]")
        again = f" [{self.occurrences} times]" if self.occurrences > max(1, len(self.cores)) else ""
        return (f"{self.severity} {self.code} {where}at {self.location()}: {self.message}{addr}{again} "
                f"(rule: {self.rule})")

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["location"] = self.location()
        return d


class VfRuleError(RuntimeError):
    """A RegBase scope rule broken (a register or Reg API outside a ``__simd_vf__`` function, a VF called
    inside a VF): the Python route raises it to the kernel author; the ``.asc`` route reports it as
    ``VF_RULE``."""


class KernelAbort(Exception):
    """Raised for a fatal diagnostic: the emulated core stops, as the hardware would."""

    def __init__(self, diag: Diagnostic):
        super().__init__(diag.one_line())
        self.diag = diag


class Diagnostics:
    """Ordered, de-duplicated collection of diagnostics of one run."""

    def __init__(self) -> None:
        self._items: list[Diagnostic] = []
        self._seen: dict[tuple, Diagnostic] = {}
        self._seq: dict[int | None, int] = {}
        self._order: dict[int, tuple] = {}     # id(diagnostic) -> (core, report number on that core)

    def report(self, code: str, message: str, *, core: int | None = None, address: int | None = None,
               size: int | None = None, where: tuple[str, int] | None = None, raise_fatal: bool = True,
               order: tuple | None = None, severity: str | None = None, **extra: Any) -> Diagnostic:
        """Report a diagnostic; ``order`` (from :meth:`position`) files a report judged later where a
        core-by-core run would have made it; ``severity`` overrides the code's default for a case of the
        check whose hardware result differs (see the module docstring)."""
        default, fatal, rule = CODES[code]
        severity = severity or default
        file, line = where if where is not None else kernel_frame()
        diag = Diagnostic(code, severity, message, rule, file, line, core, address, size, dict(extra),
                          cores=[core] if core is not None else [])
        key = (code, file, line)
        if order is None:
            seq = self._seq.get(core, 0)
            self._seq[core] = seq + 1
            order = (-1 if core is None else core, seq)
        first = self._seen.get(key)
        if first is None:
            self._seen[key] = diag
            self._items.append(diag)
            self._order[id(diag)] = order
        else:           # the same rule broken at the same line again (other cores, later tiles): count it
            first.occurrences += 1
            if core is not None and core not in first.cores:
                first.cores.append(core)
            if order < self._order[id(first)]:      # an earlier core's occurrence represents the rule
                self._order[id(first)] = order
                first.message, first.core, first.address, first.size = message, core, address, size
                first.extra = dict(extra)
        if fatal and raise_fatal:
            raise KernelAbort(diag)
        return diag

    def position(self, core: int | None) -> tuple:
        """Where a report ``core`` made now would sort: before its next report, after its last one."""
        return (-1 if core is None else core, self._seq.get(core, 0) - 0.5)

    def add(self, diag: Diagnostic) -> None:
        self._items.append(diag)

    def finalize(self) -> None:
        """Order as a core-by-core run reports: by the first core that hit each rule, then by when that
        core hit it (cores running in lock-step interleave their reports)."""
        self._items.sort(key=lambda d: self._order.get(id(d), (-1, -1)))
        for d in self._items:
            d.cores.sort()

    def extend(self, other: "Diagnostics") -> None:
        for d in other:
            self.add(d)

    def __iter__(self) -> Iterator[Diagnostic]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def codes(self) -> list[str]:
        return [d.code for d in self._items]

    def errors(self) -> list[Diagnostic]:
        return [d for d in self._items if d.severity == ERROR]

    def warnings(self) -> list[Diagnostic]:
        return [d for d in self._items if d.severity == WARNING]
