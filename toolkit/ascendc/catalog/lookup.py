"""Find the catalog entry of a name as a kernel source (or the ``.asc`` bridge) spells it, and say what an
unimplemented name is: catalogued but not yet emulated, catalogued but out of scope, or not an Ascend C
API at all.

    >>> lookup("MicroAPI::Add")["name"]
    'AscendC::Reg::Add'
    >>> unsupported_api_message("AscendC::Reg::Histograms", "k.asc", 12)
    'UNSUPPORTED_API AscendC::Reg::Histograms k.asc:12 (catalogued, not yet emulated)'
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from . import names, store

CATALOGUED_NOT_EMULATED = "catalogued, not yet emulated"
NOT_CATALOGUED = "not in the Ascend C API catalog"

#: the bridge's API prefixes (toolkit/asc/bridge.py resolve) -> the C++ scope they stand for
BRIDGE_SCOPES = {"Reg": "AscendC::Reg::", "MB": "AscendC::", "DataCopy": "AscendC::", "SYNC": "AscendC::",
                 "SYS": "AscendC::", "PIPE": "AscendC::TPipe::", "CAPI": "", "LocalTensor": "AscendC::LocalTensor::",
                 "GlobalTensor": "AscendC::GlobalTensor::", "": ""}


class Catalog:
    """The entries indexed by lookup key (:func:`names.key` of the name and its aliases) and by bare name."""

    def __init__(self, entries: Iterable[dict]):
        self.entries = tuple(entries)
        self.by_key: dict[str, list[dict]] = {}
        self.by_last: dict[str, list[dict]] = {}
        for e in self.entries:
            for k in {names.key(n) for n in (e["name"], *e.get("aliases", ()))}:
                self.by_key.setdefault(k, []).append(e)
            self.by_last.setdefault(names.last(e["name"]), []).append(e)
        for table in (self.by_key, self.by_last):
            for k in table:
                table[k].sort(key=_preference)

    def all(self, name: str) -> list[dict]:
        """Every entry a spelling may mean, best first: the exact key; for an unqualified name with no
        entry of its own (a member call ``que.AllocTensor`` reaches the bridge as ``.AllocTensor``), the
        entries of that bare name in any scope."""
        k = names.key(name)
        exact = self.by_key.get(k)
        if exact:
            return list(exact)
        if "::" not in k:
            return list(self.by_last.get(k, ()))
        return []

    def lookup(self, name: str) -> dict | None:
        found = self.all(name)
        return found[0] if found else None

    def describe(self, name: str) -> str:
        """Why a name a source uses is not run: catalogued and in scope (not yet emulated), catalogued
        but out of scope (and why), or not catalogued."""
        found = self.all(name)
        if not found:
            return NOT_CATALOGUED
        best = found[0]
        if best["in_scope"]:
            return CATALOGUED_NOT_EMULATED
        return f"catalogued, out of scope: {best['out_of_scope']}"


def _preference(e: dict) -> tuple:
    """In-scope entries first, then those Ascend 950 supports, then the basic API before the others."""
    return (not e["in_scope"], e["supported_950"] != "yes", not e["family"].startswith("基础API"), e["name"])


@lru_cache(maxsize=1)
def catalog() -> Catalog:
    """The committed catalog, indexed (loaded once)."""
    return Catalog(store.load())


def lookup(name: str) -> dict | None:
    """The catalog entry a spelling means (``Reg::Add``, ``MicroAPI::Add``, ``AscendC::Reg::Add<float>``,
    ``asc_add``, ``optiling::SoftMaxTiling``), or None."""
    return catalog().lookup(name)


def api_of_bridge_name(bridge_name: str) -> str:
    """The C++ name a bridge API name stands for (``Reg.Add`` -> ``AscendC::Reg::Add``, ``MB.Add`` ->
    ``AscendC::Add``, ``CAPI.asc_add`` -> ``asc_add``, ``.AllocTensor`` -> ``AllocTensor``)."""
    prefix, dot, rest = bridge_name.partition(".")
    if not dot:
        return bridge_name
    return BRIDGE_SCOPES.get(prefix, "") + rest


def unsupported_api_message(name: str, file: str, line: int | str) -> str:
    """The one-line diagnostic for a name a source uses that the emulator does not run:
    ``UNSUPPORTED_API X file:line (catalogued, not yet emulated)``, or ``(not in the Ascend C API catalog)``,
    or ``(catalogued, out of scope: cube)``. ``X`` is the catalog's spelling when the name is catalogued."""
    entry = catalog().lookup(name)
    shown = entry["name"] if entry is not None else name
    return f"UNSUPPORTED_API {shown} {file}:{line} ({catalog().describe(name)})"


_Q = "[\u2018'`\"]"          # the compiler quotes names with typographic or ASCII quotes
_Q_END = "[\u2019'`\"]"
_COMPILER_ERRORS = (
    (re.compile(rf"{_Q}([\w:]+){_Q_END} is not a member of {_Q}([\w:]+){_Q_END}"), lambda m: f"{m[2]}::{m[1]}", False),
    (re.compile(rf"{_Q}(?:class|struct) ([\w:]+)(?:<.*?>)?{_Q_END} has no member named {_Q}(\w+){_Q_END}"),
     lambda m: f"{m[1]}::{m[2]}", False),
    (re.compile(rf"no member named {_Q}(\w+){_Q_END} in (?:namespace )?{_Q}([\w:]+)(?:<.*?>)?{_Q_END}"),
     lambda m: f"{m[2]}::{m[1]}", False),                                                   # clang
    (re.compile(rf"{_Q}([\w:]+){_Q_END} was not declared in this scope"), lambda m: m[1], False),
    (re.compile(rf"use of undeclared identifier {_Q}([\w:]+){_Q_END}"), lambda m: m[1], False),   # clang
    (re.compile(rf"no matching (?:member )?function for call to {_Q}(.*)"), lambda m: _callee(m[1]), True),
)


def _callee(text: str) -> str:
    """``AscendC::TQue<VECIN, 1>::AllocTensor()`` -> ``AscendC::TQue::AllocTensor`` (the name before
    the call's own parenthesis, template arguments dropped)."""
    depth = 0
    for i, c in enumerate(text):
        depth += {"<": 1, ">": -1}.get(c, 0)
        if c == "(" and depth <= 0:
            return names.key_spelling(text[:i])
    return names.key_spelling(text)


def api_in_compiler_error(message: str) -> tuple[str, bool] | None:
    """The API name a compiler error is about, and whether it is a missing *form* (no overload matches)
    rather than a missing name: ``'Histograms' is not a member of 'AscendC::Reg'`` ->
    (``AscendC::Reg::Histograms``, False); ``no matching function for call to 'Gather<float>(...)'`` ->
    (``Gather``, True). None for other errors."""
    for pattern, name, form in _COMPILER_ERRORS:
        m = pattern.search(message)
        if m:
            return name(m), form
    return None
