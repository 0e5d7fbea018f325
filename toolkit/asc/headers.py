"""The public Ascend C names our headers declare: functions, member functions, classes and structs, type
aliases and constants inside namespace ``AscendC`` (and nested ones), plus the global ``asc_*`` C API
functions, types and constants and macros. The API definition test requires a definition for each.

Why hand-written: our headers are our own, in one plain style, and a scan of their tokens (the ``.asc``
rewrite's lexer) is enough to list what they declare; a C++ front end (libclang) would be a new native
dependency for one test. Internal names are skipped: namespaces and classes starting with ``__``, members
ending in ``_`` (data), private sections, the ``ASC_*`` macros.
"""
from __future__ import annotations

import re
from pathlib import Path

from .lexer import DIRECTIVE, IDENT, Token, match_forward, skip_angles, tokens
from .toolchain import INCLUDE

_INC = re.compile(r'^[ \t]*#include "(asc/gen/\w+\.inc)"[ \t]*$', re.M)
#: the global names of the C API: asc_* functions and types, ascCamelCase enums, ASC_* constants
_C_API = re.compile(r"asc_|asc[A-Z]|ASC_")
_SKIP_CALLS = {"if", "for", "while", "switch", "return", "sizeof", "decltype", "static_assert", "alignas",
               "noexcept", "defined", "static_cast", "reinterpret_cast", "const_cast", "operator"}


def _expand(text: str) -> str:
    """Inline the generated ``.inc`` method lists (included inside class bodies)."""
    return _INC.sub(lambda m: (INCLUDE / m.group(1)).read_text(encoding="utf-8"), text)


def _past_body(toks: list[Token], i: int) -> int:
    """Index past the ``}`` closing the brace at ``toks[i]``."""
    return match_forward(toks, i) + 1


def _skip_statement(toks: list[Token], i: int) -> int:
    """Past the end of a declaration: its ``;`` or its balanced ``{...}`` body, at parenthesis depth 0."""
    paren = 0
    while i < len(toks):
        t = toks[i].text
        if t in "([":
            paren += 1
        elif t in ")]":
            paren -= 1
        elif paren == 0 and t == ";":
            return i + 1
        elif paren == 0 and t == "{":
            return _past_body(toks, i)
        i += 1
    return i


class _Scanner:
    def __init__(self, toks: list[Token], where: str):
        self.toks, self.where = toks, where
        self.found: dict[str, str] = {}

    def add(self, scope: list[str], name: str, tok: Token, macro: bool = False) -> None:
        qual = "::".join(scope + [name])
        if (scope and scope[0] == "AscendC") or (not scope and (macro or _C_API.match(name))):
            self.found.setdefault(qual, f"{self.where}:{tok.line}")

    def block(self, i: int, scope: list[str], cls: str | None, public: bool) -> int:
        """Scan declarations from ``i`` to the closing brace of the current block (or the end)."""
        toks = self.toks
        while i < len(toks):
            t = toks[i]
            if t.text == "}":
                return i + 1
            if t.kind == DIRECTIVE:
                # public macros: the C API's asc_*, and the vendor's upper-case ones (not ASC_* / ACL_*)
                m = re.match(r"#\s*define\s+(asc_\w+|assert\b|ascendc_assert\b|(?!ASC_|ACL_)[A-Z][A-Z0-9_]*[A-Z0-9]\b)", t.text)
                if m and not scope:
                    self.add(scope, m.group(1), t, macro=True)
                i += 1
            elif t.text in ("public", "private", "protected") and i + 1 < len(toks) and toks[i + 1].text == ":":
                public = t.text == "public"
                i += 2
            elif t.text == "template":
                i = skip_angles(toks, i + 1)
            elif t.text == "namespace":
                i = self.namespace(i, scope)
            elif t.text in ("class", "struct", "union") and cls is None:
                i = self.klass(i, scope)
            elif t.text == "enum":
                j = i + 2 if toks[i + 1].text in ("class", "struct") else i + 1
                if not scope and toks[j].kind == IDENT:        # the C API's global enums
                    self.add(scope, toks[j].text, toks[j])
                i = _skip_statement(toks, i)
            else:
                i = self.declaration(i, scope, cls, public)
        return i

    def namespace(self, i: int, scope: list[str]) -> int:
        toks, j = self.toks, i + 1
        names = []
        while toks[j].kind == IDENT or toks[j].text == "::":
            if toks[j].kind == IDENT:
                names.append(toks[j].text)
            j += 1
        if toks[j].text == "=":                       # namespace alias
            self.add(scope, names[0], toks[i + 1])
            return _skip_statement(toks, j)
        if any(n.startswith("__") for n in names):
            return _past_body(toks, j)
        return self.block(j + 1, scope + names, None, True)

    def klass(self, i: int, scope: list[str]) -> int:
        toks = self.toks
        name_tok = toks[i + 1]
        j = i + 2
        while j < len(toks) and toks[j].text not in ("{", ";"):
            j += 1
        if toks[j].text == ";":                       # a forward declaration or an explicit specialisation
            return j + 1
        if not name_tok.text.startswith("__"):
            self.add(scope, name_tok.text, name_tok)
            end = self.block(j + 1, scope + [name_tok.text], name_tok.text, toks[i].text == "struct")
        else:
            end = _past_body(toks, j)
        return end + 1 if end < len(toks) and toks[end].text == ";" else end

    def declaration(self, i: int, scope: list[str], cls: str | None, public: bool) -> int:
        toks, j = self.toks, i
        if toks[i].text == "using":
            if not cls and toks[i + 1].kind == IDENT and toks[i + 2].text == "=":
                self.add(scope, toks[i + 1].text, toks[i + 1], macro=not scope)    # global aliases too
            elif not cls and toks[i + 1].text == "::":
                self.add(scope, toks[i + 2].text, toks[i + 2])
            return _skip_statement(toks, i)
        while j < len(toks) and toks[j].text not in (";", "{", "(", "="):
            j += 1
        if j >= len(toks):
            return j
        prev = toks[j - 1]
        if toks[j].text == "(" and public:
            name = prev.text
            if prev.text == "operator" and toks[j + 1].text == ")":
                self.add(scope, "operator()", prev)
            elif prev.text == "]" and toks[j - 2].text == "[" and toks[j - 3].text == "operator":
                self.add(scope, "operator[]", prev)
            elif prev.kind == IDENT and name not in _SKIP_CALLS and name != cls and not name.endswith("_") \
                    and not (j >= 2 and toks[j - 2].text in ("~", ".", "->", "operator")):
                self.add(scope, name, prev)
        elif toks[j].text == "=" and not cls and prev.kind == IDENT and any(t.text == "constexpr"
                                                                             for t in toks[i:j]):
            self.add(scope, prev.text, prev)
        return _skip_statement(toks, i)


def public_names(root: Path = INCLUDE) -> dict[str, str]:
    """Qualified public name -> ``file:line`` of its first declaration, over every header under ``root``."""
    found: dict[str, str] = {}
    for path in sorted(p for p in root.rglob("*.h")):
        text = _expand(path.read_text(encoding="utf-8"))
        scan = _Scanner(tokens(text), str(path.relative_to(root)))
        scan.block(0, [], None, True)
        for k, v in scan.found.items():
            found.setdefault(k, v)
    return found
