"""The Python end of the ``.asc`` bridge: decode the tagged words a C++ API call sends, call the one
implementation of that API (the same functions the Python kernels call), encode the result.

Each C++ call arrives as ``dispatch(api, file_id, line, *words)``; ``api`` was obtained once per call
site from :func:`resolve`. Words come in (tag, payload...) groups; a tag's low byte is the kind and its
high bits a dtype code, struct id or enum id (see ``include/asc/bridge.h``). Template arguments (types,
enum values, a CastTrait) become the C++ template argument tuple of :class:`~toolkit.ascendc.regbase.template.
TemplateApi`; everything else the call's arguments. Results: None, a number, a handle (registers,
returned tensors), or a tuple with the final values of by-reference arguments after the result.

A fatal diagnostic stops the emulated core: ``dispatch`` returns :data:`ABORT` and the C++ side throws.
"""
from __future__ import annotations

import dataclasses
import traceback
from typing import Any, Callable

import numpy as np

from toolkit.ascendc import api as apidefs
from toolkit.ascendc import dtypes, lowfloat
from toolkit.ascendc.dtypes import BF16, CScalar, TemplateValue
from toolkit.ascendc.pipe import TPosition
from toolkit.ascendc.regbase import types as rt
from toolkit.ascendc.tensor import GlobalTensor, GmPtr, LocalTensor, UbPtr
from toolkit.engine.runtime import current_or_none
from toolkit.record.diagnostics import SOURCE_LOCATION, KernelAbort, VfRuleError

from . import enums

ABORT = object()

(T_INT, T_UINT, T_FLT, T_REG, T_MASK, T_OBJ, T_UBPTR, T_GMPTR, T_LOCAL, T_GLOBAL, T_REF, T_AREG, T_STRUCT,
 T_UBREF, T_BOOL, T_NONE) = range(1, 17)
T_TTYPE, T_TENUM, T_TTRAIT, T_U64ARR, T_EARG, T_TVALUE = 20, 21, 22, 23, 24, 25
T_TNAMED = 26
UB_ADDR_MASK = 0xFFFFFFFF         # the low 32 bits of a __ubuf__ pointer (bridge.h kUbAddrMask)
_U64 = 1 << 64

DTYPES: dict[int, np.dtype] = {1: np.dtype(np.int8), 2: np.dtype(np.uint8), 3: np.dtype(np.int16),
                               4: np.dtype(np.uint16), 5: np.dtype(np.int32), 6: np.dtype(np.uint32),
                               7: np.dtype(np.int64), 8: np.dtype(np.uint64), 9: np.dtype(np.float16),
                               10: BF16, 11: np.dtype(np.float32), 12: np.dtype(np.float64),
                               13: np.dtype(np.uint8),
                               # the 8- / 4-bit types (asc/bytetypes.h; toolkit.ascendc.lowfloat)
                               14: lowfloat.FP8_E4M3FN, 15: lowfloat.FP8_E5M2, 16: lowfloat.FP8_E8M0,
                               17: lowfloat.HIF8, 18: lowfloat.FP4X2_E2M1, 19: lowfloat.FP4X2_E1M2,
                               20: lowfloat.INT4X2, 21: lowfloat.INT4B}
CSCALARS: dict[int, type[CScalar]] = {1: dtypes.int8_t, 2: dtypes.uint8_t, 3: dtypes.int16_t, 4: dtypes.uint16_t,
                                      5: dtypes.int32_t, 6: dtypes.uint32_t, 7: dtypes.int64_t, 8: dtypes.uint64_t,
                                      9: dtypes.half, 10: dtypes.bfloat16_t, 11: dtypes.float32_t,
                                      **{k: dtypes.uint8_t for k in range(14, 22)}}
#: struct id -> the Python class built from the fields (ids and fields from the API definitions)
STRUCTS: dict[int, Callable] = {s.id: s.py for s in apidefs.STRUCTS.values()}
#: stable id -> name of every named template parameter (``isSetMask``, ...) of the definitions
NAMED_PARAMS: dict[int, str] = {apidefs.stable_id(p.name): p.name for d in apidefs.DEFINITIONS.values()
                                for f in d.forms for p in f.tparams if p.kind == "named"}
POSITIONS = {k: m.value for k, m in enums.DECODE[enums.ENUM_ID[TPosition]].items()}
POSITION_CODES = {v: k for k, v in POSITIONS.items()}

#: the program being run (set by toolkit.asc.child before main() starts)
PROGRAM = None


class Api:
    """A resolved API: how to call it (template API, plain function, method, runtime hook). ``id`` is the
    definition's stable id (0 for the runtime hooks)."""

    __slots__ = ("name", "fn", "method", "id")

    def __init__(self, name: str, fn: Any, method: str | None = None, api_id: int = 0):
        self.name, self.fn, self.method, self.id = name, fn, method, api_id

    def __call__(self, targs: list, args: list) -> Any:
        if self.method is not None:
            return getattr(args[0], self.method)(*targs, *args[1:])
        fn = self.fn
        if targs and hasattr(fn, "__getitem__"):         # a TemplateApi (or SetFlag[...]-style API)
            return fn[tuple(targs)](*args)
        return fn(*targs, *args) if targs else fn(*args)


def resolve(name: str) -> Api:
    """The callable behind a name the C++ side sends: an API's qualified name (``AscendC::Reg::Add``,
    looked up in the API definitions: its semantic function, or for a method the method of that name on
    the first argument; :data:`ADAPTERS` first), or a runtime hook ``rt.X`` (``hooks.RT``)."""
    from . import hooks
    d = apidefs.lookup(name)
    if d is not None:
        adapter = hooks.ADAPTERS.get(name)
        if adapter is not None:
            return Api(name, adapter, None, d.id)
        if d.py is None:
            return Api(name, _missing(name), None, d.id)
        if d.family.member:
            return Api(name, None, d.py.__name__, d.id)
        return Api(name, d.py, None, d.id)
    prefix, _, rest = name.partition(".")
    if prefix == "rt" and rest in hooks.RT:
        return Api(name, hooks.RT[rest])
    return Api(name, _missing(name))


def _missing(name: str) -> Callable:
    def refuse(*_: Any) -> None:
        raise NotImplementedError(f"{name.rsplit('::', 1)[-1]} is not implemented by the emulator")
    return refuse


def register_file(name: str) -> int:
    """Intern a string the C++ side sends by id (file names, kinds, VF names)."""
    return PROGRAM.intern(name)


# -- decoding -------------------------------------------------------------------------------------
def decode(words: tuple) -> tuple[list, list, list]:
    prog = PROGRAM
    objects = prog.objects
    targs: list = []
    args: list = []
    refs: list = []
    i, n = 0, len(words)
    while i < n:
        tag = words[i]
        kind, hi = tag & 0xFF, tag >> 8
        v = words[i + 1]
        i += 2
        if kind == T_INT or kind == T_FLT:
            args.append(v)
        elif kind == T_UINT:
            args.append(v + _U64 if v < 0 else v)
        elif kind in (T_REG, T_MASK, T_OBJ, T_AREG):
            args.append(objects[v])
        elif kind == T_LOCAL:
            count, pos, que, slot = words[i:i + 4]
            i += 4
            args.append(LocalTensor(v, DTYPES[hi], count, POSITIONS[pos],
                                    (objects[que], slot) if que else None))
        elif kind == T_UBPTR or kind == T_UBREF:
            p = UbPtr(v & UB_ADDR_MASK, DTYPES[hi])
            args.append(p)
            if kind == T_UBREF:
                refs.append(p)
        elif kind == T_GLOBAL:
            args.append(prog.global_tensor(v, words[i], DTYPES[hi]))
            i += 1
        elif kind == T_GMPTR:
            args.append(prog.gm_ptr(v, DTYPES[hi]))
        elif kind == T_REF:
            box = CSCALARS[hi](v + _U64 if v < 0 and DTYPES[hi].kind == "u" else v)
            args.append(box)
            refs.append(box)
        elif kind == T_STRUCT:
            fields, i = _fields(words, i, v)
            args.append(STRUCTS[hi](*fields))
        elif kind == T_BOOL:
            args.append(bool(v))
        elif kind == T_TTYPE:
            targs.append(DTYPES[v])
        elif kind == T_TENUM:
            targs.append(enums.DECODE[hi][v])
        elif kind == T_TVALUE:
            targs.append(int(v))
        elif kind == T_EARG:
            args.append(enums.DECODE[hi][v])
        elif kind == T_TNAMED:
            targs.append(TemplateValue(NAMED_PARAMS[hi], v))
        elif kind == T_TTRAIT:
            targs.append(_trait(v))
        elif kind == T_U64ARR:
            args.append([v % _U64, words[i] % _U64])
            i += 1
        elif kind == T_NONE:
            args.append(None)
        else:
            raise ValueError(f"bad bridge tag {tag}")
    return targs, args, refs


def group_len(words: tuple, i: int) -> int:
    """Words of the argument group at ``i`` (its tag, value and the extra words :func:`decode` reads)."""
    kind = words[i] & 0xFF
    if kind == T_LOCAL:
        return 6
    if kind == T_GLOBAL or kind == T_U64ARR:
        return 3
    return 2 + 2 * words[i + 1] if kind == T_STRUCT else 2


def _fields(words: tuple, i: int, n: int) -> tuple[list, int]:
    out = []
    for _ in range(n):
        kind, v = words[i] & 0xFF, words[i + 1]
        out.append(bool(v) if kind == T_BOOL else (v + _U64 if kind == T_UINT and v < 0 else v))
        i += 2
    return out, i


def _trait(packed: int) -> rt.CastTrait:
    return rt.CastTrait(rt.RegLayout((packed & 0xF) - 1), rt.SatMode(((packed >> 4) & 0xF) - 1),
                        rt.MaskMergeMode((packed >> 8) & 0xF), rt.RoundMode((packed >> 12) & 0xF))


# -- encoding -------------------------------------------------------------------------------------
def encode(result: Any, refs: list) -> Any:
    out = [] if result is None else [_value(result)]
    for r in refs:
        out.append(r.addr if isinstance(r, UbPtr) else r.value)
    if not refs:
        return out[0] if out else None
    return tuple(out)


def _value(v: Any) -> Any:
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, (int, float)):
        return v
    if isinstance(v, tuple):
        return tuple(_value(x) for x in v)
    if dataclasses.is_dataclass(v) and not isinstance(v, type):      # a struct the API fills (kind sout)
        return tuple(_value(getattr(v, f.name)) for f in dataclasses.fields(v))
    if isinstance(v, LocalTensor):
        que, slot = (PROGRAM.handle_of(v.slot[0]), v.slot[1]) if v.slot is not None else (0, -1)
        return (v.addr, v.count, POSITION_CODES[v.position], que, slot)
    if isinstance(v, np.generic):
        return v.item()
    if isinstance(v, (rt.RegTensor, rt.MaskReg, rt.AddrReg, rt.UnalignRegForLoad, rt.UnalignRegForStore)):
        return PROGRAM.new_handle(v)
    raise TypeError(f"cannot return {type(v).__name__} to C++")


# -- the call ---------------------------------------------------------------------------------------
def dispatch(api: Api, file_id: int, line: int, *words: Any) -> Any:
    if _DEFER.rec is not None or _DEFER.pending:        # a hardware loop's calls recorded (toolkit.asc.loopdefer)
        got = loopdefer.dispatch(api, file_id, line, words)
        if got is not loopdefer.RUN:
            return got
    prog = PROGRAM
    SOURCE_LOCATION.set((prog.strings[file_id], line))
    try:
        targs, args, refs = decode(words)
        return encode(api(targs, args), refs)
    except KernelAbort as stop:
        prog.aborted(stop.diag)
        return ABORT
    except Exception as exc:            # an API form the emulator refuses, or a bug of ours: a diagnostic
        return _unsupported(api, exc)


def _unsupported(api: Api, exc: Exception) -> Any:
    ctx = current_or_none()
    msg = f"{api.name}: {exc}"
    code = "VF_RULE" if isinstance(exc, VfRuleError) else "UNSUPPORTED_API"
    if ctx is None:
        PROGRAM.host_error(msg, traceback.format_exc(), SOURCE_LOCATION.get())
        return None
    try:
        ctx.report(code, msg, detail=traceback.format_exc(limit=-3))
    except KernelAbort as stop:
        PROGRAM.aborted(stop.diag)
    return ABORT


from . import loopdefer  # noqa: E402  (it uses this module)
from .loopdefer import STATE as _DEFER  # noqa: E402

__all__ = ["ABORT", "dispatch", "resolve", "register_file", "GlobalTensor", "GmPtr"]
