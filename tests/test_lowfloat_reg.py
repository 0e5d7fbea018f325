"""Reg Cast with the 8- / 4-bit types (the Reg Cast page's Ascend 950 rows): lane placement by RegLayout,
the pair rule of the 4-bit types, values against ml_dtypes / the lowfloat tables, and the hifloat8 HYBRID
bit rule worked out by hand for a few inputs."""
from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from tests.reg_support import run
from toolkit.ascendc import lowfloat as L
from toolkit.ascendc import regbase as Reg
from toolkit.ascendc.dtypes import BF16
from toolkit.record.diagnostics import KernelAbort

F16, F32, I16, U8 = np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.int16), np.dtype(np.uint8)
LAYOUTS = [Reg.RegLayout.ZERO, Reg.RegLayout.ONE, Reg.RegLayout.TWO, Reg.RegLayout.THREE]
RM = Reg.RoundMode


def trait(layout=Reg.RegLayout.ZERO, rnd=RM.UNKNOWN):
    return Reg.CastTrait(layout, Reg.SatMode.UNKNOWN, Reg.MaskMergeMode.ZEROING, rnd)


def cast(ctx, x, src, dst, tr):
    return run(ctx, lambda r, o: Reg.Cast[dst, src, tr](o[0], r[0], Reg.CreateMask[src]()), [x], [src], [dst])[0]


@pytest.mark.parametrize("k", range(4))
def test_fp8_to_float_takes_byte_4j_plus_layout(ctx, k):
    codes = np.arange(256, dtype=np.uint8)
    out = cast(ctx, codes.view(L.FP8_E4M3FN), L.FP8_E4M3FN, F32, trait(LAYOUTS[k]))
    want = codes[k::4].view(ml_dtypes.float8_e4m3fn).astype(np.float32)
    np.testing.assert_array_equal(out, want)


@pytest.mark.parametrize("k", range(4))
def test_float_to_fp8_e5m2_rint_writes_byte_4j_plus_layout(ctx, k):
    x = np.random.default_rng(k).normal(0, 3000, 64).astype(np.float32)
    out = cast(ctx, x, F32, L.FP8_E5M2, trait(LAYOUTS[k], RM.CAST_RINT)).view(np.uint8)
    want = np.zeros(256, np.uint8)
    want[k::4] = x.astype(ml_dtypes.float8_e5m2).view(np.uint8)
    np.testing.assert_array_equal(out, want)


def test_half_to_hifloat8_round_and_back(ctx):
    x = np.linspace(-300, 300, 128).astype(np.float16)
    out = cast(ctx, x, F16, L.HIF8, trait(Reg.RegLayout.ONE, RM.CAST_ROUND)).view(np.uint8)
    want = np.zeros(256, np.uint8)
    want[1::2] = L.encode(x.astype(np.float64), L.HIF8, "ROUND")
    np.testing.assert_array_equal(out, want)
    back = cast(ctx, out.view(L.HIF8), L.HIF8, F16, trait(Reg.RegLayout.ONE))
    np.testing.assert_array_equal(back, L.table(L.HIF8)[want[1::2]].astype(np.float16))


def test_hifloat8_hybrid_rule_by_hand():
    # 20.5 = 2**4 * 1.28125: |Ev| = 4 keeps 2 mantissa bits (1.25), frac = bits 20..7 of the float32, the
    # threshold its bits 13..0 (0 here): frac >= 0 -> up to 2**4 * 1.5 = 24 (code 0 10 000 10 = 0x42)
    assert L.hif8_hybrid(np.array([20.5], np.float32))[0] == 0x42
    assert L.encode(np.array([20.5]), L.HIF8, "ROUND")[0] == 0x41               # ROUND: 20 (1.25 * 16)
    # 1.0625 (|Ev| = 0): HYBRID rounds as ROUND there: tie 1 | 1.125 -> away
    assert L.hif8_hybrid(np.array([1.0625], np.float32))[0] == 0x09
    # 17 + 2**-19 * 17: bit 0 of the float is 1 (thr = 1), frac = bits 20..7 = 0b00010000000000 -> up
    x = np.array([17.0], np.float32).view(np.uint32) | np.uint32(1)
    assert L.hif8_hybrid(x.view(np.float32))[0] == 0x41                          # 16 * 1.25 = 20


def test_hifloat8_hybrid_half_by_hand():
    # half 17.0 = 0 10011 0001000000 (Ev = 4): M = bits 9..8 = 00, frac = bits 7..6 = 0b01, thr = 0b01:
    # frac >= thr -> up: 16 * 1.25 = 20 (0x41)
    assert L.hif8_hybrid(np.array([17.0], np.float16))[0] == 0x41
    # half 16.5 = 0 10011 0000100000: frac = bits 7..6 = 0b00 < thr 0b01 -> down: 16 (0x40)
    assert L.hif8_hybrid(np.array([16.5], np.float16))[0] == 0x40


@pytest.mark.parametrize("k", range(4))
def test_fp4_to_bf16_pairs(ctx, k):
    b = np.arange(256, dtype=np.uint8)
    out = cast(ctx, b.view(L.FP4X2_E2M1), L.FP4X2_E2M1, BF16, trait(LAYOUTS[k]))
    codes = L.unpack4(b[k::4])
    np.testing.assert_array_equal(out.astype(np.float64), L.table(L.FP4X2_E2M1)[codes])


def test_bf16_to_fp4_e1m2_pairs_and_saturation(ctx):
    x = np.random.default_rng(3).normal(0, 1.5, 128).astype(np.float32).astype(BF16)
    out = cast(ctx, x, BF16, L.FP4X2_E1M2, trait(Reg.RegLayout.TWO, RM.CAST_FLOOR)).view(np.uint8)
    want = np.zeros(256, np.uint8)
    want[2::4] = L.pack4(L.encode(x.astype(np.float64), L.FP4X2_E1M2, "FLOOR"))
    np.testing.assert_array_equal(out, want)


def test_bf16_to_e8m0_keeps_the_exponent(ctx):
    x = np.array([1.0, 3.0, -0.3, 2.0 ** 100, np.inf, np.nan] + [1.0] * 122, np.float32).astype(BF16)
    out = cast(ctx, x, BF16, L.FP8_E8M0, trait()).view(np.uint8)
    assert list(out[0:12:2]) == [127, 128, 125, 227, 0xFE, 0xFF]


def test_unlisted_pair_and_mode_are_refused(ctx):
    with pytest.raises(KernelAbort):
        cast(ctx, np.zeros(64, np.float32), F32, L.FP8_E4M3FN, trait(rnd=RM.CAST_ROUND))
    with pytest.raises(KernelAbort):
        cast(ctx, np.zeros(128, np.float16), F16, L.FP8_E4M3FN, trait(rnd=RM.CAST_RINT))
