"""Source rewrite of an ``.asc`` translation unit before the C++ compiler sees it.

Four edits, all on the same lines as the original text (line numbers never move; a ``#line`` directive
at the top keeps the original file name in compiler messages, ``__FILE__`` and ``source_location``):

1. ``kernel<<<blockDim, l2ctrl, stream>>>(args)`` (plain or templated kernel) becomes
   ``::__asc::launch_kernel("kernel", __FILE__, __LINE__, [&](auto&... a) { kernel(a...); }, blockDim,
   l2ctrl, stream)(args)``: the launcher runs the kernel once per emulated core.
2. The body of every ``__simd_vf__`` function is wrapped in ``if (::__asc::VfGate g{name, N, no_fusion,
   __FILE__, __LINE__, params...}; g) { body }`` (one VF instance: its parameter count, whether
   ``__no_simd_vf_fusion__`` is given, and the parameters, whose values are the instance's static identity
   in lock-step: the gate is closed on a core whose group's leader ran the body for it).
3. Loops inside ``__simd_vf__`` and ``__simd_callee__`` bodies get a ``::__asc::VfLoop`` guard: a ``for``
   loop the compiler can turn into a hardware loop records its entry and each iteration start (the
   condition is wrapped: ``g.next(cond)``); a loop that cannot be one (``while``/``do``, or a body with
   ``continue``, ``break``, ``return``, ``goto``, ``switch``, a non-constexpr ``if`` or ``?:``) runs as a
   software loop and the guard reports why it will be slow. ``#pragma unroll N`` before a loop is passed on.
4. A UB array of the C API (``__ubuf__ half dst[N];``, ``__ubuf__ Buffers b{};`` inside a function) becomes a
   pointer (a reference) into the emulated core's UB: ``::__asc::ub_array<T>(site, N)`` hands each
   declaration its own 32 B aligned place, from UB address 0 up in the order the declarations first run
   (the C API page: arrays and asc_get_phy_buf_addr must not be mixed). ``sizeof`` of such an array is then
   a pointer's.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from .lexer import (
    DIRECTIVE,
    IDENT,
    PUNCT,
    LexError,
    Token,
    match_angle_back,
    match_forward,
    skip_angles,
    tokens,
)
from .rawub import touches_ub

VF_MARKERS = ("__simd_vf__", "__simd_callee__")
#: bit of a loop guard's hardware code: the VF body touches UB through a pointer (``rawub``), so the loop's
#: calls are run as C++ makes them, never recorded (``hooks.loop_begin``)
NO_DEFER = 4
_SOFT_TOKENS = {"continue", "break", "return", "goto", "switch", "while", "do", "?"}
_PRAGMA_UNROLL = re.compile(r"#\s*pragma\s+(?:GCC\s+)?unroll\s*(\(?\s*(\d+)\s*\)?)?")


@dataclass
class VfFunction:
    name: str
    kind: str              #: "__simd_vf__" or "__simd_callee__"
    line: int
    nparams: int
    no_fusion: bool


@dataclass
class LoopSite:
    line: int
    hardware: bool
    reason: str            #: why it is a software loop ("" for hardware loops)
    unroll: int            #: #pragma unroll N (0: none, -1: full unroll)


@dataclass
class Rewritten:
    text: str
    launches: list[tuple[str, int]] = field(default_factory=list)   #: (kernel expression, line)
    vfs: list[VfFunction] = field(default_factory=list)
    loops: list[LoopSite] = field(default_factory=list)
    kernels: dict[str, list[str]] = field(default_factory=dict)    #: __global__ kernel -> parameter names
    ub_arrays: list[int] = field(default_factory=list)             #: lines of the C API's __ubuf__ arrays

    @property
    def changed(self) -> bool:
        return bool(self.launches or self.vfs or self.loops or self.ub_arrays)


def rewrite(src: str, filename: str) -> Rewritten:
    """Rewrite ``src`` (the text of ``filename``). Sources the lexer cannot scan are returned unchanged
    (the compiler then reports the real error)."""
    try:
        toks = tokens(src)
        out = Rewritten("")
        edits: list[tuple[int, int, str]] = []
        _launch_edits(src, toks, edits, out)
        _vf_edits(src, toks, edits, out)
        _ub_array_edits(src, toks, edits, out)
        _kernels(toks, out)
    except LexError:
        return Rewritten(src)
    text = src
    # applied back to front; insertions at one position land in the order they were made (an empty VF
    # body gets its gate, then the gate's closing brace)
    order = sorted(range(len(edits)), key=lambda k: (edits[k][0], edits[k][1], k), reverse=True)
    for start, end, repl in (edits[k] for k in order):
        text = text[:start] + repl + text[end:]
    out.text = f'#line 1 "{c_string(filename)}"\n' + text if out.changed else src
    return out


def c_string(s: str) -> str:
    """The body of a C string literal whose bytes are ``s``'s (``os.fsencode``: a path's undecodable bytes
    kept): printable ASCII as is, ``"`` and ``\\`` escaped, every other byte (newline, UTF-8, GBK) as a
    three-digit octal escape, which no following character can extend."""
    out = []
    for b in os.fsencode(s):
        ch = chr(b)
        out.append("\\" + ch if ch in '"\\' else ch if 0x20 <= b < 0x7F and ch != "?" else f"\\{b:03o}")
    return "".join(out)




# -- the C API's UB arrays ---------------------------------------------------------------------------
_SITE = "[]() -> unsigned long long& { static unsigned long long s = ~0ull; return s; }()"


def _ub_array_edits(src: str, toks: list[Token], edits: list, out: Rewritten) -> None:
    """``__ubuf__ T name[N];`` and ``__ubuf__ T name{};`` inside braces (a function body): T is names, ``::``
    and template arguments, no ``*`` (a pointer, a parameter, a cast stay as they are)."""
    depth = 0
    for k, t in enumerate(toks):
        if t.text in ("{", "}"):
            depth += 1 if t.text == "{" else -1
        if t.text != "__ubuf__" or depth <= 0:
            continue
        j = k + 1
        while j < len(toks) and (toks[j].kind == IDENT or toks[j].text == "::"):
            j = skip_angles(toks, j + 1) if j + 1 < len(toks) and toks[j + 1].text == "<" else j + 1
        if j - k < 3 or toks[j - 1].kind != IDENT or j >= len(toks) or toks[j].text not in ("[", "{"):
            continue
        close = match_forward(toks, j)
        if close + 1 >= len(toks) or toks[close + 1].text != ";":
            continue
        ctype, name = src[toks[k + 1].start:toks[j - 2].end], toks[j - 1].text
        if toks[j].text == "[":
            count = src[toks[j].end:toks[close].start]
            repl = f"{ctype}* const {name} = ::__asc::ub_array<{ctype}>({_SITE}, ({count}))"
        else:
            init = src[toks[j].start:toks[close].end]
            repl = f"{ctype}& {name} = *::new (::__asc::ub_array<{ctype}>({_SITE}, 1)) {ctype}{init}"
        edits.append((t.start, toks[close].end, repl))
        out.ub_arrays.append(t.line)


# -- launches ------------------------------------------------------------------------------------
def _launch_edits(src: str, toks: list[Token], edits: list, out: Rewritten) -> None:
    for k, t in enumerate(toks):
        if t.text != "<<<":
            continue
        close = next((j for j in range(k + 1, len(toks)) if toks[j].text == ">>>"), None)
        if close is None:
            raise LexError(f"line {t.line}: '<<<' without '>>>'")
        first = _callee_start(toks, k)
        expr = src[toks[first].start:t.start]
        cfg = src[t.end:toks[close].start]
        name = " ".join(expr.split())
        repl = (f'::__asc::launch_kernel("{c_string(name)}", __FILE__, __LINE__, '
                f'[&](auto&... __asc_a) {{ {expr}(__asc_a...); }}, {cfg})')
        edits.append((toks[first].start, toks[close].end, repl))
        out.launches.append((name, t.line))


def _callee_start(toks: list[Token], k: int) -> int:
    """First token of the kernel expression before ``<<<`` (``ns::kernel<T, 4>``)."""
    i = k - 1
    if i >= 0 and toks[i].text in (">", ">>", ">>>"):
        i = match_angle_back(toks, i) - 1
    while i >= 0 and toks[i].kind == IDENT:
        if i >= 1 and toks[i - 1].text == "::":
            i -= 2
            if i >= 0 and toks[i].text in (">", ">>"):
                i = match_angle_back(toks, i) - 1
            continue
        return i
    if i + 1 < k and toks[i + 1].text == "::":
        return i + 1
    raise LexError(f"line {toks[k].line}: no kernel name before '<<<'")


# -- VF functions and their loops -------------------------------------------------------------------
def _vf_edits(src: str, toks: list[Token], edits: list, out: Rewritten) -> None:
    funcs = []                                      # (marker index, marker, (name, lp, rp, body), end)
    for k, t in enumerate(toks):
        found = _function_after(toks, k) if t.kind == IDENT and t.text in VF_MARKERS else None
        if found is not None:
            funcs.append((k, t, found, match_forward(toks, found[3])))
    callees = {f[0] for _, t, f, end in funcs if t.text == "__simd_callee__" and touches_ub(toks, f[1], f[3], end)}
    for k, t, (name, lp, rp, body), end in funcs:
        raw = touches_ub(toks, lp, body, end, callees)
        if t.text == "__simd_vf__":
            no_fusion = any(x.text == "__no_simd_vf_fusion__" for x in toks[max(0, k - 8):lp])
            nparams = _count_params(toks, lp, rp)
            out.vfs.append(VfFunction(name, t.text, t.line, nparams, no_fusion))
            names = None if raw else _param_names(toks, lp, rp)     # raw UB access: each core its own body
            keys = "".join(f", {n}" for n in names) if names is not None else ", ::__asc::Unkeyable{}"
            edits.append((toks[body].end, toks[body].end,
                          f" if (::__asc::VfGate __asc_vf{{\"{name}\", {nparams}, {int(no_fusion)}, __FILE__, "
                          f"__LINE__{keys}}}; __asc_vf) {{"))
            edits.append((toks[end].start, toks[end].start, "} "))
        else:
            out.vfs.append(VfFunction(name, t.text, t.line, _count_params(toks, lp, rp), False))
        _loop_edits(src, toks, body + 1, end, edits, out, raw)


# -- kernels -------------------------------------------------------------------------------------
def _kernels(toks: list[Token], out: Rewritten) -> None:
    """The parameter names of every ``__global__`` kernel defined here (for naming its outputs): per
    parameter the last identifier before a default value (an unnamed one: its type's name)."""
    for k, t in enumerate(toks):
        if t.kind != IDENT or t.text != "__global__":
            continue
        found = _function_after(toks, k)
        if found is None:
            continue
        name, lp, rp, _ = found
        names = []
        for param in _split_params(toks[lp + 1:rp]):
            cut = next((i for i, x in enumerate(param) if x.text == "="), len(param))
            ids = [x.text for x in param[:cut] if x.kind == IDENT]
            if ids and ids[-1] != "void":
                names.append(ids[-1])
        out.kernels.setdefault(name, names)


def _function_after(toks: list[Token], k: int):
    """(name, '(' index, ')' index, '{' index) of the function definition the marker at ``k`` starts,
    or None for a declaration."""
    i = k + 1
    while i < len(toks):
        t = toks[i]
        if t.text in ("__attribute__", "alignas", "__declspec") and i + 1 < len(toks) and toks[i + 1].text == "(":
            i = match_forward(toks, i + 1) + 1
            continue
        if t.text == "[" and i + 1 < len(toks) and toks[i + 1].text == "[":
            i = match_forward(toks, i) + 1
            continue
        if t.text == "<" and toks[i - 1].kind == IDENT:
            i = skip_angles(toks, i)
            continue
        if t.text == "(" and toks[i - 1].kind == IDENT:
            rp = match_forward(toks, i)
            j = rp + 1
            while j < len(toks) and toks[j].text not in ("{", ";", "="):
                if toks[j].text == "(":
                    j = match_forward(toks, j)
                j += 1
            if j < len(toks) and toks[j].text == "{":
                return toks[i - 1].text, i, rp, j
            return None
        if t.text in (";", "{", "}", "="):
            return None
        i += 1
    return None


_QUALIFIERS = {"const", "volatile", "struct", "class", "typename", "enum", "__restrict__", "__restrict",
               "restrict", "__ubuf__", "__gm__", "register"}
_TYPE_WORDS = {"unsigned", "signed", "long", "short", "int", "char", "float", "double", "bool", "void", "auto"}


def _param_names(toks: list[Token], lp: int, rp: int) -> list[str] | None:
    """The names of a function's parameters (a pack as ``name...``; unnamed ones, which the body cannot
    read, left out), or None when a parameter's shape is not plain (a function pointer, ...): the VF is
    then unkeyable (its instances never share a run), which is always correct."""
    names: list[str] = []
    for param in _split_params(toks[lp + 1:rp]):
        cut = next((i for i, t in enumerate(param) if t.text in ("=", "[")), len(param))
        decl = [t for t in param[:cut] if t.text not in ("__restrict__", "__restrict", "restrict")]
        if any(t.text in ("(", ")") for t in decl):
            return None
        last = decl[-1] if decl else None
        if last is None or last.kind != IDENT or last.text in _TYPE_WORDS or last.text in _QUALIFIERS:
            continue                                     # "void", "T*", "int": no name
        before = [t.text for t in decl[:-1]]
        if not [b for b in before if b not in _QUALIFIERS] or before[-1] == "::":
            continue                                     # "T", "const T", "ns::T": the last word is the type
        names.append(last.text + ("..." if "..." in before else ""))
    return names


def _split_params(inner: list[Token]) -> list[list[Token]]:
    """The parameters of a parameter list (commas inside (), [], {} and template <> do not split)."""
    out: list[list[Token]] = [[]]
    depth = 0
    for t in inner:
        if t.text in ("(", "[", "{", "<"):
            depth += 1
        elif t.text in (")", "]", "}", ">"):
            depth -= 1
        elif t.text == ">>":
            depth -= 2
        if t.text == "," and depth == 0:
            out.append([])
        else:
            out[-1].append(t)
    return [p for p in out if p]


def _count_params(toks: list[Token], lp: int, rp: int) -> int:
    params = _split_params(toks[lp + 1:rp])
    return 0 if len(params) == 1 and [t.text for t in params[0]] == ["void"] else len(params)


def _loop_edits(src: str, toks: list[Token], begin: int, end: int, edits: list, out: Rewritten,
                raw_ub: bool = False) -> None:
    """Guard every loop of a VF body (``raw_ub``: the body touches UB itself, its loops are not recorded:
    the guard's code gets ``NO_DEFER``)."""
    for i in range(begin, end):
        t = toks[i]
        if t.kind != IDENT or t.text not in ("for", "while", "do"):
            continue
        if t.text == "while" and _is_do_while_tail(toks, begin, i):
            continue
        stmt_end = statement_end(toks, i)
        unroll = _unroll_hint(toks, i)
        if t.text == "for":
            lp = i + 1
            rp = match_forward(toks, lp)
            semis = _top_level(toks, lp, rp, ";")
            reason = _soft_reason(toks, rp + 1, stmt_end) if len(semis) == 2 else "range-based for"
        else:
            reason = f"'{t.text}' loop"
        var = f"__asc_lp{t.line}_{i}"
        hw = not reason
        out.loops.append(LoopSite(t.line, hw, reason, unroll))
        reason_c = c_string(reason)
        code = 2 if hw and _literal_bound(toks[semis[0] + 1:semis[1]]) else int(hw)
        code |= NO_DEFER if hw and raw_ub else 0
        edits.append((t.start, t.start,
                       f'{{ ::__asc::VfLoop {var}({code}, {unroll}, "{reason_c}", __FILE__, __LINE__); '))
        edits.append((toks[stmt_end].end, toks[stmt_end].end, " }"))
        if hw:
            c0, c1 = semis[0] + 1, semis[1]
            if c0 == c1:
                edits.append((toks[c1].start, toks[c1].start, f"{var}.next(true)"))
            else:
                edits.append((toks[c0].start, toks[c0].start, f"{var}.next("))
                edits.append((toks[c1 - 1].end, toks[c1 - 1].end, ")"))


def _literal_bound(cond: list[Token]) -> bool:
    """A condition ``i < 8`` (or ``<=``, ``!=``): the trip count is an immediate the compiler can unroll
    (the guard's hardware code 2; the runtime unrolls such a loop beyond the hardware loop levels)."""
    return len(cond) == 3 and cond[1].text in ("<", "<=", "!=") and cond[2].kind == "number"


def _is_do_while_tail(toks: list[Token], begin: int, i: int) -> bool:
    """True if the ``while`` at ``i`` closes a ``do`` statement (its ``do`` guard covers it)."""
    j = i - 1
    if j < begin:
        return False
    if toks[j].text == "}":
        depth = 0
        while j >= begin:
            if toks[j].text == "}":
                depth += 1
            elif toks[j].text == "{":
                depth -= 1
                if depth == 0:
                    break
            j -= 1
        return j - 1 >= begin and toks[j - 1].text == "do"
    k = j
    while k >= begin and toks[k].text not in (";", "{", "}"):
        k -= 1
    return k - 1 >= begin and toks[k].text == ";" and any(
        toks[m].text == "do" for m in range(max(begin, k - 64), k))


def _top_level(toks: list[Token], lp: int, rp: int, text: str) -> list[int]:
    depth, found = 0, []
    for j in range(lp + 1, rp):
        t = toks[j].text
        if t in ("(", "[", "{"):
            depth += 1
        elif t in (")", "]", "}"):
            depth -= 1
        elif t == text and depth == 0:
            found.append(j)
    return found


def _soft_reason(toks: list[Token], begin: int, end: int) -> str:
    """Why the body tokens [begin, end] keep a loop from being a hardware loop ('' if nothing does);
    nested ``for`` loops are judged on their own."""
    i = begin
    while i <= end:
        t = toks[i]
        if t.text == "for" and t.kind == IDENT:
            i = statement_end(toks, i) + 1
            continue
        if t.text in _SOFT_TOKENS:
            what = "'?:'" if t.text == "?" else f"'{t.text}'"
            return f"{what} inside the loop body (line {t.line})"
        if t.text == "if" and not (i + 1 <= end and toks[i + 1].text == "constexpr"):
            return f"a data-dependent 'if' inside the loop body (line {t.line})"
        i += 1
    return ""


def _unroll_hint(toks: list[Token], i: int) -> int:
    if i == 0 or toks[i - 1].kind != DIRECTIVE:
        return 0
    m = _PRAGMA_UNROLL.match(toks[i - 1].text)
    if not m:
        return 0
    return int(m.group(2)) if m.group(2) else -1


def statement_end(toks: list[Token], i: int) -> int:
    """Index of the last token of the statement starting at ``toks[i]``."""
    t = toks[i].text
    if t == "{":
        return match_forward(toks, i)
    if t in ("for", "while", "switch"):
        rp = match_forward(toks, i + 1)
        return statement_end(toks, rp + 1)
    if t == "if":
        j = i + 1
        if toks[j].text == "constexpr":
            j += 1
        rp = match_forward(toks, j)
        e = statement_end(toks, rp + 1)
        if e + 1 < len(toks) and toks[e + 1].text == "else":
            return statement_end(toks, e + 2)
        return e
    if t == "do":
        e = statement_end(toks, i + 1)
        rp = match_forward(toks, e + 2)           # do <stmt> while ( ... ) ;
        return rp + 1
    if toks[i].kind == DIRECTIVE:
        return statement_end(toks, i + 1)
    j = i
    while j < len(toks):
        tt = toks[j].text
        if tt in ("(", "[", "{"):
            j = match_forward(toks, j)
        elif tt == ";":
            return j
        elif tt == "}":
            return j - 1
        j += 1
    raise LexError(f"line {toks[i].line}: statement without ';'")


__all__ = ["rewrite", "c_string", "Rewritten", "VfFunction", "LoopSite", "statement_end", "PUNCT"]
