"""The machine model file: loads, every number has a source note, malformed files and unknown opcodes are
errors, and every opcode the emulator can record has a cost entry."""
from __future__ import annotations

import numpy as np
import pytest

from toolkit.ascendc import regbase as Reg
from toolkit.ascendc.dtypes import bfloat16_t, uint32_t
from toolkit.ascendc.tensor import UbPtr
from toolkit.engine.runtime import CoreContext, running
from toolkit.machine import LANES, MachineError, parse_machine
from toolkit.record.events import PSEUDO_OPS, VfCall

# Every opcode toolkit/regbase and toolkit/membase can put in a VF stream (kept by hand on purpose).
RECORDABLE = [
    "RV_VLD", "RV_VSLDB", "RV_VLDUS", "RV_VLDAS", "RV_VST", "RV_VSSTB", "RV_VSTUI", "RV_VSTAS",
    "RV_VADD", "RV_VSUB", "RV_VMUL", "RV_VDIV", "RV_VMAX", "RV_VMIN", "RV_VADDS", "RV_VMULS", "RV_VMAXS",
    "RV_VMINS", "RV_VSQRT", "RV_VEXP", "RV_VABS", "RV_VLN", "RV_VRELU", "RV_VDUP", "RV_VSEL",
    "RV_VCADD", "RV_VCMAX", "RV_VCMIN", "RV_VCVT_F2F", "RV_VCVT_F2I", "RV_VCVT_I2F", "RV_VCVT_I2I",
    "RV_PSET", "RV_PLT", "RV_PMOV", "RV_VSQZ", "RV_VLOOP", "RV_MEMBAR",
]


def test_machine_file_loads(machine):
    assert machine.name == "ascend950" and machine.version
    assert machine.params["core"]["vl_bytes"] == 256 and machine.vl_bytes == 256
    assert machine.ub_bytes == 262144 and machine.ub_budget_bytes == 253952 and machine.max_buffers == 64
    assert machine.get("registers", "loop_levels") == 4 and machine.unalign_store == 4
    assert machine.get("dma", "gm_max_block_count") == 4095
    with pytest.raises(MachineError):
        machine.get("core", "no_such_key")


def test_every_parameter_has_a_source_note(machine):
    for section, body in machine.params.items():
        assert set(body) == set(machine.sources[section]), section
        for key in body:
            assert machine.sources[section][key].strip(), f"[{section}] {key}"
    for op, cost in machine.instructions.items():
        assert cost.source.strip() and cost.lane in LANES and cost.issue in ("dual", "single"), op
        assert cost.duration >= 1 and cost.ii >= 1 and cost.latency >= 0, op


def test_unconfirmed_numerics_settings_say_so(machine):
    for key in ("b32_mask_fill", "pack_interior_mask", "ds_parity", "float_to_bf16_overflow"):
        assert "UNCONFIRMED" in machine.sources["numerics"][key]


GOOD_INSTR = {"lane": "RVECEX", "issue": "dual", "duration": 7, "latency": 3, "ii": 2, "source": "note"}


@pytest.mark.parametrize("doc", [
    {"core": {"vl_bytes": 256}},                                             # bare value
    {"core": {"vl_bytes": {"value": 256}}},                                  # no source
    {"core": {"vl_bytes": {"value": 256, "source": "   "}}},                 # empty source
    {"core": {"vl_bytes": {"value": 256, "source": "x", "extra": 1}}},       # unknown field
    {"instructions": {"RV_VADD": {k: v for k, v in GOOD_INSTR.items() if k != "source"}}},
    {"instructions": {"RV_VADD": {**GOOD_INSTR, "lane": "RVECXX"}}},
    {"instructions": {"RV_VADD": {**GOOD_INSTR, "issue": "triple"}}},
], ids=["bare", "no-source", "empty-source", "extra-field", "instr-no-source", "bad-lane", "bad-issue"])
def test_malformed_machine_documents_are_rejected(doc):
    with pytest.raises(MachineError):
        parse_machine({"meta": {"name": "t"}, **doc})


def test_a_well_formed_small_document():
    m = parse_machine({"meta": {"name": "t", "version": 2},
                       "core": {"vl_bytes": {"value": 256, "source": "doc"}},
                       "instructions": {"RV_VADD": GOOD_INSTR}})
    assert (m.name, m.version, m.vl_bytes, m.sources["core"]["vl_bytes"]) == ("t", "2", 256, "doc")
    assert m.instr("RV_VADD").duration == 7
    with pytest.raises(MachineError):
        m.instr("RV_VMUL")


def test_unknown_opcode_raises(machine):
    with pytest.raises(MachineError, match="RV_NOT_AN_OPCODE"):
        machine.instr("RV_NOT_AN_OPCODE")


@pytest.mark.parametrize("opcode", RECORDABLE)
def test_every_recordable_opcode_has_an_entry(machine, opcode):
    assert machine.instr(opcode).opcode == opcode


def test_a_busy_vf_records_only_known_opcodes(machine):
    """Cross-check of the list above: every non-pseudo opcode of a VF touching most APIs has an entry."""
    ctx = CoreContext()
    f32 = np.dtype(np.float32)
    trait_up = Reg.CastTrait(Reg.RegLayout.ZERO, Reg.SatMode.UNKNOWN, Reg.MaskMergeMode.ZEROING, Reg.RoundMode.CAST_NONE)
    trait_dn = Reg.CastTrait(Reg.RegLayout.ZERO, Reg.SatMode.NO_SAT, Reg.MaskMergeMode.ZEROING, Reg.RoundMode.CAST_RINT)
    trait_i = Reg.CastTrait(Reg.RegLayout.ZERO, Reg.SatMode.SAT, Reg.MaskMergeMode.ZEROING, Reg.RoundMode.CAST_RINT)

    @Reg.__simd_vf__
    def Busy(src, dst):
        a, b, c = Reg.RegTensor[float](), Reg.RegTensor[float](), Reg.RegTensor[float]()
        h = Reg.RegTensor[bfloat16_t]()
        i = Reg.RegTensor[np.int32]()
        u, s = Reg.UnalignRegForLoad(), Reg.UnalignRegForStore()
        m = Reg.CreateMask[float]()
        count = uint32_t(100)
        for k in Reg.VLOOP(2):
            t = Reg.UpdateMask[float](count)
            Reg.LoadAlign[float](a, src + k * 64)
            Reg.LoadAlign[float, Reg.DataCopyMode.DATA_BLOCK_COPY](b, src, 1, t)
            Reg.LoadUnAlignPre(u, src + 3)
            Reg.LoadUnAlign(c, u, src + 3)
            for op in (Reg.Add, Reg.Sub, Reg.Mul, Reg.Div, Reg.Max, Reg.Min):
                op(c, a, b, t)
            Reg.Add[float, Reg.MaskMergeMode.MERGING](c, c, a, t)
            for op in (Reg.Adds, Reg.Muls, Reg.Maxs, Reg.Mins):
                op(c, c, 2.0, m)
            for op in (Reg.Sqrt, Reg.Exp, Reg.Abs, Reg.Ln, Reg.Relu):
                op(c, c, m)
            Reg.Select(c, a, c, t)
            Reg.Duplicate(b, 1.0)
            Reg.ReduceSum(a, c, m)
            Reg.ReduceMax(b, c, m)
            Reg.ReduceMin(b, b, m)
            Reg.Cast[bfloat16_t, float, trait_dn](h, c, m)
            Reg.Cast[float, bfloat16_t, trait_up](a, h, m)
            Reg.Cast[np.int32, float, trait_i](i, a, m)
            Reg.Cast[float, np.int32, trait_dn](a, i, m)
            Reg.Cast[np.int16, np.int32, trait_i](h, i, m)
            Reg.LocalMemBar[Reg.MemType.VEC_STORE, Reg.MemType.VEC_LOAD]()
            Reg.StoreAlign[float](dst, a, m)
            Reg.StoreAlign[float, Reg.DataCopyMode.DATA_BLOCK_COPY](dst, b, 1, t)
            Reg.StoreAlign[np.int16, Reg.StoreDist.DIST_PACK_B32](dst, h, m)
            Reg.StoreUnAlign(dst + 1, c, s, 3)
            Reg.StoreUnAlignPost(dst + 1, s, 0)

    with running(ctx):
        ctx.ub.write(4096, np.linspace(1, 2, 256, dtype=f32).view(np.uint8))
        Busy(UbPtr(4096, f32), UbPtr(16384, f32))
    seen = {ins[0] for e in ctx.events if isinstance(e, VfCall) for ins in e.instrs} - PSEUDO_OPS
    assert len(seen) >= 25                                       # dead results are removed by DCE
    assert seen <= set(RECORDABLE)
    for op in seen:
        machine.instr(op)
