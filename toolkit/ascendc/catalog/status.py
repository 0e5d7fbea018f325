"""Which catalogued names the toolkit implements, and in which forms: the one question ``migrate-check api``
asks (:func:`implemented_names`).

Provisional: until the toolkit has one declarative table of its API definitions, the answer is read off
what the two routes expose today:

- the ``.asc`` route: the functions, members and types our C++ headers declare (:mod:`.headers`), a form
  counting only when every bridge name its body calls resolves to an implementation (``resolve``: the
  bridge's own resolver, passed in by the caller since the bridge sits above this layer);
- the Python kernel API: ``toolkit.ascendc.regbase`` (``AscendC::Reg``), ``membase``, ``dma``, ``sync``,
  ``pipe`` and ``tensor`` (``AscendC``).

Forms are labelled by route: ``asc: <signature>`` and ``python: <module>.<name>``.
"""
from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable
from pathlib import Path

from . import names
from .headers import Decl, Scan, scan_headers

ASC, PYTHON = "asc", "python"


def implemented_names(include_dir: Path | None = None, cxx: list[str] | None = None,
                      resolve: Callable[[str], bool] | None = None) -> dict[str, list[str]]:
    """Every name the toolkit implements (spelled as the toolkit declares it, e.g. ``AscendC::Reg::Add``,
    ``asc_init``) -> its forms, labelled by route. Without ``include_dir`` (and a compiler ``cxx``) only the
    Python kernel API is asked."""
    out: dict[str, list[str]] = {}
    if include_dir is not None:
        _add(out, header_names(scan_headers(Path(include_dir), cxx or ["g++"]), resolve))
    _add(out, python_names())
    return out


def _add(out: dict[str, list[str]], more: dict[str, list[str]]) -> None:
    for name, forms in more.items():
        have = out.setdefault(name, [])
        have += [f for f in forms if f not in have]


def header_names(scan: Scan, resolve: Callable[[str], bool] | None = None) -> dict[str, list[str]]:
    """The ``.asc`` route's names from a header scan; members of a base class count for the derived one."""
    members: dict[str, list[Decl]] = {}
    out: dict[str, list[str]] = {}
    for d in scan.decls:
        if _internal(d) or (resolve is not None and not all(resolve(b) for b in d.bridge)):
            continue
        name = _api_name(d)
        if name is None:
            continue
        out.setdefault(name, []).append(f"{ASC}: {d.form}")
        if d.kind != "class" and d.scope:
            members.setdefault(d.scope, []).append(d)
    for cls in scan.bases:
        for base in _all_bases(cls, scan.bases):
            for d in members.get(base, []):
                if d.name != names.last(base):
                    out.setdefault(f"{cls}::{d.name}", []).append(f"{ASC}: {d.form}")
    for m in scan.macros:
        out.setdefault(m, []).append(f"{ASC}: #define {m}")
    return out


def _internal(d: Decl) -> bool:
    parts = [*d.scope.split("::"), d.name] if d.scope else [d.name]
    return any(p.startswith("__") for p in parts) or d.name.startswith("~") or d.name.startswith("operator=")


def _api_name(d: Decl) -> str | None:
    """The API a declaration stands for: a constructor stands for its class."""
    if d.scope and d.name == d.scope.rsplit("::", 1)[-1]:
        return d.scope
    return d.qualified


def _all_bases(cls: str, bases: dict[str, list[str]], seen: frozenset = frozenset()) -> Iterable[str]:
    scope = cls.rsplit("::", 1)[0] if "::" in cls else ""
    for b in bases.get(cls, []):
        full = f"{scope}::{b}" if scope and f"{scope}::{b}" in bases else b
        if full not in seen:
            yield full
            yield from _all_bases(full, bases, seen | {full})


def python_names() -> dict[str, list[str]]:
    """The Python kernel API's names (see the module docstring)."""
    from toolkit.ascendc import dma, membase, pipe, regbase, sync, tensor
    out: dict[str, list[str]] = {}
    for ns, module, exported in ((names.REG_NS, regbase, regbase.__all__), (names.ASCENDC_NS, membase, membase.__all__)):
        for n in exported:
            _python_entry(out, ns, module, n, getattr(module, n))
    for module in (dma, sync, pipe, tensor):
        for n, obj in vars(module).items():
            if n[:1].isupper() and getattr(obj, "__module__", None) == module.__name__:
                _python_entry(out, names.ASCENDC_NS, module, n, obj)
    return out


def _python_entry(out: dict, ns: str, module, n: str, obj) -> None:
    if n.startswith("_") or not (callable(obj) or inspect.isclass(obj)):
        return
    qual = n if n.startswith("asc_") else f"{ns}::{n}"
    out.setdefault(qual, []).append(f"{PYTHON}: {module.__name__}.{n}")
    if inspect.isclass(obj):
        for m, fn in vars(obj).items():
            if m[:1].isupper() and callable(fn):
                out.setdefault(f"{qual}::{m}", []).append(f"{PYTHON}: {module.__name__}.{n}.{m}")
