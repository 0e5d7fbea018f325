"""The C API register conversions (C-API/reg/data_type_convert): ``asc_<src>2<dst>[_<round>][_sat][_v<k>]``,
each ``Reg::Cast`` with the CastTrait its name spells (``toolkit/ascendc/capi_reg/convert.py`` holds the
grammar and the page table), and the same-type roundings ``asc_rint`` ... (``Reg::Truncate``). One exact
prototype per name, as the pages give it (the four ``asc_float2int32_<round>`` names also have the scalar
form of C-API/scalar_compute, ``int32_t (float)``); the fp8 / fp4 / hifloat8 / int4 names run as Reg::Cast does."""
from __future__ import annotations

from toolkit.ascendc import capi_reg
from toolkit.ascendc.capi_reg.convert import (
    NOT_EMULATED,
    ROUNDINGS,
    SCALAR_FORMS,
    TYPES,
    conversions,
)

from . import reg_compute
from .capi_reg import cm, cv, v
from .spec import Family, api, form, scalar

FAMILY = Family("capi.reg.cvt", "", "capi_reg_cvt.h", capi_reg, doc_root="C-API/reg")

_CAST = next(d for d in reg_compute.APIS if d.short == "Cast")
_TRUNC = next(d for d in reg_compute.APIS if d.short == "Truncate")
_PAGE = "data_type_convert"


def vector(c_name: str) -> str:
    """The register type of an element type named as in the conversion names (``half`` -> vector_half)."""
    t = TYPES[c_name]
    return f"vector_{t}"


def _cvt(name: str, src: str, dst: str, trait, page: str):
    refused = src in NOT_EMULATED or dst in NOT_EMULATED
    scalar_form = (form(scalar("value", "float"), ret="int32_t", doc="C-API/scalar_compute/asc_float2int32.md"),
                   ) if name in SCALAR_FORMS else ()
    return api(FAMILY, name, getattr(capi_reg, name), form(v("dst", vector(dst)), cv("src", vector(src)), cm()),
               *scalar_form,
               opcodes=() if refused else _CAST.opcodes, dtypes=(TYPES[src], TYPES[dst]), doc=f"{_PAGE}/{page}.md",
               note=("not emulated: " if refused else "") + f"Reg::Cast<{TYPES[dst]}, {TYPES[src]}, "
               f"{{{trait.layoutMode.name}, {trait.satMode.name}, ZEROING, {trait.roundMode.name}}}>"
               + ("; int32_t (float): the scalar form (C-API/scalar_compute/asc_float2int32.md)" if scalar_form else ""))


APIS = [_cvt(*c) for c in conversions()] + [
    api(FAMILY, name, getattr(capi_reg, name), *[form(v("dst", t), cv("src", t), cm())
                                                  for t in ("vector_half", "vector_bfloat16_t", "vector_float")],
        opcodes=_TRUNC.opcodes, dtypes=("half", "bfloat16_t", "float"), doc=f"{_PAGE}/{name}.md",
        note=f"Reg::Truncate<RoundMode::{mode.name}>") for name, mode in ROUNDINGS.items()]
