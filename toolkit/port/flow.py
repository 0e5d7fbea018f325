"""The data flow of one region: what every element a region writes holds, as an expression of what it
read (``expr``), found by following the region's calls in order over the UB they address.

Every write is recorded on its storage; a read resolves, newest write first, to the writes that cover
its columns (in pieces when several writes cover one row: the two halves of a RoPE row) and to the
storage's contents before the region for the rest (a region input; a temporary read before it is
written is an error). Reductions are ``Red`` nodes over a row; the level-0 idioms that reduce a row in
steps (pairwise folds of VL chunks, ``WholeReduceSum`` of sub-rows) keep a *partial* state (which
row of which value its elements are partial results of) until the last step makes it one value per row.

A mismatch the hard-wired numbers of a MemBase source imply (a fold over 512 columns of a row of
``dv_`` columns) raises :class:`NeedAssumption`; the region is analysed again under ``dv_ == 512`` and
the report says so.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from . import cexpr as C
from .apis import FLOATS
from .expr import Arr, Const, E, Load, Param, Red, SOp, VOp, shift
from .intervals import le, pmax, pmin, solve_equal
from .ops import Acc, Op
from .poly import ONE, Poly
from .scope import PortError, Root, Scope, elem_size

Pieces = list[tuple[Poly, Poly, E]]


class NeedAssumption(Exception):
    def __init__(self, atom: str, value: int, why: str):
        super().__init__(f"{atom} == {value}")
        self.atom, self.value, self.why = atom, value, why


@dataclass
class Partial:
    kind: str
    pieces: tuple          #: the row being reduced (in its own columns)
    L: Poly                #: elements per row that still hold partial results


@dataclass
class Write:
    index: int
    line: int
    acc: Acc
    W: Poly
    pieces: Pieces | None = None
    partial: Partial | None = None
    op: str = ""


@dataclass
class Flow:
    scope: Scope
    R: Poly
    temps: set[str]                         #: roots (by name) that live only in regions
    writes: dict[Root, list[Write]] = field(default_factory=dict)
    scalars: dict[str, E] = field(default_factory=dict)
    clobbered: set[Root] = field(default_factory=set)
    homes: dict[E, tuple[Arr, str]] = field(default_factory=dict)   #: vector value -> (array it was written to, dtype)
    notes: list[str] = field(default_factory=list)
    temp_roots: set[Root] = field(default_factory=set)
    names: dict[E, str] = field(default_factory=dict)    #: value -> the source's name for it (register names)

    # -- the region, in order ------------------------------------------------------------------------
    def op(self, op: Op) -> None:
        kind = op.rule.kind
        for a in [op.dst, *op.srcs]:
            if self.is_temp(a.root):
                self.temp_roots.add(a.root)
        if kind == "creduce":
            self._creduce(op)
        elif kind == "wreduce":
            self._wreduce(op)
        elif kind == "brcb":
            self._brcb(op)
        elif kind == "gather":
            self._gather(op)
        elif kind == "binary" and op.rule.reduce and self._is_fold(op):
            self._fold(op)
        else:
            self._map(op)

    def _is_fold(self, op: Op) -> bool:
        """A level-0 Add/Max/Min over one buffer that works on sub-rows or continues a partial reduction."""
        d, s0, s1 = op.dst, op.srcs[0], op.srcs[1]
        if not (d.root == s0.root == s1.root):
            return False
        if not op.R == self.R:
            return True
        for w in reversed(self.writes.get(s0.root, [])):
            if not self._disjoint(s0, op.W, w):
                return w.partial is not None
        return False

    def scalar_decl(self, name: str, init: C.Node, line: int) -> None:
        self.scalars[name] = self.scalar(init, line)
        self.names[self.scalars[name]] = name

    # -- reads -------------------------------------------------------------------------------------
    def is_temp(self, root: Root) -> bool:
        return root.kind == "tbuf" and root.name in self.temps

    def read(self, a: Acc, W: Poly, line: int) -> Pieces:
        """The value of columns [0, W) of access ``a`` (per row), in pieces."""
        if a.cs == 2:
            return self._read_initial_only(a, W, line)
        if a.cs == "blk" or a.cs == 0:
            width = Poly.const(32 // a.size) if a.cs == "blk" else ONE
            got = self.read(replace(a, cs=1), width, line)
            if len(got) != 1 or not got[0][2].scalar_width:
                raise PortError(f"'{a.text}' is re-read block by block but its elements differ", line)
            return [(Poly(), W, got[0][2])]
        pending: list[tuple[Poly, Poly]] = [(Poly(), W)]
        out: Pieces = []
        for w in reversed(self.writes.get(a.root, [])):
            if not pending:
                break
            rel = self._relation(a, W, w, line)
            if rel is None:
                continue
            delta = rel
            still = []
            for lo, hi in pending:
                olo = pmax(lo, -delta, " (columns of overlapping writes)")
                ohi = pmin(hi, w.W - delta, " (columns of overlapping writes)")
                if le(ohi, olo):
                    still.append((lo, hi))
                    continue
                out += self._take(w, olo, ohi, delta, a, line)
                if not le(olo, lo):
                    still.append((lo, olo))
                if not le(hi, ohi):
                    still.append((ohi, hi))
            pending = still
        for lo, hi in pending:
            if self.is_temp(a.root):
                raise PortError(f"'{a.text}' (a temporary) is read before the region writes it", line)
            out.append((lo, hi, Load(Arr(a.root, a.base, a.rs), Poly(), a.dtype)))
        return sorted(out, key=lambda p: _key(p[0]))

    def _take(self, w: Write, lo: Poly, hi: Poly, delta: Poly, a: Acc, line: int) -> Pieces:
        if w.pieces is None and w.partial is None:
            raise PortError(f"'{a.text}' is read after a reduction used its storage as work space", line)
        if w.pieces is None:
            raise PortError(f"'{a.text}' is read while it holds partial reduction results", line)
        out = []
        for plo, phi, e in w.pieces:
            clo, chi = pmax(plo - delta, lo), pmin(phi - delta, hi)
            if le(chi, clo):
                continue
            out.append((clo, chi, shift(e, delta)))
        return out

    def _relation(self, a: Acc, W: Poly, w: Write, line: int) -> Poly | None:
        """None: disjoint from write ``w``; else the column shift (read column c = write column c + delta)."""
        if self._disjoint(a, W, w):
            return None
        single_row = self.R == ONE
        same_rs = single_row or a.rs == w.acc.rs
        if same_rs:
            if a.size == w.acc.size:
                d = (a.base - w.acc.base).div(a.size)
                if d is not None:
                    if a.dtype != w.acc.dtype:
                        raise PortError(f"'{a.text}' reads {a.dtype} elements another call wrote as "
                                        f"{w.acc.dtype}", line)
                    return d
        if not same_rs:
            sol = solve_equal(a.rs, w.acc.rs)
            if sol:
                raise NeedAssumption(*sol, f"row strides {a.rs} B (line {line}) and {w.acc.rs} B (line "
                                     f"{w.line}) of one buffer")
        raise PortError(f"'{a.text}' overlaps what line {w.line} wrote in a way the port cannot follow", line)

    def _disjoint(self, a: Acc, W: Poly, w: Write) -> bool:
        ea = a.base + (self.R - 1) * a.rs + W * a.size
        ew = w.acc.base + (self.R - 1) * w.acc.rs + w.W * w.acc.size
        return bool(le(ea, w.acc.base)) or bool(le(ew, a.base))

    def _read_initial_only(self, a: Acc, W: Poly, line: int) -> Pieces:
        span = replace(a, cs=1)
        for w in self.writes.get(a.root, []):
            if not self._disjoint(span, W * 2, w):
                raise PortError(f"'{a.text}' is gathered (every other element) from values the region computed", line)
        if self.is_temp(a.root):
            raise PortError(f"'{a.text}' (a temporary) is read before the region writes it", line)
        return [(Poly(), W, Load(Arr(a.root, a.base, a.rs), Poly(), a.dtype, 2, a.phase))]

    # -- writes ------------------------------------------------------------------------------------
    def write(self, op: Op, acc: Acc, W: Poly, pieces: Pieces | None, partial: Partial | None = None) -> None:
        self.writes.setdefault(acc.root, []).append(Write(op.index, op.line, acc, W, pieces, partial, op.name))
        if pieces:
            arr = Arr(acc.root, acc.base, acc.rs)
            ident = _ident(acc.text)
            for _, _, e in pieces:
                if ident and not isinstance(e, (Red, Load)):
                    self.names.setdefault(e, ident)
                if not e.scalar_width:
                    self.homes.setdefault(e, (arr, acc.dtype))

    # -- element-wise -------------------------------------------------------------------------------
    def _map(self, op: Op) -> None:
        if not op.R == self.R:
            raise PortError(f"{op.name} works on {op.R} rows, the region on {self.R}", op.line, op.name)
        srcs = [self.read(s, op.W, op.line) for s in op.srcs]
        sc = self.scalar(op.scalar, op.line) if op.scalar is not None else None
        if isinstance(sc, Const):
            sc = Const(sc.value, op.dst.dtype)
        bounds = _bounds(srcs, op.W)
        pieces: Pieces = []
        for lo, hi in zip(bounds, bounds[1:]):
            args = [_at(ps, lo) for ps in srcs]
            pieces.append((lo, hi, self._apply(op, args, sc)))
        self.write(op, op.dst, op.W, pieces)

    def _apply(self, op: Op, args: list[E], sc: E | None) -> E:
        name, kind, dt = op.name, op.rule.kind, op.dst.dtype
        if kind == "dup":
            return sc
        if kind == "cast":
            a = args[0]
            attrs = (("round", op.round), ("from", a.dtype))
            return (SOp if a.scalar_width else VOp)("Cast", dt, (a,), attrs)
        if kind == "scalar":
            a = args[0]
            if a.scalar_width:
                return SOp(name, dt, (a, sc))
            if isinstance(sc, (Param, Const)):
                return VOp(name, dt, (a, sc))
            return VOp({"Adds": "Add", "Muls": "Mul", "Maxs": "Max", "Mins": "Min"}[name], dt, (a, sc))
        if all(a.scalar_width for a in args):
            return SOp(name, dt, tuple(args))
        return VOp(name, dt, tuple(args))

    def _gather(self, op: Op) -> None:
        if not op.R == self.R:
            raise PortError(f"GatherMask works on {op.R} rows, the region on {self.R}", op.line, op.name)
        src = self.read(op.srcs[0], op.W, op.line)
        self.write(op, op.dst, op.W, src)

    # -- reductions --------------------------------------------------------------------------------
    def _creduce(self, op: Op) -> None:
        if not self.R == ONE:
            raise PortError(f"{op.name} over {op.W} elements reduces across the region's {self.R} rows", op.line,
                            op.name)
        src = self.read(op.srcs[0], op.W, op.line)
        red = Red(op.rule.reduce, op.srcs[0].dtype, tuple(src))
        work = op.extra["work"]
        self.write(op, Acc(work.root, work.off, Poly(), work.dtype, 1, 0, work.text), op.W, None)
        self.write(op, op.dst, ONE, [(Poly(), ONE, red)])

    def _rows_per(self, R: Poly, op: Op) -> int:
        g = R.div(self.R)
        gi = g.int_value() if g is not None else None
        if gi is None or gi < 1:
            raise PortError(f"{op.name} works on {R} rows, not a whole multiple of the region's {self.R}",
                            op.line, op.name)
        return gi

    def _row_source(self, a: Acc, g: int, L: Poly, op: Op, kind: str) -> tuple[tuple, Poly]:
        """The partial state (or plain row) read by a reduction step over ``g`` sub-rows per row."""
        row = replace(a, rs=a.rs * g)
        for w in reversed(self.writes.get(a.root, [])):
            if self._relation_quiet(row, L, w, op.line) is None:
                continue
            if w.partial is not None:
                p = w.partial
                if not (w.acc.base == a.base and (self.R == ONE or w.acc.rs == row.rs)):
                    raise PortError(f"{op.name} reads partial results at another layout", op.line, op.name)
                self._equal(p.L, L, f"{op.name}: partial results per row", op.line)
                if p.kind != kind:
                    raise PortError(f"{op.name} ({kind}) continues a {p.kind} reduction", op.line, op.name)
                return p.pieces, p.L
            break
        return tuple(self.read(row, L, op.line)), L

    def _relation_quiet(self, a: Acc, W: Poly, w: Write, line: int):
        try:
            return self._relation(a, W, w, line)
        except PortError:
            return 0

    def _equal(self, a: Poly, b: Poly, why: str, line: int) -> None:
        if a == b:
            return
        sol = solve_equal(a, b)
        if sol:
            raise NeedAssumption(*sol, f"{why} (line {line})")
        raise PortError(f"{why}: {a} against {b}", line)

    def _fold(self, op: Op) -> None:
        """A level-0 Add/Max/Min folding pairs of sub-rows of a row into one (the reduce idiom)."""
        g = self._rows_per(op.R, op)
        d, s0, s1 = op.dst, op.srcs[0], op.srcs[1]
        if not (d.root == s0.root == s1.root) or not (s0.rs == s1.rs):
            raise PortError(f"{op.name} with {op.R} repeats is neither element-wise over the region's rows nor "
                            f"a fold of one buffer", op.line, op.name)
        sz, Wf = s0.size, op.W
        off = (s1.base - s0.base).div(sz)
        if s0.rs == Wf * 2 * sz and off == Wf:
            L = Wf * 2 * g                                       # adjacent pairs of sub-rows
        elif s0.rs == Wf * sz and off == Wf * g:
            L = Wf * 2 * g                                       # first half + second half
        else:
            raise PortError(f"{op.name}: the sources do not pair up the columns of a row", op.line, op.name)
        if not (g == 1 or d.rs == Wf * sz):
            raise PortError(f"{op.name}: folded results are not contiguous", op.line, op.name)
        pieces, _ = self._row_source(s0, g, L, op, op.rule.reduce)
        out = replace(d, rs=d.rs * g)
        self.write(op, out, Wf * g, None, Partial(op.rule.reduce, pieces, Wf * g))

    def _wreduce(self, op: Op) -> None:
        g = self._rows_per(op.R, op)
        s, d = op.srcs[0], op.dst
        m = op.W
        if g > 1 and not s.rs == m * s.size:
            raise PortError("WholeReduceSum: sub-rows of a row are not contiguous", op.line, op.name)
        L = m * g
        pieces, _ = self._row_source(s, g, L, op, "sum")
        if g == 1:
            red = Red("sum", s.dtype, pieces)
            self.write(op, d, ONE, [(Poly(), ONE, red)])
            return
        if not d.rs == Poly.const(d.size):
            raise PortError("WholeReduceSum: partial sums are not contiguous", op.line, op.name)
        self.write(op, replace(d, rs=d.rs * g), Poly.const(g), None, Partial("sum", pieces, Poly.const(g)))

    def _brcb(self, op: Op) -> None:
        rows = op.R
        covered = le(self.R, rows)
        if not covered and not _ceil_div_of(op.extra.get("rep_text", ""), self.R, 8, self.scope):
            self.notes.append(f"line {op.line}: assumed Brcb's {op.R} blocks cover the region's {self.R} rows")
        val = self.read(op.srcs[0], ONE, op.line)
        if len(val) != 1 or not val[0][2].scalar_width:
            raise PortError("Brcb broadcasts values the port cannot follow", op.line, op.name)
        self.write(op, op.dst, op.W, [(Poly(), op.W, val[0][2])])

    # -- scalars -----------------------------------------------------------------------------------
    def scalar(self, n: C.Node, line: int) -> E:
        if not self._depends(n):
            if isinstance(n, C.Num):
                return Const(float(n.value), "float")
            if isinstance(n, C.Unary) and n.op == "-" and isinstance(n.x, C.Num):
                return Const(-float(n.x.value), "float")
            if isinstance(n, C.CastE) and isinstance(n.x, C.Num):
                return Const(float(n.x.value), "float")
            return Param(n.text, self._type_of(n))
        if isinstance(n, C.Name):
            return self.scalars[n.name]
        if isinstance(n, C.CastE):
            return self.scalar(n.x, line)
        if isinstance(n, C.Unary) and n.op == "-":
            return SOp("Muls", "float", (self.scalar(n.x, line), Const(-1.0, "float")))
        if isinstance(n, C.Unary) and n.op == "+":
            return self.scalar(n.x, line)
        if isinstance(n, C.Call) and isinstance(n.func, C.Member) and n.func.name == "GetValue":
            return self._get_value(n, line)
        if isinstance(n, C.Call) and isinstance(n.func, C.Name) and n.func.name.split("::")[-1] in _MATH:
            op = _MATH[n.func.name.split("::")[-1]]
            return SOp(op, "float", (self.scalar(n.args[0], line),))
        if isinstance(n, C.Binary) and n.op in "+-*/":
            a, b = self.scalar(n.a, line), self.scalar(n.b, line)
            return _scalar_binary(n.op, a, b)
        raise PortError(f"scalar expression '{n.text}' has no lane-0 form", line)

    def _depends(self, n: C.Node) -> bool:
        if isinstance(n, C.Name):
            return n.name in self.scalars
        if isinstance(n, C.Call) and isinstance(n.func, C.Member) and n.func.name == "GetValue":
            return True
        return any(self._depends(c) for c in _kids(n))

    def _type_of(self, n: C.Node) -> str:
        t = self.scope.types.get(n.text, "") if isinstance(n, C.Name) else ""
        t = self.scope.dtype(t.replace("const", "").replace("&", "").strip())
        return t if t in FLOATS else "float"

    def _get_value(self, n: C.Call, line: int) -> E:
        if not self.R == ONE:
            raise PortError("GetValue of a per-row result inside rows", line)
        v = self.scope.view(n.func.obj, line)
        k = self.scope.poly(n.args[0], line)
        a = Acc(v.root, v.off + k * elem_size(v.dtype), Poly(), v.dtype, 1, 0, n.text)
        got = self.read(a, ONE, line)
        if len(got) != 1 or not got[0][2].scalar_width:
            raise PortError(f"'{n.text}' reads an element the region did not reduce to", line)
        return got[0][2]


_MATH = {"sqrt": "Sqrt", "sqrtf": "Sqrt", "exp": "Exp", "expf": "Exp", "fabs": "Abs", "fabsf": "Abs",
         "abs": "Abs", "log": "Ln", "logf": "Ln"}


def _scalar_binary(op: str, a: E, b: E) -> E:
    outer = (Param, Const)
    if op == "+":
        if isinstance(b, outer):
            return SOp("Adds", "float", (a, b))
        if isinstance(a, outer):
            return SOp("Adds", "float", (b, a))
        return SOp("Add", "float", (a, b))
    if op == "-":
        if isinstance(b, Const):
            return SOp("Adds", "float", (a, Const(-b.value, b.dtype)))
        if isinstance(b, Param):
            return SOp("Adds", "float", (a, Param(f"-({b.text})", b.dtype)))
        if isinstance(a, outer):
            return SOp("Adds", "float", (SOp("Muls", "float", (b, Const(-1.0, "float"))), a))
        return SOp("Sub", "float", (a, b))
    if op == "*":
        if isinstance(b, outer):
            return SOp("Muls", "float", (a, b))
        if isinstance(a, outer):
            return SOp("Muls", "float", (b, a))
        return SOp("Mul", "float", (a, b))
    return SOp("Div", "float", (a, b))


def _kids(n: C.Node) -> list[C.Node]:
    out = []
    for name in ("obj", "index", "func", "x", "a", "b", "c"):
        v = getattr(n, name, None)
        if isinstance(v, C.Node):
            out.append(v)
    out += list(getattr(n, "args", []) or []) + list(getattr(n, "items", []) or [])
    return out


def _ident(text: str) -> str:
    """The leading identifier of a view expression (``square[FP32_REPEAT]`` -> ``square``)."""
    import re
    m = re.match(r"\s*(?:this->)?([A-Za-z_]\w*)", text or "")
    return m.group(1) if m else ""


def _key(p: Poly):
    v = p.value
    return (0, float(v), "") if v is not None else (1, 0.0, p.cpp())


def _bounds(srcs: list[Pieces], W: Poly) -> list[Poly]:
    pts = {Poly(), W}
    for ps in srcs:
        for lo, hi, _ in ps:
            pts.add(lo)
            pts.add(hi)
    pts_l = list(pts)
    if len(pts_l) > 2 and not all(p.is_const for p in pts_l):
        symbolic = [p for p in pts_l if not p.is_const]
        if not all(p == W for p in symbolic):
            # order what can be ordered; anything else is undecidable
            pts_l.sort(key=_key)
            for x, y in zip(pts_l, pts_l[1:]):
                if le(x, y) is not True:
                    raise PortError(f"cannot order the column bounds {x} and {y} of a piecewise row")
            return pts_l
    pts_l.sort(key=_key)
    return pts_l


def _at(pieces: Pieces, lo: Poly) -> E:
    for plo, phi, e in pieces:
        if le(plo, lo) and le(lo, phi) and not (lo == phi):
            return e
    raise PortError(f"no value at column {lo}")


def _ceil_div_of(text: str, R: Poly, k: int, scope: Scope) -> bool:
    """``text`` is ``(R + k - 1) / k`` (Brcb's repeat count covering R rows of k blocks)."""
    try:
        n = C.parse(text)
    except C.ParseError:
        return False
    if not (isinstance(n, C.Binary) and n.op == "/"):
        return False
    try:
        return scope.poly(n.b).int_value() == k and scope.poly(n.a) == R + (k - 1)
    except PortError:
        return False
