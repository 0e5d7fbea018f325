"""What a Python kernel's loop body does to its Python variables: the static half of loop batching.

A batched body runs once, so a Python local the body reads before assigning it, and assigns later
(``p = p + 64``: the next iteration would see the new value), would be read once with its pre-loop
value. :func:`loop_facts` finds such loop-carried locals, and the statements batching cannot keep
exact (an attribute or item store, ``global``/``nonlocal``, ``del``, a nested ``def``/``class``), from
the loop's source with :mod:`ast`; definitions inside a branch or an inner loop count only inside it (an
iteration may skip them). It also names the body's locals read elsewhere in the function, which the
batch must leave holding their last iteration's value.
"""
from __future__ import annotations

import ast
import functools
from dataclasses import dataclass


@dataclass(frozen=True)
class LoopFacts:
    refusal: str | None            #: why the loop cannot be batched, or None
    outlive: frozenset             #: locals the body (or the loop target) assigns, read outside the body
    callees: frozenset = frozenset()   #: the names the body's calls start from (``Reg`` of Reg.Add(...))


@functools.lru_cache(maxsize=1024)
def loop_facts(code, lineno: int) -> LoopFacts:
    """Facts of the ``for`` loop at ``lineno`` in the function of ``code``."""
    found = _loops_of(code.co_filename).get(lineno)
    if found is None:
        return LoopFacts("the loop's source is not available", frozenset())
    if found == "ambiguous":
        return LoopFacts("the loop's source line is ambiguous", frozenset())
    loop, func = found
    assigned = _stored(loop.body)
    flow = _Flow(assigned, _stored([loop.target]))
    for stmt in loop.body:
        flow.visit(stmt)
    first, last = loop.lineno, loop.end_lineno
    read_outside = {name for name, line in _loads_of(func) if not first <= line <= last}
    refusal = flow.unsafe or (f"loop-carried Python local(s) {', '.join(sorted(flow.carried))}"
                              if flow.carried else None)
    outlive = (assigned | _stored([loop.target])) & read_outside
    return LoopFacts(refusal, frozenset(outlive), frozenset(_call_roots(loop.body)))


@functools.lru_cache(maxsize=1024)
def _loads_of(func) -> tuple:
    """(name, line) of every name the function reads (once per function node of a parsed file)."""
    return tuple((n.id, n.lineno) for n in ast.walk(func) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load))


@functools.lru_cache(maxsize=256)
def _tree_of(filename: str) -> ast.Module | None:
    """The parsed source of one file (None: not available), parsed once for loops and called functions."""
    import linecache
    try:
        return ast.parse("".join(linecache.getlines(filename)) or open(filename, encoding="utf-8").read())
    except (OSError, SyntaxError, ValueError, UnicodeDecodeError):
        return None


def settle_locals(frame, names, last) -> None:
    """Give the function's locals ``names`` what the serial run leaves after the loop: a per-iteration
    value becomes its last iteration's (``last(v)``: the value, or None to leave it), written back into
    the running frame (``PyFrame_LocalsToFast`` before Python 3.13, whose ``f_locals`` writes through)."""
    import ctypes
    import sys
    loc = frame.f_locals
    changed = False
    for name in names:
        if name in loc:
            new = last(loc[name])
            if new is not None:
                loc[name] = new
                changed = True
    if changed and sys.version_info < (3, 13):
        ctypes.pythonapi.PyFrame_LocalsToFast(ctypes.py_object(frame), ctypes.c_int(0))


@functools.lru_cache(maxsize=256)
def _loops_of(filename: str) -> dict:
    """line -> (``for`` node, its innermost enclosing function) of one source file."""
    tree = _tree_of(filename)
    if tree is None:
        return {}
    out: dict = {}

    def walk(node, func) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.For):
                out[child.lineno] = "ambiguous" if child.lineno in out else (child, func)
            walk(child, child if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) else func)
    walk(tree, tree)
    return out


def _call_roots(body: list) -> set[str]:
    out = set()
    for stmt in body:
        for n in ast.walk(stmt):
            if isinstance(n, ast.Call):
                f = n.func
                while isinstance(f, (ast.Attribute, ast.Subscript, ast.Call)):
                    f = f.func if isinstance(f, ast.Call) else f.value
                out.add(f.id if isinstance(f, ast.Name) else "<expression>")
    return out


#: builtins a loop body may call: pure functions of their arguments
_PURE_BUILTINS = frozenset({"int", "float", "bool", "min", "max", "abs", "len", "range", "divmod", "round",
                            "isinstance", "tuple", "list", "type", "enumerate", "zip", "sum", "pow", "hex"})


def impure_call(frame, callees: frozenset) -> str | None:
    """The first call of the body that may have a side effect a single run of the body would not repeat
    (a method of a local object: ``got.append(i)``, ``print``, a function of the kernel that stores into
    an object or calls one), judged on what the names hold now; None when every call starts from a module,
    a class, an API or a pure builtin, or a Python function whose own body passes the same test."""
    return _impure_names(callees, frame.f_locals, frame.f_globals, 0)


def _impure_names(names, loc: dict, glob: dict, depth: int) -> str | None:
    import builtins
    import types
    for name in sorted(names):
        if name in loc:
            v = loc[name]
        elif name in glob:
            v = glob[name]
        elif name in _PURE_BUILTINS:
            continue
        else:
            return f"a call of {name}"
        if isinstance(v, (types.ModuleType, type, functools.partial)) or type(v).__name__ in ("TemplateApi", "SimdVf"):
            continue
        if v is getattr(builtins, name, None) and name in _PURE_BUILTINS:
            continue
        if isinstance(v, types.FunctionType) and (v.__module__ or "").startswith("toolkit."):
            continue                              # the toolkit's own API helpers (VLOOP ...): handled by the batch
        if isinstance(v, types.FunctionType):
            why = _impure_function(v, depth + 1)
            if why is None:
                continue
            return why
        return f"a call on {name} ({type(v).__name__})"
    return None


def _impure_function(fn, depth: int) -> str | None:
    """Why calling the kernel's Python function ``fn`` from a batched body may not be repeated exactly."""
    if depth > 4:
        return f"calls nested too deep ({fn.__name__})"
    facts = _function_facts(fn.__code__)
    if facts is None:
        return f"the source of {fn.__name__} is not available"
    unsafe, roots, own = facts
    if unsafe:
        return f"{unsafe} in {fn.__name__}"
    if roots & own:
        return f"a call on a local of {fn.__name__}"
    cells = dict(zip(fn.__code__.co_freevars, (c.cell_contents for c in fn.__closure__ or ())))
    return _impure_names(roots, cells, fn.__globals__, depth)


@functools.lru_cache(maxsize=512)
def _function_facts(code) -> tuple | None:
    """(unsafe statement or None, the names its calls start from, its own local names) of a function."""
    tree = _tree_of(code.co_filename)
    if tree is None:
        return None
    if code.co_name == "<lambda>":
        fns = [n for n in ast.walk(tree) if isinstance(n, ast.Lambda) and n.lineno == code.co_firstlineno]
        if len(fns) > 1:                          # several on the line: the one whose body the code spans
            cols = [c for line, _, c, _ in code.co_positions() if line == code.co_firstlineno and c is not None]
            fns = [n for n in fns if cols and n.body.col_offset <= max(cols) <= n.body.end_col_offset
                   and not any(m is not n and isinstance(m, ast.Lambda) and
                               m.body.col_offset <= max(cols) <= m.body.end_col_offset for m in ast.walk(n.body))]
        body = [ast.Expr(fns[0].body)] if len(fns) == 1 else None
    else:
        fns = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
               and n.name == code.co_name and (n.lineno == code.co_firstlineno or
                                               any(d.lineno == code.co_firstlineno for d in n.decorator_list))]
        body = fns[0].body if len(fns) == 1 else None
    if body is None:
        return None
    flow = _Flow(set(), set(), loop=False)
    for stmt in body:
        flow.visit(stmt)
    return flow.unsafe, frozenset(_call_roots(body)), frozenset(code.co_varnames)


def _stored(nodes) -> set[str]:
    out = set()
    for node in nodes:
        for n in ast.walk(node):
            if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
                out.add(n.id)
    return out


class _Flow(ast.NodeVisitor):
    """Names read before they are definitely assigned in one run of the body (evaluation order)."""

    def __init__(self, assigned: set[str], defined: set[str], loop: bool = True):
        self.assigned = assigned
        self.defined = set(defined)
        self.carried: set[str] = set()
        self.unsafe: str | None = None
        self.inner = 0                   # depth of loops inside the body (a break there stays inside)
        self.loop = loop                 # a loop body (else a called function's body: it may return)

    def _refuse(self, what: str) -> None:
        self.unsafe = self.unsafe or what

    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, ast.Load):
            if node.id in self.assigned and node.id not in self.defined:
                self.carried.add(node.id)
        elif isinstance(node.ctx, ast.Store):
            self.defined.add(node.id)
        else:
            self._refuse("a del statement")

    def visit_Assign(self, node: ast.Assign) -> None:
        self.visit(node.value)
        for t in node.targets:
            self.visit(t)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self.visit(node.value)
        self.visit(node.target)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        if not isinstance(node.target, ast.Name):
            return self._refuse("an augmented attribute or item store")
        self.visit(ast.Name(node.target.id, ast.Load()))
        self.visit(node.value)
        self.defined.add(node.target.id)

    def visit_NamedExpr(self, node: ast.NamedExpr) -> None:
        self.visit(node.value)
        self.visit(node.target)

    def _store_target(self, node) -> None:
        if isinstance(node.ctx, ast.Store):
            self._refuse("an attribute or item store")
        self.generic_visit(node)

    visit_Attribute = visit_Subscript = _store_target

    def _scoped(self, body: list) -> set[str]:
        saved = set(self.defined)
        for stmt in body:
            self.visit(stmt)
        got, self.defined = self.defined, saved
        return got

    def visit_For(self, node: ast.For) -> None:
        self.visit(node.iter)
        saved = set(self.defined)
        self.visit(node.target)
        self.inner += 1
        self._scoped(node.body)
        self.inner -= 1
        self._scoped(node.orelse)
        self.defined = saved

    def visit_While(self, node: ast.While) -> None:
        self.visit(node.test)
        self.inner += 1
        self._scoped(node.body)
        self.inner -= 1
        self._scoped(node.orelse)

    def visit_If(self, node: ast.If) -> None:
        self.visit(node.test)
        a, b = self._scoped(node.body), self._scoped(node.orelse)
        self.defined |= a & b

    def visit_With(self, node: ast.With) -> None:
        for item in node.items:
            self.visit(item.context_expr)
            if item.optional_vars is not None:
                self.visit(item.optional_vars)
        for stmt in node.body:
            self.visit(stmt)

    def visit_Try(self, node) -> None:
        for part in (node.body, *[h.body for h in node.handlers], node.orelse, node.finalbody):
            self._scoped(part)

    visit_TryStar = visit_Try

    def _comprehension(self, node) -> None:
        saved = set(self.defined)
        for gen in node.generators:
            self.visit(gen.iter)
            self.defined |= _stored([gen.target])
            for cond in gen.ifs:
                self.visit(cond)
        for part in ("elt", "key", "value"):
            if hasattr(node, part):
                self.visit(getattr(node, part))
        self.defined = saved

    visit_ListComp = visit_SetComp = visit_GeneratorExp = visit_DictComp = _comprehension

    def visit_Lambda(self, node: ast.Lambda) -> None:
        pass

    def visit_Return(self, node: ast.Return) -> None:
        if self.loop:
            self._refuse("a return in the loop body")

    def visit_Break(self, node: ast.Break) -> None:
        if self.loop and not self.inner:
            self._refuse("a break out of the loop")

    def _nested(self, node) -> None:
        self._refuse("a nested def, class, global or nonlocal")

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = visit_Global = visit_Nonlocal = _nested
