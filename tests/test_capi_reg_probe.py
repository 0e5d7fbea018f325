"""Every form of the C API register family runs on the Python route with arguments built from its declared
C types (a register of the element type the page lists first, predicates, pointers into defined UB,
unaligned and address registers, scalars), and records only the opcodes its definition names (the opcode
column the cost check relies on), the fp8 / fp4 / hifloat8 / int4 conversions included."""
from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from tests.api_support import put
from toolkit.ascendc import api
from toolkit.ascendc import regbase as Reg
from toolkit.ascendc.api import spec
from toolkit.ascendc import lowfloat
from toolkit.ascendc.capi_reg.convert import NOT_EMULATED
from toolkit.ascendc.dtypes import uint32_t
from toolkit.ascendc.tensor import UbPtr
from toolkit.engine.runtime import current
from toolkit.record.events import ITER

BY_NAME = {"int8_t": np.int8, "uint8_t": np.uint8, "int16_t": np.int16, "uint16_t": np.uint16, "int32_t": np.int32,
           "uint32_t": np.uint32, "int64_t": np.int64, "uint64_t": np.uint64, "half": np.float16,
           "bfloat16_t": ml_dtypes.bfloat16, "float": np.float32}
BYTES = {"fp8_e4m3fn_t", "fp8_e5m2_t", "fp8_e8m0_t", "hifloat8_t", "fp4x2_e2m1_t", "fp4x2_e1m2_t", "int4x2_t"}
#: names whose first documented type is not the one to probe with
PROBE_TYPE = {"asc_mull": "uint32_t", "asc_add": "uint32_t", "asc_sub": "uint32_t", "asc_copy": "uint32_t",
              "asc_reduce_sum": "int32_t", "asc_reduce_max": "int32_t", "asc_reduce_min": "int32_t",
              "asc_reduce_sum_datablock": "int32_t", "asc_reduce_max_datablock": "int32_t",
              "asc_reduce_min_datablock": "int32_t", "asc_pack_to_low": "uint32_t", "asc_pack_to_high": "uint32_t",
              "asc_pack": "uint32_t", "asc_pack_v2": "uint32_t", "asc_unpack_lower": "uint16_t",
              "asc_unpack_upper": "uint16_t", "asc_storealign_pack": "uint32_t", "asc_storealign_pack_postupdate": "uint32_t",
              "asc_loadalign_brc_elem2datablock": "uint32_t", "asc_loadalign_brc_elem2datablock_postupdate": "uint32_t",
              "asc_loadalign_brc_v3": "uint32_t", "asc_loadalign_brc_postupdate_v3": "uint32_t",
              "asc_loadalign_upsample": "uint16_t", "asc_loadalign_upsample_postupdate": "uint16_t",
              "asc_loadalign_downsample": "uint16_t", "asc_loadalign_downsample_postupdate": "uint16_t",
              "asc_loadalign_unpack": "uint16_t", "asc_loadalign_unpack_postupdate": "uint16_t",
              "asc_loadalign_unpack4": "uint8_t", "asc_loadalign_unpack4_postupdate": "uint8_t",
              "asc_loadalign_unpack_v2": "uint8_t", "asc_loadalign_unpack_postupdate_v2": "uint8_t"}
#: the diagnostics a form reports when it runs alone (an unaligned store not flushed; the AR form alone)
EXPECTED = {"asc_storeunalign": {"UNALIGN_STORE_NOT_FLUSHED"},
            "asc_storeunalign_postupdate": {"UNALIGN_STORE_NOT_FLUSHED", "SQUEEZE_STATUS_MISSING"}}


def _elem(d: spec.ApiDef):
    t = PROBE_TYPE.get(d.short) or ("float" if "float" in d.dtypes else next((x for x in d.dtypes if x in BY_NAME),
                                                                              "float"))
    return np.dtype(BY_NAME[t])


ZEROS = 4096                                            # 4 KiB of zeros: index registers load from here


def _reg_type(a: spec.Arg, elem: np.dtype) -> np.dtype:
    t = a.ctype.removeprefix("const ").rstrip("&").strip()
    if t.startswith("vector_"):
        name = t[7:]
        return lowfloat.BY_NAME[name] if name in BYTES else np.dtype(BY_NAME[name])
    if t.endswith("V<I>"):                               # an index: unsigned of the element width, at least 16 bits
        return np.dtype(f"u{max(elem.itemsize, 2)}")
    return elem


def _arg(d: spec.ApiDef, f: spec.Form, a: spec.Arg, k: int, elem: np.dtype):
    if a.kind == spec.REG:
        dt = _reg_type(a, elem)
        r = Reg.RegTensor[dt]()
        Reg.LoadAlign[dt](r, UbPtr(ZEROS if a.name == "index" else 0, dt))
        return r
    if a.kind == spec.MASK:
        if a.ctype.startswith("const"):
            return Reg.CreateMask[elem if elem.itemsize <= 4 else np.uint32]()
        return Reg.MaskReg()
    if a.kind == spec.UREG:
        return Reg.UnalignRegForLoad() if "load" in a.ctype else Reg.UnalignRegForStore()
    if a.kind == spec.AREG:
        return Reg.CreateAddrReg[elem](0, 0)
    if a.kind in (spec.UB, spec.UBREF):
        ptr_elem = np.dtype(np.uint32) if any(x.kind == spec.MASK and x.name in ("dst", "src") for x in f.args) \
            and not any(x.kind == spec.REG for x in f.args) else elem
        return UbPtr(8192 + 2048 * k, ptr_elem)
    if a.kind == spec.SREF:
        return uint32_t(64)
    return {"pat_mode": 0, "mem_type": 1, "part": 0, "count": 8, "block_stride": 1, "repeat_stride": 8,
            "inc": 0}.get(a.name, 64 if a.name.startswith("offset") or a.name == "value" and a.ctype == "uint32_t"
                          else 1)


def _forms():
    return [pytest.param(d, k, id=f"{d.short}-{k}") for d in api.DEFINITIONS.values()
            if d.family.name.startswith("capi.reg") for k in range(len(d.forms))]


@pytest.mark.parametrize("d, k", _forms())
def test_capi_reg_form_runs_and_records_its_opcodes(ctx, d, k):
    f = d.forms[k]
    put(ctx, 0, np.ones(16384, np.float32))
    put(ctx, ZEROS, np.zeros(1024, np.float32))
    elem = _elem(d)
    refused = "not emulated" in d.note
    seen = []

    @Reg.__simd_vf__
    def vf():
        args = [_arg(d, f, a, j, elem) for j, a in enumerate(f.sent_args)]
        rec = current().vf
        start = len(rec.instrs)
        if refused:
            with pytest.raises(NotImplementedError):
                d.py(*args)
        else:
            d.py(*args)
        seen.extend(i.opcode for i in rec.instrs[start:])

    vf()
    assert set(seen) - {ITER, "ALIAS"} <= set(d.opcodes), seen
    assert set(ctx.diag.codes()) <= EXPECTED.get(d.short, set()), ctx.diag.codes()


def test_no_conversion_is_refused_and_the_byte_float_ones_record_casts():
    cvt = [d for d in api.DEFINITIONS.values() if d.family.name == "capi.reg.cvt"]
    assert not NOT_EMULATED and not [d for d in cvt if "not emulated" in d.note]
    low = [d for d in cvt if set(d.dtypes) & {"fp8_e4m3fn_t", "fp8_e5m2_t", "hifloat8_t", "fp4x2_e1m2_t",
                                              "fp4x2_e2m1_t", "int4x2_t"}]
    assert len(low) == 154 and all("RV_VCVT_F2F" in d.opcodes for d in low)
