"""``AscendC::`` high-level activations (高阶API/激活函数): the SoftMax family with its tiling structs and
host helpers, Gelu / FasterGelu / FasterGeluV2, Silu, Swish, Sigmoid, SwiGLU, GeGLU, ReGlu and their
temporary-size helpers. The kernels are in ``toolkit/ascendc/highlevel/{softmax,activation}.py`` (chains of
MemBase calls); the host helpers run through the bridge too, so the one Python formula gives the sizes and
tilings on both routes. The hand-written part (TensorShape, SoftmaxConfig, the tiling aliases) is
``include/asc/highlevel_act.h``."""
from __future__ import annotations

from toolkit.ascendc.highlevel import activation as ACT
from toolkit.ascendc.highlevel import softmax as SM
from toolkit.ascendc.highlevel import softmax_flash as SF
from toolkit.ascendc.highlevel.shape import TensorShape

from .spec import (
    LOCAL,
    STRUCT,
    Arg,
    Family,
    Field,
    NameDef,
    StructDef,
    api,
    form,
    local,
    scalar,
    sout,
    sref,
    struct,
    tded,
    thidden,
    tnamed,
)

FAMILY = Family("hl.activation", "AscendC", "hl_activation.h", ACT, doc_root="高阶API/激活函数")
SOFTMAX = Family("hl.softmax", "AscendC", "hl_softmax.h", SM, doc_root="高阶API/激活函数")
FLASH = Family("hl.softmax_flash", "AscendC", "hl_softmax_flash.h", SF, doc_root="高阶API/激活函数")

_HAND = "asc/highlevel_act.h"
_ALG = "algorithm: assumed"
_SM_NOTE = (f"{_ALG} (row by row in float: ReduceMax, Adds, Exp, ReduceSum, Divs as MemBase calls; NZ format "
            f"refused; temporary buffer: 32 B + ReduceSum work + float rows)")
_EW_NOTE = f"{_ALG} (float chain of MemBase calls; half through float, result rounded to nearest even)"
_TMP_NOTE = "the size of the emulated kernel's temporary buffer (the vendor's formula is not published)"


def _u32(name: str) -> Field:
    return Field(name, "uint32_t", "0")


_TILING_FIELDS = tuple(_u32(n) for n in SM.SoftMaxTiling.__dataclass_fields__)
STRUCTS = [
    StructDef("AscendC::TensorShape", TensorShape,
              (Field("dimNum", "int64_t", "0", "GetDimNum()"),
               *(Field(f"d{k}", "int64_t", "0", f"GetDim({k})") for k in range(8))),
              doc="高阶API/激活函数/SoftMax接口/SoftMax-SimpleSoftMax-Tiling.md",
              hand=f"{_HAND}: built from a std::vector<int64_t> (the bridge sends its dimensions)"),
    StructDef("AscendC::tiling::SoftMaxTiling", SM.SoftMaxTiling, _TILING_FIELDS,
              doc="高阶API/激活函数/SoftMax接口/SoftMax-Tiling使用说明.md"),
    StructDef("AscendC::tiling::LogSoftMaxTiling", SM.LogSoftMaxTiling, _TILING_FIELDS,
              doc="高阶API/激活函数/LogSoftMax接口/LogSoftMax-Tiling.md"),
    StructDef("AscendC::SoftMaxParams", SF.SoftMaxParams,
              (*(_u32(n) for n in ("srcM", "srcK", "oriSrcM", "oriSrcK", "loopCnt", "splitMeanCnt")),
               Field("alpha", "float", "0")), doc="高阶API/激活函数/SoftMax接口/SoftmaxFlashV3.md"),
    StructDef("AscendC::SoftMaxShapeInfo", SM.SoftMaxShapeInfo, tuple(_u32(n) for n in ("srcM", "srcK", "oriSrcM",
                                                                                     "oriSrcK")),
              doc="高阶API/激活函数/SoftMax接口/SoftMax.md"),
]
NAMES = [
    NameDef("AscendC::SoftmaxConfig", "type", _HAND, None, "高阶API/激活函数/SoftMax接口/SoftMax.md"),
    NameDef("AscendC::SOFTMAX_DEFAULT_CFG", "constant", _HAND, None, "高阶API/激活函数/SoftMax接口/SoftMax.md"),
    NameDef("AscendC::SoftMaxTiling", "alias", f"{_HAND}: the kernel-side name of tiling::SoftMaxTiling"),
    NameDef("AscendC::LogSoftMaxTiling", "alias", f"{_HAND}: the kernel-side name of tiling::LogSoftMaxTiling"),
    *(NameDef(f"AscendC::TensorShape::{m}", "method", f"{_HAND}: C++ only (the host code's shape arithmetic)")
      for m in ("GetDims", "GetDimNum", "GetDim", "SetDimNum", "SetDim", "GetShapeSize")),
]

# -- kernel forms -----------------------------------------------------------------------------------------
_T = tded("T")
_REUSE = thidden("isReuseSource", "bool", "false")
_BASIC = thidden("isBasicBlock", "bool", "false")
_NZ = tnamed("isDataFormatNZ", "bool", "false")
_CFG = thidden("config", "const SoftmaxConfig&", "SOFTMAX_DEFAULT_CFG")
_TMP = local("sharedTmpBuffer", "uint8_t")
_INFO = Arg(STRUCT, "softmaxShapeInfo", "const SoftMaxShapeInfo&", "{}")
_TILING = struct("tiling", "tiling::SoftMaxTiling")


def _mixed() -> tuple:
    """The half-data / float-statistics overloads: T is not deducible (given explicitly, not used)."""
    return (thidden("T"),)


def _sm_forms(stats: tuple, mixed_stats: tuple, tail: tuple, tps: tuple, tps_plain: tuple) -> list:
    """Framework / sharedTmpBuffer variants of: same types, half data with float statistics, no statistics."""
    out = []
    for tmp in ((), (_TMP,)):
        out.append(form(*tps, *stats, *tmp, _TILING, *tail))
        out.append(form(*_mixed(), *tps[1:], *mixed_stats, *tmp, _TILING, *tail))
    return out


def _stats(*names: str, t: str = "T") -> tuple:
    return tuple(local(n, t) for n in names)


def _softmax_api():
    tps = (_T, _REUSE, _BASIC, _NZ, _CFG)
    same = (local("dstTensor"), *_stats("sumTensor", "maxTensor"), local("srcTensor"))
    mixed = (local("dstTensor", "half"), *_stats("sumTensor", "maxTensor", t="float"), local("srcTensor", "half"))
    forms = _sm_forms(same, mixed, (_INFO,), tps, ())
    plain = (local("dstTensor"), local("srcTensor"))
    forms += [form(_T, _REUSE, _BASIC, _CFG, *plain, *tmp, _TILING, _INFO) for tmp in ((), (_TMP,))]
    return api(SOFTMAX, "SoftMax", SM.SoftMax, *forms, dtypes=("half", "float"), doc="SoftMax接口/SoftMax.md",
               note=_SM_NOTE)


def _simple_api():
    tps = (_T, _REUSE, _BASIC, _NZ, _CFG)
    same = (local("dstTensor"), *_stats("inSumTensor", "inMaxTensor"), local("srcTensor"))
    mixed = (local("dstTensor", "half"), *_stats("inSumTensor", "inMaxTensor", t="float"), local("srcTensor", "half"))
    return api(SOFTMAX, "SimpleSoftMax", SM.SimpleSoftMax, *_sm_forms(same, mixed, (_INFO,), tps, ()),
               dtypes=("half", "float"), doc="SoftMax接口/SimpleSoftMax.md", note=_SM_NOTE)


def _grad_api(short: str, fn, front: bool):
    tps = (_T, _REUSE, _NZ) if not front else (_T, _BASIC, _NZ)
    head = (local("dstTensor"), local("gradTensor"), local("srcTensor"))
    tail = ((scalar("isFront", "bool", default="false"),) if not front else ()) + (_INFO,)
    return api(SOFTMAX, short, fn, *(form(*tps, *head, *tmp, _TILING, *tail) for tmp in ((), (_TMP,))),
               dtypes=("half", "float"), doc=f"SoftMax接口/{short}.md", note=_SM_NOTE)


_SHAPE = struct("srcShape", "TensorShape")
_DTS = scalar("dataTypeSize", "const uint32_t")
_REUSE_ARG = scalar("isReuseSource", "const bool")
_TILING_PAGE = "SoftMax接口/SoftMax-SimpleSoftMax-Tiling.md"


def _size(short: str, fn, *extra: Arg, page: str = _TILING_PAGE):
    return api(SOFTMAX, short, fn, form(_SHAPE, _DTS, *extra, ret="uint32_t"), doc=page, note=_TMP_NOTE)


def _tiling_fn(short: str, fn, out: str, struct_name: str, page: str, tail: tuple = ()):
    forms = [form(_SHAPE, _DTS, scalar("localWorkSpaceSize", "const uint32_t"), sout(out, f"{ns}::{struct_name}"),
                  *tail) for ns in ("AscendC::tiling",)]   # optiling:: names the same struct (an alias)
    return api(SOFTMAX, short, fn, *forms, doc=page, note="one row per pass (assumed): the max / sum blocks of 32 B")


_GRAD_PAGE = "SoftMax接口/SoftmaxGrad-Tiling接口.md"
_LOG_PAGE = "LogSoftMax接口/LogSoftMax-Tiling.md"
_FRONT = scalar("isFront", "const bool")
SOFTMAX_APIS = [
    _softmax_api(),
    _simple_api(),
    api(SOFTMAX, "LogSoftMax", SM.LogSoftMax,
        form(_T, _REUSE, _NZ, local("dst"), local("sum"), local("max"), local("src"), _TMP,
             struct("tiling", "tiling::LogSoftMaxTiling"), _INFO),
        dtypes=("half", "float"), doc="LogSoftMax接口/LogSoftMax.md", note=_SM_NOTE + "; log10, as the page's formula"),
    _grad_api("SoftmaxGrad", SM.SoftmaxGrad, False),
    _grad_api("SoftmaxGradFront", SM.SoftmaxGradFront, True),
    _size("GetSoftMaxMaxTmpSize", SM.GetSoftMaxMaxTmpSize, _REUSE_ARG),
    _size("GetSoftMaxMinTmpSize", SM.GetSoftMaxMinTmpSize, _REUSE_ARG),
    _size("GetLogSoftMaxMaxTmpSize", SM.GetLogSoftMaxMaxTmpSize, _REUSE_ARG, page=_LOG_PAGE),
    _size("GetLogSoftMaxMinTmpSize", SM.GetLogSoftMaxMinTmpSize, _REUSE_ARG, page=_LOG_PAGE),
    _size("GetSoftMaxGradMaxTmpSize", SM.GetSoftMaxGradMaxTmpSize, _FRONT, _REUSE_ARG, page=_GRAD_PAGE),
    _size("GetSoftMaxGradMinTmpSize", SM.GetSoftMaxGradMinTmpSize, _FRONT, _REUSE_ARG, page=_GRAD_PAGE),
    _tiling_fn("SoftMaxTilingFunc", SM.SoftMaxTilingFunc, "softmaxTiling", "SoftMaxTiling", _TILING_PAGE),
    _tiling_fn("LogSoftMaxTilingFunc", SM.LogSoftMaxTilingFunc, "softmaxTiling", "LogSoftMaxTiling", _LOG_PAGE),
    _tiling_fn("SoftMaxGradTilingFunc", SM.SoftMaxGradTilingFunc, "softmaxGradTiling", "SoftMaxTiling", _GRAD_PAGE,
               (scalar("isFront", "const bool", default="false"),)),
    api(SOFTMAX, "IsBasicBlockInSoftMax", SM.IsBasicBlockInSoftMax,
        *(form(struct("tiling", f"{ns}::SoftMaxTiling"), scalar("dataTypeSize", "const uint32_t", default="2"),
               ret="bool") for ns in ("AscendC::tiling",)),
        doc="SoftMax接口/IsBasicBlockInSoftMax.md"),
]

# -- element-wise activations -------------------------------------------------------------------------------
_N = scalar("dataSize", "const uint32_t")
_HP = (tnamed("highPrecision", "bool", "false"), tnamed("highPerformance", "bool", "false"))
_EW_OPS = ("RV_VMUL", "RV_VMULS", "RV_VADDS", "RV_VEXP", "RV_VDIV", "RV_VLD", "RV_VST")


def _gelu(short: str, fn, page: str):
    head = (local("dstLocal"), local("srcLocal"))
    return api(FAMILY, short, fn, form(_T, *_HP, *head, _TMP, _N), form(_T, *_HP, *head, _N),
               dtypes=("half", "float"), doc=page, note=_EW_NOTE)


def _four(short: str, fn, head: tuple, tps: tuple, page: str, dtypes=("half", "float"), count: str = "calCount"):
    """(tmp, count), (tmp), (count), (): the four overloads of Sigmoid / SwiGLU / GeGLU."""
    n = scalar(count, "const uint32_t")
    forms = [form(*tps, *head, _TMP, n), form(*tps, *head, _TMP), form(*tps, *head, n), form(*tps, *head)]
    return api(FAMILY, short, fn, *forms, dtypes=dtypes, doc=page, note=_EW_NOTE)


def _mm(name: str = "srcShape") -> tuple:
    return (struct(name, "TensorShape"), scalar("typeSize", "const uint32_t"))


_MAXMIN = (sref("maxValue", "uint32_t"), sref("minValue", "uint32_t"))
_IR = scalar("isReuseSource", "const bool")


def _tmp_api(short: str, fn, page: str, *args: Arg, ret: str = "void"):
    return api(FAMILY, short, fn, form(*args, ret=ret), doc=page, note=_TMP_NOTE)


_GLU3 = (local("dstTensor"), local("srcTensor0"), local("srcTensor1"))
_SWI = (Arg(LOCAL, "dstTensor", "LocalTensor<T>&"), local("srcTensor0"), local("srcTensor1"),
        scalar("scalarValue", "const float&"))
ACT_APIS = [
    _gelu("Gelu", ACT.Gelu, "Gelu接口/Gelu.md"),
    _gelu("FasterGelu", ACT.FasterGelu, "Gelu接口/FasterGelu.md"),
    _gelu("FasterGeluV2", ACT.FasterGeluV2, "Gelu接口/FasterGeluV2.md"),
    api(FAMILY, "Silu", ACT.Silu, form(_T, _REUSE, local("dstLocal"), local("srcLocal"), scalar("dataSize", "uint32_t")),
        dtypes=("half", "float"), doc="Silu接口/Silu.md", note=_EW_NOTE),
    api(FAMILY, "Swish", ACT.Swish, form(_T, _REUSE, local("dstLocal"), local("srcLocal"), scalar("dataSize", "uint32_t"),
                                         scalar("scalarValue", "const __asc::nodeduce_t<T>", "T")),
        dtypes=("half", "float"), doc="Swish接口/Swish.md", note=_EW_NOTE),
    _four("Sigmoid", ACT.Sigmoid, (local("dstTensor"), local("srcTensor")), (_T, _REUSE), "Sigmoid接口/Sigmoid.md"),
    _four("SwiGLU", ACT.SwiGLU, _SWI, (_T, _REUSE), "SwiGLU接口/SwiGLU.md"),
    _four("GeGLU", ACT.GeGLU, _GLU3, (_T, _REUSE), "GeGLU接口/GeGLU.md"),
    api(FAMILY, "ReGlu", ACT.ReGlu, form(_T, _REUSE, *_GLU3, _TMP, scalar("calCount", "const uint32_t")),
        form(_T, _REUSE, *_GLU3, scalar("calCount", "const uint32_t")),
        dtypes=("half", "bfloat16_t", "float"), doc="ReGlu接口/ReGlu.md", note=_EW_NOTE),
    _tmp_api("GetGeluMaxMinTmpSize", ACT.GetGeluMaxMinTmpSize, "Gelu接口/GetGeluMaxMinTmpSize.md", *_mm(), *_MAXMIN),
    _tmp_api("GetGeluMaxTmpSize", ACT.GetGeluMaxTmpSize, "Gelu接口/GetGeluMaxMinTmpSize.md", *_mm(), ret="uint32_t"),
    _tmp_api("GetGeluMinTmpSize", ACT.GetGeluMinTmpSize, "Gelu接口/GetGeluMaxMinTmpSize.md", *_mm(), ret="uint32_t"),
    _tmp_api("GetSiluTmpSize", ACT.GetSiluTmpSize, "Silu接口/GetSiluTmpSize.md", *_mm(), _IR, *_MAXMIN),
    _tmp_api("GetSwishTmpSize", ACT.GetSwishTmpSize, "Swish接口/GetSwishTmpSize.md", *_mm(), _IR, *_MAXMIN),
    _tmp_api("GetSigmoidMaxMinTmpSize", ACT.GetSigmoidMaxMinTmpSize, "Sigmoid接口/GetSigmoidMaxMinTmpSize.md",
             *_mm(), scalar("isReuseSource", "bool"), *_MAXMIN),
    _tmp_api("GetSwiGLUMaxMinTmpSize", ACT.GetSwiGLUMaxMinTmpSize, "SwiGLU接口/GetSwiGLUMaxMinTmpSize.md",
             *_mm(), *_MAXMIN, _IR),
    _tmp_api("GetGeGLUMaxMinTmpSize", ACT.GetGeGLUMaxMinTmpSize, "GeGLU接口/GetGeGLUMaxMinTmpSize.md",
             *_mm(), _IR, *_MAXMIN),
    _tmp_api("GetReGluMaxMinTmpSize", ACT.GetReGluMaxMinTmpSize, "ReGlu接口/GetReGluMaxMinTmpSize.md",
             *_mm(), _IR, *_MAXMIN),
    _tmp_api("GetSwiGLUTmpBufferFactorSize", ACT.GetSwiGLUTmpBufferFactorSize,
             "SwiGLU接口/GetSwiGLUTmpBufferFactorSize.md", scalar("typeSize", "const uint32_t"),
             sref("maxLiveNodeCount", "uint32_t"), sref("extraBuffer", "uint32_t")),
    _tmp_api("GetGeGLUTmpBufferFactorSize", ACT.GetGeGLUTmpBufferFactorSize,
             "GeGLU接口/GetGeGLUTmpBufferFactorSize.md", scalar("typeSize", "const uint32_t"),
             sref("maxLiveNodeCount", "uint32_t"), sref("extraBuf", "uint32_t")),
]

# -- the flash variants ---------------------------------------------------------------------------------------
_UPD = tnamed("isUpdate", "bool", "false")
_MODE = tnamed("config", "const SoftmaxConfig&", "SOFTMAX_DEFAULT_CFG", send="(int)config.mode")
_FLASH_NOTE = _SM_NOTE + "; the page's update formulas with scalar statistics per row"


def _flash_v1():
    tps = (_T, _REUSE, _BASIC)
    names = ("sumTensor", "maxTensor")
    same = (local("dstTensor"), *_stats(*names), local("srcTensor"), local("expMaxTensor"),
            *_stats("inSumTensor", "inMaxTensor"))
    mixed = (local("dstTensor", "half"), *_stats(*names, t="float"), local("srcTensor", "half"),
             local("expMaxTensor", "half"), *_stats("inSumTensor", "inMaxTensor", t="float"))
    tail = (scalar("isUpdate", "bool", default="false"), _INFO)
    forms = []
    for tmp in ((), (_TMP,)):
        forms += [form(*tps, *same, *tmp, _TILING, *tail), form(thidden("T"), _REUSE, _BASIC, *mixed, *tmp, _TILING,
                                                                *tail)]
    return api(FLASH, "SoftmaxFlash", SF.SoftmaxFlash, *forms, dtypes=("half", "float"),
               doc="SoftMax接口/SoftmaxFlash.md", note=_FLASH_NOTE + " (the page: to be retired, use SoftmaxFlashV2)")


def _flash_v2():
    tps = (_T, _UPD, _REUSE, _BASIC, _NZ, _MODE)
    same = (local("dstTensor"), *_stats("expSumTensor", "maxTensor"), local("srcTensor"), local("expMaxTensor"),
            *_stats("inExpSumTensor", "inMaxTensor"))
    reduce = (local("dstTensor"), *_stats("outReduceMax", "outExpSum", "outMax"), local("srcTensor"),
              local("outExpMax"), *_stats("inExpSum", "inMax"))
    mixed = (local("dstTensor", "half"), *_stats("expSumTensor", "maxTensor", t="float"), local("srcTensor", "half"),
             local("expMaxTensor", "half"), *_stats("inExpSumTensor", "inMaxTensor", t="float"))
    forms = []
    for tmp in ((), (_TMP,)):
        forms += [form(*tps, *same, *tmp, _TILING, _INFO), form(*tps, *reduce, *tmp, _TILING, _INFO),
                  form(thidden("T"), *tps[1:], *mixed, *tmp, _TILING, _INFO)]
    return api(FLASH, "SoftmaxFlashV2", SF.SoftmaxFlashV2, *forms, dtypes=("half", "float"),
               doc="SoftMax接口/SoftmaxFlashV2.md", note=_FLASH_NOTE + "; SOFTMAX_OUTPUT_WITHOUT_BRC: one value per row")


def _flash_v3():
    tps = (*tded("T", "U"), _UPD, _REUSE, _BASIC, _NZ, _CFG)
    head = (local("dstTensor"), *_stats("meanTensor", "expSumTensor", "maxTensor", t="U"), local("srcTensor"),
            local("expMaxTensor"), *_stats("inMeanTensor", "inExpSumTensor", "inMaxTensor", t="U"))
    forms = [form(*tps, *head, *tmp, _TILING, struct("params", "SoftMaxParams")) for tmp in ((), (_TMP,))]
    return api(FLASH, "SoftmaxFlashV3", SF.SoftmaxFlashV3, *forms, dtypes=("half",),
               doc="SoftMax接口/SoftmaxFlashV3.md",
               note=f"{_ALG} (the local mean of each of splitMeanCnt equal column segments; scalar statistics per row; "
                    f"unverified: the page's pseudo-code is ambiguous and its example gives no alpha)")


_V2P = "SoftMax接口/SoftmaxFlashV2-Tiling接口.md"
_V3P = "SoftMax接口/SoftmaxFlashV3-Tiling接口.md"
_V1P = "SoftMax接口/SoftmaxFlash-Tiling接口.md"
_D12 = (scalar("dataTypeSize1", "const uint32_t"), scalar("dataTypeSize2", "const uint32_t"))
_BB = scalar("isBasicBlock", "const bool", default="false")
_WS = scalar("localWorkSpaceSize", "const uint32_t")
_TILING_OUT = sout("softmaxFlashTiling", "AscendC::tiling::SoftMaxTiling")
_INFO_ARG = struct("shapeInfo", "SoftMaxShapeInfo")


def _fsize(short: str, *args: Arg, page: str, ret: str = "uint32_t"):
    return api(FLASH, short, getattr(SF, short), form(_SHAPE, *args, ret=ret), doc=page, note=_TMP_NOTE)


_V2_SIZE = (*_D12, scalar("isUpdate", "const bool"), _BB, scalar("isFlashOutputBrc", "const bool", default="false"))
FLASH_APIS = [
    _flash_v1(),
    _flash_v2(),
    _flash_v3(),
    api(FLASH, "AdjustSoftMaxRes", SF.AdjustSoftMaxRes,
        form(*tded("T1", "T2"), _NZ, tnamed("stepSizeMode", "uint8_t", "0"), local("softMaxRes", "T1"),
             local("maxTensor", "T2"), scalar("from", "const uint32_t"), scalar("to", "const T1", "T1"), _INFO,
             ret="bool"),
        dtypes=("half", "float"), doc="SoftMax接口/AdjustSoftMaxRes.md",
        note="algorithm: the page's rule (a row whose max equals `from` gets `to` in every element), per row by "
             "scalar reads of the max and Duplicate"),
    _fsize("GetSoftMaxFlashMaxTmpSize", _DTS, scalar("isUpdate", "const bool"), _REUSE_ARG, page=_V1P),
    _fsize("GetSoftMaxFlashMinTmpSize", _DTS, scalar("isUpdate", "const bool"), _REUSE_ARG, page=_V1P),
    _fsize("GetSoftMaxFlashV2MaxTmpSize", *_V2_SIZE, page=_V2P),
    _fsize("GetSoftMaxFlashV2MinTmpSize", *_V2_SIZE, page=_V2P),
    _fsize("GetSoftMaxFlashV3MaxMinTmpSize", *_D12, sref("maxValue", "uint32_t"), sref("minValue", "uint32_t"),
           scalar("isUpdate", "const bool"), _BB, page=_V3P, ret="void"),
    api(FLASH, "SoftMaxFlashTilingFunc", SF.SoftMaxFlashTilingFunc,
        form(_SHAPE, _DTS, _WS, _TILING_OUT, scalar("isUpdate", "const bool", default="false")), doc=_V1P,
        note="one row per pass (assumed)"),
    api(FLASH, "SoftMaxFlashV2TilingFunc", SF.SoftMaxFlashV2TilingFunc,
        form(_SHAPE, *_D12, _WS, _TILING_OUT, scalar("isUpdate", "const bool"), _BB,
             scalar("isFlashOutputBrc", "const bool", default="false")),
        form(_INFO_ARG, *_D12, _WS, *(scalar(n, "const bool", default="false") for n in (
            "isUpdate", "isBasicBlock", "isDataFormatNZ", "isFlashOutputBrc")), ret="tiling::SoftMaxTiling",
             hand=f"{_HAND}: the kernel-side constexpr form (the same numbers as the host form: one row per pass)"),
        doc=_V2P, note="one row per pass (assumed)"),
    api(FLASH, "SoftMaxFlashV3TilingFunc", SF.SoftMaxFlashV3TilingFunc,
        form(_SHAPE, *_D12, _WS, sout("softmaxFlashV3Tiling", "AscendC::tiling::SoftMaxTiling"),
             scalar("isUpdate", "const bool"), _BB), doc=_V3P, note="one row per pass (assumed)"),
]

APIS = [*SOFTMAX_APIS, *FLASH_APIS, *ACT_APIS]
