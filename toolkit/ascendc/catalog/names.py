"""How a kernel source spells an API name, and the one lookup key every spelling of it maps to.

A page of the reference documents a bare name (``Add``); where it lives in C++ follows from the page's
folder: ``基础API/Reg矢量计算`` is ``AscendC::Reg`` (alias ``AscendC::MicroAPI``), the rest of the basic
and the high-level API ``AscendC``, a class folder (``资源管理/TPipe``) a member of that class, the C API
(``asc_*``) and macros the global namespace. :func:`key` folds every spelling a source may use
(``MicroAPI::Add``, ``AscendC::Reg::Add<float>``, ``::asc_add``, ``optiling::SoftMaxTiling``) to one key.
"""
from __future__ import annotations

import re

REG_NS = "AscendC::Reg"
ASCENDC_NS = "AscendC"
REG_FOLDER = ("基础API", "Reg矢量计算")

#: reference folders that document one C++ class (their pages are its members) -> the class name
CLASS_FOLDERS = {
    "TPipe": "TPipe", "TQue": "TQue", "TQueBind": "TQueBind", "TBuf": "TBuf", "TBufPool": "TBufPool",
    "自定义TBufPool": "TBufPool", "TSCM": "TSCM", "LocalMemAllocator": "LocalMemAllocator",
    "LocalTensor": "LocalTensor", "GlobalTensor": "GlobalTensor", "TensorTrait": "TensorTrait",
    "TensorDesc": "TensorDesc", "Layout": "Layout", "Coordinate": "Coordinate",
    "NumericLimits工具类": "NumericLimits",
}
#: names documented in a class folder that the vendor declares at namespace scope (free functions, traits)
FREE_IN_CLASS_FOLDER = {"MakeTensorTrait", "is_tensorTrait"}
_MACRO = re.compile(r"^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$")
#: spellings of one namespace, longest first (applied to the front of a qualified name)
_PREFIXES = (("AscendC::MicroAPI::", "Reg::"), ("AscendC::Reg::", "Reg::"), ("MicroAPI::", "Reg::"),
             ("AscendC::tiling::", "tiling::"), ("optiling::", "tiling::"), ("AscendC::", ""))


def class_of(path: str) -> str | None:
    """The C++ class a page documents a member of (from its folders), or None."""
    for folder in path.split("/")[:-1]:
        if folder in CLASS_FOLDERS:
            return CLASS_FOLDERS[folder]
    return None


def qualify(path: str, name: str, kind: str) -> tuple[str, str]:
    """(qualified name, kind) of a name declared on the page at ``path``. A constructor becomes the
    class itself (kind ``class``), a member ``Class::name`` (kind ``method``)."""
    if kind == "macro" or _MACRO.match(name):
        return name, "macro"
    parts = path.split("/")
    if name.startswith("asc_") or parts[0] == "C-API":
        return name, kind
    ns = REG_NS if tuple(parts[:2]) == REG_FOLDER else ASCENDC_NS
    cls = class_of(path)
    if cls is not None and name not in FREE_IN_CLASS_FOLDER:
        if name in (cls, f"~{cls}"):
            return f"{ns}::{cls}", "class"
        return f"{ns}::{cls}::{name}", "method"
    if name[:1].islower() and not name.startswith("operator"):
        return name, kind                          # assert, printf-style free functions
    return f"{ns}::{name}", kind


def key(name: str) -> str:
    """The lookup key of any spelling of a name: no template arguments, no leading ``::``, the
    ``AscendC::`` prefix dropped and ``MicroAPI`` folded into ``Reg`` (``AscendC::MicroAPI::Add<T>`` ->
    ``Reg::Add``), ``optiling::`` into ``tiling::``."""
    s = _strip_template_args(name.strip()).replace(" ", "")
    s = s.lstrip(":")
    for prefix, repl in _PREFIXES:
        if s.startswith(prefix):
            s = repl + s[len(prefix):]
            break
    return s


def key_spelling(name: str) -> str:
    """A name without template arguments or spaces, otherwise as written (``Gather<float, T>`` -> ``Gather``)."""
    return _strip_template_args(name).replace(" ", "").strip()


def _strip_template_args(s: str) -> str:
    out, depth = [], 0
    for c in s:
        if c == "<":
            depth += 1
        elif c == ">":
            depth = max(0, depth - 1)
        elif depth == 0:
            out.append(c)
    return "".join(out)


def last(name: str) -> str:
    """The unqualified name (``AscendC::TPipe::InitBuffer`` -> ``InitBuffer``)."""
    return key(name).rsplit("::", 1)[-1]
