"""Compute regions: maximal runs of statements in a kernel method that only compute on LocalTensors.

A region holds MemBase vector calls (count and level-0 forms), ``PipeBarrier<PIPE_V>`` (the register
chain orders the steps itself), the declarations those calls use (views of UB, repeat parameters, mask
words, integers, float scalars read back with ``GetValue``) and loops ``for (row = 0; row < N; ++row)``
whose bodies are such calls. Anything else ends it: queue operations (AllocTensor, EnQue, DeQue,
FreeTensor), DMA, flags, other barriers, calls of other functions, control flow. A region needs at
least one vector call; declarations after its last call stay where they are.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from . import cexpr as C
from .apis import BARRIERS, RULES
from .frontend import Function, Stmt, Unit
from .scope import PortError, Scope, parse_decl


@dataclass
class Item:
    """One statement of a region as the model needs it."""

    kind: str                    #: call | barrier | decl | loop
    stmt: Stmt
    call: C.Call | None = None
    decls: list = field(default_factory=list)
    loop_var: str = ""
    loop_extent: C.Node | None = None
    body: list["Item"] = field(default_factory=list)


@dataclass
class Region:
    function: Function
    items: list[Item]
    start: int
    end: int
    line: int
    end_line: int
    index: int = 0               #: k-th region of its function

    @property
    def calls(self) -> list[Item]:
        out = []
        for it in self.items:
            out += it.body if it.kind == "loop" else [it] if it.kind == "call" else []
        return [i for i in out if i.kind == "call"]


def find_regions(unit: Unit) -> list[Region]:
    out: list[Region] = []
    for fn in unit.functions:
        if fn.body is None:
            continue
        scope = Scope(fn.types, unit.constants, set(unit.tbufs), None, fn.type_bindings)
        found: list[Region] = []
        _scan(fn, fn.body, scope, found, unit)
        for k, r in enumerate(found):
            r.index = k
        out += found
    return out


def _scan(fn: Function, block: Stmt, scope: Scope, found: list[Region], unit: Unit) -> None:
    run: list[Item] = []

    def close() -> None:
        while run and run[-1].kind not in ("call", "loop"):
            run.pop()
        if any(i.kind in ("call", "loop") for i in run):
            first, last = run[0].stmt, run[-1].stmt
            found.append(Region(fn, list(run), first.start, last.end, first.line, unit.line_of(last.end - 1)))
        run.clear()

    for st in block.children:
        item = classify(st, scope)
        if item is None:
            close()
            for child in st.children:
                if child.kind == "compound":
                    _scan(fn, child, scope, found, unit)
            continue
        run.append(item)
    close()


def classify(st: Stmt, scope: Scope) -> Item | None:
    """The region item for ``st``, or None when ``st`` ends a region."""
    if st.kind == "expr":
        try:
            node = C.parse(st.text.strip().rstrip(";"))
        except C.ParseError:
            return None
        if isinstance(node, C.Call) and isinstance(node.func, C.Name):
            name = node.func.name.split("::")[-1]
            if name in BARRIERS and node.targs and node.targs[0].strip().split("::")[-1] == "PIPE_V":
                return Item("barrier", st)
            if name in RULES and node.args and scope.is_tensor_expr(node.args[0]):
                return Item("call", st, node)
        return None
    if st.kind == "decl":
        decls = []
        for name in st.decl_names:
            try:
                d = parse_decl(st.text, name)
            except PortError:
                return None
            if not _pure_decl(d, scope):
                return None
            decls.append(d)
        for d in decls:
            try:
                scope.declare(d, st.line)
            except (PortError, C.ParseError):
                return None
        return Item("decl", st, decls=decls)
    if st.kind == "for":
        return _loop(st, scope)
    return None


_FOR_INIT = re.compile(r"^(?:unsigned|int|uint\d+_t|int\d+_t|size_t|uint|auto)?\s*(\w+)\s*=\s*0$")
_FOR_INC = re.compile(r"^(?:\+\+\s*(\w+)|(\w+)\s*\+\+|(\w+)\s*\+=\s*1)$")


def _loop(st: Stmt, scope: Scope) -> Item | None:
    if not st.for_parts or not st.children:
        return None
    init, cond, inc = (p.strip() for p in st.for_parts)
    mi, mc = _FOR_INIT.match(init), re.match(r"^(\w+)\s*<\s*(.+)$", cond)
    minc = _FOR_INC.match(inc)
    if not (mi and mc and minc):
        return None
    var = mi.group(1)
    if mc.group(1) != var or next(g for g in minc.groups() if g) != var:
        return None
    body = st.children[0]
    stmts = body.children if body.kind == "compound" else [body]
    scope.loop_vars.add(var)
    items = []
    for s in stmts:
        it = classify(s, scope)
        if it is None or it.kind not in ("call", "barrier"):
            scope.loop_vars.discard(var)
            return None
        items.append(it)
    if not any(i.kind == "call" for i in items):
        return None
    try:
        extent = C.parse(mc.group(2))
    except C.ParseError:
        return None
    return Item("loop", st, loop_var=var, loop_extent=extent, body=items)


_PURE_CALLS = {"GetValue", "sqrt", "sqrtf", "exp", "expf", "fabs", "fabsf", "abs", "log", "logf", "sizeof",
               "Get", "ReinterpretCast", "BinaryRepeatParams", "UnaryRepeatParams", "BrcbRepeatParams",
               "GatherMaskParams"}


def _pure_decl(d, scope: Scope) -> bool:
    """A declaration without side effects (what a region may drop or keep as written)."""
    texts = [d.init] if d.init else []
    texts += d.ctor or []
    for t in texts:
        try:
            node = C.parse(t)
        except C.ParseError:
            return False
        if not _pure(node):
            return False
    return True


def _pure(n: C.Node) -> bool:
    if isinstance(n, C.Call):
        f = n.func
        name = f.name if isinstance(f, (C.Name, C.Member)) else ""
        if name.split("::")[-1] not in _PURE_CALLS:
            return False
    for attr in ("obj", "index", "func", "x", "a", "b", "c"):
        v = getattr(n, attr, None)
        if isinstance(v, C.Node) and not isinstance(v, C.Name) and not _pure(v):
            return False
    return all(_pure(a) for a in list(getattr(n, "args", []) or []) + list(getattr(n, "items", []) or []))
