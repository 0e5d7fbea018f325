"""``AscendC::`` high-level quantization (高阶API/量化操作): AscendQuant / AscendDequant / AscendAntiQuant,
Quantize / Dequantize / AntiQuantize, their parameter structs and host-side temporary-size queries. The
kernels are ``toolkit/ascendc/highlevel/{quant,dequant,antiquant}.py`` (MemBase calls row by row); the
configuration structs are hand-written (``include/asc/highlevel_quant.h``), each packed into one int for
the bridge. The 8- and 4-bit float element types (``asc/bytetypes.h``, ``toolkit/ascendc/lowfloat.py``):
fp8_e4m3fn_t / fp8_e5m2_t / hifloat8_t outputs and sources, fp4x2_* PER_GROUP outputs and the float4
AscendAntiQuant / AntiQuantize forms (fp4x2 source, fp8_e8m0_t scale) run (``highlevel/quant_low.py``)."""
from __future__ import annotations

import dataclasses

from toolkit.ascendc.highlevel import quant as QN
from toolkit.ascendc.highlevel import quant_common as QC

from .spec import (
    STRUCT,
    Arg,
    Family,
    Field,
    NameDef,
    StructDef,
    api,
    earg,
    form,
    local,
    scalar,
    sref,
    struct,
    tded,
    thidden,
    tnamed,
)

FAMILY = Family("hl.quant", "AscendC", "hl_quant.h", QN, doc_root="高阶API/量化操作")
_HAND = "asc/highlevel_quant.h"
_TMP_NOTE = "the size of the emulated kernel's temporary buffer (the vendor's formula is not published)"
_ROWS = ("algorithm: assumed (row by row in float: widen, Mul / Muls by the scale, Add / Adds the offset, "
         "then narrow; the pages give no precision)")


def _fields(cls) -> tuple:
    return tuple(Field(f.name, "uint32_t", "0") for f in dataclasses.fields(cls))


def _sdef(name: str, cls, page: str, required: int = -1) -> StructDef:
    return StructDef(f"AscendC::{name}", cls, _fields(cls), doc=f"高阶API/量化操作/{page}.md", required=required)


STRUCTS = [
    _sdef("DequantParams", QC.DequantParams, "AscendDequant"),
    _sdef("AscendQuantParam", QC.AscendQuantParam, "AscendQuant", 3),
    _sdef("AscendDeQuantParam", QC.AscendDeQuantParam, "AscendDequant", 3),
    _sdef("AscendAntiQuantParam", QC.AscendAntiQuantParam, "AscendAntiQuant", 3),
    _sdef("QuantizeParams", QC.QuantizeParams, "Quantize", 2),
    _sdef("DequantizeParams", QC.DequantizeParams, "Dequantize", 2),
    _sdef("AntiQuantizeParams", QC.AntiQuantizeParams, "AntiQuantize", 2),
    _sdef("AntiQuantShapeInfo", QC.AntiQuantShapeInfo, "AscendAntiQuant", 1),
]
NAMES = [
    *(NameDef(f"AscendC::{n}", "type", _HAND, None, f"高阶API/量化操作/{page}.md") for n, page in (
        ("AscendQuantConfig", "AscendQuant"), ("AscendDeQuantConfig", "AscendDequant"),
        ("AscendAntiQuantConfig", "AscendAntiQuant"), ("QuantizeConfig", "Quantize"),
        ("DequantizeConfig", "Dequantize"), ("AntiQuantizeConfig", "AntiQuantize"))),
    NameDef("AscendC::ASCEND_QUANT_DEFAULT_CFG", "constant", _HAND, None, "高阶API/量化操作/AscendQuant.md"),
]

_TMP = local("sharedTmpBuffer", "uint8_t")
_U32 = "const uint32_t"
_REUSE = thidden("isReuseSource", "bool", "false")


def _cfg(ctype: str) -> object:
    return tnamed("config", f"const {ctype}&", None, send="__asc::quant_cfg(config)")


def _policy(ctype: str) -> object:
    return tnamed("policy", f"const {ctype}&", None, send="(int)policy")


def _spelled(*names: str) -> tuple:
    """Type parameters before a required non-type one: the caller spells them (deducible all the same)."""
    return tuple(thidden(n) for n in names)


def _tmp_variants(tps: tuple, head: tuple, tail: tuple) -> list:
    """The sharedTmpBuffer form (the buffer right after ``head``) and the framework form."""
    return [form(*tps, *head, _TMP, *tail), form(*tps, *head, *tail)]


# -- AscendQuant -------------------------------------------------------------------------------------------
def _quant_forms(tps: tuple, dst: object, t: str) -> list:
    head = (dst, local("srcTensor", t))
    sc, cal = scalar("scaleCount", _U32), scalar("calCount", _U32)
    tensor_tails = [(scalar("scale", "const float"), scalar("offset", "const float"), cal),
                    (scalar("scale", "const float"), scalar("offset", "const float"))]
    off_s = scalar("offset", f"const {t}", t)
    st, ot = local("scaleTensor", t), local("offsetTensor", t)
    channel_tails = [(st, off_s, sc, cal), (st, ot, sc, scalar("offsetCount", _U32), cal), (st, off_s), (st, ot)]
    out = []
    for tail in (*tensor_tails, *channel_tails):
        out += _tmp_variants(tps, head, tail)
    return out


def _ascend_quant():
    fixed = _quant_forms((tded("T"), _REUSE, thidden("config", "const AscendQuantConfig&", "ASCEND_QUANT_DEFAULT_CFG")),
                         local("dstTensor", "int8_t"), "T")
    free = _quant_forms((*tded("dstT", "srcT"), _REUSE), local("dstTensor", "dstT"), "srcT")
    tps = (*_spelled("dstT", "srcT", "scaleT"), _REUSE, _cfg("AscendQuantConfig"), _policy("AscendQuantPolicy"))
    head = (local("dstTensor", "dstT"), local("srcTensor", "srcT"))
    para = struct("para", "AscendQuantParam")
    token = []
    for off in (local("offsetTensor", "scaleT"), scalar("offset", "const scaleT", "scaleT")):
        token += _tmp_variants(tps, head, (local("scaleTensor", "scaleT"), off, para))
    return api(FAMILY, "AscendQuant", QN.AscendQuant, *fixed, *free, *token, dtypes=("half", "bfloat16_t", "float"),
               doc="AscendQuant.md",
               note="int8 output; PER_TENSOR / PER_CHANNEL: the page's half steps (a float / bf16 source to half, Muls / Mul, Adds / Add, Cast "
                    "CAST_RINT); PER_TOKEN / PER_GROUP: " + _ROWS + "; float -> half CAST_ODD -> int8 with roundMode "
                    "(one rounding); the sharedTmpBuffer of the PER_TOKEN / PER_GROUP forms is reserved (unused); "
                    "fp8 / hifloat8 outputs (fp4 in PER_GROUP): float -> the type in one Cast (fp4 through bf16), "
                    "algorithm: assumed (the int8 formula with the output type changed)")


# -- AscendDequant -----------------------------------------------------------------------------------------
def _ascend_dequant():
    mode = tnamed("mode", "DeQuantMode", "DeQuantMode::DEQUANT_WITH_SINGLE_ROW", send="(int)mode")
    tps = (*tded("dstT", "scaleT"), mode)
    head = (local("dstTensor", "dstT"), local("srcTensor", "int32_t"))
    params = struct("params", "DequantParams")
    forms = []
    for scale in (local("deqScale", "scaleT"), scalar("deqScale", "const scaleT", "scaleT")):
        forms += [form(*tps, *head, scale, _TMP, params), form(*tps, *head, scale, params)]
    vec = local("deqScale", "scaleT")
    cal = scalar("calCount", _U32)
    forms += [form(*tps, *head, vec, _TMP, cal), form(*tps, *head, vec, _TMP), form(*tps, *head, vec, cal),
              form(*tps, *head, vec)]
    ttps = (*_spelled("dstT", "srcT", "scaleT"), _cfg("AscendDeQuantConfig"), _policy("AscendDeQuantPolicy"))
    thead = (local("dstTensor", "dstT"), local("srcTensor", "srcT"), local("scaleTensor", "scaleT"),
             local("offsetTensor", "scaleT"))
    para = struct("para", "AscendDeQuantParam")
    forms += [form(*ttps, *thead, _TMP, para), form(*ttps, *thead, para)]
    return api(FAMILY, "AscendDequant", QN.AscendDequant, *forms, dtypes=("half", "bfloat16_t", "float"),
               doc="AscendDequant.md",
               note="the page's steps (int32 and deqScale to float, Mul of the first calCount, CAST_RINT to dstT) row "
                    "by row; the deprecated forms: rows of deqScale's size (assumed); offsetTensor reserved")


# -- AscendAntiQuant ---------------------------------------------------------------------------------------
def _ascend_antiquant():
    tps = (*_spelled("InputDataType", "OutputDataType"), tnamed("isTranspose", "bool", None))
    head = (local("dst", "OutputDataType"), local("src", "InputDataType"))
    k = scalar("k", _U32)
    info = Arg(STRUCT, "shapeInfo", "const AntiQuantShapeInfo&", "{}")
    lo, ls = local("offset", "OutputDataType"), local("scale", "OutputDataType")
    so = scalar("offset", "const OutputDataType", "OutputDataType")
    ss = scalar("scale", "const OutputDataType", "OutputDataType")
    e8m0 = local("scale", "fp8_e8m0_t")
    forms = [form(*tps, *head, lo, ls, _TMP, k, info), form(*tps, *head, ls, _TMP, k, info),
             form(*tps, *head, so, ss, _TMP, k, info), form(*tps, *head, ss, _TMP, k, info),
             form(*tps, *head, e8m0, _TMP, k, info),
             form(*tps, *head, lo, ls, k, info), form(*tps, *head, so, ss, k, info), form(*tps, *head, e8m0, k, info)]
    ttps = (*_spelled("dstT", "srcT", "scaleT"), _cfg("AscendAntiQuantConfig"), _policy("AscendAntiQuantPolicy"))
    thead = (local("dstTensor", "dstT"), local("srcTensor", "srcT"), local("scaleTensor", "scaleT"),
             local("offsetTensor", "scaleT"))
    para = struct("para", "AscendAntiQuantParam")
    forms += [form(*ttps, *thead, _TMP, para), form(*ttps, *thead, para)]
    return api(FAMILY, "AscendAntiQuant", QN.AscendAntiQuant, *forms, dtypes=("half", "bfloat16_t", "float"),
               doc="AscendAntiQuant.md",
               note="int8 sources; PER_CHANNEL / PER_TENSOR: half dst in half (Cast, Add, Mul in dst), bf16 dst in "
                    "float; no shapeInfo: [1, N] / [N, size / N] assumed; PER_TOKEN / PER_GROUP: " + _ROWS +
                    "; fp8 / hifloat8 sources widened exactly; float4 forms: fp4 -> bf16 -> float x 2**(E - 127) "
                    "(the e8m0 scale shifted into a float exponent), CAST_RINT to dst")


# -- Quantize / Dequantize / AntiQuantize ----------------------------------------------------------------------
def _unified(short: str, fn, cfg: str, params: str, tmp_after_src: bool, note: str):
    tps = (_cfg(cfg), *tded("DstT", "SrcT", "ScaleT", "OffsetT"))
    head = (local("dstTensor", "DstT"), local("srcTensor", "SrcT"))
    st, ss = local("scale", "ScaleT"), scalar("scale", "const ScaleT&")
    ot, os_ = local("offset", "OffsetT"), scalar("offset", "const OffsetT&")
    p = struct("params", params)
    forms = []
    for pair in ((st, ot), (st, os_), (ss, os_)):
        if tmp_after_src:
            forms += [form(*tps, *head, _TMP, *pair, p), form(*tps, *head, *pair, p)]
        else:
            forms += [form(*tps, *head, *pair, _TMP, p), form(*tps, *head, *pair, p)]
    return api(FAMILY, short, fn, *forms, dtypes=("half", "bfloat16_t", "float"), doc=f"{short}.md",
               note=_ROWS + "; " + note)


# -- host side ----------------------------------------------------------------------------------------------
_SHAPE = struct("srcShape", "TensorShape")
_SCALE_SHAPE = struct("scaleShape", "TensorShape")
_TS = scalar("typeSize", _U32)
_MM = (sref("maxValue", "uint32_t"), sref("minValue", "uint32_t"))
_DT = (earg("inputDataType", "TensorDataType"), earg("outputDataType", "TensorDataType"))
_TR = scalar("isTranspose", "bool")


def _host(short: str, page: str, *args, ret: str = "void"):
    return api(FAMILY, short, getattr(QN, short), form(*args, ret=ret), doc=f"{page}.md", note=_TMP_NOTE)


def _factor(name: str = "maxLiveNodeCount") -> tuple:
    return sref(name, "uint32_t"), sref("extraBuf", "uint32_t")


_AQ = "GetAscendAntiQuantMaxMinTmpSize"
HOST_APIS = [
    _host("GetAscendQuantMaxMinTmpSize", "GetAscendQuantMaxMinTmpSize", _SHAPE, _TS, *_MM),
    _host("GetAscendQuantTmpBufferFactorSize", "GetAscendQuantTmpBufferFactorSize", *_factor()),
    _host("GetAscendDequantMaxMinTmpSize", "GetAscendDequantMaxMinTmpSize", _SHAPE, _TS, *_MM),
    _host("GetAscendDequantTmpBufferFactorSize", "GetAscendDequantTmpBufferFactorSize", _SHAPE, *_factor()),
    _host("GetAscendAntiQuantMaxMinTmpSize", _AQ, _SHAPE, _SCALE_SHAPE, _TR, *_DT, *_MM),
    _host("GetAscendAntiQuantMaxTmpSize", _AQ, _SHAPE, _SCALE_SHAPE, _TR, *_DT, ret="uint32_t"),
    _host("GetAscendAntiQuantMinTmpSize", _AQ, _SHAPE, _SCALE_SHAPE, _TR, *_DT, ret="uint32_t"),
    _host("GetAscendAntiQuantTmpBufferFactorSize", "GetAscendAntiQuantTmpBufferFactorSize", _SHAPE, _SCALE_SHAPE,
          _TR, *_DT, *_factor()),
    _host("GetQuantizeMaxMinTmpSize", "GetQuantizeMaxMinTmpSize", _SHAPE, _TS, *_MM),
    _host("GetQuantizeTmpBufferFactorSize", "GetQuantizeTmpBufferFactorSize", *_factor()),
    _host("GetDequantizeMaxMinTmpSize", "GetDequantizeMaxMinTmpSize", _SHAPE, _TS, *_MM),
    _host("GetDequantizeTmpBufferFactorSize", "GetDequantizeTmpBufferFactorSize", _SHAPE, *_factor("maxLiveNodeCnt")),
    _host("GetAntiQuantizeMaxMinTmpSize", "GetAntiQuantizeMaxMinTmpSize", _SHAPE, _SCALE_SHAPE, _TR, *_DT, *_MM),
    _host("GetAntiQuantizeTmpBufferFactorSize", "GetAntiQuantizeTmpBufferFactorSize", _SHAPE, _SCALE_SHAPE, *_DT,
          *_factor()),
]

APIS = [
    _ascend_quant(),
    _ascend_dequant(),
    _ascend_antiquant(),
    _unified("Quantize", QN.Quantize, "QuantizeConfig", "QuantizeParams", True,
             "float -> half CAST_ODD -> int8 with roundMode (one rounding; unsupported modes fall back to CAST_RINT); "
             "fp8 / hifloat8 / fp4 (PER_GROUP) outputs as AscendQuant's"),
    _unified("Dequantize", QN.Dequantize, "DequantizeConfig", "DequantizeParams", False,
             "offset reserved (not applied); an uint64_t scale: the float in its low 32 bits"),
    _unified("AntiQuantize", QN.AntiQuantize, "AntiQuantizeConfig", "AntiQuantizeParams", False,
             "(src + offset) x scale; int8 / fp8 / hifloat8 sources; fp4 PER_GROUP: x 2**(E - 127) (e8m0 scale)"),
    *HOST_APIS,
]
