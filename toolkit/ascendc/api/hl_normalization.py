"""``AscendC::`` high-level normalizations (高阶API/归一化操作): RmsNorm, LayerNorm (both forms), their tiling
structs and host helpers. Kernels: ``toolkit/ascendc/highlevel/normalization.py`` (MemBase calls row by
row); hand-written part: ``include/asc/highlevel_norm.h`` (LayerNormConfig, the tiling aliases)."""
from __future__ import annotations

import dataclasses

from toolkit.ascendc.highlevel import norm_grad as NG
from toolkit.ascendc.highlevel import norm_variants as NV
from toolkit.ascendc.highlevel import normalization as NM

from .spec import (
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

FAMILY = Family("hl.normalization", "AscendC", "hl_normalization.h", NM, doc_root="高阶API/归一化操作")
VARIANTS = Family("hl.norm_variants", "AscendC", "hl_norm_variants.h", NV, doc_root="高阶API/归一化操作")
GRAD = Family("hl.norm_grad", "AscendC", "hl_norm_grad.h", NG, doc_root="高阶API/归一化操作")

_HAND = "asc/highlevel_norm.h"
_NOTE = ("algorithm: assumed (row by row in float: ReduceSum, scalar mean / 1/sqrt(var + eps), Adds / Muls / Mul / "
         "Add as MemBase calls; two-pass variance; temporary buffer: 32 B + ReduceSum work + float rows)")
_LN_NOTE = ("algorithm: the page's steps ([B, S, H]: ReduceSum of x/H, of (x - mean)^2/H, rstd by Ln / Muls / Exp; "
            "[A, R]: binary accumulation of x/R and (x - mean)^2/R, rstd by Rsqrt), as MemBase calls in float; "
            "assumed: half / bfloat16 through float, the temporary buffer layout")
_TMP_NOTE = "the size of the emulated kernel's temporary buffer (the vendor's formula is not published)"


def _fields(cls) -> tuple:
    kinds = {"float": "float", "bool": "bool", "int": "uint32_t"}
    return tuple(Field(f.name, kinds[f.type if isinstance(f.type, str) else f.type.__name__],
                       "false" if f.type in (bool, "bool") else "0") for f in dataclasses.fields(cls))


STRUCTS = [
    StructDef("AscendC::tiling::RmsNormTiling", NM.RmsNormTiling, _fields(NM.RmsNormTiling), doc="高阶API/归一化操作/RmsNorm-Tiling.md"),
    StructDef("AscendC::tiling::LayerNormTiling", NM.LayerNormTiling, _fields(NM.LayerNormTiling),
              doc="高阶API/归一化操作/LayerNorm-Tiling.md"),
    StructDef("AscendC::tiling::LayerNormSeparateTiling", NM.LayerNormSeparateTiling,
              _fields(NM.LayerNormSeparateTiling), doc="高阶API/归一化操作/LayerNorm-Tiling.md"),
    StructDef("AscendC::LayerNormPara", NM.LayerNormPara, _fields(NM.LayerNormPara), doc="高阶API/归一化操作/LayerNorm.md"),
    *(StructDef(f"AscendC::tiling::{c.__name__}", c, _fields(c), doc=f"高阶API/归一化操作/{page}-Tiling.md")
      for c, page in ((NV.BatchNormTiling, "BatchNorm"), (NV.DeepNormTiling, "DeepNorm"),
                      (NV.GroupNormTiling, "GroupNorm"), (NG.LayerNormGradTiling, "LayerNormGrad"),
                      (NG.LayerNormGradBetaTiling, "LayerNormGradBeta"))),
    StructDef("AscendC::NormalizePara", NV.NormalizePara, _fields(NV.NormalizePara), doc="高阶API/归一化操作/Normalize.md"),
    StructDef("AscendC::LayerNormGradShapeInfo", NG.LayerNormGradShapeInfo,
              (Field("dataFormat", "AscendC::DataFormat", "AscendC::DataFormat::ND"),),
              doc="高阶API/归一化操作/LayerNormGrad.md"),
    StructDef("AscendC::WelfordUpdateParam", NG.WelfordUpdateParam, _fields(NG.WelfordUpdateParam),
              doc="高阶API/归一化操作/WelfordUpdate.md"),
    StructDef("AscendC::WelfordFinalizePara", NG.WelfordFinalizePara, _fields(NG.WelfordFinalizePara),
              doc="高阶API/归一化操作/WelfordFinalize.md"),
]
NAMES = [
    NameDef("AscendC::LayerNormConfig", "type", _HAND, None, "高阶API/归一化操作/LayerNorm.md"),
    NameDef("AscendC::LNCFG_NORM", "constant", _HAND, None, "高阶API/归一化操作/LayerNorm.md"),
    *(NameDef(f"AscendC::{n}", "alias", f"{_HAND}: the kernel-side name of tiling::{n}")
      for n in ("RmsNormTiling", "LayerNormTiling", "LayerNormSeparateTiling", "BatchNormTiling", "DeepNormTiling",
                "GroupNormTiling", "LayerNormGradTiling", "LayerNormGradBetaTiling")),
    *(NameDef(f"AscendC::{n}", kind, _HAND, None, f"高阶API/归一化操作/{page}.md") for n, kind, page in (
        ("NormalizeConfig", "type", "Normalize"), ("NLCFG_NORM", "constant", "Normalize"),
        ("WelfordUpdateConfig", "type", "WelfordUpdate"), ("WFUPDATE_DEFAULT_CFG", "constant", "WelfordUpdate"),
        ("WELFORD_UPDATE_ENABLE_INPLACE_CFG", "constant", "WelfordUpdate"),
        ("WelfordFinalizeConfig", "type", "WelfordFinalize"),
        ("WFFINALIZE_DEFAULT_CFG", "constant", "WelfordFinalize"))),
]

_T = tded("T")
_TMP = local("sharedTmpBuffer", "uint8_t")
_EPS = scalar("epsilon", "const T", "T")
_RMS = (local("dstLocal"), local("srcLocal"), local("gammaLocal"))
_LN = (local("output"), local("outputMean"), local("outputVariance"), local("inputX"), local("gamma"), local("beta"))
_LN_AR = (local("output"), local("outputMean", "float"), local("outputRstd", "float"), local("inputX"),
          local("gamma", "U"), local("beta", "U"), scalar("epsilon", "const float"))
_CFG = tnamed("config", "const LayerNormConfig&", "LNCFG_NORM",
              send="(config.isNoBeta ? 1 : 0) | (config.isNoGamma ? 2 : 0) | (config.isOnlyOutput ? 4 : 0) | "
                   "(config.isOutputRstd ? 8 : 0)")
_REUSE = thidden("isReuseSource", "bool", "false")
_SHAPE = struct("srcShape", "TensorShape")
_MM = (sref("maxValue", "uint32_t"), sref("minValue", "uint32_t"))
_TS = scalar("typeSize", "const uint32_t")
_IR = scalar("isReuseSource", "const bool")
_LNT = "LayerNorm-Tiling.md"

APIS = [
    api(FAMILY, "RmsNorm", NM.RmsNorm,
        form(_T, thidden("isBasicBlock", "bool", "false"), *_RMS, _TMP, _EPS, struct("tiling", "tiling::RmsNormTiling")),
        form(_T, thidden("isBasicBlock", "bool", "false"), *_RMS, _EPS, struct("tiling", "tiling::RmsNormTiling")),
        dtypes=("half", "float"), doc="RmsNorm.md", note=_NOTE),
    api(FAMILY, "LayerNorm", NM.LayerNorm,
        form(_T, _REUSE, *_LN, _TMP, _EPS, struct("tiling", "tiling::LayerNormTiling")),
        form(_T, _REUSE, *_LN, _EPS, struct("tiling", "tiling::LayerNormTiling")),
        form(tded("U", "T"), _REUSE, _CFG, *_LN_AR, _TMP, struct("para", "LayerNormPara"),
             struct("tiling", "tiling::LayerNormSeparateTiling")),
        form(tded("U", "T"), _REUSE, _CFG, *_LN_AR, struct("para", "LayerNormPara"),
             struct("tiling", "tiling::LayerNormSeparateTiling")),
        dtypes=("half", "bfloat16_t", "float"), doc="LayerNorm.md", note=_LN_NOTE),
    api(FAMILY, "GetRmsNormMaxMinTmpSize", NM.GetRmsNormMaxMinTmpSize,
        form(_SHAPE, _TS, *_MM, scalar("isBasicBlock", "const bool", default="false"), ret="bool"),
        doc="RmsNorm-Tiling.md", note=_TMP_NOTE),
    api(FAMILY, "GetRmsNormTilingInfo", NM.GetRmsNormTilingInfo,
        form(_SHAPE, struct("originSrcShape", "TensorShape"), scalar("stackBufferByteSize", "const uint32_t"), _TS,
             sout("tiling", "AscendC::tiling::RmsNormTiling"), scalar("isBasicBlock", "const bool", default="false"),
             ret="bool"), doc="RmsNorm-Tiling.md"),
    api(FAMILY, "GetLayerNormMaxMinTmpSize", NM.GetLayerNormMaxMinTmpSize,
        form(_SHAPE, _TS, _IR, *_MM),
        form(_SHAPE, _TS, _IR, scalar("isComputeRstd", "const bool"), scalar("isOnlyOutput", "const bool"), *_MM),
        doc=_LNT, note=_TMP_NOTE),
    *(api(FAMILY, short, getattr(NM, short),
          form(_SHAPE, scalar("stackBufferSize", "const uint32_t"), _TS, _IR,
               sout("tiling", "AscendC::tiling::LayerNormTiling")),
          *((form(_SHAPE, scalar("stackBufferSize", "const uint32_t"), _TS, _IR, scalar("isComputeRstd", "const bool"),
                  sout("tiling", "AscendC::tiling::LayerNormSeparateTiling")),) if short.endswith("TilingInfo") else ()),
          doc=_LNT, note="" if short.endswith("TilingInfo") else "the deprecated spelling (the page)")
      for short in ("GetLayerNormNDTilingInfo", "GetLayerNormNDTillingInfo")),
]


# -- BatchNorm, DeepNorm, GroupNorm, Normalize ------------------------------------------------------------------
_NV_NOTE = _NOTE.replace("row by row", "rows / columns / groups")
_BN_HEAD = (local("output"), local("outputMean"), local("outputVariance"), local("inputX"), local("gamm"), local("beta"))
_GN_HEAD = (local("output"), local("outputMean"), local("outputVariance"), local("inputX"), local("gamma"),
            local("beta"))
_DN_HEAD = (local("dstLocal"), local("meanLocal"), local("rstdLocal"), local("srcLocal"), local("gxLocal"),
            local("betaLocal"), local("gammaLocal"))
_NL_HEAD = (local("output"), local("outputRstd", "float"), local("inputMean", "float"), local("inputVariance", "float"),
            local("inputX"), local("gamma", "U"), local("beta", "U"))
_NL_CFG = tnamed("config", "const NormalizeConfig&", "NLCFG_NORM",
                 send="(config.isNoBeta ? 1 : 0) | (config.isNoGamma ? 2 : 0) | (config.isOnlyOutput ? 4 : 0)")
_BASIC = thidden("isBasicBlock", "bool", "false")
_ORIG = struct("originSrcShape", "TensorShape")


def _tmp_and_plain(tps: tuple, head: tuple, before: tuple, after: tuple) -> tuple:
    """The sharedTmpBuffer form and the framework form: ``head, [tmp,] before..., after...``."""
    return form(*tps, *head, _TMP, *before, *after), form(*tps, *head, *before, *after)


VARIANT_APIS = [
    api(VARIANTS, "BatchNorm", NV.BatchNorm,
        *_tmp_and_plain((_T, _REUSE, _BASIC), _BN_HEAD, (_EPS,), (struct("tiling", "tiling::BatchNormTiling"),)),
        dtypes=("half", "float"), doc="BatchNorm.md", note=_NV_NOTE),
    api(VARIANTS, "DeepNorm", NV.DeepNorm,
        *_tmp_and_plain((_T, thidden("isReuseSrc", "bool", "false"), _BASIC), _DN_HEAD,
                        (scalar("alpha", "const T", "T"), _EPS), (struct("tiling", "tiling::DeepNormTiling"),)),
        dtypes=("half", "float"), doc="DeepNorm.md", note=_NV_NOTE),
    api(VARIANTS, "GroupNorm", NV.GroupNorm,
        *_tmp_and_plain((_T, _REUSE), _GN_HEAD, (_EPS,), (struct("tiling", "tiling::GroupNormTiling"),)),
        dtypes=("half", "float"), doc="GroupNorm.md", note=_NV_NOTE + "; H*W 32 B aligned"),
    api(VARIANTS, "Normalize", NV.Normalize,
        *_tmp_and_plain((*tded("U", "T"), _REUSE, _NL_CFG), _NL_HEAD, (scalar("epsilon", "const float"),),
                        (struct("para", "NormalizePara"),)),
        dtypes=("half", "bfloat16_t", "float"), doc="Normalize.md", note=_NV_NOTE),
    api(VARIANTS, "GetBatchNormMaxMinTmpSize", NV.GetBatchNormMaxMinTmpSize,
        form(_SHAPE, _ORIG, _TS, _IR, *_MM, scalar("isBasicBlock", "const bool", default="false"), ret="bool"),
        doc="BatchNorm-Tiling.md", note=_TMP_NOTE),
    api(VARIANTS, "GetBatchNormNDTilingInfo", NV.GetBatchNormNDTilingInfo,
        form(_SHAPE, _ORIG, scalar("stackBufferByteSize", "const uint32_t"), _TS, _IR,
             sout("tilling", "AscendC::tiling::BatchNormTiling"), scalar("isBasicBlock", "const bool", default="false"),
             ret="bool"), doc="BatchNorm-Tiling.md"),
    api(VARIANTS, "GetDeepNormMaxMinTmpSize", NV.GetDeepNormMaxMinTmpSize,
        form(_SHAPE, _TS, _IR, scalar("isBasicBlock", "const bool"), *_MM, ret="bool"), doc="DeepNorm-Tiling.md",
        note=_TMP_NOTE),
    api(VARIANTS, "GetDeepNormTilingInfo", NV.GetDeepNormTilingInfo,
        form(_SHAPE, _ORIG, scalar("stackBufferSize", "const uint32_t"), _TS, _IR, scalar("isBasicBlock", "const bool"),
             sout("tiling", "AscendC::tiling::DeepNormTiling"), ret="bool"), doc="DeepNorm-Tiling.md"),
    api(VARIANTS, "GetGroupNormMaxMinTmpSize", NV.GetGroupNormMaxMinTmpSize,
        form(_SHAPE, _TS, _IR, scalar("groupNum", "const uint32_t"), *_MM), doc="GroupNorm-Tiling.md", note=_TMP_NOTE),
    api(VARIANTS, "GetGroupNormNDTilingInfo", NV.GetGroupNormNDTilingInfo,
        form(_SHAPE, scalar("stackBufferSize", "const uint32_t"), _TS, _IR, scalar("groupNum", "const uint32_t"),
             sout("tiling", "AscendC::tiling::GroupNormTiling")), doc="GroupNorm-Tiling.md"),
    api(VARIANTS, "GetNormalizeMaxMinTmpSize", NV.GetNormalizeMaxMinTmpSize,
        form(_SHAPE, scalar("typeSizeU", "const uint32_t"), scalar("typeSizeT", "const uint32_t"), _IR,
             scalar("isComputeRstd", "const bool"), scalar("isOnlyOutput", "const bool"), *_MM),
        doc="Normalize-Tiling.md", note=_TMP_NOTE),
]

# -- LayerNormGrad, LayerNormGradBeta, WelfordUpdate, WelfordFinalize ---------------------------------------------
_LNG_HEAD = (local("outputPdX"), local("resForGamma"), local("inputDy"), local("inputX"), local("inputVariance"),
             local("inputMean"), local("inputGamma"))
_LNG_INFO = Arg(STRUCT, "shapeInfo", "const LayerNormGradShapeInfo&", "{}")
_WU_HEAD = (local("outputMean", "U"), local("outputVariance", "U"), local("inputMean", "U"),
            local("inputVariance", "U"), local("inputX"))
_WU_CFG = tnamed("config", "const WelfordUpdateConfig&", "WFUPDATE_DEFAULT_CFG", send="(int)config.isInplace")
_WF_HEAD = tuple(local(n, "float") for n in ("outputMean", "outputVariance", "inputMean", "inputVariance"))
_WF_CFG = tnamed("config", "const WelfordFinalizeConfig&", "WFFINALIZE_DEFAULT_CFG", send="(int)config.isCorrection")
_WF_PARA = struct("para", "WelfordFinalizePara")
_COUNTS = local("counts", "int32_t")
_GRAD_NOTE = _NOTE.replace("two-pass variance", "the page's formulas")
_STACK = scalar("stackBufferSize", "const uint32_t")

GRAD_APIS = [
    api(GRAD, "LayerNormGrad", NG.LayerNormGrad,
        *_tmp_and_plain((_T, _REUSE), _LNG_HEAD, (_EPS,), (struct("tiling", "tiling::LayerNormGradTiling"), _LNG_INFO)),
        dtypes=("half", "float"), doc="LayerNormGrad.md", note=_GRAD_NOTE),
    api(GRAD, "LayerNormGradBeta", NG.LayerNormGradBeta,
        *_tmp_and_plain((_T, _REUSE), (local("outputPdGamma"), local("outputPdBeta"), local("resForGamma"),
                                       local("inputDy")), (), (struct("tiling", "tiling::LayerNormGradBetaTiling"),)),
        dtypes=("half", "float"), doc="LayerNormGradBeta.md", note=_GRAD_NOTE),
    api(GRAD, "WelfordUpdate", NG.WelfordUpdate,
        *_tmp_and_plain((*tded("T", "U"), _REUSE, _WU_CFG), _WU_HEAD, (), (struct("para", "WelfordUpdateParam"),)),
        dtypes=("half", "float"), doc="WelfordUpdate.md",
        note="algorithm: the Welford step as MemBase Sub / Muls / Add / Mul; isInplace copies the rest (the page's "
             "example agrees)"),
    api(GRAD, "WelfordFinalize", NG.WelfordFinalize,
        form(_REUSE, _WF_CFG, *_WF_HEAD, _TMP, _WF_PARA), form(_REUSE, _WF_CFG, *_WF_HEAD, _COUNTS, _TMP, _WF_PARA),
        form(_REUSE, _WF_CFG, *_WF_HEAD, _WF_PARA), form(_REUSE, _WF_CFG, *_WF_HEAD, _COUNTS, _WF_PARA),
        dtypes=("float",), doc="WelfordFinalize.md",
        note="algorithm: assumed (count-weighted mean and M2 sums by ReduceSum, times rRec or rRecWithCorrection; "
             "the page's counts example agrees)"),
    api(GRAD, "GetLayerNormGradMaxMinTmpSize", NG.GetLayerNormGradMaxMinTmpSize, form(_SHAPE, _TS, _IR, *_MM),
        doc="LayerNormGrad-Tiling.md", note=_TMP_NOTE),
    api(GRAD, "GetLayerNormGradNDTilingInfo", NG.GetLayerNormGradNDTilingInfo,
        form(_SHAPE, _STACK, _TS, _IR, sout("tiling", "AscendC::tiling::LayerNormGradTiling")),
        doc="LayerNormGrad-Tiling.md"),
    api(GRAD, "GetLayerNormGradBetaMaxMinTmpSize", NG.GetLayerNormGradBetaMaxMinTmpSize, form(_SHAPE, _TS, _IR, *_MM),
        doc="LayerNormGradBeta-Tiling.md", note=_TMP_NOTE),
    api(GRAD, "GetLayerNormGradBetaNDTilingInfo", NG.GetLayerNormGradBetaNDTilingInfo,
        form(_SHAPE, _STACK, _TS, _IR, sout("tiling", "AscendC::tiling::LayerNormGradBetaTiling")),
        doc="LayerNormGradBeta-Tiling.md"),
    api(GRAD, "GetWelfordUpdateMaxMinTmpSize", NG.GetWelfordUpdateMaxMinTmpSize,
        form(_SHAPE, scalar("typeSizeT", "const uint32_t"), scalar("typeSizeU", "const uint32_t"), _IR,
             scalar("isInplace", "const bool"), *_MM), doc="WelfordUpdate-Tiling.md", note=_TMP_NOTE),
    api(GRAD, "GetWelfordFinalizeMaxMinTmpSize", NG.GetWelfordFinalizeMaxMinTmpSize, form(_SHAPE, _TS, _IR, *_MM),
        doc="WelfordFinalize-Tiling.md", note=_TMP_NOTE),
]

APIS = [*APIS, *VARIANT_APIS, *GRAD_APIS]
