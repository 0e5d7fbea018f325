"""Cross-checks of the API definitions against the code they describe: each returns a list of problems
(empty when everything agrees). ``tests/test_api_definitions.py`` runs them all."""
from __future__ import annotations

import dataclasses
import inspect
from enum import Enum
from types import ModuleType
from typing import Any, Callable

from toolkit.ascendc.highlevel.math_common import HighLevelApi
from toolkit.ascendc.membase.elementwise import MemBaseApi
from toolkit.ascendc.regbase.template import TemplateApi
from toolkit.machine import isa, load_machine

from . import DEFINITIONS, MODULES, NAMES, STRUCTS, lookup
from .spec import ARG_KINDS, SENT_TPARAMS, TYPE, ApiDef, Form

#: registered opcodes no API definition names, and why
UNCLAIMED_OPCODES = {"RV_VLOOP": "a hardware-loop entry, recorded by the loop guard of a VF body"}


def _target(fn: Any) -> tuple[Callable, int]:
    """(the Python callable the bridge ends in, leading parameters the bridge fills itself)."""
    if isinstance(fn, TemplateApi):
        return fn.impl, 1                    # impl(targs, *args)
    if isinstance(fn, (MemBaseApi, HighLevelApi)):
        return fn.fn, 0
    return fn, 0


def _counts(d: ApiDef, f: Form, fn: Any) -> range:
    """How many positional arguments the Python function receives for this form (void types send nothing)."""
    nargs = len(f.sent_args)
    sent = [p for p in f.tparams if p.kind in SENT_TPARAMS]
    optional = sum(1 for p in sent if p.kind == TYPE and p.default == "void")
    if isinstance(fn, (TemplateApi, MemBaseApi, HighLevelApi)):
        return range(nargs, nargs + 1)       # template arguments are bound apart (api[targs])
    return range(nargs + len(sent) - optional, nargs + len(sent) + 1)


def _accepts(fn: Callable, skip: int, n: int, member: bool) -> str | None:
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return None
    dummies = [object()] * (skip + n + (1 if member else 0))
    try:
        sig.bind(*dummies)
    except TypeError as err:
        return str(err)
    return None


def python_problems() -> list[str]:
    """Every API's semantic function is exported by its family's Python namespace under its name, and takes
    every emulated form's arguments (a ``via`` form: its target's function)."""
    out = []
    for d in DEFINITIONS.values():
        ns = d.family.py
        if d.py is not None and ns is not None:
            attr = d.py.__name__ if d.family.member else d.short
            if getattr(ns, attr, None) is not d.py:
                out.append(f"{d.name}: {d.family.py_name}.{attr} is not its semantic function")
        for k, f in enumerate(d.forms):
            out += _form_problems(d, k, f)
    return out


def _form_problems(d: ApiDef, k: int, f: Form) -> list[str]:
    where = f"{d.name} form {k}"
    out = [f"{where}: unknown argument kind {a.kind}" for a in f.args if a.kind not in ARG_KINDS]
    if f.via:
        target = lookup(f.via)
        if target is None:
            return out + [f"{where}: via {f.via}, which has no definition"]
        d, fn = target, target.py
    elif not f.emulated:
        return out
    else:
        fn = d.py
    if fn is None:
        return out + [f"{where}: an emulated form of an API without a semantic function"]
    call, skip = _target(fn)
    for n in _counts(d, f, fn):
        err = _accepts(call, skip, n, d.family.member)
        if err:
            out.append(f"{where}: {getattr(call, '__qualname__', call)} does not take {n} argument(s): {err}")
    return out


def opcode_problems(machine=None) -> list[str]:
    """Every opcode a definition names is in the opcode registry and costed on a fitting unit; every
    registered opcode is named by a definition (or listed in :data:`UNCLAIMED_OPCODES`)."""
    machine = machine or load_machine()
    out, named = [], set()
    for d in DEFINITIONS.values():
        for op in d.opcodes:
            named.add(op)
            kind = isa.REGISTRY.get(op)
            cost = machine.instructions.get(op)
            if kind is None:
                out.append(f"{d.name}: opcode {op} is not in toolkit/machine/isa.py")
            elif cost is None:
                out.append(f"{d.name}: opcode {op} has no cost entry in machine model {machine.name}")
            elif cost.unit not in isa.KIND_UNITS[kind]:
                out.append(f"{d.name}: opcode {op} ({kind}) is costed on unit {cost.unit}")
    for op in isa.REGISTRY:
        if op not in named and op not in UNCLAIMED_OPCODES:
            out.append(f"opcode {op} is registered but no API definition records it")
    return out


def _default(text: str) -> Any:
    if text in ("true", "false"):
        return text == "true"
    try:
        return int(text)
    except ValueError:
        pass
    return None                              # T(0): a template field, compared as 0 below


def struct_problems() -> list[str]:
    """Each parameter struct's Python class has the C++ fields, in order, with the same defaults."""
    out = []
    for s in STRUCTS.values():
        fields = dataclasses.fields(s.py)
        names = [f.name for f in fields]
        if names != [f.name for f in s.fields]:
            out.append(f"{s.name}: Python fields {names} != C++ fields {[f.name for f in s.fields]}")
            continue
        for py_field, c_field in zip(fields, s.fields):
            if isinstance(py_field.default, Enum):   # an enumerator default (AscendC::SortType::RADIX_SORT)
                if c_field.default.rsplit("::", 1)[-1] != py_field.default.name:
                    out.append(f"{s.name}.{c_field.name}: Python default {py_field.default!r} != C++ {c_field.default}")
                continue
            want = _default(c_field.default)
            if py_field.default != (0 if want is None else want):
                out.append(f"{s.name}.{c_field.name}: Python default {py_field.default!r} != C++ {c_field.default}")
    return out


def name_problems() -> list[str]:
    """Handle and value types with a Python counterpart: it exists (a class)."""
    return [f"{n.name}: Python counterpart {n.py!r} is not a class" for n in NAMES.values()
            if n.py is not None and not inspect.isclass(n.py)]


def id_problems() -> list[str]:
    """Stable ids are unique over APIs and structs (they share the id space of the bridge), and each API
    name has one definition."""
    seen: dict[int, str] = {}
    out = []
    for name, obj in [*DEFINITIONS.items(), *STRUCTS.items()]:
        other = seen.setdefault(obj.id, name)
        if other != name:
            out.append(f"{name} and {other} have the same stable id {obj.id}")
    # one definition per name: a second entry of a name (another family module's) would silently replace
    # the first; overloads of one name are forms of one entry
    owner: dict[str, str] = {}
    for module in MODULES:
        for d in module.APIS:
            first = owner.setdefault(d.name, module.__name__)
            if first != module.__name__ or sum(x.name == d.name for x in module.APIS) > 1:
                out.append(f"{d.name} is defined twice ({first}, {module.__name__}): make its forms one entry")
    return sorted(set(out))


def namespace_exports(module: ModuleType, also: frozenset = frozenset()) -> list[str]:
    """Public callables of a Python API namespace that no definition, struct or name carries (``also``:
    further known objects, e.g. the enums)."""
    known = {d.py for d in DEFINITIONS.values()} | {s.py for s in STRUCTS.values()} | \
        {n.py for n in NAMES.values()} | set(also)
    return sorted(n for n in getattr(module, "__all__", ()) if n[:1].isupper() and callable(getattr(module, n))
                  and getattr(module, n) not in known)
