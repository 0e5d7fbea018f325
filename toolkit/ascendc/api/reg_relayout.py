"""``AscendC::Reg`` data relayout: Interleave / DeInterleave, Pack / UnPack (RegTensor and MaskReg forms),
Squeeze / Unsqueeze, Histograms, and the MaskReg producers MoveMask and MaskGenWithRegTensor."""
from __future__ import annotations

from toolkit.ascendc import regbase as Reg

from .spec import Family, api, form, mask, reg, tded, tenum, ttype, tvalue

FAMILY = Family("reg.relayout", "AscendC::Reg", "reg_relayout.h", Reg, doc_root="基础API/Reg矢量计算")

_T = ttype()
_PART = tenum("part", "HighLowPart", "LOWEST")
_MASKS = "基础API/Reg矢量计算/MaskReg计算"
_ALL = ("bool", "int8_t", "uint8_t", "int16_t", "uint16_t", "half", "bfloat16_t", "int32_t", "uint32_t", "float",
        "int64_t", "uint64_t")


def _pair(short: str, opcode: str, mask_opcode: str):
    return api(FAMILY, short, getattr(Reg, short),
               form(_T, tded("R"), reg("dstReg0"), reg("dstReg1"), reg("srcReg0"), reg("srcReg1")),
               form(ttype("T", None), mask("dst0"), mask("dst1"), mask("src0"), mask("src1"),
                    doc=f"{_MASKS}/{short}.md"),
               opcodes=(opcode, mask_opcode), dtypes=_ALL, doc=f"数据重排/{short}.md",
               note="MaskReg form: groups of sizeof(T) predicate bits")


def _pack(short: str, opcode: str, mask_opcode: str, dtypes: tuple):
    return api(FAMILY, short, getattr(Reg, short),
               form(_T, ttype("U"), _PART, tded("S", "V"), reg("dstReg", "S"), reg("srcReg", "V")),
               form(_PART, mask("dst"), mask("src"), doc=f"{_MASKS}/{short}.md"),
               opcodes=(opcode, mask_opcode), dtypes=dtypes, doc=f"数据压缩/{short}.md",
               note="the other half of dst is 0 (assumed)" if short == "Pack" else "")


APIS = [
    _pair("Interleave", "RV_VINTLV", "RV_PINTLV"),
    _pair("DeInterleave", "RV_VDINTLV", "RV_PDINTLV"),
    _pack("Pack", "RV_VPACK", "RV_PPACK", ("uint8_t", "int16_t", "uint16_t", "int32_t", "uint32_t", "int64_t",
                                           "uint64_t")),
    _pack("UnPack", "RV_VUNPACK", "RV_PUNPACK", ("int8_t", "uint8_t", "int16_t", "uint16_t", "int32_t",
                                                 "uint32_t", "int64_t", "uint64_t")),
    api(FAMILY, "Squeeze", Reg.Squeeze,
        form(_T, tenum("store", "GatherMaskMode", "NO_STORE_REG"), tded("R"), reg("dstReg"), reg("srcReg"), mask()),
        opcodes=("RV_VSQZ",), dtypes=("int8_t", "uint8_t", "int16_t", "uint16_t", "half", "int32_t", "uint32_t",
                                      "float"), doc="比较与选择/Squeeze.md",
        note="STORE_REG leaves the kept bytes for the AR-form StoreUnAlign"),
    api(FAMILY, "Unsqueeze", Reg.Unsqueeze, form(_T, tded("R"), reg("dstReg"), mask()), opcodes=("RV_VUSQZ",),
        dtypes=("int8_t", "uint8_t", "int16_t", "uint16_t", "int32_t", "uint32_t"), doc="数据压缩/Unsqueeze.md"),
    api(FAMILY, "Histograms", Reg.Histograms,
        form(_T, ttype("U"), tenum("mode", "HistogramsBinType"), tenum("type", "HistogramsType"), tded("S", "V"),
             reg("dstReg", "V"), reg("srcReg", "S"), mask()),
        opcodes=("RV_VHIST",), dtypes=("uint8_t", "uint16_t"), doc="直方图计算/Histograms.md",
        note="ACCUMULATE counts from value 0 (setting histogram_accumulate)"),
    api(FAMILY, "MoveMask", Reg.MoveMask, form(ttype("T", None), ret="MaskReg"), opcodes=("RV_PMOVMSK",),
        dtypes=("int16_t", "uint16_t", "half", "bfloat16_t", "int32_t", "uint32_t", "float"),
        doc=f"{_MASKS}/MoveMask.md", note="reads the core's SetVectorMask state (all ones when none was set)"),
    api(FAMILY, "MaskGenWithRegTensor", Reg.MaskGenWithRegTensor,
        form(_T, tvalue("offset", "int16_t"), tded("U"), mask("dst"), reg("srcReg", "U")),
        opcodes=("RV_VMOVVP",), dtypes=("int16_t", "uint16_t", "half", "bfloat16_t", "int32_t", "uint32_t", "float"),
        doc="Reg数据搬入/MaskReg搬入（MaskGenWithRegTensor）.md"),
]
