"""Reg fused ops (复合计算): AbsSub, Axpy, ExpSub, MulAddDst, MulDstAdd, MulsCast. References: the pages'
formulas evaluated exactly (Python fractions / float64) and rounded once, written here."""
from __future__ import annotations

from fractions import Fraction

import ml_dtypes
import numpy as np
import pytest

from tests.reg_support import lanes, run
from toolkit.ascendc import regbase as Reg
from toolkit.ascendc.dtypes import uint32_t

F16, F32, F64 = np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)
BF16 = np.dtype(ml_dtypes.bfloat16)
I64 = np.dtype(np.int64)


def exact_fma(a, b, c, dt):
    """a * b + c rounded once to ``dt``: the exact value (fractions), then float64 round-to-odd and one
    rounding (correct for 24-bit formats)."""
    out = []
    for x, y, z in zip(a.astype(F64), b.astype(F64), c.astype(F64)):
        v = Fraction(float(x)) * Fraction(float(y)) + Fraction(float(z))
        f = float(v)
        if Fraction(f) != v and int(np.float64(f).view(np.uint64)) % 2 == 0:
            f = float(np.nextafter(f, np.inf if v > Fraction(f) else -np.inf))
        out.append(f)
    r = np.array(out, F64)
    return r.astype(F32).astype(BF16) if dt == BF16 else r.astype(dt)


def _hard_cases(dt, n):
    """Operands whose product + addend sits near a rounding tie (two roundings often differ there)."""
    rng = np.random.default_rng(7)
    bits = {F16: 10, BF16: 7, F32: 23}[dt]            # the format's fraction bits: the product is inexact
    a = (1 + rng.integers(1, 2 ** bits, n) * 2.0 ** -bits).astype(dt)
    b = (1 + rng.integers(1, 2 ** bits, n) * 2.0 ** -bits).astype(dt)
    c = (-(a.astype(F64) * b.astype(F64))).astype(dt)
    return a, b, c


@pytest.mark.parametrize("dt", [F16, BF16, F32])
def test_muladddst_and_muldstadd_round_once(ctx, dt):
    n = lanes(dt)
    a, b, c = _hard_cases(dt, n)

    def body(r, o):
        m = Reg.CreateMask[dt]()
        Reg.Duplicate(o[0], 0, m)
        Reg.Add(o[0], o[0], r[2], m)                 # dst = c
        Reg.MulAddDst(o[0], r[0], r[1], m)           # a * b + c
        Reg.Add(o[1], r[0], o[1], m)                 # dst = a (o[1] is zero)
        Reg.MulDstAdd(o[1], r[1], r[2], m)           # a * b + c
    mad, mda = run(ctx, body, [a, b, c], [dt] * 3, [dt, dt])
    want = exact_fma(a, b, c, dt)
    two_roundings = ((a.astype(F64) * b).astype(dt).astype(F64) + c).astype(F32).astype(dt)
    assert (two_roundings != want).any()              # the cases tell one rounding from two
    u = np.dtype(f"u{dt.itemsize}")
    np.testing.assert_array_equal(mad.view(u), want.view(u))
    np.testing.assert_array_equal(mda.view(u), want.view(u))


def test_muladddst_of_int64_wraps(ctx):
    a = np.arange(32, dtype=np.int64) * (1 << 40) + 3
    b = np.full(32, 1 << 30, np.int64)
    out, = run(ctx, lambda r, o: Reg.MulAddDst(o[0], r[0], r[1], Reg.CreateMask[I64]()), [a, b], [I64, I64], [I64])
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(out, a * b)


@pytest.mark.parametrize("fused", [True, False])
def test_axpy_rounding_follows_the_machine_setting(ctx, fused):
    from toolkit.machine import with_overrides
    ctx.machine = with_overrides(ctx.machine, "numerics", axpy_fused=fused)
    x = (1 + np.arange(64) * 2.0 ** -20).astype(F32)
    y = (-(x.astype(F64) * 3.0000002)).astype(F32)
    s = np.float32(3.0000002)
    out, = run(ctx, lambda r, o: (Reg.Add(o[0], o[0], r[1], Reg.CreateMask[float]()),
                                  Reg.Axpy(o[0], r[0], s, Reg.CreateMask[float]())), [x, y], [F32, F32], [F32])
    want = exact_fma(np.full(64, s), x, y, F32) if fused else (x * s + y).astype(F32)
    np.testing.assert_array_equal(out.view(np.uint32), want.view(np.uint32))


@pytest.mark.parametrize("dt", [F16, F32, I64])
def test_abssub_is_the_absolute_difference(ctx, dt):
    n = lanes(dt)
    a = np.linspace(-50, 50, n).astype(dt)
    b = np.linspace(30, -10, n).astype(dt)
    out, = run(ctx, lambda r, o: Reg.AbsSub(o[0], r[0], r[1], Reg.CreateMask[dt]()), [a, b], [dt, dt], [dt])
    np.testing.assert_array_equal(out, np.abs(a - b))


def test_expsub_of_float_rounds_e_to_the_exact_difference_once(ctx):
    a = np.linspace(-10, 5, 64).astype(F32)
    b = np.linspace(3, -2, 64).astype(F32)
    out, = run(ctx, lambda r, o: Reg.ExpSub(o[0], r[0], r[1], Reg.CreateMask[float]()), [a, b], [F32, F32], [F32])
    np.testing.assert_array_equal(out, np.exp(a.astype(F64) - b.astype(F64)).astype(F32))


@pytest.mark.parametrize("layout", [0, 1])
def test_expsub_of_half_takes_one_element_of_each_pair_and_the_half_mask(ctx, layout):
    """Half in, float out: lane j uses half element 2j + layout; the mask is read at half granularity."""
    a = np.linspace(-4, 4, 128).astype(F16)
    b = np.linspace(1, -1, 128).astype(F16)
    lay = Reg.RegLayout.ZERO if layout == 0 else Reg.RegLayout.ONE
    out, = run(ctx, lambda r, o: Reg.ExpSub[float, np.float16, lay](o[0], r[0], r[1],
                                                                   Reg.UpdateMask[np.float16](uint32_t(100))),
               [a, b], [F16, F16], [F32])
    j = np.arange(64) * 2 + layout
    want = np.exp(a[j].astype(F64) - b[j].astype(F64)).astype(F32)
    np.testing.assert_array_equal(out, np.where(j < 100, want, 0))


@pytest.mark.parametrize("layout", [0, 1])
def test_mulscast_rounds_the_product_half_away_to_half_at_its_layout_slot(ctx, layout):
    x = np.array([1.0, 2049.0, -2051.0, 0.1, 65500.0, 1e-8, 3.0, -7.5] * 8, F32)
    s = np.float32(1.0)
    lay = Reg.RegLayout.ZERO if layout == 0 else Reg.RegLayout.ONE
    out, = run(ctx, lambda r, o: Reg.MulsCast[np.float16, float, float, lay](o[0], r[0], s, Reg.CreateMask[float]()),
               [x], [F32], [F16])
    prod = x.astype(F64) * float(s)
    want = np.array([_half_away(v) for v in prod], F16)
    assert (out[1 - layout::2] == 0).all()
    np.testing.assert_array_equal(out[layout::2].view(np.uint16), want.view(np.uint16))
    assert out[layout] == 1.0 and out[2 + layout] == 2050.0 and out[4 + layout] == -2052.0   # ties away


def _half_away(v: float) -> np.float16:
    lo = np.float16(v)
    if float(lo) == v:
        return lo
    other = np.nextafter(lo, np.float16(np.inf) if v > float(lo) else np.float16(-np.inf))
    dl, do = abs(float(lo) - v), abs(float(other) - v)
    if dl == do:
        return lo if abs(float(lo)) > abs(float(other)) else other
    return lo if dl < do else other
