"""Reg ``Cast`` with an 8- or 4-bit type (the Reg Cast page's Ascend 950 table; values, rounding and the
hifloat8 HYBRID bit rule from :mod:`toolkit.ascendc.lowfloat`).

8-bit types are ordinary 1-byte lanes (fp8 <-> float: 4 layouts, hifloat8 <-> half and e8m0 <-> bf16: 2).
The 4-bit types (fp4x2_*, int4x2_t) convert "as pairs" (the page): each byte of the packed register, two
4-bit elements in the order of the machine setting ``packed4_order``, meets one pair of b16 elements. So the
packed side is handled as 1-byte lanes and the b16 side as 4-byte lanes of two elements, and RegLayout
ZERO..THREE picks the byte 4 j + layout as for an 8 -> 32-bit conversion.
"""
from __future__ import annotations

import numpy as np

from toolkit.ascendc import lowfloat as lf
from toolkit.ascendc.dtypes import BF16

F16, F32, I16 = np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.int16)
_R = ("RINT", "ROUND", "FLOOR", "CEIL", "TRUNC")

#: (src, dst) -> round modes of the page's table (UNKNOWN: the conversion is exact / has no mode)
PAIRS: dict[tuple[np.dtype, np.dtype], tuple[str, ...]] = {
    (lf.INT4X2, I16): ("UNKNOWN",), (lf.INT4X2, F16): ("UNKNOWN",), (lf.INT4X2, BF16): ("UNKNOWN",),
    (lf.FP4X2_E2M1, BF16): ("UNKNOWN",), (lf.FP4X2_E1M2, BF16): ("UNKNOWN",),
    (lf.HIF8, F16): ("UNKNOWN",), (lf.HIF8, F32): ("UNKNOWN",), (lf.FP8_E8M0, BF16): ("UNKNOWN",),
    (lf.FP8_E5M2, F32): ("UNKNOWN",), (lf.FP8_E4M3FN, F32): ("UNKNOWN",),
    (I16, lf.INT4X2): ("UNKNOWN",), (F16, lf.INT4X2): _R, (F16, lf.HIF8): ("ROUND", "HYBRID"),
    (BF16, lf.FP4X2_E2M1): _R, (BF16, lf.FP4X2_E1M2): _R, (BF16, lf.FP8_E8M0): ("UNKNOWN",),
    (F32, lf.HIF8): ("ROUND", "HYBRID"), (F32, lf.FP8_E4M3FN): ("RINT",), (F32, lf.FP8_E5M2): ("RINT",),
}


def involved(sdt: np.dtype, ddt: np.dtype) -> bool:
    return lf.is_low(sdt) or lf.is_low(ddt)


def check(report, sdt: np.dtype, ddt: np.dtype, rname: str) -> None:
    """BAD_PARAMETER for a pair or round mode the page does not list."""
    modes = PAIRS.get((sdt, ddt))
    name = f"Cast {lf.NAMES.get(sdt, sdt.name)} -> {lf.NAMES.get(ddt, ddt.name)}"
    if modes is None:
        report("BAD_PARAMETER", f"{name} is not a supported Reg conversion on Ascend 950")
    elif modes != ("UNKNOWN",) and rname not in modes:
        report("BAD_PARAMETER", f"{name} takes the round modes {', '.join(modes)} (got {rname})")


def lane_types(sdt: np.dtype, ddt: np.dtype) -> tuple[np.dtype, np.dtype]:
    """The lane dtypes the conversion runs on: a packed side as bytes, its b16 partner as 4-byte pairs."""
    if sdt in lf.PACKED4:
        return np.dtype(np.uint8), np.dtype(np.uint32)
    if ddt in lf.PACKED4:
        return np.dtype(np.uint32), np.dtype(np.uint8)
    return sdt, ddt


def convert(x: np.ndarray, sdt: np.dtype, ddt: np.dtype, rname: str, saturate: bool, first: str) -> np.ndarray:
    """Converted lanes (of the dtype :func:`lane_types` gives for ``ddt``) of the source lanes ``x``."""
    x = np.ascontiguousarray(x)
    if sdt in lf.PACKED4:                                      # bytes -> pairs of b16
        vals = lf.decode_to(lf.unpack4(x.view(np.uint8), first), sdt, ddt)
        return np.ascontiguousarray(vals).view(np.uint32)
    if ddt in lf.PACKED4:                                      # pairs of b16 -> bytes
        return lf.pack4(lf.encode_from(x.view(sdt), ddt, rname, saturate), first)
    if lf.is_low(ddt):
        return lf.encode_from(x, ddt, rname, saturate).view(ddt)
    return lf.decode_to(x.view(np.uint8), sdt, ddt)
