"""The C API (``asc_*``, global names): each is a composition of the C++ API calls it stands for
(``toolkit/ascendc/capi.py``)."""
from __future__ import annotations

from toolkit.ascendc import capi

from .spec import Family, api, form, gm, scalar, tded, ub

FAMILY = Family("capi", "", "capi.h", capi, doc_root="C-API")

_T = tded("T")
_UB = "__ubuf__ T*"


def _binary(short: str, page: str):
    return api(FAMILY, short, getattr(capi, short),
               form(_T, ub("dst", _UB), ub("src0", _UB), ub("src1", _UB), scalar("count", "uint32_t")),
               opcodes=(f"RV_V{short[4:7].upper()}",), dtypes=("half", "float"), doc=f"vector_compute/{page}.md")


APIS = [
    api(FAMILY, "asc_init", capi.asc_init, form(), doc="misc/asc_init.md"),
    api(FAMILY, "asc_get_block_idx", None, form(ret="int64_t", via="AscendC::GetBlockIdx"),
        doc="sys_var/asc_get_block_idx.md"),
    api(FAMILY, "asc_get_block_num", None, form(ret="int64_t", via="AscendC::GetBlockNum"),
        doc="sys_var/asc_get_block_num.md"),
    api(FAMILY, "asc_copy_gm2ub_sync", capi.asc_copy_gm2ub_sync,
        form(_T, ub("dst", _UB), gm("src"), scalar("size", "uint32_t")),
        doc="vector_datamove/asc_copy_gm2ub/asc_copy_gm2ub_arch_3510.md"),
    api(FAMILY, "asc_copy_ub2gm_sync", capi.asc_copy_ub2gm_sync,
        form(_T, gm("dst"), ub("src", _UB), scalar("size", "uint32_t")),
        doc="vector_datamove/asc_copy_ub2gm/asc_copy_ub2gm_arch_3510.md"),
    _binary("asc_add_sync", "asc_add"),
    _binary("asc_sub_sync", "asc_sub"),
    _binary("asc_mul_sync", "asc_mul"),
    _binary("asc_div_sync", "asc_div"),
]
