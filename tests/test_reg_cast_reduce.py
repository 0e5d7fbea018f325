"""Reg Cast over the documented pairs (RegLayout placement, rounding, the global saturation default and
the per-trait setting, 64-bit lanes), Reduce with distinct dst/src types, ReduceDataBlock and
PairReduceElem. References: the RegLayout page's pseudocode and the Cast page's tables, re-expressed in
numpy here."""
from __future__ import annotations

import numpy as np
import pytest

from tests.api_support import tree_sum
from tests.reg_support import lanes, ops, run
from toolkit.ascendc import regbase as Reg
from toolkit.ascendc.dtypes import uint32_t
from toolkit.machine import with_overrides

U8, I8, U16, I16, U32, I32, I64, F16, F32 = (np.dtype(t) for t in (
    np.uint8, np.int8, np.uint16, np.int16, np.uint32, np.int32, np.int64, np.float16, np.float32))
LAYOUTS = [Reg.RegLayout.ZERO, Reg.RegLayout.ONE, Reg.RegLayout.TWO, Reg.RegLayout.THREE]


def trait(layout=Reg.RegLayout.ZERO, sat=Reg.SatMode.UNKNOWN, rnd=Reg.RoundMode.CAST_RINT):
    return Reg.CastTrait(layout, sat, Reg.MaskMergeMode.ZEROING, rnd)


def cast(ctx, x, src, dst, tr, mask_dt=None):
    mdt = mask_dt or src
    return run(ctx, lambda r, o: Reg.Cast[dst, src, tr](o[0], r[0], Reg.CreateMask[mdt]()), [x], [src], [dst])[0]


@pytest.mark.parametrize("k", range(4))
def test_int8_to_int32_takes_slot_4j_plus_layout(ctx, k):
    """cast_b8_to_b32: dst[0:64] = src[layout:256:4]."""
    x = (np.arange(256) - 128).astype(I8)
    out = cast(ctx, x, I8, I32, trait(LAYOUTS[k]))
    np.testing.assert_array_equal(out, x[k::4].astype(I32))


@pytest.mark.parametrize("k", range(4))
def test_int32_to_uint8_writes_slot_4j_plus_layout_and_saturates(ctx, k):
    """cast_b32_to_b8: dst[:] = 0; dst[layout:256:4] = convert(src[0:64]); CTRL[59] = 0: saturating."""
    x = (np.arange(64) * 9 - 100).astype(I32)
    out = cast(ctx, x, I32, U8, trait(LAYOUTS[k]))
    want = np.zeros(256, U8)
    want[k::4] = np.clip(x, 0, 255)
    np.testing.assert_array_equal(out, want)


@pytest.mark.parametrize("sat, setting, saturates", [
    (Reg.SatMode.NO_SAT, "global", True), (Reg.SatMode.NO_SAT, "per_trait", False),
    (Reg.SatMode.SAT, "per_trait", True), (Reg.SatMode.UNKNOWN, "per_trait", True)])
def test_float_to_int16_saturation_follows_the_control_register_model(ctx, sat, setting, saturates):
    """Cast page table 5: with the default CTRL[60] = 1 the trait's satMode is ignored; the per_trait
    setting honours it. Not saturating keeps the low bits (257.6 -> uint8 2); NaN -> 0, inf -> extremes."""
    ctx.machine = with_overrides(ctx.machine, "numerics", cast_saturation=setting)
    x = np.array([40000.4, -40000.6, 70000.0, np.nan, np.inf, -np.inf, 12.5, -3.5] * 8, F32)
    out = cast(ctx, x, F32, I16, trait(Reg.RegLayout.ZERO, sat, Reg.RoundMode.CAST_ROUND))
    vals = out[0::2]
    finite = np.nan_to_num(x, nan=0, posinf=0, neginf=0)
    rounded = np.sign(finite) * np.floor(np.abs(finite) + 0.5)
    if saturates:
        want = np.clip(rounded, -32768, 32767)
    else:
        want = rounded.astype(np.int64).astype(I16)
    want = np.where(np.isnan(x), 0, want)
    want = np.where(np.isinf(x), np.where(x > 0, 32767, -32768), want)
    np.testing.assert_array_equal(vals, want.astype(I16))
    assert (out[1::2] == 0).all()


def test_narrow_int_to_wide_unsigned_saturates_negatives_to_zero(ctx):
    """int16 -> uint32 only saturates (the page): a negative input becomes 0."""
    x = (np.arange(128) - 64).astype(I16)
    out = cast(ctx, x, I16, U32, trait(Reg.RegLayout.ONE))
    np.testing.assert_array_equal(out, np.maximum(x[1::2], 0).astype(U32))


@pytest.mark.parametrize("rnd, ref", [(Reg.RoundMode.CAST_FLOOR, np.floor), (Reg.RoundMode.CAST_CEIL, np.ceil),
                                      (Reg.RoundMode.CAST_TRUNC, np.trunc), (Reg.RoundMode.CAST_RINT, np.rint)])
def test_int64_to_float_rounds_exactly_with_the_mode(ctx, rnd, ref):
    from fractions import Fraction
    x = np.array([2**60 + 1, -(2**60 + 1), 2**24 + 1, -(2**24 + 3), 3, -7, 2**62 - 1, 123456789123] * 4, I64)
    out = cast(ctx, x, I64, F32, trait(Reg.RegLayout.ZERO, rnd=rnd))
    vals = out[0::2]
    for v, got in zip(x.tolist(), vals.tolist()):
        lo = np.float32(v)                                  # a neighbour of v; the other one is next to it
        cands = sorted({float(lo), float(np.nextafter(lo, np.float32(np.inf))), float(np.nextafter(lo, np.float32(-np.inf)))})
        below = max(c for c in cands if Fraction(c) <= v)
        above = min(c for c in cands if Fraction(c) >= v)
        want = {np.floor: below, np.ceil: above, np.trunc: below if v >= 0 else above}.get(ref)
        if want is None:                                    # rint: nearest, ties to even
            want = float(np.float32(v))
        assert got == want, (v, got, want)


def test_float_to_int64_and_int32_to_int64_widen_by_layout(ctx):
    x = np.array([1.5, -2.5, 3e12, -1e19] * 16, F32)
    out = cast(ctx, x, F32, I64, trait(Reg.RegLayout.ONE, rnd=Reg.RoundMode.CAST_RINT))
    want = np.clip(np.rint(x[1::2].astype(np.float64)), -2.0 ** 63, 2.0 ** 63 - 1024).astype(I64)
    want[x[1::2] < -9e18] = np.iinfo(np.int64).min
    np.testing.assert_array_equal(out, want)
    i = (np.arange(64) - 30).astype(I32)
    np.testing.assert_array_equal(cast(ctx, i, I32, I64, trait(Reg.RegLayout.ZERO)), i[0::2].astype(I64))


def test_castrait_defaults_are_unknown(ctx):
    """The vendor's castTrait: every field UNKNOWN; a float -> half cast with it rounds to nearest."""
    t = Reg.CastTrait()
    assert (t.layoutMode, t.satMode, t.mrgMode, t.roundMode) == (
        Reg.RegLayout.UNKNOWN, Reg.SatMode.UNKNOWN, Reg.MaskMergeMode.UNKNOWN, Reg.RoundMode.UNKNOWN)
    x = (np.arange(64) / 3).astype(F32)
    out = cast(ctx, x, F32, F16, t)
    np.testing.assert_array_equal(out[0::2], x.astype(F16))


def test_reduce_with_a_wider_destination_type(ctx):
    """Reduce<SUM, int32_t, int16_t>: the sum of 128 int16 elements, as int32, in lane 0."""
    x = (np.arange(128) * 300 - 9000).astype(I16)
    out, = run(ctx, lambda r, o: Reg.Reduce[Reg.ReduceType.SUM, I32, I16](o[0], r[0], Reg.CreateMask[I16]()),
               [x], [I16], [I32])
    assert out[0] == x.astype(np.int64).sum() and (out[1:] == 0).all()


@pytest.mark.parametrize("kind", ["SUM", "MAX", "MIN"])
@pytest.mark.parametrize("dt", [F16, F32, I32, U16])
def test_reduce_datablock_reduces_each_32_byte_block_into_its_lane(ctx, kind, dt):
    n = lanes(dt)
    per = 32 // dt.itemsize
    x = (np.arange(n) * 7 % 23 - (11 if dt.kind != "u" else 0)).astype(dt)
    cnt = n - per - 3                                       # block 7 empty, block 6 partial
    rt = Reg.ReduceType[kind]
    out, = run(ctx, lambda r, o: Reg.ReduceDataBlock[rt](o[0], r[0], Reg.UpdateMask[dt](uint32_t(cnt))),
               [x], [dt], [dt])
    if kind == "SUM" and dt == U16:                          # the page's table: uint16 sums are uint32
        out = out.view(U32)
    on = np.arange(n) < cnt
    blocks = x.reshape(8, per)
    act = on.reshape(8, per)
    info = np.finfo(dt) if dt.kind == "f" else np.iinfo(dt)
    for j in range(8):
        if kind == "SUM":
            want = tree_sum(np.where(act[j], blocks[j], 0), U32 if dt == U16 else dt)
        elif kind == "MAX":
            want = np.where(act[j], blocks[j], -np.inf if dt.kind == "f" else info.min).max()
        else:
            want = np.where(act[j], blocks[j], np.inf if dt.kind == "f" else info.max).min()
        assert out[j] == out.dtype.type(want), (j, out[j], want)
    assert (out[8:] == 0).all()
    assert {"SUM": "RV_VCGADD", "MAX": "RV_VCGMAX", "MIN": "RV_VCGMIN"}[kind] in ops(ctx)


@pytest.mark.parametrize("dt", [F16, F32])
def test_pair_reduce_elem_adds_neighbours_into_the_low_half(ctx, dt):
    n = lanes(dt)
    x = np.linspace(-3, 5, n).astype(dt)
    out, = run(ctx, lambda r, o: Reg.PairReduceElem(o[0], r[0], Reg.UpdateMask[dt](uint32_t(n - 1))), [x], [dt], [dt])
    y = np.where(np.arange(n) < n - 1, x, 0).astype(dt)
    np.testing.assert_array_equal(out[:n // 2], (y[0::2] + y[1::2]).astype(dt))
    assert (out[n // 2:] == 0).all()


def test_bfloat16_to_float_keeps_every_bit_pattern_as_the_upper_half():
    """The bit-shift widening equals the bfloat16 definition (its bits are a float32's upper half) for
    all 65536 patterns, NaN payloads and subnormals included, and agrees with ml_dtypes' cast."""
    from toolkit.ascendc.dtypes import BF16
    from toolkit.ascendc.numerics import bf16_to_f32, convert
    bits = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16)
    x = bits.view(BF16)
    got = bf16_to_f32(x).view(np.uint32)
    assert np.array_equal(got, bits.astype(np.uint32) << 16)
    assert np.array_equal(got, x.astype(np.float32).view(np.uint32))
    assert np.array_equal(convert(x[::3], F32).view(np.uint32), got[::3])       # strided input too
