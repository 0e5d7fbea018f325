"""``AscendC::Reg`` masks and address registers: CreateMask, UpdateMask, the MaskReg logic ops,
Move, CreateAddrReg."""
from __future__ import annotations

from toolkit.ascendc import regbase as Reg

from .spec import Family, api, cmask, form, mask, reg, scalar, sref, tded, tenum, thidden, ttype

FAMILY = Family("reg.mask", "AscendC::Reg", "reg_mask.h", Reg, doc_root="基础API/Reg矢量计算")

_TRAIT = thidden("regTrait", "const RegTrait&", "RegTraitNumOne")
_MASK_DOC = "寄存器数据类型/MaskReg.md"


def _logic(short: str, page: str, unary: bool = False):
    srcs = (mask("src"),) if unary else (mask("src0"), mask("src1"))
    return api(FAMILY, short, getattr(Reg, short), form(mask("dst"), *srcs, mask()), opcodes=("RV_PLOGIC",),
               doc=f"逻辑计算/{page}.md", note=f"the MaskReg form of Reg::{page}")


APIS = [
    api(FAMILY, "CreateMask", Reg.CreateMask,
        form(ttype("T", None), tenum("mode", "MaskPattern", "ALL"), _TRAIT, ret="MaskReg"),
        opcodes=("RV_PSET",), doc=_MASK_DOC),
    api(FAMILY, "UpdateMask", Reg.UpdateMask,
        form(ttype("T", None), _TRAIT, sref("scalarValue", "uint32_t"), ret="MaskReg"),
        opcodes=("RV_PLT",), doc=_MASK_DOC),
    _logic("MaskAnd", "And"),
    _logic("MaskOr", "Or"),
    _logic("MaskXor", "Xor"),
    _logic("MaskNot", "Not", unary=True),
    api(FAMILY, "Move", Reg.Move, form(mask("dst"), mask("src"), mask()), form(mask("dst"), mask("src")),
        form(ttype(), tenum("mode", "MaskMergeMode", "MERGING"), tded("U"), reg("dstReg", "U"), reg("srcReg", "U"),
             cmask(), doc="基础API/Reg矢量计算/Reg数据搬入/Move.md"),
        form(ttype(), tded("U"), reg("dstReg", "U"), reg("srcReg", "U"), doc="基础API/Reg矢量计算/Reg数据搬入/Move.md"),
        opcodes=("RV_PMOV", "RV_VMOV"), doc="MaskReg计算/Move.md",
        dtypes=("bool", "int8_t", "uint8_t", "int16_t", "uint16_t", "half", "bfloat16_t", "int32_t", "uint32_t",
                "float", "int64_t", "uint64_t"),
        note="MaskReg forms (PMOV: 0 outside the mask) and RegTensor forms (VMOV: MERGING only)"),
    api(FAMILY, "CreateAddrReg", Reg.CreateAddrReg,
        *(form(ttype("T", None), *[scalar(f"{n}{k}", t) for k in range(dims) for n, t in
                                   (("index", "uint16_t"), ("stride", "uint32_t"))], ret="AddrReg")
          for dims in (1, 2, 3, 4)),
        doc="寄存器数据类型/AddrReg.md"),
]
