"""``AscendC::Reg`` fused ops (复合计算): AbsSub, Axpy, ExpSub, MulAddDst, MulDstAdd, MulsCast."""
from __future__ import annotations

from toolkit.ascendc import regbase as Reg

from .spec import Family, api, form, mask, reg, scalar, tded, telem, tenum, tnotreg, ttype

FAMILY = Family("reg.fused", "AscendC::Reg", "reg_fused.h", Reg, doc_root="基础API/Reg矢量计算/复合计算")

_T = ttype()
_MODE = tenum("mode", "MaskMergeMode", "ZEROING")
_BINARY = form(_T, _MODE, tded("R"), reg("dstReg"), reg("srcReg0"), reg("srcReg1"), mask())
_LAYOUT = tenum("layout", "RegLayout", "ZERO")

APIS = [
    api(FAMILY, "AbsSub", Reg.AbsSub, _BINARY, opcodes=("RV_VABSDIF", "RV_VSEL"),
        dtypes=("half", "float", "int64_t"), doc="AbsSub.md"),
    api(FAMILY, "Axpy", Reg.Axpy,
        form(_T, ttype("U"), _MODE, tded("R"), tnotreg("S"), reg("dstReg"), reg("srcReg"),
             scalar("scalarValue", "S", "elem_t<T, R>"), mask()),
        opcodes=("RV_VAXPY", "RV_VSEL"), dtypes=("half", "float", "int64_t", "uint64_t"), doc="Axpy.md",
        note="dst = a * src + dst (rounding: setting axpy_fused)"),
    api(FAMILY, "ExpSub", Reg.ExpSub,
        form(telem("T", "S"), telem("U", "V"), _LAYOUT, _MODE, tded("S", "V"), reg("dstReg", "S"), reg("srcReg0", "V"),
             reg("srcReg1", "V"), mask()),
        opcodes=("RV_VEXPSUB", "RV_VSEL"), dtypes=("half", "float"), doc="ExpSub.md",
        note="half sources: float lane j from half element 2j + layout"),
    api(FAMILY, "MulAddDst", Reg.MulAddDst, _BINARY, opcodes=("RV_VMULA", "RV_VSEL"),
        dtypes=("int16_t", "uint16_t", "half", "bfloat16_t", "int32_t", "uint32_t", "float", "int64_t", "uint64_t"),
        doc="MulAddDst.md", note="dst = src0 * src1 + dst, one rounding"),
    api(FAMILY, "MulDstAdd", Reg.MulDstAdd, _BINARY, opcodes=("RV_VMADD", "RV_VSEL"),
        dtypes=("half", "bfloat16_t", "float"), doc="MulDstAdd.md", note="dst = dst * src0 + src1, one rounding"),
    api(FAMILY, "MulsCast", Reg.MulsCast,
        form(telem("T0", "T3"), telem("T1", "T4"), ttype("T2"), _LAYOUT, tded("T3", "T4"), tnotreg("S"),
             reg("dstReg", "T3"), reg("srcReg", "T4"), scalar("scalarValue", "S", "float"), mask()),
        opcodes=("RV_VMULSCVT",), dtypes=("float", "half"), doc="MulsCast.md",
        note="float * scalar rounded once to half with CAST_ROUND, at half slot 2j + layout"),
]
