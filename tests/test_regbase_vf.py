"""VF-level behaviour (api-facts 1, 6, 10): hardware-loop records and limits, register-file limits, the
compiler effects applied to the recorded stream, VF diagnostics, by-value parameters, launch events
and the definedness shadow through registers."""
from __future__ import annotations

import os

import numpy as np
import pytest

from toolkit.ascendc import regbase as Reg
from toolkit.ascendc.dtypes import uint16_t, uint32_t
from toolkit.ascendc.tensor import LocalTensor, UbPtr
from toolkit.record.diagnostics import KernelAbort
from toolkit.record.events import ITER, VfCall

from api_support import last_vf, line_of, ops, put

F32 = np.dtype(np.float32)
SRC, DST = 4096, 16384


def fptr(addr):
    return UbPtr(addr, F32)


# -- hardware loops ----------------------------------------------------------------------------------
def test_vloop_records_one_entry_per_loop_instance(ctx):
    @Reg.__simd_vf__
    def vf(dst, outer, inner, never):
        r = Reg.RegTensor[float]()
        m = Reg.CreateMask[float]()
        for i in Reg.VLOOP(outer):
            for j in Reg.VLOOP(inner):
                Reg.Duplicate(r, 1.0)
                Reg.StoreAlign[float](dst + (i * int(inner) + j) * 64, r, m)
        for k in Reg.VLOOP(never):
            Reg.StoreAlign[float](dst, r, m)

    vf(fptr(DST), uint16_t(3), uint16_t(2), uint16_t(0))
    instrs = last_vf(ctx).instrs
    loops = [i for i in instrs if i[0] == "RV_VLOOP"]
    assert [lp[3] for lp in loops] == [3, 2, 2, 2]               # 1 outer + 3 inner instances, trips > 0
    assert sum(1 for i in instrs if i[0] == ITER) == 3 + 3 * 2
    assert ops(last_vf(ctx))["RV_VST"] == 6


def test_vloop_start_stop_form(ctx):
    got = []

    @Reg.__simd_vf__
    def vf():
        for i in Reg.VLOOP(2, 5):
            got.append(i)

    vf()
    assert got == [2, 3, 4] and [i[3] for i in last_vf(ctx).instrs if i[0] == "RV_VLOOP"] == [3]


def _nest(depth):
    @Reg.__simd_vf__
    def vf():
        def level(d):
            if d == 0:
                return
            for _ in Reg.VLOOP(1):
                level(d - 1)
        level(depth)
    return vf


def test_loops_nested_beyond_four_levels_run_as_software_loops(ctx):
    """Four levels are hardware loops; a fifth is not an error of the program (issue 18 point 4,
    NESTED5_RUNTIME_IMMEDIATE): it runs, records no RV_VLOOP, and is warned as a software loop once."""
    _nest(4)()
    assert ctx.diag.codes() == []
    _nest(5)()
    assert ctx.diag.codes() == ["VF_SOFTWARE_LOOP"]
    assert [i[0] for i in last_vf(ctx).instrs].count("RV_VLOOP") == 4


def test_a_fifth_loop_with_a_literal_bound_is_unrolled_silently(ctx):
    """The .asc guard passes whether a loop's bound is a literal: beyond the levels such a loop (or one
    around it) is unrolled by the compiler, so nothing is reported; the body still runs every trip."""
    got = []

    @Reg.__simd_vf__
    def vf():
        rec = ctx.vf
        loops = [rec.loop_enter(2, immediate=(k == 1)) for k in range(4)]
        inner = rec.loop_enter(3)
        for _ in range(3):
            rec.loop_iteration(inner)
            got.append(inner.flat)
        for _ in loops:
            rec.loop_exit()
    vf()
    assert ctx.diag.codes() == [] and got == [True] * 3


@pytest.mark.parametrize("kind", ["UnalignRegForStore", "UnalignRegForLoad"])
def test_more_than_four_unalign_registers_is_register_limit(ctx, kind):
    @Reg.__simd_vf__
    def vf(n):
        for _ in range(n):
            getattr(Reg, kind)()

    vf(4)
    with pytest.raises(KernelAbort) as ei:
        vf(5)
    assert ei.value.diag.code == "REGISTER_LIMIT"


def test_more_than_32_reg_tensors_is_a_spill_warning(ctx):
    @Reg.__simd_vf__
    def vf(n):
        regs = [Reg.RegTensor[float]() for _ in range(n)]
        assert len(regs) == n

    vf(32)
    assert "REGISTER_SPILL" not in ctx.diag.codes()
    vf(33)
    assert [d.severity for d in ctx.diag if d.code == "REGISTER_SPILL"] == ["warning"]


# -- compiler effects -------------------------------------------------------------------------------
def test_identical_create_mask_is_emitted_once_per_vf(ctx):
    @Reg.__simd_vf__
    def vf(dst):
        r = Reg.RegTensor[float]()
        Reg.Duplicate[float](r, 2.0, Reg.CreateMask[float]())
        for i in Reg.VLOOP(3):
            Reg.StoreAlign[float](dst + i * 64, r, Reg.CreateMask[float]())
        Reg.StoreAlign[float](dst, r, Reg.CreateMask[float, Reg.MaskPattern.VL8]())

    vf(fptr(DST))
    assert ops(last_vf(ctx))["RV_PSET"] == 2                              # ALL once, VL8 once
    vf(fptr(DST))
    assert ops(last_vf(ctx))["RV_PSET"] == 2                              # per VF instance, not per process


def test_dead_pset_is_removed(ctx):
    put(ctx, SRC, np.ones(128, F32))

    @Reg.__simd_vf__
    def vf(src, dst, n):
        r = Reg.RegTensor[float]()
        count = uint32_t(n)
        mask = Reg.CreateMask[float, Reg.MaskPattern.ALL]()      # overwritten before any use
        for i in Reg.VLOOP(2):
            mask = Reg.UpdateMask[float](count)
            Reg.LoadAlign[float](r, src + i * 64)
            Reg.StoreAlign[float](dst + i * 64, r, mask)

    vf(fptr(SRC), fptr(DST), 100)
    assert ops(last_vf(ctx))["RV_PSET"] == 0 and ops(last_vf(ctx))["RV_PLT"] == 2


@pytest.mark.parametrize("invariant", [True, False])
def test_loop_invariant_plt_is_hoisted(ctx, invariant):
    @Reg.__simd_vf__
    def vf(dst, n):
        r = Reg.RegTensor[float]()
        Reg.Duplicate(r, 1.0)
        count = uint32_t(n)
        for i in Reg.VLOOP(4):
            if invariant:
                mask = Reg.UpdateMask[float](uint32_t(n))        # same count every iteration
            else:
                mask = Reg.UpdateMask[float](count)              # decrementing count
            Reg.StoreAlign[float](dst + i * 64, r, mask)

    vf(fptr(DST), 40 if invariant else 200)
    assert ops(last_vf(ctx))["RV_PLT"] == (1 if invariant else 4)


def test_unmasked_duplicate_adds_one_implicit_pset_per_vf(ctx):
    """[numerics] unmasked_implicit_pset = "b8": its own all-true predicate, not shared with CreateMask<float>."""
    @Reg.__simd_vf__
    def vf(dst, with_typed):
        a = Reg.RegTensor[float]()
        b = Reg.RegTensor[float]()
        Reg.Duplicate(a, 1.0)
        Reg.Duplicate(b, 2.0)
        for i in Reg.VLOOP(2):
            Reg.Duplicate(a, 3.0)
        Reg.Add(a, a, b, Reg.CreateMask[float]() if with_typed else Reg.CreateMask[np.uint8]())
        Reg.StoreAlign[float](dst, a, Reg.CreateMask[float]())

    vf(fptr(DST), True)
    assert ops(last_vf(ctx))["RV_PSET"] == 2                              # implicit b8 ALL + typed float ALL
    vf(fptr(DST), False)
    assert ops(last_vf(ctx))["RV_PSET"] == 3                              # implicit, explicit uint8 ALL, float ALL


# -- ZEROING accumulator ----------------------------------------------------------------------------
@pytest.mark.parametrize("case,warn", [("shrinking_zeroing", True), ("constant_partial", False),
                                       ("shrinking_merging", False)])
def test_zeroing_accumulator_warning(ctx, case, warn):
    put(ctx, SRC, np.ones(256, F32))

    @Reg.__simd_vf__
    def vf(src, dst, n):
        acc = Reg.RegTensor[float]()
        x = Reg.RegTensor[float]()
        Reg.Duplicate(acc, 0.0)
        count = uint32_t(n)
        for i in Reg.VLOOP(3):
            Reg.LoadAlign[float](x, src + i * 64)
            if case == "constant_partial":
                Reg.Add(acc, acc, x, Reg.CreateMask[float, Reg.MaskPattern.VL16]())
            elif case == "shrinking_zeroing":
                Reg.Add(acc, acc, x, Reg.UpdateMask[float](count))          # <- zeroing fold
            else:
                Reg.Add[float, Reg.MaskMergeMode.MERGING](acc, acc, x, Reg.UpdateMask[float](count))
        Reg.StoreAlign[float](dst, acc, Reg.CreateMask[float]())

    vf(fptr(SRC), fptr(DST), 150)
    found = [d for d in ctx.diag if d.code == "ZEROING_ACCUMULATOR"]
    assert bool(found) is warn
    if warn:
        assert found[0].severity == "warning" and found[0].line == line_of(__file__, "# <- zeroing fold")
        out = ctx.ub.view(DST, 256).view(F32)
        np.testing.assert_array_equal(out, np.where(np.arange(64) < 22, 3.0, 0.0))   # lanes 22.. lost
    elif case == "shrinking_merging":
        np.testing.assert_array_equal(ctx.ub.view(DST, 256).view(F32), np.where(np.arange(64) < 22, 3.0, 2.0))


def test_unaligned_store_not_flushed_is_reported_at_vf_end(ctx):
    @Reg.__simd_vf__
    def vf(dst):
        r = Reg.RegTensor[float]()
        u = Reg.UnalignRegForStore()
        Reg.Duplicate(r, 1.0)
        Reg.StoreUnAlign(dst, r, u, 5)                           # <- pending tail

    vf(fptr(DST + 8))
    d = [d for d in ctx.diag if d.code == "UNALIGN_STORE_NOT_FLUSHED"]
    assert len(d) == 1 and not d[0].fatal
    assert d[0].file == os.path.abspath(__file__) and d[0].line == line_of(__file__, "# <- pending tail")
    assert d[0].address == DST + 8 and d[0].size == 20
    assert not ctx.ub.defined[DST:DST + 64].any()                # nothing reached UB


# -- parameters, launch forms ----------------------------------------------------------------------
def test_vf_parameters_are_passed_by_value(ctx):
    inside = {}

    @Reg.__simd_vf__
    def vf(dst, count):
        r = Reg.RegTensor[float]()
        u = Reg.UnalignRegForStore()
        Reg.Duplicate(r, 1.0)
        Reg.StoreUnAlign(dst, r, u, 3)
        Reg.StoreUnAlignPost(dst, u, 0)
        Reg.UpdateMask[float](count)
        inside["addr"], inside["count"] = dst.addr, count.value

    p, n = fptr(DST + 4), uint32_t(100)
    vf(p, n)
    assert inside == {"addr": DST + 16, "count": 36}
    assert p.addr == DST + 4 and n.value == 100
    Reg.asc_vf_call[vf](p, n)
    assert p.addr == DST + 4 and n.value == 100


def test_asc_vf_call_and_direct_call_each_record_one_vf_event(ctx):
    @Reg.__simd_vf__
    def Scale(dst, a, n):
        r = Reg.RegTensor[float]()
        Reg.Duplicate(r, a)
        Reg.StoreAlign[float](dst, r, Reg.UpdateMask[float](uint32_t(n)))

    Reg.asc_vf_call[Scale](fptr(DST), 2.0, 64)                   # <- asc_vf_call launch
    Scale(fptr(DST + 256), 3.0, 64)                              # <- direct launch
    Reg.asc_vf_call(Scale, fptr(DST + 512), a=4.0, n=8)
    vfs = [e for e in ctx.events if isinstance(e, VfCall)]
    assert [(e.name, e.launch, e.nparams) for e in vfs] == [("Scale", "asc_vf_call", 3), ("Scale", "direct", 3),
                                                            ("Scale", "asc_vf_call", 3)]
    assert vfs[0].where == (os.path.abspath(__file__), line_of(__file__, "# <- asc_vf_call launch"))
    assert vfs[1].where[1] == line_of(__file__, "# <- direct launch")
    # same instruction stream; only the UB address of the store differs (DST vs DST + 256 B), from
    # which the timing view computes banks
    strip = lambda sig: [ins._replace(ub_addr=-1) for ins in sig[2]]  # noqa: E731
    assert strip(vfs[0].signature()) == strip(vfs[1].signature())
    assert [ins.ub_addr for ins in vfs[1].instrs if ins.opcode == "RV_VST"] == [DST + 256]
    out = ctx.ub.view(DST, 3 * 256).view(F32)
    np.testing.assert_array_equal(out[:128], np.repeat([2.0, 3.0], 64))
    np.testing.assert_array_equal(out[128:136], 4.0)


def test_vf_inside_vf_and_registers_outside_vf_are_errors(ctx):
    @Reg.__simd_vf__
    def inner():
        pass

    @Reg.__simd_vf__
    def outer():
        inner()

    with pytest.raises(RuntimeError):
        outer()
    with pytest.raises(RuntimeError):
        Reg.RegTensor[float]()
    assert ctx.vf is None


def test_simd_callee_is_inlined(ctx):
    @Reg.__simd_callee__
    def fill(dst, v):
        r = Reg.RegTensor[float]()
        Reg.Duplicate(r, v)
        Reg.StoreAlign[float](dst, r, Reg.CreateMask[float]())

    @Reg.__simd_vf__
    def vf(dst):
        fill(dst, 1.0)
        fill(dst + 64, 2.0)

    vf(fptr(DST))
    assert len([e for e in ctx.events if isinstance(e, VfCall)]) == 1 and ops(last_vf(ctx))["RV_VST"] == 2


# -- definedness through registers -------------------------------------------------------------------
def test_never_written_ub_stays_undefined_through_a_vf(ctx):
    @Reg.__simd_vf__
    def vf(src, dst):
        r = Reg.RegTensor[float]()
        m = Reg.CreateMask[float]()
        Reg.LoadAlign[float](r, src)
        Reg.Muls(r, r, 2.0, m)
        Reg.StoreAlign[float](dst, r, m)

    put(ctx, SRC, np.ones(32, F32))                              # first half defined only
    vf(fptr(SRC), fptr(DST))
    assert ctx.ub.defined[DST:DST + 128].all()
    assert not ctx.ub.defined[DST + 128:DST + 256].any()
    assert "UNDEFINED_READ" not in ctx.diag.codes()              # over-reading is legal, only a use is reported


def test_masked_off_tail_lanes_do_not_taint_active_lanes(ctx):
    n = 100
    put(ctx, SRC, np.arange(n, dtype=F32))                       # floats [100, 128) never written
    put(ctx, DST, np.zeros(128, F32))

    @Reg.__simd_vf__
    def vf(src, dst, count):
        x = Reg.RegTensor[float]()
        y = Reg.RegTensor[float]()
        acc = Reg.RegTensor[float]()
        remain = uint32_t(count)
        Reg.Duplicate(acc, 0.0)
        for i in Reg.VLOOP(2):
            m = Reg.UpdateMask[float](remain)
            Reg.LoadAlign[float](x, src + i * 64)
            Reg.Adds(y, x, 1.0, m)
            Reg.Add[float, Reg.MaskMergeMode.MERGING](acc, acc, y, m)
            Reg.StoreAlign[float](dst + i * 64, y, m)
        Reg.ReduceSum(acc, acc, Reg.CreateMask[float]())
        Reg.StoreAlign[float](dst + 128, acc, Reg.CreateMask[float, Reg.MaskPattern.VL1]())

    vf(fptr(SRC), fptr(DST), n)
    assert ctx.ub.defined[DST:DST + 4 * 129].all()
    out = LocalTensor(DST, F32, 129)
    np.testing.assert_array_equal(out.to_numpy()[:n], np.arange(n) + 1)
    assert out.GetValue(128) == float(np.arange(n).sum() + n)
    assert "UNDEFINED_READ" not in ctx.diag.codes()


def test_unmasked_store_of_tail_lanes_propagates_undefined(ctx):
    put(ctx, SRC, np.arange(100, dtype=F32))

    @Reg.__simd_vf__
    def vf(src, dst):
        x = Reg.RegTensor[float]()
        Reg.LoadAlign[float](x, src + 64)
        Reg.Adds(x, x, 1.0, Reg.CreateMask[float]())
        Reg.StoreAlign[float](dst, x, Reg.CreateMask[float]())

    vf(fptr(SRC), fptr(DST))
    assert ctx.ub.defined[DST:DST + 36 * 4].all() and not ctx.ub.defined[DST + 36 * 4:DST + 256].any()
    LocalTensor(DST, F32, 64).GetValue(40)
    assert "UNDEFINED_READ" in ctx.diag.codes()


@pytest.mark.parametrize("api", ["Add", "Cast"])
def test_merging_keeps_the_old_destination_shadow(ctx, api):
    """MERGING leaves inactive lanes as they were: lanes of a never-written register stay undefined."""
    put(ctx, SRC, np.arange(64, dtype=np.int32))
    tr = Reg.CastTrait(Reg.RegLayout.ZERO, Reg.SatMode.UNKNOWN, Reg.MaskMergeMode.MERGING, Reg.RoundMode.CAST_RINT)

    @Reg.__simd_vf__
    def vf(src, dst):
        x = Reg.RegTensor[np.int32]()
        y = Reg.RegTensor[float]()
        m = Reg.UpdateMask[float](uint32_t(10))
        Reg.LoadAlign[np.int32](x, src)
        if api == "Cast":
            Reg.Cast[float, np.int32, tr](y, x, m)
        else:
            Reg.Add[np.int32, Reg.MaskMergeMode.MERGING](y, x, x, m)
        Reg.StoreAlign[float](dst, y, Reg.CreateMask[float]())

    vf(UbPtr(SRC, np.dtype(np.int32)), fptr(DST))
    lanes = ctx.ub.defined[DST:DST + 256].reshape(64, 4).all(axis=1)
    np.testing.assert_array_equal(lanes, np.arange(64) < 10)


def test_local_mem_bar_is_recorded_and_never_dead(ctx):
    @Reg.__simd_vf__
    def vf():
        Reg.LocalMemBar[Reg.MemType.VEC_STORE, Reg.MemType.VEC_LOAD]()

    vf()
    assert [(i[0], i[3]) for i in last_vf(ctx).instrs] == [("RV_MEMBAR", "VST_VLD")]
