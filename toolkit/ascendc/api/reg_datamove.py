"""``AscendC::Reg`` data movement between UB and registers: LoadAlign / StoreAlign (every dist, post-update,
AddrReg, dual, block-strided, MaskReg), the unaligned pairs (count, AddrReg, AR and MaskReg forms), Load /
Store, the discrete GatherB / Scatter, and the older name DataCopy."""
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
    tdedv,
    tenum,
    ttype,
    ub,
    ubref,
    ureg,
)

FAMILY = Family("reg.datamove", "AscendC::Reg", "reg_datamove.h", Reg, doc_root="基础API/Reg矢量计算")

_T = ttype()
_TR = ttype("T", None)
_LD = tenum("dist", "LoadDist", "DIST_NORM")
_LD_DUAL = tenum("dist", "LoadDist")
_SD = tenum("dist", "StoreDist", "DIST_NORM")
_SD_DUAL = tenum("dist", "StoreDist")
_MD = tenum("dist", "MaskDist", "DIST_NORM")
_POST = tenum("post", "PostLiteral")
_POST_N = tenum("post", "PostLiteral", "POST_MODE_NORMAL")
_POST_U = tenum("postMode", "PostLiteral", "POST_MODE_UPDATE")
_MODE = tenum("mode", "DataCopyMode")
_LOAD = "Reg数据搬入/连续对齐搬入（LoadAlign）.md"
_IN = "基础API/Reg矢量计算/Reg数据搬入"
_OUT = "基础API/Reg矢量计算/Reg数据搬出"
_LOAD_BLK = f"{_IN}/非连续对齐搬入（LoadAlign）.md"
_LOAD_MASK = f"{_IN}/MaskReg搬入（LoadAlign）.md"
_STORE = "Reg数据搬出/连续对齐搬出（StoreAlign）.md"
_STORE_BLK = f"{_OUT}/非连续对齐搬出（StoreAlign）.md"
_STORE_MASK = f"{_OUT}/MaskReg搬出（StoreAlign）.md"
_STORE_MASK_UN = f"{_OUT}/MaskReg非对齐搬出（StoreUnAlign）.md"
_UL = "UnalignRegForLoad"
_US = "UnalignRegForStore"
_RT = "RegTensor<T2, Tr>"
_RT_D = (tded("T2"), tdedv("Tr", "const RegTrait&"))
_DTYPES = ("int8_t", "uint8_t", "int16_t", "uint16_t", "half", "bfloat16_t", "int32_t", "uint32_t", "float",
           "int64_t", "uint64_t")

APIS = [
    api(FAMILY, "LoadAlign", Reg.LoadAlign,
        form(_T, _LD, tded("R", "U"), reg("dstReg"), ub("srcAddr")),
        form(_T, _LD, tded("R", "U"), reg("dstReg"), ub("srcAddr"), areg()),
        form(_T, _LD_DUAL, tded("R", "U"), reg("dstReg0"), reg("dstReg1"), ub("srcAddr")),
        form(_TR, _POST, _LD, tded("R", "U"), reg("dstReg"), ubref("srcAddr"), scalar("postUpdateStride", "int32_t")),
        form(ttype("T", None), _MODE, tded("R", "U"), reg("dstReg"), ub("srcAddr"),
             scalar("blockStride", "uint32_t"), mask(), doc=_LOAD_BLK),
        form(ttype("T", None), _MODE, _POST_N, tded("R", "U"), reg("dstReg"), ubref("srcAddr"),
             scalar("blockStride", "uint32_t"), scalar("repeatStride", "uint32_t"), mask(), doc=_LOAD_BLK),
        form(_T, _MD, tded("U"), mask("dstReg"), ub("srcAddr"), doc=_LOAD_MASK),
        form(_TR, _POST, _LD_DUAL, tded("R", "U"), reg("dstReg0"), reg("dstReg1"), ubref("srcAddr"),
             scalar("postUpdateStride", "int32_t")),
        form(_T, _LD_DUAL, tded("R", "U"), reg("dstReg0"), reg("dstReg1"), ub("srcAddr"), areg()),
        form(_TR, _POST, _MD, tded("U"), mask("dstReg"), ubref("srcAddr"), scalar("offset", "int32_t"),
             doc=_LOAD_MASK),
        form(_T, _MD, tded("U"), mask("dstReg"), ub("srcAddr"), areg(), doc=_LOAD_MASK),
        opcodes=("RV_VLD", "RV_VSLDB"), doc=_LOAD, dtypes=_DTYPES,
        note="MaskReg forms: the post-update offset is in bytes"),
    api(FAMILY, "StoreAlign", Reg.StoreAlign,
        form(_T, _SD, tded("U", "R"), ub("dstAddr"), reg("srcReg"), mask()),
        form(_T, _SD, tded("U", "R"), ub("dstAddr"), reg("srcReg"), areg(), mask()),
        form(_T, _SD_DUAL, tded("U", "R"), ub("dstAddr"), reg("srcReg0"), reg("srcReg1"), mask()),
        form(_TR, _POST, _SD, tded("U", "R"), ubref("dstAddr"), reg("srcReg"),
             scalar("postUpdateStride", "int32_t"), mask()),
        form(ttype("T", None), _MODE, tded("U", "R"), ub("dstAddr"), reg("srcReg"),
             scalar("blockStride", "uint32_t"), mask(), doc=_STORE_BLK),
        form(ttype("T", None), _MODE, _POST_N, tded("U", "R"), ubref("dstAddr"), reg("srcReg"),
             scalar("blockStride", "uint32_t"), scalar("repeatStride", "uint32_t"), mask(), doc=_STORE_BLK),
        form(_T, _MD, tded("U"), ub("dstAddr"), mask("srcReg"), doc=_STORE_MASK),
        form(_T, _SD_DUAL, tded("U", "R"), ub("dstAddr"), reg("srcReg0"), reg("srcReg1"), areg(), mask()),
        form(_TR, _POST, _MD, tded("U"), ubref("dstAddr"), mask("srcReg"), scalar("offset", "int32_t"),
             doc=_STORE_MASK),
        form(_T, _MD, tded("U"), ub("dstAddr"), mask("srcReg"), areg(), doc=_STORE_MASK),
        opcodes=("RV_VST", "RV_VSSTB"), doc=_STORE, dtypes=_DTYPES,
        note="MaskReg forms: DIST_NORM or DIST_PACK, the post-update offset in bytes"),
    api(FAMILY, "DataCopy", None,
        form(_T, _LD, *_RT_D, tded("U"), reg("dstReg", _RT), ub("srcAddr"), via="AscendC::Reg::LoadAlign"),
        form(_T, _SD, tded("U"), *_RT_D, ub("dstAddr"), reg("srcReg", _RT), mask(), via="AscendC::Reg::StoreAlign"),
        form(ttype("T", None), _POST, _LD, *_RT_D, tded("U"), reg("dstReg", _RT),
             ubref("srcAddr"), scalar("postUpdateStride", "int32_t"), via="AscendC::Reg::LoadAlign"),
        form(ttype("T", None), _POST, _SD, tded("U"), *_RT_D, ubref("dstAddr"),
             reg("srcReg", _RT), scalar("postUpdateStride", "int32_t"), mask(),
             via="AscendC::Reg::StoreAlign"),
        doc=_LOAD, note="the older name of LoadAlign (register first) and StoreAlign (UB first)"),
    api(FAMILY, "LoadUnAlignPre", Reg.LoadUnAlignPre,
        form(_T, tded("U"), ureg("ureg", _UL), ub("srcAddr")),
        form(_T, tded("U"), ureg("ureg", _UL), ub("srcAddr"), areg()),
        form(_T, tded("U"), ureg("ureg", "UnalignReg", ".ld"), ub("srcAddr")),
        opcodes=("RV_VLDAS",), doc="Reg数据搬入/连续非对齐搬入（LoadUnAlign）.md"),
    api(FAMILY, "LoadUnAlign", Reg.LoadUnAlign,
        form(_T, _POST_U, tded("R", "U"), reg("dstReg"), ureg("ureg", _UL), ubref("srcAddr"),
             scalar("postUpdateStride", "uint32_t")),
        form(_T, tded("R", "U"), reg("dstReg"), ureg("ureg", _UL), ub("srcAddr")),
        form(_T, tded("R", "U"), reg("dstReg"), ureg("ureg", _UL), ub("srcAddr"), areg(), ignored("uint32_t", "0")),
        form(_T, _POST_U, tded("R", "U"), reg("dstReg"), ureg("ureg", "UnalignReg", ".ld"), ubref("srcAddr"),
             scalar("postUpdateStride", "uint32_t")),
        opcodes=("RV_VLDUS",), doc="Reg数据搬入/连续非对齐搬入（LoadUnAlign）.md"),
    api(FAMILY, "StoreUnAlign", Reg.StoreUnAlign,
        form(_T, _POST_U, tded("U", "R"), ubref("dstAddr"), reg("srcReg"), ureg("ureg", _US),
             scalar("postUpdateStride", "uint32_t")),
        form(_T, _POST_U, tded("U", "R"), ub("dstAddr"), reg("srcReg"), ureg("ureg", _US), areg()),
        form(_T, _POST_U, tded("U", "R"), ubref("dstAddr"), reg("srcReg"), ureg("ureg", "UnalignReg", ".st"),
             scalar("postUpdateStride", "uint32_t")),
        form(_T, _POST_U, tded("U"), *_RT_D, ub("dstAddr"), reg("srcReg", _RT), ureg("ureg", _US)),
        form(_T, tded("U"), ubref("dstAddr"), mask("srcReg"), ureg("ureg", _US), doc=_STORE_MASK_UN),
        opcodes=("RV_VSTUI",), doc="Reg数据搬出/连续非对齐搬出（StoreUnAlign）.md",
        note="count, AddrReg, AR (after Squeeze<STORE_REG>) and MaskReg forms"),
    api(FAMILY, "StoreUnAlignPost", Reg.StoreUnAlignPost,
        form(_T, _POST_U, tded("U"), ubref("dstAddr"), ureg("ureg", _US), scalar("postUpdateStride", "int32_t")),
        form(_T, tded("U"), ub("dstAddr"), ureg("ureg", _US), areg()),
        form(_T, _POST_U, tded("U"), ubref("dstAddr"), ureg("ureg", "UnalignReg", ".st"),
             scalar("postUpdateStride", "int32_t")),
        form(_T, tded("U"), ub("dstAddr"), ureg("ureg", _US)),
        opcodes=("RV_VSTAS",), doc="Reg数据搬出/连续非对齐搬出（StoreUnAlign）.md"),
    api(FAMILY, "Load", Reg.Load, form(_T, tded("R", "U"), reg("dstReg"), ub("srcAddr")),
        opcodes=("RV_VLDAS", "RV_VLDUS"), dtypes=_DTYPES, doc="Reg数据搬入/Load.md",
        note="LoadUnAlignPre + LoadUnAlign on a staging register of its own"),
    api(FAMILY, "Store", Reg.Store,
        form(_T, tded("U", "R"), ub("dstAddr"), reg("srcReg")),
        form(_T, tded("U", "R"), ub("dstAddr"), reg("srcReg"), scalar("count", "uint32_t")),
        opcodes=("RV_VSTUI", "RV_VSTAS"), dtypes=_DTYPES, doc="Reg数据搬出/Store.md",
        note="StoreUnAlign + StoreUnAlignPost on a staging register of its own"),
    api(FAMILY, "GatherB", Reg.GatherB,
        form(_T, tded("R", "U", "S"), reg("dstReg"), ub("baseAddr"), reg("index", "S"), mask()),
        opcodes=("RV_VGATHERB",), dtypes=_DTYPES, doc="Reg数据搬入/离散搬入（GatherB）.md"),
    api(FAMILY, "Scatter", Reg.Scatter,
        form(_T, ttype("U"), tded("B", "S", "V"), ub("baseAddr", "B*"), reg("srcReg", "S"), reg("index", "V"), mask()),
        opcodes=("RV_VSCATTER",), dtypes=_DTYPES, doc="Reg数据搬出/离散搬出（Scatter）.md"),
]
