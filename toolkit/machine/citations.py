"""Citations of our fact sheets and specs (``docs/``) in the machine file and the code, and their sections.

A citation is a sheet name followed by one or more section references, e.g. ``api-facts 12``,
``api-facts 3-5``, ``api-facts 1, 16.1``, ``ascend950-facts 2.2/2.3``, ``softmax spec 5.0``,
``softmax spec open question 4``. A reference names a numbered heading of the sheet (``## 12.``,
``### 2.3``, ``## 7b.``; ``## 4-5.`` is both 4 and 5) or a numbered list item under one (``16.1`` is
item 1 of section 16; ``open question 4`` is item 4 under an unnumbered "Open questions" heading).
Ranges (``3-5``, ``2.1-2.3``) stand for every section between. ``docs/README.md`` lists the sheets.

``sections`` reads a sheet's markdown; ``scripts/fact_index.py`` writes the headings of every sheet to
``fact_sections.json`` beside this module, so ``migrate-check machine`` can name a cited section
without the docs being installed (tests/test_citations.py keeps that file current).
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

#: citation name -> the sheet, relative to docs/
SHEETS = {
    "api-facts": "facts/api-facts.md",
    "ascend950-facts": "facts/ascend950-facts.md",
    "anchors-survey": "facts/anchors-survey.md",
    "kv spec": "spec/kv_rms_norm_rope_cache.md",
    "softmax spec": "spec/softmax_regbase.md",
    "surface spec": "spec/ascend_c_surface.md",
}
INDEX_FILE = "fact_sections.json"   #: the headings, beside this module (scripts/fact_index.py)
OPEN = "open question"   #: a numbered item under an unnumbered "Open questions" heading

_NAME = "|".join(re.escape(n) for n in SHEETS)
_NUM = r"\d+[a-z]?(?:\.\d+)*"
_ITEM = rf"(?:{OPEN} \d+|{_NUM}(?:-{_NUM})?)"
#: a sheet name where it stands as a word (what must begin a citation)
NAME_RE = re.compile(rf"(?<![\w-])(?:{_NAME})(?![\w-])")
_END = r"(?![\w-]|\.\d)"
#: a whole citation: the name and its list of references
CITATION_RE = re.compile(rf"(?<![\w-])({_NAME}) ({_ITEM}{_END}(?:(?:, | / |/){_ITEM}{_END})*)")
_SPLIT = re.compile(r", | / |/")
_HEADING = re.compile(r"^#{1,6}\s+(?:(\d+[a-z]?(?:\.\d+)*(?:-\d+)?)\.?\s+)?(.*?)\s*$")
_LIST_ITEM = re.compile(r"^(\d+)\.\s+(.*)")


@dataclass(frozen=True)
class Citation:
    sheet: str            #: a key of SHEETS
    refs: tuple           #: section ids, ranges expanded
    text: str             #: as written
    start: int            #: offset in the text searched


def _expand(item: str) -> list[str]:
    """``3-5`` -> 3, 4, 5; ``2.1-2.3`` -> 2.1, 2.2, 2.3; anything else as it is."""
    if item.startswith(OPEN) or "-" not in item:
        return [item]
    lo, hi = item.split("-")
    head, _, first = lo.rpartition(".")
    head2, _, last = hi.rpartition(".")
    if head != head2 or not (first.isdigit() and last.isdigit()) or int(first) > int(last):
        return [item]     # not a range of one level: resolves as written (and fails)
    pre = head + "." if head else ""
    return [f"{pre}{k}" for k in range(int(first), int(last) + 1)]


def citations(text: str) -> list[Citation]:
    """Every citation in ``text``, in order."""
    out = []
    for m in CITATION_RE.finditer(text):
        refs = tuple(r for item in _SPLIT.split(m.group(2)) for r in _expand(item))
        out.append(Citation(m.group(1), refs, m.group(0), m.start()))
    return out


def bare_names(text: str) -> list[int]:
    """Offsets of sheet names that do not begin a citation (a name with no section, or a malformed one)."""
    cited = {c.start for c in citations(text)}
    return [m.start() for m in NAME_RE.finditer(text) if m.start() not in cited]


def _clean(title: str, width: int = 90) -> str:
    title = re.sub(r"\*\*|`", "", title).strip()
    return title if len(title) <= width else title[:width - 3].rstrip() + "..."


def sections(markdown: str) -> dict[str, str]:
    """Section id -> heading of a sheet: its numbered headings and the numbered list items under them."""
    out: dict[str, str] = {}
    headings: set[str] = set()
    parent = None            # the id prefix numbered list items below get
    fenced = False
    for line in markdown.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        if fenced:
            continue
        h = _HEADING.match(line)
        if h:
            number, title = h.group(1), _clean(h.group(2))
            ids = _expand(number) if number else []
            for i in ids:
                out[i] = title
                headings.add(i)
            parent = (ids[0] + ".") if len(ids) == 1 else (f"{OPEN} " if title.lower() == "open questions" else None)
            continue
        li = _LIST_ITEM.match(line)
        if li and parent and parent + li.group(1) not in headings:     # a heading wins over a list item
            out.setdefault(parent + li.group(1), _clean(li.group(2)))
    return out


@lru_cache(maxsize=1)
def index() -> dict[str, dict[str, str]]:
    """Citation name -> section id -> heading, as ``scripts/fact_index.py`` wrote it."""
    text = resources.files(__package__).joinpath(INDEX_FILE).read_text(encoding="utf-8")
    return json.loads(text)


def cited_sections(text: str) -> list[dict]:
    """The sections ``text`` cites, each ``{"sheet", "section", "heading"}`` (heading None if unknown)."""
    idx = index()
    return [{"sheet": c.sheet, "section": r, "heading": idx.get(c.sheet, {}).get(r)}
            for c in citations(text) for r in c.refs]
