"""The C API register conversions (``asc_float2half_rn_sat_v2`` ...): each is ``Reg::Cast`` with the
CastTrait its name spells, and the same-type roundings (``asc_rint`` ...) are ``Reg::Truncate``.

Name grammar: ``asc_<src>2<dst>[_<round>][_sat][_v<k>]``. Round: rn = CAST_RINT, rna = CAST_ROUND, rd =
CAST_FLOOR, ru = CAST_CEIL, rz = CAST_TRUNC, ro = CAST_ODD, rh = CAST_HYBRID, none = the conversion's
default. ``_sat`` = SatMode::SAT; on a page with ``_sat`` names the others are SatMode::NO_SAT, elsewhere
UNKNOWN (the control register decides; see regbase/cast.py). ``_v<k>``: the part of the wider register the
narrow elements come from or go to, RegLayout ZERO (no suffix) .. THREE (``_v4``); a 1:1 conversion has no
part (UNKNOWN). The 4- and 8-bit float and int4 conversions (fp8, fp4, hifloat8, int4x2) run as the Reg
Cast does them (toolkit/ascendc/regbase/cast_low.py)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from toolkit.ascendc import regbase as Reg
from toolkit.ascendc.regbase.rounding import float_to_int
from toolkit.ascendc.regbase.types import (
    CastTrait,
    MaskMergeMode,
    RegLayout,
    RoundMode,
    SatMode,
)

ROUNDS = {"rn": RoundMode.CAST_RINT, "rna": RoundMode.CAST_ROUND, "rd": RoundMode.CAST_FLOOR,
          "ru": RoundMode.CAST_CEIL, "rz": RoundMode.CAST_TRUNC, "ro": RoundMode.CAST_ODD,
          "rh": RoundMode.CAST_HYBRID, "": RoundMode.UNKNOWN}
_R5 = ("rd", "rn", "rna", "ru", "rz")
_HIF = ("rh", "rna")
#: the C spellings of the element types in the names, and their C++ element types
TYPES = {"float": "float", "half": "half", "bfloat16": "bfloat16_t", "int8": "int8_t", "uint8": "uint8_t",
         "int16": "int16_t", "uint16": "uint16_t", "int32": "int32_t", "uint32": "uint32_t", "int64": "int64_t",
         "e4m3": "fp8_e4m3fn_t", "e5m2": "fp8_e5m2_t", "hif8": "hifloat8_t",
         "e1m2x2": "fp4x2_e1m2_t", "e2m1x2": "fp4x2_e2m1_t", "int4x2": "int4x2_t"}
#: element types whose conversions are refused: none since the 8- / 4-bit types are host element types
NOT_EMULATED: frozenset = frozenset()

#: (src, dst, rounds, has _sat names, parts, page): one page of the reference each
PAGES: list[tuple] = [
    ("bfloat16", "e1m2x2", _R5, False, 4, "asc_bfloat162e1m2x2_deprecated"),
    ("bfloat16", "e2m1x2", _R5, False, 4, "asc_bfloat162e2m1x2_deprecated"),
    ("bfloat16", "float", ("",), False, 2, "asc_bfloat162float"),
    ("bfloat16", "half", _R5, True, 1, "asc_bfloat162half"),
    ("bfloat16", "int32", _R5, True, 2, "asc_bfloat162int32"),
    ("e1m2x2", "bfloat16", ("",), False, 4, "asc_e1m2x22bfloat16_deprecated"),
    ("e2m1x2", "bfloat16", ("",), False, 4, "asc_e2m1x22bfloat16_deprecated"),
    ("e4m3", "float", ("",), False, 4, "asc_e4m32float_deprecated"),
    ("e5m2", "float", ("",), False, 4, "asc_e5m22float_deprecated"),
    ("float", "bfloat16", _R5, True, 2, "asc_float2bfloat16"),
    ("float", "e4m3", ("rn",), True, 4, "asc_float2e4m3_deprecated"),
    ("float", "e5m2", ("rn",), True, 4, "asc_float2e5m2_deprecated"),
    ("float", "half", _R5 + ("ro",), True, 2, "asc_float2half"),
    ("float", "hif8", _HIF, True, 4, "asc_float2hif8_deprecated"),
    ("float", "int16", _R5, True, 2, "asc_float2int16"),
    ("float", "int32", _R5, True, 1, "asc_float2int32"),
    ("float", "int64", _R5, True, 2, "asc_float2int64"),
    ("half", "bfloat16", _R5, False, 1, "asc_half2bfloat16"),
    ("half", "float", ("",), False, 2, "asc_half2float"),
    ("half", "hif8", _HIF, True, 2, "asc_half2hif8"),
    ("half", "int16", _R5, True, 1, "asc_half2int16"),
    ("half", "int32", _R5, False, 2, "asc_half2int32"),
    ("half", "int4x2", _R5, True, 4, "asc_half2int4x2_deprecated"),
    ("half", "int8", _R5, True, 2, "asc_half2int8"),
    ("half", "uint8", _R5, True, 2, "asc_half2uint8"),
    ("hif8", "float", ("",), False, 4, "asc_hif82float_deprecated"),
    ("hif8", "half", ("",), False, 2, "asc_hif82half"),
    ("int16", "float", ("",), False, 2, "asc_int162float"),
    ("int16", "half", _R5, False, 1, "asc_int162half"),
    ("int16", "int32", ("",), False, 2, "asc_int162int32"),
    ("int16", "uint32", ("",), False, 2, "asc_int162uint32"),
    ("int16", "uint8", ("",), True, 2, "asc_int162uint8"),
    ("int32", "float", _R5, False, 1, "asc_int322float"),
    ("int32", "int16", ("",), True, 2, "asc_int322int16"),
    ("int32", "int64", ("",), False, 2, "asc_int322int64"),
    ("int32", "uint16", ("",), True, 2, "asc_int322uint16"),
    ("int32", "uint8", ("",), True, 4, "asc_int322uint8_deprecated"),
    ("int4x2", "bfloat16", ("",), False, 4, "asc_int4x22bfloat16_deprecated"),
    ("int4x2", "half", ("",), False, 4, "asc_int4x22half_deprecated"),
    ("int4x2", "int16", ("",), False, 4, "asc_int4x22int16_deprecated"),
    ("int64", "float", _R5, False, 2, "asc_int642float"),
    ("int64", "int32", ("",), True, 2, "asc_int642int32"),
    ("int8", "half", ("",), False, 2, "asc_int82half"),
    ("int8", "int16", ("",), False, 2, "asc_int82int16"),
    ("int8", "int32", ("",), False, 4, "asc_int82int32_deprecated"),
    ("uint16", "uint32", ("",), False, 2, "asc_uint162uint32"),
    ("uint16", "uint8", ("",), True, 2, "asc_uint162uint8"),
    ("uint32", "int16", ("",), True, 2, "asc_uint322int16"),
    ("uint32", "uint16", ("",), True, 2, "asc_uint322uint16"),
    ("uint32", "uint8", ("",), True, 4, "asc_uint322uint8_deprecated"),
    ("uint8", "half", ("",), False, 2, "asc_uint82half"),
    ("uint8", "uint16", ("",), False, 2, "asc_uint82uint16"),
    ("uint8", "uint32", ("",), False, 4, "asc_uint82uint32_deprecated"),
]
#: the same-type roundings (Reg::Truncate): name -> round mode
ROUNDINGS = {"asc_rint": RoundMode.CAST_RINT, "asc_round": RoundMode.CAST_ROUND, "asc_floor": RoundMode.CAST_FLOOR,
             "asc_ceil": RoundMode.CAST_CEIL, "asc_trunc": RoundMode.CAST_TRUNC}


def conversions() -> list[tuple[str, str, str, CastTrait, str]]:
    """Every conversion name: (name, src, dst, its CastTrait, page)."""
    out = []
    for src, dst, rounds, has_sat, parts, page in PAGES:
        for r in rounds:
            for sat in ((SatMode.NO_SAT, SatMode.SAT) if has_sat else (SatMode.UNKNOWN,)):
                for k in range(parts):
                    name = f"asc_{src}2{dst}" + (f"_{r}" if r else "") + ("_sat" if sat == SatMode.SAT else "") + \
                        (f"_v{k + 1}" if k else "")
                    layout = RegLayout(k) if parts > 1 else RegLayout.UNKNOWN
                    out.append((name, src, dst, CastTrait(layout, sat, MaskMergeMode.ZEROING, ROUNDS[r]), page))
    return out


def _cast(name: str, src: str, dst: str, trait: CastTrait) -> Callable:
    if src in NOT_EMULATED or dst in NOT_EMULATED:
        def capi(dst_reg: Any, src_reg: Any, mask: Any) -> None:
            raise NotImplementedError(f"conversions of {TYPES[src]} / {TYPES[dst]} are not emulated (the Reg API "
                                      "has no host element type for 4- and 8-bit floats and int4)")
    else:
        call = Reg.Cast[trait]

        def capi(dst_reg: Any, src_reg: Any, mask: Any) -> None:
            call(dst_reg, src_reg, mask)
    capi.__name__ = capi.__qualname__ = name
    capi.__doc__ = f"``{name}``: Reg::Cast<{TYPES[dst]}, {TYPES[src]}, {trait}>"
    return capi


#: names the scalar C API (C-API/scalar_compute) shares: ``int32_t asc_float2int32_rn(float value)`` too
SCALAR_FORMS = ("asc_float2int32_rd", "asc_float2int32_rn", "asc_float2int32_rna", "asc_float2int32_ru")


def _with_scalar_form(fn: Callable, trait: CastTrait) -> Callable:
    """The register conversion, and the scalar one of the same name (one float, the same rounding and the
    saturation of float -> int conversions): the scalar page's ``asc_float2int32_<round>(value)``."""
    rname = trait.roundMode.name.replace("CAST_", "")

    def capi(*args: Any) -> Any:
        if len(args) == 1:
            value = np.array([float(getattr(args[0], "value", args[0]))], np.float32)
            return int(float_to_int(value, np.dtype(np.int32), rname, True)[0])
        return fn(*args)
    capi.__name__ = capi.__qualname__ = fn.__name__
    capi.__doc__ = fn.__doc__ + "; with one float: the scalar conversion (C-API/scalar_compute)"
    return capi


def _truncate(name: str, mode: RoundMode) -> Callable:
    call = Reg.Truncate[mode]

    def capi(dst: Any, src: Any, mask: Any) -> None:
        call(dst, src, mask)
    capi.__name__ = capi.__qualname__ = name
    capi.__doc__ = f"``{name}``: Reg::Truncate<{mode.name}>"
    return capi


__all__: list[str] = []
for _name, _src, _dst, _trait, _page in conversions():
    globals()[_name] = _cast(_name, _src, _dst, _trait)
    if _name in SCALAR_FORMS:
        globals()[_name] = _with_scalar_form(globals()[_name], _trait)
    __all__.append(_name)
for _name, _mode in ROUNDINGS.items():
    globals()[_name] = _truncate(_name, _mode)
    __all__.append(_name)
