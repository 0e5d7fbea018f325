"""Memory the native program and the emulator share on the ``.asc`` route.

* **UB**: core ``k``'s UB is mapped at a fixed address ``base + k * 4 GiB`` (``base`` 4 GiB aligned), so
  every core's UB has the same low 32 bits and all cores of a launch can be live at once (lock-step). A ``__ubuf__ T*`` in the program is a real pointer into its core's slot, so raw
  dereferences work, and its low 32 bits are the UB byte address, as on the hardware (``(uint32_t)ptr``,
  ``LocalTensor(pos, byteAddr, len)`` round-trip). The emulator's :class:`~toolkit.ascendc.memory.UbMemory` views
  the same bytes.
* **GM**: every ``aclrtMalloc`` is a :class:`~toolkit.ascendc.memory.GmBuffer` whose numpy bytes are the device
  memory the program's pointers point into; :class:`GmArena` maps a pointer back to (buffer, offset).
"""
from __future__ import annotations

import bisect
import ctypes
import mmap

import numpy as np

from toolkit.ascendc.memory import GmBuffer

_PROT_RW = mmap.PROT_READ | mmap.PROT_WRITE
_MAP_FIXED_NOREPLACE = 0x100000
_SLOT_STRIDE = 1 << 32                      # one core's UB per 4 GiB: the low 32 bits are the UB address
_CANDIDATE_BASES = [0x500000000000 + k * (1 << 40) for k in range(16)]   # room for 256 slots each


class UbRegion:
    """Core UBs of ``size`` bytes, core ``k`` at ``base + k * 4 GiB`` (mapped as launches need them)."""

    def __init__(self, size: int, slots: int = 1):
        self.size = size
        self._libc = libc = ctypes.CDLL(None, use_errno=True)
        libc.mmap.restype = ctypes.c_void_p
        libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                              ctypes.c_long]
        libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
        self._slots: list[np.ndarray] = []
        for base in _CANDIDATE_BASES:
            self.base = base
            if self._map(0):
                break
        else:
            raise OSError("cannot map the emulated UB at a fixed address")
        self.ensure(slots)

    def _map(self, k: int) -> bool:
        addr = self.base + k * _SLOT_STRIDE
        flags = mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS | _MAP_FIXED_NOREPLACE
        got = self._libc.mmap(addr, self.size, _PROT_RW, flags, -1, 0)
        if got != addr:
            if got not in (None, ctypes.c_void_p(-1).value):
                self._libc.munmap(got, self.size)          # an old kernel ignored the hint
            return False
        self._slots.append(np.ctypeslib.as_array((ctypes.c_uint8 * self.size).from_address(addr)))
        return True

    def ensure(self, slots: int) -> None:
        """Map core slots up to ``slots`` (a launch with more cores than any before)."""
        while len(self._slots) < slots:
            if not self._map(len(self._slots)):
                raise OSError(f"cannot map the emulated UB of core {len(self._slots)}")

    def slot(self, k: int) -> np.ndarray:
        return self._slots[k]

    def address(self, k: int) -> int:
        return self.base + k * _SLOT_STRIDE

    def rows(self, n: int) -> np.ndarray:
        """The first ``n`` slots as one (n, size) array (a strided view: rows 4 GiB apart)."""
        return np.lib.stride_tricks.as_strided(self._slots[0], (n, self.size), (_SLOT_STRIDE, 1))

    @property
    def span(self) -> tuple[int, int]:
        """[low, high) of the mapped slots' addresses: a pointer in it is a __ubuf__ pointer."""
        return self.base, self.base + len(self._slots) * _SLOT_STRIDE


class GmArena:
    """Device allocations of one program run, looked up by address."""

    def __init__(self) -> None:
        self._starts: list[int] = []
        self._bufs: list[GmBuffer] = []
        self.count = 0

    def alloc(self, size: int) -> GmBuffer:
        self.count += 1
        buf = GmBuffer(f"gm{self.count}", max(int(size), 1))
        start = buf.data.ctypes.data
        k = bisect.bisect(self._starts, start)
        self._starts.insert(k, start)
        self._bufs.insert(k, buf)
        return buf

    def free(self, addr: int) -> bool:
        k = bisect.bisect(self._starts, addr) - 1
        if k >= 0 and self._starts[k] == addr:
            del self._starts[k], self._bufs[k]
            return True
        return False

    def find(self, addr: int) -> tuple[GmBuffer, int] | None:
        """(buffer, byte offset) holding ``addr`` (one past the end counts, as for an end pointer)."""
        k = bisect.bisect(self._starts, addr) - 1
        if k < 0:
            return None
        buf = self._bufs[k]
        off = addr - self._starts[k]
        return (buf, off) if off <= buf.size else None

    def buffers(self) -> list[GmBuffer]:
        return list(self._bufs)


def host_bytes(addr: int, n: int) -> np.ndarray:
    """A numpy view of ``n`` bytes of the program's memory at ``addr``."""
    if n == 0:
        return np.zeros(0, dtype=np.uint8)
    return np.ctypeslib.as_array((ctypes.c_uint8 * n).from_address(addr))
