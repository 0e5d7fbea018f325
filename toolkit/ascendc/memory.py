"""Byte-level memories: the per-core Unified Buffer and the GM buffers shared by all cores.

UB keeps a *definedness* shadow per byte (valgrind style): bytes become defined when a DMA, a store
or a scalar write puts defined data there. Loads of undefined bytes are legal (kernels routinely
over-read a tail and mask it off); the shadow follows the data into registers and back, and only a
*use* of undefined bytes (a DMA to GM, a scalar read) is reported as UNDEFINED_READ.

GM buffers remember which core last wrote each byte (per run of bytes: :mod:`toolkit.engine.gm_writers`),
for the cross-core write-conflict check.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from toolkit.engine.gm_writers import GmWriters

if TYPE_CHECKING:
    from toolkit.record.diagnostics import Diagnostics

#: unsigned type of each element width, and the value whose bytes are all 1 (a "defined" element)
_UINT = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}
_ONES = {1: 1, 2: 0x0101, 4: 0x01010101, 8: 0x0101010101010101}
_BOOL = np.dtype(bool)


def all_set(flags: np.ndarray) -> bool:
    """``flags.all()``: a bool array is all set when its bytes hold no zero. The emulator asks this of a
    256 B shadow or mask several times per instruction; a bytes scan costs a tenth of a numpy reduction."""
    if flags.dtype is not _BOOL:
        return bool(flags.all())
    return 0 not in flags.tobytes()


class UbMemory:
    """One core's Unified Buffer: ``size`` bytes of data plus a definedness shadow."""

    def __init__(self, size: int, diagnostics: "Diagnostics", core: int | None = None, allocate: bool = True,
                 buffer: np.ndarray | None = None, defined: np.ndarray | None = None, zeroed: bool = False):
        """``buffer`` / ``defined``: rows of a launch's blocks, cleared here unless ``zeroed`` (fresh np.zeros
        blocks: clearing them would only fault in pages the kernel may never touch)."""
        self.size = size                                   # bounds are checked against it even unallocated
        n = size if allocate else 0                        # a plan-only (dry) run needs no bytes
        if buffer is not None:                             # bytes shared with a native program (.asc route)
            if not zeroed:
                buffer[:] = 0
            self.data = buffer
        else:
            self.data = np.zeros(n, dtype=np.uint8)
        if defined is not None:                            # a row of the launch's shadow block (lock-step)
            if not zeroed:
                defined[:] = False
            self.defined = defined
        else:
            self.defined = np.zeros(n, dtype=bool)
        self.high = 0                                      # one past the highest UB byte any access checked
        self.writes = 0                                    # row-shaped writes so far (regbase/loopbatch.py)
        self.diag = diagnostics
        self.core = core

    # -- checks -------------------------------------------------------------------------------
    def check(self, addr: int, nbytes: int, what: str, align: int = 1) -> None:
        if addr + nbytes > self.high:
            self.high = min(addr + nbytes, self.size)
        if addr < 0 or addr + nbytes > self.size:
            self.diag.report("UB_OUT_OF_BOUNDS",
                             f"{what} touches UB [{addr}, {addr + nbytes}) outside [0, {self.size})",
                             core=self.core, address=addr, size=nbytes)
        if align > 1 and addr % align:
            self.diag.report("UB_MISALIGNED", f"{what} at UB address {addr} is not {align} B aligned",
                             core=self.core, address=addr, size=nbytes, alignment=align)

    # -- raw access (callers have checked bounds) ---------------------------------------------
    def view(self, addr: int, nbytes: int) -> np.ndarray:
        return self.data[addr:addr + nbytes]

    def write(self, addr: int, raw: np.ndarray, defined: np.ndarray | bool = True) -> None:
        n = raw.size
        self.data[addr:addr + n] = raw
        self.defined[addr:addr + n] = defined

    # -- row-shaped access, as the VF code uses it: arrays with a leading core axis (one row here, a
    #    batch of cores in UbBatch); callers have checked bounds -------------------------------------
    def rd(self, addr: int, nbytes: int) -> np.ndarray:
        return self.data[addr:addr + nbytes][None]

    def rdef(self, addr: int, nbytes: int) -> np.ndarray | None:
        """Definedness of the bytes, (1, n); None when every byte is defined."""
        d = self.defined[addr:addr + nbytes]
        return None if all_set(d) else d[None]

    def wr(self, addr: int, raw: np.ndarray, defined: np.ndarray | bool = True) -> None:
        self.writes += 1
        n = raw.shape[-1]
        self.data[addr:addr + n] = raw.reshape(-1, n)[0]
        self.defined[addr:addr + n] = defined if isinstance(defined, bool) else np.reshape(defined, (-1, n))[0]

    def wr_where(self, addr: int, raw: np.ndarray, defined: np.ndarray, where: np.ndarray) -> None:
        """Write only the bytes where ``where`` is set (masked stores: the rest keep their content)."""
        self.writes += 1
        n = where.shape[-1]
        np.copyto(self.data[addr:addr + n], raw.reshape(-1, n)[0], where=where.reshape(-1, n)[0])
        np.copyto(self.defined[addr:addr + n], np.reshape(defined, (-1, n))[0], where=where.reshape(-1, n)[0])

    def gather(self, dtype: np.dtype, pos: np.ndarray) -> np.ndarray:
        """Elements of type ``dtype`` at element positions ``pos`` of UB, (1, n)."""
        return self.data.view(dtype)[pos][None]

    def gather_def(self, width: int, pos: np.ndarray) -> np.ndarray:
        """Whether every byte of those elements is defined, (1, n)."""
        return (self.defined.view(_UINT[width])[pos] == _ONES[width])[None]

    def scatter(self, dtype: np.dtype, pos: np.ndarray, values: np.ndarray, defined: np.ndarray | None) -> None:
        """Write elements (and their definedness, None = defined) at element positions ``pos``."""
        self.writes += 1
        w = np.dtype(dtype).itemsize
        self.data.view(dtype)[pos] = np.reshape(values, (-1, pos.size))[0]
        self.defined.view(_UINT[w])[pos] = _ONES[w] if defined is None else np.where(
            np.reshape(defined, (-1, pos.size))[0], _ONES[w], 0)

    def require_defined(self, addr: int, nbytes: int, what: str) -> None:
        """Report UNDEFINED_READ if any byte in the range was never written (a *use* of the data)."""
        shadow = self.defined[addr:addr + nbytes]
        if not shadow.all():
            first = addr + int(np.argmin(shadow))
            count = int(nbytes - shadow.sum())
            self.diag.report("UNDEFINED_READ",
                             f"{what} reads {count} never-written UB byte(s), first at {first}",
                             core=self.core, address=first, size=count)


class GmBuffer:
    """A named global-memory allocation (one kernel argument), shared by all cores of a launch."""

    def __init__(self, name: str, data: np.ndarray | bytes | int, fill: int = 0, share: bool = False):
        """``share``: hold the caller's array itself, read-only, until the first write copies it (copy on
        write: an input the kernel only reads costs no memory; the caller must not change it meanwhile)."""
        self.name = name
        if isinstance(data, int):
            # np.full casts its fill element by element (about 2 ns a byte: 0.6 s for 256 MB); zeros are
            # the OS's zero pages, another fill one memset
            self.data = np.zeros(data, dtype=np.uint8)
            if fill:
                self.data.fill(fill)
            self._origin: Any = int(fill)               # what a rollback restores (toolkit.engine.uniform)
        elif not isinstance(data, np.ndarray):
            self.data = np.frombuffer(bytes(data), dtype=np.uint8).copy()
            self._origin = None
        else:
            flat = np.ascontiguousarray(data).reshape(-1).view(np.uint8)
            if share:
                flat = flat.view()
                flat.flags.writeable = False
            self.data = flat if share else flat.copy()
            self._origin = flat if share else None
        self.size = self.data.size
        self.undo: list | None = None                   # (offset, old bytes) of each write, while logged
        self._written = False                           # since it was made (else its origin is gone)
        self._restore_origin = False
        self.writer = GmWriters(self.size)              # last writer core per byte, stored per range
        self.race_log: list | None = None               # writes of a lock-step launch (toolkit.engine.gm_races)
        self.race_seen = False                          # ... and whether two cores' writes met

    def writable(self) -> np.ndarray:
        """The bytes, to write into (a shared buffer is copied at its first write)."""
        if not self.data.flags.writeable:
            self.data = self.data.copy()
        return self.data

    def span(self, lo: int, hi: int) -> np.ndarray:
        """Bytes [lo, hi), to write into (every GM write goes through here: the undo log sees it)."""
        data = self.writable()
        self._written = True
        if self.undo is not None:
            self.undo.append((lo, data[lo:hi].copy()))
        return data[lo:hi]

    def put_rows(self, offsets: list[int], rows: np.ndarray) -> None:
        """``span(offsets[k], offsets[k] + n)[:] = rows[k]`` for every k (n = rows.shape[1]); the buffer made
        writable once when no undo log watches."""
        n = rows.shape[1]
        if self.undo is not None:
            for off, row in zip(offsets, rows):
                self.span(off, off + n)[:] = row
            return
        data = self.writable()
        self._written = True
        for off, row in zip(offsets, rows):
            data[off:off + n] = row

    # -- rolling a uniform attempt back (toolkit.engine.uniform) --------------------------------------
    def checkpoint(self) -> None:
        """Start a point a rollback returns to: an unwritten buffer needs no log (its origin is known:
        its fill, or the caller's array it shares); another one logs its writes from now on."""
        pristine = self._origin is not None and not self._written
        self._restore_origin = pristine
        self.undo = None if pristine else []

    def rollback(self) -> None:
        """Back to the checkpoint (and still checkpointed)."""
        if self._restore_origin:
            if not self._written:
                return
            if isinstance(self._origin, int):                # fresh zero pages (+ the fill)
                self.data = np.zeros(self.size, dtype=np.uint8)
                if self._origin:
                    self.data.fill(self._origin)
            else:
                self.data = self._origin
            self._written = False
        else:
            for lo, old in reversed(self.undo):
                self.data[lo:lo + old.size] = old
            self.undo = []

    def release(self) -> None:
        """No checkpoint any more (the attempt stands)."""
        self.undo = None

    def as_array(self, dtype) -> np.ndarray:
        return self.data.view(dtype)

    def __repr__(self) -> str:
        return f"GmBuffer({self.name}, {self.size} B)"
