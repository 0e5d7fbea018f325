"""The catalog against what the toolkit implements: per family, the in-scope APIs, which are implemented
(with the forms that cover them), which are missing, and how many are out of scope (``migrate-check api``).
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from . import names
from .lookup import Catalog

#: declarations of our headers that are machinery, not API (``ASC_API``, ``__ubuf__`` ...)
_INTERNAL = re.compile(r"^(ASC_|__|acl|GM_ADDR$)|::(value_type|PrimType|adopt)$")


def implemented_index(implemented: dict[str, list[str]]) -> dict[str, list[str]]:
    """The implemented names by lookup key, their forms merged."""
    out: dict[str, list[str]] = {}
    for name, forms in implemented.items():
        have = out.setdefault(names.key(name), [])
        have += [f for f in forms if f not in have]
    return out


def forms_of(entry: dict, index: dict[str, list[str]], owners: Catalog | None = None) -> list[str]:
    """The implemented forms of a catalog entry (empty: not implemented). A C++ name two families
    document (``AscendC::Exp`` of the basic and of the high-level API) is credited to the entry a lookup
    prefers (``owners``): the implementation cannot tell which family's forms it provides."""
    out: list[str] = []
    for n in (entry["name"], *entry.get("aliases", ())):
        k = names.key(n)
        owner = owners is None or _ident(owners.by_key[k][0]) == _ident(entry)
        out += [f for f in index.get(k, ()) if f not in out and _credited(f, entry, owner)]
    return out


_PAGE_TAG = re.compile(r" \[([^\]]+)\]$")


def _credited(form: str, entry: dict, owner: bool) -> bool:
    """Whether a form counts for the entry: a form that names its page (``... [高阶API/数学计算/Exp接口/Exp.md]``)
    counts for the family of that page; an untagged one for the entry the lookup prefers."""
    tag = _PAGE_TAG.search(form)
    if tag is None:
        return owner
    return tag[1].startswith(entry["family"] + "/")


def _ident(e: dict) -> tuple[str, str]:
    return e["family"], e["name"]


def coverage(entries: Iterable[dict], implemented: dict[str, list[str]], catalog: Iterable[dict] | None = None) -> dict:
    """The report: totals, then per family (sorted) ``in_scope``, ``implemented``, ``missing`` (names),
    ``out_of_scope`` (count and reasons) and ``implemented_apis`` (name, forms, documented form count);
    ``not_catalogued``: API-looking names the toolkit declares that the whole ``catalog`` (default: the
    reported entries) does not know."""
    entries = list(entries)
    catalog = entries if catalog is None else list(catalog)
    owners = Catalog(catalog)
    index = implemented_index(implemented)
    families = []
    for fam in sorted({e["family"] for e in entries}):
        es = [e for e in entries if e["family"] == fam]
        inside = [e for e in es if e["in_scope"]]
        done = [(e, forms_of(e, index, owners)) for e in inside]
        apis = [{"name": e["name"], "kind": e["kind"], "forms": f, "documented_forms": len(e["forms"])}
                for e, f in done if f]
        families.append({
            "family": fam, "in_scope": len(inside), "implemented": len(apis),
            "missing": sorted(e["name"] for e, f in done if not f),
            "out_of_scope": len(es) - len(inside),
            "out_of_scope_reasons": dict(sorted(Counter(e["out_of_scope"] for e in es if not e["in_scope"]).items())),
            "implemented_apis": apis})
    known = set(owners.by_key)
    extra = sorted(n for n in implemented if names.key(n) not in known and not _INTERNAL.search(names.key(n)))
    return {"in_scope": sum(f["in_scope"] for f in families),
            "implemented": sum(f["implemented"] for f in families),
            "missing": sum(len(f["missing"]) for f in families),
            "out_of_scope": sum(f["out_of_scope"] for f in families),
            "families": families, "not_catalogued": extra}
