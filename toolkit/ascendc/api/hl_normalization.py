"""``AscendC::`` high-level normalizations (高阶API/归一化操作): RmsNorm, LayerNorm (both forms), their tiling
structs and host helpers. Kernels: ``toolkit/ascendc/highlevel/normalization.py`` (MemBase calls row by
row); hand-written part: ``include/asc/highlevel_norm.h`` (LayerNormConfig, the tiling aliases)."""
from __future__ import annotations

import dataclasses

from toolkit.ascendc.highlevel import normalization as NM

from .spec import (
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

_HAND = "asc/highlevel_norm.h"
_NOTE = ("algorithm: assumed (row by row in float: ReduceSum, scalar mean / 1/sqrt(var + eps), Adds / Muls / Mul / "
         "Add as MemBase calls; two-pass variance; temporary buffer: 32 B + ReduceSum work + float rows)")
_TMP_NOTE = "the size of the emulated kernel's temporary buffer (the vendor's formula is not published)"


def _fields(cls) -> tuple:
    return tuple(Field(f.name, "float" if f.type in (float, "float") else "uint32_t", "0")
                 for f in dataclasses.fields(cls))


STRUCTS = [
    StructDef("AscendC::tiling::RmsNormTiling", NM.RmsNormTiling, _fields(NM.RmsNormTiling), doc="高阶API/归一化操作/RmsNorm-Tiling.md"),
    StructDef("AscendC::tiling::LayerNormTiling", NM.LayerNormTiling, _fields(NM.LayerNormTiling),
              doc="高阶API/归一化操作/LayerNorm-Tiling.md"),
    StructDef("AscendC::tiling::LayerNormSeparateTiling", NM.LayerNormSeparateTiling,
              _fields(NM.LayerNormSeparateTiling), doc="高阶API/归一化操作/LayerNorm-Tiling.md"),
    StructDef("AscendC::LayerNormPara", NM.LayerNormPara, _fields(NM.LayerNormPara), doc="高阶API/归一化操作/LayerNorm.md"),
]
NAMES = [
    NameDef("AscendC::LayerNormConfig", "type", _HAND, None, "高阶API/归一化操作/LayerNorm.md"),
    NameDef("AscendC::LNCFG_NORM", "constant", _HAND, None, "高阶API/归一化操作/LayerNorm.md"),
    *(NameDef(f"AscendC::{n}", "alias", f"{_HAND}: the kernel-side name of tiling::{n}")
      for n in ("RmsNormTiling", "LayerNormTiling", "LayerNormSeparateTiling")),
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
        dtypes=("half", "bfloat16_t", "float"), doc="LayerNorm.md", note=_NOTE),
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
