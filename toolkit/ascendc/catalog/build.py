"""From the facts of the reference pages (:mod:`.pages`) to the catalog entries (used by
``scripts/gen_api_catalog.py``): one entry per API name and family, its forms collected from every page
that declares it, its host-side helpers tied to it, and whether it is in the emulator's scope.
"""
from __future__ import annotations

import re

from . import names, pages
from .pages import NO, NOT_STATED, YES, Page

#: what the emulator does not model, by the words that mark it in a page's path or an API's name
OUT_OF_SCOPE_MARKS = (
    ("cube", re.compile(r"Mmad|Matmul|Cube|cube_|TSCM|L0[ABC]|Fixpipe|FixPipe|LoadData|BiasTable|Conv3D|卷积|矩阵")),
    ("simt", re.compile(r"SIMT|Simt|simt")),
    ("ai_cpu", re.compile(r"AICPU|AI CPU|AiCpu|aicpu")),
    ("communication", re.compile(r"HCCL|Hccl|hccl|通信")),
)
NOT_ON_950 = "not supported on Ascend 950"
NOT_COPIED = "no page in the reference copy"
#: a host-side helper of a high-level API: its tmp-size queries and tiling functions
_HOST_NAME = re.compile(r"^Get\w*(TmpSize|TmpBufferFactorSize|TilingInfo|TillingInfo|Tiling|SortLen|SortOffset)$|"
                        r"\w+TilingFunc$|^IsBasicBlockIn\w+$|^\w+Tiling$")
_TILING_TYPE = re.compile(r"\b(?:optiling|AscendC::tiling)::([A-Z]\w*)")
HIGH_LEVEL = "高阶API"
#: folders whose pages document a type (the title), even when their prototypes are of other functions
TYPE_FOLDERS = {"寄存器数据类型", "辅助数据类型", "辅助数据结构", "数据结构"}


def family_of(path: str) -> str:
    """The report family of a page: its first two folders (``基础API/Reg矢量计算``, ``C-API/reg``)."""
    return "/".join(path.split("/")[:2]) if path.count("/") >= 2 else path.split("/")[0]


def group_of(path: str) -> str:
    return path.rsplit("/", 1)[0]


def page_names(page: Page) -> list[tuple[str, str, list[str]]]:
    """(bare name, kind, forms) declared on a page, in the page's order. Forms that declare no name
    (``dst = src0 + src1``, a constant) belong to the page's first name; a page without prototypes names
    the identifiers of its title (``UnalignRegForLoad & UnalignRegForStore``)."""
    named = [(decl, pages.decl_name(decl)) for decl in page.prototypes]
    first = next((nk for _, nk in named if nk is not None), None)
    found: dict[str, tuple[str, list[str]]] = {}
    for decl, nk in named:
        if nk is None and first is None:
            continue
        name, kind = nk or first
        found.setdefault(name, (kind, []))[1].append(decl)
    if not found:
        for name in page.title_names:
            found.setdefault(name, ("type", []))
    own = pages.own_name(page.title)
    if own and own not in found and TYPE_FOLDERS & set(page.path.split("/")[:-1]):
        found[own] = ("type", [])           # MaskReg's page documents CreateMask and UpdateMask
    return [(n, k, f) for n, (k, f) in found.items()]


def entries_from(pages_: list[Page], listed: list[tuple[str, str]] = ()) -> list[dict]:
    """The catalog entries of a set of pages (and of what the indexes list without a page: ``listed``),
    sorted by family and name (deterministic)."""
    acc: dict[tuple[str, str], dict] = {}
    for page in sorted(pages_, key=lambda p: p.path):
        if not page.is_api:
            continue
        for bare, kind, forms in page_names(page):
            qname, qkind = names.qualify(page.path, bare, kind)
            if page.path.startswith(HIGH_LEVEL) and _HOST_NAME.match(bare):
                qkind = "host"
            e = acc.setdefault((family_of(page.path), qname), _new(qname, qkind, page))
            _merge(e, page, forms)
    entries = list(acc.values())
    _tie_host_helpers(entries)
    entries += _tiling_structs(entries)
    entries += index_entries(list(listed), entries, {p.path for p in pages_})
    for e in entries:
        _finish(e)
    for e in entries:
        _judge(e, entries)
    _needed_types(entries)
    return sorted(entries, key=lambda e: (e["family"], e["name"]))


def _needed_types(entries: list[dict]) -> None:
    """A name an index lists without a page is in scope when in-scope APIs take it as a parameter type
    (``AscendC::TensorShape`` of the high-level tiling helpers); it then lists them under host_of."""
    used = [e for e in entries if e["in_scope"]]
    for e in entries:
        if e["out_of_scope"] != NOT_COPIED:
            continue
        word = re.compile(r"\b" + re.escape(names.last(e["name"])) + r"\b")
        users = sorted(u["name"] for u in used if any(word.search(f) for f in u["forms"]))
        if users:
            e.update(in_scope=True, out_of_scope=None, kind="struct", host_of=users)


def _new(qname: str, kind: str, page: Page) -> dict:
    return {"name": qname, "kind": kind, "family": family_of(page.path), "groups": [], "pages": [],
            "headers": [], "supports": [], "forms": [], "dtypes": [], "host_of": [], "aliases": []}


def _merge(e: dict, page: Page, forms: list[str]) -> None:
    for field, value in (("groups", group_of(page.path)), ("pages", page.path), ("headers", page.header)):
        if value and value not in e[field]:
            e[field].append(value)
    e["supports"].append(page.support)
    e["forms"] += [f for f in forms if f not in e["forms"]]
    e["dtypes"] = [t for t in pages.DTYPES if t in set(e["dtypes"]) | set(page.dtypes)]
    e.setdefault("titles", []).append(page.title)


def _finish(e: dict) -> None:
    sup = e.pop("supports")
    e["supported_950"] = YES if YES in sup else NO if sup and all(s == NO for s in sup) else NOT_STATED
    if not e["dtypes"]:
        e["dtypes"] = _register_dtypes(e["forms"])
    e["header"] = e["headers"][0] if e["headers"] else None
    if len(e["headers"]) <= 1:
        e.pop("headers")
    e.pop("titles", None)
    e["pages"].sort()
    e["groups"].sort()
    e["host_of"].sort()
    e["aliases"] = sorted(set(e["aliases"]))


def _register_dtypes(forms: list[str]) -> list[str]:
    """The element types of the C API's register operands (``vector_half`` -> half; the mask register
    ``vector_bool`` is not an element type), for pages that state no dtypes in words."""
    found = {m for f in forms for m in re.findall(r"\bvector_(\w+)", f)}
    return [t for t in pages.DTYPES if t in found and t != "bool"]


def _tie_host_helpers(entries: list[dict]) -> None:
    """A host helper serves the kernel API(s) of its folder whose name it contains (the longest such
    name; ``GetLayerNormGradBetaMaxMinTmpSize`` -> ``LayerNormGradBeta``), and those its page's title
    names (``SoftMax/SimpleSoftMax Tiling``)."""
    kernels = [e for e in entries if e["kind"] not in ("host", "macro") and e["family"].startswith(HIGH_LEVEL)]
    for h in (e for e in entries if e["kind"] == "host"):
        bare = names.last(h["name"]).lower()
        near = [k for k in kernels if set(k["groups"]) & set(h["groups"])] or \
               [k for k in kernels if k["family"] == h["family"]]
        hits = [k for k in near if names.last(k["name"]).lower() in bare]
        if hits:
            best = max(len(names.last(k["name"])) for k in hits)
            h["host_of"] += [k["name"] for k in hits if len(names.last(k["name"])) == best]
        titled = set(re.findall(r"[A-Za-z]\w*", " ".join(h.get("titles", []))))
        h["host_of"] += [k["name"] for k in near if names.last(k["name"]) in titled and k["name"] not in h["host_of"]]


def _tiling_structs(entries: list[dict]) -> list[dict]:
    """The tiling structs the host helpers fill (``optiling::SoftMaxTiling``), each an entry of its own
    tied to the APIs whose helpers name it; spelled ``AscendC::tiling::X`` / ``optiling::X`` / ``X``."""
    out: dict[tuple[str, str], dict] = {}
    for h in (e for e in entries if e["kind"] == "host"):
        for t in sorted({m for f in h["forms"] for m in _TILING_TYPE.findall(f)}):
            s = out.setdefault((h["family"], t), {
                "name": f"AscendC::tiling::{t}", "kind": "struct", "family": h["family"], "groups": [],
                "pages": [], "headers": [], "supports": [NOT_STATED], "forms": [], "dtypes": [], "host_of": [],
                "aliases": [f"optiling::{t}", t]})
            s["groups"] += [g for g in h["groups"] if g not in s["groups"]]
            s["pages"] += [p for p in h["pages"] if p not in s["pages"]]
            s["host_of"] += [a for a in h["host_of"] if a not in s["host_of"]]
    return list(out.values())


def index_entries(listed: list[tuple[str, str]], have: list[dict], present: set[str]) -> list[dict]:
    """Entries for what an index lists (``(title, path)``, path relative to the reference root) but the
    reference copy has no page for (the cube, communication and convolution chapters): named from the
    title's first identifier, so a source that calls them learns they are catalogued and why not in scope."""
    known = {(e["family"], e["name"]) for e in have}
    out: dict[tuple[str, str], dict] = {}
    for title, path in listed:
        ident = re.search(r"[A-Za-z_]\w*", title)
        if path in present or ident is None or path.count("/") < 1:
            continue
        qname, _ = names.qualify(path, ident.group(0), "function")
        fam = family_of(path)
        if (fam, qname) in known:
            continue
        e = out.setdefault((fam, qname), {
            "name": qname, "kind": "listed", "family": fam, "groups": [], "pages": [], "headers": [],
            "supports": [NOT_STATED], "forms": [], "dtypes": [], "host_of": [], "aliases": []})
        if group_of(path) not in e["groups"]:
            e["groups"].append(group_of(path))
        e["pages"].append(path)
    return list(out.values())


def out_of_scope_reason(e: dict) -> str | None:
    """Why an entry is outside the emulator's scope (None: in scope). Host helpers and tiling structs
    follow the APIs they serve."""
    if e["supported_950"] == NO:
        return NOT_ON_950
    text = " ".join([e["name"], *e["pages"]])
    for reason, mark in OUT_OF_SCOPE_MARKS:
        if mark.search(text):
            return reason
    return NOT_COPIED if e["kind"] == "listed" else None


def _judge(e: dict, entries: list[dict]) -> None:
    reason = out_of_scope_reason(e)
    if reason is None and e["kind"] in ("host", "struct") and e["host_of"]:
        served = [x for x in entries if x["name"] in e["host_of"] and x["family"] == e["family"]]
        verdicts = [out_of_scope_reason(x) for x in served]
        if verdicts and all(v is not None for v in verdicts):
            reason = verdicts[0]
    e["in_scope"] = reason is None
    e["out_of_scope"] = reason
