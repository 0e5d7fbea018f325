"""The 8- / 4-bit element types (toolkit.ascendc.lowfloat) against independent references: ml_dtypes for the
types it has (every code decodes; encoding of random values, midpoints, overflow, NaN / Inf), hifloat8 and
fp4 e1m2 against values worked out by hand from the data-type page's rules, and the MemBase Cast forms."""
import ml_dtypes
import numpy as np
import pytest

from toolkit.ascendc import lowfloat as L
from toolkit.ascendc import membase as AscendC
from toolkit.ascendc.dtypes import BF16
from toolkit.ascendc.membase import RoundMode, UnaryRepeatParams
from toolkit.record.diagnostics import KernelAbort

from api_support import get, put, T

R = RoundMode
F32, F16, I16 = np.dtype(np.float32), np.dtype(np.float16), np.dtype(np.int16)
A, D = 0, 16384
ML = [(L.FP8_E4M3FN, ml_dtypes.float8_e4m3fn), (L.FP8_E5M2, ml_dtypes.float8_e5m2),
      (L.FP8_E8M0, ml_dtypes.float8_e8m0fnu)]


@pytest.mark.parametrize("dt,ref", ML)
def test_every_fp8_code_decodes_as_ml_dtypes(dt, ref):
    want = np.arange(256, dtype=np.uint8).view(ref).astype(np.float64)
    np.testing.assert_array_equal(L.table(dt), want)


def test_fp4_e2m1_codes_decode_as_ml_dtypes():
    want = np.arange(16, dtype=np.uint8).view(ml_dtypes.float4_e2m1fn).astype(np.float64)
    np.testing.assert_array_equal(L.table(L.FP4X2_E2M1), want)
    assert list(L.table(L.FP4X2_E2M1)[:8]) == [0, 0.5, 1, 1.5, 2, 3, 4, 6]


def _probe(dt):
    t = L.table(dt)
    f = np.unique(t[np.isfinite(t)])
    rng = np.random.default_rng(7)
    mids = (f[1:] + f[:-1]) / 2
    return np.concatenate([f, mids, -mids, rng.normal(0, 50, 4000), rng.normal(0, 1, 4000),
                           [np.inf, -np.inf, 1e9, -1e9, 464.0, 465.0, 59392.0, -0.0]]).astype(np.float32)


@pytest.mark.parametrize("dt,ref", ML[:2] + [(L.FP4X2_E2M1, ml_dtypes.float4_e2m1fn)])
def test_rint_encoding_matches_ml_dtypes(dt, ref):
    x = _probe(dt)
    want = x.astype(ref).view(np.uint8) & (0xF if dt == L.FP4X2_E2M1 else 0xFF)
    np.testing.assert_array_equal(L.encode(x, dt, "RINT"), want)
    assert L.encode(np.array([np.nan]), dt)[0] == (0 if dt == L.FP4X2_E2M1 else np.array(np.nan, ref).view(np.uint8))


def test_fp8_overflow_and_saturation():
    x = np.array([464.0, 465.0, 1e5, np.inf, -np.inf, np.nan])
    assert list(L.encode(x, L.FP8_E4M3FN)) == [0x7E, 0x7F, 0x7F, 0x7F, 0xFF, 0x7F]     # no Inf: NaN
    assert list(L.encode(x, L.FP8_E4M3FN, saturate=True)) == [0x7E, 0x7E, 0x7E, 0x7E, 0xFE, 0]
    y = np.array([57344.0, 61440.0, 1e6, -np.inf])
    assert list(L.encode(y, L.FP8_E5M2)) == [0x7B, 0x7C, 0x7C, 0xFC]                 # tie to even: Inf
    assert list(L.encode(y, L.FP8_E5M2, saturate=True)) == [0x7B, 0x7B, 0x7B, 0xFB]


def test_directed_modes_on_fp4():
    x = np.array([0.75, -0.75, 2.5, -2.5, 5.0, 7.0, -100.0])
    assert list(L.decode(L.encode(x, L.FP4X2_E2M1, "FLOOR"), L.FP4X2_E2M1)) == [0.5, -1, 2, -3, 4, 6, -6]
    assert list(L.decode(L.encode(x, L.FP4X2_E2M1, "CEIL"), L.FP4X2_E2M1)) == [1, -0.5, 3, -2, 6, 6, -6]
    assert list(L.decode(L.encode(x, L.FP4X2_E2M1, "TRUNC"), L.FP4X2_E2M1)) == [0.5, -0.5, 2, -2, 4, 6, -6]
    assert list(L.decode(L.encode(x, L.FP4X2_E2M1, "ROUND"), L.FP4X2_E2M1)) == [1, -1, 3, -3, 6, 6, -6]
    assert list(L.decode(L.encode(x, L.FP4X2_E2M1, "RINT"), L.FP4X2_E2M1)) == [1, -1, 2, -2, 4, 6, -6]


def test_fp4_e1m2_table_by_hand():
    # S.E.MM with bias 1: E=0 gives M/4, E=1 gives 1 + M/4 (range +-7 * 2**-2)
    assert list(L.table(L.FP4X2_E1M2)) == [0, .25, .5, .75, 1, 1.25, 1.5, 1.75,
                                            -0.0, -.25, -.5, -.75, -1, -1.25, -1.5, -1.75]
    assert list(L.encode(np.array([0.125, 0.375, 1.6, 9.0, -9.0]), L.FP4X2_E1M2)) == [0, 2, 6, 7, 15]


# hifloat8 codes worked out by hand from the page: S | D (prefix) | E | M
HIF8_BY_HAND = {
    0x00: 0.0,                   # zero
    0x2E: 14.0,                  # the page's example: 0 01 01 110: D=01, E=01 -> Ev=+3, M=6/8: 8 * 1.75
    0x08: 1.0,                   # 0 0001 000: D=0001, Ev=0, M=0
    0x0F: 1.875,                 # 0 0001 111
    0x10: 2.0,                   # 0 001 0 000: D=001, E=0 -> Ev=+1
    0x18: 0.5,                   # 0 001 1 000: E=1 -> Ev=-1
    0x20: 4.0,                   # 0 01 00 000: E=00 -> Ev=+(10b)=2
    0x30: 0.25,                  # 0 01 10 000: E=10 -> Ev=-2
    0x40: 16.0,                  # 0 10 000 00: E=000 -> Ev=+(100b)=4
    0x60: 256.0,                 # 0 11 0000 0: E=0000 -> Ev=+(1000b)=8
    0x6E: 2.0 ** 15,             # 0 11 0111 0: Ev=15, the largest finite value
    0x7F: 1.5 * 2.0 ** -15,      # 0 11 1111 1: Ev=-15, M=1/2
    0x01: 2.0 ** -22,            # 0 0000 001: subnormal 2**(M - 23)
    0x07: 2.0 ** -16,
    0xAE: -14.0,
}


def test_hifloat8_table_by_hand():
    t = L.table(L.HIF8)
    for code, value in HIF8_BY_HAND.items():
        assert t[code] == value, hex(code)
    assert np.isnan(t[0x80]) and t[0x6F] == np.inf and t[0xEF] == -np.inf
    assert np.unique(t[np.isfinite(t)]).size == 253                # every other code a distinct value


def test_hifloat8_encode_round_ties_away_and_overflow():
    t = L.table(L.HIF8)
    f = np.unique(t[np.isfinite(t)])
    assert list(L.encode(f, L.HIF8, "ROUND")) == [int(np.flatnonzero(t == v)[0]) for v in f]
    assert L.encode(np.array([15.5]), L.HIF8, "ROUND")[0] == 0x40             # midpoint 15 | 16: away
    assert L.encode(np.array([-15.5]), L.HIF8, "ROUND")[0] == 0xC0
    assert L.encode(np.array([14.5]), L.HIF8, "ROUND")[0] == 0x2F             # 14 | 15 -> 15 (0 01 01 111)
    assert list(L.encode(np.array([40960.0, 40000.0, np.nan, -0.0]), L.HIF8, "ROUND")) == [0x6F, 0x6E, 0x80, 0]   # 1.25 * 2**15: Inf
    assert list(L.encode(np.array([1e6, np.inf, np.nan]), L.HIF8, "ROUND", saturate=True)) == [0x6E, 0x6E, 0]
    assert L.encode(np.array([2.0 ** -24]), L.HIF8, "ROUND")[0] == 0      # below half the smallest: zero


def test_pack_order_setting():
    c = np.array([1, 2, 3, 4], np.uint8)
    assert list(L.pack4(c)) == [0x21, 0x43]
    assert list(L.pack4(c, "high_first")) == [0x12, 0x34]
    assert list(L.unpack4(L.pack4(c))) == [1, 2, 3, 4]


def test_membase_cast_fp8_both_ways(ctx):
    x = np.array([0.3, -1.7, 448.0, 500.0, 1e-3, 3.0, -0.0, 1e5], np.float32)
    put(ctx, A, x)
    AscendC.Cast(T(D, L.FP8_E4M3FN), T(A, F32), R.CAST_RINT, 8)
    got = get(ctx, D, np.uint8, 8)
    np.testing.assert_array_equal(got, x.astype(ml_dtypes.float8_e4m3fn).view(np.uint8))
    AscendC.Cast(T(A, F32), T(D, L.FP8_E4M3FN), R.CAST_NONE, 8)
    np.testing.assert_array_equal(get(ctx, A, F32, 8), got.view(ml_dtypes.float8_e4m3fn).astype(np.float32))
    with pytest.raises(KernelAbort):
        AscendC.Cast(T(D, L.FP8_E5M2), T(A, F32), R.CAST_ROUND, 8)            # the page lists RINT only


def test_membase_cast_hifloat8_level0(ctx):
    x = np.linspace(-40, 40, 64).astype(np.float16)
    put(ctx, A, x)
    AscendC.Cast(T(D, L.HIF8), T(A, F16), R.CAST_ROUND, 64, 1, UnaryRepeatParams(1, 1, 4, 8))
    got = get(ctx, D, np.uint8, 64)
    np.testing.assert_array_equal(got, L.encode(x.astype(np.float64), L.HIF8, "ROUND"))
    AscendC.Cast(T(A, F32), T(D, L.HIF8), R.CAST_NONE, 64)
    np.testing.assert_array_equal(get(ctx, A, F32, 64), L.table(L.HIF8)[got].astype(np.float32))


def test_membase_cast_fp4_and_int4_packed(ctx):
    x = np.array([0.6, -2.4, 5.5, 7.0, 0.2, -0.2, 1.25, 3.3], np.float32).astype(BF16)
    put(ctx, A, x)
    AscendC.Cast(T(D, L.FP4X2_E2M1, 4), T(A, BF16), R.CAST_TRUNC, 8)
    b = get(ctx, D, np.uint8, 4)
    want = L.encode(x.astype(np.float64), L.FP4X2_E2M1, "TRUNC")
    assert list(b) == list(want[0::2] | (want[1::2] << 4))                  # element 2k in the low nibble
    AscendC.Cast(T(A, BF16), T(D, L.FP4X2_E2M1, 4), R.CAST_NONE, 8)
    assert list(get(ctx, A, BF16, 8).astype(np.float64)) == [0.5, -2, 4, 6, 0, -0.0, 1, 3]
    h = np.array([-9.0, -7.5, 2.5, 6.6, np.nan, 100.0], np.float16)
    put(ctx, A, h)
    AscendC.Cast(T(D, L.INT4B, 3), T(A, F16), R.CAST_RINT, 6)
    assert list(get(ctx, D, np.uint8, 3)) == [0x88, 0x72, 0x70]            # -8 -8 | 2 7 | 0 7
    AscendC.Cast(T(A, I16), T(D, L.INT4B, 3), R.CAST_NONE, 6)
    assert list(get(ctx, A, I16, 6)) == [-8, -8, 2, 7, 0, 7]
    with pytest.raises(KernelAbort):
        AscendC.Cast(T(A, I16), T(D, L.INT4B, 3), R.CAST_NONE, 5)           # odd 4-bit count


def test_membase_cast_int4_level0_page_example(ctx):
    """The page's int4b_t example: Cast<int4b_t, half>(dst, src, CAST_CEIL, mask 128, 1, {1, 1, 2, 8})."""
    x = (np.arange(128) * 0.37 - 20).astype(np.float16)
    put(ctx, A, x)
    put(ctx, D, np.full(96, 0xAB, np.uint8))
    AscendC.Cast(T(D, L.INT4B, 64), T(A, F16), R.CAST_CEIL, 128, 1, UnaryRepeatParams(1, 1, 2, 8))
    want = L.pack4(L.to_int4(x, "CEIL"))
    np.testing.assert_array_equal(get(ctx, D, np.uint8, 64), want)
    assert list(get(ctx, D + 64, np.uint8, 32)) == [0xAB] * 32                 # past the 64 bytes: untouched
    bits = [0x3, 0]                                                              # elements 0 and 1 only
    put(ctx, D, np.zeros(64, np.uint8))
    AscendC.Cast(T(D, L.INT4B, 64), T(A, F16), R.CAST_CEIL, bits, 1, UnaryRepeatParams(1, 1, 2, 8))
    assert get(ctx, D, np.uint8, 2)[0] == want[0] and get(ctx, D, np.uint8, 2)[1] == 0
    with pytest.raises(KernelAbort):
        AscendC.Cast(T(D, L.INT4B, 64), T(A, F16), R.CAST_CEIL, [0x1, 0], 1, UnaryRepeatParams(1, 1, 2, 8))
