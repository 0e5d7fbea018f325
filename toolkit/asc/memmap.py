"""Memory the native program and the emulator share on the ``.asc`` route.

* **UB**: one region mapped at a fixed, 4 GiB aligned virtual address; core slot ``k`` is the 256 KiB at
  ``base + k * UB``. A ``__ubuf__ T*`` in the program is a real pointer into its core's slot, so raw
  dereferences work, and its low 32 bits are the UB byte address, as on the hardware (``(uint32_t)ptr``,
  ``LocalTensor(pos, byteAddr, len)`` round-trip). The emulator's :class:`~toolkit.memory.UbMemory` views
  the same bytes.
* **GM**: every ``aclrtMalloc`` is a :class:`~toolkit.memory.GmBuffer` whose numpy bytes are the device
  memory the program's pointers point into; :class:`GmArena` maps a pointer back to (buffer, offset).
"""
from __future__ import annotations

import bisect
import ctypes
import mmap

import numpy as np

from ..memory import GmBuffer

_PROT_RW = mmap.PROT_READ | mmap.PROT_WRITE
_MAP_FIXED_NOREPLACE = 0x100000
_CANDIDATE_BASES = [0x5A0000000000 + k * (1 << 36) for k in range(16)]


class UbRegion:
    """``slots`` core UBs of ``size`` bytes at a fixed 4 GiB aligned address."""

    def __init__(self, slots: int, size: int):
        self.size = size
        self.slots = slots
        libc = ctypes.CDLL(None, use_errno=True)
        libc.mmap.restype = ctypes.c_void_p
        libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                              ctypes.c_long]
        length = slots * size
        flags = mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS | _MAP_FIXED_NOREPLACE
        for base in _CANDIDATE_BASES:
            got = libc.mmap(base, length, _PROT_RW, flags, -1, 0)
            if got == base:
                break
            if got not in (None, ctypes.c_void_p(-1).value) and got != base:
                libc.munmap(ctypes.c_void_p(got), ctypes.c_size_t(length))   # an old kernel ignored the hint
        else:
            raise OSError("cannot map the emulated UB at a fixed address")
        self.base = base
        self._array = np.ctypeslib.as_array((ctypes.c_uint8 * length).from_address(base))

    def slot(self, k: int) -> np.ndarray:
        return self._array[k * self.size:(k + 1) * self.size]

    def address(self, k: int) -> int:
        return self.base + k * self.size


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
