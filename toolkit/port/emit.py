"""Ascend C text of one planned VF, in the style of the vendor's RegBase samples: masks first, a row loop
(``uint16_t`` index from 0), per stage its loops over VL chunks with the tail masked by ``UpdateMask``
(no branches), loads (``LoadAlign``; 16-bit data widened with ``DIST_UNPACK_B16``, even/odd elements
split by ``Cast`` with ``RegLayout::ZERO``/``ONE`` or ``DIST_DINTLV_B32``), the math on ``RegTensor``s,
stores (``StoreAlign``; narrowed with ``DIST_PACK_B32``), reductions into lane 0, lane-0 math under a
one-lane mask and ``Duplicate`` broadcasts.

Registers live in the scope that needs them: constants for the VF, accumulators and lane-0 values for
a row, chunk values for one loop iteration; the register file is checked (32 RegTensor, 8 MaskReg).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .apis import DTYPES, SCALAR_FORM
from .expr import Const, E, Load, Param, Red, SOp, VOp, shift, walk
from .params import Params
from .plan import Group, Plan, Sink
from .poly import ONE, Poly
from .scope import PortError

REG_TENSORS, MASK_REGS = 32, 8
_LOWEST = {"float": "-3.4028235e38f", "half": "-65504.0f"}
_HIGHEST = {"float": "3.4028235e38f", "half": "65504.0f"}


@dataclass
class Traits:
    """File-scope CastTrait constants the VFs use (emitted once, before the first VF)."""

    used: dict[str, str] = field(default_factory=dict)

    def name(self, layout: str, sat: str, rnd: str) -> str:
        key = f"portCast{layout.title()}{'Sat' if sat == 'SAT' else ''}{rnd.replace('CAST_', '').title()}"
        self.used.setdefault(key, f"static constexpr Reg::CastTrait {key} = {{Reg::RegLayout::{layout}, "
                                  f"Reg::SatMode::{sat}, Reg::MaskMergeMode::ZEROING, RoundMode::{rnd}}};")
        return key


@dataclass
class Budget:
    vf: int = 0
    row: int = 0
    body: int = 0
    masks: int = 0

    @property
    def peak(self) -> int:
        return self.vf + self.row + self.body


class VfWriter:
    def __init__(self, plan: Plan, name: str, params: Params, traits: Traits, names: dict[E, str]):
        self.plan, self.name, self.p, self.traits = plan, name, params, traits
        self.src_names = names
        self.regs: dict[E, str] = {}
        self.bcast_regs: dict[E, str] = {}
        self.used_names: set[str] = set()
        self.budget = Budget()

    # -- names ---------------------------------------------------------------------------------------
    def fresh(self, base: str) -> str:
        base = base or "v"
        name, k = base, 0
        while name in self.used_names or name in self.p.taken:
            k += 1
            name = f"{base}{k}"
        self.used_names.add(name)
        return name

    def _base_name(self, e: E) -> str:
        if e in self.src_names:
            return self.src_names[e]
        if isinstance(e, Load):
            return e.arr.root.name.replace("this->", "").strip("_") + ("B16" if DTYPES[e.dtype] == 2 else "")
        if isinstance(e, Red):
            return "row" + e.kind.title()
        if isinstance(e, SOp) and e.op == "Muls" and isinstance(e.args[1], Const) and e.args[1].value == -1.0:
            return "neg" + self._base_name(e.args[0])[:1].upper() + self._base_name(e.args[0])[1:]
        if isinstance(e, (VOp, SOp)):
            return e.op[0].lower() + e.op[1:] + "Reg"
        return "v"

    # -- the VF ----------------------------------------------------------------------------------------
    def write(self) -> str:
        plan = self.plan
        body: list[str] = []
        rows = self.p.rows(plan.R)
        pro: list[str] = ["Reg::MaskReg fullMask = Reg::CreateMask<float, Reg::MaskPattern::ALL>();"]
        lane0 = any(isinstance(n, SOp) for s in plan.sinks for n in walk(s.value))
        if lane0:
            pro.append("Reg::MaskReg oneMask = Reg::CreateMask<float, Reg::MaskPattern::VL1>();")
        self.budget.masks = 2 + lane0                 # fullMask, the loop's mask, oneMask
        self.prologue = pro
        for e in plan.prologue:
            pro += self.lane0(e, vf_scope=True)
        row_lines: list[str] = []
        for st in plan.stages:
            row_lines += self.stage(st)
        text = "\n".join(row_lines + pro[1:])
        pro = [ln for ln in pro if not (ln.startswith("Reg::MaskReg fullMask") and "fullMask" not in text)]
        if plan.R == ONE:
            body = pro + row_lines
        else:
            body = pro + [f"for (uint16_t r = 0; r < {rows}; ++r) {{"] + _indent(row_lines) + ["}"]
        self.check_budget()
        order = {"__ubuf__": 0, "uint32_t": 1, "uint16_t": 2}
        self.p.params.sort(key=lambda q: order.get(q.ctype.split()[0], 3))
        sig = ", ".join(f"{p.ctype} {p.name}" for p in self.p.params)
        head = f"__simd_vf__ inline void {self.name}({sig})"
        return "\n".join([head, "{"] + _indent(body) + ["}"])

    def check_budget(self) -> None:
        b = self.budget
        if b.peak > REG_TENSORS or b.masks > MASK_REGS:
            raise PortError(f"VF {self.name} needs {b.peak} RegTensor / {b.masks} MaskReg at once "
                            f"(register file {REG_TENSORS} / {MASK_REGS})")

    def declare(self, e: E, dtype: str, scope: str, lines: list[str], base: str | None = None) -> str:
        name = self.fresh(base or self._base_name(e))
        lines.append(f"Reg::RegTensor<{dtype}> {name};")
        setattr(self.budget, scope, getattr(self.budget, scope) + 1)
        return name

    # -- stages --------------------------------------------------------------------------------------
    def stage(self, st) -> list[str]:
        out: list[str] = [f"// stage {st.k // 2}"]
        self.budget.body = 0
        direct = {red for red in st.reds if self._direct(red, st)}
        split = {id(g): self._split(g, direct) for g in st.groups}
        accs: dict[Red, list[str]] = {}
        for red in st.reds:
            if red in direct:
                continue
            init = _init_value(red)
            two = any(split[id(g)] and any(sk.red is red for sk in g.sinks) for g in st.groups)
            accs[red] = []
            for k in range(2 if two else 1):
                name = self.declare(red, red.dtype, "row", out, red.kind + "Acc" + (str(k) if two else ""))
                out.append(f"Reg::Duplicate({name}, {init});")
                accs[red].append(name)
        for red in direct:
            self.regs[red] = self.declare(red, red.dtype, "row", out)
        if st.membar:
            out.append("Reg::LocalMemBar<Reg::MemType::VEC_STORE, Reg::MemType::VEC_LOAD>();")
        peak_body = 0
        for g in st.groups:
            lines, body = self.fitted_group(g, accs, direct, split[id(g)])
            out += lines
            peak_body = max(peak_body, body)
        self.budget.body = peak_body
        self.check_budget()
        for red in st.reds:
            if red in accs:
                acc = accs[red]
                if len(acc) == 2:
                    out.append(f"Reg::{_COMBINE[red.kind]}({acc[0]}, {acc[0]}, {acc[1]}, fullMask);")
                name = self.declare(red, red.dtype, "row", out)
                out.append(f"Reg::{_REDUCE[red.kind]}({name}, {acc[0]}, fullMask);")
                self.regs[red] = name
        for e in st.after:
            out += self.lane0(e)
        for e in [*st.reds, *st.after]:
            if e in self.plan.bcast:
                out += self.broadcast(e, "row")
        return out

    def fitted_group(self, g: Group, accs: dict, direct: set, split: bool) -> tuple[list[str], int]:
        """The loop of ``g``, or, when its body needs more registers than the file has left, one loop
        per half of its sinks (each recomputing what they share): split rather than spill."""
        self.budget.body = 0
        saved = (dict(self.regs), set(self.used_names), self.budget.masks)
        lines = self.group(g, accs, direct, split)
        body = self.budget.body
        if self.budget.vf + self.budget.row + body <= REG_TENSORS or len(g.sinks) < 2:
            return lines, body
        self.regs, self.used_names, self.budget.masks = saved
        half = len(g.sinks) // 2
        out, peak = [], 0
        for part in (g.sinks[:half], g.sinks[half:]):
            got, b = self.fitted_group(Group(g.width, part), accs, direct, split)
            out += got
            peak = max(peak, b)
        self.split_loops = getattr(self, "split_loops", 0) + 1
        return out, peak

    def _split(self, g: Group, direct: set) -> bool:
        """Two accumulators (even and odd chunks) halve the loop-carried chain of a reduction loop of
        four chunks or more; a loop of pairs, then at most one chunk, so nothing is read past the row."""
        if not any(sk.kind == "acc" and sk.red not in direct for sk in g.sinks):
            return False
        n = g.width.int_value()
        return n is None or -(-n // 64) >= 4

    def _direct(self, red: Red, st) -> bool:
        """A reduction of one chunk needs no accumulator: reduce the chunk under its mask."""
        if len(red.pieces) != 1:
            return False
        lo, hi, _ = red.pieces[0]
        w = (hi - lo).int_value()
        return w is not None and w <= 64

    def broadcast(self, e: E, scope: str) -> list[str]:
        lines: list[str] = []
        src = self.regs[e]
        name = self.declare(e, e.dtype, scope, lines, src + "Brc")
        lines.append(f"Reg::Duplicate({name}, {src}, fullMask);")
        self.bcast_regs[e] = name
        return lines

    # -- lane 0 --------------------------------------------------------------------------------------
    def operand(self, a: E, lines: list[str], scope: str) -> str:
        if isinstance(a, Param):
            return self.p.scalar(a)
        if isinstance(a, Const):
            return _literal(a.value, a.dtype)
        return self.regs[a]

    def lane0(self, e: E, vf_scope: bool = False) -> list[str]:
        if e in self.regs:
            return []
        scope = "vf" if vf_scope else "row"
        lines: list[str] = []
        args = list(e.args)
        if e.op in ("Div", "Sub", "Add", "Mul", "Max", "Min"):
            regs = [self._reg_of_operand(a, lines) for a in args]
            name = self.declare(e, e.dtype, scope, lines)
            lines.append(f"Reg::{e.op}({name}, {regs[0]}, {regs[1]}, oneMask);")
        elif e.op in ("Adds", "Muls", "Maxs", "Mins"):
            a = self._reg_of_operand(args[0], lines)
            s = self.operand(args[1], lines, scope)
            if not isinstance(args[1], (Param, Const)):
                s_reg = s
                name = self.declare(e, e.dtype, scope, lines)
                lines.append(f"Reg::{_BINARY_OF[e.op]}({name}, {a}, {s_reg}, oneMask);")
            else:
                name = self.declare(e, e.dtype, scope, lines)
                lines.append(f"Reg::{e.op}({name}, {a}, {s}, oneMask);")
        elif e.op == "Cast":
            a = self._reg_of_operand(args[0], lines)
            name = self.declare(e, e.dtype, scope, lines)
            lines.append(self._cast_line(name, a, e, "oneMask"))
        else:
            a = self._reg_of_operand(args[0], lines)
            name = self.declare(e, e.dtype, scope, lines)
            lines.append(f"Reg::{e.op}({name}, {a}, oneMask);")
        self.regs[e] = name
        return lines

    def _reg_of_operand(self, a: E, lines: list[str]) -> str:
        if isinstance(a, (Param, Const)):
            return self.constant_reg(a)
        return self.regs[a]

    def constant_reg(self, a: E, dtype: str | None = None) -> str:
        """A register holding a constant or an outer scalar in every lane (made once per VF)."""
        dtype = dtype or a.dtype
        key = ("const", a, dtype)
        if key in self.regs:
            return self.regs[key]
        value = self.operand(a, [], "vf")
        base = "one" if isinstance(a, Const) and a.value == 1.0 else "cst"
        name = self.declare(a, dtype, "vf", self.prologue, base)
        self.prologue.append(f"Reg::Duplicate({name}, {value});")
        self.regs[key] = name
        return name

    # -- loops ---------------------------------------------------------------------------------------
    def group(self, g: Group, accs: dict, direct: set, split: bool = False) -> list[str]:
        wide = any(DTYPES.get(n.dtype, 4) == 4 for s in g.sinks for n in _vector_nodes(s.value))
        wide = wide or any(s.red is not None and DTYPES.get(s.red.dtype, 4) == 4 for s in g.sinks)
        vl = 64 if wide else 128
        ctype = "float" if vl == 64 else "half"
        W = g.width
        n_const = W.int_value()
        cnt = self.fresh("count")
        lines = [f"uint32_t {cnt} = {self.p.cpp(W)};"]
        self.pre, self.cut_counters = lines, {}
        if not split:
            chunks = -(-n_const // vl) if n_const is not None else None
            if chunks == 1:
                body = self._fit(self.chunk(g, vl, "", cnt, ctype, accs, direct, 0))
                return lines + ["{"] + _indent(body) + ["}"]
            count = str(chunks) if chunks is not None else self.p.loop_count(W, vl)
            body = self._fit(self.chunk(g, vl, f"i * {vl}", cnt, ctype, accs, direct, 0))
            return lines + [f"for (uint16_t i = 0; i < {count}; ++i) {{"] + _indent(body) + ["}"]
        pairs = str(n_const // (2 * vl)) if n_const is not None else self.p.loop_part(W, 2 * vl, "pairs")
        tail = (str(-(-(n_const % (2 * vl)) // vl)) if n_const is not None
                else self.p.loop_part(W, 2 * vl, "tail", vl))
        if not getattr(self, "_mask1", False):
            self._mask1 = True
            self.budget.masks += 1
        body = self.chunk(g, vl, f"i * {2 * vl}", cnt, ctype, accs, direct, 0)
        body += self.chunk(g, vl, f"i * {2 * vl} + {vl}", cnt, ctype, accs, direct, 1)
        body = self._fit(body)
        lines += [f"for (uint16_t i = 0; i < {pairs}; ++i) {{"] + _indent(body) + ["}"]
        if tail != "0":
            rest = self.chunk(g, vl, f"{_paren(pairs)} * {2 * vl} + i * {vl}", cnt, ctype, accs, direct, 0)
            rest = self._fit(rest)
            lines += [f"for (uint16_t i = 0; i < {tail}; ++i) {{"] + _indent(rest) + ["}"]
        return lines

    def _fit(self, body: list[str]) -> list[str]:
        """``body`` with dead registers reused when its own names would not fit the register file."""
        if self.budget.vf + self.budget.row + self.budget.body <= REG_TENSORS:
            return body
        from .regalloc import reuse
        body, n = reuse(body)
        self.budget.body = n
        self.reused = True
        return body

    def chunk(self, g: Group, vl: int, coff: str, cnt: str, ctype: str, accs: dict, direct: set, k: int) -> list[str]:
        """One chunk of every sink of ``g``: its mask, loads, math and store or accumulation (``coff``:
        the chunk's first column, ``k``: which accumulator)."""
        mask = "mask" if k == 0 else f"mask{k}"
        body = [f"Reg::MaskReg {mask} = Reg::UpdateMask<{ctype}>({cnt});"]
        saved = dict(self.regs)
        self.mask, self.coff = mask, coff
        for s in g.sinks:
            body += self.sink(s, vl, accs, direct, k)
        self.regs = saved
        return body

    def sink(self, s: Sink, vl: int, accs: dict, direct: set, k: int) -> list[str]:
        lines: list[str] = []
        m = self.mask
        v = shift(s.value, s.lo)
        reg = self.vector(v, vl, lines)
        if s.kind in ("store", "spill"):
            addr = self.address(s.arr, s.dtype, s.lo, 1)
            if DTYPES[s.dtype] == 2 and vl == 64:
                lines.append(f"Reg::StoreAlign<{s.dtype}, Reg::StoreDist::DIST_PACK_B32>({addr}, {reg}, {m});")
            else:
                lines.append(f"Reg::StoreAlign({addr}, {reg}, {m});")
        elif s.red in direct:
            lines.append(f"Reg::{_REDUCE[s.red.kind]}({self.regs[s.red]}, {reg}, {m});")
        else:
            acc = accs[s.red][min(k, len(accs[s.red]) - 1)]
            op = _COMBINE[s.red.kind]
            lines.append(f"Reg::{op}<{s.red.dtype}, Reg::MaskMergeMode::MERGING>({acc}, {acc}, {reg}, {m});")
        return lines

    def address(self, arr, dtype: str, col: Poly, cs: int) -> str:
        ptr = self.p.pointer(arr, dtype)
        size = DTYPES[dtype]
        parts = [ptr]
        if not self.plan.R == ONE and not arr.rs == Poly():
            rs = arr.rs.div(size)
            if rs is None:
                raise PortError(f"row stride {arr.rs} B of '{arr.root.name}' is not whole {dtype} elements")
            parts.append(f"r * {_paren(self.p.cpp(rs))}" if not rs == ONE else "r")
        if not col == Poly():
            parts.append(_paren(self.p.cpp(col * cs)))
        if self.coff:
            parts.append(self.coff if cs == 1 else f"2 * ({self.coff})")
        return " + ".join(parts)

    def vector(self, e: E, vl: int, lines: list[str], dtype: str | None = None) -> str:
        """The register holding ``e`` for the current chunk (computed once per chunk)."""
        if e.scalar_width:
            if e in self.bcast_regs:
                return self.bcast_regs[e]
            if isinstance(e, (Param, Const)):
                return self.constant_reg(e, dtype)
            raise PortError("a lane-0 value is used before it is broadcast")
        if e in self.regs:
            return self.regs[e]
        if isinstance(e, Load):
            return self.load(e, vl, lines, None)
        if e.op == "Cast":
            return self.cast(e, vl, lines)
        if e.op == "Piecewise":
            return self.select(e, vl, lines)
        args = e.args
        if e.op in SCALAR_FORM.values() or e.op in ("Adds", "Muls", "Maxs", "Mins"):
            a = self.vector(args[0], vl, lines)
            s = self.operand(args[1], lines, "body")
            name = self.declare(e, e.dtype, "body", lines)
            lines.append(f"Reg::{e.op}({name}, {a}, {s}, {self.mask});")
        elif len(args) == 2:
            op = e.op
            x, y = args
            if isinstance(y, (Param, Const)) and op in SCALAR_FORM:
                a = self.vector(x, vl, lines)
                name = self.declare(e, e.dtype, "body", lines)
                lines.append(f"Reg::{SCALAR_FORM[op]}({name}, {a}, {self.operand(y, lines, 'body')}, {self.mask});")
            elif isinstance(y, Const) and op == "Sub":
                a = self.vector(x, vl, lines)
                name = self.declare(e, e.dtype, "body", lines)
                lines.append(f"Reg::Adds({name}, {a}, {_literal(-y.value, y.dtype)}, {self.mask});")
            else:
                a, b = self.vector(x, vl, lines, e.dtype), self.vector(y, vl, lines, e.dtype)
                name = self.declare(e, e.dtype, "body", lines)
                lines.append(f"Reg::{op}({name}, {a}, {b}, {self.mask});")
        else:
            a = self.vector(args[0], vl, lines)
            name = self.declare(e, e.dtype, "body", lines)
            lines.append(f"Reg::{e.op}({name}, {a}, {self.mask});")
        self.regs[e] = name
        return name

    def select(self, e: VOp, vl: int, lines: list[str]) -> str:
        """Lanes left of each cut from one piece, the rest from the next: ``Select`` under a mask that an
        ``UpdateMask`` counter starting at the cut's column makes chunk by chunk."""
        regs = [self.vector(a, vl, lines) for a in e.args]
        ctype = "float" if vl == 64 else "half"
        v = regs[-1]
        for k in reversed(range(len(regs) - 1)):
            cut = e.attr("cuts")[k]
            counter = self.cut_counters.get(cut)
            if counter is None:
                counter = self.fresh("cut")
                self.cut_counters[cut] = counter
                self.pre.append(f"uint32_t {counter} = {self.p.cpp(cut)};")
                self.budget.masks += 1
            key = ("cutmask", cut)
            if key not in self.regs:
                m = self.fresh(counter + "Mask")
                lines.append(f"Reg::MaskReg {m} = Reg::UpdateMask<{ctype}>({counter});")
                self.regs[key] = m
            name = self.declare(e, e.dtype, "body", lines, "sel")
            lines.append(f"Reg::Select({name}, {regs[k]}, {v}, {self.regs[key]});")
            v = name
        self.regs[e] = v
        return v

    def load(self, e: Load, vl: int, lines: list[str], want: str | None) -> str:
        size = DTYPES[e.dtype]
        key = ("raw", e.arr, e.col, e.dtype, e.cs)
        if e.cs == 2:
            if size == 2 and vl == 64:
                if key not in self.regs:
                    name = self.declare(e, e.dtype, "body", lines)
                    lines.append(f"Reg::LoadAlign<{e.dtype}>({name}, {self.address(e.arr, e.dtype, e.col, 2)});")
                    self.regs[key] = name
                return self.regs[key]
            if size == 4:
                if key not in self.regs:
                    ev = self.declare(e, e.dtype, "body", lines, self._base_name(e) + "Even")
                    od = self.declare(e, e.dtype, "body", lines, self._base_name(e) + "Odd")
                    lines.append(f"Reg::LoadAlign<{e.dtype}, Reg::LoadDist::DIST_DINTLV_B32>({ev}, {od}, "
                                 f"{self.address(e.arr, e.dtype, e.col, 2)});")
                    self.regs[key] = (ev, od)
                return self.regs[key][e.phase]
            raise PortError("an even/odd split of 16-bit data outside a cast to 32 bits has no port rule")
        if key in self.regs:
            return self.regs[key]
        name = self.declare(e, e.dtype, "body", lines)
        addr = self.address(e.arr, e.dtype, e.col, 1)
        if size == 2 and vl == 64:
            if want != "widen":
                raise PortError(f"16-bit '{e.arr.root.name}' is used in 32-bit lanes without a Cast")
            lines.append(f"Reg::LoadAlign<{e.dtype}, Reg::LoadDist::DIST_UNPACK_B16>({name}, {addr});")
        else:
            lines.append(f"Reg::LoadAlign({name}, {addr});")
        self.regs[key] = name
        self.regs[e] = name
        return name

    def cast(self, e: VOp, vl: int, lines: list[str]) -> str:
        src = e.args[0]
        ws, wd = DTYPES[src.dtype], DTYPES[e.dtype]
        if ws < wd:
            if isinstance(src, Load):
                a = self.load(src, vl, lines, "widen")
            else:
                raise PortError("widening a computed 16-bit value has no port rule")
            layout = "ONE" if isinstance(src, Load) and src.cs == 2 and src.phase == 1 else "ZERO"
            trait = self.traits.name(layout, "UNKNOWN", e.attr("round", "CAST_NONE"))
        else:
            a = self.vector(src, vl, lines)
            sat = "NO_SAT" if ws > wd else "UNKNOWN"
            rnd = e.attr("round", "CAST_RINT")
            if ws > wd and rnd == "CAST_NONE":
                rnd = "CAST_RINT"
            trait = self.traits.name("ZERO", sat, rnd)
        name = self.declare(e, e.dtype, "body", lines)
        lines.append(f"Reg::Cast<{e.dtype}, {src.dtype}, {trait}>({name}, {a}, {self.mask});")
        self.regs[e] = name
        return name

    def _cast_line(self, name: str, a: str, e: SOp, mask: str) -> str:
        src = e.args[0]
        trait = self.traits.name("ZERO", "UNKNOWN", e.attrs and dict(e.attrs).get("round", "CAST_NONE") or "CAST_NONE")
        return f"Reg::Cast<{e.dtype}, {src.dtype}, {trait}>({name}, {a}, {mask});"


_REDUCE = {"sum": "ReduceSum", "max": "ReduceMax", "min": "ReduceMin"}
_COMBINE = {"sum": "Add", "max": "Max", "min": "Min"}


def _init_value(red: Red) -> str:
    if red.kind == "sum":
        return "0.0f" if red.dtype in ("float", "half") else "0"
    table = _LOWEST if red.kind == "max" else _HIGHEST
    if red.dtype not in table:
        raise PortError(f"{red.kind} reduction of {red.dtype} has no register form in the port")
    return table[red.dtype]
_BINARY_OF = {"Adds": "Add", "Muls": "Mul", "Maxs": "Max", "Mins": "Min"}


def _vector_nodes(e: E):
    """The column-dependent nodes of ``e`` (not the lane-0 values it broadcasts)."""
    seen: set = set()
    todo = [e]
    while todo:
        n = todo.pop()
        if n in seen or n.scalar_width:
            continue
        seen.add(n)
        yield n
        todo += list(getattr(n, "args", ()))


def _literal(v: float, dtype: str) -> str:
    if float(v).is_integer():
        return f"{v:.1f}f"
    return f"{v!r}f"


def _paren(text: str) -> str:
    return text if all(ch.isalnum() or ch in "_" for ch in text) else f"({text})"


def _indent(lines: list[str]) -> list[str]:
    return ["    " + ln if ln else ln for ln in lines]
