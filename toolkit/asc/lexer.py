"""A C++ token scanner that keeps byte offsets, for the source rewrite of ``.asc`` files.

Why hand-written: the rewrite (``rewrite.py``) must insert text at exact places of the *unexpanded*
source the user wrote (``<<<...>>>`` launches, which are not C++, and the loops of ``__simd_vf__``
bodies) while keeping every line number; a compiler front end (libclang) cannot parse the
``<<<>>>`` syntax before we rewrite it and cannot rewrite. The scanner only has to tell code from
comments, string/char literals (raw strings included) and preprocessor lines, and to split code
into identifiers, numbers and punctuators; the C++ compiler judges everything else.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

IDENT, NUMBER, PUNCT, STRING, DIRECTIVE = "ident", "number", "punct", "string", "directive"

_PUNCTS = sorted("""<<< >>> <<= >>= ->* ... :: -> ++ -- << >> <= >= == != && || += -= *= /= %= &= |= ^= .*
{ } [ ] ( ) ; : , . ? + - * / % ^ & | ~ ! = < > #""".split(), key=len, reverse=True)
_PUNCT_RE = "|".join(re.escape(p) for p in _PUNCTS)
_TOKEN_RE = re.compile(r"""
    (?P<ws>[ \t\r\f\v]+|\\\n)
  | (?P<nl>\n)
  | (?P<lcomment>//[^\n]*(?:\\\n[^\n]*)*)
  | (?P<bcomment>/\*.*?\*/)
  | (?P<raw>(?:u8|u|U|L)?R"(?P<delim>[^()\\ \t\n]{0,16})\()
  | (?P<string>(?:u8|u|U|L)?"(?:[^"\\\n]|\\.)*")
  | (?P<char>(?:u8|u|U|L)?'(?:[^'\\\n]|\\.)*')
  | (?P<number>\.?[0-9](?:[eEpP][+-]|['A-Za-z0-9_.])*)
  | (?P<ident>[A-Za-z_$][A-Za-z0-9_$]*)
  | (?P<punct>""" + _PUNCT_RE + r""")
  | (?P<other>.)
""", re.S | re.X)


@dataclass(frozen=True, slots=True)
class Token:
    kind: str
    text: str
    start: int       #: byte offset of the first character
    end: int         #: offset just past the token
    line: int        #: 1-based line of ``start``


class LexError(ValueError):
    """Unterminated comment or literal: reported by the compiler anyway, we just stop rewriting."""


def tokens(src: str) -> list[Token]:
    """Code tokens of ``src`` (no whitespace/comments). Preprocessor directives are one DIRECTIVE token
    each (with their continuation lines); string and char literals are STRING tokens."""
    out: list[Token] = []
    pos, line, at_line_start = 0, 1, True
    n = len(src)
    while pos < n:
        m = _TOKEN_RE.match(src, pos)
        kind = m.lastgroup if m.lastgroup != "delim" else "raw"
        text = m.group(0)
        if kind == "raw":
            close = src.find(")" + m.group("delim") + '"', m.end())
            if close < 0:
                raise LexError(f"line {line}: unterminated raw string")
            text = src[pos:close + len(m.group("delim")) + 2]
            kind = "string"
        elif kind == "punct" and text == "#" and at_line_start:
            end = _directive_end(src, pos)
            text, kind = src[pos:end], "directive"
        elif kind == "other" and text in "\"'":
            raise LexError(f"line {line}: unterminated literal")
        elif kind == "bcomment" and not text.endswith("*/"):
            raise LexError(f"line {line}: unterminated comment")
        end = pos + len(text)
        if kind in ("ident", "number", "punct", "string", "directive", "char", "other"):
            out.append(Token({"char": STRING, "other": PUNCT}.get(kind, kind), text, pos, end, line))
            at_line_start = kind == "directive"
        elif kind == "nl":
            at_line_start = True
        line += text.count("\n")
        pos = end
    return out


def _directive_end(src: str, pos: int) -> int:
    """End of a preprocessor line (continuations and comments inside it included, newline excluded)."""
    i = pos
    while True:
        j = src.find("\n", i)
        if j < 0:
            return len(src)
        k = src.find("/*", i, j)
        if k >= 0:
            close = src.find("*/", k + 2)
            if close < 0:
                return len(src)
            i = close + 2
            continue
        if j > 0 and src[j - 1] == "\\":
            i = j + 1
            continue
        return j


def match_forward(toks: list[Token], i: int) -> int:
    """Index of the bracket closing ``toks[i]`` (one of ``( [ {``); raises LexError if unbalanced."""
    pairs = {"(": ")", "[": "]", "{": "}"}
    stack = [pairs[toks[i].text]]
    for j in range(i + 1, len(toks)):
        t = toks[j].text
        if toks[j].kind != PUNCT:
            continue
        if t in pairs:
            stack.append(pairs[t])
        elif t in (")", "]", "}"):
            if t != stack[-1]:
                raise LexError(f"line {toks[j].line}: unbalanced '{t}'")
            stack.pop()
            if not stack:
                return j
    raise LexError(f"line {toks[i].line}: '{toks[i].text}' is never closed")


def match_angle_back(toks: list[Token], j: int) -> int:
    """Index of the ``<`` opening the template argument list that ``toks[j]`` (``>``, ``>>`` or ``>>>``)
    closes."""
    depth = 0
    i = j
    while i >= 0:
        t = toks[i].text
        if t in (">", ">>", ">>>"):
            depth += len(t)
        elif t == "<":
            depth -= 1
            if depth == 0:
                return i
        elif t in (")", "]"):
            i = _match_back(toks, i)
        elif t in (";", "{", "}"):
            break
        i -= 1
    raise LexError(f"line {toks[j].line}: template argument list without '<'")


def _match_back(toks: list[Token], j: int) -> int:
    pairs = {")": "(", "]": "["}
    depth = 0
    for i in range(j, -1, -1):
        t = toks[i].text
        if t == toks[j].text:
            depth += 1
        elif t == pairs[toks[j].text]:
            depth -= 1
            if depth == 0:
                return i
    raise LexError(f"line {toks[j].line}: unbalanced '{toks[j].text}'")

def skip_angles(toks: list[Token], i: int) -> int:
    """Index past the ``>`` closing the template argument list that opens at or after ``toks[i]`` (``>>``
    closes two); a ``;`` or ``{`` first ends the search there."""
    depth = 0
    while i < len(toks):
        t = toks[i].text
        if t == "<":
            depth += 1
        elif t in (">", ">>", ">>>"):
            depth -= len(t)
            if depth <= 0:
                return i + 1
        elif t in (";", "{"):
            return i
        i += 1
    return i
