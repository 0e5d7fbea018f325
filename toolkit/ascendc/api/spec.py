"""The data model of the API definitions: a family, an API with its forms (overloads), a form's template
parameters and arguments by kind, parameter structs and the non-call names (types, constants).

Kinds are what the C++ wrapper encodes and what the Python function receives (see the package docstring
for the table). Constructors below (``reg("dst")``, ``tenum("mode", "MaskMergeMode", "ZEROING")`` ...)
keep one definition to a few lines.
"""
from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType
from typing import Any

# -- argument kinds ---------------------------------------------------------------------------------
REG = "reg"            #: a RegTensor (by reference)
MASK = "mask"          #: a MaskReg (by reference)
UREG = "ureg"          #: an UnalignRegForLoad / UnalignRegForStore (or one part of an UnalignReg)
AREG = "areg"          #: an AddrReg
UB = "ub"              #: a __ubuf__ pointer (its UB byte address and element type)
UBREF = "ubref"        #: a __ubuf__ pointer by reference: the API moves it (post-update), C++ gets it back
GM = "gm"              #: a __gm__ pointer
SCALAR = "scalar"      #: a scalar by value (converted to ``cast`` first when given)
SREF = "sref"          #: a scalar by reference: the API updates it, C++ gets the new value back
LOCAL = "local"        #: a LocalTensor
GLOBAL = "global"      #: a GlobalTensor
STRUCT = "struct"      #: a parameter struct (fields by value)
U64ARR = "u64arr"      #: a uint64_t[2] bit mask
EARG = "earg"          #: an enum value passed as an argument (not a template argument)
HANDLE = "handle"      #: an emulator object of a handle class (TQue, TBuf ...)
IGNORED = "ignored"    #: accepted for source compatibility, not sent
SOUT = "sout"          #: a struct the API fills (``SoftMaxTiling& tiling``): not sent, filled from the result
ARG_KINDS = (REG, MASK, UREG, AREG, UB, UBREF, GM, SCALAR, SREF, LOCAL, GLOBAL, STRUCT, U64ARR, EARG, HANDLE,
             IGNORED, SOUT)
#: argument kinds the API writes back into the caller's variable
BY_REFERENCE = (UBREF, SREF)

# -- template parameter kinds ------------------------------------------------------------------------
TYPE = "type"          #: an element type (nothing is sent while it is void: the API takes it from a register)
ELEM = "elem"          #: an element type, void meaning the value_type of the register type ``of``
ENUM = "enum"          #: an enum value
TRAIT = "trait"        #: a CastTrait value
DEDUCED = "deduced"    #: a type the compiler deduces from an argument; not sent
HIDDEN = "hidden"      #: accepted for source compatibility, not sent
NOTREG = "notreg"      #: a deduced scalar type that must not be a register type (overload selection)
VALUE = "value"        #: an integer non-type template parameter (``int16_t offset``), sent as its value
NAMED = "named"        #: a non-type parameter a MemBase API needs by name (``bool isSetMask``, a config field):
                       #: sent with its name's id, it reaches the Python function as a keyword argument
SENT_TPARAMS = (TYPE, ELEM, ENUM, TRAIT, VALUE, NAMED)


@dataclass(frozen=True)
class TParam:
    kind: str
    name: str
    ctype: str = "class"           #: "class", or the enum / struct type of a non-type parameter
    default: str | None = None
    of: str | None = None          #: ELEM: the deduced register type
    send: str | None = None        #: NAMED: the C++ expression sent (default: the parameter itself)


@dataclass(frozen=True)
class Arg:
    kind: str
    name: str
    ctype: str                     #: the C++ parameter type as declared
    default: str | None = None
    cast: str | None = None        #: SCALAR: the C++ type the value is converted to before it is sent
    part: str = ""                 #: the member of the argument that is sent (``.ld`` of an UnalignReg)


@dataclass(frozen=True)
class Form:
    """One overload. ``via`` names another API whose Python function runs this form (an older name or an
    alias with the same arguments); ``native`` is the C++ body of a form that needs no emulator call;
    ``hand`` says where and why a form is written by hand (the generator then emits nothing for it)."""

    tparams: tuple[TParam, ...] = ()
    args: tuple[Arg, ...] = ()
    ret: str = "void"
    via: str | None = None
    native: str | None = None
    hand: str | None = None
    doc: str | None = None         #: the page of this form when it is not the API's page
    scalar_read: bool = False      #: a scalar read (counted for the VF parameters it feeds)
    const: bool = False            #: a const member function
    cpp_name: str | None = None    #: the C++ function name when it is not the API's short name (operators)
    into: str | None = None        #: an in-place form: the LocalTensor argument the Python result is assigned to

    @property
    def sent_args(self) -> tuple[Arg, ...]:
        return tuple(a for a in self.args if a.kind not in (IGNORED, SOUT))

    @property
    def emulated(self) -> bool:
        """Whether a call of this form goes through the emulator (not native, not hand-written)."""
        return self.native is None and self.hand is None


@dataclass(frozen=True)
class Family:
    """A group of APIs generated into one header. ``cpp`` is the C++ scope: a namespace, or a hand-written
    handle class (``member``) whose generated methods are included in its body. ``py`` is the Python
    namespace (module or class) that exports the semantic functions."""

    name: str
    cpp: str
    header: str
    py: Any
    member: bool = False
    self_kind: str = HANDLE        #: member families: how ``*this`` is sent (HANDLE, LOCAL or GLOBAL)
    doc_root: str = ""             #: doc pages of the family's APIs are relative to this folder

    @property
    def py_name(self) -> str:
        p = self.py
        return p.__name__ if isinstance(p, ModuleType) else f"{p.__module__}.{p.__qualname__}"


class _Qualified:
    """A definition named by its C++ qualified name: its last component and its stable id."""

    name: str

    @property
    def short(self) -> str:
        return self.name.rsplit("::", 1)[-1]

    @property
    def id(self) -> int:
        return stable_id(self.name)


@dataclass(frozen=True)
class ApiDef(_Qualified):
    name: str                      #: the C++ qualified name, e.g. ``AscendC::Reg::Add``
    family: Family
    py: Any                        #: the one semantic function (None: every form is via, native or hand)
    forms: tuple[Form, ...]
    opcodes: tuple[str, ...] = ()  #: the opcodes a call records (each in isa.REGISTRY, with a machine cost)
    dtypes: tuple[str, ...] = ()   #: documented element types (C++ spellings) that the emulator runs
    doc: str = ""                  #: the reference page, relative to the vendor reference root
    note: str = ""



@dataclass(frozen=True)
class Field:
    name: str
    ctype: str
    default: str
    expr: str | None = None        #: how the encoder reads it when the C++ member differs (``shape[0]``)
    aka: tuple[str, ...] = ()      #: other member names of the same storage (the reference spells it both ways)


@dataclass(frozen=True)
class StructDef(_Qualified):
    """A parameter struct: the C++ struct (fields, default and positional constructors), its bridge
    encoding and the Python class the bridge builds from the fields (same names, same order)."""

    name: str                      #: qualified C++ name
    py: Any
    fields: tuple[Field, ...]
    doc: str = ""
    template: str | None = None    #: a template struct's type parameter (``DataCopyPadExtParams<T>``)
    aliases: tuple[str, ...] = ()  #: other C++ names of the same struct
    required: int = -1             #: positional constructor: fields without a default argument (-1: all)
    hand: str | None = None        #: the C++ struct is written by hand there (only its encoder is generated)



@dataclass(frozen=True)
class NameDef:
    """A public name that is not a call: a handle or value type, a constant, a macro. ``hand`` says which
    header declares it; ``py`` is the Python counterpart where there is one."""

    name: str
    kind: str                      #: "handle", "type", "constant", "macro", "alias"
    hand: str
    py: Any = None
    doc: str = ""


def stable_id(name: str) -> int:
    """A 31-bit id of a qualified name (FNV-1a): the same in every build, needs no central counter, so
    definitions added in parallel never renumber each other (the test checks ids are unique)."""
    h = 0x811C9DC5
    for b in name.encode():
        h = ((h ^ b) * 0x01000193) & 0xFFFFFFFF
    return h & 0x7FFFFFFF


# -- constructors -------------------------------------------------------------------------------------
def ttype(name: str = "T", default: str | None = "void") -> TParam:
    return TParam(TYPE, name, "class", default)


def telem(name: str, of: str) -> TParam:
    return TParam(ELEM, name, "class", "void", of)


def tenum(name: str, enum: str, default: str | None = None) -> TParam:
    return TParam(ENUM, name, enum, None if default is None else f"{enum}::{default}")


def ttrait(name: str = "trait") -> TParam:
    """``const CastTrait& trait = castTrait`` (a reference, as the vendor's: any static trait object binds,
    a ``static const`` one included)."""
    return TParam(TRAIT, name, "const CastTrait&", "castTrait")


def tvalue(name: str, ctype: str = "int", default: str | None = None) -> TParam:
    return TParam(VALUE, name, ctype, default)


def tded(*names: str) -> tuple[TParam, ...]:
    return tuple(TParam(DEDUCED, n) for n in names)


def tdedv(name: str, ctype: str) -> TParam:
    """A deduced non-type template parameter (``const RegTrait& Tr`` of ``RegTensor<T, Tr>&``)."""
    return TParam(DEDUCED, name, ctype)


def tmode(default: str = "ZEROING") -> TParam:
    """``auto mode = MaskMergeMode::ZEROING``: a MaskMergeMode or a pointer to a ``...SpecificMode``
    struct (Div, Exp, Sqrt, Ln, Log, Log2, Log10); only its merge mode is sent."""
    return TParam(ENUM, "mode", "auto", f"MaskMergeMode::{default}", of="MaskMergeMode")


def thidden(name: str, ctype: str = "class", default: str | None = "void") -> TParam:
    return TParam(HIDDEN, name, ctype, default)


def tnamed(name: str, ctype: str = "bool", default: str | None = "true", send: str | None = None) -> TParam:
    """A non-type template parameter the emulator needs by name (``bool isSetMask = true``; a config struct
    whose field ``send`` names): it reaches the Python function as the keyword argument ``name``."""
    return TParam(NAMED, name, ctype, default, send=send)


def tnotreg(name: str = "S") -> TParam:
    return TParam(NOTREG, name)


def reg(name: str, t: str = "R") -> Arg:
    return Arg(REG, name, f"{t}&")


def mask(name: str = "mask") -> Arg:
    return Arg(MASK, name, "MaskReg&")


def cmask(name: str = "mask") -> Arg:
    """An input mask the prototype takes by value (``MaskReg mask``): a temporary binds too."""
    return Arg(MASK, name, "const MaskReg&")


def ureg(name: str, ctype: str, part: str = "") -> Arg:
    return Arg(UREG, name, f"{ctype}&", part=part)


def areg(name: str = "offset") -> Arg:
    return Arg(AREG, name, "const AddrReg&")


def ub(name: str, ctype: str = "U*") -> Arg:
    return Arg(UB, name, ctype)


def ubref(name: str, ctype: str = "U*&") -> Arg:
    return Arg(UBREF, name, ctype)


def gm(name: str, ctype: str = "__gm__ T*") -> Arg:
    return Arg(GM, name, ctype)


def scalar(name: str, ctype: str, cast: str | None = None, default: str | None = None) -> Arg:
    return Arg(SCALAR, name, ctype, default, cast)


def sref(name: str, ctype: str) -> Arg:
    return Arg(SREF, name, f"{ctype}&")


def local(name: str, t: str = "T") -> Arg:
    return Arg(LOCAL, name, f"const LocalTensor<{t}>&")


def glob(name: str, t: str = "T") -> Arg:
    return Arg(GLOBAL, name, f"const GlobalTensor<{t}>&")


def struct(name: str, ctype: str) -> Arg:
    return Arg(STRUCT, name, f"const {ctype}&")


def u64arr(name: str = "mask") -> Arg:
    return Arg(U64ARR, name, "const uint64_t*")


def earg(name: str, enum: str) -> Arg:
    return Arg(EARG, name, enum)


def handle(name: str, ctype: str) -> Arg:
    return Arg(HANDLE, name, f"{ctype}&")


def sout(name: str, ctype: str) -> Arg:
    """A struct the API fills: the Python function returns it (a dataclass), the wrapper copies its fields."""
    return Arg(SOUT, name, f"{ctype}&")


def ignored(ctype: str, default: str) -> Arg:
    return Arg(IGNORED, "", ctype, default)


def form(*parts: TParam | Arg | tuple, **kw: Any) -> Form:
    """A form from its template parameters and arguments in declaration order (tuples are flattened)."""
    flat: list = []
    for p in parts:
        flat.extend(p if isinstance(p, tuple) else (p,))
    return Form(tuple(p for p in flat if isinstance(p, TParam)), tuple(p for p in flat if isinstance(p, Arg)), **kw)


def api(family: Family, short: str, py: Any, *forms: Form, opcodes: tuple[str, ...] = (),
        dtypes: tuple[str, ...] = (), doc: str = "", note: str = "") -> ApiDef:
    page = f"{family.doc_root}/{doc}" if doc and family.doc_root and not doc.startswith(("基础API", "C-API")) else doc
    return ApiDef(f"{family.cpp}::{short}" if family.cpp else short, family, py, tuple(forms), tuple(opcodes),
                  tuple(dtypes), page, note)

