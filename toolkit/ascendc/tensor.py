"""LocalTensor / GlobalTensor typed views and the raw pointers VFs take (``__ubuf__ T*``, ``__gm__ T*``).

Indexing follows Ascend C: ``t[i]`` is a tensor starting ``i`` elements further (not an element
read); element access is ``GetValue`` / ``SetValue`` (scalar-unit reads and writes, which are events).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from toolkit.engine.percore import PerCore, per_core
from toolkit.engine.runtime import current, enter, leave, one_core
from toolkit.record.diagnostics import kernel_frame
from toolkit.record.events import ScalarOp, shared

from .dtypes import np_dtype, scalar_value
from .itervec import Iv
from .lowfloat import is_low
from .memory import GmBuffer


class ScalarRead(float):
    """A value read by the scalar unit (GetValue). It behaves as a number; passing it straight to a VF
    lets the timing view see that the VF's parameter push waits for that read."""


class ScalarReadInt(int):
    """Integer counterpart of :class:`ScalarRead`."""


def _tag(value: Any, kind: str) -> Any:
    if isinstance(value, bool):
        return value
    out = ScalarReadInt(value) if isinstance(value, int) else ScalarRead(value)
    out.kind = kind
    return out


class UbPtr:
    """``__ubuf__ T*``: a UB byte address with an element type; ``p + n`` advances n elements."""

    __slots__ = ("addr", "dtype")

    def __init__(self, addr: int, dtype: np.dtype):
        self.addr = int(addr)
        self.dtype = dtype

    def __add__(self, n: Any) -> "UbPtr":
        if type(n) is not int:               # VF address arithmetic is mostly plain ints
            n = scalar_value(n)
            n = n if type(n) is Iv else int(n)   # a batched loop's index: an address per iteration
        p = _new_ubptr(UbPtr)
        p.addr = self.addr + n * self.dtype.itemsize
        p.dtype = self.dtype
        return p

    __radd__ = __add__

    def __sub__(self, other: Any):
        if isinstance(other, UbPtr):
            return (self.addr - other.addr) // self.dtype.itemsize
        return UbPtr(self.addr - int(scalar_value(other)) * self.dtype.itemsize, self.dtype)

    def cast(self, t: Any) -> "UbPtr":
        """``(__ubuf__ U*)p``."""
        return UbPtr(self.addr, np_dtype(t))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, UbPtr) and other.addr == self.addr and other.dtype == self.dtype

    def __hash__(self) -> int:
        return hash((self.addr, self.dtype))

    def __repr__(self) -> str:
        return f"UbPtr(0x{self.addr:x}, {self.dtype.name})"


_new_ubptr = object.__new__          # a UbPtr whose fields are already checked ints (no __init__ frame)


class GmPtr:
    """``__gm__ T*`` (a ``GM_ADDR`` is a ``GmPtr`` of uint8): a GM buffer, a byte offset and a type."""

    __slots__ = ("buf", "offset", "dtype")

    def __init__(self, buf: GmBuffer, offset: int = 0, dtype: Any = np.uint8):
        self.buf = buf
        self.offset = offset if type(offset) is PerCore else int(offset)
        self.dtype = np_dtype(dtype)

    def __add__(self, n: Any) -> "GmPtr":
        return GmPtr(self.buf, self.offset + _count(n) * self.dtype.itemsize, self.dtype)

    __radd__ = __add__

    def __repr__(self) -> str:
        return f"GmPtr({self.buf.name}+{self.offset}, {self.dtype.name})"


def gm_cast(t: Any, p: GmPtr) -> GmPtr:
    """``(__gm__ T*)p``."""
    return GmPtr(p.buf, p.offset, t)


class LocalTensor:
    """A typed window on the core's UB (``LocalTensor<T>``)."""

    __slots__ = ("addr", "dtype", "count", "position", "slot")

    def __init__(self, addr: int, dtype: Any, count: int, position: str = "VECCALC", slot: Any = None):
        self.addr = int(addr)
        self.dtype = np_dtype(dtype)
        self.count = int(count)
        self.position = position
        self.slot = slot          # (queue, index) for queue buffers; identifies the buffer for EnQue/Free

    # -- Ascend C API ---------------------------------------------------------------------------
    def __getitem__(self, offset: Any) -> "LocalTensor":
        off = int(scalar_value(offset))
        return LocalTensor(self.addr + off * self.dtype.itemsize, self.dtype, max(self.count - off, 0),
                           self.position, self.slot)

    def ReinterpretCast(self, t: Any) -> "LocalTensor":
        dt = np_dtype(t)
        return LocalTensor(self.addr, dt, self.count * self.dtype.itemsize // dt.itemsize, self.position,
                           self.slot)

    def GetPhyAddr(self, offset: Any = 0) -> UbPtr:
        return UbPtr(self.addr + int(scalar_value(offset)) * self.dtype.itemsize, self.dtype)

    def GetSize(self) -> int:
        return self.count

    def GetLength(self) -> int:
        return self.count * self.dtype.itemsize

    def GetPosition(self) -> str:
        return self.position

    def GetValue(self, index: Any) -> Any:
        ctx = current()
        if ctx.uniform is not None:
            return _members_do(ctx, self, index, lambda t, i: t.GetValue(i), "ub_read")
        i = int(scalar_value(index))
        addr = self.addr + i * self.dtype.itemsize
        n = self.dtype.itemsize
        ctx.ub.check(addr, n, "GetValue")
        ctx.ub.require_defined(addr, n, "GetValue")
        ctx.emit(shared(ScalarOp, "ub_read", n, kernel_frame()))
        view = one_core(ctx, "GetValue").ub.view(addr, n)    # 8- / 4-bit types: the byte's bits (as in C++)
        return _tag((view if is_low(self.dtype) else view.view(self.dtype))[0].item(), "ub_read")

    def SetValue(self, index: Any, value: Any) -> None:
        ctx = current()
        if ctx.uniform is not None:
            _members_do(ctx, self, (index, value), lambda t, iv: t.SetValue(*iv), None)
            return
        i = int(scalar_value(index))
        addr = self.addr + i * self.dtype.itemsize
        ctx.ub.check(addr, self.dtype.itemsize, "SetValue")
        dt = np.dtype(np.uint8) if is_low(self.dtype) else self.dtype
        raw = np.array([scalar_value(value)], dtype=dt).view(np.uint8)
        one_core(ctx, "SetValue").ub.write(addr, raw)
        ctx.emit(shared(ScalarOp, "ub_write", self.dtype.itemsize, kernel_frame()))

    def Print(self, length: Any = None) -> None:
        """CPU debugging: the first ``len`` elements (all by default), one 32 B DataBlock per line, each
        line led by its first element's index (``0000: 0 1 2 ...``)."""
        from .debug import device_print
        ctx = current()
        n = self.count if length is None else int(scalar_value(length))
        ctx.ub.check(self.addr, n * self.dtype.itemsize, "LocalTensor::Print")
        values = one_core(ctx, "LocalTensor::Print").ub.view(self.addr, n * self.dtype.itemsize).view(self.dtype)
        per = max(32 // self.dtype.itemsize, 1)
        lines = []
        for k in range(0, n, per):
            cells = [f"{float(v):g}" if self.dtype.kind == "f" or self.dtype.name == "bfloat16" else str(int(v))
                     for v in values[k:k + per]]
            lines.append(f"{k:04d}: " + " ".join(cells))
        device_print("\n".join(lines) + ("\n" if lines else ""))

    # -- emulator helpers (not Ascend C API) ----------------------------------------------------
    def to_numpy(self, count: int | None = None) -> np.ndarray:
        """Copy of the current UB content (debugging and tests)."""
        n = self.count if count is None else count
        return current().ub.view(self.addr, n * self.dtype.itemsize).view(self.dtype).copy()

    def __repr__(self) -> str:
        return f"LocalTensor<{self.dtype.name}>(ub 0x{self.addr:x}, {self.count} el, {self.position})"


def _count(n: Any) -> Any:
    """An element count or offset: an int, or a uniform group's per-core value (toolkit.engine.percore)."""
    n = scalar_value(n)
    return n if type(n) is PerCore else int(n)


def _members_do(group, t: Any, args: Any, fn, kind: str | None) -> Any:
    """A scalar access of a uniform group (toolkit.engine.uniform) made by each member core in turn, with
    its own view of ``t`` and ``args``: the members' results (one value when they agree)."""
    from toolkit.engine.percore import specialize
    out = []
    for k, m in enumerate(group.members):
        token = enter(m)
        try:
            out.append(fn(specialize(t, k), specialize(args, k)))
        finally:
            leave(token)
    if kind is None:
        return None
    return per_core(out, kind)


def _group_gm_read(group, t: "GlobalTensor", index: Any) -> Any:
    """``t.GetValue(index)`` of every member of a uniform group at once (each member's read is its own
    event); a member whose read leaves the buffer makes it the members' own reads (which report it)."""
    n = t.dtype.itemsize
    offs = t.offset + _count(index) * n
    offs = offs.values() if type(offs) is PerCore else [offs] * len(group.members)
    buf = t.buf
    if buf is None or min(offs) < 0 or max(offs) + n > buf.size:
        return _members_do(group, t, index, lambda g, i: g.GetValue(i), "gm_read")
    where, name = kernel_frame(), buf.name
    for m, off in zip(group.members, offs):
        m.events.append(ScalarOp("gm_read", n, where, name, off))
    if offs.count(offs[0]) == len(offs):
        return _tag(buf.data[offs[0]:offs[0] + n].view(t.dtype)[0].item(), "gm_read")
    idx = np.asarray(offs, dtype=np.int64)[:, None] + np.arange(n)
    got = per_core(buf.data[idx].view(t.dtype)[:, 0].tolist(), "gm_read")
    return got if type(got) is PerCore else _tag(got, "gm_read")


class GlobalTensor:
    """``GlobalTensor<T>``: a typed window on a GM buffer."""

    __slots__ = ("dtype", "buf", "offset", "count")

    def __init__(self, t: Any = np.uint8):
        self.dtype = np_dtype(t)
        self.buf: GmBuffer | None = None
        self.offset = 0
        self.count = 0

    def SetGlobalBuffer(self, ptr: GmPtr, size: Any = None) -> None:
        self.buf = ptr.buf
        self.offset = ptr.offset
        avail = (ptr.buf.size - ptr.offset) // self.dtype.itemsize
        self.count = avail if size is None else _count(size)

    def __getitem__(self, offset: Any) -> "GlobalTensor":
        off = _count(offset)
        g = GlobalTensor.__new__(GlobalTensor)
        g.dtype, g.buf = self.dtype, self.buf
        g.offset = self.offset + off * self.dtype.itemsize
        g.count = max(self.count - off, 0)
        return g

    def GetPhyAddr(self, offset: Any = 0) -> GmPtr:
        return GmPtr(self.buf, self.offset + _count(offset) * self.dtype.itemsize, self.dtype)

    def GetSize(self) -> int:
        return self.count

    def GetValue(self, index: Any) -> Any:
        ctx = current()
        if ctx.uniform is not None:
            return _group_gm_read(ctx, self, index)
        i = int(scalar_value(index))
        off = self.offset + i * self.dtype.itemsize
        n = self.dtype.itemsize
        check_gm(self.buf, off, n, "GlobalTensor::GetValue")
        ctx.emit(ScalarOp("gm_read", n, kernel_frame(), self.buf.name, off))
        return _tag(self.buf.data[off:off + n].view(self.dtype)[0].item(), "gm_read")

    def SetValue(self, index: Any, value: Any) -> None:
        ctx = current()
        if ctx.uniform is not None:
            _members_do(ctx, self, (index, value), lambda t, iv: t.SetValue(*iv), None)
            return
        i = int(scalar_value(index))
        off = self.offset + i * self.dtype.itemsize
        n = self.dtype.itemsize
        check_gm(self.buf, off, n, "GlobalTensor::SetValue")
        gm_write(self.buf, off, np.array([scalar_value(value)], dtype=self.dtype).view(np.uint8))
        ctx.emit(ScalarOp("gm_write", n, kernel_frame()))

    def __repr__(self) -> str:
        name = self.buf.name if self.buf else "unbound"
        return f"GlobalTensor<{self.dtype.name}>({name}+{self.offset}, {self.count} el)"


def check_gm(buf: GmBuffer | None, offset: int, nbytes: int, what: str) -> None:
    ctx = current()
    if buf is None:
        ctx.report("GM_OUT_OF_BOUNDS", f"{what} on a GlobalTensor without SetGlobalBuffer")
    if offset < 0 or offset + nbytes > buf.size:
        ctx.report("GM_OUT_OF_BOUNDS", f"{what} touches {buf.name} bytes [{offset}, {offset + nbytes}) "
                   f"outside [0, {buf.size})", address=offset, size=nbytes, gm=buf.name)


def report_conflict(diag, buf: GmBuffer, hit: tuple[int, int, int], core: int, **kw: Any) -> None:
    """GM_WRITE_CONFLICT: ``core`` writes bytes of ``buf`` another core wrote (first byte, owner, count)."""
    first, owner, count = hit
    diag.report("GM_WRITE_CONFLICT", f"{buf.name} bytes [{first}, ...) already written by core {owner}",
                core=core, address=first, size=count, gm=buf.name, **kw)


def gm_write(buf: GmBuffer, offset: int, raw: np.ndarray, ctx: Any = None) -> None:
    """Write bytes to GM, recording the writer core (``ctx``; the current one by default) and reporting
    cross-core overlaps (in a lock-step launch the overlaps are judged when it ends, in core order:
    toolkit.engine.gm_races)."""
    ctx = ctx or current()
    n = raw.size
    hit = buf.writer.others(offset, offset + n, ctx.core_id)
    if buf.race_log is not None:
        buf.race_log.append((ctx.core_id, offset, offset + n, ctx.diag.position(ctx.core_id), kernel_frame()))
        buf.race_seen = buf.race_seen or hit is not None
    elif hit is not None:
        report_conflict(ctx.diag, buf, hit, ctx.core_id)
    _store(buf, offset, raw, ctx.core_id, hit)


def gm_write_rows(buf: GmBuffer, offsets: list[int], rows: np.ndarray, cores: list) -> None:
    """``gm_write(buf, offsets[k], rows[k], cores[k])`` for every k in order (the cores of a lock-step or
    uniform group writing their rows of one DMA), the common case (no other core's bytes met) inline."""
    log = buf.race_log
    if log is None:
        for off, row, m in zip(offsets, rows, cores):
            gm_write(buf, off, row, m)
        return
    where, n = kernel_frame(), rows.shape[1]
    ids = [m.core_id for m in cores]
    log.extend([(c, off, off + n, m.diag.position(c), where) for c, off, m in zip(ids, offsets, cores)])
    k = 0
    while k < len(offsets):
        j, hit = buf.writer.claim_rows(offsets, n, ids, k)     # rows k..j-1 met no other core's bytes
        buf.put_rows(offsets[k:j], rows[k:j])
        if j == len(offsets):
            return
        buf.race_seen = True
        _store(buf, offsets[j], rows[j], ids[j], hit)
        k = j + 1


def _store(buf: GmBuffer, offset: int, raw: np.ndarray, core: int, hit: tuple | None) -> None:
    """The bytes of a GM write and their writer, once its conflict (``hit``) was judged."""
    n = raw.size
    later = buf.writer.later(offset, offset + n, core) if hit is not None else []
    if not later:
        buf.span(offset, offset + n)[:] = raw
        buf.writer.record(offset, offset + n, core)
        return
    # Cores in lock-step: a higher core wrote these bytes first; a core-by-core run would have let it
    # write last, so its bytes stay (the final GM equals the serial run's even for a racy kernel).
    keep = np.ones(n, dtype=bool)
    for s, e, _ in later:
        keep[s - offset:e - offset] = False
    buf.span(offset, offset + n)[keep] = raw[keep]
    edges = np.flatnonzero(np.diff(np.concatenate(([0], keep.view(np.int8), [0]))))
    for s, e in zip(edges[0::2], edges[1::2]):
        buf.writer.record(offset + int(s), offset + int(e), core)
