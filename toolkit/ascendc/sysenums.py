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
    NCDHW = 5          # the high-level TransData formats (高阶API/张量变换/TransData.md)
    NDC1HWC0 = 6
    FRACTAL_Z_3D = 7


class TensorDataType(Enum):
    """The element type argument of the high-level APIs' host-side queries (GetSortMaxMinTmpSize,
    GetReduce*MaxMinTmpSize, GetTopKMaxMinTmpSize ...). Its page is not in the reference copy; the
    enumerators and values are assumed to be ge::DataType's (graph/types.h of CANN, which the
    high-level tiling headers alias), so a host that passes ``static_cast<TensorDataType>(ge::DT_FLOAT)``
    gets the same member."""

    DT_FLOAT = 0
    DT_FLOAT16 = 1
    DT_INT8 = 2
    DT_INT32 = 3
    DT_UINT8 = 4
    DT_INT16 = 6
    DT_UINT16 = 7
    DT_UINT32 = 8
    DT_INT64 = 9
    DT_UINT64 = 10
    DT_DOUBLE = 11
    DT_BOOL = 12
    DT_COMPLEX64 = 16
    DT_COMPLEX128 = 17
    DT_BF16 = 27
    DT_UNDEFINED = 28
    DT_INT4 = 29
    DT_COMPLEX32 = 33
    DT_HIFLOAT8 = 34
    DT_FLOAT8_E5M2 = 35
    DT_FLOAT8_E4M3FN = 36
    DT_FLOAT8_E8M0 = 37
    DT_FLOAT4_E2M1 = 40
    DT_FLOAT4_E1M2 = 41



class ReducePattern(Enum):
    """The reduce axes of the high-level reductions' host queries (GetReduce*MaxMinTmpSize) and of
    NormalizeConfig: one letter per dimension, A a kept (normal) axis, R a reduced one. The kernels take the
    pattern as a type (``AscendC::Pattern::Reduce::AR``) whose ``ID`` is this value; AR and RA are the
    supported ones."""

    AR = 0
    RA = 1
    R = 2
    ARA = 3
    ARAR = 4
    ARARA = 5
    ARARAR = 6
    ARARARA = 7
    ARARARAR = 8
    ARARARARA = 9
    RAR = 10
    RARA = 11
    RARAR = 12
    RARARA = 13
    RARARAR = 14
    RARARARA = 15


#: bytes per element of a TensorDataType (the sub-byte types round up to 1; used by host-side size queries)
TENSOR_DATA_TYPE_BYTES = {
    TensorDataType.DT_FLOAT: 4, TensorDataType.DT_FLOAT16: 2, TensorDataType.DT_INT8: 1,
    TensorDataType.DT_INT32: 4, TensorDataType.DT_UINT8: 1, TensorDataType.DT_INT16: 2,
    TensorDataType.DT_UINT16: 2, TensorDataType.DT_UINT32: 4, TensorDataType.DT_INT64: 8,
    TensorDataType.DT_UINT64: 8, TensorDataType.DT_DOUBLE: 8, TensorDataType.DT_BOOL: 1,
    TensorDataType.DT_COMPLEX64: 8, TensorDataType.DT_COMPLEX128: 16, TensorDataType.DT_BF16: 2,
    TensorDataType.DT_UNDEFINED: 0, TensorDataType.DT_INT4: 1, TensorDataType.DT_COMPLEX32: 4,
    TensorDataType.DT_HIFLOAT8: 1, TensorDataType.DT_FLOAT8_E5M2: 1, TensorDataType.DT_FLOAT8_E4M3FN: 1,
    TensorDataType.DT_FLOAT8_E8M0: 1, TensorDataType.DT_FLOAT4_E2M1: 1, TensorDataType.DT_FLOAT4_E1M2: 1,
}
