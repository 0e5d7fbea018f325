"""``AscendC::`` system values and registers (工具接口, 特殊寄存器访问), scalar computation (标量计算) and
cache control (缓存控制). Most of these need no emulator: compile-time values and bit arithmetic are C++
(``native``, or ``hand`` in ``include/asc/sysapi.h`` where they must be constexpr or variadic); the cache
controls are accepted and do nothing (the emulator has no data or instruction cache: every GM access is
coherent). The emulated ones are in toolkit/ascendc/system.py."""
from __future__ import annotations

from toolkit.ascendc import system

from .spec import Arg, Family, SREF, api, form, glob, gm, local, scalar, tded, tenum, ttype, tvalue

SYSTEM = Family("system", "AscendC", "system.h", system, doc_root="基础API/工具接口")
SCALAR = Family("system.scalar", "AscendC", "scalar.h", system, doc_root="基础API/标量计算")
SPR = Family("system.spr", "AscendC", "spr.h", system, doc_root="基础API/特殊寄存器访问")
CACHE = Family("system.cache", "AscendC", "cache.h", system, doc_root="基础API/缓存控制")
LIMITS = Family("system.limits", "AscendC::NumericLimits", "", None, member=True,
                doc_root="基础API/工具接口/NumericLimits工具类")

_VAR = "系统资源与变量"
_NOP = "the emulator models one core per block: nothing to set up"
_SYSAPI = "types.h: constexpr (usable in constant expressions), the machine file's figure (a test checks it)"
_NOCACHE = "the emulator has no data cache: GM is always coherent, nothing to clean or load"
_ICACHE = "the emulator has no instruction cache: a preload is done at once"
_LIMIT = "sysapi.h: a static member of NumericLimits<T> (constexpr scalar; the vector form is Duplicate)"
_U64 = scalar("valueIn", "uint64_t")


def _limit(short: str) -> object:
    return api(LIMITS, short, None, form(ret="T", hand=_LIMIT),
               form(Arg("local", "dst", "const LocalTensor<T>&"), scalar("count", "uint32_t"), hand=_LIMIT),
               doc=f"{short}.md", dtypes=("int8_t", "uint8_t", "int16_t", "uint16_t", "half", "bfloat16_t",
                                          "int32_t", "uint32_t", "float"))


APIS = [
    api(SYSTEM, "GetBlockIdx", system.GetBlockIdx, form(ret="int64_t"), doc=f"{_VAR}/GetBlockIdx.md"),
    api(SYSTEM, "GetBlockNum", system.GetBlockNum, form(ret="int64_t"), doc=f"{_VAR}/GetBlockNum.md"),
    api(SYSTEM, "GetSubBlockIdx", None, form(ret="int64_t", native="return 0;"),
        doc=f"{_VAR}/GetSubBlockIdx(ISASI).md", note="one vector core per block: sub-block 0"),
    api(SYSTEM, "GetSubBlockNum", None, form(ret="int64_t", native="return 1;"),
        doc=f"{_VAR}/GetSubBlockNum(ISASI).md", note="a vector kernel: one AIV per block"),
    api(SYSTEM, "GetTaskRatio", None, form(ret="int64_t", native="return 1;"),
        doc=f"{_VAR}/GetTaskRatio.md", note="one AIV per AIC task here (a vector kernel)"),
    api(SYSTEM, "GetTaskRation", None, form(ret="int64_t", native="return 1;"),
        doc=f"{_VAR}/GetTaskRatio.md", note="the older spelling of GetTaskRatio: one AIV per AIC task here"),
    api(SYSTEM, "GetUBSizeInBytes", None, form(ret="uint32_t", hand=_SYSAPI), doc=f"{_VAR}/GetUBSizeInBytes.md"),
    api(SYSTEM, "GetRuntimeUBSize", None, form(ret="uint32_t", native="return GetUBSizeInBytes();"),
        doc=f"{_VAR}/GetRuntimeUBSize.md", note="the UB budget (no SIMT part in an emulated kernel)"),
    api(SYSTEM, "GetDataBlockSizeInBytes", None, form(ret="int16_t", hand=_SYSAPI),
        doc=f"{_VAR}/GetDataBlockSizeInBytes.md"),
    api(SYSTEM, "GetArchVersion", None,
        form(Arg(SREF, "coreVersion", "uint32_t&"), native="coreVersion = 0x3510;"),
        doc=f"{_VAR}/GetArchVersion.md", note="assumed 0x3510: the NPU architecture number of Ascend 950"),
    api(SYSTEM, "GetProgramCounter", None,
        form(ret="int64_t", native="return (int64_t)(uintptr_t)__builtin_return_address(0);"),
        doc=f"{_VAR}/GetProgramCounter(ISASI).md", note="a code address of the caller (the host build's)"),
    api(SYSTEM, "GetSystemCycle", system.GetSystemCycle, form(ret="int64_t"), doc=f"{_VAR}/GetSystemCycle(ISASI).md"),
    api(SYSTEM, "GetSsbufBaseAddr", None, form(ret="__ssbuf__ void*", native="return __detail::ssbuf();"),
        doc=f"{_VAR}/GetSsbufBaseAddr.md", note="a 3 KB host buffer per program (the page: dirty data)"),
    api(SYSTEM, "InitSocState", None, form(native=""), doc="系统初始化/InitSocState.md", note=_NOP),
    api(SYSTEM, "Async", None, form(tenum("engine", "EngineType"), tvalue("funPtr", "auto"), tded("Args"),
                                    hand="sysapi.h: a variadic "
                                    "template that calls funPtr(args...) when engine is AIV (the emulated unit)"),
        doc="执行模式/Async.md"),
    *(_limit(n) for n in ("Max", "Lowest", "Min", "Infinity", "NegativeInfinity", "QuietNaN", "SignalingNaN",
                          "DeNormMin")),
    # -- scalar computation
    api(SCALAR, "CountBitsCntSameAsSignBit", None, form(scalar("valueIn", "int64_t"), ret="int64_t", native=(
        "return (valueIn == 0 || valueIn == -1) ? -1 : __builtin_clrsbll(valueIn);")),
        doc="CountBitsCntSameAsSignBit.md"),
    api(SCALAR, "CountLeadingZero", None, form(_U64, ret="int64_t", native=(
        "return valueIn == 0 ? 64 : __builtin_clzll(valueIn);")), doc="CountLeadingZero.md"),
    api(SCALAR, "GetBitCount", None, form(tvalue("countValue"), _U64, ret="int64_t", native=(
        "return countValue ? __builtin_popcountll(valueIn) : 64 - __builtin_popcountll(valueIn);")),
        doc="GetBitCount.md"),
    api(SCALAR, "GetSFFValue", None, form(tvalue("countValue"), _U64, ret="int64_t", native=(
        "uint64_t v = countValue ? valueIn : ~valueIn; return v == 0 ? -1 : __builtin_ctzll(v);")),
        doc="GetSFFValue.md"),
    api(SCALAR, "Nop", None, form(tvalue("count", "int", "1"), native=""), doc="Nop.md",
        note="no instruction stream is timed outside VFs: the delay is not modelled"),
    api(SCALAR, "ReadGmByPassDCache", system.ReadGmByPassDCache, form(tded("T"), gm("addr"), ret="T"),
        doc="ReadGmByPassDCache(ISASI).md"),
    api(SCALAR, "WriteGmByPassDCache", system.WriteGmByPassDCache,
        form(tded("T"), gm("addr"), scalar("value", "T")), doc="WriteGmByPassDCache(ISASI).md"),
    # -- special purpose registers
    api(SPR, "GetSpr", system.GetSpr, form(tenum("spr", "SpecialPurposeReg"), ret="int64_t"), doc="GetSpr.md"),
    api(SPR, "ClearSpr", system.ClearSpr, form(tenum("spr", "SpecialPurposeReg")), doc="ClearSpr.md"),
    api(SPR, "GetCtrlSpr", system.GetCtrlSpr, form(tvalue("startBit", "int8_t"), tvalue("endBit", "int8_t"),
                                                   ret="int64_t"), doc="GetCtrlSpr(ISASI).md"),
    api(SPR, "SetCtrlSpr", system.SetCtrlSpr, form(tvalue("startBit", "int8_t"), tvalue("endBit", "int8_t"),
                                                   scalar("value", "int64_t")), doc="SetCtrlSpr(ISASI).md"),
    api(SPR, "ResetCtrlSpr", system.ResetCtrlSpr, form(tvalue("startBit", "int8_t"), tvalue("endBit", "int8_t")),
        doc="ResetCtrlSpr(ISASI).md"),
    # -- cache control
    api(CACHE, "DataCacheCleanAndInvalid", None,
        form(ttype("T", None), tenum("entireType", "CacheLine"), tenum("dcciDst", "DcciDst"), glob("dst"), native=""),
        form(ttype("T", None), tenum("entireType", "CacheLine"), tenum("dcciDst", "DcciDst"), local("dst"), native=""),
        form(ttype("T", None), tenum("entireType", "CacheLine"), glob("dst"), native=""),
        doc="DataCacheCleanAndInvalid.md", note=_NOCACHE),
    api(CACHE, "DataCachePreload", None,
        form(tded("T"), glob("src", "uint64_t"), scalar("cacheOffset", "const T"), native=""),
        doc="DataCachePreload.md", note=_NOCACHE),
    api(CACHE, "ICachePreLoad", None, form(scalar("preFetchLen", "const int64_t"), native=""),
        doc="ICachePreLoad(ISASI).md", note=_ICACHE),
    api(CACHE, "GetICachePreloadStatus", None, form(ret="int64_t", native="return 0;"),
        doc="GetICachePreloadStatus(ISASI).md", note=_ICACHE),
]
