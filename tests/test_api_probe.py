"""Every emulated form of the Reg and MemBase definitions runs on the Python route with arguments built from
its declared kinds (so the kinds are the ones the semantic function takes), and records only the opcodes
its definition names (so the opcode column, which the cost check relies on, is what the emulator records)."""
from __future__ import annotations

from enum import Enum

import numpy as np
import pytest

from tests.api_support import put
from toolkit.asc import enums
from toolkit.ascendc import api
from toolkit.ascendc import regbase as Reg
from toolkit.ascendc.api import spec
from toolkit.ascendc.dtypes import CScalar, uint32_t, uint64_t
from toolkit.ascendc.pipe import TPipe
from toolkit.ascendc.tensor import LocalTensor, UbPtr
from toolkit.engine.runtime import current
from toolkit.record.events import ITER, VfCall

F32, F16, U32 = np.dtype(np.float32), np.dtype(np.float16), np.dtype(np.uint32)
ENUM_TYPES = {name: cls for _, _, name, cls, _ in enums.ENUMS} | {"pipe_t": enums.PipeType}
NOT_OPCODES = {ITER, "ALIAS"}


#: template arguments a form is only meaningful with (the dual-register forms need an interleaving dist)
EXAMPLE_TARGS = {("AscendC::Reg::LoadAlign", 2): {"dist": "DIST_DINTLV_B32"},
                 ("AscendC::Reg::LoadAlign", 7): {"dist": "DIST_DINTLV_B32", "post": "POST_MODE_UPDATE"},
                 ("AscendC::Reg::LoadAlign", 8): {"dist": "DIST_DINTLV_B32"},
                 ("AscendC::Reg::LoadAlign", 9): {"post": "POST_MODE_UPDATE"},
                 ("AscendC::Reg::StoreAlign", 2): {"dist": "DIST_INTLV_B32"},
                 ("AscendC::Reg::StoreAlign", 7): {"dist": "DIST_INTLV_B32"},
                 ("AscendC::Reg::StoreAlign", 8): {"post": "POST_MODE_UPDATE"},
                 ("AscendC::Reg::Histograms", 0): {"mode": "BIN0", "type": "FREQUENCY"},
                 ("AscendC::Truncate", 0): {"roundMode": "CAST_TRUNC"}}


#: diagnostics a form reports when it runs alone (the AR form of StoreUnAlign needs a Squeeze first)
EXPECTED_CODES = {("AscendC::Reg::StoreUnAlign", 3): {"SQUEEZE_STATUS_MISSING", "UNALIGN_STORE_NOT_FLUSHED"},
                  ("AscendC::Reg::StoreUnAlign", 0): {"UNALIGN_STORE_NOT_FLUSHED"},
                  ("AscendC::Reg::StoreUnAlign", 2): {"UNALIGN_STORE_NOT_FLUSHED"},
                  ("AscendC::Reg::StoreUnAlign", 4): {"UNALIGN_STORE_NOT_FLUSHED"}}


def _forms(prefix: str) -> list:
    return [pytest.param(d, k, id=f"{d.short}-{k}") for d in api.DEFINITIONS.values()
            if d.family.name.startswith(prefix) for k, f in enumerate(d.forms)
            if f.emulated and not (f.doc or "").startswith("高阶API/")]     # high-level forms: tests/test_hl_*.py


def _enum(p: spec.TParam, given: str | None) -> Enum:
    cls = ENUM_TYPES[p.of if p.ctype == "auto" else p.ctype]
    if given or p.default:
        return cls[given or p.default.rsplit("::", 1)[1]]
    return next(iter(cls))


def targs(d: spec.ApiDef, k: int) -> tuple:
    out = []
    given = EXAMPLE_TARGS.get((d.name, k), {})
    for p in d.forms[k].tparams:
        if p.kind in (spec.TYPE, spec.ELEM) and p.default is None:
            out.append(F16 if d.short == "TransDataTo5HD" else F32)
        elif p.kind == spec.ENUM:
            out.append(_enum(p, given.get(p.name)))
        elif p.kind == spec.TRAIT:
            out.append(Reg.CastTrait())
    return tuple(out)


def call(d: spec.ApiDef, k: int, args: list):
    f = d.forms[k]
    target = api.lookup(f.via) if f.via else d
    t = targs(d, k)
    fn = target.py
    if t and not hasattr(fn, "__getitem__"):       # a plain function: template arguments lead (as the bridge does)
        return fn(*t, *args)
    return fn[t](*args) if t else fn(*args)


# -- RegBase -----------------------------------------------------------------------------------------
def reg_arg(a: spec.Arg, k: int):
    """A value of the argument's kind; registers loaded from UB so that they hold defined data."""
    if a.kind == spec.REG:
        dt = U32 if a.ctype.startswith("RI") or a.name.startswith("index") else F32
        r = Reg.RegTensor[dt]()
        Reg.LoadAlign[dt](r, UbPtr(4096 if dt == F32 else 4096 + 256, dt))       # index registers: zeros
        return r
    if a.kind == spec.MASK:
        return Reg.MaskReg() if a.name.startswith("dst") else Reg.CreateMask[F32]()
    if a.kind == spec.UREG:
        store = "Store" in a.ctype or a.part == ".st"
        return Reg.UnalignRegForStore() if store else Reg.UnalignRegForLoad()
    if a.kind == spec.AREG:
        return Reg.CreateAddrReg[F32](0, 0)
    if a.kind in (spec.UB, spec.UBREF):
        return UbPtr(8192 + 1024 * k, F32)
    if a.kind == spec.SREF:
        return uint32_t(64)
    assert a.kind == spec.SCALAR, a
    return 1


@pytest.mark.parametrize("d, k", _forms("reg."))
def test_reg_form_runs_and_records_declared_opcodes(ctx, d, k):
    f = d.forms[k]
    put(ctx, 4096, np.concatenate([np.ones(64, F32), np.zeros(64, F32)]))
    seen = []

    @Reg.__simd_vf__
    def vf():
        args = [reg_arg(a, k) for k, a in enumerate(f.sent_args)]
        rec = current().vf
        start = len(rec.instrs)
        call(d, k, args)
        seen.extend(i.opcode for i in rec.instrs[start:])

    vf()
    target = api.lookup(f.via) if f.via else d
    assert set(seen) - NOT_OPCODES <= set(target.opcodes), seen
    assert set(ctx.diag.codes()) <= EXPECTED_CODES.get((d.name, k), set()), ctx.diag.codes()


# -- MemBase -----------------------------------------------------------------------------------------
I16, I32, I64, U8, U64 = (np.dtype(t) for t in (np.int16, np.int32, np.int64, np.uint8, np.uint64))
#: element types of an API's template parameters where float is not the one to probe with
MB_TYPES = {"Cast": {"T": F16, "U": F32}, "AddDeqRelu": {"T": F16, "U": I32}, "CastDequant": {"T": F16, "U": I32},
            "AddReluCast": {"T": F16, "U": F32}, "SubReluCast": {"T": F16, "U": F32}, "MulCast": {"T": np.dtype(np.int8), "U": F16},
            "Compare": {"U": U8}, "Compares": {"U": U8}, "Select": {"U": U8}, "GatherMask": {"U": U32},
            "Transpose": {"T": F16}}
_BY_NAME = {"int8_t": np.int8, "uint8_t": np.uint8, "int16_t": np.int16, "uint16_t": np.uint16, "int32_t": np.int32,
            "uint32_t": np.uint32, "int64_t": np.int64, "uint64_t": np.uint64, "half": np.float16, "float": np.float32}
_PREFERRED = ("float", "int32_t", "int16_t", "uint16_t", "half")
OFFSETS, ADDRESS_LISTS = 65536, 69632      # UB of the probe's offset tensors (zeros) and address lists


def _elem(d: spec.ApiDef) -> np.dtype:
    name = next((n for n in _PREFERRED if n in d.dtypes), d.dtypes[0] if d.dtypes else "float")
    return MB_TYPES.get(d.short, {}).get("T", np.dtype(_BY_NAME.get(name, np.float32)))


def _tensor(d: spec.ApiDef, a: spec.Arg, k: int) -> LocalTensor:
    t = a.ctype.split("<", 1)[1].rstrip(">&") if "<" in a.ctype else "T"
    if t == "uint64_t":
        return LocalTensor(ADDRESS_LISTS, U64, 16)
    if a.name in ("srcOffset", "dstOffset", "offset", "src0Offset"):
        return LocalTensor(OFFSETS, U32, 1024)
    dt = MB_TYPES.get(d.short, {}).get(t) or (np.dtype(_BY_NAME[t]) if t in _BY_NAME else _elem(d))
    if t == "U" and d.short in ("ShiftLeft", "ShiftRight"):
        dt = np.dtype(f"i{_elem(d).itemsize}")
    return LocalTensor(1024 * (k + 1), dt, 256)


def _earg(f: spec.Form, a: spec.Arg) -> Enum:
    cls = ENUM_TYPES[a.ctype]
    if a.ctype == "RoundMode":
        return cls.CAST_RINT
    if a.ctype == "SELMODE":                   # a scalar src1 selects mode 1, two tensors mode 2
        scalar_src1 = any(x.name in ("src0", "src1") and x.kind == spec.SCALAR for x in f.args)
        return cls.VSEL_TENSOR_SCALAR_MODE if scalar_src1 else cls.VSEL_TENSOR_TENSOR_MODE
    return next(iter(cls))


_MB_SCALARS = {"validBit": 15, "repeatTimes": 1, "transposeType": 10, "cmpMode": 0, "vROffset": 128}


def mb_arg(d: spec.ApiDef, f: spec.Form, a: spec.Arg, k: int):
    if a.kind == spec.LOCAL:
        return _tensor(d, a, k)
    if a.kind == spec.U64ARR:
        return [0xFFFFFFFFFFFFFFFF, 0xFFFFFFFFFFFFFFFF]
    if a.kind == spec.STRUCT:
        return next(s for s in api.STRUCTS.values() if s.short == a.ctype.split()[-1].rstrip("&")).py()
    if a.kind == spec.EARG:
        return _earg(f, a)
    if a.kind == spec.SREF:
        return uint64_t(0)
    if a.ctype == "bool":
        return False
    if a.name in _MB_SCALARS:
        return _MB_SCALARS[a.name]
    if a.name == "count":
        return 1024 if d.short == "ReduceSum" else 64     # ReduceSum's count form models one library VF
    return 1 if a.name in ("repeatTime", "src1Pattern") or "Stride" in a.name or "Rep" in a.name else 64


@pytest.mark.parametrize("d, k", _forms("membase"))
def test_membase_form_runs_and_records_declared_opcodes(ctx, d, k):
    f = d.forms[k]
    put(ctx, 0, np.ones(16384, F32))
    put(ctx, OFFSETS, np.zeros(1024, U32))
    put(ctx, ADDRESS_LISTS, (np.arange(16) * 1024 + 1024).astype(np.uint64))
    TPipe()                                   # ReduceSum takes its event id from the core's TPipe
    call(d, k, [mb_arg(d, f, a, j) for j, a in enumerate(f.sent_args)])
    seen = {i[0] for e in ctx.events if isinstance(e, VfCall) for i in e.instrs}      # the opcode field
    assert ctx.diag.codes() == [], ctx.diag.codes()
    assert seen - NOT_OPCODES <= set(d.opcodes), sorted(seen)
    assert seen or not d.opcodes              # an API with opcodes records a VF; a control-register one none


def test_probe_builders_cover_every_argument_kind():
    kinds = {a.kind for d in api.DEFINITIONS.values() if d.family.name.startswith(("reg.", "membase"))
             for f in d.forms for a in f.sent_args}
    assert kinds <= {spec.REG, spec.MASK, spec.UREG, spec.AREG, spec.UB, spec.UBREF, spec.SREF, spec.SCALAR,
                     spec.LOCAL, spec.U64ARR, spec.STRUCT, spec.EARG}
    assert isinstance(uint32_t(1), CScalar)
