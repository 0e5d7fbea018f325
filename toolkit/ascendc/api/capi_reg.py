"""The C API register compute functions (C-API/reg: arithmetic, compound, logic, compare and select,
compress, fill, rearrange, histogram, index, reduce, sync, system variable): ``asc_add(vector_float& dst,
vector_float src0, vector_float src1, vector_bool mask)`` ... Each name runs the Reg API semantic of the
same operation (``toolkit/ascendc/capi_reg``: the Reg function with the template arguments the C name
fixes), so it records the opcodes of that Reg API. The ``vector_*`` types are the Reg register types
(``include/asc/capireg.h``); the forms are templates over the element type (the pages list one prototype
per documented type, the emulator runs the types the Reg API runs). Registers are taken by const
reference where the pages pass them by value (the same values, no copy of the emulator register)."""
from __future__ import annotations

from dataclasses import replace

from toolkit.ascendc import capi_reg

from . import reg_compute, reg_fused, reg_logic, reg_mask, reg_relayout
from .spec import Arg, Family, NameDef, api, form, scalar, tded, thidden

FAMILY = Family("capi.reg", "", "capi_reg.h", capi_reg, doc_root="C-API/reg")

#: the Reg API each C name runs (its opcodes are the C name's)
_REG = {d.short: d for m in (reg_compute, reg_fused, reg_logic, reg_mask, reg_relayout) for d in m.APIS}

V, VS, B = "__capi::V<T>", "__capi::V<S>", "vector_bool"
_T, _TS = tded("T"), tded("T", "S")
_ELEM = "std::type_identity_t<T>"


def v(name: str, t: str = V) -> Arg:
    """A register the function writes (``vector_T& dst``)."""
    return Arg("reg", name, f"{t}&")


def cv(name: str, t: str = V) -> Arg:
    """A register the function reads (``vector_T src``: by const reference)."""
    return Arg("reg", name, f"const {t}&")


def cm(name: str = "mask") -> Arg:
    return Arg("mask", name, f"const {B}&")


def m(name: str) -> Arg:
    """A predicate the function writes (``vector_bool& dst``)."""
    return Arg("mask", name, f"{B}&")


def val(ctype: str = _ELEM, cast: str | None = "T") -> Arg:
    return scalar("value", ctype, cast)


#: numeric forms take the element types with arithmetic only (not the byte containers of fp8 / fp4 / int4)
_NUM = thidden("numeric_", "std::enable_if_t<__capi::numeric_v<T>, int>", "0")
BIN = form(_T, _NUM, v("dst"), cv("src0"), cv("src1"), cm())
UN = form(_T, _NUM, v("dst"), cv("src"), cm())
SCA = form(_T, _NUM, v("dst"), cv("src"), val(), cm())
CMP = form(_T, _NUM, m("dst"), cv("src0"), cv("src1"), cm())
CMPS = form(_T, _NUM, m("dst"), cv("src"), val(), cm())
#: the bit-exact forms (logic, select, squeeze, duplicate): every element type the pages list, byte containers too
BITS2 = form(_T, v("dst"), cv("src0"), cv("src1"), cm())
BITS1 = form(_T, v("dst"), cv("src"), cm())
MBIN = form(m("dst"), cm("src0"), cm("src1"), cm())
MUN = form(m("dst"), cm("src"), cm())
WIDE = form(_TS, _NUM, v("dst"), cv("src", VS), cm())      # dst and src types differ (reductions)
CARRY = form(_T, _NUM, m("carry"), v("dst"), cv("src0"), cv("src1"), cm())
CARRY_IN = form(_T, _NUM, m("carry"), v("dst"), cv("src0"), cv("src1"), cm("carry_src"), cm())

_I8_F = ("int8_t", "uint8_t", "int16_t", "uint16_t", "int32_t", "uint32_t", "half", "bfloat16_t", "float")
_F = ("half", "float")
_INTS = ("int8_t", "uint8_t", "int16_t", "uint16_t", "int32_t", "uint32_t")


def _e(name: str, page: str, *forms, reg: str | tuple = (), dtypes: tuple = (), note: str = ""):
    regs = (reg,) if isinstance(reg, str) else reg
    ops = tuple(dict.fromkeys(op for r in regs for op in _REG[r].opcodes))
    return api(FAMILY, name, getattr(capi_reg, name), *forms, opcodes=ops, dtypes=dtypes, doc=f"{page}/{name}.md",
               note=note or (f"Reg::{' / '.join(regs)}" if regs else ""))


_AR, _CC, _LC, _CS = "arithmetic_compute", "compound_compute", "logic_compute", "compare_and_select"
_DC, _DF, _DR, _RC = "data_compress", "data_fill", "data_rearrange", "reduce_compute"


def _cmp(op: str) -> list:
    return [_e(f"asc_{op}", _CS, CMP, reg="Compare", dtypes=_I8_F),
            _e(f"asc_{op}_scalar", _CS, CMPS, reg="CompareScalar", dtypes=_I8_F)]


def _page(name: str, page: str, *forms, **kw):
    """An entry whose page is not named after it (deprecated names, the _v2 / _b8 variants)."""
    return replace(_e(name, page.rsplit("/", 1)[0], *forms, **kw), doc=f"C-API/reg/{page}.md")


APIS = [
    _e("asc_abs", _AR, UN, reg="Abs", dtypes=("int8_t", "int16_t", "int32_t", "half", "float")),
    _e("asc_add", _AR, BIN, CARRY, reg="Add", dtypes=_I8_F),
    _e("asc_add_scalar", _AR, SCA, reg="Adds", dtypes=_I8_F),
    _e("asc_addc", _AR, CARRY_IN, reg="AddC", dtypes=("uint32_t",)),
    _e("asc_div", _AR, BIN, reg="Div", dtypes=("int16_t", "uint16_t", "int32_t", "uint32_t", "half", "float")),
    _e("asc_exp", _AR, UN, reg="Exp", dtypes=_F),
    _e("asc_leakyrelu", _AR, SCA, reg="LeakyRelu", dtypes=_F),
    _e("asc_ln", _AR, UN, reg="Ln", dtypes=_F),
    _e("asc_max", _AR, BIN, reg="Max", dtypes=_I8_F),
    _e("asc_max_scalar", _AR, SCA, reg="Maxs", dtypes=_I8_F),
    _e("asc_min", _AR, BIN, reg="Min", dtypes=_I8_F),
    _e("asc_min_scalar", _AR, SCA, reg="Mins", dtypes=_I8_F[:6] + _F),
    _e("asc_mul", _AR, BIN, reg="Mul", dtypes=_I8_F[2:]),
    _e("asc_mul_scalar", _AR, SCA, reg="Muls", dtypes=("int16_t", "uint16_t", "int32_t", "uint32_t") + _F),
    _e("asc_mull", _AR, form(_T, v("dst0"), v("dst1"), cv("src0"), cv("src1"), cm()), reg="Mull",
       dtypes=("int32_t", "uint32_t")),
    _e("asc_neg", _AR, UN, reg="Neg", dtypes=("int8_t", "int16_t", "int32_t", "half", "float")),
    _e("asc_prelu", _AR, BIN, reg="Prelu", dtypes=_F),
    _e("asc_relu", _AR, UN, reg="Relu", dtypes=("int32_t", "half", "float")),
    _e("asc_sqrt", _AR, UN, reg="Sqrt", dtypes=_F),
    _e("asc_sub", _AR, BIN, CARRY, reg="Sub", dtypes=_I8_F),
    _e("asc_subc", _AR, CARRY_IN, reg="SubC", dtypes=("uint32_t",)),
    *[_page(n, f"{_AR}/asc_muls_deprecated",
            form(v("dst", "vector_half"), cv("src", "vector_float"), scalar("value", "float"), cm()), reg="MulsCast",
            dtypes=("float", "half"), note=f"Reg::MulsCast<RegLayout::{lay}> (deprecated)")
      for n, lay in (("asc_muls", "ZERO"), ("asc_muls_v2", "ONE"))],
    _e("asc_abs_sub", _CC, BIN, reg="AbsSub", dtypes=_F),
    _e("asc_axpy", _CC, SCA, reg="Axpy", dtypes=_F, note="Reg::Axpy: dst = value * src + dst"),
    _e("asc_madd", _CC, BIN, reg="MulDstAdd", dtypes=_F, note="Reg::MulDstAdd: dst = dst * src0 + src1"),
    *[_page(n, f"{_CC}/asc_exp_sub_deprecated",
            form(tded("S"), v("dst", "vector_float"), cv("src0", VS), cv("src1", VS), cm()), reg="ExpSub", dtypes=_F,
            note=f"Reg::ExpSub<RegLayout::{lay}> (deprecated)") for n, lay in (("asc_exp_sub", "ZERO"),
                                                                            ("asc_exp_sub_v2", "ONE"))],
    *[_e(f"asc_{n}", _LC, BITS2, MBIN, reg=n.capitalize(), dtypes=("bool",) + _I8_F) for n in ("and", "or", "xor")],
    _e("asc_not", _LC, BITS1, MUN, reg="Not", dtypes=("bool",) + _I8_F),
    *[_e(f"asc_shift{d}", _LC, form(tded("T", "S"), v("dst"), cv("src0"), cv("src1", VS), cm()),
         reg=f"Shift{d.capitalize()}", dtypes=_INTS) for d in ("left", "right")],
    *[_e(f"asc_shift{d}_scalar", _LC, form(_T, v("dst"), cv("src"), val("int16_t", None), cm()),
         reg=f"Shift{d.capitalize()}s", dtypes=_INTS) for d in ("left", "right")],
    *[d for op in ("eq", "ne", "gt", "ge", "lt", "le") for d in _cmp(op)],
    _e("asc_select", _CS, BITS2, MBIN, reg="Select", dtypes=("bool",) + _I8_F),
    _e("asc_squeeze", _CS, BITS1, reg="Squeeze", dtypes=_I8_F, note="Reg::Squeeze<NO_STORE_REG>"),
    _e("asc_squeeze_with_status", _CS, BITS1, reg="Squeeze", dtypes=_I8_F,
       note="Reg::Squeeze<STORE_REG>: the kept bytes for asc_storeunalign_postupdate"),
    _page("asc_squeeze_v2", f"{_CS}/asc_squeeze_deprecated", BITS1, reg="Squeeze", dtypes=_I8_F,
          note="Reg::Squeeze<STORE_REG> (deprecated)"),
    *[_e(f"asc_pack_to_{p}", _DC, form(_TS, v("dst"), cv("src", VS)), form(m("dst"), cm("src")),
         reg="Pack", dtypes=("uint8_t", "uint16_t", "uint32_t"), note=f"Reg::Pack<HighLowPart::{h}>")
      for p, h in (("low", "LOWEST"), ("high", "HIGHEST"))],
    *[_page(n, f"{_DC}/asc_pack_deprecated", form(_TS, v("dst"), cv("src", VS)), reg="Pack",
            dtypes=("uint8_t", "int16_t", "uint16_t", "int32_t", "uint32_t"), note=f"Reg::Pack<HighLowPart::{h}>")
      for n, h in (("asc_pack", "LOWEST"), ("asc_pack_v2", "HIGHEST"))],
    *[_page(f"asc_unpack_{p}", f"{_DC}/asc_unpack", form(_TS, v("dst"), cv("src", VS)), form(m("dst"), cm("src")),
            reg="UnPack", dtypes=_INTS,
            note=f"Reg::UnPack<HighLowPart::{h}>") for p, h in (("lower", "LOWEST"), ("upper", "HIGHEST"))],
    _e("asc_unsqueeze", _DC, form(_T, v("dst"), cm()), reg="Unsqueeze", dtypes=_INTS),
    _e("asc_duplicate", _DF, BITS1, reg="Duplicate", dtypes=_I8_F, note="Reg::Duplicate<HighLowPart::LOWEST>: lane 0"),
    _e("asc_duplicate_scalar", _DF, form(_T, v("dst"), val(), cm()), form(_T, v("dst"), val()), reg="Duplicate",
       dtypes=_I8_F),
    *[_e(f"asc_{n}", _DR, form(_T, v("dst0"), v("dst1"), cv("src0"), cv("src1")), reg=r, dtypes=_I8_F)
      for n, r in (("intlv", "Interleave"), ("deintlv", "DeInterleave"))],
    *[_page(f"asc_{n}_b{w}", f"{_DR}/asc_{n}", form(m("dst0"), m("dst1"), cm("src0"), cm("src1")), reg=r,
            note=f"Reg::{r} of predicates at b{w}") for n, r in (("intlv", "Interleave"), ("deintlv", "DeInterleave"))
      for w in (8, 16, 32)],
    *[_page(f"asc_{k}_histogram_bin{b}", f"histogram_compute/asc_{k}_histogram",
            form(v("dst", "vector_uint16_t"), cv("src", "vector_uint8_t"), cm()), reg="Histograms",
            dtypes=("uint8_t", "uint16_t"), note=f"Reg::Histograms<BIN{b}, {t}>")
      for k, t in (("frequency", "FREQUENCY"), ("cumulative", "ACCUMULATE")) for b in (0, 1)],
    _e("asc_arange", "index_operate", form(_T, v("dst"), val()), reg="Arange",
       dtypes=("int8_t", "int16_t", "int32_t", "half", "float"), note="Reg::Arange<INCREASE_ORDER>"),
    _page("asc_arange_descend", "index_operate/asc_arange", form(_T, v("dst"), val()), reg="Arange",
          dtypes=("int8_t", "int16_t", "int32_t", "half", "float"), note="Reg::Arange<DECREASE_ORDER>"),
    *[_e(f"asc_reduce_{k}", _RC, WIDE, reg="Reduce", dtypes=("int16_t", "uint16_t", "int32_t", "uint32_t") + _F)
      for k in ("sum", "max", "min")],
    *[_e(f"asc_reduce_{k}_datablock", _RC, WIDE, reg="ReduceDataBlock",
         dtypes=("int16_t", "uint16_t", "int32_t", "uint32_t") + _F) for k in ("sum", "max", "min")],
    _e("asc_pair_reduce_sum", _RC, UN, reg="PairReduceElem", dtypes=_F),
    _e("asc_mem_bar", "sync_control", form(scalar("mem_type", "MEM_TYPE")), reg="LocalMemBar",
       note="Reg::LocalMemBar<source, destination> of the MEM_TYPE value"),
    _e("asc_clear_ar_spr", "system_variables_access", form(), reg="ClearSpr"),
]

_TYPES_PAGE = "C-API/reg/reg_data_types/data_type_definition.md"
_VECTORS = ("int8_t", "uint8_t", "int16_t", "uint16_t", "int32_t", "uint32_t", "int64_t", "uint64_t", "half",
            "bfloat16_t", "float", "fp8_e4m3fn_t", "fp8_e5m2_t", "fp8_e8m0_t", "hifloat8_t", "fp4x2_e2m1_t",
            "fp4x2_e1m2_t", "int4x2_t")
#: the register types of the C API: aliases of the Reg register types (capireg.h); the 8- and 4-bit float
#: and int4 element types are byte containers there (moves, logic and selects are exact on their bits)
NAMES = [NameDef(f"vector_{t}", "alias", "capireg.h: AscendC::Reg::RegTensor<" + t + ">", doc=_TYPES_PAGE)
         for t in _VECTORS] + [
    NameDef("vector_bool", "alias", "capireg.h: AscendC::Reg::MaskReg", doc=_TYPES_PAGE),
    NameDef("vector_load_unalign", "alias", "capireg.h: AscendC::Reg::UnalignRegForLoad", doc=_TYPES_PAGE),
    NameDef("vector_store_unalign", "alias", "capireg.h: AscendC::Reg::UnalignRegForStore", doc=_TYPES_PAGE),
    NameDef("addr_reg", "alias", "capireg.h: AscendC::Reg::AddrReg", doc=_TYPES_PAGE),
    NameDef("ASC_BYTE_TYPE", "macro", "capireg.h: declares the 8-bit byte-container element types", doc=_TYPES_PAGE),
    NameDef("iter_reg", "alias", "capireg.h: the older name of addr_reg",
            doc="C-API/reg/reg_data_types/asc_create_iter_reg_deprecated.md"),
]
