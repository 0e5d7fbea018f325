"""One region as a data-flow model: its calls lowered to row operations (``ops``), the region's rows,
the count-form calls split into those rows, the flow followed (``flow``), and what the region leaves in
UB for the code after it: the final value of every element of a non-temporary buffer it wrote.

The region's rows ``R`` are the repeat count of its level-0 calls and the extent of its row loops (one
of them divides all others: the folds run 2, 4, 8 sub-rows per row); count-form calls over ``R * W``
elements then work on ``R`` rows of ``W``. Without either the region is one row (``R = 1``).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from . import cexpr as C
from .expr import Arr, E, Load
from .flow import Flow, NeedAssumption
from .frontend import Stmt, Unit
from .intervals import le, pmax, pmin
from .ops import Op, in_loop, lower_call
from .poly import ONE, Poly
from .regions import Region, classify
from .scope import PortError, Scope


@dataclass
class Store:
    arr: Arr
    dtype: str
    lo: Poly
    hi: Poly
    value: E


@dataclass
class Model:
    region: Region
    R: Poly
    ops: list[Op]
    flow: Flow
    stores: list[Store]
    assumptions: dict[str, int] = field(default_factory=dict)
    assumption_why: list[str] = field(default_factory=list)
    scope: Scope | None = None

    @property
    def notes(self) -> list[str]:
        return self.flow.notes


def build_model(region: Region, unit: Unit, temps: set[str]) -> Model:
    assumptions: dict[str, int] = {}
    why: list[str] = []
    for _ in range(6):
        try:
            m = _build(region, unit, temps, assumptions)
            m.assumption_why = why
            return m
        except NeedAssumption as need:
            if need.atom in assumptions:
                raise PortError(f"inconsistent hard-wired sizes: {need.why}") from None
            assumptions[need.atom] = need.value
            why.append(f"{need.atom} == {need.value}: {need.why}")
    raise PortError("too many hard-wired sizes to reconcile")


def _scope_before(region: Region, unit: Unit, assumptions: dict[str, int]) -> Scope:
    fn = region.function
    scope = Scope(fn.types, unit.constants, set(unit.tbufs), assumptions, fn.type_bindings)

    def replay(block: Stmt) -> None:
        for st in block.children:
            if st.start >= region.start:
                return
            if st.end <= region.start:
                if st.kind == "decl":
                    classify(st, scope)
            elif st.kind in ("compound", "for"):
                for ch in st.children:
                    if ch.kind == "compound":
                        replay(ch)
                if st.kind == "for" and st.for_parts:
                    scope.loop_vars.add(st.for_parts[0].split("=")[0].split()[-1])
    if fn.body is not None:
        replay(fn.body)
    return scope


def _build(region: Region, unit: Unit, temps: set[str], assumptions: dict[str, int]) -> Model:
    scope = _scope_before(region, unit, assumptions)
    seq: list = []
    index = 0
    for it in region.items:
        if it.kind == "decl":
            for d in it.decls:
                role = scope.declare(d, it.stmt.line)
                if role == "scalar":
                    seq.append(("scalar", d.name, C.parse(d.init) if d.init else None, it.stmt.line))
        elif it.kind == "call":
            seq.append(("op", lower_call(it.call, index, it.stmt.line, scope)))
            index += 1
        elif it.kind == "loop":
            extent = scope.poly(it.loop_extent, it.stmt.line)
            for sub in it.body:
                if sub.kind == "call":
                    op = lower_call(sub.call, index, sub.stmt.line, scope)
                    seq.append(("op", in_loop(op, it.loop_var, extent)))
                    index += 1
    ops = [s[1] for s in seq if s[0] == "op"]
    R = _rows(ops)
    flow = Flow(scope, R, temps)
    for s in seq:
        if s[0] == "op":
            flow.op(_split_rows(s[1], R))
        else:
            if s[2] is None:
                raise PortError(f"float '{s[1]}' without initializer", s[3])
            flow.scalar_decl(s[1], s[2], s[3])
    stores = _final_stores(flow)
    return Model(region, R, ops, flow, stores, dict(assumptions), [], scope)


def _rows(ops: list[Op]) -> Poly:
    cands = [op.R for op in ops if not op.flat and op.rule.kind != "brcb" and not op.R == ONE]
    if not cands:
        return ONE
    for c in cands:
        if all(_multiple(o, c) for o in cands):
            return c
    raise PortError("the region's calls do not agree on a row count: " + ", ".join(sorted({str(c) for c in cands})))


def _multiple(a: Poly, b: Poly) -> bool:
    q = a.div(b)
    v = q.int_value() if q is not None else None
    return v is not None and v >= 1


def _split_rows(op: Op, R: Poly) -> Op:
    """A count-form call over R * W elements as R rows of W (row stride W elements, 2W for a gather)."""
    if not op.flat or R == ONE:
        if op.flat and op.rule.kind in ("creduce",):
            return op
        if op.flat:
            return replace(op, R=ONE)
        return op
    if op.rule.kind == "creduce":
        return op
    W = op.W.div(R)
    if W is None:
        raise PortError(f"{op.name} over {op.W} elements does not split into the region's {R} rows", op.line, op.name)
    accs = []
    for a in [op.dst, *op.srcs]:
        mult = 2 if a.cs == 2 else 1
        accs.append(replace(a, rs=W * (a.size * mult)))
    return replace(op, R=R, W=W, dst=accs[0], srcs=accs[1:], flat=False)


def _final_stores(flow: Flow) -> list[Store]:
    """Per non-temporary buffer written: its final value over the columns written."""
    groups: dict[tuple, list] = {}
    for root, ws in flow.writes.items():
        if flow.is_temp(root):
            continue
        for w in ws:
            if w.pieces is None and w.partial is None:
                raise PortError(f"line {w.line}: '{w.acc.text}' is the work space of a reduction and the code "
                                f"after the region may read it", w.line)
            if w.pieces is None:
                raise PortError(f"line {w.line}: partial reduction results are left in '{w.acc.text}', which the "
                                f"code after the region may read", w.line)
            key = (root, flow.R == ONE or w.acc.rs, w.acc.size)
            groups.setdefault(key, []).append(w)
    out: list[Store] = []
    for (root, _, size), ws in groups.items():
        spans = []
        for w in ws:
            placed = False
            for sp in spans:
                d = (w.acc.base - sp["base"]).div(size)
                if d is not None and d.is_const:
                    lo = pmin(sp["lo"], d)
                    hi = pmax(sp["hi"], d + w.W)
                    sp["lo"], sp["hi"] = lo, hi
                    placed = True
                    break
            if not placed:
                spans.append({"base": w.acc.base, "lo": Poly(), "hi": w.W, "acc": w.acc})
        for sp in spans:
            acc = replace(sp["acc"], base=sp["base"] + sp["lo"] * size)
            width = sp["hi"] - sp["lo"]
            pieces = flow.read(acc, width, 0)
            for lo, hi, e in pieces:
                if isinstance(e, Load) and e.arr == Arr(root, acc.base, acc.rs) and e.col == Poly() and e.cs == 1:
                    continue                      # not written by the region: nothing to store
                out.append(Store(Arr(root, acc.base, acc.rs), acc.dtype, lo, hi, e))
    return out
