"""Reg arithmetic added for issue 18 (基础算术): Neg, Log / Log2 / Log10, LeakyRelu, Prelu, Truncate, the carry
forms of Add / Sub, AddC / SubC, Mull, 64-bit lanes, Arange in both orders. References: numpy formulas from
the pages, written here."""
from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from tests.reg_support import lanes, ops, run
from toolkit.ascendc import regbase as Reg
from toolkit.ascendc.dtypes import uint32_t

F16, F32, F64 = np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)
BF16 = np.dtype(ml_dtypes.bfloat16)
I8, I16, I32, I64, U32, U64 = (np.dtype(t) for t in (np.int8, np.int16, np.int32, np.int64, np.uint32, np.uint64))


def full(dt):
    return Reg.CreateMask[np.dtype(dt)]()


@pytest.mark.parametrize("dt", [I8, I16, I32, I64, F16, F32])
def test_neg_is_the_wrapping_negation(ctx, dt):
    x = (np.arange(lanes(dt)) * 37 - 100).astype(dt)
    if dt == I8:
        x[0] = -128                                      # -(-128) wraps to -128
    out, = run(ctx, lambda r, o: Reg.Neg(o[0], r[0], full(dt)), [x], [dt], [dt])
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(out, -x)


@pytest.mark.parametrize("name, ref", [("Log", np.log), ("Ln", np.log), ("Log2", np.log2), ("Log10", np.log10)])
@pytest.mark.parametrize("dt", [F16, F32])
def test_logarithms(ctx, name, ref, dt):
    """Log is Ln (one VLN); Log2 / Log10 round the float64 logarithm once to float (half: computed in float,
    the pages' precision promotion, then rounded to half)."""
    x = np.geomspace(1e-3, 6e4 if dt == F16 else 1e30, lanes(dt)).astype(dt)
    out, = run(ctx, lambda r, o: getattr(Reg, name)(o[0], r[0], full(dt)), [x], [dt], [dt])
    if name in ("Log", "Ln"):                          # VLN: numpy's logarithm in the element type, as Ln
        want = np.log(x)
    else:
        want = ref(x.astype(F64)).astype(F32).astype(dt)
    np.testing.assert_array_equal(out.view(f"u{dt.itemsize}"), want.view(f"u{dt.itemsize}"))
    if name in ("Log2", "Log10"):
        assert "RV_VLN" in ops(ctx) and "RV_VMULS" in ops(ctx)


@pytest.mark.parametrize("dt", [F16, F32])
def test_leaky_relu_and_prelu_scale_the_non_positive_elements(ctx, dt):
    x = np.linspace(-4, 4, lanes(dt)).astype(dt)
    alpha = np.linspace(0.1, 0.9, lanes(dt)).astype(dt)
    leaky, prelu = run(ctx, lambda r, o: (Reg.LeakyRelu(o[0], r[0], 0.25, full(dt)),
                                          Reg.Prelu(o[1], r[0], r[1], full(dt))), [x, alpha], [dt, dt], [dt, dt])
    np.testing.assert_array_equal(leaky, np.where(x > 0, x, (x * dt.type(0.25)).astype(dt)))
    np.testing.assert_array_equal(prelu, np.where(x > 0, x, (x * alpha).astype(dt)))


@pytest.mark.parametrize("mode, ref", [
    ("CAST_RINT", np.rint), ("CAST_FLOOR", np.floor), ("CAST_CEIL", np.ceil), ("CAST_TRUNC", np.trunc),
    ("CAST_ROUND", lambda v: np.sign(v) * np.floor(np.abs(v) + 0.5))])
@pytest.mark.parametrize("dt", [F16, BF16, F32])
def test_truncate_rounds_to_an_integral_value_in_the_same_type(ctx, mode, ref, dt):
    x = np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, -1.25, 3.75] * (lanes(dt) // 8), dtype=F32).astype(dt)
    rm = Reg.RoundMode[mode]
    out, = run(ctx, lambda r, o: Reg.Truncate[dt, rm](o[0], r[0], full(dt)), [x], [dt], [dt])
    np.testing.assert_array_equal(out.astype(F64), ref(x.astype(F64)))


@pytest.mark.parametrize("dt", [U32, I32])
def test_add_and_sub_carry_forms_flag_each_lane(ctx, dt):
    """{carry, dst} = a + b; Sub: a + ~b + 1 (carry = no borrow); the carry of lane i is bit 4i."""
    a = (np.arange(64, dtype=np.uint64) * 0x0F000000 + 7).astype(np.uint32).view(dt)
    b = np.full(64, 0x90000000, np.uint32).view(dt)
    m = {}

    def body(r, o):
        c0, c1 = Reg.MaskReg(), Reg.MaskReg()
        Reg.Add(c0, o[0], r[0], r[1], Reg.UpdateMask[dt](uint32_t(40)))
        Reg.Sub(c1, o[1], r[0], r[1], full(dt))
        m["add"], m["sub"] = c0.bits[0].copy(), c1.bits[0].copy()
    add, sub = run(ctx, body, [a, b], [dt, dt], [dt, dt])
    ua, ub = a.view(np.uint32).astype(np.uint64), b.view(np.uint32).astype(np.uint64)
    on = np.arange(64) < 40
    np.testing.assert_array_equal(add.view(np.uint32), np.where(on, (ua + ub) & 0xFFFFFFFF, 0))
    np.testing.assert_array_equal(m["add"][::4], on & ((ua + ub) >> 32 == 1))
    np.testing.assert_array_equal(sub.view(np.uint32), (ua - ub) & 0xFFFFFFFF)
    np.testing.assert_array_equal(m["sub"][::4], ua >= ub)
    assert not m["add"].reshape(-1, 4)[:, 1:].any()              # only the lowest bit of each group
    assert "RV_VADDC" in ops(ctx) and "RV_VSUBC" in ops(ctx)


def test_addc_and_subc_chain_a_64_bit_sum_and_difference(ctx):
    """The pages' use: lows with a zero carry-in, highs with the lows' carry: -1 + 8 = 7, -1 - 8 = -9 in
    int64 from 32-bit halves."""
    x = np.array([-1, 5, 2**40 - 3, -(2**33)] * 16, dtype=np.int64)
    y = np.array([8, -7, 2**35, 12345] * 16, dtype=np.int64)
    lo = lambda v: v.view(np.uint32)[0::2]          # noqa: E731  (the 32-bit halves of each int64)
    hi = lambda v: v.view(np.uint32)[1::2]          # noqa: E731

    def body(r, o):
        zero = Reg.CreateMask[np.uint32, Reg.MaskPattern.ALLF]()
        c = Reg.MaskReg()
        Reg.AddC(c, o[0], r[0], r[1], zero, full(U32))
        Reg.AddC(c, o[1], r[2], r[3], c, full(U32))
        Reg.SubC(c, o[2], r[0], r[1], Reg.CreateMask[np.uint32](), full(U32))
        Reg.SubC(c, o[3], r[2], r[3], c, full(U32))
    s_lo, s_hi, d_lo, d_hi = run(ctx, body, [lo(x), lo(y), hi(x), hi(y)], [U32] * 4, [U32] * 4)
    np.testing.assert_array_equal(np.stack([s_lo, s_hi], 1).reshape(-1).view(np.int64), x + y)
    np.testing.assert_array_equal(np.stack([d_lo, d_hi], 1).reshape(-1).view(np.int64), x - y)


@pytest.mark.parametrize("dt", [I32, U32])
def test_mull_keeps_both_halves_of_the_product(ctx, dt):
    a = (np.arange(64, dtype=np.int64) * 123456789 - 2**31 + 17).astype(np.int64).astype(dt)
    b = (np.arange(64, dtype=np.int64) * -98765 + 3).astype(dt)
    lo, hi = run(ctx, lambda r, o: Reg.Mull(o[0], o[1], r[0], r[1], full(dt)), [a, b], [dt, dt], [dt, dt])
    exact = [int(p) * int(q) for p, q in zip(a.tolist(), b.tolist())]
    np.testing.assert_array_equal(lo.view(np.uint32), [e & 0xFFFFFFFF for e in exact])
    np.testing.assert_array_equal(hi.view(np.uint32), [(e >> 32) & 0xFFFFFFFF for e in exact])


@pytest.mark.parametrize("dt", [I64, U64])
def test_64_bit_lanes_add_multiply_compare_and_reduce(ctx, dt):
    """b64: 32 lanes per register, predicate bit 8i per lane."""
    a = (np.arange(32, dtype=np.int64) * (3 << 40) - (1 << 45)).astype(dt)
    b = (np.arange(32, dtype=np.int64)[::-1] * 7 + 1).astype(dt)
    m = Reg.UpdateMask

    def body(r, o):
        Reg.Add(o[0], r[0], r[1], full(dt))
        Reg.Mul(o[1], r[0], r[1], full(dt))
        Reg.Max(o[2], r[0], r[1], m[dt](uint32_t(20)))
        Reg.Adds(o[3], r[0], 5, full(dt))
    add, mul, mx, adds = run(ctx, body, [a, b], [dt, dt], [dt] * 4)
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(add, a + b)
        np.testing.assert_array_equal(mul, a * b)
        np.testing.assert_array_equal(mx, np.where(np.arange(32) < 20, np.maximum(a, b), 0))
        np.testing.assert_array_equal(adds, a + dt.type(5))


@pytest.mark.parametrize("dt", [I8, I16, I32, F16, F32, I64])
def test_arange_increases_from_and_decreases_to_the_value(ctx, dt):
    """C-API page: increasing {v, v+1, ...}; decreasing {v + VL_T - 1, ..., v + 1, v} (int16, v = 10:
    137 ... 10); integers wrap."""
    n = lanes(dt)
    up, down = run(ctx, lambda r, o: (Reg.Arange(o[0], 10), Reg.Arange[dt, Reg.IndexOrder.DECREASE_ORDER](o[1], 10)),
                   [], [], [dt, dt])
    k = np.arange(n, dtype=np.int64) + 10
    want = k.astype(np.float64).astype(dt) if dt.kind == "f" else k.astype(dt)     # astype wraps
    np.testing.assert_array_equal(up, want)
    np.testing.assert_array_equal(down, want[::-1])
    if dt == I16:
        assert down[0] == 137 and down[-1] == 10


def test_div_and_exp_take_a_specific_mode_struct_by_its_merge_mode(ctx):
    """``Div<T, &mode>``: the struct's merge mode is what the emulator uses (every algorithm computes the
    correctly rounded quotient here); the Python spelling passes the merge mode."""
    a = np.linspace(-3, 3, 64).astype(F32)
    b = np.linspace(0.5, 2, 64).astype(F32)
    out, = run(ctx, lambda r, o: Reg.Div[float, Reg.MaskMergeMode.ZEROING](o[0], r[0], r[1], full(F32)), [a, b],
               [F32, F32], [F32])
    np.testing.assert_array_equal(out, (a.astype(F64) / b).astype(F32))
