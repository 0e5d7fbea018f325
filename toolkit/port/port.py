"""Port a MemBase ``.asc`` file: find its compute regions, write each as a RegBase VF, keep the rest.

``port_source(path)`` returns the new text and, per region, what was done (or why the region stays
MemBase: which call, which reason). Temporaries: a ``TBuf`` member is a temporary when no code outside
the regions refers to it (only its ``InitBuffer`` and its declaration); its ``InitBuffer`` goes when
every region using it was ported into registers.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from toolkit.asc.lexer import tokens

from .emit import Traits, VfWriter
from .frontend import Unit, parse_unit
from .model import build_model
from .params import Params
from .plan import make_plan
from .regions import Region, find_regions
from .scope import PortError
from .writer import Edit, apply_edits, call_site, insertion_point, kept_declarations, remove_statement


@dataclass
class RegionReport:
    function: str
    line: int
    end_line: int
    status: str                       #: ported | membase
    calls: list[str] = field(default_factory=list)   #: "Api@line" of its vector calls
    reason: str = ""
    at: str = ""                      #: the call (API and line) the reason is about
    vf: str = ""
    rows: str = ""
    stages: int = 0
    loops: int = 0
    registers: int = 0
    temps: list[str] = field(default_factory=list)           #: temporaries the port still spills into
    removes: list[str] = field(default_factory=list)         #: temporaries whose InitBuffer the port removed
    assumptions: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    call_line: int = 0                #: line of the asc_vf_call in the ported file

    def to_json(self) -> dict:
        return dict(self.__dict__)


@dataclass
class PortResult:
    source: str
    text: str
    regions: list[RegionReport]
    removed_buffers: list[str]
    vf_code: dict[str, str]

    @property
    def ported(self) -> list[RegionReport]:
        return [r for r in self.regions if r.status == "ported"]


def tbuf_views(unit: Unit) -> list[tuple[int, int, dict[str, str]]]:
    """Per function body (start, end): its LocalTensor views of a TBuf (view name -> TBuf member)."""
    from .regions import classify
    from .scope import Scope
    out = []
    for fn in unit.functions:
        if fn.body is None:
            continue
        scope = Scope(fn.types, unit.constants, set(unit.tbufs), None, fn.type_bindings)

        def visit(block) -> None:
            for st in block.children:
                if st.kind == "decl":
                    classify(st, scope)
                for ch in st.children:
                    visit(ch)
        visit(fn.body)
        out.append((fn.body.start, fn.body.end, {n: v.root.name for n, v in scope.views.items()
                                                 if v.root.kind == "tbuf"}))
    return out


def _tbufs_named(unit: Unit, views, start: int, end: int) -> set[str]:
    """The TBufs a stretch of the file refers to, by member name or through a view of one."""
    local = next((m for a, b, m in views if a <= start < b), {})
    out = set()
    for t in tokens(unit.text[start:end]):
        if t.text in unit.tbufs:
            out.add(t.text)
        elif t.text in local:
            out.add(local[t.text])
    return out


def temp_tbufs(unit: Unit, regions: list[Region]) -> set[str]:
    """TBuf members referred to (by name or through a view) only inside regions, InitBuffer statements
    and declarations."""
    views = tbuf_views(unit)
    skip = sorted([(r.start, r.end) for r in regions] + [(s.start, s.end) for s in unit.init_buffers])
    used_outside: set[str] = set()
    for a, b, _ in views:
        pos = a
        for s, e in [sp for sp in skip if a <= sp[0] < b] + [(b, b)]:
            if s > pos:
                used_outside |= _tbufs_named(unit, views, pos, s)
            pos = max(pos, e)
    return set(unit.tbufs) - used_outside


def port_source(path: str | Path, include_dirs: list[str] = (), defines: list[str] = ()) -> PortResult:
    unit = parse_unit(path, include_dirs, defines)
    regions = find_regions(unit)
    views = tbuf_views(unit)
    uses = [_tbufs_named(unit, views, r.start, r.end) for r in regions]
    temps = temp_tbufs(unit, regions)
    while True:                 # a temporary a MemBase region (or a spill) still uses keeps its UB
        traits = Traits()
        reports, done = _attempt(unit, regions, temps, traits)
        live = {t for k, rep in enumerate(reports) if rep.status != "ported" for t in uses[k]}
        live |= {t for rep in reports for t in rep.temps}
        if not live & temps:
            break
        temps = temps - live
    removed = sorted(t for t in temps if any(t in u for u in uses))
    edits: list[Edit] = []
    vf_at: dict[int, list[str]] = {}
    for k, (rep, region) in enumerate(zip(reports, regions)):
        rep.removes = [t for t in removed if t in uses[k]] if rep.status == "ported" else []
        if rep.status != "ported":
            continue
        code, args = done[k]
        kept = kept_declarations(region, unit)
        edits.append(Edit(region.start, region.end, call_site(region, unit, rep.vf, args, kept)))
        fn = region.function
        at = fn.class_start if fn.class_start is not None else fn.start
        vf_at.setdefault(insertion_point(unit.text, at), []).append(code)
    for site in unit.init_buffers:
        if site.target in removed:
            edits.append(remove_statement(unit.text, site.start, site.end))
    first = min(vf_at) if vf_at else None
    for pos, codes in vf_at.items():
        text = "\n\n".join(codes) + "\n\n"
        if pos == first and traits.used:
            text = "\n".join(traits.used.values()) + "\n\n" + text
        edits.append(Edit(pos, pos, _qualify(text, unit)))
    out = apply_edits(unit.text, edits)
    for rep in reports:
        if rep.vf:
            m = re.search(rf"asc_vf_call<{re.escape(rep.vf)}>", out)
            rep.call_line = out.count("\n", 0, m.start()) + 1 if m else 0
    return PortResult(str(path), out, reports, removed, {r.vf: done[k][0] for k, r in enumerate(reports) if r.vf})


def _attempt(unit: Unit, regions: list[Region], temps: set[str], traits: Traits):
    """Port every region with ``temps`` as the temporaries: the reports and, per ported region, its VF
    text and call-site arguments."""
    names_taken = {t.text for t in tokens(unit.text) if t.kind == "ident"}
    reports: list[RegionReport] = []
    done: dict[int, tuple[str, list[str]]] = {}
    for k, region in enumerate(regions):
        rep = RegionReport(region.function.name, region.line, region.end_line, "membase",
                           calls=[f"{_api(it)}@{it.stmt.line}" for it in region.calls])
        reports.append(rep)
        try:
            code, args, vf = _port_region(region, unit, temps, traits, names_taken, rep)
        except PortError as err:
            rep.reason = err.reason
            if err.line:
                rep.at = f"{err.call or _call_at(region, err.line)}@{err.line}"
            continue
        names_taken.add(vf)
        rep.status, rep.vf = "ported", vf
        done[k] = (code, args)
    return reports, done


def _port_region(region: Region, unit: Unit, temps: set[str], traits: Traits, taken: set[str],
                 rep: RegionReport) -> tuple[str, list[str], str]:
    model = build_model(region, unit, temps)
    for it in kept_declarations(region, unit, items=True):
        if any(name in model.flow.scalars for d in it.decls for name in [d.name]):
            raise PortError(f"'{it.decls[0].name}' (a value the region computes) is used after it", it.stmt.line)
    plan = make_plan(model)
    fn = region.function
    params = Params(template=bool(fn.template_params), taken=set())
    base = f"{fn.name}VF" if region.index == 0 else f"{fn.name}VF{region.index + 1}"
    vf = base
    k = 1
    while vf in taken:
        k += 1
        vf = f"{base}{k}"
    writer = VfWriter(plan, vf, params, traits, model.flow.names)
    code = writer.write()
    rep.rows = model.R.cpp()
    rep.stages = len(plan.stages)
    rep.loops = sum(len(st.groups) for st in plan.stages)
    rep.registers = writer.budget.peak
    rep.assumptions = list(model.assumption_why)
    rep.notes = list(model.notes) + plan.notes
    if getattr(writer, "reused", False):
        rep.notes.append("registers reused within a loop body to fit the register file")
    if getattr(writer, "split_loops", 0):
        rep.notes.append(f"a loop split {writer.split_loops} time(s) to fit the register file (no spill)")
    rep.temps = sorted({s.arr.root.name for s in plan.sinks if s.kind == "spill" and s.arr.root.kind == "tbuf"})
    return code, [p.arg for p in params.params], vf


def _api(item) -> str:
    f = item.call.func if item.call is not None else None
    return f.name.split("::")[-1] if f is not None and hasattr(f, "name") else "?"


def _call_at(region: Region, line: int) -> str:
    for it in region.calls:
        if it.stmt.line == line:
            return _api(it)
    return ""


def _qualify(text: str, unit: Unit) -> str:
    """``Reg::`` / ``RoundMode::`` need ``using namespace AscendC`` in the file or a header it includes."""
    if _uses_ascendc(unit):
        return text
    return re.sub(r"(?<![\w:])(Reg|RoundMode)::", r"AscendC::\1::", text)


def _uses_ascendc(unit: Unit) -> bool:
    if re.search(r"using\s+namespace\s+AscendC\s*;", unit.text):
        return True
    for inc in re.findall(r'#\s*include\s*"([^"]+)"', unit.text):
        for d in (unit.path.parent, unit.path.parent / "include", unit.path.parent.parent / "include"):
            p = d / inc
            if p.is_file() and re.search(r"using\s+namespace\s+AscendC\s*;", p.read_text(errors="replace")):
                return True
    return False
