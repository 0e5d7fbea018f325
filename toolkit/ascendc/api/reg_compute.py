"""``AscendC::Reg`` compute: element-wise arithmetic (with the carry forms and Mull), Duplicate, Select,
compares, Arange, Gather, reductions, Cast and Truncate, LocalMemBar, ClearSpr."""
from __future__ import annotations

from toolkit.ascendc import regbase as Reg

from .spec import (
    Family,
    api,
    cmask,
    form,
    mask,
    reg,
    scalar,
    tded,
    telem,
    tenum,
    thidden,
    tmode,
    tnotreg,
    ttrait,
    ttype,
    ub,
)

FAMILY = Family("reg.compute", "AscendC::Reg", "reg_compute.h", Reg, doc_root="基础API/Reg矢量计算")

_T = ttype()
_MODE = tenum("mode", "MaskMergeMode", "ZEROING")
_ELEM = "elem_t<T, R>"
_F = ("half", "float")
_B64 = ("int64_t", "uint64_t")
_INT_F = ("int8_t", "uint8_t", "int16_t", "uint16_t", "half", "bfloat16_t", "int32_t", "uint32_t", "float")
_ALL = _INT_F + _B64
_NO8 = ("int16_t", "uint16_t", "half", "bfloat16_t", "int32_t", "uint32_t", "float") + _B64
_I32 = ("int32_t", "uint32_t")
_BINARY = form(_T, _MODE, tded("R"), reg("dstReg"), reg("srcReg0"), reg("srcReg1"), mask())
_AUTO_BINARY = form(_T, tmode(), tded("R"), reg("dstReg"), reg("srcReg0"), reg("srcReg1"), mask())
_SCALAR = form(_T, thidden("U"), _MODE, tded("R"), tnotreg("S"), reg("dstReg"), reg("srcReg"),
               scalar("scalarValue", "S", _ELEM), mask())
_UNARY = form(_T, _MODE, tded("R"), reg("dstReg"), reg("srcReg"), mask())
_AUTO_UNARY = form(_T, tmode(), tded("R"), reg("dstReg"), reg("srcReg"), mask())
_REDUCE = form(_T, _MODE, tded("R"), reg("dstReg"), reg("srcReg"), mask())
_CARRY = form(_T, tded("R"), mask("carry"), reg("dstReg"), reg("srcReg0"), reg("srcReg1"), mask())
_CARRY_IN = form(_T, tded("R"), mask("carry"), reg("dstReg"), reg("srcReg0"), reg("srcReg1"), mask("carrySrc"),
                 mask())
_MERGE_NOTE = "MERGING mode runs as the ZEROING op and a VSEL"


def _op(short: str, shape, opcode: str, page: str, dtypes: tuple = _INT_F, note: str = "", more: tuple = (),
        extra_ops: tuple = ()):
    return api(FAMILY, short, getattr(Reg, short), shape, *more, opcodes=(opcode, "RV_VSEL") + extra_ops,
               dtypes=dtypes, doc=page, note=note or _MERGE_NOTE)


_ARITH = "基础算术"
_LOG_OPS = ("RV_VCVT_F2F", "RV_VLN", "RV_VMULS")
APIS = [
    _op("Add", _BINARY, "RV_VADD", f"{_ARITH}/Add.md", _ALL, more=(_CARRY,), extra_ops=("RV_VADDC",),
        note=_MERGE_NOTE + "; the carry form (int32/uint32) records VADDC"),
    _op("Sub", _BINARY, "RV_VSUB", f"{_ARITH}/Sub.md", _ALL, more=(_CARRY,), extra_ops=("RV_VSUBC",),
        note=_MERGE_NOTE + "; the carry form (int32/uint32) records VSUBC"),
    _op("Mul", _BINARY, "RV_VMUL", f"{_ARITH}/Mul.md", _NO8),
    _op("Div", _AUTO_BINARY, "RV_VDIV", f"{_ARITH}/Div.md", ("int16_t", "uint16_t", "half", "int32_t", "uint32_t",
                                                               "float") + _B64,
        note=_MERGE_NOTE + "; a DivSpecificMode* mode sends its merge mode (every algorithm: correctly rounded)"),
    _op("Max", _BINARY, "RV_VMAX", f"{_ARITH}/Max.md", _ALL),
    _op("Min", _BINARY, "RV_VMIN", f"{_ARITH}/Min.md", _ALL),
    _op("Mula", _BINARY, "RV_VMULA", "复合计算/MulAddDst.md", _F,
        note="dst = src0 * src1 + dst: the older name of MulAddDst (rounding: setting mula_fused)"),
    _op("Adds", _SCALAR, "RV_VADDS", f"{_ARITH}/Adds.md", _ALL),
    _op("Muls", _SCALAR, "RV_VMULS", f"{_ARITH}/Muls.md", ("int16_t", "uint16_t", "half", "int32_t", "uint32_t",
                                                          "float") + _B64),
    _op("Maxs", _SCALAR, "RV_VMAXS", f"{_ARITH}/Maxs.md", _ALL),
    _op("Mins", _SCALAR, "RV_VMINS", f"{_ARITH}/Mins.md", _ALL),
    _op("Exp", _AUTO_UNARY, "RV_VEXP", f"{_ARITH}/Exp.md", _F),
    _op("Sqrt", _AUTO_UNARY, "RV_VSQRT", f"{_ARITH}/Sqrt.md", _F),
    _op("Abs", _UNARY, "RV_VABS", f"{_ARITH}/Abs.md", ("int8_t", "int16_t", "half", "int32_t", "float", "int64_t")),
    _op("Ln", _AUTO_UNARY, "RV_VLN", f"{_ARITH}/Ln.md", _F),
    _op("Log", _AUTO_UNARY, "RV_VLN", f"{_ARITH}/Log.md", _F, note="the C name of Ln (the same VLN)"),
    _op("Log2", _AUTO_UNARY, "RV_VMULS", f"{_ARITH}/Log2.md", _F, extra_ops=_LOG_OPS,
        note="ln(x) * 1/ln 2 (VLN + VMULS; half widened to float and back)"),
    _op("Log10", _AUTO_UNARY, "RV_VMULS", f"{_ARITH}/Log10.md", _F, extra_ops=_LOG_OPS,
        note="ln(x) * 1/ln 10 (VLN + VMULS; half widened to float and back)"),
    _op("Neg", _UNARY, "RV_VNEG", f"{_ARITH}/Neg.md", ("int8_t", "int16_t", "half", "int32_t", "float", "int64_t")),
    _op("Relu", _UNARY, "RV_VRELU", f"{_ARITH}/Relu.md", ("half", "int32_t", "float", "int64_t")),
    _op("LeakyRelu", _SCALAR, "RV_VLRELU", f"{_ARITH}/LeakyRelu.md", _F),
    _op("Prelu", _BINARY, "RV_VPRELU", f"{_ARITH}/Prelu.md", _F),
    api(FAMILY, "AddC", Reg.AddC, _CARRY_IN, opcodes=("RV_VADDC",), dtypes=_I32, doc=f"{_ARITH}/AddC.md"),
    api(FAMILY, "SubC", Reg.SubC, _CARRY_IN, opcodes=("RV_VSUBC",), dtypes=_I32, doc=f"{_ARITH}/SubC.md"),
    api(FAMILY, "Mull", Reg.Mull,
        form(_T, tded("R"), reg("dstReg0"), reg("dstReg1"), reg("srcReg0"), reg("srcReg1"), mask()),
        opcodes=("RV_VMULL",), dtypes=_I32, doc=f"{_ARITH}/Mull.md"),
    api(FAMILY, "Duplicate", Reg.Duplicate,
        form(_T, _MODE, tded("R"), tnotreg("S"), reg("dstReg"), scalar("scalarValue", "S", _ELEM)),
        form(_T, _MODE, tded("R"), tnotreg("S"), reg("dstReg"), scalar("scalarValue", "S", _ELEM), mask()),
        form(_T, tenum("pos", "HighLowPart", "LOWEST"), _MODE, tded("R"), reg("dstReg"), reg("srcReg"), mask()),
        opcodes=("RV_VDUP", "RV_PSET"), dtypes=("bool",) + _ALL, doc="数据填充/Duplicate.md",
        note="the unmasked form sets an implicit all-true mask (machine setting unmasked_implicit_pset)"),
    api(FAMILY, "Select", Reg.Select,
        form(_T, tded("R"), reg("dstReg"), reg("srcReg0"), reg("srcReg1"), mask()),
        form(mask("dst"), mask("src0"), mask("src1"), mask(), doc="基础API/Reg矢量计算/MaskReg计算/Select.md"),
        opcodes=("RV_VSEL", "RV_PSEL"), dtypes=("bool",) + _ALL, doc="比较与选择/Select.md",
        note="the MaskReg form selects predicate bits (PSEL)"),
    api(FAMILY, "Compare", Reg.Compare,
        form(_T, tenum("mode", "CMPMODE", "EQ"), tded("R"), mask("dst"), reg("srcReg0"), reg("srcReg1"), mask()),
        opcodes=("RV_VCMP",), dtypes=_ALL, doc="比较与选择/Compare.md"),
    api(FAMILY, "CompareScalar", Reg.CompareScalar,
        form(_T, tenum("mode", "CMPMODE", "EQ"), tded("R"), tnotreg("S"), mask("dst"), reg("srcReg"),
             scalar("scalarValue", "S", _ELEM), mask()),
        opcodes=("RV_VCMP",), dtypes=_ALL, doc="比较与选择/Compares.md", note="VCMPS, timed as VCMP"),
    api(FAMILY, "Compares", None,
        form(_T, tenum("mode", "CMPMODE", "EQ"), tded("R"), tnotreg("S"), mask("dst"), reg("srcReg"),
             scalar("scalarValue", "S", _ELEM), mask(), via="AscendC::Reg::CompareScalar"),
        doc="比较与选择/Compares.md", note="the documented name of CompareScalar"),
    api(FAMILY, "Arange", Reg.Arange,
        form(_T, tenum("order", "IndexOrder", "INCREASE_ORDER"), tded("R"), tnotreg("S"), reg("dstReg"),
             scalar("scalarValue", "S", _ELEM)),
        opcodes=("RV_VCI",), dtypes=("int8_t", "int16_t", "half", "int32_t", "float", "int64_t"),
        doc="索引操作/Arange.md"),
    api(FAMILY, "Gather", Reg.Gather,
        form(_T, ttype("U"), tded("S", "V"), reg("dstReg", "S"), reg("srcReg", "S"), reg("indexReg", "V")),
        form(_T, tded("R", "RI"), reg("dstReg"), reg("srcReg"), reg("indexReg", "RI"), mask(),
             doc="基础API/Reg矢量计算/离散操作/Gather.md"),
        form(ttype("T0"), ttype("T1"), ttype("T2"), tded("T3", "T4"), reg("dstReg", "T3"), ub("baseAddr", "T1*"),
             reg("index", "T4"), mask(), doc="基础API/Reg矢量计算/Reg数据搬入/离散搬入（Gather）.md"),
        opcodes=("RV_VSELR", "RV_VGATHER"), dtypes=_ALL, doc="离散操作/Gather.md",
        note="register form (documented without a mask; the masked one zeroes inactive lanes); UB form"),
    api(FAMILY, "Reduce", Reg.Reduce,
        form(tenum("type", "ReduceType", "SUM"), _T, ttype("U"), _MODE, tded("S", "V"), reg("dstReg", "S"),
             reg("srcReg", "V"), cmask()),
        opcodes=("RV_VCADD", "RV_VCMAX", "RV_VCMIN"), dtypes=("int16_t", "uint16_t", "half", "int32_t", "uint32_t",
                                                              "float") + _B64,
        doc="归约计算/Reduce.md"),
    api(FAMILY, "ReduceSum", Reg.ReduceSum, _REDUCE, opcodes=("RV_VCADD",), dtypes=_INT_F, doc="归约计算/Reduce.md",
        note="Reduce<ReduceType::SUM>"),
    api(FAMILY, "ReduceMax", Reg.ReduceMax, _REDUCE, opcodes=("RV_VCMAX",), dtypes=_INT_F, doc="归约计算/Reduce.md",
        note="Reduce<ReduceType::MAX>"),
    api(FAMILY, "ReduceMin", Reg.ReduceMin, _REDUCE, opcodes=("RV_VCMIN",), dtypes=_INT_F, doc="归约计算/Reduce.md",
        note="Reduce<ReduceType::MIN>"),
    api(FAMILY, "ReduceDataBlock", Reg.ReduceDataBlock,
        form(tenum("type", "ReduceType", "SUM"), _T, _MODE, tded("R"), reg("dstReg"), reg("srcReg"), cmask()),
        opcodes=("RV_VCGADD", "RV_VCGMAX", "RV_VCGMIN"),
        dtypes=("int16_t", "uint16_t", "half", "int32_t", "uint32_t", "float"), doc="归约计算/ReduceDataBlock.md"),
    api(FAMILY, "PairReduceElem", Reg.PairReduceElem,
        form(tenum("type", "PairReduce", "SUM"), _T, _MODE, tded("R"), reg("dstReg"), reg("srcReg"), cmask()),
        opcodes=("RV_VCPADD",), dtypes=_F, doc="归约计算/PairReduceElem.md"),
    api(FAMILY, "Cast", Reg.Cast,
        form(telem("D", "RD"), telem("S", "RS"), ttrait(), tded("RD", "RS"), reg("dstReg", "RD"), reg("srcReg", "RS"),
             mask()),
        opcodes=("RV_VCVT_F2F", "RV_VCVT_F2I", "RV_VCVT_I2F", "RV_VCVT_I2I", "RV_VSEL"),
        dtypes=("int8_t", "uint8_t", "int16_t", "uint16_t", "half", "bfloat16_t", "int32_t", "uint32_t", "float",
                "int64_t", "fp8_e4m3fn_t", "fp8_e5m2_t", "fp8_e8m0_t", "hifloat8_t", "fp4x2_e2m1_t", "fp4x2_e1m2_t",
                "int4x2_t"), doc="类型转换/Cast.md",
        note="every documented pair of these types, layouts, rounding and saturation modes; the 8- / 4-bit types "
             "(regbase/cast_low.py): 4-bit as byte pairs (element order: packed4_order), hifloat8 HYBRID by the "
             "page's bit rule"),
    api(FAMILY, "Truncate", Reg.Truncate,
        form(_T, tenum("roundMode", "RoundMode", "CAST_NONE"), _MODE, tded("R"), reg("dstReg"), reg("srcReg"), mask()),
        opcodes=("RV_VTRC", "RV_VSEL"), dtypes=("half", "bfloat16_t", "float"), doc="类型转换/Truncate.md"),
    api(FAMILY, "LocalMemBar", Reg.LocalMemBar,
        form(tenum("src", "MemType", "VEC_STORE"), tenum("dst", "MemType", "VEC_LOAD")),
        opcodes=("RV_MEMBAR",), doc="同步控制/LocalMemBar.md"),
    api(FAMILY, "ClearSpr", Reg.ClearSpr, form(tenum("spr", "SpecialPurposeReg")), opcodes=("RV_SPRCLR",),
        doc="系统变量访问/ClearSpr.md", note="AR = 0 (the offset of the AR-form StoreUnAlign)"),
]
