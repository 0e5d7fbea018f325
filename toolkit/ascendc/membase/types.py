"""Element types of the MemBase API pages, by their C++ spellings (the definition table lists the same names)."""
from __future__ import annotations

import numpy as np

from toolkit.ascendc.dtypes import BF16

I8, U8 = np.dtype(np.int8), np.dtype(np.uint8)
I16, U16 = np.dtype(np.int16), np.dtype(np.uint16)
I32, U32 = np.dtype(np.int32), np.dtype(np.uint32)
I64, U64 = np.dtype(np.int64), np.dtype(np.uint64)
F16, F32, F64 = np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)

#: C++ element type name -> numpy dtype
BY_NAME = {"int8_t": I8, "uint8_t": U8, "int16_t": I16, "uint16_t": U16, "int32_t": I32, "uint32_t": U32,
           "int64_t": I64, "uint64_t": U64, "half": F16, "bfloat16_t": BF16, "float": F32, "double": F64,
           "bool": U8}


def dts(names: str) -> tuple[np.dtype, ...]:
    """numpy dtypes of a space-separated list of C++ type names."""
    return tuple(BY_NAME[n] for n in names.split())


def is_float(dt: np.dtype) -> bool:
    return dt == BF16 or dt.kind == "f"


def bits_view(dt: np.dtype) -> np.dtype:
    """The unsigned integer type of the same width (bitwise ops on float encodings)."""
    return np.dtype(f"u{dt.itemsize}")
