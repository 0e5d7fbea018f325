"""MemBase element-wise APIs (binary, scalar, unary, Duplicate): count and level-0 forms, sequential
repeats, definedness, diagnostics and the recorded VF, against references written here in numpy."""
from collections import Counter

import ml_dtypes
import numpy as np
import pytest

from toolkit.ascendc import membase as AscendC
from toolkit.ascendc.membase import BinaryRepeatParams, UnaryRepeatParams
from toolkit.engine.runtime import CoreContext, running
from toolkit.record.diagnostics import KernelAbort
from toolkit.record.events import PSEUDO_OPS, Instr, VfCall

from api_support import get, membase_vf, ops, put, T

F32, F16 = np.dtype(np.float32), np.dtype(np.float16)
BF16 = np.dtype(ml_dtypes.bfloat16)
ALL = (1 << 64) - 1


def rand(n, seed, dt=F32, lo=-4.0, hi=4.0):
    return np.random.default_rng(seed).uniform(lo, hi, n).astype(np.float32).astype(dt)


def ref_level0(mem, dt, op, dst, srcs, active, repeat, strides):
    """Sequential per-repeat reference of a level-0 call on a copy of UB bytes (explicit address formula)."""
    w = np.dtype(dt).itemsize
    epb = 32 // w
    v = mem.view(dt)

    def at(base, blk, rep, r, e):
        return (base + (r * rep + (e // epb) * blk) * 32 + (e % epb) * w) // w

    for r in range(repeat):
        vals = [np.array([v[at(a, *strides[k + 1], r, e)] for e in active], dtype=dt) for k, a in enumerate(srcs)]
        res = op(*vals)
        for k, e in enumerate(active):
            v[at(dst, *strides[0], r, e)] = res[k]


def bits_active(word0, word1, lanes):
    m = word0 | (word1 << 64)
    return [i for i in range(lanes) if (m >> i) & 1]


# -- count form ------------------------------------------------------------------------------------
@pytest.mark.parametrize("api,ref", [("Add", np.add), ("Sub", np.subtract), ("Mul", np.multiply),
                                     ("Max", np.maximum), ("Min", np.minimum)])
def test_count_form_binary_fp32_tail(ctx, api, ref):
    a, b = rand(1000, 1), rand(1000, 2)
    put(ctx, 0, a)
    put(ctx, 4096, b)
    put(ctx, 8192, np.full(1100, 7.5, np.float32))
    getattr(AscendC, api)(T(8192, F32), T(0, F32), T(4096, F32), 1000)
    out = get(ctx, 8192, F32, 1100)
    np.testing.assert_array_equal(out[:1000], ref(a, b))
    assert (out[1000:] == 7.5).all()           # rest of the last VL untouched


def test_count_form_div_sqrt_correctly_rounded(ctx):
    a = rand(777, 3, lo=-100, hi=100)
    b = rand(777, 4, lo=0.01, hi=3)
    put(ctx, 0, a)
    put(ctx, 4096, b)
    AscendC.Div(T(8192, F32), T(0, F32), T(4096, F32), 777)
    AscendC.Sqrt(T(12288, F32), T(4096, F32), 777)
    # float64 then one rounding to float32 is the correctly rounded float32 result
    np.testing.assert_array_equal(get(ctx, 8192, F32, 777).view(np.uint32),
                                  (a.astype(np.float64) / b.astype(np.float64)).astype(F32).view(np.uint32))
    np.testing.assert_array_equal(get(ctx, 12288, F32, 777).view(np.uint32),
                                  np.sqrt(b.astype(np.float64)).astype(F32).view(np.uint32))


def test_count_form_bf16_computed_in_fp32_rounded_rint(ctx):
    a, b = rand(300, 5, BF16), rand(300, 6, BF16)
    put(ctx, 0, a)
    put(ctx, 1024, b)
    AscendC.Add(T(2048, BF16), T(0, BF16), T(1024, BF16), 300)
    AscendC.Mul(T(3072, BF16), T(0, BF16), T(1024, BF16), 300)
    fa, fb = a.astype(F32), b.astype(F32)
    np.testing.assert_array_equal(get(ctx, 2048, BF16, 300).view(np.uint16), (fa + fb).astype(BF16).view(np.uint16))
    np.testing.assert_array_equal(get(ctx, 3072, BF16, 300).view(np.uint16), (fa * fb).astype(BF16).view(np.uint16))


def test_count_form_half(ctx):
    a, b = rand(200, 7, F16), rand(200, 8, F16)
    put(ctx, 0, a)
    put(ctx, 512, b)
    AscendC.Add(T(1024, F16), T(0, F16), T(512, F16), 200)
    np.testing.assert_array_equal(get(ctx, 1024, F16, 200), (a.astype(np.float64) + b).astype(F16))


@pytest.mark.parametrize("api,ref", [("Adds", lambda x, s: x + s), ("Muls", lambda x, s: x * s),
                                     ("Maxs", np.maximum), ("Mins", np.minimum)])
def test_count_form_scalar_ops(ctx, api, ref):
    a = rand(130, 9)
    put(ctx, 0, a)
    put(ctx, 1024, np.full(192, -1.0, np.float32))
    getattr(AscendC, api)(T(1024, F32), T(0, F32), 0.37, 130)
    out = get(ctx, 1024, F32, 192)
    np.testing.assert_array_equal(out[:130], ref(a, np.float32(0.37)))
    assert (out[130:] == -1.0).all()


@pytest.mark.parametrize("api,ref", [("Exp", np.exp), ("Abs", np.abs), ("Ln", np.log),
                                     ("Relu", lambda x: np.where(x > 0, x, np.float32(0)))])
def test_count_form_unary(ctx, api, ref):
    a = rand(100, 10, lo=0.1, hi=5) if api == "Ln" else rand(100, 10)
    put(ctx, 0, a)
    getattr(AscendC, api)(T(1024, F32), T(0, F32), 100)
    np.testing.assert_array_equal(get(ctx, 1024, F32, 100), ref(a).astype(F32))


def test_in_place_count_form_and_template_syntax(ctx):
    a = rand(64, 11)
    put(ctx, 0, a)
    AscendC.Muls[float](T(0, F32), T(0, F32), 2.0, 64)
    np.testing.assert_array_equal(get(ctx, 0, F32, 64), a * 2)


def test_duplicate_count_and_level0(ctx):
    put(ctx, 0, np.zeros(256, np.float32))
    AscendC.Duplicate(T(0, F32), 3.5, 70)
    out = get(ctx, 0, F32, 256)
    assert (out[:70] == 3.5).all() and (out[70:] == 0).all()
    AscendC.Duplicate(T(512, F32), -1.0, [0b1011, 0], 2, 1, 16)   # lanes 0,1,3 of repeats 0 and 1
    out = get(ctx, 0, F32, 512)
    assert set(np.flatnonzero(out == -1.0)) == {128, 129, 131, 256, 257, 259}


# -- level-0 form ----------------------------------------------------------------------------------
def test_level0_bit_mask_with_holes_keeps_masked_off(ctx):
    a, b = rand(64 * 3, 12), rand(64 * 3, 13)
    put(ctx, 0, a)
    put(ctx, 1024, b)
    put(ctx, 2048, np.full(64 * 3, 99.0, np.float32))
    m0 = 0xF0F0_0000_FFFF_0001
    mem = ctx.ub.data.copy()
    AscendC.Add(T(2048, F32), T(0, F32), T(1024, F32), [m0, ALL], 3, BinaryRepeatParams())
    ref_level0(mem, F32, np.add, 2048, [0, 1024], bits_active(m0, 0, 64), 3, [(1, 8)] * 3)
    np.testing.assert_array_equal(ctx.ub.data, mem)
    out = get(ctx, 2048, F32, 64)
    assert out[1] == 99.0 and out[0] == a[0] + b[0]


def test_level0_half_uses_both_mask_words(ctx):
    a, b = rand(128 * 2, 14, F16), rand(128 * 2, 15, F16)
    put(ctx, 0, a)
    put(ctx, 1024, b)
    put(ctx, 2048, np.full(256, 5, np.float16))
    m0, m1 = 0x00FF_00FF_00FF_00FF, 0x8000_0000_0000_0003
    mem = ctx.ub.data.copy()
    AscendC.Mul(T(2048, F16), T(0, F16), T(1024, F16), [m0, m1], 2, BinaryRepeatParams())
    ref_level0(mem, F16, np.multiply, 2048, [0, 1024], bits_active(m0, m1, 128), 2, [(1, 8)] * 3)
    np.testing.assert_array_equal(ctx.ub.data, mem)
    assert get(ctx, 2048, F16, 256)[127] == a[127] * b[127]


def test_level0_continuous_mask_block_and_repeat_strides_broadcast_block(ctx):
    a, b = rand(2048, 16), rand(64, 17)
    put(ctx, 0, a)
    put(ctx, 16384, b)
    mem = ctx.ub.data.copy()
    p = BinaryRepeatParams(2, 1, 0, 20, 8, 1)      # dst blk 2 rep 20; src1 block 0 reused, rep 1
    AscendC.Sub(T(32768, F32), T(0, F32), T(16384, F32), 40, 5, p)
    ref_level0(mem, F32, np.subtract, 32768, [0, 16384], list(range(40)), 5,
               [(2, 20), (1, 8), (0, 1)])
    np.testing.assert_array_equal(ctx.ub.data, mem)


def test_level0_scalar_and_unary_forms(ctx):
    a = rand(512, 18, lo=0.5, hi=9)
    put(ctx, 0, a)
    mem = ctx.ub.data.copy()
    AscendC.Muls(T(4096, F32), T(0, F32), 1.5, [0x5555_5555_5555_5555, 0], 4, UnaryRepeatParams(1, 2, 8, 16))
    ref_level0(mem, F32, lambda x: x * np.float32(1.5), 4096, [0], bits_active(0x5555_5555_5555_5555, 0, 64), 4,
               [(1, 8), (2, 16)])
    AscendC.Sqrt(T(8192, F32), T(0, F32), 17, 3, UnaryRepeatParams(1, 1, 4, 8))
    ref_level0(mem, F32, np.sqrt, 8192, [0], list(range(17)), 3, [(1, 4), (1, 8)])
    np.testing.assert_array_equal(ctx.ub.data, mem)


def test_spec_in_place_fold_matches_pairwise_fold(ctx):
    rows, dv = 8, 512
    sq = rand(rows * dv, 19, lo=0, hi=1)
    put(ctx, 0, sq)
    mem = ctx.ub.data.copy()
    square = T(0, F32, rows * dv)
    for rep in (4 * rows, 2 * rows, rows):
        AscendC.Add(square, square, square[64], [ALL, ALL], rep, BinaryRepeatParams(1, 1, 1, 8, 16, 16))
        ref_level0(mem, F32, np.add, 0, [0, 256], list(range(64)), rep, [(1, 8), (1, 16), (1, 16)])
    np.testing.assert_array_equal(ctx.ub.data, mem)
    chunks = sq.reshape(rows, 8, 64)                 # independent: pairwise fold 8 -> 4 -> 2 -> 1 per row
    f1 = chunks[:, 0::2] + chunks[:, 1::2]
    f2 = f1[:, 0::2] + f1[:, 1::2]
    f3 = f2[:, 0] + f2[:, 1]
    np.testing.assert_array_equal(get(ctx, 0, F32, rows * 64).reshape(rows, 64), f3)
    ev = membase_vf(ctx)
    assert ops(ev)["RV_VSLDB"] == 2 * rows and ops(ev)["RV_MEMBAR"] == rows - 1


def test_level0_read_after_write_across_repeats_is_sequential(ctx):
    a = np.arange(64 * 5, dtype=np.float32)
    c = np.ones(64, np.float32)
    put(ctx, 0, a)
    put(ctx, 4096, c)
    mem = ctx.ub.data.copy()
    # repeat r writes chunk r+1 from chunk r (written by repeat r-1): a running sum
    AscendC.Add(T(256, F32), T(0, F32), T(4096, F32), 64, 4, BinaryRepeatParams(1, 1, 1, 8, 8, 0))
    ref_level0(mem, F32, np.add, 256, [0, 4096], list(range(64)), 4, [(1, 8), (1, 8), (1, 0)])
    np.testing.assert_array_equal(ctx.ub.data, mem)
    np.testing.assert_array_equal(get(ctx, 256 * 4, F32, 64), a[:64] + 4)
    # repStride 0 accumulation into the same dst chunk
    put(ctx, 8192, np.zeros(64, np.float32))
    AscendC.Add(T(8192, F32), T(8192, F32), T(4096, F32), [ALL, 0], 6, BinaryRepeatParams(1, 1, 1, 0, 0, 0))
    assert (get(ctx, 8192, F32, 64) == 6).all()


def test_spec_per_row_div_broadcast_block_and_rope_mul(ctx):
    rows, dv, dk = 2, 512, 128
    x = rand(rows * dv, 20)
    rms = rand(rows, 21, lo=0.5, hi=2)
    put(ctx, 0, x)
    put(ctx, 8192, np.repeat(rms, 8))                # Brcb layout: one 32 B block per row
    for r in range(rows):
        AscendC.Div(T(r * dv * 4, F32), T(r * dv * 4, F32), T(8192 + r * 32, F32), [ALL, ALL], 8,
                    BinaryRepeatParams(1, 1, 0, 8, 8, 0))
    np.testing.assert_array_equal(get(ctx, 0, F32, rows * dv).reshape(rows, dv), x.reshape(rows, dv) / rms[:, None])
    real, cos = rand(rows * dk // 2, 22), rand(rows * dk, 23)
    put(ctx, 16384, real)
    put(ctx, 20480, cos)
    put(ctx, 24576, np.zeros(rows * dk, np.float32))
    AscendC.Mul(T(24576, F32), T(16384, F32), T(20480, F32), 64, rows, BinaryRepeatParams(1, 1, 1, 16, 8, 16))
    y0 = get(ctx, 24576, F32, rows * dk).reshape(rows, dk)
    np.testing.assert_array_equal(y0[:, :64], real.reshape(rows, 64) * cos.reshape(rows, dk)[:, :64])
    assert (y0[:, 64:] == 0).all()


# -- recorded VF -----------------------------------------------------------------------------------
def test_vf_count_form_opcode_counts(ctx):
    AscendC.Add(T(8192, F32), T(0, F32), T(4096, F32), 1000)
    ev = membase_vf(ctx)
    assert ev.name == "Add" and ev.nparams == 4
    c = ops(ev)
    assert c == Counter({"RV_VLOOP": 1, "ITER": 16, "RV_PLT": 16, "RV_VLD": 32, "RV_VADD": 16, "RV_VST": 16})
    assert ev.instrs[0][:4] == ("RV_VLOOP", -1, (), 16)
    it = ev.instrs[1:7]
    assert it[0][:4] == ("ITER", -1, (), 1) and it[1][:4] == ("RV_PLT", 1, (), 1000)
    assert it[4][:5] == ("RV_VADD", 4, (2, 3, 1), None, 1)
    # loads and stores carry their UB address and bytes (the bank/port rules of the timing view)
    assert (it[2].ub_addr, it[3].ub_addr, it[2].ub_bytes) == (0, 4096, 256)
    assert it[5] == Instr("RV_VST", -1, (4, 1), None, 1, "NORM", 8192, 256, 1)
    assert ev.instrs[-5][0] == "RV_PLT" and ev.instrs[-5][3] == 1000 - 15 * 64
    assert (ev.instrs[-1].ub_addr, ev.instrs[-1].ub_bytes) == (8192 + 15 * 256, (1000 - 15 * 64) * 4)


def test_vf_level0_stream_shape(ctx):
    AscendC.Mul(T(8192, F32), T(0, F32), T(4096, F32), [ALL, 0], 3, BinaryRepeatParams())
    ev = membase_vf(ctx)
    assert ev.instrs[0][:4] == ("RV_PMOV", 1, (), None) and ev.instrs[1][:4] == ("RV_VLOOP", -1, (), 3)
    # block-strided records: aux = blkStride, UB address of the repeat (repStride 8 blocks)
    assert [i[:4] for i in ev.instrs[2:8]] == [("ITER", -1, (), 1), ("RV_VSLDB", 2, (1,), 1), ("RV_VSLDB", 3, (1,), 1),
                                               ("RV_VMUL", 4, (2, 3, 1), None), ("RV_VSSTB", -1, (4, 1), 1),
                                               ("RV_MEMBAR", -1, (), "VST_VLD")]
    assert [i.ub_addr for i in ev.instrs if i.opcode == "RV_VSSTB"] == [8192, 8192 + 256, 8192 + 512]
    assert ops(ev)["RV_MEMBAR"] == 2 and ev.instrs[-1][0] == "RV_VSSTB"
    AscendC.Adds(T(8192, F32), T(0, F32), 1.0, 48, 2, UnaryRepeatParams())
    ev2 = membase_vf(ctx)
    assert ev2.instrs[0][:4] == ("RV_PLT", 1, (), 48) and ops(ev2)["RV_VADDS"] == 2
    dsts = [i[1] for i in ev2.instrs if i[1] >= 0]
    assert len(dsts) == len(set(dsts)) and min(dsts) == 1


def test_vf_streams_equal_for_equal_parameters_and_opcodes_known(ctx):
    AscendC.Div(T(8192, F32), T(0, F32), T(4096, F32), 300)
    AscendC.Div(T(12288, F32), T(0, F32), T(4096, F32), 300)
    AscendC.Exp(T(12288, F32), T(0, F32), 10, 2, UnaryRepeatParams())
    AscendC.Duplicate(T(0, F32), 1.0, 65)
    evs = [e for e in ctx.events if isinstance(e, VfCall)]
    # equal parameters, equal streams but for the destination address
    assert [i._replace(ub_addr=-1) for i in evs[0].instrs] == [i._replace(ub_addr=-1) for i in evs[1].instrs]
    assert evs[0].signature() != evs[1].signature()
    for e in evs:
        for op, *_ in e.instrs:
            if op not in PSEUDO_OPS:
                ctx.machine.instr(op)               # raises for an opcode without a cost entry


# -- definedness -----------------------------------------------------------------------------------
def test_definedness_propagates_count_and_level0(ctx):
    put(ctx, 0, rand(128, 24))
    put(ctx, 1024, rand(100, 25))                   # src1 elements 100..127 never written
    AscendC.Add(T(2048, F32), T(0, F32), T(1024, F32), 128)
    d = ctx.ub.defined[2048:2048 + 512].reshape(128, 4)
    assert d[:100].all() and not d[100:].any()
    AscendC.Mul(T(4096, F32), T(0, F32), T(1024, F32), [0xFF << 32, 0], 2, BinaryRepeatParams(1, 1, 1, 8, 8, 0))
    d = ctx.ub.defined[4096:4096 + 512].reshape(128, 4).all(axis=1)
    lanes = bits_active(0xFF << 32, 0, 64)
    assert d[lanes].all() and d[[64 + e for e in lanes]].all()
    assert not d[[e for e in range(128) if e % 64 not in lanes]].any()   # masked off: never written
    put(ctx, 8192, rand(64, 26))
    AscendC.Muls(T(8192, F32), T(1024 + 96 * 4, F32), 2.0, 8)             # 4 defined + 4 undefined sources
    assert ctx.ub.defined[8192:8192 + 16].all() and not ctx.ub.defined[8192 + 16:8192 + 32].any()
    assert ctx.ub.defined[8192 + 32:8192 + 256].all()                     # beyond count: old content kept


# -- diagnostics -----------------------------------------------------------------------------------
def test_diagnostics(ctx):
    with pytest.raises(KernelAbort) as e:
        AscendC.Add(T(8196, F32), T(0, F32), T(4096, F32), 64)
    assert e.value.diag.code == "UB_MISALIGNED"
    with pytest.raises(KernelAbort) as e:
        AscendC.Add(T(ctx.ub.size - 128, F32), T(0, F32), T(4096, F32), 64)
    assert e.value.diag.code == "UB_OUT_OF_BOUNDS"
    with pytest.raises(KernelAbort) as e:
        AscendC.Add(T(0, F32), T(0, F16), T(4096, F32), 64)
    assert e.value.diag.code == "BAD_PARAMETER"
    with pytest.raises(KernelAbort) as e:
        AscendC.Add(T(0, F32), T(0, F32), T(4096, F32), 64, 256, BinaryRepeatParams())
    assert e.value.diag.code == "BAD_PARAMETER"
    put(ctx, 0, np.full(64, 3.0, np.float32))
    AscendC.Add(T(0, F32), T(0, F32), T(0, F32), [0, 0], 1, BinaryRepeatParams())
    assert "MASK_ZERO" in ctx.diag.codes() and (get(ctx, 0, F32, 64) == 3.0).all()


def test_count_form_overlapping_shifted_dst_is_sequential_per_chunk(ctx):
    a = np.arange(320, dtype=np.float32)
    put(ctx, 0, a)
    put(ctx, 4096, np.ones(256, np.float32))
    AscendC.Add(T(256, F32), T(0, F32), T(4096, F32), 256)     # chunk k reads what chunk k-1 wrote
    ref = a.copy()
    for k in range(4):
        ref[64 * (k + 1):64 * (k + 2)] = ref[64 * k:64 * (k + 1)] + 1
    np.testing.assert_array_equal(get(ctx, 0, F32, 320), ref)


def test_dry_run_records_without_data():
    c = CoreContext(dry_run=True)
    with running(c):
        AscendC.Add(T(8192, F32), T(0, F32), T(4096, F32), 100)
        AscendC.WholeReduceSum(T(0, F32), T(4096, F32), 64, 2, 1, 1, 8)
    assert [e.name for e in c.events] == ["Add", "WholeReduceSum"]
