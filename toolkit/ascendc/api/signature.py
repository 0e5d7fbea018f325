"""The C++ declaration of a form, as the generated headers and ``migrate-check api`` show it."""
from __future__ import annotations

from .spec import DEDUCED, ENUM, HIDDEN, IGNORED, NAMED, NOTREG, TRAIT, VALUE, ApiDef, Arg, Form, TParam


def tparam(p: TParam) -> str:
    if p.kind == NOTREG:
        return f"class {p.name}, ASC_NOT_REG({p.name})"
    if p.kind == DEDUCED:
        return f"{p.ctype} {p.name}"
    head = f"{p.ctype} {p.name}" if p.kind in (ENUM, TRAIT, VALUE, NAMED) or (p.kind == HIDDEN and p.ctype != "class") \
        else f"class {p.name}"
    return head if p.default is None else f"{head} = {p.default}"


def arg(a: Arg) -> str:
    decl = a.ctype if a.kind == IGNORED else f"{a.ctype} {a.name}"
    return decl if a.default is None else f"{decl} = {a.default}"


def template_line(f: Form) -> str:
    return f"template <{', '.join(tparam(p) for p in f.tparams)}>" if f.tparams else ""


def declaration(d: ApiDef, f: Form, with_location: bool = True) -> str:
    """``ret name(args[, location])[ const]`` of one form (no template line)."""
    args = [arg(a) for a in f.args] + (["ASC_SLP"] if with_location else [])
    name = f.cpp_name or d.short
    return f"{f.ret} {name}({', '.join(args)}){' const' if f.const else ''}"


def describe(d: ApiDef, f: Form) -> str:
    """One line: the template line and the declaration, with the qualified name and no source location."""
    t = template_line(f)
    decl = declaration(d, f, with_location=False).replace(f" {f.cpp_name or d.short}(", f" {d.name}(", 1)
    return f"{t} {decl}" if t else decl
