"""``AscendC::`` high-level data filtering (高阶API/数据过滤): DropOut and the host-side size queries of DropOut
and of the byte-mask Select (whose kernel forms are forms of the basic Select, membase_cmp.py; its shape
struct is in names.py). Kernels: ``toolkit/ascendc/highlevel/filter.py``."""
from __future__ import annotations

from toolkit.ascendc.highlevel import filter as FI

from .spec import Family, Field, StructDef, api, form, local, scalar, sref, struct, tded, thidden, tnamed

FAMILY = Family("hl.filter", "AscendC", "hl_filter.h", FI, doc_root="高阶API/数据过滤")

_TMP_NOTE = "the size of the emulated kernel's temporary buffer (the vendor's formula is not published)"
STRUCTS = [
    StructDef("AscendC::DropOutShapeInfo", FI.DropOutShapeInfo,
              tuple(Field(n, "uint32_t", "0") for n in ("firstAxis", "srcLastAxis", "maskLastAxis")),
              doc="高阶API/数据过滤/DropOut.md"),
]

_DT = (*tded("T"), thidden("isInitBitMode", "bool", "false"), tnamed("dropOutMode", "uint32_t", "0"))
_HEAD = (local("dstLocal"), local("srcLocal"), local("maskLocal", "uint8_t"))
_TAIL = (scalar("keepProb", "const float"), struct("info", "DropOutShapeInfo"))
_SHAPE = struct("srcShape", "AscendC::TensorShape")
_DQ = (_SHAPE, scalar("typeSize", "const uint32_t"), scalar("isReuseSource", "const bool"))
_SQ = (struct("src0Shape", "AscendC::TensorShape"), struct("src1Shape", "AscendC::TensorShape"),
       scalar("srcTypeSize", "const uint32_t"), struct("maskShape", "AscendC::TensorShape"),
       scalar("maskTypeSize", "const uint32_t"), scalar("isReuseMask", "const bool"))
_MM = (sref("maxValue", "uint32_t"), sref("minValue", "uint32_t"))
_SEL = "GetSelectMaxMinTmpSize.md"
_DEPRECATED = "deprecated by the page (the GetSelect* queries): the same sizes"

APIS = [
    api(FAMILY, "DropOut", FI.DropOut, form(*_DT, *_HEAD, _TAIL[0], _TAIL[1]),
        form(*_DT, *_HEAD, local("sharedTmpBuffer", "uint8_t"), *_TAIL),
        dtypes=("half", "bfloat16_t", "float"), doc="DropOut.md",
        note="the page's steps: GatherMask of dirty mask rows, Compares / Select with 0, Muls by 1 / keepProb; "
             "bit mode: bit i of byte j is element 8j + i (assumed: the basic Select's order)"),
    api(FAMILY, "GetDropOutMaxTmpSize", FI.GetDropOutMaxTmpSize, form(*_DQ, ret="uint32_t"),
        doc="GetDropOutMaxMinTmpSize.md", note=_TMP_NOTE),
    api(FAMILY, "GetDropOutMinTmpSize", FI.GetDropOutMinTmpSize, form(*_DQ, ret="uint32_t"),
        doc="GetDropOutMaxMinTmpSize.md", note=_TMP_NOTE),
    api(FAMILY, "GetDropOutMaxMinTmpSize", FI.GetDropOutMaxMinTmpSize, form(*_DQ, *_MM),
        doc="GetDropOutMaxMinTmpSize.md", note=_TMP_NOTE),
    api(FAMILY, "GetSelectMaxTmpSize", FI.GetSelectMaxTmpSize, form(*_SQ, ret="uint32_t"), doc=_SEL, note=_TMP_NOTE),
    api(FAMILY, "GetSelectMinTmpSize", FI.GetSelectMinTmpSize, form(*_SQ, ret="uint32_t"), doc=_SEL, note=_TMP_NOTE),
    api(FAMILY, "GetSelectMaxMinTmpSize", FI.GetSelectMaxMinTmpSize, form(*_SQ, *_MM), doc=_SEL, note=_TMP_NOTE),
    api(FAMILY, "GetSelectWithBytesMaskMaxTmpSize", FI.GetSelectWithBytesMaskMaxTmpSize, form(*_SQ, ret="uint32_t"),
        doc=_SEL, note=_DEPRECATED),
    api(FAMILY, "GetSelectWithBytesMaskMinTmpSize", FI.GetSelectWithBytesMaskMinTmpSize, form(*_SQ, ret="uint32_t"),
        doc=_SEL, note=_DEPRECATED),
    api(FAMILY, "GetSelectWithBytesMaskMaxMinTmpSize", FI.GetSelectWithBytesMaskMaxMinTmpSize, form(*_SQ, *_MM),
        doc=_SEL, note=_DEPRECATED),
]
