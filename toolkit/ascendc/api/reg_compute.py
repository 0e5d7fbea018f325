"""``AscendC::Reg`` compute: element-wise arithmetic, Duplicate, Select, compares, Arange, Gather, reductions,
Cast, LocalMemBar."""
from __future__ import annotations

from toolkit.ascendc import regbase as Reg

from .spec import (
    Family,
    api,
    form,
    mask,
    reg,
    scalar,
    tded,
    telem,
    tenum,
    thidden,
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
_INT_F = ("int8_t", "uint8_t", "int16_t", "uint16_t", "half", "bfloat16_t", "int32_t", "uint32_t", "float")
_BINARY = form(_T, _MODE, tded("R"), reg("dstReg"), reg("srcReg0"), reg("srcReg1"), mask())
_SCALAR = form(_T, thidden("U"), _MODE, tded("R"), tnotreg("S"), reg("dstReg"), reg("srcReg"),
               scalar("scalarValue", "S", _ELEM), mask())
_UNARY = form(_T, _MODE, tded("R"), reg("dstReg"), reg("srcReg"), mask())
_REDUCE = form(_T, _MODE, tded("R"), reg("dstReg"), reg("srcReg"), mask())


def _op(short: str, shape, opcode: str, page: str, dtypes: tuple = _INT_F, note: str = ""):
    return api(FAMILY, short, getattr(Reg, short), shape, opcodes=(opcode, "RV_VSEL"), dtypes=dtypes,
               doc=page, note=note or "MERGING mode runs as the ZEROING op and a VSEL")


_ARITH = "基础算术"
APIS = [
    _op("Add", _BINARY, "RV_VADD", f"{_ARITH}/Add.md"),
    _op("Sub", _BINARY, "RV_VSUB", f"{_ARITH}/Sub.md"),
    _op("Mul", _BINARY, "RV_VMUL", f"{_ARITH}/Mul.md"),
    _op("Div", _BINARY, "RV_VDIV", f"{_ARITH}/Div.md", ("int16_t", "uint16_t", "half", "int32_t", "uint32_t", "float")),
    _op("Max", _BINARY, "RV_VMAX", f"{_ARITH}/Max.md"),
    _op("Min", _BINARY, "RV_VMIN", f"{_ARITH}/Min.md"),
    _op("Mula", _BINARY, "RV_VMULA", "复合计算/MulAddDst.md", _F,
        note="dst = src0 * src1 + dst: the older name of MulAddDst"),
    _op("Adds", _SCALAR, "RV_VADDS", f"{_ARITH}/Adds.md"),
    _op("Muls", _SCALAR, "RV_VMULS", f"{_ARITH}/Muls.md"),
    _op("Maxs", _SCALAR, "RV_VMAXS", f"{_ARITH}/Maxs.md"),
    _op("Mins", _SCALAR, "RV_VMINS", f"{_ARITH}/Mins.md"),
    _op("Exp", _UNARY, "RV_VEXP", f"{_ARITH}/Exp.md", _F),
    _op("Sqrt", _UNARY, "RV_VSQRT", f"{_ARITH}/Sqrt.md", _F),
    _op("Abs", _UNARY, "RV_VABS", f"{_ARITH}/Abs.md", ("int8_t", "int16_t", "half", "int32_t", "float")),
    _op("Ln", _UNARY, "RV_VLN", f"{_ARITH}/Ln.md", _F),
    _op("Relu", _UNARY, "RV_VRELU", f"{_ARITH}/Relu.md", ("half", "int32_t", "float")),
    api(FAMILY, "Duplicate", Reg.Duplicate,
        form(_T, _MODE, tded("R"), tnotreg("S"), reg("dstReg"), scalar("scalarValue", "S", _ELEM)),
        form(_T, _MODE, tded("R"), tnotreg("S"), reg("dstReg"), scalar("scalarValue", "S", _ELEM), mask()),
        form(_T, tenum("pos", "HighLowPart", "LOWEST"), _MODE, tded("R"), reg("dstReg"), reg("srcReg"), mask()),
        opcodes=("RV_VDUP", "RV_PSET"), dtypes=_INT_F, doc="数据填充/Duplicate.md",
        note="the unmasked form sets an implicit all-true mask (machine setting unmasked_implicit_pset)"),
    api(FAMILY, "Select", Reg.Select,
        form(_T, tded("R"), reg("dstReg"), reg("srcReg0"), reg("srcReg1"), mask()),
        opcodes=("RV_VSEL",), dtypes=_INT_F, doc="比较与选择/Select.md"),
    api(FAMILY, "Compare", Reg.Compare,
        form(_T, tenum("mode", "CMPMODE", "EQ"), tded("R"), mask("dst"), reg("srcReg0"), reg("srcReg1"), mask()),
        opcodes=("RV_VCMP",), dtypes=_INT_F, doc="比较与选择/Compare.md"),
    api(FAMILY, "CompareScalar", Reg.CompareScalar,
        form(_T, tenum("mode", "CMPMODE", "EQ"), tded("R"), tnotreg("S"), mask("dst"), reg("srcReg"),
             scalar("scalarValue", "S", _ELEM), mask()),
        opcodes=("RV_VCMP",), dtypes=_INT_F, doc="比较与选择/Compares.md", note="VCMPS, timed as VCMP"),
    api(FAMILY, "Compares", None,
        form(_T, tenum("mode", "CMPMODE", "EQ"), tded("R"), tnotreg("S"), mask("dst"), reg("srcReg"),
             scalar("scalarValue", "S", _ELEM), mask(), via="AscendC::Reg::CompareScalar"),
        doc="比较与选择/Compares.md", note="the documented name of CompareScalar"),
    api(FAMILY, "Arange", Reg.Arange,
        form(_T, tenum("order", "IndexOrder", "INCREASE_ORDER"), tded("R"), tnotreg("S"), reg("dstReg"),
             scalar("scalarValue", "S", _ELEM)),
        opcodes=("RV_VCI",), dtypes=("int8_t", "int16_t", "half", "int32_t", "float"), doc="索引操作/Arange.md"),
    api(FAMILY, "Gather", Reg.Gather,
        form(_T, tded("R", "RI"), reg("dstReg"), reg("srcReg"), reg("indexReg", "RI"), mask()),
        form(_T, tded("R", "U", "RI"), reg("dstReg"), ub("srcAddr"), reg("indexReg", "RI"), mask(),
             doc="基础API/Reg矢量计算/Reg数据搬入/离散搬入（Gather）.md"),
        opcodes=("RV_VSELR", "RV_VGATHER"), dtypes=_INT_F, doc="离散操作/Gather.md"),
    api(FAMILY, "Reduce", Reg.Reduce,
        form(tenum("type", "ReduceType"), _T, thidden("U"), _MODE, tded("R"), reg("dstReg"), reg("srcReg"), mask()),
        opcodes=("RV_VCADD", "RV_VCMAX", "RV_VCMIN"), dtypes=_INT_F, doc="归约计算/Reduce.md"),
    api(FAMILY, "ReduceSum", Reg.ReduceSum, _REDUCE, opcodes=("RV_VCADD",), dtypes=_INT_F, doc="归约计算/Reduce.md",
        note="Reduce<ReduceType::SUM>"),
    api(FAMILY, "ReduceMax", Reg.ReduceMax, _REDUCE, opcodes=("RV_VCMAX",), dtypes=_INT_F, doc="归约计算/Reduce.md",
        note="Reduce<ReduceType::MAX>"),
    api(FAMILY, "ReduceMin", Reg.ReduceMin, _REDUCE, opcodes=("RV_VCMIN",), dtypes=_INT_F, doc="归约计算/Reduce.md",
        note="Reduce<ReduceType::MIN>"),
    api(FAMILY, "Cast", Reg.Cast,
        form(telem("D", "RD"), telem("S", "RS"), ttrait(), tded("RD", "RS"), reg("dstReg", "RD"), reg("srcReg", "RS"),
             mask()),
        opcodes=("RV_VCVT_F2F", "RV_VCVT_F2I", "RV_VCVT_I2F", "RV_VCVT_I2I", "RV_VSEL"),
        dtypes=("int8_t", "uint8_t", "int16_t", "half", "bfloat16_t", "int32_t", "float"), doc="类型转换/Cast.md"),
    api(FAMILY, "LocalMemBar", Reg.LocalMemBar,
        form(tenum("src", "MemType", "VEC_STORE"), tenum("dst", "MemType", "VEC_LOAD")),
        opcodes=("RV_MEMBAR",), doc="同步控制/LocalMemBar.md"),
]
