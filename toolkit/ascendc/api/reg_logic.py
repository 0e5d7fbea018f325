"""``AscendC::Reg`` logic: And / Or / Xor / Not (RegTensor forms, and the MaskReg forms of the same names)
and the shifts ShiftLeft / ShiftRight (by a register) / ShiftLefts / ShiftRights (by a scalar)."""
from __future__ import annotations

from toolkit.ascendc import regbase as Reg

from .spec import Family, api, form, mask, reg, scalar, tded, tenum, tnotreg, ttype

FAMILY = Family("reg.logic", "AscendC::Reg", "reg_logic.h", Reg, doc_root="基础API/Reg矢量计算")

_T = ttype()
_MODE = tenum("mode", "MaskMergeMode", "ZEROING")
_INTS = ("int8_t", "uint8_t", "int16_t", "uint16_t", "int32_t", "uint32_t", "int64_t", "uint64_t")
_MERGE = "MERGING runs as the ZEROING op and a VSEL; the MaskReg form acts on predicate bits (PAND/POR/PXOR/PNOT)"


def _bitwise(short: str, opcode: str):
    return api(FAMILY, short, getattr(Reg, short),
               form(_T, _MODE, tded("R"), reg("dstReg"), reg("srcReg0"), reg("srcReg1"), mask()),
               form(mask("dst"), mask("src0"), mask("src1"), mask()),
               opcodes=(opcode, "RV_VSEL", "RV_PLOGIC"), dtypes=("bool",) + _INTS, doc=f"逻辑计算/{short}.md",
               note=_MERGE)


def _shift(short: str, opcode: str, by_scalar: bool):
    if by_scalar:
        shape = form(_T, ttype("U"), _MODE, tded("R"), tnotreg("S"), reg("dstReg"), reg("srcReg"),
                     scalar("scalarValue", "S", "int16_t"), mask())
    else:
        shape = form(_T, ttype("U"), _MODE, tded("R", "V"), reg("dstReg"), reg("srcReg0"), reg("srcReg1", "V"), mask())
    return api(FAMILY, short, getattr(Reg, short), shape, opcodes=(opcode, "RV_VSEL"), dtypes=_INTS,
               doc=f"逻辑计算/{short}.md", note="unsigned: logical, signed: arithmetic (the sign bit stays)")


APIS = [
    _bitwise("And", "RV_VAND"),
    _bitwise("Or", "RV_VOR"),
    _bitwise("Xor", "RV_VXOR"),
    api(FAMILY, "Not", Reg.Not,
        form(_T, _MODE, tded("R"), reg("dstReg"), reg("srcReg"), mask()),
        form(mask("dst"), mask("src"), mask()),
        opcodes=("RV_VNOT", "RV_VSEL", "RV_PLOGIC"),
        dtypes=("int8_t", "uint8_t", "int16_t", "uint16_t", "half", "int32_t", "uint32_t", "float", "int64_t",
                "uint64_t"), doc="逻辑计算/Not.md", note=_MERGE),
    _shift("ShiftLeft", "RV_VSHL", False),
    _shift("ShiftRight", "RV_VSHR", False),
    _shift("ShiftLefts", "RV_VSHLS", True),
    _shift("ShiftRights", "RV_VSHRS", True),
]
