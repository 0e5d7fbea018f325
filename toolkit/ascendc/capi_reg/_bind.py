"""How a C API register function is made from its Reg API function: the same semantic function with the
template arguments the C name fixes (``asc_eq`` is ``Reg::Compare<CMPMODE::EQ>``)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any


def bind(name: str, api: Any, *targs: Any, note: str = "") -> Callable:
    """``name(*args)`` = ``api[targs](*args)`` (``api`` itself when the C name fixes nothing)."""
    call = api[targs] if targs else api

    def capi(*args: Any) -> Any:
        return call(*args)

    capi.__name__ = capi.__qualname__ = name
    fixed = ", ".join(getattr(a, "name", None) or getattr(a, "__name__", str(a)) for a in targs)
    capi.__doc__ = f"``{name}``: Reg::{api.__name__}" + (f"<{fixed}>" if fixed else "") + (f"; {note}" if note else "")
    return capi


def export(namespace: dict, table: list[tuple]) -> list[str]:
    """Bind every ``(name, api, *targs)`` row into ``namespace``; the names, for ``__all__``."""
    names = []
    for name, api, *targs in table:
        namespace[name] = bind(name, api, *targs)
        names.append(name)
    return names
