"""Write the ported source: every ported region's statements become one ``asc_vf_call`` of its VF (the
declarations the code after it still uses stay), the VFs (and the CastTrait constants they use) go
before the class or function holding the region, and the ``InitBuffer`` of every temporary no
remaining MemBase code uses is removed. Everything else stays byte for byte.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from toolkit.asc.lexer import tokens

from .frontend import Unit
from .regions import Region


@dataclass
class Edit:
    start: int
    end: int
    text: str


def call_site(region: Region, unit: Unit, vf: str, args: list[str], kept: list[str]) -> str:
    indent = _indent_at(unit.text, region.start)
    head = f"asc_vf_call<{vf}>("
    lines = [*kept]
    one = head + ", ".join(args) + ");"
    if len(indent) + len(one) <= 118:
        lines.append(one)
    else:
        cur = head
        out = []
        for k, a in enumerate(args):
            piece = a + (", " if k < len(args) - 1 else ");")
            if len(indent) + len(cur) + len(piece) > 118 and cur.strip() != head.strip():
                out.append(cur.rstrip())
                cur = " " * len(head) + piece
            else:
                cur += piece
        out.append(cur.rstrip())
        lines += out
    return ("\n" + indent).join(lines)


def kept_declarations(region: Region, unit: Unit, items: bool = False) -> list:
    """Declarations of the region whose names the function still uses after it (their text; the region
    items with ``items``)."""
    fn = region.function
    body_end = fn.body.end if fn.body is not None else region.end
    after = {t.text for t in tokens(unit.text[region.end:body_end]) if t.kind == "ident"}
    out = []
    for it in region.items:
        if it.kind == "decl" and any(d.name in after for d in it.decls):
            out.append(it if items else it.stmt.text.strip())
    return out


def apply_edits(text: str, edits: list[Edit]) -> str:
    out, pos = [], 0
    for e in sorted(edits, key=lambda e: (e.start, e.end)):
        if e.start < pos:
            raise ValueError("overlapping edits")
        out.append(text[pos:e.start])
        out.append(e.text)
        pos = e.end
    out.append(text[pos:])
    return "".join(out)


def remove_statement(text: str, start: int, end: int) -> Edit:
    """Delete a statement; the whole line when nothing else is on it."""
    ls = text.rfind("\n", 0, start) + 1
    le = text.find("\n", end)
    le = len(text) if le < 0 else le
    if not text[ls:start].strip() and not text[end:le].strip():
        return Edit(ls, min(le + 1, len(text)), "")
    return Edit(start, end, "")


def _indent_at(text: str, pos: int) -> str:
    ls = text.rfind("\n", 0, pos) + 1
    m = re.match(r"[ \t]*", text[ls:pos])
    return m.group(0) if m else ""


def insertion_point(text: str, pos: int) -> int:
    """Start of the line at ``pos``, moved above the comment lines directly before it."""
    ls = text.rfind("\n", 0, pos) + 1
    while ls > 0:
        prev = text.rfind("\n", 0, ls - 1) + 1
        line = text[prev:ls - 1].strip()
        if line.startswith("//") or line.startswith("template"):
            ls = prev
            continue
        break
    return ls
