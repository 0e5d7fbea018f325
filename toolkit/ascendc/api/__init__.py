"""One declarative definition per Ascend C API: the table that the C++ headers are generated from, the
``.asc`` bridge resolves names through, and the tests check the Python functions and the opcode costs
against.

Layout: one definitions module per family (``reg_compute``, ``reg_datamove``, ``reg_mask``, ``membase``,
``datamove`` (+ sync, system), ``resource``, ``tensor``, ``capi``, ``tools``; structs and non-call names in
``names``). Each family generates one header, ``toolkit/asc/include/asc/gen/<family header>``
(``python -m toolkit.asc.apigen`` rewrites them; ``tests/test_api_definitions.py`` fails when one is not
current), so people adding APIs to different families do not touch the same files.

An entry (``spec.api``): the C++ qualified name (``AscendC::Reg::Add``), its family, the one Python semantic
function (the same object the Python kernels call), its forms (overloads), the opcodes a call records, the
documented dtypes the emulator runs, and the reference page (relative to the vendor reference root, read by
nobody at run time). Each form lists its template parameters and arguments in C++ order, by kind:

=========== ============================= ============================================ =====================
kind        C++ parameter                 what the generated wrapper sends             the Python function gets
=========== ============================= ============================================ =====================
reg         ``R& x`` (R deduced)          its register handle                          the RegTensor
mask        ``MaskReg& x``                its register handle                          the MaskReg
ureg        ``UnalignRegForLoad& x``      its handle (``.ld`` / ``.st`` of UnalignReg) the UnalignReg object
areg        ``const AddrReg& x``          its handle                                   the AddrReg
ub          ``U* x``                      UB byte address + element type               a UbPtr
ubref       ``U*& x``                     the same; the new address is written back    a UbPtr it may move
gm          ``__gm__ T* x``               GM address + element type                    a GmPtr
scalar      ``int32_t x`` / ``S x``       the value, cast to ``cast`` (element type)   an int / float / bool
sref        ``uint32_t& x``               the value; the new value is written back     a CScalar box it updates
local       ``const LocalTensor<T>& x``   address, count, position, queue slot         a LocalTensor
global      ``const GlobalTensor<T>& x``  GM address + element count                   a GlobalTensor
struct      ``const DataCopyParams& x``   struct id + fields                           the Python dataclass
u64arr      ``const uint64_t* mask``      two 64-bit words                             a list of two ints
earg        ``RoundMode x``               enum id + value                              the Python enum member
handle      ``Q& x``                      the emulator object's handle                 the TQue / TBuf
ignored     ``uint32_t = 0``              nothing                                      nothing
=========== ============================= ============================================ =====================

Template parameters: ``type`` (an element type; nothing while it is ``void``), ``elem`` (void means the
register's value_type), ``enum``, ``trait`` (a CastTrait), ``value`` (a non-type integral parameter,
``uint8_t modeId``: an int) and ``named`` (a value a MemBase API takes as a keyword argument of its name:
``bool isSetMask``, a config field) are sent, in declaration order, and reach a ``TemplateApi`` (or a
``toolkit.ascendc.tvalues.ValueTemplate``, which keeps ints as ints) as ``api[targs](...)`` (plain
functions and methods get them as leading positional arguments; a ``MemBaseApi`` binds them as keywords);
``deduced``, ``hidden`` (a config the emulator does not need) and ``notreg`` (a scalar type that must not
be a register) are not sent. A member family's methods also send ``*this`` first (the Python method is then
called on it). Every generated wrapper makes one ``__asc::Call`` tagged with the API's stable id
(:func:`spec.stable_id` of its name) and the form's index, and ends in ``go()``: the one call path.

A form may be ``via`` another API (older names: ``Reg::DataCopy`` runs ``LoadAlign``/``StoreAlign``),
``native`` (a C++ body needing no emulator, e.g. ``GetSubBlockIdx``) or ``hand`` (written by hand in the
header named, with the reason: constexpr helpers, variadic printf, tensor address arithmetic).

How to add an API on an existing opcode: one entry in its family module (copy a neighbour), one semantic
function in ``toolkit/ascendc/<regbase|membase|...>`` exported by its package, one test; then
``python -m toolkit.asc.apigen``. A new opcode also adds its ``toolkit/machine/isa.py`` entry and its
``ascend950.toml`` cost. A new parameter struct is one ``names.STRUCTS`` entry + its Python dataclass; a new
enum one ``toolkit/asc/enums.py`` entry. A new family: a module here with ``FAMILY`` and ``APIS`` (found by
:data:`MODULES`), and its generated header included by the hand-written header of its layer
(``include/asc/reg.h``, ``dma.h``, ``membase.h`` ...).

Ids: APIs, structs and enums are identified on the bridge by :func:`spec.stable_id` of their qualified name
(FNV-1a, 31 bits): no central counter, so parallel additions never renumber each other; a test checks they
are unique. Queries for ``migrate-check api``: :func:`implemented` (names, forms and how each runs) and
:func:`is_implemented`.

The tests: ``tests/test_api_definitions.py`` (headers current, every public header name defined, Python
exports and signatures, opcodes and costs, structs, ids), ``tests/test_api_probe.py`` (every emulated Reg and
MemBase form runs with arguments of its kinds and records only its declared opcodes) and
``tests/test_api_forms_compile.py`` (every form, hand-written ones included, compiles as declared).
"""
from __future__ import annotations

import importlib
import pkgutil
from types import MappingProxyType

from . import names
from .spec import ApiDef, Family, Form, NameDef, StructDef, stable_id

#: modules of this package that hold no family
_NOT_FAMILIES = {"spec", "signature", "checks", "names"}
#: the family modules (every other module here: a new family needs no edit of this file), by name
MODULES = tuple(importlib.import_module(f"{__name__}.{m.name}") for m in sorted(pkgutil.iter_modules(__path__),
                                                                                key=lambda m: m.name)
                if m.name not in _NOT_FAMILIES)

DEFINITIONS: MappingProxyType = MappingProxyType({d.name: d for m in MODULES for d in m.APIS})
BY_ID: MappingProxyType = MappingProxyType({d.id: d for d in DEFINITIONS.values()})
STRUCTS: MappingProxyType = MappingProxyType({s.name: s for s in names.STRUCTS})
#: every C++ name of a struct (aliases included) -> its definition
STRUCT_NAMES: MappingProxyType = MappingProxyType(
    {n: s for s in names.STRUCTS for n in (s.name, *(f"{s.name.rsplit('::', 1)[0]}::{a}" for a in s.aliases))})
#: the non-call names: names.NAMES and a family module's own ``NAMES`` (the C API register types)
NAMES: MappingProxyType = MappingProxyType({n.name: n for n in (*names.NAMES, *(x for m in MODULES
                                                                              for x in getattr(m, "NAMES", ())))})


def families() -> list[Family]:
    """Every family, in header order (a module's families in the order its entries use them)."""
    out: list[Family] = []
    for d in DEFINITIONS.values():
        if d.family not in out:
            out.append(d.family)
    return out


def lookup(name: str) -> ApiDef | None:
    """The definition of a C++ qualified name (``AscendC::Reg::Add``), or None."""
    return DEFINITIONS.get(name)


def implemented() -> dict[str, dict]:
    """For ``migrate-check api``: every defined API name -> its family, page, and its forms (overloads) with
    how each runs (``emulated``, ``via <API>``, ``native`` or ``hand``) and its C++ signature."""
    from .signature import describe
    out = {}
    for d in DEFINITIONS.values():
        out[d.name] = {"family": d.family.name, "doc": d.doc, "opcodes": list(d.opcodes), "dtypes": list(d.dtypes),
                       "forms": [{"signature": describe(d, f), "runs": _runs(f)} for f in d.forms]}
    return out


def _runs(f: Form) -> str:
    if f.via:
        return f"via {f.via}"
    if f.native is not None:
        return "native"
    if f.hand is not None:
        return "hand"
    return "emulated"


def is_implemented(name: str) -> bool:
    """Whether a C++ name (API, struct or type) is defined here."""
    return name in DEFINITIONS or name in STRUCT_NAMES or name in NAMES


__all__ = [
    "BY_ID",
    "DEFINITIONS",
    "MODULES",
    "NAMES",
    "STRUCTS",
    "STRUCT_NAMES",
    "ApiDef",
    "Family",
    "Form",
    "NameDef",
    "StructDef",
    "families",
    "implemented",
    "is_implemented",
    "lookup",
    "stable_id",
]
