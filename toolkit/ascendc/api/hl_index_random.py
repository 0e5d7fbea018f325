"""``AscendC::`` high-level index and random APIs: Arange with its host query (高阶API/索引计算; the deprecated
GetArithProgressionMaxMinTmpSize too) and PhiloxRandom (高阶API/随机函数). Semantics:
``toolkit/ascendc/highlevel/index_random.py``; PhiloxKey / PhiloxCounter and their bridge encoding:
``include/asc/highlevel_reduce.h``."""
from __future__ import annotations

from toolkit.ascendc.highlevel import index_random as IR

from .spec import STRUCT, U64ARR, Arg, Family, Field, NameDef, StructDef, api, form, local, scalar, sref, struct, tded, tnamed

FAMILY = Family("hl.index_random", "AscendC", "hl_index_random.h", IR, doc_root="高阶API")

_HAND = "asc/highlevel_reduce.h"
_PAGE = "高阶API/随机函数/PhiloxRandom.md"
STRUCTS = [StructDef("AscendC::PhiloxRandomParams", IR.PhiloxRandomParams,
                     tuple(Field(n, "uint32_t", "0") for n in ("stride", "row", "column")), doc=_PAGE)]
NAMES = [NameDef("AscendC::PhiloxKey", "type", _HAND, None, _PAGE),
         NameDef("AscendC::PhiloxCounter", "type", _HAND, None, _PAGE)]

_MM = (sref("maxValue", "uint32_t"), sref("minValue", "uint32_t"))
_PHILOX_T = (tnamed("Rounds", "uint16_t", "7"), *tded("T"))
_PHILOX_HEAD = (local("dstLocal"), Arg(U64ARR, "philoxKey", "const PhiloxKey&"),
                Arg(STRUCT, "philoxCounter", "const PhiloxCounter&"))

APIS = [
    api(FAMILY, "Arange", IR.Arange,
        form(*tded("T"), local("dst"), scalar("firstValue", "const T"), scalar("diffValue", "const T"),
             scalar("count", "const int32_t")),
        dtypes=("int16_t", "half", "int32_t", "float", "int64_t"), doc="索引计算/Arange-94.md",
        note="the page's steps: SetValue for the first 8 (16 for 2-byte types: 32 B), Adds of the first block up "
             "to 8 blocks, Adds of those beyond"),
    api(FAMILY, "GetArangeMaxMinTmpSize", IR.GetArangeMaxMinTmpSize, form(*_MM),
        doc="索引计算/GetArangeMaxMinTmpSize.md", note="no temporary space: 0 / 0 (the page)"),
    api(FAMILY, "GetArithProgressionMaxMinTmpSize", IR.GetArithProgressionMaxMinTmpSize, form(*_MM),
        doc="索引计算/GetArangeMaxMinTmpSize.md", note="the deprecated name of GetArangeMaxMinTmpSize (the page)"),
    api(FAMILY, "PhiloxRandom", IR.PhiloxRandom,
        form(*_PHILOX_T, *_PHILOX_HEAD, scalar("count", "uint16_t")),
        form(*_PHILOX_T, *_PHILOX_HEAD, struct("params", "PhiloxRandomParams")),
        dtypes=("uint32_t", "int32_t", "float"), doc="随机函数/PhiloxRandom.md",
        note="Philox4x32-Rounds as MemBase calls (Mull, Or / And / Sub for xor, Gather); float: (x & 0x7FFFFF) * "
             "2^-23 (the page's example agrees); stride mode: dst packed [row, column], row r from counter + "
             "r * stride / 4 (assumed)"),
]
