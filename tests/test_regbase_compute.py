"""RegBase compute (api-facts 2, 6-8): arithmetic vs numpy, MaskMergeMode, Duplicate, reductions, Cast
with RegLayout and rounding modes, UpdateMask / CreateMask. References are written here."""
from __future__ import annotations

from collections import Counter

import ml_dtypes
import numpy as np
import pytest

from toolkit.ascendc import regbase as Reg
from toolkit.ascendc.dtypes import bfloat16_t, uint32_t
from toolkit.ascendc.tensor import UbPtr
from toolkit.record.diagnostics import KernelAbort

from api_support import get, put, tree_sum

F32, F64, U16, U32, I32 = (np.dtype(t) for t in (np.float32, np.float64, np.uint16, np.uint32, np.int32))
BF16 = np.dtype(ml_dtypes.bfloat16)
SRC, DST = 4096, 16384
ZEROING, MERGING = Reg.MaskMergeMode.ZEROING, Reg.MaskMergeMode.MERGING


def run(ctx, body, inputs, dt=F32, out_dt=None):
    """Load each input VL (type ``dt``) into a register, ``body(regs, out)``, store ``out`` whole."""
    dt, odt = np.dtype(dt), np.dtype(out_dt or dt)
    lanes = 256 // dt.itemsize
    for k, a in enumerate(inputs):
        put(ctx, SRC + 256 * k, np.asarray(a, dt))

    @Reg.__simd_vf__
    def vf(src, dst):
        regs = []
        for k in range(len(inputs)):
            r = Reg.RegTensor[dt]()
            Reg.LoadAlign[dt](r, src + k * lanes)
            regs.append(r)
        out = Reg.RegTensor[odt]()
        body(regs, out)
        Reg.StoreAlign[odt](dst, out, Reg.CreateMask[odt]())

    vf(UbPtr(SRC, dt), UbPtr(DST, odt))
    return get(ctx, DST, odt, 256 // odt.itemsize)


def rand(n, seed, lo=-100.0, hi=100.0):
    return np.random.default_rng(seed).uniform(lo, hi, n).astype(F32)


def f32_to_bf16_rne(x: np.ndarray) -> np.ndarray:
    """Round-to-nearest-even of finite fp32 values to bf16, on the bit pattern."""
    b = np.asarray(x, F32).view(U32).astype(np.uint64)
    r = (b + 0x7FFF + ((b >> 16) & 1)) >> 16
    return r.astype(U16).view(BF16)


def bf16_to_f32(bits16: np.ndarray) -> np.ndarray:
    return (np.asarray(bits16).view(U16).astype(U32) << 16).view(F32)


def ulp_diff(a, b):
    ia, ib = np.asarray(a, F32).view(np.int32).astype(np.int64), np.asarray(b, F32).view(np.int32).astype(np.int64)
    return np.abs(ia - ib)


# -- element-wise fp32 ---------------------------------------------------------------------------
BINARY = {"Add": np.add, "Sub": np.subtract, "Mul": np.multiply, "Div": np.divide}


@pytest.mark.parametrize("name", list(BINARY))
def test_fp32_binary_is_correctly_rounded(ctx, name):
    """0 ulp for Add/Sub/Mul; Div per [numerics] div_sqrt_exp = "correctly_rounded" (fp64 op rounded once)."""
    a, b = rand(64, 1), rand(64, 2)
    b[b == 0] = 1.0
    out = run(ctx, lambda r, o: getattr(Reg, name)(o, r[0], r[1], Reg.CreateMask[float]()), [a, b])
    expect = BINARY[name](a.astype(F64), b.astype(F64)).astype(F32)
    np.testing.assert_array_equal(out.view(U32), expect.view(U32))


@pytest.mark.parametrize("name,ref", [("Max", np.maximum), ("Min", np.minimum)])
def test_fp32_max_min(ctx, name, ref):
    a, b = rand(64, 3), rand(64, 4)
    a[5], b[6] = np.nan, np.nan
    out = run(ctx, lambda r, o: getattr(Reg, name)(o, r[0], r[1], Reg.CreateMask[float]()), [a, b])
    expect = ref(a, b)
    assert np.isnan(out[5]) and np.isnan(out[6])                 # NaN propagates from either operand
    np.testing.assert_array_equal(out, expect)


def test_signed_zero_max_min(ctx):
    """Max(+0, -0) = +0 (boundary table); Min(+0, -0) = -0 (emulator choice, UNCONFIRMED for element-wise)."""
    a = np.tile(np.array([0.0, -0.0], F32), 32)
    b = np.tile(np.array([-0.0, 0.0], F32), 32)
    mx = run(ctx, lambda r, o: Reg.Max(o, r[0], r[1], Reg.CreateMask[float]()), [a, b])
    mn = run(ctx, lambda r, o: Reg.Min(o, r[0], r[1], Reg.CreateMask[float]()), [a, b])
    assert not np.signbit(mx).any() and np.signbit(mn).all()


SCALAR = {"Adds": np.add, "Muls": np.multiply, "Maxs": np.maximum, "Mins": np.minimum}


@pytest.mark.parametrize("name", list(SCALAR))
def test_fp32_scalar_ops(ctx, name):
    a, s = rand(64, 5), 0.37                                     # the scalar is a float (fp32) argument
    out = run(ctx, lambda r, o: getattr(Reg, name)(o, r[0], s, Reg.CreateMask[float]()), [a])
    expect = SCALAR[name](a.astype(F64), np.float64(np.float32(s))).astype(F32)
    np.testing.assert_array_equal(out, expect)


def test_fp32_sqrt(ctx):
    """Correctly rounded ([numerics] div_sqrt_exp); Sqrt(-x) = NaN, Sqrt(-0) = -0."""
    a = np.abs(rand(64, 6)) * np.float32(1e3)
    a[:3] = [-1.0, -0.0, 0.0]
    out = run(ctx, lambda r, o: Reg.Sqrt(o, r[0], Reg.CreateMask[float]()), [a])
    assert np.isnan(out[0]) and out[1] == 0 and np.signbit(out[1]) and not np.signbit(out[2])
    np.testing.assert_array_equal(out[3:], np.sqrt(a[3:].astype(F64)).astype(F32))


def test_fp32_exp(ctx):
    """[numerics] div_sqrt_exp = "correctly_rounded": within 1 ulp of the fp64 result; Exp(-inf) = 0, Exp(inf) = inf."""
    a = rand(64, 7, -80, 80)
    a[:2] = [-np.inf, np.inf]
    out = run(ctx, lambda r, o: Reg.Exp(o, r[0], Reg.CreateMask[float]()), [a])
    assert out[0] == 0 and out[1] == np.inf
    assert ulp_diff(out[2:], np.exp(a[2:].astype(F64)).astype(F32)).max() <= 1


def test_int32_div_truncates_toward_zero(ctx):
    """C integer division semantics; division by zero gives 0 (emulator choice)."""
    a = np.resize(np.array([-7, 7, -7, 7, 5, 100, -1, 0], np.int32), 64)
    b = np.resize(np.array([2, -2, -2, 2, 0, 7, 3, 9], np.int32), 64)
    out = run(ctx, lambda r, o: Reg.Div(o, r[0], r[1], Reg.CreateMask[np.int32]()), [a, b], I32)
    np.testing.assert_array_equal(out, np.resize(np.array([-3, -3, 3, 3, 0, 14, 0, 0], np.int32), 64))


# -- bf16 Add / Mul: fp32 op then RINT -----------------------------------------------------------
def _bf16_inputs(seed):
    rng = np.random.default_rng(seed)
    a = f32_to_bf16_rne(rng.uniform(-8, 8, 128).astype(F32))
    b = f32_to_bf16_rne(rng.uniform(-8, 8, 128).astype(F32))
    # hand-picked ties for Add: 1 + 2^-8 -> 1 (even); (1 + 2^-7) + 2^-8 -> 1 + 2^-6 (even); -ties too
    a[:4] = np.array([1.0, 1.0 + 2 ** -7, -1.0, -(1.0 + 2 ** -7)], F32).astype(BF16)
    b[:4] = np.array([2 ** -8, 2 ** -8, -(2 ** -8), -(2 ** -8)], F32).astype(BF16)
    return a, b


@pytest.mark.parametrize("name,op", [("Add", np.add), ("Mul", np.multiply)])
def test_bf16_add_mul_compute_in_fp32_then_rint(ctx, name, op):
    a, b = _bf16_inputs(8)
    out = run(ctx, lambda r, o: getattr(Reg, name)(o, r[0], r[1], Reg.CreateMask[bfloat16_t]()), [a, b], BF16)
    exact = op(bf16_to_f32(a).astype(F64), bf16_to_f32(b).astype(F64)).astype(F32)   # exact in fp32
    np.testing.assert_array_equal(out.view(U16), f32_to_bf16_rne(exact).view(U16))
    if name == "Add":
        assert list(bf16_to_f32(out[:4])) == [1.0, 1.0 + 2 ** -6, -1.0, -(1.0 + 2 ** -6)]


# -- MaskMergeMode --------------------------------------------------------------------------------
MERGE_OPS = {
    "Add": (lambda o, r, m, t: Reg.Add[float, t](o, r[0], r[1], m), lambda a, b: a + b),
    "Max": (lambda o, r, m, t: Reg.Max[float, t](o, r[0], r[1], m), np.maximum),
    "Mul": (lambda o, r, m, t: Reg.Mul[float, t](o, r[0], r[1], m), lambda a, b: a * b),
    "Muls": (lambda o, r, m, t: Reg.Muls[float, t](o, r[0], 3.0, m), lambda a, b: a * np.float32(3)),
    "Exp": (lambda o, r, m, t: Reg.Exp[float, t](o, r[0], m), lambda a, b: np.exp(a)),
}


@pytest.mark.parametrize("mode", [ZEROING, MERGING])
@pytest.mark.parametrize("name", list(MERGE_OPS))
def test_merge_mode_with_partial_mask(ctx, name, mode):
    a, b, prev = rand(64, 9, -2, 2), rand(64, 10, -2, 2), rand(64, 11)
    api, ref = MERGE_OPS[name]

    def body(r, o):
        Reg.Muls(o, r[2], 1.0, Reg.CreateMask[float]())          # o := prev
        api(o, r, Reg.CreateMask[float, Reg.MaskPattern.VL16](), mode)

    out = run(ctx, body, [a, b, prev])
    expect = np.where(np.arange(64) < 16, ref(a, b).astype(F32), prev if mode == MERGING else 0)
    np.testing.assert_allclose(out, expect, rtol=2e-7, atol=0)
    np.testing.assert_array_equal(out[16:], expect[16:])
    ops = Counter(i[0] for i in ctx.events[-1].instrs)
    assert ops["RV_VSEL"] == (1 if mode == MERGING else 0)       # MERGING = ZEROING op + VSEL (software)


# -- Duplicate --------------------------------------------------------------------------------------
@pytest.mark.parametrize("form", ["unmasked", "zeroing", "merging", "lowest"])
def test_duplicate(ctx, form):
    prev, src = rand(64, 12), rand(64, 13)
    src[0] = 42.5
    mask_lanes = np.arange(64) < 10

    def body(r, o):
        Reg.Muls(o, r[0], 1.0, Reg.CreateMask[float]())          # o := prev
        m = Reg.CreateMask[float, Reg.MaskPattern.VL8]() if form != "lowest" else Reg.UpdateMask[float](uint32_t(10))
        if form == "unmasked":
            Reg.Duplicate(o, 7.25)
        elif form == "zeroing":
            Reg.Duplicate[float, ZEROING](o, 7.25, m)
        elif form == "merging":
            Reg.Duplicate[float, MERGING](o, 7.25, m)
        else:
            Reg.Duplicate[float, Reg.HighLowPart.LOWEST](o, r[1], m)

    out = run(ctx, body, [prev, src])
    vl8 = np.arange(64) < 8
    expect = {"unmasked": np.full(64, 7.25, F32), "zeroing": np.where(vl8, 7.25, 0).astype(F32),
              "merging": np.where(vl8, 7.25, prev).astype(F32),
              "lowest": np.where(mask_lanes, 42.5, 0).astype(F32)}[form]
    np.testing.assert_array_equal(out, expect)
    assert Counter(i[0] for i in ctx.events[-1].instrs)["RV_VSEL"] == 0    # Duplicate merges in hardware


# -- reductions ------------------------------------------------------------------------------------
def seq_sum(v):
    acc = np.float32(0)
    for x in v:
        acc = np.float32(acc + np.float32(x))
    return acc


@pytest.mark.parametrize("kind", ["rounding", "random"])
def test_reduce_sum_adjacent_pair_tree(ctx, kind):
    """[numerics] reduce_order = "adjacent_pair_tree", reduce_other_lanes = "zero"."""
    if kind == "rounding":
        x = np.ones(64, F32)
        x[0] = 2.0 ** 24                                         # sequential: every +1 is a tie -> 2^24
    else:
        x = (rand(64, 14) * np.float32(10.0) ** np.random.default_rng(15).integers(-3, 6, 64)).astype(F32)
    assert tree_sum(x).view(U32) != seq_sum(x).view(U32)        # the input discriminates the orders
    out = run(ctx, lambda r, o: Reg.ReduceSum(o, r[0], Reg.CreateMask[float]()), [x])
    assert out[0].view(U32) == tree_sum(x).view(U32)
    np.testing.assert_array_equal(out[1:].view(U32), 0)


def test_reduce_sum_masked_lanes_contribute_zero(ctx):
    x = rand(64, 16)
    x[50:] = 1e30
    out = run(ctx, lambda r, o: Reg.ReduceSum(o, r[0], Reg.UpdateMask[float](uint32_t(50))), [x])
    assert out[0].view(U32) == tree_sum(np.where(np.arange(64) < 50, x, 0)).view(U32)
    np.testing.assert_array_equal(out[1:], 0)
    assert [i[0] for i in ctx.events[-1].instrs].count("RV_VCADD") == 1


@pytest.mark.parametrize("name", ["ReduceMax", "ReduceMin"])
def test_reduce_max_min_value_and_first_index(ctx, name):
    """Lane 0 = value, lane 1 = index of the first occurrence (uint32 bits), other lanes 0."""
    x = rand(64, 17, -10, 10)
    best = np.float32(50.0 if name == "ReduceMax" else -50.0)
    x[[23, 9, 41]] = best
    out = run(ctx, lambda r, o: getattr(Reg, name)(o, r[0], Reg.CreateMask[float]()), [x])
    assert out[0] == best and out[1:2].view(U32)[0] == 9
    np.testing.assert_array_equal(out[2:], 0)
    assert ("RV_VCMAX" if name == "ReduceMax" else "RV_VCMIN") in [i[0] for i in ctx.events[-1].instrs]


@pytest.mark.parametrize("name", ["ReduceMax", "ReduceMin"])
def test_reduce_max_min_ignores_masked_lanes(ctx, name):
    x = rand(64, 18, -10, 10)
    big = np.float32(1e6 if name == "ReduceMax" else -1e6)
    x[40:] = big                                                 # outside the 40-lane mask
    out = run(ctx, lambda r, o: getattr(Reg, name)(o, r[0], Reg.UpdateMask[float](uint32_t(40))), [x])
    ref = x[:40].max() if name == "ReduceMax" else x[:40].min()
    idx = int(np.argmax(x[:40] == ref))
    assert out[0] == ref and out[1:2].view(U32)[0] == idx


# -- Cast -----------------------------------------------------------------------------------------
def trait(layout, rnd=Reg.RoundMode.CAST_NONE, sat=Reg.SatMode.UNKNOWN):
    return Reg.CastTrait(layout, sat, ZEROING, rnd)


@pytest.mark.parametrize("layout,parity", [(Reg.RegLayout.ZERO, 0), (Reg.RegLayout.ONE, 1)])
def test_cast_bf16_to_fp32_layout_after_plain_load(ctx, layout, parity):
    bits = np.random.default_rng(19).integers(0x3000, 0x4F00, 128).astype(U16)
    tr = trait(layout)
    out = run(ctx, lambda r, o: Reg.Cast[float, bfloat16_t, tr](o, r[0], Reg.CreateMask[np.uint16]()),
              [bits.view(BF16)], BF16, F32)
    np.testing.assert_array_equal(out, bf16_to_f32(bits[parity::2]))


@pytest.mark.parametrize("count", [64, 37])
def test_cast_bf16_to_fp32_after_unpack_b16(ctx, count):
    bits = np.random.default_rng(20).integers(0x3000, 0x4F00, 128).astype(U16)
    put(ctx, SRC, bits)

    @Reg.__simd_vf__
    def vf(src, dst, n):
        x = Reg.RegTensor[bfloat16_t]()
        y = Reg.RegTensor[float]()
        m = Reg.UpdateMask[float](uint32_t(n))
        Reg.LoadAlign[bfloat16_t, Reg.LoadDist.DIST_UNPACK_B16](x, src)
        Reg.Cast[float, bfloat16_t, trait(Reg.RegLayout.ZERO)](y, x, m)
        Reg.StoreAlign[float](dst, y, Reg.CreateMask[float]())

    vf(UbPtr(SRC, BF16), UbPtr(DST, F32), count)
    out = get(ctx, DST, F32, 64)
    np.testing.assert_array_equal(out[:count], bf16_to_f32(bits[:count]))
    np.testing.assert_array_equal(out[count:], 0)                # ZEROING


def test_cast_one_layout_needs_a_b16_mask(ctx):
    """[numerics] b32_mask_fill = "lowest" (MaskReg page: only the lowest bit of an element's group is
    valid): UpdateMask<float> sets bit 4i only, so a ONE-layout b16 -> b32 cast (mask read at the b16 source,
    odd slots = bits 4i + 2) selects nothing; a b16 mask selects the odd slots (what the KV sample does)."""
    bits = np.random.default_rng(21).integers(0x3000, 0x4F00, 128).astype(U16)
    tr = trait(Reg.RegLayout.ONE)
    out = run(ctx, lambda r, o: Reg.Cast[float, bfloat16_t, tr](o, r[0], Reg.UpdateMask[float](uint32_t(64))),
              [bits.view(BF16)], BF16, F32)
    np.testing.assert_array_equal(out, 0)
    out = run(ctx, lambda r, o: Reg.Cast[float, bfloat16_t, tr](o, r[0], Reg.CreateMask[np.uint16]()),
              [bits.view(BF16)], BF16, F32)
    np.testing.assert_array_equal(out, bf16_to_f32(bits[1::2]))


F2BF_CASES = {   # fp32 bits -> expected bf16 bits per rounding mode (RINT, ROUND, FLOOR, CEIL, TRUNC)
    0x3F808000: (0x3F80, 0x3F81, 0x3F80, 0x3F81, 0x3F80),       # tie, even below
    0x3F818000: (0x3F82, 0x3F82, 0x3F81, 0x3F82, 0x3F81),       # tie, odd below
    0x3F808001: (0x3F81, 0x3F81, 0x3F80, 0x3F81, 0x3F80),       # just above the tie
    0x3F807FFF: (0x3F80, 0x3F80, 0x3F80, 0x3F81, 0x3F80),       # just below the tie
    0xBF808000: (0xBF80, 0xBF81, 0xBF81, 0xBF80, 0xBF80),       # negative tie, even below
    0xBF818000: (0xBF82, 0xBF82, 0xBF82, 0xBF81, 0xBF81),       # negative tie, odd below
    0x40490FDB: (0x4049, 0x4049, 0x4049, 0x404A, 0x4049),       # pi
    0x00000000: (0x0000,) * 5,
}
MODES = [Reg.RoundMode.CAST_RINT, Reg.RoundMode.CAST_ROUND, Reg.RoundMode.CAST_FLOOR, Reg.RoundMode.CAST_CEIL,
         Reg.RoundMode.CAST_TRUNC]


@pytest.mark.parametrize("k", range(len(MODES)), ids=[m.name for m in MODES])
def test_cast_fp32_to_bf16_rounding_zero_layout_pack_b32(ctx, k):
    keys = list(F2BF_CASES)
    src = np.resize(np.array(keys, U32), 64)
    expect = np.resize(np.array([F2BF_CASES[b][k] for b in keys], U16), 64)
    put(ctx, SRC, src)
    put(ctx, DST, np.full(128, 0xAAAA, U16))
    tr = trait(Reg.RegLayout.ZERO, MODES[k], Reg.SatMode.NO_SAT)

    @Reg.__simd_vf__
    def vf(s, d):
        x = Reg.RegTensor[float]()
        y = Reg.RegTensor[bfloat16_t]()
        m = Reg.CreateMask[float]()
        Reg.LoadAlign[float](x, s)
        Reg.Cast[bfloat16_t, float, tr](y, x, m)
        Reg.StoreAlign[bfloat16_t, Reg.StoreDist.DIST_PACK_B32](d, y, m)

    vf(UbPtr(SRC, F32), UbPtr(DST, BF16))
    out = get(ctx, DST, U16, 128)
    np.testing.assert_array_equal(out[:64], expect)             # contiguous bf16
    np.testing.assert_array_equal(out[64:], 0xAAAA)


@pytest.mark.parametrize("layout", [Reg.RegLayout.ZERO, Reg.RegLayout.ONE])
def test_cast_fp32_to_bf16_layout_slots(ctx, layout):
    """ZERO: bf16 in the low half of each 32-bit lane, high half 0; ONE: the other way round.
    [numerics] float_to_bf16_overflow = "inf_nan": FLT_MAX rounds to inf."""
    x = rand(64, 22)
    x[0] = np.finfo(F32).max
    tr = trait(layout, Reg.RoundMode.CAST_RINT, Reg.SatMode.NO_SAT)
    out = run(ctx, lambda r, o: Reg.Cast[bfloat16_t, float, tr](o, r[0], Reg.CreateMask[float]()), [x], F32, U16)
    expect = f32_to_bf16_rne(x).view(U16)
    expect[0] = 0x7F80
    np.testing.assert_array_equal(out[layout.value::2], expect)
    np.testing.assert_array_equal(out[1 - layout.value::2], 0)


def test_cast_fp32_to_bf16_without_rounding_mode_is_bad_parameter(ctx):
    with pytest.raises(KernelAbort) as ei:
        run(ctx, lambda r, o: Reg.Cast[bfloat16_t, float, trait(Reg.RegLayout.ZERO)](o, r[0], Reg.CreateMask[float]()),
            [rand(64, 23)], F32, BF16)
    assert ei.value.diag.code == "BAD_PARAMETER"


def test_cast_fp32_to_half_round_to_odd(ctx):
    """CAST_ODD (f32 -> half): truncate, then force the last bit to 1 when inexact."""
    vals = {0x3F801000: 0x3C01,      # 1 + 2^-11: a RINT tie (-> 0x3C00), odd -> 0x3C01
            0x3F800800: 0x3C01,      # 1 + 2^-12
            0x3F802000: 0x3C01,      # 1 + 2^-10: exact
            0x3F804000: 0x3C02,      # 1 + 2^-9: exact, stays even
            0x3F806000: 0x3C03,      # 1 + 3*2^-10: exact
            0xBF800800: 0xBC01,      # -(1 + 2^-12)
            0x3F800000: 0x3C00}      # exact 1.0
    src = np.resize(np.array(list(vals), U32), 64).view(F32)
    tr = trait(Reg.RegLayout.ZERO, Reg.RoundMode.CAST_ODD, Reg.SatMode.NO_SAT)
    out = run(ctx, lambda r, o: Reg.Cast[np.float16, float, tr](o, r[0], Reg.CreateMask[float]()), [src], F32, U16)
    np.testing.assert_array_equal(out[0::2], np.resize(np.array(list(vals.values()), U16), 64))


FLOAT_TO_INT = np.array([2.5, -2.5, 1.5, -1.5, 0.49999997, -0.5, 3.7, -3.7, 1e10, -1e10, np.nan, 7.0], F32)
F2I_EXPECT = {
    "CAST_RINT": [2, -2, 2, -2, 0, 0, 4, -4, 2**31 - 1, -2**31, 0, 7],
    "CAST_ROUND": [3, -3, 2, -2, 0, -1, 4, -4, 2**31 - 1, -2**31, 0, 7],
    "CAST_FLOOR": [2, -3, 1, -2, 0, -1, 3, -4, 2**31 - 1, -2**31, 0, 7],
    "CAST_CEIL": [3, -2, 2, -1, 1, 0, 4, -3, 2**31 - 1, -2**31, 0, 7],
    "CAST_TRUNC": [2, -2, 1, -1, 0, 0, 3, -3, 2**31 - 1, -2**31, 0, 7],
}


@pytest.mark.parametrize("mode", list(F2I_EXPECT))
def test_cast_fp32_to_int32_rounding_modes(ctx, mode):
    """Out-of-range values saturate and NaN gives 0 (CTRL[59] = 0 default, api-facts 8)."""
    tr = trait(Reg.RegLayout.ZERO, getattr(Reg.RoundMode, mode), Reg.SatMode.SAT)
    x = np.resize(FLOAT_TO_INT, 64)
    out = run(ctx, lambda r, o: Reg.Cast[np.int32, float, tr](o, r[0], Reg.CreateMask[float]()), [x], F32, I32)
    np.testing.assert_array_equal(out, np.resize(np.array(F2I_EXPECT[mode], I32), 64))
    assert "RV_VCVT_F2I" in [i[0] for i in ctx.events[-1].instrs]


# -- masks ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("dt,start", [(F32, 150), (F32, 64), (U16, 300), (np.dtype(np.uint8), 10)])
def test_update_mask_counts_by_reference(ctx, dt, start):
    lanes = 256 // dt.itemsize
    seen = []

    @Reg.__simd_vf__
    def vf(dst):
        r = Reg.RegTensor[dt]()
        count = uint32_t(start)
        for k in range(4):
            m = Reg.UpdateMask[dt](count)
            Reg.Duplicate[dt, ZEROING](r, 1, m)
            Reg.StoreAlign[dt](dst + k * lanes, r, Reg.CreateMask[dt]())
            seen.append(count.value)

    vf(UbPtr(DST, dt))
    c, expect_counts, expect_lanes = start, [], []
    for _ in range(4):
        expect_lanes.append(min(c, lanes))
        c = 0 if c < lanes else c - lanes
        expect_counts.append(c)
    assert seen == expect_counts
    out = get(ctx, DST, dt, 4 * lanes).reshape(4, lanes)
    for k in range(4):
        np.testing.assert_array_equal(out[k], (np.arange(lanes) < expect_lanes[k]).astype(dt))


PATTERNS = {
    "ALL": lambda i, n: np.ones(n, bool), "VL1": lambda i, n: i < 1, "VL16": lambda i, n: i < 16,
    "H": lambda i, n: i < n // 2, "Q": lambda i, n: i < n // 4, "M4": lambda i, n: i % 4 == 0,
    "M3": lambda i, n: i % 3 == 0, "VL128": lambda i, n: i < 128, "ALLF": lambda i, n: np.zeros(n, bool),
}


@pytest.mark.parametrize("dt", [F32, U16, np.dtype(np.uint8)], ids=["b32", "b16", "b8"])
@pytest.mark.parametrize("pattern", list(PATTERNS))
def test_create_mask_patterns(ctx, pattern, dt):
    lanes = 256 // dt.itemsize
    put(ctx, DST, np.zeros(lanes, dt))

    @Reg.__simd_vf__
    def vf(dst):
        r = Reg.RegTensor[dt]()
        Reg.Duplicate(r, 1)
        Reg.StoreAlign[dt](dst, r, Reg.CreateMask[dt, getattr(Reg.MaskPattern, pattern)]())

    vf(UbPtr(DST, dt))
    expect = PATTERNS[pattern](np.arange(lanes), lanes)
    np.testing.assert_array_equal(get(ctx, DST, dt, lanes), expect.astype(dt))
