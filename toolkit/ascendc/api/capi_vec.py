"""The C API's vector computation in scope on Ascend 950 (C-API/vector_compute): the MemBase calls they
stand for (toolkit/ascendc/capi_vec.py). Pointer-array parameters (asc_mrgsort4's four queues,
asc_set_va_reg's eight addresses) are written by hand in include/asc/capi.h: they call the flattened form
declared here with the array's pointers."""
from __future__ import annotations

from toolkit.ascendc import capi_vec as C

from .spec import Family, api, form, scalar, tded, ub

FAMILY = Family("capi.vec", "", "capi_vec.h", C, doc_root="C-API")

_T = tded("T")
_UB = "__ubuf__ T*"
_ARRAY = "capi.h: the pointer array goes to the flattened form (its elements as arguments)"
_SORT = ("half", "float")
_VA = ("int8_t", "uint8_t", "int16_t", "uint16_t", "half", "int32_t", "uint32_t", "float")


def _bitsort(short: str) -> object:
    return api(FAMILY, short, getattr(C, short),
               form(_T, ub("dst", _UB), ub("src0", _UB), ub("src1", "__ubuf__ uint32_t*"), scalar("repeat", "int32_t")),
               opcodes=("RV_VSORT32",), dtypes=_SORT, doc="vector_compute/asc_bitsort.md")


def _mrgsort(short: str) -> object:
    lens = tuple(scalar(f"element_length_{k}", "uint16_t") for k in range(4))
    tail = (scalar("if_exhausted_suspension", "bool"), scalar("valid_bit", "uint8_t"))
    return api(FAMILY, short, getattr(C, short),
               form(_T, ub("dst", _UB), scalar("src", "__ubuf__ T**"), scalar("repeat", "uint8_t"), *lens, *tail,
                    hand=_ARRAY),
               form(_T, ub("dst", _UB), *(ub(f"src{k}", _UB) for k in range(4)), scalar("repeat", "uint8_t"), *lens,
                    *tail),
               opcodes=("RV_VMRGSORT",), dtypes=_SORT, doc="vector_compute/asc_mrgsort4.md")


def _transpose(short: str) -> object:
    return api(FAMILY, short, getattr(C, short), form(_T, ub("dst", _UB), ub("src", _UB)), opcodes=("RV_VTRANS",),
               dtypes=("int16_t", "uint16_t"), doc="vector_compute/asc_transpose.md")


def _5hd(short: str) -> object:
    args = [scalar("dst", "ub_addr8_t", "int"), scalar("src", "ub_addr8_t", "int"), scalar("repeat", "uint8_t"),
            scalar("dst_stride", "uint16_t"), scalar("src_stride", "uint16_t")]
    if "_b8" in short:
        args += [scalar("dst_high_half", "bool"), scalar("src_high_half", "bool")]
    return api(FAMILY, short, getattr(C, short), form(*args), opcodes=("RV_VTRANS",),
               doc="vector_compute/asc_transto5hd.md")


APIS = [
    _bitsort("asc_bitsort"), _bitsort("asc_bitsort_sync"),
    _mrgsort("asc_mrgsort4"), _mrgsort("asc_mrgsort4_sync"),
    _transpose("asc_transpose"), _transpose("asc_transpose_sync"),
    api(FAMILY, "asc_set_va_reg", C.asc_set_va_reg,
        form(_T, scalar("addr", "ub_addr8_t", "int"), scalar("src_array", "__ubuf__ T**"), hand=_ARRAY),
        form(_T, scalar("addr", "ub_addr8_t", "int"), *(ub(f"src{k}", _UB) for k in range(8))),
        dtypes=_VA, doc="vector_compute/asc_set_va_reg.md"),
    *(_5hd(f"asc_transto5hd_b{b}{s}") for b in (8, 16, 32) for s in ("", "_sync")),
]
