"""``AscendC::`` high-level sorting (高阶API/排序操作): Concat, Sort (the (score, index) form and the SortConfig
forms), Extract, GetSortLen / GetSortOffset, TopK, their host helpers and structs. The high-level MrgSort
is a form of the basic MrgSort (membase_misc.py). Kernels: ``toolkit/ascendc/highlevel/{sort,radix,topk}.py``;
hand-written part (SortConfig, TopKConfig, TopkTiling and its optiling:: twin): ``asc/highlevel_sort.h``."""
from __future__ import annotations

from toolkit.ascendc.highlevel import sort as SO
from toolkit.ascendc.highlevel import topk as TK

from .spec import (
    LOCAL,
    Arg,
    Family,
    Field,
    NameDef,
    StructDef,
    api,
    earg,
    form,
    ignored,
    local,
    scalar,
    sout,
    sref,
    struct,
    tded,
    thidden,
    tnamed,
    ttype,
)

FAMILY = Family("hl.sort", "AscendC", "hl_sort.h", SO, doc_root="高阶API/排序操作")
TOPK = Family("hl.topk", "AscendC", "hl_topk.h", TK, doc_root="高阶API/排序操作")

_HAND = "asc/highlevel_sort.h"
_TMP_NOTE = "the size of the emulated kernel's temporary buffer (the vendor's formula is not published)"
_PLATFORM = ignored("const platform_ascendc::PlatformAscendC&", None)
_MM = (sref("maxValue", "uint32_t"), sref("minValue", "uint32_t"))


def _mut(name: str, t: str = "T") -> Arg:
    return Arg(LOCAL, name, f"LocalTensor<{t}>&")


def _tiling_fields() -> tuple:
    return tuple(Field(n, TK.TILING_TYPES[n], "0") for n in TK._TILING_NAMES)


STRUCTS = [
    StructDef("AscendC::SortConfig", SO.SortConfig,
              (Field("type", "AscendC::SortType", "AscendC::SortType::RADIX_SORT"), Field("isDescend", "bool", "false"),
               Field("hasSrcIndex", "bool", "false"), Field("hasDstIndex", "bool", "false")),
              doc="高阶API/排序操作/Sort.md", hand=f"{_HAND}: an aggregate (a constexpr template argument)"),
    StructDef("AscendC::TopKConfig", TK.TopKConfig,
              (Field("algo", "AscendC::TopKAlgo", "AscendC::TopKAlgo::MERGE_SORT"),
               Field("order", "AscendC::TopKOrder", "AscendC::TopKOrder::UNSET"), Field("sorted", "bool", "true")),
              doc="高阶API/排序操作/TopK.md", hand=f"{_HAND}: an aggregate (a constexpr template argument)"),
    StructDef("AscendC::TopKInfo", TK.TopKInfo, (Field("outter", "int32_t", "1"), Field("inner", "int32_t", "0"),
                                                 Field("n", "int32_t", "0")), doc="高阶API/排序操作/TopK.md"),
    StructDef("AscendC::tiling::TopkTiling", TK.TopkTiling, _tiling_fields(), doc="高阶API/排序操作/TopK-Tiling.md",
              hand=f"{_HAND}: optiling::TopkTiling derives from it"),
]
NAMES = [
    NameDef("AscendC::DEFAULT_SORT_CONFIG", "constant", _HAND, None, "高阶API/排序操作/Sort.md"),
    NameDef("AscendC::defaultTopKConfig", "constant", _HAND, None, "高阶API/排序操作/TopK.md"),
    NameDef("AscendC::TopkTiling", "alias", f"{_HAND}: the kernel-side name of tiling::TopkTiling"),
]

_REPEAT = scalar("repeatTime", "const int32_t")
_COUNT = scalar("calCount", "const uint32_t")
_TMP = local("sharedTmpBuffer", "uint8_t")
_REUSE = thidden("isReuseSource", "bool", "false")
_CFG = tnamed("config", "const SortConfig&", "DEFAULT_SORT_CONFIG",
              send="(int)config.type | (config.isDescend ? 2 : 0)")
_SORT_NOTE = ("isFullSort: Sort32 per 32 then MrgSort four runs at a time (ping-pong with tmp); SortConfig: "
              "MERGE_SORT = Sort32 + MrgSort + Extract (scores negated for ascending order), RADIX_SORT = a stable "
              "LSB radix sort by And / Compares / GatherMask / Gather (algorithm: assumed, the page gives none)")


def _sort_forms() -> tuple:
    old = form(ttype("T", None), tnamed("isFullSort", "bool", None), local("dst"), local("concat"),
               local("index", "uint32_t"), _mut("tmp"), _REPEAT)
    t, tu = (*tded("T"), _REUSE, _CFG), (*tded("T", "U"), _REUSE, _CFG)
    out = [old]
    for tmp in ((), (_TMP,)):
        out.append(form(*t, _mut("dstTensor"), local("srcTensor"), *tmp, _COUNT))
        out.append(form(*t, _mut("dstTensor"), _mut("dstIndexTensor", "uint32_t"), local("srcTensor"), *tmp, _COUNT))
        idx = (local("dstTensor"), local("dstIndexTensor", "U")) if not tmp else \
            (_mut("dstTensor"), _mut("dstIndexTensor", "U"))
        out.append(form(*tu, *idx, local("srcTensor"), local("srcIndexTensor", "U"), *tmp, _COUNT))
    return tuple(out)


def _per_type(short: str, arg: str) -> object:
    return api(FAMILY, short, getattr(SO, short),
               form(ttype("T", None), scalar(arg, "const uint32_t"), ret="uint32_t",
                    native=f"return {arg} * 8u / (uint32_t)sizeof(T);"),
               dtypes=("half", "float"), doc=f"{short}.md",
               note="in elements of T (assumed: the MrgSort page's example indexes a LocalTensor<T> with "
                    "GetSortOffset; the pages name the unit bytes)")


APIS = [
    api(FAMILY, "Concat", SO.Concat, form(*tded("T"), _mut("concat"), local("src"), local("tmp"), _REPEAT),
        dtypes=("half", "float"), doc="Concat.md",
        note="assumed: on the 950 layout the scores are the source, so a Copy (tmp unused)"),
    api(FAMILY, "Extract", SO.Extract,
        form(*tded("T"), local("dstValue"), local("dstIndex", "uint32_t"), local("sorted"), _REPEAT),
        dtypes=("half", "float"), doc="Extract.md", note="GatherMask of the score and index words"),
    api(FAMILY, "Sort", SO.Sort, *_sort_forms(), dtypes=SO.RADIX_TYPES, doc="Sort.md", note=_SORT_NOTE),
    _per_type("GetSortLen", "elemCount"),
    _per_type("GetSortOffset", "elemOffset"),
    api(FAMILY, "GetConcatTmpSize", SO.GetConcatTmpSize,
        form(_PLATFORM, scalar("elemCount", "const uint32_t"), scalar("dataTypeSize", "const uint32_t"),
             ret="uint32_t"), doc="GetConcatTmpSize.md", note="0: Concat needs no temporary space here"),
    api(FAMILY, "GetSortTmpSize", SO.GetSortTmpSize,
        form(_PLATFORM, scalar("elemCount", "const uint32_t"), scalar("dataTypeSize", "const uint32_t"),
             ret="uint32_t"), doc="GetSortTmpSize.md", note="8 B per element: the full sort's ping-pong half"),
    api(FAMILY, "GetSortMaxMinTmpSize", SO.GetSortMaxMinTmpSize,
        form(struct("srcShape", "AscendC::TensorShape"), earg("valueType", "TensorDataType"),
             earg("indexType", "TensorDataType"), scalar("isReuseSource", "bool"),
             struct("config", "SortConfig"), *_MM), doc="GetSortMaxMinTmpSize.md", note=_TMP_NOTE),
]

# -- TopK ------------------------------------------------------------------------------------------------------
_TK_T = (*tded("T"), tnamed("isInitIndex", "bool", "false"), tnamed("isHasfinish", "bool", "false"),
         tnamed("isReuseSrc", "bool", "false"),
         tnamed("topkMode", "TopKMode", "TopKMode::TOPK_NORMAL", send="(int)topkMode"))
_TK_CFG = tnamed("config", "const TopKConfig&", "defaultTopKConfig",
                 send="(int)config.algo | ((int)config.order << 1) | (config.sorted ? 8 : 0)")
_TK_HEAD = (local("dstValueLocal"), local("dstIndexLocal", "int32_t"), local("srcLocal"),
            local("srcIndexLocal", "int32_t"), local("finishLocal", "bool"))
_TK_TAIL = (scalar("k", "const int32_t"), struct("tilling", "TopkTiling"), struct("topKInfo", "TopKInfo"),
            scalar("isLargest", "const bool", default="true"))
_TK_NOTE = ("MERGE_SORT: the page's steps (CreateVecIndex, x -1 for the smallest, Sort32, MrgSort, GatherMask of the "
            "positions); "
            "RADIX_SELECT: a stable radix sort of each row, the first k gathered (algorithm: assumed); values and "
            "indices gathered by position; NaN first in both orders, inf the largest (MERGE_SORT: +inf keyed as the "
            "largest finite value, assumed)")
_TK_TMP = "(the vendor's formula is not published): the size of the emulated kernel's temporary buffer"


_TK_ONE = ("gen/hl_topk.h: the config form below with its default (two C++ templates that differ only in a "
           "defaulted parameter would be ambiguous)")


def _topk_forms() -> tuple:
    out = []
    for tmp in ((), (local("tmpLocal", "uint8_t"),)):
        out.append(form(*_TK_T, *_TK_HEAD, *tmp, *_TK_TAIL, hand=_TK_ONE))
        out.append(form(*_TK_T, _TK_CFG, *_TK_HEAD, *tmp, *_TK_TAIL))
    return tuple(out)


_I32 = "const int32_t"
_B = "const bool"
TOPK_APIS = [
    api(TOPK, "TopK", TK.TopK, *_topk_forms(), dtypes=SO.RADIX_TYPES, doc="TopK.md", note=_TK_NOTE),
    api(TOPK, "GetTopKMaxMinTmpSize", TK.GetTopKMaxMinTmpSize,
        form(_PLATFORM, scalar("inner", _I32), scalar("outter", _I32), scalar("isReuseSource", _B),
             scalar("isInitIndex", _B), earg("mode", "TopKMode"), scalar("isLargest", _B),
             scalar("dataTypeSize", "const uint32_t"), *_MM, ret="bool"),
        form(scalar("inner", _I32), scalar("outter", _I32), scalar("k", _I32), scalar("isReuseSource", _B),
             scalar("isInitIndex", _B), earg("mode", "TopKMode"), scalar("isLargest", _B),
             earg("dataType", "TensorDataType"), struct("config", "TopKConfig"), *_MM, ret="bool"),
        doc="TopK-Tiling.md", note=_TK_TMP),
    api(TOPK, "TopKTilingFunc", TK.TopKTilingFunc,
        *(form(_PLATFORM, scalar("inner", _I32), scalar("outter", _I32), scalar("k", _I32),
               scalar("dataTypeSize", "const uint32_t"), scalar("isInitIndex", _B), earg("mode", "TopKMode"),
               scalar("isLargest", _B), sout("topKTiling", t), ret="bool")
          for t in ("optiling::TopkTiling", "AscendC::tiling::TopkTiling")),
        doc="TopK-Tiling.md", note="the kernel reads topKInfo; the tiling records its sizes and counts"),
]

APIS = [*APIS, *TOPK_APIS]
