"""The C API register moves and set-up (C-API/reg: reg_load, reg_store, reg_data_types): the aligned loads
and stores of every dist and post-update form, the unaligned pairs, gather / scatter, ``asc_copy``, the
mask and address-register makers. Each name runs the Reg API semantic of the same operation
(``toolkit/ascendc/capi_reg/move.py``); the forms are templates over the element and pointer types."""
from __future__ import annotations

from toolkit.ascendc import capi_reg

from . import reg_compute, reg_datamove, reg_mask, reg_relayout
from .capi_reg import B, cm, cv, m, v
from .spec import Arg, Family, api, form, scalar, sref, tded

FAMILY = Family("capi.reg.move", "", "capi_reg_move.h", capi_reg, doc_root="C-API/reg")

_REG = {d.short: d for mod in (reg_compute, reg_datamove, reg_mask, reg_relayout) for d in mod.APIS}
_TU, _U, _TUI = tded("T", "U"), tded("U"), tded("T", "U", "I")
VI = "__capi::V<I>"


def p(name: str = "src") -> Arg:
    return Arg("ub", name, "__ubuf__ U*")


def pr(name: str = "src") -> Arg:
    """A pointer the function moves (post-update): ``__ubuf__ U*&``."""
    return Arg("ubref", name, "__ubuf__ U*&")


def ar(name: str = "offset", ref: bool = False) -> Arg:
    return Arg("areg", name, "addr_reg&" if ref else "const addr_reg&")


def i32(name: str = "offset") -> Arg:
    return scalar(name, "int32_t")


_BLK = (scalar("block_stride", "uint16_t"), scalar("repeat_stride", "uint16_t"), cm())
# loads: L* vector, ML* MaskReg, D* dual (deinterleave); *P post-update; *B block-strided
L0, L1, L2 = form(_TU, v("dst"), p()), form(_TU, v("dst"), p(), i32()), form(_TU, v("dst"), p(), ar())
LB, LP = form(_TU, v("dst"), p(), *_BLK), form(_TU, v("dst"), pr(), i32())
LBP = form(_TU, v("dst"), pr(), *_BLK)
ML0, ML1, ML2 = form(_U, m("dst"), p()), form(_U, m("dst"), p(), i32()), form(_U, m("dst"), p(), ar())
MLP = form(_U, m("dst"), pr(), i32())
D0, D1 = form(_TU, v("dst0"), v("dst1"), p()), form(_TU, v("dst0"), v("dst1"), p(), i32())
D2, DP = form(_TU, v("dst0"), v("dst1"), p(), ar()), form(_TU, v("dst0"), v("dst1"), pr(), i32())
# stores
_D = "dst_align32b"
S0, S1 = form(_TU, p(_D), cv("src"), cm()), form(_TU, p(_D), cv("src"), i32(), cm())
S2, SB = form(_TU, p(_D), cv("src"), ar(), cm()), form(_TU, p(_D), cv("src"), *_BLK)
SP, SBP = form(_TU, pr(_D), cv("src"), i32(), cm()), form(_TU, pr(_D), cv("src"), *_BLK)
MS0, MS1, MS2 = form(_U, p("dst"), cm("src")), form(_U, p("dst"), cm("src"), i32()), form(_U, p("dst"), cm("src"), ar())
MSP = form(_U, pr("dst"), cm("src"), i32())
F0, F1, F2 = form(_TU, p(_D), cv("src")), form(_TU, p(_D), cv("src"), i32()), form(_TU, p(_D), cv("src"), ar())
FP = form(_TU, pr(_D), cv("src"), i32())
I0 = form(_TU, p(_D), cv("src0"), cv("src1"))
I1, I2 = form(_TU, p(_D), cv("src0"), cv("src1"), i32()), form(_TU, p(_D), cv("src0"), cv("src1"), ar())
_UL, _US = Arg("ureg", "src0", "vector_load_unalign&"), Arg("ureg", "src0", "vector_store_unalign&")
_USC = Arg("ureg", "src", "const vector_store_unalign&")

_ALL = ("int8_t", "uint8_t", "int16_t", "uint16_t", "int32_t", "uint32_t", "half", "bfloat16_t", "float", "int64_t",
        "uint64_t")
_LD, _ST, _RL, _RS = "reg_load", "reg_store", "reg_data_types", "reg_data_types"


def _e(name: str, page: str, *forms, reg: str | tuple = (), note: str = "", doc: str | None = None):
    regs = (reg,) if isinstance(reg, str) else reg
    ops = tuple(dict.fromkeys(op for r in regs for op in _REG[r].opcodes))
    return api(FAMILY, name, getattr(capi_reg, name), *forms, opcodes=ops, dtypes=_ALL if regs else (),
               doc=f"{page}/{doc or name}.md", note=note or (f"Reg::{' / '.join(regs)}" if regs else ""))


def _loads() -> list:
    la, post = "LoadAlign", "LoadAlign<POST_MODE_UPDATE>"
    plain = [("brc_elem", "BRC_Bx"), ("brc_datablock", "BLK"), ("brc_elem2datablock", "E2B_Bx"),
             ("unpack", "UNPACK_Bx"), ("unpack4", "UNPACK4_B8")]
    out = [_e("asc_loadalign", _LD, L0, L1, L2, LB, ML0, ML1, ML2, reg=la, note="Reg::LoadAlign (NORM, MaskReg NORM, "
              "DATA_BLOCK_COPY)"),
           _e("asc_loadalign_postupdate", _LD, MLP, LP, LBP, reg=la, note=f"Reg::{post}")]
    for n, dist in plain:
        out += [_e(f"asc_loadalign_{n}", _LD, L0, L1, L2, reg=la, note=f"Reg::LoadAlign<DIST_{dist}>"),
                _e(f"asc_loadalign_{n}_postupdate", _LD, LP, reg=la, note=f"Reg::{post}, DIST_{dist}")]
    for n, dist in (("upsample", "US"), ("downsample", "DS")):
        out += [_e(f"asc_loadalign_{n}", _LD, L0, L1, L2, ML0, ML1, ML2, reg=la,
                   note=f"Reg::LoadAlign<DIST_{dist}_Bx>, MaskReg: MaskDist::DIST_{dist}"),
                _e(f"asc_loadalign_{n}_postupdate", _LD, LP, MLP, reg=la, note=f"Reg::{post}, DIST_{dist}",
                   doc="asc_loadalign_postupdate" if n == "upsample" else None)]
    out += [_e("asc_loadalign_deintlv", _LD, D0, D1, D2, reg=la, note="Reg::LoadAlign<DIST_DINTLV_Bx> (dual)"),
            _e("asc_loadalign_deintlv_postupdate", _LD, DP, reg=la, note=f"Reg::{post}, DIST_DINTLV_Bx (dual)")]
    for n, dist in (("brc", "BRC_Bx"), ("brc_v2", "BLK"), ("brc_v3", "E2B_Bx"), ("unpack_v2", "UNPACK4_B8")):
        out.append(_e(f"asc_loadalign_{n}", _LD, L0, L2, L1, reg=la, doc="asc_loadalign_v1_deprecated",
                      note=f"Reg::LoadAlign<DIST_{dist}> (deprecated)"))
    for n, dist in (("brc_postupdate", "BRC_Bx"), ("brc_postupdate_v2", "BLK"), ("brc_postupdate_v3", "E2B_Bx"),
                    ("unpack_postupdate_v2", "UNPACK4_B8")):
        out.append(_e(f"asc_loadalign_{n}", _LD, LP, reg=la, doc="asc_loadalign_v4_deprecated",
                      note=f"Reg::{post}, DIST_{dist} (deprecated)"))
    return out


def _stores() -> list:
    sa, post = "StoreAlign", "StoreAlign<POST_MODE_UPDATE>"
    return [
        _e("asc_storealign", _ST, S0, MS0, S2, MS2, S1, MS1, SB, reg=sa,
           note="Reg::StoreAlign (NORM, MaskReg NORM, DATA_BLOCK_COPY)"),
        _e("asc_storealign_postupdate", _ST, SP, MSP, SBP, reg=sa, note=f"Reg::{post}"),
        _e("asc_storealign_1st", _ST, F0, F1, F2, reg=(sa, "CreateMask"),
           note="Reg::StoreAlign<DIST_FIRST_ELEMENT_Bx> (no mask: an all-true one)"),
        _e("asc_storealign_1st_postupdate", _ST, FP, reg=(sa, "CreateMask"), note=f"Reg::{post}, FIRST_ELEMENT"),
        _e("asc_storealign_intlv", _ST, I0, I1, I2, reg=(sa, "CreateMask"),
           note="Reg::StoreAlign<DIST_INTLV_Bx> (dual; no mask: an all-true one)"),
        _e("asc_storealign_pack", _ST, S0, S1, S2, MS0, MS2, MS1, reg=sa,
           note="Reg::StoreAlign<DIST_PACK_Bx>, MaskReg: MaskDist::DIST_PACK"),
        _e("asc_storealign_pack_postupdate", _ST, SP, MSP, reg=sa, note=f"Reg::{post}, PACK"),
        _e("asc_storealign_pack_quarter", _ST, S0, S1, S2, reg=sa, note="Reg::StoreAlign<DIST_PACK4_B32>"),
        _e("asc_storealign_pack_quarter_postupdate", _ST, SP, reg=sa, note=f"Reg::{post}, PACK4_B32"),
        _e("asc_storealign_pack_v2", _ST, S0, S2, S1, reg=sa, doc="asc_storealign_v1_deprecated",
           note="Reg::StoreAlign<DIST_PACK4_B32> (deprecated)"),
        _e("asc_storealign_pack_postupdate_v2", _ST, SP, reg=sa, doc="asc_storealign_v4_deprecated",
           note=f"Reg::{post}, PACK4_B32 (deprecated)"),
    ]


def _others() -> list:
    n_reg = lambda k: tuple(scalar("offset" if k == 1 else f"offset{j}", "uint32_t") for j in range(k))
    out = [
        _e("asc_load", _LD, form(_TU, v("dst"), p()), reg="Load"),
        _e("asc_store", _ST, form(_TU, p("dst"), cv("src")), form(_TU, p("dst"), cv("src"), scalar("count", "uint32_t")),
           reg="Store"),
        _e("asc_loadunalign_pre", _LD, form(_U, Arg("ureg", "dst", "vector_load_unalign&"), p()),
           form(_U, Arg("ureg", "dst", "vector_load_unalign&"), p(), ar()), reg="LoadUnAlignPre"),
        _e("asc_loadunalign", _LD, form(_TU, v("dst"), _UL, p("src1")), reg="LoadUnAlign"),
        _e("asc_loadunalign_postupdate", _LD, form(_TU, v("dst"), _UL, pr("src1"), scalar("count", "uint32_t")),
           form(_TU, v("dst"), _UL, p("src1"), ar(ref=True), scalar("inc", "uint32_t")), reg="LoadUnAlign",
           note="Reg::LoadUnAlign (post-update or AddrReg form; the AddrReg is not advanced: assumed)"),
        _e("asc_storeunalign", _ST, form(_TU, p("dst"), _US, cv("src1"), scalar("count", "uint32_t")),
           reg="StoreUnAlign"),
        _e("asc_storeunalign_postupdate", _ST, form(_TU, p("dst"), _US, cv("src1")),
           form(_U, pr("dst"), _US, cm("src1")), form(_TU, pr("dst"), _US, cv("src1"), scalar("count", "uint32_t")),
           form(_TU, Arg("ubref", "dst", "__ubuf__ U*&&"), _US, cv("src1"), scalar("count", "uint32_t")),
           form(_TU, p("dst"), _US, cv("src1"), ar("count", ref=True)), reg="StoreUnAlign",
           note="Reg::StoreUnAlign (AR form after a squeeze, MaskReg, count (also on a pointer expression, as "
           "the page's example writes it: the moved address is dropped) or AddrReg)"),
        _e("asc_storeunalign_post", _ST, form(_U, p("dst"), _USC), form(_U, p("dst"), _USC, i32()),
           form(_U, p("dst"), _USC, ar()), reg="StoreUnAlignPost"),
        _e("asc_storeunalign_post_postupdate", _ST, form(_U, pr("dst"), _USC, i32()), reg="StoreUnAlignPost"),
        _e("asc_gather", _LD, form(_TUI, v("dst"), p(), cv("index", VI), cm()),
           form(tded("T", "I"), v("dst"), cv("src"), cv("index", VI)), reg="Gather"),
        _e("asc_gather_datablock", _LD, form(_TUI, v("dst"), p(), cv("index", VI), cm()),
           form(_TUI, v("dst"), p(), cv("index", VI)), reg=("GatherB", "CreateMask")),
        _e("asc_scatter", _ST, form(_TUI, p("dst"), cv("src"), cv("index", VI), cm()),
           form(_TUI, v("src"), p("dst"), cv("index", VI), cm()), reg="Scatter"),
        _e("asc_copy", _LD, form(tded("T"), v("dst"), cv("src"), cm()), form(m("dst"), cm("src"), cm()),
           form(m("dst"), cm("src")), form(tded("T"), m("dst"), cv("src"), scalar("part", "int16_t")),
           reg=("Move", "MaskGenWithRegTensor"), note="Reg::Move (registers: MERGING), Reg::MaskGenWithRegTensor"),
    ]
    for w in ("b8", "b16", "b32"):
        out += [_e(f"asc_create_mask_{w}", _RL, form(scalar("pat_mode", "int"), ret=B), reg="CreateMask",
                   doc="asc_create_mask"),
                _e(f"asc_update_mask_{w}", _RL, form(sref("value", "uint32_t"), ret=B), reg="UpdateMask",
                   doc="asc_update_mask"),
                _e(f"asc_update_addr_reg_{w}", _RL, *[form(*n_reg(k), ret="addr_reg") for k in (1, 2, 3, 4)],
                   reg="CreateAddrReg", doc="asc_update_addr_reg",
                   note="Reg::CreateAddrReg with the iteration indices of the enclosing hardware loops"),
                _e(f"asc_create_iter_reg_{w}", _RL, *[form(*n_reg(k), ret="addr_reg") for k in (1, 2, 3, 4)],
                   reg="CreateAddrReg", doc="asc_create_iter_reg_deprecated",
                   note="the older name of asc_update_addr_reg (returns iter_reg = addr_reg)")]
        if w != "b8":
            out.append(_e(f"asc_get_mask_spr_{w}", _RL, form(ret=B), reg="MoveMask", doc="asc_get_mask_spr"))
    return out


APIS = [*_loads(), *_stores(), *_others()]
