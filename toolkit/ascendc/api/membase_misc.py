"""``AscendC::`` MemBase conversions, fills, relayout, sorting and control registers: Cast, Truncate, the
fused conversions (AddReluCast, SubReluCast, MulCast, MulsCast, AddDeqRelu, CastDequant, ExpSub), Brcb,
Transpose, TransDataTo5HD, Interleave / DeInterleave, Sort32, MrgSort, GetMrgSortResult, the mask mode and
mask register (SetMaskCount, SetMaskNorm, SetVectorMask, ResetMask) and SetDeqScale."""
from __future__ import annotations

from toolkit.ascendc import membase as MB

from .membase import LOOP, REP, SET, T, dt, level0
from .spec import Family, api, earg, form, local, scalar, sref, struct, tded, tenum, thidden, ttype, tnamed, u64arr

FAMILY = Family("membase.misc", "AscendC", "membase_misc.h", MB, doc_root="基础API/Memory矢量计算")

_TU = tded("T", "U")
_CAST = (local("dst"), local("src", "U"), earg("roundMode", "RoundMode"))
_BIN3 = (local("dst"), local("src0", "U"), local("src1", "U"))
_CVT = ("RV_VCVT_F2F", "RV_VCVT_F2I", "RV_VCVT_I2F", "RV_VCVT_I2I")
_C = "复合计算"
_HAND = "membase.h: {why}"
_M = "掩码操作"


def _bin_cast(short: str, ops: tuple, dtypes: tuple):
    return api(FAMILY, short, getattr(MB, short), form(*_TU, *_BIN3, scalar("count", "uint32_t")),
               *level0(_TU, _BIN3, "BinaryRepeatParams"), opcodes=(*ops, *LOOP), dtypes=dtypes, doc=f"{_C}/{short}.md")


_DEQ = (tnamed("isVecDeq"), tnamed("halfBlock"))
_CDQ = (local("dst"), local("src", "U"))
_FLEX = (thidden("T0", "class", "BinaryDefaultType"), thidden("T1", "class", "BinaryDefaultType"),
         tnamed("config", "const BinaryConfig&", "DEFAULT_BINARY_CONFIG", send="config.scalarTensorIndex"))
_LIST = struct("nchwconvParams", "TransDataTo5HDParams")
_SCALAR_CAST = "sysapi.h: scalar C++ (float <-> bfloat16_t, float -> half / int32_t under a RoundMode)"
_MRG = "MrgSortSrcList<T> / MrgSort4Info hold tensors and arrays: the form sends their fields (the flattened form)"

# the high-level Transpose (高阶API/张量变换): a TransposeType and a ConfusionTransposeTiling; written in
# asc/highlevel_transform.h (the tiling struct is declared after this header), run by highlevel/transform_layout.py
_HL_TRANSPOSE = tuple(
    form(*T, local("dst"), local("src"), *tmp, earg("transposeType", "TransposeType"),
         struct("tiling", "ConfusionTransposeTiling"), doc="高阶API/张量变换/Transpose-96.md",
         hand="asc/highlevel_transform.h: the high-level form (its tiling struct is declared there)")
    for tmp in ((local("sharedTmpBuffer", "uint8_t"),), ()))

APIS = [
    api(FAMILY, "Cast", MB.Cast,
        form(*_TU, *_CAST, scalar("count", "uint32_t")),
        *level0(_TU, _CAST, "UnaryRepeatParams"),
        # the scalar Cast of 标量计算 (helper capimisc): written in sysapi.h, credited to its own pages
        form(scalar("fVal", "const float&"), ret="bfloat16_t", hand=_SCALAR_CAST,
             doc="基础API/标量计算/Cast（float转bfloat16_t）.md"),
        form(ttype("T", None), ttype("U", "int32_t"), tenum("roundMode", "RoundMode"), scalar("valueIn", "T"), ret="U",
             hand=_SCALAR_CAST,
             doc="基础API/标量计算/Cast（float转half-int32_t）.md"),
        form(*tded("T", "U"), scalar("bVal", "T"), ret="U", hand=_SCALAR_CAST,
             doc="基础API/标量计算/Cast（多类型转float）.md"),
        opcodes=(*_CVT, *LOOP), dtypes=dt("int8_t uint8_t int16_t uint16_t half bfloat16_t int32_t uint32_t float "
                                          "int64_t double int4b_t hifloat8_t fp8_e5m2_t fp8_e4m3fn_t fp4x2_e2m1_t "
                                          "fp4x2_e1m2_t"), doc="类型转换/Cast.md",
        note="the 8- / 4-bit pairs: membase/cast_low.py (4-bit: byte pairs, even counts / paired mask bits; "
             "CAST_HYBRID by the Reg page's bit rule)"),
    api(FAMILY, "Truncate", MB.Truncate, form(ttype("T", None), tenum("roundMode", "RoundMode"), local("dst"), local("src"),
                                              scalar("count", "uint32_t")),
        opcodes=("RV_VTRC", *LOOP), dtypes=dt("half float bfloat16_t"), doc="类型转换/Truncate(ISASI).md"),
    _bin_cast("AddReluCast", ("RV_VADD", "RV_VRELU", *_CVT), dt("half int16_t float int64_t")),
    _bin_cast("SubReluCast", ("RV_VSUB", "RV_VRELU", *_CVT), dt("half int16_t float int64_t")),
    _bin_cast("MulCast", ("RV_VMUL", *_CVT), dt("half int64_t")),
    api(FAMILY, "MulsCast", MB.MulsCast,
        form(*_FLEX, *tded("T", "S"), local("dst", "half"), local("src0"), scalar("src1", "const S&", "T"),
             scalar("count", "uint32_t")),
        form(*_FLEX, *tded("T", "S"), local("dst", "half"), scalar("src0", "const S&", "T"), local("src1"),
             scalar("count", "uint32_t")),
        form(*_FLEX, *T, local("dst", "half"), local("src0"), local("src1"), scalar("count", "uint32_t")),
        opcodes=("RV_VMULSCVT", *LOOP), dtypes=dt("float"), doc=f"{_C}/MulsCast(ISASI).md"),
    api(FAMILY, "AddDeqRelu", MB.AddDeqRelu,
        form(*_TU, *_BIN3, scalar("count", "int32_t")), *level0(_TU, _BIN3, "BinaryRepeatParams"),
        opcodes=("RV_VADD", "RV_VCVT_I2F", "RV_VRELU", *LOOP), dtypes=dt("int32_t half"), doc=f"{_C}/AddDeqRelu.md"),
    api(FAMILY, "CastDequant", MB.CastDequant,
        form(*_TU, *_DEQ, *_CDQ, scalar("count", "uint32_t")),
        form(*_TU, SET, *_DEQ, *_CDQ, scalar("mask", "int32_t"), *REP, struct("repeatParams", "UnaryRepeatParams")),
        form(*_TU, SET, *_DEQ, *_CDQ, u64arr(), *REP, struct("repeatParams", "UnaryRepeatParams")),
        opcodes=("RV_VCVT_I2F", "RV_VCVT_I2I", *LOOP), dtypes=dt("int16_t int32_t half int8_t uint8_t"),
        doc=f"{_C}/CastDequant.md"),
    api(FAMILY, "ExpSub", MB.ExpSub, form(*_TU, local("dst"), local("src0", "U"), local("src1", "U"),
                                          scalar("count", "uint32_t")),
        opcodes=("RV_VEXPSUB", *LOOP), dtypes=dt("half float"), doc=f"{_C}/ExpSub(ISASI).md"),
    api(FAMILY, "Copy", MB.Copy,
        form(*T, SET, local("dst"), local("src"), scalar("count", "uint32_t"),
             doc=f"{FAMILY.doc_root}/数据搬运/Copy（UBToUB连续数据搬运）.md"),
        *level0(T, (local("dst"), local("src")), "CopyRepeatParams"),
        opcodes=LOOP, dtypes=dt("int8_t uint8_t int16_t uint16_t half bfloat16_t int32_t uint32_t float int64_t uint64_t"),
        doc="数据搬运/Copy（UBToUB掩码式高维数据搬运）.md"),
    api(FAMILY, "Brcb", MB.Brcb,
        form(*T, local("dst"), local("src"), scalar("repeatTime", "uint8_t"), struct("repeatParams", "BrcbRepeatParams")),
        opcodes=("RV_VLD", "RV_VSSTB", "RV_VLOOP", "RV_PSET"),
        dtypes=dt("int8_t uint8_t int16_t uint16_t half bfloat16_t int32_t uint32_t float int64_t uint64_t"),
        doc="数据填充/Brcb.md"),
    api(FAMILY, "Transpose", MB.Transpose,
        form(*T, local("dst"), local("src")),
        form(*T, local("dst"), local("src"), local("sharedTmpBuffer", "uint8_t"),
             scalar("transposeParams", "const TransposeParamsExt&"),
             hand=_HAND.format(why="TransposeParamsExt carries an enum class field: the form sends its fields "
                               "(the flattened form)")),
        form(*T, local("dst"), local("src"), local("sharedTmpBuffer", "uint8_t"),
             *(scalar(n, "uint16_t") for n in ("nSize", "cSize", "hSize", "wSize")), scalar("transposeType", "int32_t")),
        *_HL_TRANSPOSE,
        opcodes=("RV_VTRANS", *LOOP), dtypes=dt("int8_t uint8_t int16_t uint16_t half bfloat16_t int32_t uint32_t float"),
        doc="数据排布转换/Transpose.md",
        note="high-level forms (TransposeType, ConfusionTransposeTiling), as the page describes them: 7 by "
             "TransDataTo5HD, 1-6 (16-bit, H/N a multiple of 16) by two TransDataTo5HD steps through the temporary "
             "buffer, 13-16 by a gather (an offset table in the temporary buffer, Gather); assumed: 1-6 for 32-bit "
             "types by strided UB->UB DataCopy of the same fractal rows, 3 / 4 with other H/N by the gather"),
    api(FAMILY, "TransDataTo5HD", MB.TransDataTo5HD,
        form(ttype("T", None), local("dst", "uint64_t"), local("src", "uint64_t"), _LIST),
        form(ttype("T", None), scalar("dstList", "uint64_t*"), scalar("srcList", "uint64_t*"), _LIST,
             hand=_HAND.format(why="address arrays: written to reserved UB and passed as the tensor form")),
        form(ttype("T", None), scalar("dstList", "const LocalTensor<T>*"), scalar("srcList", "const LocalTensor<T>*"),
             _LIST, hand=_HAND.format(why="tensor arrays: their addresses go to reserved UB, then the tensor form")),
        opcodes=("RV_VTRANS", *LOOP), dtypes=dt("int8_t uint8_t int16_t uint16_t half bfloat16_t int32_t uint32_t float"),
        doc="数据排布转换/TransDataTo5HD.md"),
    api(FAMILY, "Interleave", MB.Interleave,
        form(*T, local("dst0"), local("dst1"), local("src0"), local("src1"), scalar("count", "int32_t")),
        opcodes=("RV_VINTLV", *LOOP), dtypes=dt("int8_t uint8_t int16_t uint16_t half bfloat16_t int32_t uint32_t float "
                                                "int64_t uint64_t"), doc="数据重排（ISASI）/Interleave.md"),
    api(FAMILY, "DeInterleave", MB.DeInterleave,
        form(*T, local("dst0"), local("dst1"), local("src0"), local("src1"), scalar("count", "int32_t")),
        form(*T, local("dst0"), local("dst1"), local("src"), scalar("srcCount", "int32_t")),
        opcodes=("RV_VDINTLV", *LOOP), dtypes=dt("int8_t uint8_t int16_t uint16_t half bfloat16_t int32_t uint32_t "
                                                 "float int64_t uint64_t"), doc="数据重排（ISASI）/DeInterleave.md"),
    api(FAMILY, "Sort32", MB.Sort32,
        form(*T, local("dst"), local("src0"), local("src1", "uint32_t"), scalar("repeatTime", "int32_t")),
        opcodes=("RV_VSORT32", *LOOP), dtypes=dt("half float"), doc="排序组合（ISASI）/Sort32.md"),
    api(FAMILY, "MrgSort", MB.MrgSort,
        form(*T, local("dst"), scalar("src", "const MrgSortSrcList<T>&"), scalar("params", "const MrgSort4Info&"),
             hand=_HAND.format(why=_MRG)),
        form(*T, local("dst"), local("src1"), local("src2"), local("src3"), local("src4"),
             *(scalar(f"elementLength{k}", "uint16_t") for k in range(4)), scalar("ifExhaustedSuspension", "bool"),
             scalar("validBit", "uint16_t"), scalar("repeatTimes", "uint16_t")),
        # the high-level MrgSort (高阶API/排序操作): arrays of counts, so written by hand
        form(*T, tnamed("isExhaustedSuspension", "bool", "false"), local("dst"),
             scalar("sortList", "const MrgSortSrcList<T>&"), scalar("elementCountList", "const uint16_t*"),
             scalar("sortedNum", "uint32_t*"), scalar("validBit", "uint16_t"), scalar("repeatTime", "const int32_t"),
             hand=_HAND.format(why="the count arrays: the flattened form, then GetMrgSortResult into sortedNum"),
             doc="高阶API/排序操作/MrgSort-93.md"),
        opcodes=("RV_VMRGSORT", *LOOP), dtypes=dt("half float"), doc="排序组合（ISASI）/MrgSort.md",
        note="high-level form: algorithm: the basic MrgSort of the listed queues, then GetMrgSortResult into "
             "sortedNum"),
    api(FAMILY, "GetMrgSortResult", MB.GetMrgSortResult, form(*(sref(f"mrgSortList{k}", "uint16_t") for k in range(1, 5))),
        doc="排序组合（ISASI）/GetMrgSortResult.md"),
    api(FAMILY, "SetMaskCount", MB.SetMaskCount, form(), doc=f"{_M}/SetMaskCount.md"),
    api(FAMILY, "SetMaskNorm", MB.SetMaskNorm, form(), doc=f"{_M}/SetMaskNorm.md"),
    api(FAMILY, "ResetMask", MB.ResetMask, form(), doc=f"{_M}/ResetMask.md"),
    api(FAMILY, "SetVectorMask", MB.SetVectorMask,
        form(ttype("T", None), tenum("mode", "MaskMode", "NORMAL"), scalar("maskHigh", "uint64_t"),
             scalar("maskLow", "uint64_t")),
        form(ttype("T", None), tenum("mode", "MaskMode", "NORMAL"), scalar("len", "int32_t")),
        doc=f"{_M}/SetVectorMask.md"),
    api(FAMILY, "SetDeqScale", MB.SetDeqScale,
        form(scalar("scale", "half", "float")),
        form(scalar("scale", "float"), scalar("offset", "int16_t"), scalar("signMode", "bool")),
        form(*T, local("vdeq")),
        form(*T, local("vdeq"), scalar("vdeqInfo", "const VdeqInfo&"),
             hand=_HAND.format(why="VdeqInfo holds arrays: the 16 groups are packed and stored with SetValue, then "
                               "the tensor form names the tensor")),
        doc="类型转换辅助配置接口/SetDeqScale.md"),
]
