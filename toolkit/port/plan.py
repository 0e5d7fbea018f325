"""The schedule of one VF: per row, stages of loops over the row's VL chunks, each followed by lane-0
work on what its reductions produced.

A value's stage is the first loop it can be computed in: loads are ready in loop 0; a reduction is ready
after the loop of its row (so ``x - max`` waits for the next loop); lane-0 (scalar-width) values sit
between loops and reach later loops broadcast. What the region leaves in UB (its stores) is written in
the stage of its value. A later loop that would read an element the VF already overwrote reads instead
a value the VF stored (``x - max`` in ``xRow``), or a value spilled to where the MemBase call wrote it
(``exp(x - max)`` in ``yRow``; recomputing a special-function op costs more than one load), after a
``LocalMemBar<VEC_STORE, VEC_LOAD>``.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field

from .apis import SFU_OPS
from .expr import Arr, Const, E, Load, Param, Red, SOp, VOp, children, walk
from .intervals import le
from .model import Model
from .poly import ONE, Poly
from .scope import PortError


@dataclass(eq=False)
class Sink:
    kind: str               #: store | spill | acc
    lo: Poly
    hi: Poly
    value: E
    stage: int
    arr: Arr | None = None
    dtype: str = ""
    red: Red | None = None


@dataclass
class Group:
    width: Poly
    sinks: list[Sink] = field(default_factory=list)


@dataclass
class Stage:
    k: int
    membar: bool = False
    groups: list[Group] = field(default_factory=list)
    reds: list[Red] = field(default_factory=list)
    after: list[E] = field(default_factory=list)       #: lane-0 values computed after the loops


@dataclass
class Plan:
    model: Model
    R: Poly
    stages: list[Stage]
    prologue: list[E]                                   #: lane-0 / constant values before the rows
    bcast: set[E]                                       #: lane-0 values broadcast for later loops
    sinks: list[Sink]
    notes: list[str] = field(default_factory=list)


def stage_of(e: E) -> int:
    return _stage(e)


@functools.lru_cache(maxsize=None)
def _stage(e: E) -> int:
    if isinstance(e, Load):
        return 0
    if isinstance(e, (Const, Param)):
        return -1
    if isinstance(e, Red):
        return max((_stage(p[2]) for p in e.pieces), default=0) + 1
    if isinstance(e, SOp):
        return max((_stage(a) for a in e.args), default=-1)
    if isinstance(e, VOp):
        s = 0
        for a in e.args:
            sa = _stage(a)
            s = max(s, sa + 1 if a.scalar_width and sa >= 0 else sa)
        return s
    raise TypeError(e)


def _merged_stores(model: Model) -> list[tuple]:
    """(arr, dtype, lo, hi, value) per stored array: pieces of one row that do not start on a VL chunk
    become one value whose lanes are chosen by column (Select under UpdateMask masks), from the chunk
    boundary below the first piece; columns between pieces keep what the array holds."""
    from .expr import piecewise
    from .scope import elem_size
    groups: dict[tuple, list] = {}
    for st in model.stores:
        groups.setdefault((st.arr, st.dtype), []).append(st)
    out = []
    for (arr, dt), sts in groups.items():
        sts.sort(key=lambda s: (s.lo.int_value() if s.lo.is_const else 1 << 40))
        lanes = 256 // max(4, elem_size(dt)) if any(DTYPES_4(n) for s in sts for n in walk(s.value)) \
            else 256 // elem_size(dt)
        cuts = [s.lo for s in sts] + [sts[-1].hi]
        aligned = all(c.is_const and int(c.value) % lanes == 0 for c in cuts[:-1]) or len(sts) == 1 and \
            (not sts[0].lo.is_const or int(sts[0].lo.value) % lanes == 0)
        if aligned:
            out += [(s.arr, s.dtype, s.lo, s.hi, s.value) for s in sts]
            continue
        if not all(c.is_const for c in cuts):
            raise PortError(f"'{arr.root.name}' is written in pieces at column bounds the port cannot order")
        lo = Poly.const(int(sts[0].lo.value) // lanes * lanes)
        pieces, at = [], lo
        for s in sts:
            if not s.lo == at:
                pieces.append((at, s.lo, Load(arr, Poly(), dt)))     # not written: store what is there
            pieces.append((s.lo, s.hi, s.value))
            at = s.hi
        out.append((arr, dt, lo, at, piecewise(dt, pieces)))
    return out


def DTYPES_4(n: E) -> bool:
    from .apis import DTYPES
    return DTYPES.get(getattr(n, "dtype", "float"), 4) == 4


def make_plan(model: Model) -> Plan:
    sinks: list[Sink] = []
    for arr, dtype, lo, hi, v in _merged_stores(model):
        k = _stage(v)
        if v.scalar_width:
            k = k + 1 if k >= 0 else 0
        if not (model.R == ONE) and arr.rs == Poly():
            raise PortError(f"'{arr.root.name}' is written on every row at the same place")
        sinks.append(Sink("store", lo, hi, v, k, arr, dtype))
    planner = _Planner(model, sinks)
    planner.resolve()
    return planner.plan()


class _Planner:
    def __init__(self, model: Model, sinks: list[Sink]):
        self.model, self.flow, self.sinks = model, model.flow, sinks
        self.notes: list[str] = []

    # -- hazards -----------------------------------------------------------------------------------
    def _overlaps(self, a: Arr, adt: str, lo: Poly, hi: Poly, b: Arr, bdt: str, blo: Poly, bhi: Poly,
                  cs: int = 1) -> bool:
        if a.root != b.root:
            return False
        from .scope import elem_size
        R = self.model.R
        sa, sb = elem_size(adt), elem_size(bdt)
        ea0, ea1 = a.base + lo * sa * cs, a.base + (R - 1) * a.rs + hi * sa * cs
        eb0, eb1 = b.base + blo * sb, b.base + (R - 1) * b.rs + bhi * sb
        return not (le(ea1, eb0) or le(eb1, ea0))

    def blocked(self, e: Load, lo: Poly, hi: Poly, k: int) -> bool:
        """A load in stage ``k`` (columns [lo, hi) of the sink) reads memory a sink stored earlier."""
        for s in self.sinks:
            if s.stage < k and s.arr is not None and s.kind in ("store", "spill") and \
                    self._overlaps(e.arr, e.dtype, lo + e.col, hi + e.col, s.arr, s.dtype, s.lo, s.hi, e.cs):
                return True
        return False

    def stored_before(self, e: E, k: int) -> Sink | None:
        for s in self.sinks:
            if s.kind in ("store", "spill") and s.stage < k and s.value == e and s.arr is not None:
                return s
        return None

    def fix(self, e: E, lo: Poly, hi: Poly, k: int) -> E:
        """``e`` evaluated in stage ``k`` over columns [lo, hi), with every blocked load replaced."""
        if e.scalar_width or not self._has_blocked(e, lo, hi, k):
            return e
        got = self.stored_before(e, k)
        if got is not None:
            self.notes.append(f"stage {k // 2} reloads what stage {got.stage // 2} stored to '{got.arr.root.name}'")
            return Load(got.arr, Poly(), got.dtype)
        home = self.flow.homes.get(e)
        if home is not None and _costly(e) and 0 <= _stage(e) < k:
            arr, dt = home
            if self._spill_ok(arr, dt, lo, hi, _stage(e), k):
                self.sinks.append(Sink("spill", lo, hi, e, _stage(e), arr, dt))
                self.notes.append(f"stage {k // 2} reloads {e.op} from '{arr.root.name}' (spilled in stage "
                                  f"{_stage(e) // 2}, LocalMemBar between)")
                return Load(arr, Poly(), dt)
        if isinstance(e, Load):
            raise PortError(f"a later step reads '{e.arr.root.name}' after the region overwrote it, and no "
                            f"stored value replaces it")
        return VOp(e.op, e.dtype, tuple(self.fix(a, lo, hi, k) for a in e.args), e.attrs)

    def _has_blocked(self, e: E, lo, hi, k) -> bool:
        return any(isinstance(n, Load) and self.blocked(n, lo, hi, k) for n in walk(e))

    def _spill_ok(self, arr: Arr, dt: str, lo, hi, s_from: int, s_to: int) -> bool:
        for s in self.sinks:
            if s.arr is None or s.kind not in ("store", "spill"):
                continue
            if s_from <= s.stage < s_to and self._overlaps(arr, dt, lo, hi, s.arr, s.dtype, s.lo, s.hi):
                return False
        for s in self.sinks:
            for n in walk(s.value):
                if isinstance(n, Load) and s.stage > s_from and n.arr.root == arr.root and \
                        self._overlaps(n.arr, n.dtype, s.lo + n.col, s.hi + n.col, arr, dt, lo, hi, n.cs):
                    return False
        return True

    def resolve(self) -> None:
        stages = sorted({s.stage for s in self.sinks})
        for k in stages:
            for s in [s for s in self.sinks if s.stage == k]:
                s.value = self.fix(s.value, s.lo, s.hi, k)

    # -- schedule -----------------------------------------------------------------------------------
    def plan(self) -> Plan:
        reds = self._reds()
        for red in reds:
            k = _stage(red) - 1
            for lo, hi, v in red.pieces:
                self.sinks.append(Sink("acc", lo, hi, self.fix(v, lo, hi, k), k, red=red))
        last = max([s.stage for s in self.sinks] + [0])
        stages = [Stage(k) for k in range(0, last + 1, 2)] if last >= 0 else []
        by_k = {st.k: st for st in stages}
        for s in self.sinks:
            if s.stage not in by_k:
                raise PortError(f"value scheduled at odd stage {s.stage}")
            st = by_k[s.stage]
            g = next((g for g in st.groups if g.width == s.hi - s.lo), None)
            if g is None:
                g = Group(s.hi - s.lo)
                st.groups.append(g)
            g.sinks.append(s)
        for red in reds:
            by_k[_stage(red) - 1].reds.append(red)
        for st in stages:
            st.membar = any(isinstance(n, Load) and self._stored_earlier(n, st.k)
                            for g in st.groups for s in g.sinks for n in walk(s.value))
        scal = self._lane0_values()
        prologue = [e for e in scal if _stage(e) < 0]
        for e in scal:
            k = _stage(e)
            if k >= 0:
                by_k[k - 1].after.append(e)
        bcast = {a for s in self.sinks for n in walk(s.value) if isinstance(n, VOp)
                 for a in n.args if a.scalar_width and not isinstance(a, (Param, Const)) and _stage(a) >= 0}
        bcast |= {s.value for s in self.sinks if s.value.scalar_width}
        return Plan(self.model, self.model.R, stages, prologue, bcast, self.sinks, self.notes)

    def _stored_earlier(self, n: Load, k: int) -> bool:
        return any(s.kind in ("store", "spill") and s.stage < k and s.arr == n.arr for s in self.sinks)

    def _reds(self) -> list[Red]:
        out: list[Red] = []
        seen: set = set()
        todo = [s.value for s in self.sinks]
        while todo:
            e = todo.pop()
            for n in walk(e):
                if isinstance(n, Red) and n not in seen:
                    seen.add(n)
                    out.append(n)
                    todo += [p[2] for p in n.pieces]
        return sorted(out, key=_stage)

    def _lane0_values(self) -> list[E]:
        """Every lane-0 value the sinks need, in an order where operands come first (reductions are
        finalised by their stage, constants and parameters are not computed)."""
        out: list[E] = []
        seen: set = set()
        for s in self.sinks:
            for n in walk(s.value, seen):
                if isinstance(n, SOp):
                    out.append(n)
        return out


def _costly(e: E) -> bool:
    return any(isinstance(n, VOp) and n.op in SFU_OPS for n in walk(e))


__all__ = ["Plan", "Stage", "Group", "Sink", "make_plan", "stage_of", "children"]
