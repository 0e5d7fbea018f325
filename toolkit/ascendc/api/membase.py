"""``AscendC::`` MemBase (LocalTensor) vector compute: the count form and the level-0 forms (bit mask or
continuous mask, repeat times, repeat parameters) of the element-wise APIs, Duplicate, Cast, Brcb,
GatherMask and the reductions."""
from __future__ import annotations

from toolkit.ascendc import membase as MB

from .spec import Family, api, earg, form, local, scalar, sref, struct, tded, thidden, u64arr

FAMILY = Family("membase", "AscendC", "membase.h", MB, doc_root="基础API/Memory矢量计算")

_SET = thidden("isSetMask", "bool", "true")
_T = tded("T")
_F = ("half", "float")
_ALL = ("int16_t", "half", "int32_t", "float")
_LOOP = ("RV_VLD", "RV_VST", "RV_VSLDB", "RV_VSSTB", "RV_PLT", "RV_PMOV", "RV_VLOOP", "RV_MEMBAR")
_REP = (scalar("repeatTime", "uint8_t"),)


def _binary(short: str, opcode: str, page: str, dtypes: tuple = _ALL):
    head = (_T, local("dst"), local("src0"), local("src1"))
    level0 = (*_REP, struct("repeatParams", "BinaryRepeatParams"))
    return api(FAMILY, short, getattr(MB, short),
               form(*head, scalar("count", "int32_t")),
               form(_T, _SET, *head[1:], u64arr(), *level0),
               form(_T, _SET, *head[1:], scalar("mask", "uint64_t"), *level0),
               opcodes=(opcode, *_LOOP), dtypes=dtypes, doc=page)


def _scalar(short: str, opcode: str, page: str, dtypes: tuple = _ALL):
    tp = tded("T", "U")
    args = (local("dst"), local("src"), scalar("scalarValue", "const U&", "T"))
    level0 = (*_REP, struct("repeatParams", "UnaryRepeatParams"))
    return api(FAMILY, short, getattr(MB, short),
               form(*tp, *args, scalar("count", "int32_t")),
               form(*tp, _SET, *args, u64arr(), *level0),
               form(*tp, _SET, *args, scalar("mask", "uint64_t"), *level0),
               opcodes=(opcode, *_LOOP), dtypes=dtypes, doc=page)


def _unary(short: str, opcode: str, page: str, dtypes: tuple = _F):
    args = (local("dst"), local("src"))
    level0 = (*_REP, struct("repeatParams", "UnaryRepeatParams"))
    return api(FAMILY, short, getattr(MB, short),
               form(_T, *args, scalar("count", "int32_t")),
               form(_T, _SET, *args, u64arr(), *level0),
               form(_T, _SET, *args, scalar("mask", "uint64_t"), *level0),
               opcodes=(opcode, *_LOOP), dtypes=dtypes, doc=page)


_A = "基础算术"
_CAST = (local("dst", "D"), local("src", "S"), earg("roundMode", "RoundMode"))
_DUP = (local("dst"), scalar("scalarValue", "const U&", "T"))
_DUP0 = (scalar("repeatTime", "uint8_t"), scalar("dstBlockStride", "uint16_t"), scalar("dstRepeatStride", "uint8_t"))
_WRS = (scalar("repeatTime", "int32_t"), scalar("dstRepStride", "int32_t"), scalar("srcBlkStride", "int32_t"),
        scalar("srcRepStride", "int32_t"))
_RED = (local("dst"), local("src"), local("sharedTmpBuffer"), scalar("count", "int32_t"))

APIS = [
    _binary("Add", "RV_VADD", f"{_A}/Add.md", ("int16_t", "half", "bfloat16_t", "int32_t", "float")),
    _binary("Sub", "RV_VSUB", f"{_A}/Sub.md"),
    _binary("Mul", "RV_VMUL", f"{_A}/Mul.md"),
    _binary("Div", "RV_VDIV", f"{_A}/Div.md", _F),
    _binary("Max", "RV_VMAX", f"{_A}/Max.md"),
    _binary("Min", "RV_VMIN", f"{_A}/Min.md"),
    _scalar("Adds", "RV_VADDS", f"{_A}/Adds.md"),
    _scalar("Muls", "RV_VMULS", f"{_A}/Muls.md"),
    _scalar("Maxs", "RV_VMAXS", f"{_A}/Maxs.md"),
    _scalar("Mins", "RV_VMINS", f"{_A}/Mins.md"),
    _unary("Exp", "RV_VEXP", f"{_A}/Exp.md"),
    _unary("Sqrt", "RV_VSQRT", f"{_A}/Sqrt.md"),
    _unary("Abs", "RV_VABS", f"{_A}/Abs.md"),
    _unary("Ln", "RV_VLN", f"{_A}/Ln.md"),
    _unary("Relu", "RV_VRELU", f"{_A}/Relu.md", ("half", "int32_t", "float")),
    api(FAMILY, "Duplicate", MB.Duplicate,
        form(tded("T", "U"), *_DUP, scalar("count", "int32_t")),
        form(tded("T", "U"), _SET, *_DUP, u64arr(), *_DUP0),
        form(tded("T", "U"), _SET, *_DUP, scalar("mask", "uint64_t"), *_DUP0),
        opcodes=("RV_VDUP", *_LOOP),
        dtypes=("int16_t", "uint16_t", "half", "bfloat16_t", "int32_t", "uint32_t", "float"), doc="数据填充/Duplicate.md"),
    api(FAMILY, "Cast", MB.Cast,
        form(tded("D", "S"), *_CAST, scalar("count", "uint32_t")),
        form(tded("D", "S"), _SET, *_CAST, u64arr(), *_REP, struct("repeatParams", "UnaryRepeatParams")),
        form(tded("D", "S"), _SET, *_CAST, scalar("mask", "uint64_t"), *_REP, struct("repeatParams", "UnaryRepeatParams")),
        opcodes=("RV_VCVT_F2F", "RV_VCVT_F2I", "RV_VCVT_I2F", "RV_VCVT_I2I", *_LOOP),
        dtypes=("half", "bfloat16_t", "int32_t", "float"), doc="类型转换/Cast.md"),
    api(FAMILY, "WholeReduceSum", MB.WholeReduceSum,
        form(tded("D", "S"), _SET, local("dst", "D"), local("src", "S"), scalar("mask", "int32_t"), *_WRS),
        form(tded("D", "S"), _SET, local("dst", "D"), local("src", "S"), u64arr(), *_WRS),
        opcodes=("RV_VCADD", "RV_VSTUI", "RV_VSTAS", *_LOOP), dtypes=_F,
        note="an older MemBase name (no Ascend 950 page): one element per repeat"),
    api(FAMILY, "Brcb", MB.Brcb,
        form(_T, local("dst"), local("src"), scalar("repeatTime", "uint8_t"), struct("repeatParams", "BrcbRepeatParams")),
        opcodes=("RV_VLD", "RV_VSSTB", "RV_VLOOP", "RV_PSET"), dtypes=("int16_t", "uint16_t", "half", "int32_t", "float"),
        doc="数据填充/Brcb.md"),
    api(FAMILY, "GatherMask", MB.GatherMask,
        form(_T, local("dst"), local("src0"), scalar("src1Pattern", "uint8_t"), scalar("reduceMode", "bool"),
             scalar("mask", "uint32_t"), struct("gatherMaskParams", "GatherMaskParams"), sref("rsvdCnt", "uint64_t")),
        opcodes=("RV_VSQZ", "RV_VLD", "RV_VSTUI", "RV_VSTAS", "RV_PLT", "RV_PMOV", "RV_PSET", "RV_VLOOP"),
        dtypes=("int16_t", "uint16_t", "half", "int32_t", "uint32_t", "float"), doc="比较与选择/GatherMask.md"),
    api(FAMILY, "ReduceMax", MB.ReduceMax,
        form(_T, *_RED, scalar("calIndex", "bool", default="false")),
        opcodes=("RV_VLD", "RV_VMAX", "RV_VSEL", "RV_VCMAX", "RV_VSTUI", "RV_VSTAS", "RV_PLT", "RV_PSET", "RV_VLOOP",
                 "RV_VDUP"),
        dtypes=("float",), doc="归约计算/ReduceMax.md"),
    api(FAMILY, "ReduceSum", MB.ReduceSum,
        form(_T, *_RED),
        opcodes=("RV_VLD", "RV_VCADD", "RV_VSTUI", "RV_VSTAS", "RV_PLT", "RV_PSET", "RV_VLOOP", "RV_MEMBAR"),
        dtypes=("float",), doc="归约计算/ReduceSum.md"),
]
