"""Names in a kernel method as the port reads them: LocalTensor views (which UB storage and at which
byte offset), integer expressions as polynomials, repeat-parameter and mask declarations, and the
declarations a region holds (``LocalTensor<float> sq = ws[n];``, ``BinaryRepeatParams p(1, 1, ...);``).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction

from . import cexpr as C
from .apis import DEFAULT_PARAMS, DTYPES
from .poly import Poly


class PortError(Exception):
    """A region the port cannot write as RegBase: it stays MemBase, with this reason."""

    def __init__(self, reason: str, line: int | None = None, call: str = ""):
        super().__init__(reason)
        self.reason, self.line, self.call = reason, line, call


@dataclass(frozen=True)
class Root:
    """One UB storage a region reads or writes: a LocalTensor parameter / local / member, or a TBuf."""

    kind: str            #: param | local | member | tbuf
    name: str
    dtype: str | None    #: element type of the LocalTensor (None: a TBuf)


@dataclass(frozen=True)
class View:
    root: Root
    off: Poly            #: byte offset from the root's first byte
    dtype: str
    text: str = field(default="", compare=False)


_LT = re.compile(r"LocalTensor\s*<\s*([\w:]+)\s*>")


def tensor_dtype(type_spelling: str) -> str | None:
    m = _LT.search(type_spelling or "")
    if not m:
        return None
    return m.group(1).split("::")[-1]


def elem_size(dtype: str, line: int | None = None) -> int:
    if dtype not in DTYPES:
        raise PortError(f"element type {dtype} has no register form in the port", line)
    return DTYPES[dtype]


@dataclass
class Decl:
    type_text: str
    name: str
    init: str | None          #: text after '=' (None: none)
    ctor: list[str] | None    #: constructor arguments ``T n(a, b)`` / ``T n{a, b}``
    array: str | None         #: ``[N]`` extent text


def parse_decl(text: str, name: str) -> Decl:
    """Split one declaration statement ``TYPE name ... ;`` around its declared ``name``."""
    from toolkit.asc.lexer import tokens
    toks = tokens(text)
    k = next((i for i, t in enumerate(toks) if t.text == name), None)
    if k is None:
        raise PortError(f"cannot read the declaration '{text.strip()}'")
    type_text = text[:toks[k].start].strip()
    rest = text[toks[k].end:].strip().rstrip(";").strip()
    array = None
    if rest.startswith("["):
        close = rest.index("]")
        array, rest = rest[1:close], rest[close + 1:].strip()
    if rest.startswith("="):
        return Decl(type_text, name, rest[1:].strip(), None, array)
    if rest.startswith("(") and rest.endswith(")"):
        return Decl(type_text, name, None, C.split_args(rest[1:-1]), array)
    if rest.startswith("{") and rest.endswith("}"):
        return Decl(type_text, name, None, C.split_args(rest[1:-1]), array)
    return Decl(type_text, name, None, None if rest else [], array)


class Scope:
    """What the names of one function mean, as the region's statements declare them in order."""

    def __init__(self, types: dict[str, str], constants: dict[str, str], tbufs: set[str],
                 assumptions: dict[str, int] | None = None, bindings: dict[str, str] | None = None):
        self.types = types                     #: libclang: parameter / local / field -> type
        self.constants = constants             #: file-scope integer constants -> initializer text
        self.tbufs = tbufs
        self.views: dict[str, View] = {}
        self.ints: dict[str, Poly] = {}
        self.params: dict[str, tuple[int, ...]] = {}
        self.masks: dict[str, tuple[int, int]] = {}
        self.assumptions = assumptions or {}
        self.loop_vars: set[str] = set()
        self.bindings = bindings or {}

    def dtype(self, name: str | None) -> str | None:
        """An element type with the class's template type parameters bound."""
        return self.bindings.get(name, name) if name else name

    # -- integers ----------------------------------------------------------------------------------
    def poly(self, node: C.Node, line: int | None = None) -> Poly:
        p = self._poly(node, line)
        return p.subs({k: Poly.const(v) for k, v in self.assumptions.items()}) if self.assumptions else p

    def _poly(self, n: C.Node, line) -> Poly:
        if isinstance(n, C.Num):
            if n.is_float:
                raise PortError(f"'{n.text}' is not an integer", line)
            return Poly.const(int(n.value))
        if isinstance(n, C.CastE):
            return self._poly(n.x, line)
        if isinstance(n, C.Name):
            if n.name in self.ints:
                return self.ints[n.name]
            if n.name in self.constants:
                return self._poly(C.parse(self.constants[n.name]), line)
            return Poly.sym(n.name)
        if isinstance(n, C.Member):
            return Poly.sym(_norm(n.text))
        if isinstance(n, C.Call) and isinstance(n.func, C.Name) and n.func.name == "sizeof":
            t = self.dtype(n.targs[0].strip().split("::")[-1])
            if t in DTYPES:
                return Poly.const(DTYPES[t])
            raise PortError(f"sizeof({t}) is not known to the port", line)
        if isinstance(n, C.Unary) and n.op in "+-":
            v = self._poly(n.x, line)
            return -v if n.op == "-" else v
        if isinstance(n, C.Binary) and n.op in ("+", "-", "*"):
            a, b = self._poly(n.a, line), self._poly(n.b, line)
            return a + b if n.op == "+" else a - b if n.op == "-" else a * b
        if isinstance(n, C.Binary) and n.op == "/":
            a, b = self._poly(n.a, line), self._poly(n.b, line)
            q = a.div(b)
            const = q.value if q is not None and q.is_const else None
            exact_const = q is not None and all(c.denominator == 1 for m, c in q.terms if not m)
            if q is not None and (const is None or const.denominator == 1) and exact_const:
                return q
            return Poly.sym(_norm(n.text))           # C++ integer division: an opaque quantity
        return Poly.sym(_norm(n.text))

    def const_int(self, text_or_node, line: int | None = None, what: str = "value") -> int:
        node = C.parse(text_or_node) if isinstance(text_or_node, str) else text_or_node
        v = self.poly(node, line).int_value()
        if v is None:
            raise PortError(f"the {what} '{node.text}' is not a compile-time constant", line)
        return v

    # -- tensors -----------------------------------------------------------------------------------
    def view(self, node: C.Node, line: int | None = None) -> View:
        v = self._view(node, line)
        return View(v.root, v.off, v.dtype, node.text)

    def _view(self, n: C.Node, line) -> View:
        if isinstance(n, C.Name) or (isinstance(n, C.Member) and isinstance(n.obj, C.Name) and n.obj.name == "this"):
            name = n.name
            if name in self.views:
                return self.views[name]
            dt = self.dtype(tensor_dtype(self.types.get(name, "")))
            if dt is None:
                raise PortError(f"'{n.text}' is not a LocalTensor the port can follow", line)
            kind = "member" if isinstance(n, C.Member) else "param"
            return View(Root(kind, name, dt), Poly(), dt)
        if isinstance(n, C.Index):
            base = self._view(n.obj, line)
            return View(base.root, base.off + self.poly(n.index, line) * elem_size(base.dtype, line), base.dtype)
        if isinstance(n, C.Call) and isinstance(n.func, C.Member):
            meth = n.func.name
            if meth == "ReinterpretCast" and n.targs:
                base = self._view(n.func.obj, line)
                return View(base.root, base.off, self.dtype(n.targs[0].split("::")[-1]))
            if meth == "Get" and n.targs and isinstance(n.func.obj, (C.Name, C.Member)):
                buf = n.func.obj.name
                if buf in self.tbufs:
                    dt = self.dtype(n.targs[0].split("::")[-1])
                    return View(Root("tbuf", buf, None), Poly(), dt)
        raise PortError(f"'{n.text}' is not a LocalTensor view the port can follow", line)

    def is_tensor_expr(self, node: C.Node) -> bool:
        try:
            self._view(node, None)
            return True
        except PortError:
            return False

    # -- declarations ------------------------------------------------------------------------------
    def declare(self, decl: Decl, line: int) -> str:
        """Record one declaration; returns its role: view | int | params | mask | counter | scalar."""
        t = decl.type_text
        if "LocalTensor" in t:
            if decl.init is None:
                raise PortError(f"LocalTensor '{decl.name}' has no initializer", line)
            self.views[decl.name] = self.view(C.parse(decl.init), line)
            return "view"
        base_t = t.replace("const", "").replace("constexpr", "").replace("static", "").strip()
        if base_t in DEFAULT_PARAMS:
            args = decl.ctor if decl.ctor is not None else C.split_args(decl.init.strip("{}")) if decl.init else []
            vals = tuple(self.const_int(a, line, f"{base_t} argument") for a in args) if args else DEFAULT_PARAMS[base_t]
            self.params[decl.name] = vals
            return "params"
        if base_t == "uint64_t" and decl.array is not None:
            init = C.parse(decl.init) if decl.init else None
            if not isinstance(init, C.InitList) or len(init.items) != 2:
                raise PortError(f"mask array '{decl.name}' needs a constant {{lo, hi}} initializer", line)
            lo, hi = (self.const_int(x, line, "mask word") for x in init.items)
            self.masks[decl.name] = (lo, hi)
            return "mask"
        if base_t in ("uint64_t",) and decl.init is not None and _is_zero(decl.init):
            return "counter"
        if base_t in ("float", "half", "bfloat16_t", "double"):
            return "scalar"
        if any(w in base_t for w in ("int", "size_t", "long", "short", "unsigned")):
            if decl.init is not None:
                self.ints[decl.name] = self.poly(C.parse(decl.init), line)
            return "int"
        raise PortError(f"declaration of type '{t}' inside the region", line)

    def repeat_params(self, node: C.Node, kind: str, line: int) -> tuple[int, ...]:
        if isinstance(node, C.Name) and node.name in self.params:
            return self.params[node.name]
        if isinstance(node, C.Call) and isinstance(node.func, C.Name) and node.func.name.split("::")[-1] == kind:
            return tuple(self.const_int(a, line) for a in node.args) if node.args else DEFAULT_PARAMS[kind]
        if isinstance(node, C.InitList):
            return tuple(self.const_int(a, line) for a in node.items)
        raise PortError(f"repeat parameters '{node.text}' are not constant", line)

    def mask_lanes(self, node: C.Node, lanes: int, line: int) -> int:
        """A level-0 mask as the number of leading active lanes (a continuous mask or a prefix bit mask)."""
        if isinstance(node, C.Name) and node.name in self.masks:
            lo, hi = self.masks[node.name]
            bits = lo | (hi << 64)
            bits &= (1 << lanes) - 1 if lanes <= 128 else bits
            n = bits.bit_length()
            if bits != (1 << n) - 1:
                raise PortError(f"bit mask '{node.name}' selects non-leading lanes (0x{bits:x}): no prefix mask", line)
            return n
        return self.const_int(node, line, "continuous mask")


def _norm(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _is_zero(text: str) -> bool:
    try:
        n = C.parse(text)
    except C.ParseError:
        return False
    return isinstance(n, C.Num) and n.value == 0


__all__ = ["PortError", "Root", "View", "Scope", "Decl", "parse_decl", "tensor_dtype", "elem_size", "Fraction"]
