"""Utilities: GetVecLen and the integer helpers (compile-time C++) and the VF call macro (debugging is in
``debug.py``). None of them needs the emulator: they are written by hand in
``include/asc/types.h`` and ``include/asc/vf.h`` and declared here so that every public name is defined."""
from __future__ import annotations

from toolkit.ascendc import regbase as Reg

from .spec import Family, api, form, scalar, tded

FAMILY = Family("tools", "AscendC", "", None, doc_root="基础API")
MACROS = Family("tools.macro", "", "", None, doc_root="基础API")

_CONSTEXPR = "types.h: constexpr, usable in constant expressions (array bounds, template arguments)"
_INT = (tded("T", "U"), scalar("a", "T"), scalar("b", "U"))

APIS = [
    api(FAMILY, "GetVecLen", None, form(ret="uint32_t", hand=_CONSTEXPR), doc="工具接口/系统资源与变量/GetVecLen.md",
        note="the machine file's vl_bytes (a currency test checks the constant)"),
    api(FAMILY, "CeilDivision", None, form(*_INT, ret="auto", hand=_CONSTEXPR), doc="标量计算/CeilDivision.md"),
    api(FAMILY, "AlignUp", None, form(*_INT, ret="auto", hand=_CONSTEXPR), note="not on a reference page"),
    api(FAMILY, "CeilAlign", None, form(*_INT, ret="auto", hand=_CONSTEXPR), note="not on a reference page"),
    api(MACROS, "asc_vf_call", Reg.asc_vf_call,
        form(hand="vf.h: a macro (asc_vf_call<F>(args...)) that marks the call site of a VF"),
        doc="基础API/Reg矢量计算/VF调用/asc_vf_call.md"),
]
