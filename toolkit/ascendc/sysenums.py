"""Enums of the system, cache, debug and data-structure APIs that the emulator accepts but whose value
changes nothing it models (cache modes, the CPU-twin kernel mode ...), plus the hardware a
LocalMemAllocator is for. Declared here once so the C++ enums are generated from them
(toolkit/asc/enums.py) and the API definitions may name them."""
from __future__ import annotations

from enum import Enum


class Hardware(Enum):
    """LocalMemAllocator<Hardware>: the physical memory (only the UB is emulated)."""

    GM = 0
    UB = 1
    L1 = 2
    L0A = 3
    L0B = 4
    L0C = 5
    BIAS = 6
    FIXBUF = 7
    MAX = 8


class CacheLine(Enum):
    SINGLE_CACHE_LINE = 0
    ENTIRE_DATA_CACHE = 1


class DcciDst(Enum):
    CACHELINE_ALL = 0
    CACHELINE_UB = 1
    CACHELINE_OUT = 2
    CACHELINE_ATOMIC = 3


class CacheMode(Enum):
    CACHE_MODE_DISABLE = 0
    CACHE_MODE_NORMAL = 1
    CACHE_MODE_PERSISTENT = 4


class CacheRwMode(Enum):
    READ = 1
    WRITE = 2
    RW = 3


class EngineType(Enum):
    """Async<EngineType, f>: the unit that runs f (the emulated kernels run on the AIV)."""

    AIC = 0
    AIV = 1


class KernelMode(Enum):
    """SetKernelMode (CPU twin debugging): the kind of core the kernel runs on."""

    MIX_MODE = 0
    AIC_MODE = 1
    AIV_MODE = 2


class DataFormat(Enum):
    """ShapeInfo's data format."""

    ND = 0
    NZ = 1
    NCHW = 2
    NC1HWC0 = 3
    NHWC = 4
