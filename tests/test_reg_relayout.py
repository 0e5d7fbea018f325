"""Reg relayout and MaskReg computations: Interleave / DeInterleave, Pack / UnPack (registers and masks),
Squeeze / Unsqueeze, Histograms, Select / Move of masks and registers, MoveMask, MaskGenWithRegTensor.
References: index arithmetic and numpy counts written from the pages."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reg_support import lanes, mask_bits, ops, run
from toolkit.ascendc import regbase as Reg
from toolkit.ascendc.dtypes import uint32_t

U8, I8, U16, I16, U32, I32, I64, F16, F32 = (np.dtype(t) for t in (
    np.uint8, np.int8, np.uint16, np.int16, np.uint32, np.int32, np.int64, np.float16, np.float32))


@pytest.mark.parametrize("dt", [U8, F16, F32, I64])
def test_interleave_and_deinterleave_are_zip_and_unzip(ctx, dt):
    n = lanes(dt)
    a = np.arange(n).astype(dt)
    b = (np.arange(n) + 1000).astype(dt) if dt != U8 else (np.arange(n) % 200 + 50).astype(dt)
    d0, d1, e0, e1 = run(ctx, lambda r, o: (Reg.Interleave(o[0], o[1], r[0], r[1]),
                                            Reg.DeInterleave(o[2], o[3], r[0], r[1])), [a, b], [dt, dt], [dt] * 4)
    z = np.stack([a, b], 1).reshape(-1)
    np.testing.assert_array_equal(np.concatenate([d0, d1]), z)
    c = np.concatenate([a, b])
    np.testing.assert_array_equal(e0, c[0::2])
    np.testing.assert_array_equal(e1, c[1::2])


def test_deinterleave_undoes_interleave_in_place(ctx):
    """The pages allow sources and destinations to be the same registers."""
    a = np.arange(64, dtype=F32)
    b = -np.arange(64, dtype=F32)

    def body(r, o):
        Reg.Interleave(r[0], r[1], r[0], r[1])
        Reg.DeInterleave(r[0], r[1], r[0], r[1])
        Reg.Add(o[0], r[0], o[0], Reg.CreateMask[float]())
        Reg.Add(o[1], r[1], o[1], Reg.CreateMask[float]())
    x, y = run(ctx, body, [a, b], [F32, F32], [F32, F32])
    np.testing.assert_array_equal(x, a)
    np.testing.assert_array_equal(y, b)


@pytest.mark.parametrize("dt", [U8, U16, U32])
def test_mask_interleave_moves_groups_of_the_element_width(ctx, dt):
    """The MaskReg page example: Interleave<T>(full, M3) then DeInterleave<T> gives both masks back."""
    got = {}

    @Reg.__simd_vf__
    def vf():
        full = Reg.CreateMask[dt, Reg.MaskPattern.ALL]()
        m3 = Reg.CreateMask[dt, Reg.MaskPattern.M3]()
        n0, n1 = Reg.MaskReg(), Reg.MaskReg()
        Reg.Interleave[dt](n0, n1, full, m3)
        got["i"] = np.concatenate([mask_bits(n0), mask_bits(n1)])
        Reg.DeInterleave[dt](n0, n1, n0, n1)
        got["d"] = (mask_bits(n0), mask_bits(n1), mask_bits(full), mask_bits(m3))
    vf()
    w = dt.itemsize
    d0, d1, full, m3 = got["d"]
    assert (d0 == full).all() and (d1 == m3).all()
    groups = np.stack([full.reshape(-1, w), m3.reshape(-1, w)], 1).reshape(-1)
    assert (got["i"] == groups).all()


@pytest.mark.parametrize("part", [0, 1])
@pytest.mark.parametrize("src, dst", [(U16, U8), (I32, U16), (U32, U16), (I64, U32)])
def test_pack_keeps_the_low_half_of_each_element_in_one_half(ctx, part, src, dst):
    n = lanes(src)
    x = (np.arange(n, dtype=np.int64) * 0x01020305 + 0x7B).astype(src)
    hp = Reg.HighLowPart.HIGHEST if part else Reg.HighLowPart.LOWEST
    out, = run(ctx, lambda r, o: Reg.Pack[dst, src, hp](o[0], r[0]), [x], [src], [dst])
    want = np.zeros(lanes(dst), dst)
    want[part * n:(part + 1) * n] = x.astype(dst)
    np.testing.assert_array_equal(out, want)


@pytest.mark.parametrize("part", [0, 1])
@pytest.mark.parametrize("src, dst", [(U8, U16), (I8, I16), (I16, I32), (U32, np.dtype(np.uint64))])
def test_unpack_widens_one_half_with_the_sign(ctx, part, src, dst):
    n = lanes(dst)
    x = (np.arange(lanes(src), dtype=np.int64) * 37 - 3000).astype(src)
    hp = Reg.HighLowPart.HIGHEST if part else Reg.HighLowPart.LOWEST
    out, = run(ctx, lambda r, o: Reg.UnPack[dst, src, hp](o[0], r[0]), [x], [src], [dst])
    np.testing.assert_array_equal(out, x[part * n:(part + 1) * n].astype(dst))


def test_mask_pack_and_unpack_move_bits_between_halves(ctx):
    got = {}

    @Reg.__simd_vf__
    def vf():
        src = Reg.CreateMask[np.uint8, Reg.MaskPattern.M3]()
        for part in (Reg.HighLowPart.LOWEST, Reg.HighLowPart.HIGHEST):
            p, u = Reg.MaskReg(), Reg.MaskReg()
            Reg.Pack[part](p, src)
            Reg.UnPack[part](u, src)
            got[part] = (mask_bits(p), mask_bits(u))
    vf()
    src = np.arange(256) % 3 == 0
    for k, part in enumerate((Reg.HighLowPart.LOWEST, Reg.HighLowPart.HIGHEST)):
        p, u = got[part]
        want_p = np.zeros(256, bool)
        want_p[k * 128:(k + 1) * 128] = src[0::2]
        want_u = np.zeros(256, bool)
        want_u[0::2] = src[k * 128:(k + 1) * 128]
        assert (p == want_p).all() and (u == want_u).all()


@pytest.mark.parametrize("dt", [I8, F16, F32])
def test_squeeze_packs_the_active_elements_low(ctx, dt):
    n = lanes(dt)
    x = (np.arange(n) + 1).astype(dt)

    def body(r, o):
        cmp = Reg.MaskReg()
        Reg.CompareScalar[dt, Reg.CMPMODE.GT](cmp, r[1], 0, Reg.CreateMask[dt]())
        Reg.Squeeze(o[0], r[0], cmp)
    sel = (np.arange(n) * 7 % 5 < 2).astype(dt)
    out, = run(ctx, body, [x, sel], [dt, dt], [dt])
    kept = x[sel > 0]
    np.testing.assert_array_equal(out[:len(kept)], kept)
    assert (out[len(kept):] == 0).all()


@pytest.mark.parametrize("dt", [U8, I16, U32])
def test_unsqueeze_counts_the_active_lanes_below(ctx, dt):
    n = lanes(dt)
    on = (np.arange(n) % 3 != 1)
    out, = run(ctx, lambda r, o: (Reg.Unsqueeze(o[0], _mask_from(r[0], dt))), [on.astype(dt)], [dt], [dt])
    np.testing.assert_array_equal(out, np.concatenate([[0], np.cumsum(on)[:-1]]).astype(dt))


def _mask_from(reg, dt):
    m = Reg.MaskReg()
    Reg.CompareScalar[dt, Reg.CMPMODE.NE](m, reg, 0, Reg.CreateMask[dt]())
    return m


@pytest.mark.parametrize("kind", ["FREQUENCY", "ACCUMULATE"])
@pytest.mark.parametrize("bin_", ["BIN0", "BIN1"])
def test_histograms_add_counts_of_one_half_of_the_byte_range(ctx, kind, bin_):
    v = (np.arange(256) * 97 % 251).astype(U8)
    start = np.arange(128, dtype=np.uint16) * 3
    k, b = Reg.HistogramsType[kind], Reg.HistogramsBinType[bin_]
    out, = run(ctx, lambda r, o: (Reg.Add(o[0], o[0], r[1], Reg.CreateMask[U16]()),
                                  Reg.Histograms[U8, U16, b, k](o[0], r[0], Reg.UpdateMask[U8](uint32_t(200)))),
               [v, start], [U8, U16], [U16])
    active = v[:200]
    lo = 128 if bin_ == "BIN1" else 0
    if kind == "FREQUENCY":
        add = np.array([(active == lo + n).sum() for n in range(128)])
    else:                                                  # [numerics] histogram_accumulate = "from_zero"
        add = np.array([(active <= lo + n).sum() for n in range(128)])
    np.testing.assert_array_equal(out, (start + add).astype(U16))
    assert "RV_VHIST" in ops(ctx)


def test_select_of_masks_and_move_of_registers(ctx):
    """MaskReg Select page example: Select(new, full, none, VL1) keeps lane 0 only; Move<T, MERGING> of a
    register keeps dst outside the mask; Move(dst, src) copies."""
    got = {}
    a = np.arange(64, dtype=F32)
    b = -np.arange(64, dtype=F32) - 1

    def body(r, o):
        full = Reg.CreateMask[float, Reg.MaskPattern.ALL]()
        none = Reg.CreateMask[float, Reg.MaskPattern.ALLF]()
        vl1 = Reg.CreateMask[float, Reg.MaskPattern.VL1]()
        new = Reg.MaskReg()
        Reg.Select(new, full, none, vl1)
        got["sel"] = mask_bits(new)
        Reg.Move(o[0], r[0])
        Reg.Move(o[0], r[1], Reg.UpdateMask[float](uint32_t(10)))
    out, = run(ctx, body, [a, b], [F32, F32], [F32])
    assert got["sel"].nonzero()[0].tolist() == [0]
    np.testing.assert_array_equal(out, np.where(np.arange(64) < 10, b, a))


@pytest.mark.parametrize("dt", [U16, F32])
def test_movemask_reads_the_vector_mask_register(ctx, dt):
    """b16: the 128 bits of {MASK1, MASK0}, each doubled; b32: MASK0's 64 bits, each 4 times."""
    ctx.vector_mask = (0x8000000000000001, 0x00000000000000F3)
    got = {}

    @Reg.__simd_vf__
    def vf():
        got["m"] = mask_bits(Reg.MoveMask[dt]())
    vf()
    lo = np.unpackbits(np.array([0xF3], np.uint64).view(np.uint8), bitorder="little")
    hi = np.unpackbits(np.array([0x8000000000000001], np.uint64).view(np.uint8), bitorder="little")
    w = dt.itemsize
    want = np.repeat(np.concatenate([lo, hi]) if w == 2 else lo, w).astype(bool)
    assert (got["m"] == want).all()


@pytest.mark.parametrize("dt, offset", [(U16, 0), (U16, 15), (U32, 0), (U32, 31)])
def test_mask_gen_with_regtensor_broadcasts_one_block(ctx, dt, offset):
    """b16: 16-byte block ``offset``, each bit to 2 predicate bits; b32: 8-byte block, each bit to 4."""
    x = (np.arange(lanes(dt), dtype=np.int64) * 0x9E3779B9).astype(dt)
    got = {}

    def body(r, o):
        m = Reg.MaskReg()
        Reg.MaskGenWithRegTensor[dt, offset](m, r[0])
        got["m"] = mask_bits(m)
    run(ctx, body, [x], [dt], [])
    block = 32 // dt.itemsize
    raw = x.view(np.uint8)[offset * block:(offset + 1) * block]
    want = np.repeat(np.unpackbits(raw, bitorder="little"), dt.itemsize).astype(bool)
    assert (got["m"] == want).all()
