"""C++ expressions of a kernel statement as a small tree (the arguments of a vector call, a declaration's
initializer), parsed from the tokens libclang delimits.

libclang gives the statements, their kinds, extents and the types of the names; what its Python
binding does not give is the operator of a binary expression or the pieces of a template call, so the
port reads the expression's own tokens (``toolkit.asc.lexer``) with precedence climbing. Every node
keeps the source text it came from: what the port writes back at a call site is the user's own text.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from toolkit.asc.lexer import Token, tokens


@dataclass
class Node:
    text: str = field(default="", compare=False)


@dataclass
class Num(Node):
    value: int | float = 0
    is_float: bool = False


@dataclass
class Name(Node):
    name: str = ""                 #: qualified name as written (``AscendC::RoundMode::CAST_RINT``)


@dataclass
class Member(Node):
    obj: Node | None = None
    name: str = ""
    arrow: bool = False


@dataclass
class Index(Node):
    obj: Node | None = None
    index: Node | None = None


@dataclass
class Call(Node):
    func: Node | None = None
    targs: list[str] = field(default_factory=list)     #: template arguments as written
    args: list[Node] = field(default_factory=list)


@dataclass
class Unary(Node):
    op: str = ""
    x: Node | None = None


@dataclass
class Binary(Node):
    op: str = ""
    a: Node | None = None
    b: Node | None = None


@dataclass
class Cond(Node):
    c: Node | None = None
    a: Node | None = None
    b: Node | None = None


@dataclass
class CastE(Node):
    type: str = ""
    x: Node | None = None


@dataclass
class InitList(Node):
    items: list[Node] = field(default_factory=list)


class ParseError(ValueError):
    pass


_BINARY = {"||": 1, "&&": 2, "|": 3, "^": 4, "&": 5, "==": 6, "!=": 6, "<": 7, ">": 7, "<=": 7, ">=": 7,
           "<<": 8, ">>": 8, "+": 9, "-": 9, "*": 10, "/": 10, "%": 10}
_CASTS = ("static_cast", "reinterpret_cast", "const_cast")


def parse(text: str) -> Node:
    """One expression (the whole of ``text``)."""
    p = _Parser(text, tokens(text))
    node = p.expr()
    if p.i != len(p.toks):
        raise ParseError(f"unexpected '{p.toks[p.i].text}' in '{text}'")
    return node


def split_args(text: str) -> list[str]:
    """The comma-separated top-level pieces of ``text`` (a call's argument list without parentheses)."""
    toks = tokens(text)
    pieces, depth, start = [], 0, 0
    for t in toks:
        if t.text in "([{":
            depth += 1
        elif t.text in ")]}":
            depth -= 1
        elif t.text == "," and depth == 0:
            pieces.append(text[start:t.start].strip())
            start = t.end
    rest = text[start:].strip()
    if rest or pieces:
        pieces.append(rest)
    return pieces


class _Parser:
    def __init__(self, text: str, toks: list[Token]):
        self.text, self.toks, self.i = text, toks, 0

    # -- helpers ----------------------------------------------------------------------------------
    def peek(self, k: int = 0) -> str:
        j = self.i + k
        return self.toks[j].text if j < len(self.toks) else ""

    def take(self, want: str | None = None) -> Token:
        if self.i >= len(self.toks):
            raise ParseError(f"unexpected end of '{self.text}'")
        t = self.toks[self.i]
        if want is not None and t.text != want:
            raise ParseError(f"expected '{want}', got '{t.text}' in '{self.text}'")
        self.i += 1
        return t

    def src(self, start: int) -> str:
        end = self.toks[self.i - 1].end if self.i else 0
        return self.text[self.toks[start].start:end] if start < len(self.toks) else ""

    def angle_end(self) -> int | None:
        """Index just past the ``>`` closing a template argument list opened at ``self.i``; None when
        ``<`` here is a comparison (unbalanced, or not followed by ``(``, ``::`` or ``{``)."""
        depth, j = 0, self.i
        while j < len(self.toks):
            t = self.toks[j].text
            if t == "<":
                depth += 1
            elif t in (">", ">>"):
                depth -= 1 if t == ">" else 2
                if depth <= 0:
                    nxt = self.toks[j + 1].text if j + 1 < len(self.toks) else ""
                    return j + 1 if depth == 0 and nxt in ("(", "::", "{") else None
            elif t in (";", "{", "}", "&&", "||"):
                return None
            j += 1
        return None

    def template_args(self) -> list[str]:
        end = self.angle_end()
        if end is None:
            raise ParseError("not a template argument list")
        inner_start, inner_end = self.toks[self.i].end, self.toks[end - 1].start
        self.i = end
        return split_args(self.text[inner_start:inner_end])

    # -- grammar ----------------------------------------------------------------------------------
    def expr(self) -> Node:
        start = self.i
        c = self.binary(1)
        if self.peek() == "?":
            self.take("?")
            a = self.expr()
            self.take(":")
            b = self.expr()
            return Cond(self.src(start), c, a, b)
        return c

    def binary(self, level: int) -> Node:
        start = self.i
        left = self.unary()
        while True:
            op = self.peek()
            prec = _BINARY.get(op)
            if prec is None or prec < level:
                return left
            self.take()
            right = self.binary(prec + 1)
            left = Binary(self.src(start), op, left, right)

    def unary(self) -> Node:
        start = self.i
        op = self.peek()
        if op in ("-", "+", "!", "~", "*", "&"):
            self.take()
            x = self.unary()
            return Unary(self.src(start), op, x)
        if op == "(" and self._is_cast():
            self.take("(")
            depth, j = 1, self.i
            while depth:
                depth += {"(": 1, ")": -1}.get(self.toks[j].text, 0)
                j += 1
            type_text = self.text[self.toks[self.i].start:self.toks[j - 2].end]
            self.i = j
            x = self.unary()
            return CastE(self.src(start), type_text, x)
        return self.postfix()

    def _is_cast(self) -> bool:
        """``(T)x`` / ``(__ubuf__ T*)x``: a parenthesised type name followed by an operand."""
        j, seen_ident = self.i + 1, False
        while j < len(self.toks) and self.toks[j].text != ")":
            t = self.toks[j]
            if t.kind == "ident" or t.text in ("::", "*", "<", ">", ","):
                seen_ident = seen_ident or t.kind == "ident"
                j += 1
                continue
            return False
        if j + 1 >= len(self.toks) or not seen_ident:
            return False
        inner = [t.text for t in self.toks[self.i + 1:j]]
        nxt = self.toks[j + 1]
        typey = any(w in inner for w in ("__ubuf__", "__gm__", "float", "int", "unsigned", "half", "bfloat16_t",
                                         "uint8_t", "uint16_t", "uint32_t", "uint64_t", "int8_t", "int16_t",
                                         "int32_t", "int64_t", "double", "bool")) or "*" in inner
        if nxt.kind == "number":
            return True                          # ``(T)0.5``: nothing but a cast reads so
        return typey and (nxt.kind == "ident" or nxt.text in ("(", "-"))

    def postfix(self) -> Node:
        start = self.i
        node = self.primary()
        while True:
            t = self.peek()
            if t == "[":
                self.take("[")
                idx = self.expr()
                self.take("]")
                node = Index(self.src(start), node, idx)
            elif t in (".", "->"):
                self.take()
                if self.peek() == "template":
                    self.take()
                name = self.take().text
                node = Member(self.src(start), node, name, t == "->")
                if self.peek() == "<" and self.angle_end() is not None:
                    targs = self.template_args()
                    node = self.call(start, node, targs)
            elif t == "(":
                node = self.call(start, node, [])
            else:
                return node

    def call(self, start: int, func: Node, targs: list[str]) -> Call:
        self.take("(")
        args: list[Node] = []
        while self.peek() != ")":
            args.append(self.expr())
            if self.peek() == ",":
                self.take(",")
        self.take(")")
        return Call(self.src(start), func, targs, args)

    def primary(self) -> Node:
        start = self.i
        t = self.take()
        if t.kind == "number":
            return _number(t.text)
        if t.text == "(":
            node = self.expr()
            self.take(")")
            node.text = self.src(start)
            return node
        if t.text == "{":
            items = []
            while self.peek() != "}":
                items.append(self.expr())
                if self.peek() == ",":
                    self.take(",")
            self.take("}")
            return InitList(self.src(start), items)
        if t.kind != "ident" and t.text != "::":
            raise ParseError(f"unexpected '{t.text}' in '{self.text}'")
        if t.text in _CASTS:
            targs = self.template_args()
            self.take("(")
            x = self.expr()
            self.take(")")
            return CastE(self.src(start), targs[0] if targs else "", x)
        if t.text == "sizeof":
            self.take("(")
            depth, j = 1, self.i
            while depth:
                depth += {"(": 1, ")": -1}.get(self.toks[j].text, 0)
                j += 1
            inner = self.text[self.toks[self.i].start:self.toks[j - 2].end]
            self.i = j
            return Call(self.src(start), Name("sizeof", "sizeof"), [inner], [])
        name = t.text
        while self.peek() == "::":
            self.take("::")
            name += "::" + self.take().text
        node: Node = Name(self.src(start), name)
        if self.peek() == "<" and self.angle_end() is not None:
            targs = self.template_args()
            if self.peek() == "(":
                return self.call(start, node, targs)
            node = Name(self.src(start), name + "<" + ", ".join(targs) + ">")
            while self.peek() == "::":
                self.take("::")
                node = Name(self.src(start), node.name + "::" + self.take().text)
        return node


def _number(text: str) -> Num:
    t = text.replace("'", "")
    low = t.lower()
    is_float = ("." in t or ("e" in low and not low.startswith("0x"))) or (low.endswith("f") and not low.startswith("0x"))
    if is_float:
        return Num(text, float(low.rstrip("fl")), True)
    return Num(text, int(low.rstrip("ul"), 0), False)
