"""Reg discrete and unaligned moves, MaskReg in UB: Gather (register / UB), GatherB, Scatter, Load / Store,
StoreUnAlign (count with postMode, MaskReg, the AR form after Squeeze<STORE_REG>), ClearSpr, and MaskReg
LoadAlign / StoreAlign with every MaskDist, post-update (bytes) and AddrReg. References: index arithmetic
and bit packing written here from the pages (bit i of a predicate = bit i % 8 of byte i // 8)."""
from __future__ import annotations

import numpy as np
import pytest

from tests.api_support import get, put
from tests.reg_support import lanes, mask_bits, run
from toolkit.ascendc import regbase as Reg
from toolkit.ascendc.dtypes import uint32_t
from toolkit.ascendc.tensor import UbPtr

U8, I8, U16, I16, U32, I32, I64, F16, F32 = (np.dtype(t) for t in (
    np.uint8, np.int8, np.uint16, np.int16, np.uint32, np.int32, np.int64, np.float16, np.float32))
BASE, OUT = 8192, 40960


@pytest.mark.parametrize("dt, it", [(U8, U8), (F16, U16), (F32, U32)])
def test_gather_from_a_register_by_index_without_and_with_a_mask(ctx, dt, it):
    n = lanes(dt)
    x = (np.arange(n) * 3 % 251).astype(dt)
    idx = ((np.arange(n) * 7 + 3) % n).astype(it)
    plain, masked = run(ctx, lambda r, o: (Reg.Gather[dt, it](o[0], r[0], r[1]),
                                           Reg.Gather(o[1], r[0], r[1], Reg.UpdateMask[dt](uint32_t(n // 2)))),
                        [x, idx], [dt, it], [dt, dt])
    np.testing.assert_array_equal(plain, x[idx])
    np.testing.assert_array_equal(masked, np.where(np.arange(n) < n // 2, x[idx], 0))


@pytest.mark.parametrize("dst, src, it", [(F32, F32, U32), (I16, I8, U16), (U16, U16, U16), (I64, I64, U32)])
def test_gather_from_ub_by_element_index(ctx, dst, src, it):
    """lane i = base[index[i]]; a b8 source in b16 lanes is zero-extended (-40 -> 216); int64 with a uint32
    index uses its first 32 index lanes (the point-4 form Gather<float, float, uint32_t>(dst, ptr&, idx, m))."""
    data = (np.arange(512) - 40).astype(src)
    put(ctx, BASE, data)
    n = lanes(dst)
    idx = ((np.arange(lanes(it)) * 5) % 300).astype(it)

    def body(r, o):
        p = UbPtr(BASE, src)
        Reg.Gather[dst, src, it](o[0], p, r[0], Reg.UpdateMask[dst](uint32_t(n - 3)))
    out, = run(ctx, body, [idx], [it], [dst])
    vals = data[idx[:n].astype(np.int64)]
    if src.itemsize < dst.itemsize:
        vals = vals.view(np.uint8).astype(dst)
    np.testing.assert_array_equal(out, np.where(np.arange(n) < n - 3, vals.astype(dst), 0))


def test_gatherb_collects_datablocks_by_byte_offset(ctx):
    data = np.arange(1024, dtype=U32)
    put(ctx, BASE, data)
    offsets = np.zeros(64, U32)
    offsets[:8] = np.array([96, 0, 32, 256, 128, 64, 992, 0], U32)      # block 3, 0, 1, 8, 4, 2, 31, 0

    def body(r, o):
        Reg.GatherB(o[0], UbPtr(BASE, U32), r[0], Reg.UpdateMask[U32](uint32_t(60)))
    out, = run(ctx, body, [offsets], [U32], [U32])
    want = np.concatenate([data[o // 4:o // 4 + 8] for o in offsets[:8]])
    np.testing.assert_array_equal(out, np.where(np.arange(64) < 60, want, 0))


@pytest.mark.parametrize("dt, it", [(F32, U32), (I16, U16), (U8, U16)])
def test_scatter_writes_active_lanes_to_their_indices(ctx, dt, it):
    """b8 data: the even source elements, one per 16-bit index lane."""
    n = 256 // max(dt.itemsize, 2)
    put(ctx, BASE, np.full(1024, 0x5A, np.uint8))
    x = (np.arange(lanes(dt)) + 1).astype(dt)
    idx = ((np.arange(lanes(it)) * 3) % 500).astype(it)

    def body(r, o):
        Reg.Scatter(UbPtr(BASE, dt), r[0], r[1], Reg.UpdateMask[np.dtype(f"u{max(dt.itemsize, 2)}")](uint32_t(n - 4)))
    run(ctx, body, [x, idx], [dt, it], [])
    got = get(ctx, BASE, dt, 1024 // dt.itemsize)
    want = np.full(1024, 0x5A, np.uint8).view(dt).copy()
    src = x[0::2] if dt.itemsize == 1 else x
    for i in range(n - 4):
        want[int(idx[i])] = src[i]
    np.testing.assert_array_equal(got, want)


def test_load_and_store_move_a_vl_at_any_element_address(ctx):
    data = np.arange(256, dtype=F32)
    put(ctx, BASE, data)
    put(ctx, OUT, np.full(256, -1, F32))

    @Reg.__simd_vf__
    def vf():
        r = Reg.RegTensor[float]()
        Reg.Load(r, UbPtr(BASE + 4 * 5, F32))
        Reg.Store(UbPtr(OUT + 4 * 3, F32), r)
        Reg.Store(UbPtr(OUT + 4 * 100, F32), r, 7)
    vf()
    got = get(ctx, OUT, F32, 256)
    np.testing.assert_array_equal(got[3:67], data[5:69])
    np.testing.assert_array_equal(got[100:107], data[5:12])
    assert got[2] == -1 and got[67] == -1 and got[107] == -1
    assert ctx.diag.codes() == []


def test_storeunalign_with_post_mode_update_and_an_unalignreg(ctx):
    """Issue 18 point 4: StoreUnAlign<float, POST_MODE_UPDATE>(float*&, RegTensor&, UnalignReg&, uint32_t):
    the pointer moves by the count, the tail reaches UB at StoreUnAlignPost."""
    data = np.arange(64, dtype=F32) + 0.5
    put(ctx, BASE, data)
    put(ctx, OUT, np.zeros(256, F32))
    moved = {}

    @Reg.__simd_vf__
    def vf():
        r = Reg.RegTensor[float]()
        u = Reg.UnalignRegForStore()
        Reg.LoadAlign(r, UbPtr(BASE, F32))
        p = UbPtr(OUT + 4 * 3, F32)
        for _ in range(3):
            Reg.StoreUnAlign[float, Reg.PostLiteral.POST_MODE_UPDATE](p, r, u, 10)
        moved["p"] = p.addr
        Reg.StoreUnAlignPost(p, u, 0)
    vf()
    got = get(ctx, OUT, F32, 64)
    np.testing.assert_array_equal(got[3:33], np.tile(data[:10], 3))
    assert moved["p"] == OUT + 4 * 33 and ctx.diag.codes() == []


@pytest.mark.parametrize("dt, nbytes", [(U16, 16), (U32, 8), (U8, 32)])
def test_storeunalign_of_a_mask_packs_one_bit_per_element(ctx, dt, nbytes):
    """b16: the lowest bit of each 2 packed into 16 B, the pointer +16 B; b32: of each 4 into 8 B."""
    put(ctx, OUT, np.zeros(128, np.uint8))
    got = {}

    @Reg.__simd_vf__
    def vf():
        u = Reg.UnalignRegForStore()
        p = UbPtr(OUT + 16, dt)
        for count in (5, 70):
            m = Reg.UpdateMask[dt](uint32_t(count))
            Reg.StoreUnAlign(p, m, u)
        got["p"] = p.addr
        Reg.StoreUnAlignPost(p, u, 0)
    vf()
    n = 256 // dt.itemsize
    want = np.concatenate([np.packbits(np.arange(n) < c, bitorder="little") for c in (5, 70)])
    np.testing.assert_array_equal(get(ctx, OUT + 16, np.uint8, 2 * nbytes), want)
    assert got["p"] == OUT + 16 + 2 * nbytes


def test_squeeze_with_store_reg_and_the_ar_form_pack_a_stream(ctx):
    """Squeeze page example: ClearSpr<AR>, then per VL Squeeze<T, STORE_REG> with an H mask and the AR form
    of StoreUnAlign (no count): the kept halves land one after the other from dst."""
    data = np.arange(256, dtype=F32)
    put(ctx, BASE, data)
    put(ctx, OUT, np.full(256, -1, F32))

    @Reg.__simd_vf__
    def vf():
        a, b = Reg.RegTensor[float](), Reg.RegTensor[float]()
        u = Reg.UnalignRegForStore()
        h = Reg.CreateMask[float, Reg.MaskPattern.H]()
        Reg.ClearSpr[Reg.SpecialPurposeReg.AR]()
        src = UbPtr(BASE, F32)
        for _ in Reg.VLOOP(4):
            Reg.LoadAlign[float, Reg.PostLiteral.POST_MODE_UPDATE](a, src, 64)
            Reg.Squeeze[float, Reg.GatherMaskMode.STORE_REG](b, a, h)
            Reg.StoreUnAlign[float, Reg.PostLiteral.POST_MODE_UPDATE](UbPtr(OUT + 4, F32), b, u)
        Reg.StoreUnAlignPost(UbPtr(OUT + 4, F32), u)
    vf()
    got = get(ctx, OUT, F32, 140)
    want = np.concatenate([data[k * 64:k * 64 + 32] for k in range(4)])
    np.testing.assert_array_equal(got[1:129], want)
    assert got[0] == -1 and got[129] == -1 and ctx.diag.codes() == []


def test_the_ar_form_without_a_squeeze_is_reported(ctx):
    @Reg.__simd_vf__
    def vf():
        r = Reg.RegTensor[float]()
        u = Reg.UnalignRegForStore()
        Reg.Duplicate(r, 1.0)
        Reg.StoreUnAlign(UbPtr(OUT, F32), r, u)
        Reg.StoreUnAlignPost(UbPtr(OUT, F32), u)
    vf()
    assert ctx.diag.codes() == ["SQUEEZE_STATUS_MISSING"]


def _stored_mask(ctx, make, dist=Reg.MaskDist.DIST_NORM, nbytes=32):
    put(ctx, OUT, np.zeros(64, np.uint8))

    @Reg.__simd_vf__
    def vf():
        Reg.StoreAlign[np.uint8, dist](UbPtr(OUT, U8), make())
    vf()
    return get(ctx, OUT, np.uint8, nbytes)


@pytest.mark.parametrize("dt, per_byte", [(U8, 0xFF), (U16, 0x55), (U32, 0x11)])
def test_a_stored_predicate_has_one_valid_bit_per_element(ctx, dt, per_byte):
    """MaskReg page: a b16 element owns 2 bits and a b32 element 4, only the lowest is set (setting
    b32_mask_fill = "lowest"); UpdateMask<T>(VL_T / 2) stored with DIST_NORM: 16 full bytes, 16 zero bytes."""
    raw = _stored_mask(ctx, lambda: Reg.UpdateMask[dt](uint32_t(lanes(dt) // 2)))
    np.testing.assert_array_equal(raw, [per_byte] * 16 + [0] * 16)


def test_mask_dists_round_trip_through_ub(ctx):
    """Store DIST_PACK keeps every other bit (16 B); load DIST_US repeats each bit (16 B -> 32 B) and
    DIST_DS keeps every other bit of 64 B: PACK then US gives a b16 mask back with both bits of each
    element set; NORM then DS gives the even bits."""
    rng = np.random.default_rng(3)
    pattern = rng.integers(0, 256, 64, dtype=np.uint8)
    put(ctx, BASE, pattern)
    put(ctx, OUT, np.zeros(64, np.uint8))
    got = {}

    @Reg.__simd_vf__
    def vf():
        m, us, ds = Reg.MaskReg(), Reg.MaskReg(), Reg.MaskReg()
        Reg.LoadAlign(m, UbPtr(BASE, U8))
        got["norm"] = mask_bits(m)
        Reg.StoreAlign[np.uint8, Reg.MaskDist.DIST_PACK](UbPtr(OUT, U8), m)
        Reg.LoadAlign[np.uint8, Reg.MaskDist.DIST_US](us, UbPtr(OUT, U8))
        got["us"] = mask_bits(us)
        Reg.LoadAlign[np.uint8, Reg.MaskDist.DIST_DS](ds, UbPtr(BASE, U8))
        got["ds"] = mask_bits(ds)
    vf()
    bits = np.unpackbits(pattern, bitorder="little").astype(bool)
    assert (got["norm"] == bits[:256]).all()
    np.testing.assert_array_equal(get(ctx, OUT, np.uint8, 16), np.packbits(bits[:256][0::2], bitorder="little"))
    assert (got["us"] == np.repeat(bits[:256][0::2], 2)).all()
    assert (got["ds"] == bits[0::2]).all()


def test_mask_post_update_moves_by_bytes_and_addrreg_by_elements(ctx):
    """MaskReg搬入/搬出: the post-update offset is in bytes; an AddrReg offset counts elements of T."""
    pattern = np.arange(128, dtype=np.uint8)
    put(ctx, BASE, pattern)
    put(ctx, OUT, np.zeros(128, np.uint8))
    got = {}

    @Reg.__simd_vf__
    def vf():
        m = Reg.MaskReg()
        src, dst = UbPtr(BASE, U32), UbPtr(OUT, U32)
        for _ in range(2):
            Reg.LoadAlign[np.uint32, Reg.PostLiteral.POST_MODE_UPDATE](m, src, 32)
            Reg.StoreAlign[np.uint32, Reg.PostLiteral.POST_MODE_UPDATE](dst, m, 32)
        got["ptrs"] = (src.addr, dst.addr)
        a = Reg.CreateAddrReg[np.uint32](2, 8)                       # 16 uint32 = 64 B
        Reg.LoadAlign(m, UbPtr(BASE, U32), a)
        Reg.StoreAlign(UbPtr(OUT, U32), m, a)
    vf()
    assert got["ptrs"] == (BASE + 64, OUT + 64)
    np.testing.assert_array_equal(get(ctx, OUT, np.uint8, 96), pattern[:96])
