"""The C API (``asc_*``, global names) of data movement (C-API/vector_datamove), ``asc_init`` and the block
index: each a composition of the C++ API calls it stands for (``toolkit/ascendc/capi.py``). The other
families are in ``capi_sync.py`` (sync, sys_var, atomics, scalar) and ``capi_vec.py`` (vector_compute).

The 2201 forms of asc_copy_gm2ub / asc_copy_ub2gm (gaps) have the same C++ parameter types as the 3510
ones (strides): the 3510 meaning is the one declared (Ascend 950)."""
from __future__ import annotations

from toolkit.ascendc import capi

from .spec import Family, api, form, gm, scalar, tded, ub

FAMILY = Family("capi", "", "capi.h", capi, doc_root="C-API")

_T = tded("T")
_UB = "__ubuf__ T*"
_DM = "vector_datamove"
_VUB, _VGM = ub("dst", "__ubuf__ void*"), gm("src", "__gm__ void*")
_OUT = (gm("dst", "__gm__ void*"), ub("src", "__ubuf__ void*"))
_SIZE = scalar("size", "uint32_t")
_TIN, _TOUT = (_T, ub("dst", _UB), gm("src")), (_T, gm("dst"), ub("src", _UB))
_U16 = "uint16_t"
_BYTES8_32 = ("int8_t", "uint8_t", "int16_t", "uint16_t", "half", "bfloat16_t", "int32_t", "uint32_t", "float")
#: the page's 8-bit float types (hifloat8_t, fp8_e5m2_t, fp8_e4m3fn_t) are no C++ types of the toolkit yet:
#: a copy moves their bytes as int8_t / uint8_t
_WIDE = ("double", "int64_t", "uint64_t")


def _u16(*names: str) -> tuple:
    return tuple(scalar(n, _U16) for n in names)


def _binary(short: str, page: str):
    return api(FAMILY, short, getattr(capi, short),
               form(_T, ub("dst", _UB), ub("src0", _UB), ub("src1", _UB), scalar("count", "uint32_t")),
               opcodes=(f"RV_V{short[4:7].upper()}",), dtypes=("half", "float"), doc=f"vector_compute/{page}.md")


def _pad_in(cache: str, cast: str | None) -> tuple:
    return (scalar("n_burst", _U16), scalar("len_burst", "uint32_t"), scalar("left_padding_num", "uint8_t"),
            scalar("right_padding_num", "uint8_t"), scalar("enable_constant_pad", "bool"),
            scalar("l2_cache_mode", cache, cast), scalar("src_stride", "uint64_t"), scalar("dst_stride", "uint32_t"))


def _pad_out(cache: str, cast: str | None) -> tuple:
    return (scalar("n_burst", _U16), scalar("len_burst", "uint32_t"), scalar("l2_cache_mode", cache, cast),
            scalar("dst_stride", "uint64_t"), scalar("src_stride", "uint32_t"))


def _loop(short: str, a: str, b: str, ctype: str = "uint64_t") -> object:
    return api(FAMILY, short, getattr(capi, short), form(scalar(a, ctype), scalar(b, ctype)), doc=f"{_DM}/{short}.md")


def _ndim_stride(d: int) -> object:
    return api(FAMILY, f"asc_set_ndim_loop{d}_stride", getattr(capi, f"asc_set_ndim_loop{d}_stride"),
               form(scalar("dst_stride", "uint64_t"), scalar("src_stride", "uint64_t")),
               doc=f"{_DM}/asc_set_ndim_loop_stride.md")


_NDIM = (*(scalar(f"loop{d}_size", "uint32_t") for d in range(5)), scalar("loop0_lp_count", "uint8_t"),
         scalar("loop0_rp_count", "uint8_t"), scalar("padding_mode", "bool"))
_IN_PAGE, _OUT_PAGE = f"{_DM}/asc_copy_gm2ub/asc_copy_gm2ub_arch_3510.md", f"{_DM}/asc_copy_ub2gm/asc_copy_ub2gm_arch_3510.md"
_ALIGN_IN = f"{_DM}/asc_copy_gm2ub_align/asc_copy_gm2ub_align_arch_3510.md"
_ALIGN_OUT = f"{_DM}/asc_copy_ub2gm_align/asc_copy_ub2gm_align_arch_3510.md"

_DATAMOVE = [
    api(FAMILY, "asc_copy_gm2ub", capi.asc_copy_gm2ub, form(_VUB, _VGM, _SIZE),
        form(_VUB, _VGM, *_u16("n_burst", "len_burst", "src_stride", "dst_stride")), doc=_IN_PAGE),
    api(FAMILY, "asc_copy_gm2ub_sync", capi.asc_copy_gm2ub_sync, form(_VUB, _VGM, _SIZE), doc=_IN_PAGE),
    api(FAMILY, "asc_copy_ub2gm", capi.asc_copy_ub2gm, form(*_OUT, _SIZE),
        form(*_OUT, *_u16("n_burst", "len_burst", "dst_stride", "src_stride")), doc=_OUT_PAGE),
    api(FAMILY, "asc_copy_ub2gm_sync", capi.asc_copy_ub2gm_sync, form(*_OUT, _SIZE), doc=_OUT_PAGE),
    api(FAMILY, "asc_copy_gm2ub_align", capi.asc_copy_gm2ub_align, form(*_TIN, _SIZE),
        form(*_TIN, scalar("n_burst", _U16), scalar("len_burst", "uint32_t"), scalar("left_padding_num", "uint8_t"),
             scalar("right_padding_num", "uint8_t"), scalar("src_gap", "uint32_t"), scalar("dst_gap", "uint32_t")),
        form(*_TIN, *_pad_in("asc_load_l2_cache_mode", "int")), form(*_TIN, *_pad_in("uint8_t", None)),
        doc=_ALIGN_IN, dtypes=_BYTES8_32),
    api(FAMILY, "asc_copy_gm2ub_align_sync", capi.asc_copy_gm2ub_align_sync, form(*_TIN, _SIZE), doc=_ALIGN_IN,
        dtypes=_BYTES8_32),
    api(FAMILY, "asc_copy_ub2gm_align", capi.asc_copy_ub2gm_align, form(*_TOUT, _SIZE),
        form(*_TOUT, *_pad_out("asc_store_l2_cache_mode", "int")), form(*_TOUT, *_pad_out("uint8_t", None)),
        form(*_TOUT, scalar("n_burst", _U16), scalar("len_burst", "uint32_t"), scalar("left_padding_num", "uint8_t"),
             scalar("right_padding_num", "uint8_t"), scalar("src_gap", "uint32_t"), scalar("dst_gap", "uint32_t")),
        doc=_ALIGN_OUT, dtypes=(*_BYTES8_32, *_WIDE)),
    api(FAMILY, "asc_copy_ub2gm_align_sync", capi.asc_copy_ub2gm_align_sync, form(*_TOUT, _SIZE), doc=_ALIGN_OUT,
        dtypes=(*_BYTES8_32, *_WIDE)),
    api(FAMILY, "asc_copy_ub2ub", capi.asc_copy_ub2ub, form(_VUB, ub("src", "__ubuf__ void*"), _SIZE),
        form(_VUB, ub("src", "__ubuf__ void*"), *_u16("n_burst", "len_burst", "src_gap", "dst_gap")),
        doc=f"{_DM}/asc_copy_ub2ub.md"),
    api(FAMILY, "asc_copy_ub2ub_sync", capi.asc_copy_ub2ub_sync, form(_VUB, ub("src", "__ubuf__ void*"), _SIZE),
        doc=f"{_DM}/asc_copy_ub2ub.md"),
    api(FAMILY, "asc_copy_ub2l1", capi.asc_copy_ub2l1,
        form(scalar("dst", "__cbuf__ void*", "uintptr_t"), ub("src", "__ubuf__ void*"), _SIZE),
        form(scalar("dst", "__cbuf__ void*", "uintptr_t"), ub("src", "__ubuf__ void*"),
             *_u16("n_burst", "len_burst", "src_gap", "dst_gap")),
        doc=f"{_DM}/asc_copy_ub2l1.md", note="refused at run time: the L1 buffer (cube core) is not emulated"),
    api(FAMILY, "asc_copy_ub2l1_sync", capi.asc_copy_ub2l1_sync,
        form(scalar("dst", "__cbuf__ void*", "uintptr_t"), ub("src", "__ubuf__ void*"), _SIZE),
        doc=f"{_DM}/asc_copy_ub2l1.md", note="refused at run time: the L1 buffer (cube core) is not emulated"),
    api(FAMILY, "asc_set_copy_pad_val", capi.asc_set_copy_pad_val, form(_T, scalar("pad_value", "T")),
        doc=f"{_DM}/asc_set_copy_pad_val.md", dtypes=_BYTES8_32),
    api(FAMILY, "asc_set_gm2ub_pad", capi.asc_set_gm2ub_pad, form(scalar("pad_val", "uint32_t")),
        doc=f"{_DM}/asc_set_gm2ub_pad_deprecated.md"),
    _loop("asc_set_gm2ub_loop_size", "loop1_size", "loop2_size"),
    _loop("asc_set_gm2ub_loop1_stride", "loop1_src_stride", "loop1_dst_stride"),
    _loop("asc_set_gm2ub_loop2_stride", "loop2_src_stride", "loop2_dst_stride"),
    _loop("asc_set_ub2gm_loop_size", "loop1_size", "loop2_size", "uint32_t"),
    _loop("asc_set_ub2gm_loop1_stride", "loop1_src_stride", "loop1_dst_stride"),
    _loop("asc_set_ub2gm_loop2_stride", "loop2_src_stride", "loop2_dst_stride"),
    *(_ndim_stride(d) for d in range(5)),
    api(FAMILY, "asc_set_ndim_pad_count", capi.asc_set_ndim_pad_count,
        form(scalar("config", "asc_ndim_pad_count_config&", "uint64_t")), doc=f"{_DM}/asc_set_ndim_pad_count.md"),
    api(FAMILY, "asc_set_ndim_pad_value", capi.asc_set_ndim_pad_value, form(_T, scalar("pad_value", "T")),
        doc=f"{_DM}/asc_set_ndim_pad_value.md", dtypes=_BYTES8_32),
    api(FAMILY, "asc_ndim_copy_gm2ub", capi.asc_ndim_copy_gm2ub,
        form(*_TIN, *_NDIM, scalar("l2_cache_mode", "asc_load_l2_cache_mode", "int")),
        form(*_TIN, *_NDIM, scalar("cache_mode", "uint8_t")), doc=f"{_DM}/asc_ndim_copy_gm2ub.md",
        dtypes=_BYTES8_32),
]

APIS = [
    api(FAMILY, "asc_init", capi.asc_init, form(), doc="misc/asc_init.md"),
    api(FAMILY, "asc_get_block_idx", None, form(ret="int64_t", via="AscendC::GetBlockIdx"),
        doc="sys_var/asc_get_block_idx.md"),
    api(FAMILY, "asc_get_block_num", None, form(ret="int64_t", via="AscendC::GetBlockNum"),
        doc="sys_var/asc_get_block_num.md"),
    *_DATAMOVE,
    _binary("asc_add_sync", "asc_add"),
    _binary("asc_sub_sync", "asc_sub"),
    _binary("asc_mul_sync", "asc_mul"),
    _binary("asc_div_sync", "asc_div"),
]
