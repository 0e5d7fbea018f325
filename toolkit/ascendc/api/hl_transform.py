"""``AscendC::`` high-level tensor transforms (高阶API/张量变换): Broadcast, Pad, UnPad, Fill, TransData, the
tiling structs and host helpers (the high-level Transpose forms are added to the basic Transpose of
membase_misc.py). Kernels: ``toolkit/ascendc/highlevel/transform.py`` / ``transform_layout.py``; hand-written
part: ``include/asc/highlevel_transform.h`` (TransDataConfig / TransDataParams, the Broadcast and TransData
forms that take arrays and Layouts, the high-level Transpose forms, GetBroadcastTilingInfo, the aliases)."""
from __future__ import annotations

import dataclasses

from toolkit.ascendc.highlevel import transform as TR
from toolkit.ascendc.highlevel import transform_layout as TL

from .spec import (
    GLOBAL,
    IGNORED,
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
    sout,
    sref,
    struct,
    tded,
    thidden,
    tnamed,
    ttype,
    tvalue,
)

FAMILY = Family("hl.transform", "AscendC", "hl_transform.h", TR, doc_root="高阶API/张量变换")
LAYOUT = Family("hl.transform_layout", "AscendC", "hl_transform_layout.h", TL, doc_root="高阶API/张量变换")

HAND = "asc/highlevel_transform.h"
_MAP = ("algorithm: assumed (an element map: Duplicate of the pad value into a 32 B block, per chunk of the map "
        "the uint32 byte offsets stored by the scalar unit into the temporary buffer, then one Gather)")
_TMP_NOTE = ("the size of the emulated kernel's temporary buffer: a 32 B pad block plus the offset table (min: "
             "256 offsets, max: the whole map); the vendor's formula is not published")
_BC_TMP = (_TMP_NOTE + "; Broadcast's own steps ([.., 1] -> [.., k]): the Brcb blocks, the k-aligned rows and the "
           "GatherMask pattern, min = max")
_FIELDS_NOTE = "field layout assumed (the vendor's is not published)"
_B = "Broadcast.md"
_PLAT = Arg(IGNORED, "ascendcPlatform", "const platform_ascendc::PlatformAscendC&")
_MM = (sref("maxValue", "uint32_t"), sref("minValue", "uint32_t"))
_TS = scalar("typeSize", "const uint32_t")
_STACK = scalar("stackBufferSize", "const uint32_t")
_TMP = local("sharedTmpBuffer", "uint8_t")
_TMPREF = Arg("local", "sharedTmpBuffer", "LocalTensor<uint8_t>&")
_ALL = ("int8_t", "uint8_t", "int16_t", "uint16_t", "half", "bfloat16_t", "int32_t", "uint32_t", "float",
        "int64_t", "uint64_t")
_PAD_T = ("int16_t", "uint16_t", "half", "int32_t", "uint32_t", "float")


def _u32(cls, ctypes: dict | None = None) -> tuple:
    kinds = ctypes or {}
    return tuple(Field(f.name, kinds.get(f.name, "bool" if f.type in (bool, "bool") else "uint32_t"),
                       "false" if f.type in (bool, "bool") else ("-1" if f.name == "axis" else "0"))
                 for f in dataclasses.fields(cls))


_P = "高阶API/张量变换/"
_U16 = ("uint16_t", "0")
STRUCTS = [
    StructDef("AscendC::BroadcastTiling", TR.BroadcastTiling, _u32(TR.BroadcastTiling, {"axis": "int32_t"}),
              doc=_P + _B),
    StructDef("AscendC::PadParams", TR.PadParams,
              (Field("leftPad", *_U16), Field("rightPad", *_U16), Field("padValue", "int32_t", "0")),
              doc=_P + "Pad.md"),
    StructDef("AscendC::UnPadParams", TR.UnPadParams, (Field("leftPad", *_U16), Field("rightPad", *_U16)),
              doc=_P + "UnPad.md"),
    StructDef("AscendC::tiling::PadTiling", TR.PadTiling, _u32(TR.PadTiling), doc=_P + "Pad-Tiling.md"),
    StructDef("AscendC::tiling::UnPadTiling", TR.UnPadTiling, _u32(TR.UnPadTiling), doc=_P + "UnPad-Tiling.md"),
]
LAYOUT_STRUCTS = [
    StructDef("AscendC::tiling::ConfusionTransposeTiling", TL.ConfusionTransposeTiling,
              _u32(TL.ConfusionTransposeTiling), doc=_P + "Transpose-Tiling.md"),
    StructDef("AscendC::TransDataConfig", TL.TransDataConfig,
              (Field("srcFormat", "AscendC::DataFormat", "AscendC::DataFormat::ND"),
               Field("dstFormat", "AscendC::DataFormat", "AscendC::DataFormat::ND")),
              doc=_P + "TransData.md", hand=HAND),
]
NAMES = [
    NameDef("AscendC::TransDataParams", "type", HAND, TL.TransDataParams, "高阶API/张量变换/TransData.md"),
    *(NameDef(f"AscendC::{n}", "alias", f"{HAND}: the kernel-side name of tiling::{n}")
      for n in ("PadTiling", "UnPadTiling", "ConfusionTransposeTiling")),
]

_BT = Arg("scalar", "tiling", "BroadcastTiling*")
_SHP = (scalar("dstShape", "const uint32_t*"), scalar("srcShape", "const uint32_t*"))
_BC_T = (ttype("T", None), tvalue("dim", "int32_t"), tvalue("axis", "int32_t"),
         thidden("isReuseSource", "bool", "false"))
_DYN = (*tded("T"), thidden("constRank", "int", "-1"), thidden("constDstShape", "uint32_t*", "nullptr"),
        thidden("constSrcShape", "uint32_t*", "nullptr"))
_HB = f"{HAND}: the shapes are arrays; the form sends them in a BroadcastTiling (the flattened form)"
_FLAT_BC = struct("shapes", "BroadcastTiling")

APIS = [
    api(FAMILY, "Broadcast", TR.Broadcast,
        form(*_BC_T, local("dstLocal"), local("srcLocal"), *_SHP, _TMPREF, hand=_HB),
        form(*_BC_T, local("dstLocal"), local("srcLocal"), *_SHP, hand=_HB),
        form(*_DYN, thidden("constSrcInnerPad", "bool", "false"), local("dst"), local("src"), *_SHP, _BT, hand=_HB),
        form(*tded("T"), local("dst"), local("src"), _FLAT_BC, _TMP),
        form(*tded("T"), local("dst"), local("src"), _FLAT_BC),
        dtypes=_ALL, doc=_B,
        note="algorithm: the page's (Brcb, level-0 Copy, GatherMask for an unaligned k) when only the last axis is "
             "broadcast from 1 and the type is 8/16/32-bit; the other broadcasts (axis 0, several axes, 64-bit): "
             + _MAP.removeprefix("algorithm: ") + "; the [dim, axis] forms check the page's limits (dim 1 or 2, "
             "axis 0 or 1, dim 2 / axis 0: srcShape[1] 32 B aligned); the rank 1..9 form takes any broadcast axes"),
    api(FAMILY, "GetBroadcastTilingInfo", TR.GetBroadcastTilingInfo,
        form(ttype("T", None), *_DYN[1:], scalar("rank", "uint32_t"), *_SHP, scalar("srcInnerPad", "bool"),
             sout("tiling", "BroadcastTiling"), hand=f"{HAND}: kernel-side C++ (the rank and the shapes)"),
        doc=_B, note="BroadcastTiling: " + _FIELDS_NOTE),
    api(FAMILY, "GetBroadCastMaxMinTmpSize", TR.GetBroadCastMaxMinTmpSize,
        form(_PLAT, struct("srcShape", "AscendC::TensorShape"), struct("dstShape", "AscendC::TensorShape"),
             scalar("typeSize", "uint32_t"), scalar("isReuseSource", "const bool"), *_MM),
        doc="GetBroadCastMaxMinTmpSize.md", note=_BC_TMP),
    api(FAMILY, "Pad", TR.Pad,
        form(*tded("T"), local("dstTensor"), local("srcTensor"), struct("padParams", "PadParams"), _TMP,
             struct("tiling", "tiling::PadTiling")),
        form(*tded("T"), local("dstTensor"), local("srcTensor"), struct("padParams", "PadParams"),
             struct("tiling", "tiling::PadTiling")),
        dtypes=_PAD_T, doc="Pad.md",
        note=_MAP + " for scenario 1 (destination rows: leftPad + width + rightPad, assumed); scenario 2 (aligned "
                    "width): Copy, then a level-0 Duplicate with a bit mask over the pad columns (no temporary space)"),
    api(FAMILY, "UnPad", TR.UnPad,
        form(*tded("T"), local("dstTensor"), local("srcTensor"), struct("unPadParams", "UnPadParams"), _TMPREF,
             struct("tiling", "tiling::UnPadTiling")),
        form(*tded("T"), local("dstTensor"), local("srcTensor"), struct("unPadParams", "UnPadParams"),
             struct("tiling", "tiling::UnPadTiling")),
        dtypes=_PAD_T, doc="UnPad.md",
        note="algorithm: assumed (GatherMask in counter mode, one repeat per row, a pattern of the kept columns in "
             "the temporary buffer); leftPad is ignored (the page: not in effect)"),
    api(FAMILY, "GetPadMaxMinTmpSize", TR.GetPadMaxMinTmpSize,
        form(struct("srcShape", "AscendC::TensorShape"), _TS, *_MM), doc="Pad-Tiling.md",
        note=_TMP_NOTE + "; an aligned width (scenario 2): 0"),
    api(FAMILY, "PadTilingFunc", TR.PadTilingFunc,
        form(struct("srcShape", "AscendC::TensorShape"), struct("oriSrcShape", "AscendC::TensorShape"), _STACK, _TS,
             sout("tiling", "AscendC::tiling::PadTiling")),
        doc="Pad-Tiling.md", note="PadTiling: " + _FIELDS_NOTE + "; optiling::PadTiling is the same struct"),
    api(FAMILY, "GetUnPadMaxMinTmpSize", TR.GetUnPadMaxMinTmpSize,
        form(_PLAT, struct("srcShape", "AscendC::TensorShape"), _TS, *_MM), doc="UnPad-Tiling.md",
        note="the GatherMask pattern of the emulated kernel (a bit per column, 32 B aligned), min = max; the vendor's "
             "formula is not published"),
    api(FAMILY, "UnPadTilingFunc", TR.UnPadTilingFunc,
        form(struct("srcShape", "AscendC::TensorShape"), _STACK, _TS, sout("tiling", "AscendC::tiling::UnPadTiling")),
        doc="UnPad-Tiling.md", note="UnPadTiling: " + _FIELDS_NOTE + "; optiling::UnPadTiling is the same struct"),
    api(FAMILY, "Fill", TR.Fill,
        form(*tded("T"), Arg(GLOBAL, "gmWorkspaceAddr", "GlobalTensor<T>&"), scalar("size", "const uint64_t"),
             scalar("value", "const T", "T")),
        dtypes=_ALL, doc="Fill-97.md",
        note="algorithm: assumed (Duplicate into an 8 KiB UB block, a V -> MTE3 flag, DataCopyPad UB -> GM per block)"),
]

_TD_CFG = tnamed("config", "const TransDataConfig&", None)
_TDP = scalar("params", "const TransDataParams<U, S>&")
_HT = f"{HAND}: the Layouts' shapes go out as TensorShapes (the flattened form)"
_FMT = (earg("srcFormat", "DataFormat"), earg("dstFormat", "DataFormat"), struct("srcShape", "AscendC::TensorShape"),
        struct("dstShape", "AscendC::TensorShape"))
_TSHAPE = struct("srcShape", "AscendC::TensorShape")
_TT = scalar("transposeTypeIn", "const uint32_t")
_CT = sout("tiling", "AscendC::tiling::ConfusionTransposeTiling")
_DEPRECATED = "deprecated (the page): the same as the GetTranspose* query"
_SAME = "; optiling::ConfusionTransposeTiling is the same struct (one overload serves both documented forms)"

LAYOUT_APIS = [
    api(LAYOUT, "TransData", TL.TransData,
        form(_TD_CFG, *tded("T", "U", "S"), local("dstTensor"), local("srcTensor"), _TMP, _TDP, hand=_HT),
        form(_TD_CFG, *tded("T", "U", "S"), local("dstTensor"), local("srcTensor"), _TDP, hand=_HT),
        form(*tded("T"), local("dstTensor"), local("srcTensor"), _TMP, *_FMT),
        form(*tded("T"), local("dstTensor"), local("srcTensor"), *_FMT),
        dtypes=("int16_t", "uint16_t", "half", "bfloat16_t"), doc="TransData.md",
        note="algorithm: assumed (16 x 16 transposes by TransDataTo5HD over address lists: 16 channels (or 16 N) by "
             "16 H * W positions; padding channels / N read a zero block of the temporary buffer, positions past "
             "H * W go to a sink block); padding lanes and an NCDHW output's merged H * W padding are 0"),
    api(LAYOUT, "GetTransDataMaxMinTmpSize", TL.GetTransDataMaxMinTmpSize,
        form(Arg(IGNORED, "platform", "const platform_ascendc::PlatformAscendC&"), _TSHAPE,
             struct("dstShape", "AscendC::TensorShape"), earg("dataType", "TensorDataType"),
             struct("config", "TransDataConfig"), *_MM, ret="bool"),
        doc="GetTransDataMaxMinTmpSize.md",
        note="the emulated kernel's zero and sink blocks (64 B), max = min; false for other types or conversions; "
             "the vendor's formula is not published"),
    api(LAYOUT, "GetTransposeMaxMinTmpSize", TL.GetTransposeMaxMinTmpSize, form(_TSHAPE, _TS, _TT, *_MM),
        doc="Transpose-Tiling.md",
        note=_TMP_NOTE + "; scenario 7: 0; 1-6 with H/N a multiple of 16: S x 16 elements for 16-bit types (the "
                         "two TransDataTo5HD steps), 0 for 32-bit (DataCopy)"),
    api(LAYOUT, "GetConfusionTransposeMaxMinTmpSize", TL.GetConfusionTransposeMaxMinTmpSize,
        form(_TSHAPE, _TS, _TT, *_MM), doc="Transpose-Tiling.md", note=_DEPRECATED),
    api(LAYOUT, "GetTransposeTilingInfo", TL.GetTransposeTilingInfo, form(_TSHAPE, _STACK, _TS, _TT, _CT),
        doc="Transpose-Tiling.md",
        note="ConfusionTransposeTiling: param0..param17 as the vendor's; their meaning here: the TransposeType, "
             "the number of dimensions, the shape (assumed); optiling:: is the same struct"),
    api(LAYOUT, "GetConfusionTransposeTilingInfo", TL.GetConfusionTransposeTilingInfo,
        form(_TSHAPE, _STACK, _TS, _TT, _CT), doc="Transpose-Tiling.md", note=_DEPRECATED + _SAME),
    api(LAYOUT, "GetConfusionTransposeOnlyTilingInfo", TL.GetConfusionTransposeOnlyTilingInfo,
        form(_TSHAPE, _STACK, _TS, _CT), doc="Transpose-Tiling.md",
        note=_DEPRECATED + "; without a transposeType: the [H, W] transpose (scenario 7, assumed)" + _SAME),
]

APIS = [*APIS, *LAYOUT_APIS]
STRUCTS = [*STRUCTS, *LAYOUT_STRUCTS]
