"""Reg logic (逻辑计算): And / Or / Xor / Not on registers and on MaskRegs, and the four shifts. References:
numpy bit operations and the pages' worked examples (int16 0xAAAA << 1 = 0xD554, << 3 = 0xD550; >> 1 =
0xD555, >> 3 = 0xF555; uint16 examples; amounts of at least the width)."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reg_support import lanes, mask_bits, run
from toolkit.ascendc import regbase as Reg
from toolkit.ascendc.dtypes import uint32_t

U8, I8, U16, I16, I32, U32, I64, F16, F32 = (np.dtype(t) for t in (
    np.uint8, np.int8, np.uint16, np.int16, np.int32, np.uint32, np.int64, np.float16, np.float32))
BITWISE = {"And": np.bitwise_and, "Or": np.bitwise_or, "Xor": np.bitwise_xor}


@pytest.mark.parametrize("name", list(BITWISE))
@pytest.mark.parametrize("dt", [U8, I16, U32, I64])
def test_register_bitwise_ops_zero_the_inactive_lanes(ctx, name, dt):
    n = lanes(dt)
    a = (np.arange(n, dtype=np.int64) * 0x9E3779B1).astype(dt)
    b = (np.arange(n, dtype=np.int64) * 0x7F4A7C15 + 3).astype(dt)
    out, = run(ctx, lambda r, o: getattr(Reg, name)(o[0], r[0], r[1], Reg.UpdateMask[dt](uint32_t(n - 5))),
               [a, b], [dt, dt], [dt])
    np.testing.assert_array_equal(out, np.where(np.arange(n) < n - 5, BITWISE[name](a, b), 0))


@pytest.mark.parametrize("dt", [U8, I16, F16, F32, I64])
def test_not_inverts_the_element_bits(ctx, dt):
    x = np.linspace(-5, 5, lanes(dt)).astype(dt)
    out, = run(ctx, lambda r, o: Reg.Not(o[0], r[0], Reg.CreateMask[dt]()), [x], [dt], [dt])
    u = np.dtype(f"u{dt.itemsize}")
    np.testing.assert_array_equal(out.view(u), ~x.view(u))


def test_maskreg_forms_of_and_or_xor_not_act_on_predicate_bits(ctx):
    got = {}

    @Reg.__simd_vf__
    def vf():
        a = Reg.CreateMask[np.uint8, Reg.MaskPattern.M3]()
        b = Reg.CreateMask[np.uint8, Reg.MaskPattern.H]()
        m = Reg.CreateMask[np.uint8, Reg.MaskPattern.VL128]()
        for name in ("And", "Or", "Xor"):
            d = Reg.MaskReg()
            getattr(Reg, name)(d, a, b, m)
            got[name] = mask_bits(d)
        d = Reg.MaskReg()
        Reg.Not(d, a, m)
        got["Not"] = mask_bits(d)
    vf()
    i = np.arange(256)
    a, b, m = i % 3 == 0, i < 128, i < 128
    assert (got["And"] == (a & b & m)).all() and (got["Or"] == ((a | b) & m)).all()
    assert (got["Xor"] == ((a ^ b) & m)).all() and (got["Not"] == (~a & m)).all()


def test_shifts_of_signed_types_keep_the_sign_bit(ctx):
    x = np.full(128, 0xAAAA, np.uint16).view(I16)
    amounts = np.array([1, 3, 16, 20] * 32, I16)
    left, right, lefts, rights = run(ctx, lambda r, o: (
        Reg.ShiftLeft(o[0], r[0], r[1], Reg.CreateMask[I16]()),
        Reg.ShiftRight(o[1], r[0], r[1], Reg.CreateMask[I16]()),
        Reg.ShiftLefts(o[2], r[0], 3, Reg.CreateMask[I16]()),
        Reg.ShiftRights(o[3], r[0], 3, Reg.CreateMask[I16]())), [x, amounts], [I16, I16], [I16] * 4)
    assert [hex(v) for v in left[:4].view(U16)] == ["0xd554", "0xd550", "0x0", "0x0"]
    assert [hex(v) for v in right[:4].view(U16)] == ["0xd555", "0xf555", "0xffff", "0xffff"]   # -1: negative
    assert (lefts.view(U16) == 0xD550).all() and (rights.view(U16) == 0xF555).all()


def test_shifts_of_unsigned_types_are_logical(ctx):
    """ShiftLeft page example: [1, 2, 3, 4, 5, 6, 7, 8, ...] << [1, 2, 3, 4, 1, 2, 3, 4, ...]."""
    x = np.tile(np.array([1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 9, 3, 4, 6, 5, 7], U16), 8)
    s = np.tile(np.array([1, 2, 3, 4, 1, 2, 3, 4, 2, 3, 1, 2, 3, 1, 2, 1], I16), 8)
    big = np.full(128, 0xAAAA, U16)
    left, right, over = run(ctx, lambda r, o: (
        Reg.ShiftLeft(o[0], r[0], r[1], Reg.CreateMask[U16]()),
        Reg.ShiftRights(o[1], r[2], 1, Reg.CreateMask[U16]()),
        Reg.ShiftLefts(o[2], r[2], 17, Reg.CreateMask[U16]())), [x, s, big], [U16, I16, U16], [U16] * 3)
    assert left[:16].tolist() == [2, 8, 24, 64, 10, 24, 56, 128, 4, 16, 18, 12, 32, 12, 20, 14]
    assert (right == 0x5555).all() and (over == 0).all()


@pytest.mark.parametrize("dt", [I8, U8, I32, U32, I64])
def test_shifts_match_a_bitwise_reference(ctx, dt):
    n = lanes(dt)
    bits = 8 * dt.itemsize
    x = (np.arange(n, dtype=np.int64) * 0x5DEECE66D - 12345).astype(dt)
    amt = (np.arange(n) % (bits + 3)).astype(np.dtype(f"i{dt.itemsize}"))
    left, right = run(ctx, lambda r, o: (Reg.ShiftLeft(o[0], r[0], r[1], Reg.CreateMask[dt]()),
                                         Reg.ShiftRight(o[1], r[0], r[1], Reg.CreateMask[dt]())),
                      [x, amt], [dt, amt.dtype], [dt, dt])
    for k in range(n):
        v, s = int(x[k]), int(amt[k])
        mask = (1 << bits) - 1
        if dt.kind == "u":
            want_l, want_r = (v << s) & mask if s < bits else 0, v >> s if s < bits else 0
        else:
            sign = v & (1 << (bits - 1))
            want_l = (sign | ((v << s) & ((1 << (bits - 1)) - 1))) if s < bits else 0
            want_r = v >> s if s < bits else (-1 if v < 0 else 0)
        assert int(left[k]) & mask == want_l & mask and int(right[k]) & mask == want_r & mask, (k, v, s)
