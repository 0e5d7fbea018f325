"""``AscendC::`` MemBase reductions: ReduceRepeat (and its older names WholeReduceSum / Max / Min),
ReduceDataBlock (BlockReduceSum / Max / Min), ReducePairElem (PairReduceSum), ReduceMax / ReduceMin /
ReduceSum with a work tensor (count and level-0 forms), GetReduceRepeatSumSpr."""
from __future__ import annotations

from toolkit.ascendc import membase as MB

from .membase import SET, T, dt
from .spec import Family, api, earg, form, local, scalar, tded, tenum, ttype, u64arr

FAMILY = Family("membase.reduce", "AscendC", "membase_reduce.h", MB, doc_root="基础API/Memory矢量计算")

_R = "归约计算"
_TU = tded("T", "U")
_RT = tenum("reduceType", "ReduceType")
_STR = (scalar("repeatTime", "int32_t"), scalar("dstRepStride", "int32_t"), scalar("srcBlkStride", "int32_t"),
        scalar("srcRepStride", "int32_t"))
_HEAD = (local("dst"), local("src", "U"))
_ORDER = earg("order", "ReduceOrder")
_RED = ("RV_VSLDB", "RV_VSTUI", "RV_VSTAS", "RV_PLT", "RV_PMOV", "RV_VLOOP")


def _level0(tps: tuple, tail: tuple = ()) -> tuple:
    return (form(*tps, *_HEAD, u64arr(), *_STR, *tail), form(*tps, *_HEAD, scalar("mask", "int32_t"), *_STR, *tail))


def _ordered(tps: tuple) -> tuple:
    """Level-0 forms with and without the trailing ReduceOrder argument (its C++ default, ORDER_VALUE_INDEX,
    is the Python default)."""
    return (*_level0(tps), *_level0(tps, (_ORDER,)))


def _older(short: str, opcode: str, note: str, ordered: bool = False):
    tps = (*_TU, SET)
    forms = _ordered(tps) if ordered else _level0(tps)
    return api(FAMILY, short, getattr(MB, short), *forms, opcodes=(opcode, *_RED), dtypes=dt("half float"), note=note)


_WORK = (local("dst"), local("src"), local("sharedTmpBuffer"))
_CAL = (scalar("calIndex", "bool", default="false"),)
_L0W = (scalar("repeatTime", "int32_t"), scalar("srcRepStride", "int32_t"))
_MAXMIN_OPS = ("RV_PSET", "RV_VDUP", "RV_VMAX", "RV_VMIN", "RV_VSEL", "RV_VCMP", "RV_VCMAX", "RV_VCMIN", "RV_VSTUI",
               "RV_VSTAS", "RV_PLT", "RV_PMOV", "RV_VLD", "RV_VSLDB", "RV_VLOOP")


#: the high-level ReduceMax / ReduceMin / ReduceSum<T, pattern, isReuseSource> (高阶API/归约操作) share the basic
#: names: their forms are added here with their own pages (hl_reduce; the Python function tells them apart)
_HL_PAGES = {"ReduceMax": "ReduceMax接口/ReduceMax-91.md", "ReduceMin": "ReduceMin接口/ReduceMin-92.md",
             "ReduceSum": "ReduceSum接口/ReduceSum-90.md"}


def _hl(short: str) -> tuple:
    from .hl_reduce import pattern_forms
    return pattern_forms(f"高阶API/归约操作/{_HL_PAGES[short]}")


def _hl_note(short: str) -> str:
    from toolkit.ascendc.highlevel.reduce_pattern import OPS
    from .hl_reduce import PATTERN_NOTE
    return (f"high-level form <T, pattern, isReuseSource> ({', '.join(OPS[short][1])}): "
            + PATTERN_NOTE.format(op=OPS[short][0]))


def _maxmin(short: str):
    return api(FAMILY, short, getattr(MB, short),
               form(*T, *_WORK, scalar("count", "int32_t"), *_CAL),
               form(*T, *_WORK, u64arr(), *_L0W, *_CAL), form(*T, *_WORK, scalar("mask", "int32_t"), *_L0W, *_CAL),
               *_hl(short), opcodes=_MAXMIN_OPS,
               dtypes=dt("int16_t uint16_t half int32_t uint32_t float int64_t uint64_t"),
               doc=f"{_R}/{short}.md", note=_hl_note(short))


APIS = [
    api(FAMILY, "ReduceRepeat", MB.ReduceRepeat, *_ordered((_RT, *_TU, SET)),
        opcodes=("RV_VCADD", "RV_VCMAX", "RV_VCMIN", *_RED), dtypes=dt("int16_t uint16_t half int32_t uint32_t float"),
        doc=f"{_R}/ReduceRepeat.md"),
    _older("WholeReduceSum", "RV_VCADD", "the older name of ReduceRepeat<ReduceType::SUM> (no Ascend 950 page)"),
    _older("WholeReduceMax", "RV_VCMAX", "the older name of ReduceRepeat<ReduceType::MAX> (no Ascend 950 page)", True),
    _older("WholeReduceMin", "RV_VCMIN", "the older name of ReduceRepeat<ReduceType::MIN> (no Ascend 950 page)", True),
    api(FAMILY, "ReduceDataBlock", MB.ReduceDataBlock, *_level0((_RT, *_TU, SET)),
        opcodes=("RV_VCGADD", "RV_VCGMAX", "RV_VCGMIN", *_RED), dtypes=dt("half float"), doc=f"{_R}/ReduceDataBlock.md"),
    _older("BlockReduceSum", "RV_VCGADD", "the older name of ReduceDataBlock<ReduceType::SUM> (no Ascend 950 page)"),
    _older("BlockReduceMax", "RV_VCGMAX", "the older name of ReduceDataBlock<ReduceType::MAX> (no Ascend 950 page)"),
    _older("BlockReduceMin", "RV_VCGMIN", "the older name of ReduceDataBlock<ReduceType::MIN> (no Ascend 950 page)"),
    api(FAMILY, "ReducePairElem", MB.ReducePairElem, *_level0((_RT, *_TU, SET)),
        opcodes=("RV_VCPADD", *_RED), dtypes=dt("half float"), doc=f"{_R}/ReducePairElem.md"),
    _older("PairReduceSum", "RV_VCPADD", "the older name of ReducePairElem<ReduceType::SUM> (no Ascend 950 page)"),
    _maxmin("ReduceMax"),
    _maxmin("ReduceMin"),
    api(FAMILY, "ReduceSum", MB.ReduceSum,
        form(*T, SET, *_WORK, scalar("count", "int32_t")),
        form(*T, *_WORK, u64arr(), *_L0W), form(*T, *_WORK, scalar("mask", "int32_t"), *_L0W), *_hl("ReduceSum"),
        note=_hl_note("ReduceSum"),
        opcodes=("RV_VLD", "RV_VSLDB", "RV_VCADD", "RV_VSTUI", "RV_VSTAS", "RV_PLT", "RV_PMOV", "RV_VLOOP", "RV_MEMBAR"),
        dtypes=dt("half float int32_t uint32_t int64_t uint64_t"), doc=f"{_R}/ReduceSum.md"),
    api(FAMILY, "GetReduceRepeatSumSpr", MB.GetReduceRepeatSumSpr, form(ttype("T", None), ret="T"),
        dtypes=dt("half float"), doc="归约计算辅助配置接口/GetReduceRepeatSumSpr(ISASI).md"),
]
