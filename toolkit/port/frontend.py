"""The C++ front end of ``port``: libclang parses the ``.asc`` file with our headers on the include path
(as ``migrate-check run`` builds it), and this module turns the translation unit into what the region
finder needs: every function body of the user's file as a tree of statements with exact character
extents, the types libclang resolved (of parameters, locals, fields and call arguments), the file-scope
integer constants, the TBuf members and every ``InitBuffer`` statement.

``kernel<<<blockDim, l2ctrl, stream>>>(args)`` is not C++: the launch brackets are blanked (same length,
so every offset and line stays) before libclang sees the text.
"""
from __future__ import annotations

import functools
import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from toolkit.asc.build import source_dir_of
from toolkit.asc.lexer import tokens
from toolkit.asc.toolchain import INCLUDE


class FrontendError(Exception):
    """The file cannot be parsed (bad input, exit 2)."""


@dataclass
class Stmt:
    kind: str                  #: "expr" | "decl" | "for" | "compound" | "other"
    start: int                 #: character offsets into the file text (``end`` past the ';' or '}')
    end: int
    line: int
    text: str
    children: list["Stmt"] = field(default_factory=list)    #: for: [body]; compound: statements
    decl_names: list[str] = field(default_factory=list)      #: decl: the declared names
    decl_types: list[str] = field(default_factory=list)
    for_parts: tuple[str, str, str] | None = None            #: for: init, condition, increment texts


@dataclass
class Function:
    name: str
    qual_class: str | None     #: enclosing class (template pattern) name, None for a free function
    class_start: int | None    #: offset of the enclosing class/struct declaration (template included)
    start: int                 #: offset of the function definition
    body: Stmt | None
    types: dict[str, str]      #: parameter / local / field name -> type spelling
    template_params: list[str] = field(default_factory=list)
    type_bindings: dict[str, str] = field(default_factory=dict)   #: class type parameter -> its one instantiation


@dataclass
class InitBufferSite:
    target: str                #: the TBuf / TQue member named by the call
    start: int
    end: int
    line: int
    function: str


@dataclass
class Unit:
    path: Path
    text: str
    functions: list[Function]
    constants: dict[str, str]          #: file-scope constexpr / const integers: name -> initializer text
    tbufs: dict[str, str]              #: TBuf member name -> type spelling (in the user's file)
    init_buffers: list[InitBufferSite]
    line_starts: list[int]

    def line_of(self, offset: int) -> int:
        import bisect
        return bisect.bisect_right(self.line_starts, offset)


_LAUNCH = re.compile(r"<<<.*?>>>", re.S)


def blank_launches(text: str) -> str:
    out, pos = [], 0
    for t in tokens(text):
        if t.text == "<<<":
            close = text.find(">>>", t.end)
            if close < 0:
                break
            out.append(text[pos:t.start])
            seg = text[t.start:close + 3]
            out.append(re.sub(r"[^\n]", " ", seg))
            pos = close + 3
    out.append(text[pos:])
    return "".join(out)


@functools.lru_cache(maxsize=1)
def _gcc_include() -> list[str]:
    """The compiler's builtin header directory (stddef.h ...): the libclang wheel ships no resource dir."""
    for cxx in ("g++", "clang++", "c++"):
        try:
            out = subprocess.run([cxx, "-print-file-name=include"], capture_output=True, text=True,
                                 timeout=30).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            continue
        if out and Path(out).is_dir():
            return ["-isystem", out]
    return []


def clang_args(src: Path, include_dirs: list[str], defines: list[str]) -> list[str]:
    sdir = source_dir_of(src)
    incs = [*include_dirs, str(src.parent), str(sdir / "include"), str(INCLUDE)]
    return ["-x", "c++", "-std=c++20", *_gcc_include(), *[a for d in incs for a in ("-I", str(d))],
            f'-DSOURCE_DIR="{sdir}"', *[f"-D{d}" for d in defines]]


def parse_unit(path: str | Path, include_dirs: list[str] = (), defines: list[str] = ()) -> Unit:
    try:
        import clang.cindex as ci
    except ImportError:
        raise FrontendError("port needs libclang: pip install 'libclang>=18.1,<19'") from None
    src = Path(path).resolve()
    try:
        raw = src.read_bytes()
    except OSError as err:
        raise FrontendError(f"{path}: {err.strerror or err}") from None
    text = raw.decode("utf-8", errors="replace")
    blanked = blank_launches(text)
    index = ci.Index.create()
    try:
        tu = index.parse(str(src), args=clang_args(src, list(include_dirs), list(defines)),
                         unsaved_files=[(str(src), blanked)],
                         options=ci.TranslationUnit.PARSE_DETAILED_PROCESSING_RECORD)
    except ci.TranslationUnitLoadError as err:
        raise FrontendError(f"{path}: libclang could not parse the file ({err})") from None
    fatal = [d for d in tu.diagnostics if d.severity >= ci.Diagnostic.Error]
    if fatal:
        d = fatal[0]
        where = f"{d.location.file}:{d.location.line}" if d.location.file else str(path)
        raise FrontendError(f"{where}: {d.spelling}")
    b2c = _byte_to_char(raw, text)
    return _Collector(ci, src, text, b2c).run(tu)


def _byte_to_char(raw: bytes, text: str):
    if len(raw) == len(text):
        return lambda b: b
    table, ci = [], 0
    for ch in text:
        table.extend([ci] * len(ch.encode("utf-8", errors="replace")))
        ci += 1
    table.append(ci)
    return lambda b: table[b] if b < len(table) else len(text)


class _Collector:
    def __init__(self, ci, src: Path, text: str, b2c):
        self.ci, self.src, self.text, self.b2c = ci, src, text, b2c
        self.K = ci.CursorKind
        self.functions: list[Function] = []
        self.constants: dict[str, str] = {}
        self.tbufs: dict[str, str] = {}
        self.inits: list[InitBufferSite] = []
        starts = [0] + [m.end() for m in re.finditer("\n", text)]
        self.line_starts = starts
        self._mine: dict[str, bool] = {}
        lib = ci.conf.lib
        fn = getattr(lib, "clang_Location_isFromMainFile", None)
        if fn is not None:
            fn.argtypes, fn.restype = [ci.SourceLocation], __import__("ctypes").c_int
            self._main = lambda loc: bool(fn(loc))
        else:
            self._main = lambda loc: True

    def mine(self, c) -> bool:
        loc = c.location
        if not self._main(loc):                  # clang_Location_isFromMainFile: cheap, no file lookup
            return False
        f = loc.file
        if f is None:
            return False
        name = f.name
        hit = self._mine.get(name)
        if hit is None:
            hit = self._mine[name] = Path(name).resolve() == self.src
        return hit

    def span(self, c) -> tuple[int, int]:
        return self.b2c(c.extent.start.offset), self.b2c(c.extent.end.offset)

    def run(self, tu) -> Unit:
        for c in tu.cursor.get_children():
            if self.mine(c):
                self.top(c, None, None)
            elif not c.location.is_in_system_header:
                self.user_constant(c)
        return Unit(self.src, self.text, self.functions, self.constants, self.tbufs, self.inits,
                    self.line_starts)

    # -- declarations ------------------------------------------------------------------------------
    def user_constant(self, c) -> None:
        """Integer constants of the sample's own headers (``constexpr uint32_t SAMPLE_DV = 512;``) and
        object-like macros (``#define TILE_LENGTH 128``) of the file and its headers."""
        K = self.K
        if c.kind == K.MACRO_DEFINITION:
            tk = list(c.get_tokens())
            toks = [t.spelling for t in tk]
            function_like = len(tk) >= 2 and toks[1] == "(" and \
                tk[1].extent.start.column == tk[0].extent.end.column
            if len(toks) >= 2 and toks[0] == c.spelling and not function_like:
                body = " ".join(toks[1:])
                if re.fullmatch(r"[\w\s()+\-*/<>%]+", body) and c.spelling not in self.constants:
                    self.constants[c.spelling] = body
        elif c.kind == K.VAR_DECL:
            self._var_constant(c)
        elif c.kind == K.NAMESPACE:
            for ch in c.get_children():
                if ch.kind == K.VAR_DECL:
                    self._var_constant(ch)

    def _var_constant(self, c) -> None:
        K = self.K
        ts = c.type.spelling
        if "const" in ts and any(w in ts for w in ("int", "uint", "size_t", "long", "short")):
            init = [ch for ch in c.get_children() if ch.kind not in (K.TYPE_REF, K.NAMESPACE_REF)]
            if init and init[-1].extent.start.file is not None:
                toks = [t.spelling for t in init[-1].get_tokens()]
                if toks:
                    self.constants.setdefault(c.spelling, " ".join(toks))

    def top(self, c, cls, cls_start) -> None:
        K = self.K
        if c.kind in (K.NAMESPACE, K.LINKAGE_SPEC, K.UNEXPOSED_DECL):
            for ch in c.get_children():
                if self.mine(ch):
                    self.top(ch, cls, cls_start)
        elif c.kind in (K.CLASS_DECL, K.STRUCT_DECL, K.CLASS_TEMPLATE):
            start = self.span(c)[0]
            for ch in c.get_children():
                if ch.kind == K.FIELD_DECL and "TBuf" in ch.type.spelling:
                    self.tbufs[ch.spelling] = ch.type.spelling
                if self.mine(ch):
                    self.top(ch, c, start)
        elif c.kind == K.VAR_DECL and cls is None:
            self._var_constant(c)
        elif c.kind == K.MACRO_DEFINITION:
            self.user_constant(c)
        elif c.kind in (K.CXX_METHOD, K.FUNCTION_DECL, K.FUNCTION_TEMPLATE, K.CONSTRUCTOR) and c.is_definition():
            self.function(c, cls, cls_start)

    def function(self, c, cls, cls_start) -> None:
        K = self.K
        types: dict[str, str] = {}
        tparams = []
        if cls is not None:
            self._fields(cls, types, set())
            tparams += [ch.spelling for ch in cls.get_children()
                        if ch.kind in (K.TEMPLATE_TYPE_PARAMETER, K.TEMPLATE_NON_TYPE_PARAMETER)]
        body = None
        for ch in c.get_children():
            if ch.kind == K.PARM_DECL:
                types[ch.spelling] = ch.type.spelling
            elif ch.kind in (K.TEMPLATE_TYPE_PARAMETER, K.TEMPLATE_NON_TYPE_PARAMETER):
                tparams.append(ch.spelling)
            elif ch.kind == K.COMPOUND_STMT:
                body = self.stmt(ch, types, c.spelling)
        start = self.span(c)[0]
        binds = self._bindings(cls) if cls is not None and cls.kind == K.CLASS_TEMPLATE else {}
        self.functions.append(Function(c.spelling, cls.spelling if cls is not None else None, cls_start, start,
                                       body, types, tparams, binds))

    def _bindings(self, cls) -> dict[str, str]:
        """Type parameters of a class template bound to the arguments of its only instantiation in the
        file (``KernelAdd<float> op;``): the port analyses the instantiated kernel."""
        K = self.K
        params = [(ch.spelling, ch.kind == K.TEMPLATE_TYPE_PARAMETER) for ch in cls.get_children()
                  if ch.kind in (K.TEMPLATE_TYPE_PARAMETER, K.TEMPLATE_NON_TYPE_PARAMETER)]
        if not any(is_type for _, is_type in params):
            return {}
        from .cexpr import split_args
        seen = set()
        toks = tokens(self.text)
        for k, t in enumerate(toks[:-1]):
            if t.text != cls.spelling or toks[k + 1].text != "<":
                continue
            depth, j = 0, k + 1
            while j < len(toks):
                depth += {"<": 1, ">": -1, ">>": -2}.get(toks[j].text, 0)
                if depth <= 0:
                    break
                j += 1
            args = tuple(a.strip() for a in split_args(self.text[toks[k + 1].end:toks[j].start]))
            if len(args) == len(params) and not any(a == name for a, (name, _) in zip(args, params)):
                seen.add(tuple(a for a, (_, is_type) in zip(args, params) if is_type))
        if len(seen) != 1:
            return {}
        (args,) = seen
        names = [name for name, is_type in params if is_type]
        return {n: a.split("::")[-1] for n, a in zip(names, args)}

    def _fields(self, cls, types: dict[str, str], seen: set) -> None:
        K = self.K
        if cls is None or cls.hash in seen:
            return
        seen.add(cls.hash)
        for ch in cls.get_children():
            if ch.kind == K.FIELD_DECL:
                types.setdefault(ch.spelling, ch.type.spelling)
            elif ch.kind == K.CXX_BASE_SPECIFIER:
                ref = ch.referenced
                for sub in ch.get_children():
                    if sub.kind == K.TEMPLATE_REF and sub.referenced is not None:
                        ref = sub.referenced
                        break
                self._fields(ref, types, seen)

    # -- statements --------------------------------------------------------------------------------
    def _end_with_semicolon(self, end: int) -> int:
        j = end
        while j < len(self.text) and self.text[j] in " \t":
            j += 1
        return j + 1 if j < len(self.text) and self.text[j] == ";" else end

    def stmt(self, c, types: dict[str, str], fname: str) -> Stmt:
        K = self.K
        s, e = self.span(c)
        line = c.extent.start.line
        if c.kind == K.COMPOUND_STMT:
            kids = [self.stmt(ch, types, fname) for ch in c.get_children()]
            return Stmt("compound", s, e, line, self.text[s:e], kids)
        if c.kind == K.FOR_STMT:
            kids = list(c.get_children())
            body = self.stmt(kids[-1], types, fname) if kids else None
            head = self.text[s:body.start if body else e]
            parts = _for_parts(head)
            for ch in kids[:-1]:
                self._decls(ch, types)
            return Stmt("for", s, e, line, self.text[s:e], [body] if body else [], for_parts=parts)
        if c.kind == K.DECL_STMT:
            e2 = self._end_with_semicolon(e)
            names, tys = self._decls(c, types)
            st = Stmt("decl", s, e2, line, self.text[s:e2], decl_names=names, decl_types=tys)
            self._init_buffer(c, s, e2, line, fname)
            return st
        if c.kind.is_expression() or c.kind == K.UNEXPOSED_EXPR:
            e2 = self._end_with_semicolon(e)
            st = Stmt("expr", s, e2, line, self.text[s:e2])
            self._init_buffer(c, s, e2, line, fname)
            return st
        e2 = self._end_with_semicolon(e)
        kids = []
        if c.kind in (K.IF_STMT, K.WHILE_STMT, K.DO_STMT, K.SWITCH_STMT, K.CASE_STMT, K.DEFAULT_STMT):
            kids = [self.stmt(ch, types, fname) for ch in c.get_children() if ch.kind == K.COMPOUND_STMT]
        return Stmt("other", s, e2, line, self.text[s:e2], kids)

    def _decls(self, c, types) -> tuple[list[str], list[str]]:
        names, tys = [], []
        for ch in c.get_children():
            if ch.kind == self.K.VAR_DECL:
                names.append(ch.spelling)
                tys.append(ch.type.spelling)
                types[ch.spelling] = ch.type.spelling
        return names, tys

    def _init_buffer(self, c, s: int, e: int, line: int, fname: str) -> None:
        text = self.text[s:e]
        m = re.search(r"\bInitBuffer\s*\(\s*([A-Za-z_][\w.>-]*)", text)
        if m:
            target = m.group(1).split(".")[-1].split("->")[-1]
            self.inits.append(InitBufferSite(target, s, e, line, fname))


def _for_parts(head: str) -> tuple[str, str, str] | None:
    """``for (init; cond; inc)`` -> the three texts (None when the head is not of that shape)."""
    i = head.find("(")
    j = head.rfind(")")
    if i < 0 or j < i:
        return None
    inner = head[i + 1:j]
    parts, depth, start = [], 0, 0
    for k, ch in enumerate(inner):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == ";" and depth == 0:
            parts.append(inner[start:k].strip())
            start = k + 1
    parts.append(inner[start:].strip())
    return tuple(parts) if len(parts) == 3 else None
