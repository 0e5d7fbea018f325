"""``AscendC::Reg`` data movement between UB and registers: LoadAlign / StoreAlign (every dist, post-update,
AddrReg, block-strided, MaskReg), the unaligned pairs, and the older name DataCopy."""
from __future__ import annotations

from toolkit.ascendc import regbase as Reg

from .spec import (
    Family,
    api,
    areg,
    form,
    ignored,
    mask,
    reg,
    scalar,
    tded,
    tenum,
    ttype,
    ub,
    ubref,
    ureg,
)

FAMILY = Family("reg.datamove", "AscendC::Reg", "reg_datamove.h", Reg, doc_root="基础API/Reg矢量计算")

_T = ttype()
_LD = tenum("dist", "LoadDist", "DIST_NORM")
_SD = tenum("dist", "StoreDist", "DIST_NORM")
_POST = tenum("post", "PostLiteral")
_POST_N = tenum("post", "PostLiteral", "POST_MODE_NORMAL")
_MODE = tenum("mode", "DataCopyMode")
_LOAD = "Reg数据搬入/连续对齐搬入（LoadAlign）.md"
_LOAD_BLK = "基础API/Reg矢量计算/Reg数据搬入/非连续对齐搬入（LoadAlign）.md"
_LOAD_MASK = "基础API/Reg矢量计算/Reg数据搬入/MaskReg搬入（LoadAlign）.md"
_STORE = "Reg数据搬出/连续对齐搬出（StoreAlign）.md"
_STORE_BLK = "基础API/Reg矢量计算/Reg数据搬出/非连续对齐搬出（StoreAlign）.md"
_STORE_MASK = "基础API/Reg矢量计算/Reg数据搬出/MaskReg搬出（StoreAlign）.md"
_UL = "UnalignRegForLoad"
_US = "UnalignRegForStore"

APIS = [
    api(FAMILY, "LoadAlign", Reg.LoadAlign,
        form(_T, _LD, tded("R", "U"), reg("dstReg"), ub("srcAddr")),
        form(_T, _LD, tded("R", "U"), reg("dstReg"), ub("srcAddr"), areg()),
        form(_T, _LD, tded("R", "U"), reg("dstReg0"), reg("dstReg1"), ub("srcAddr")),
        form(ttype("T", None), _POST, _LD, tded("R", "U"), reg("dstReg"), ubref("srcAddr"),
             scalar("postUpdateStride", "int32_t")),
        form(ttype("T", None), _MODE, tded("R", "U"), reg("dstReg"), ub("srcAddr"),
             scalar("blockStride", "uint32_t"), mask(), doc=_LOAD_BLK),
        form(ttype("T", None), _MODE, _POST_N, tded("R", "U"), reg("dstReg"), ubref("srcAddr"),
             scalar("blockStride", "uint32_t"), scalar("repeatStride", "uint32_t"), mask(), doc=_LOAD_BLK),
        form(_T, tenum("dist", "MaskDist", "DIST_NORM"), tded("U"), mask("dstReg"), ub("srcAddr"),
             doc=_LOAD_MASK),
        opcodes=("RV_VLD", "RV_VSLDB"), doc=_LOAD,
        dtypes=("int8_t", "uint8_t", "int16_t", "uint16_t", "half", "bfloat16_t", "int32_t", "uint32_t", "float")),
    api(FAMILY, "StoreAlign", Reg.StoreAlign,
        form(_T, _SD, tded("U", "R"), ub("dstAddr"), reg("srcReg"), mask()),
        form(_T, _SD, tded("U", "R"), ub("dstAddr"), reg("srcReg"), areg(), mask()),
        form(_T, _SD, tded("U", "R"), ub("dstAddr"), reg("srcReg0"), reg("srcReg1"), mask()),
        form(ttype("T", None), _POST, _SD, tded("U", "R"), ubref("dstAddr"), reg("srcReg"),
             scalar("postUpdateStride", "int32_t"), mask()),
        form(ttype("T", None), _MODE, tded("U", "R"), ub("dstAddr"), reg("srcReg"),
             scalar("blockStride", "uint32_t"), mask(), doc=_STORE_BLK),
        form(ttype("T", None), _MODE, _POST_N, tded("U", "R"), ubref("dstAddr"), reg("srcReg"),
             scalar("blockStride", "uint32_t"), scalar("repeatStride", "uint32_t"), mask(), doc=_STORE_BLK),
        form(_T, tenum("dist", "MaskDist", "DIST_NORM"), tded("U"), ub("dstAddr"), mask("srcReg"),
             doc=_STORE_MASK),
        opcodes=("RV_VST", "RV_VSSTB"), doc=_STORE,
        dtypes=("int8_t", "uint8_t", "int16_t", "uint16_t", "half", "bfloat16_t", "int32_t", "uint32_t", "float")),
    api(FAMILY, "DataCopy", None,
        form(_T, _LD, tded("T2", "Tr", "U"), reg("dstReg", "RegTensor<T2, Tr>"), ub("srcAddr"),
             via="AscendC::Reg::LoadAlign"),
        form(_T, _SD, tded("U", "T2", "Tr"), ub("dstAddr"), reg("srcReg", "RegTensor<T2, Tr>"), mask(),
             via="AscendC::Reg::StoreAlign"),
        form(ttype("T", None), _POST, _LD, tded("T2", "Tr", "U"), reg("dstReg", "RegTensor<T2, Tr>"),
             ubref("srcAddr"), scalar("postUpdateStride", "int32_t"), via="AscendC::Reg::LoadAlign"),
        form(ttype("T", None), _POST, _SD, tded("U", "T2", "Tr"), ubref("dstAddr"),
             reg("srcReg", "RegTensor<T2, Tr>"), scalar("postUpdateStride", "int32_t"), mask(),
             via="AscendC::Reg::StoreAlign"),
        doc=_LOAD, note="the older name of LoadAlign (register first) and StoreAlign (UB first)"),
    api(FAMILY, "LoadUnAlignPre", Reg.LoadUnAlignPre,
        form(_T, tded("U"), ureg("ureg", _UL), ub("srcAddr")),
        form(_T, tded("U"), ureg("ureg", _UL), ub("srcAddr"), areg()),
        form(_T, tded("U"), ureg("ureg", "UnalignReg", ".ld"), ub("srcAddr")),
        opcodes=("RV_VLDAS",), doc="Reg数据搬入/连续非对齐搬入（LoadUnAlign）.md"),
    api(FAMILY, "LoadUnAlign", Reg.LoadUnAlign,
        form(_T, tded("R", "U"), reg("dstReg"), ureg("ureg", _UL), ubref("srcAddr"),
             scalar("postUpdateStride", "uint32_t")),
        form(_T, tded("R", "U"), reg("dstReg"), ureg("ureg", _UL), ub("srcAddr")),
        form(_T, tded("R", "U"), reg("dstReg"), ureg("ureg", _UL), ub("srcAddr"), areg(), ignored("uint32_t", "0")),
        form(_T, tded("R", "U"), reg("dstReg"), ureg("ureg", "UnalignReg", ".ld"), ubref("srcAddr"),
             scalar("postUpdateStride", "uint32_t")),
        opcodes=("RV_VLDUS",), doc="Reg数据搬入/连续非对齐搬入（LoadUnAlign）.md"),
    api(FAMILY, "StoreUnAlign", Reg.StoreUnAlign,
        form(_T, tded("U", "R"), ubref("dstAddr"), reg("srcReg"), ureg("ureg", _US), scalar("count", "uint32_t")),
        form(_T, tded("U", "R"), ub("dstAddr"), reg("srcReg"), ureg("ureg", _US), areg()),
        form(_T, tded("U", "R"), ubref("dstAddr"), reg("srcReg"), ureg("ureg", "UnalignReg", ".st"),
             scalar("count", "uint32_t")),
        opcodes=("RV_VSTUI",), doc="Reg数据搬出/连续非对齐搬出（StoreUnAlign）.md"),
    api(FAMILY, "StoreUnAlignPost", Reg.StoreUnAlignPost,
        form(_T, tded("U"), ubref("dstAddr"), ureg("ureg", _US), scalar("postUpdateStride", "int32_t")),
        form(_T, tded("U"), ub("dstAddr"), ureg("ureg", _US), areg()),
        form(_T, tded("U"), ubref("dstAddr"), ureg("ureg", "UnalignReg", ".st"), scalar("postUpdateStride", "int32_t")),
        opcodes=("RV_VSTAS",), doc="Reg数据搬出/连续非对齐搬出（StoreUnAlign）.md"),
]
