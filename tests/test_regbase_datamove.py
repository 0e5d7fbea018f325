"""RegBase UB <-> register moves (api-facts 3-5): every LoadAlign dist, post-update and AddrReg
addressing, StoreAlign dists with masks, block-strided forms, the unaligned pairs and the fatal
address checks. Expectations are written here in numpy, never with the emulator's helpers."""
from __future__ import annotations

import os

import numpy as np
import pytest

from toolkit.ascendc import regbase as Reg
from toolkit.ascendc.dtypes import uint32_t
from toolkit.ascendc.tensor import UbPtr
from toolkit.record.diagnostics import KernelAbort

from api_support import get, line_of, put

U8, U16, U32, U64, F32 = (np.dtype(t) for t in (np.uint8, np.uint16, np.uint32, np.uint64, np.float32))
UB_SIZE = 262144
SRC, DST = 4096, 16384          # UB byte addresses used by most tests


def rand_bytes(n, seed=0):
    return np.random.default_rng(seed).integers(0, 256, n, dtype=np.uint8)


def ptr(addr, dt=F32):
    return UbPtr(addr, np.dtype(dt))


# -- LoadAlign: lane placement of every dist ----------------------------------------------------
def _as(ub, dt, n):
    return ub[:n * dt.itemsize].view(dt)


# Register bytes expected from the UB bytes ``ub`` starting at the load address (api-facts 3).
REF_LOAD = {
    "DIST_NORM": lambda ub: ub[:256].copy(),
    "DIST_BRC_B8": lambda ub: np.full(256, ub[0], U8),
    "DIST_BRC_B16": lambda ub: np.full(128, _as(ub, U16, 1)[0], U16).view(U8),
    "DIST_BRC_B32": lambda ub: np.full(64, _as(ub, U32, 1)[0], U32).view(U8),
    "DIST_US_B8": lambda ub: np.repeat(ub[:128], 2),
    "DIST_US_B16": lambda ub: np.repeat(_as(ub, U16, 64), 2).view(U8),
    "DIST_DS_B8": lambda ub: ub[:512][0::2].copy(),                        # [numerics] ds_parity = "even"
    "DIST_DS_B16": lambda ub: _as(ub, U16, 256)[0::2].copy().view(U8),
    "DIST_UNPACK_B8": lambda ub: ub[:128].astype(U16).view(U8),             # zero-extend u8 -> u16
    "DIST_UNPACK_B16": lambda ub: _as(ub, U16, 64).astype(U32).view(U8),    # zero-extend u16 -> u32
    "DIST_UNPACK_B32": lambda ub: _as(ub, U32, 32).astype(U64).view(U8),    # zero-extend u32 -> u64
    "DIST_UNPACK4_B8": lambda ub: ub[:64].astype(U32).view(U8),             # zero-extend u8 -> u32
    "DIST_BLK": lambda ub: np.concatenate([ub[:32]] * 8),
    "DIST_E2B_B16": lambda ub: np.repeat(_as(ub, U16, 8), 16).view(U8),     # element j fills DataBlock j
    "DIST_E2B_B32": lambda ub: np.repeat(_as(ub, U32, 8), 8).view(U8),
}
SINGLE_DISTS = list(REF_LOAD)
# element offset from a 32 B aligned address: BRC needs only element alignment, E2B_B16 16 B
ELEM_OFFSET_BYTES = {"DIST_BRC_B8": 3, "DIST_BRC_B16": 6, "DIST_BRC_B32": 12, "DIST_E2B_B16": 16}


@pytest.mark.parametrize("dist", SINGLE_DISTS)
def test_load_align_lane_placement(ctx, dist):
    """DS dists keep the even elements: [numerics] ds_parity = "even"."""
    data = rand_bytes(1024, seed=len(dist))
    put(ctx, SRC, data)
    off = ELEM_OFFSET_BYTES.get(dist, 0)
    got = {}

    @Reg.__simd_vf__
    def vf(src, dst):
        r = Reg.RegTensor[np.uint8]()
        Reg.LoadAlign[np.uint8, getattr(Reg.LoadDist, dist)](r, src)
        got["r"] = r.to_numpy(np.uint8)
        Reg.StoreAlign[np.uint8](dst, r, Reg.CreateMask[np.uint8]())

    vf(ptr(SRC + off, U8), ptr(DST, U8))
    expect = REF_LOAD[dist](data[off:])
    np.testing.assert_array_equal(got["r"], expect)
    np.testing.assert_array_equal(get(ctx, DST, U8, 256), expect)
    assert sorted(i[0] for i in ctx.events[-1].instrs) == ["RV_PSET", "RV_VLD", "RV_VST"]


@pytest.mark.parametrize("bits,dt", [("B8", U8), ("B16", U16), ("B32", U32)])
def test_dual_deinterleave_load_and_interleave_store(ctx, bits, dt):
    """DINTLV: even elements -> dst0, odd -> dst1; INTLV: dst[2i] = src0[i], dst[2i+1] = src1[i], mask ignored."""
    src = np.random.default_rng(7).integers(0, 2**31, 512 // dt.itemsize).astype(dt)
    put(ctx, SRC, src)
    got = {}

    @Reg.__simd_vf__
    def vf(p, q):
        r0 = Reg.RegTensor[dt]()
        r1 = Reg.RegTensor[dt]()
        Reg.LoadAlign[dt, getattr(Reg.LoadDist, "DIST_DINTLV_" + bits)](r0, r1, p)
        got["even"], got["odd"] = r0.to_numpy(dt), r1.to_numpy(dt)
        Reg.StoreAlign[dt, getattr(Reg.StoreDist, "DIST_INTLV_" + bits)](q, r1, r0, Reg.CreateMask[dt, Reg.MaskPattern.VL1]())

    vf(ptr(SRC, dt), ptr(DST, dt))
    np.testing.assert_array_equal(got["even"], src[0::2])
    np.testing.assert_array_equal(got["odd"], src[1::2])
    np.testing.assert_array_equal(get(ctx, DST, dt, src.size), src.reshape(-1, 2)[:, ::-1].ravel())   # pairs swapped


def test_load_align_post_update_advances_pointer(ctx):
    x = np.arange(256, dtype=F32)
    put(ctx, SRC, x)
    seen = []

    @Reg.__simd_vf__
    def vf(p):
        r = Reg.RegTensor[float]()
        for _ in range(3):
            Reg.LoadAlign[float, Reg.PostLiteral.POST_MODE_UPDATE, Reg.LoadDist.DIST_NORM](r, p, 64)
            seen.append((p.addr, r.to_numpy(F32)))

    vf(ptr(SRC))
    assert [addr for addr, _ in seen] == [SRC + 256, SRC + 512, SRC + 768]     # three loads, each moved p
    for k, (_, reg) in enumerate(seen):
        np.testing.assert_array_equal(reg, x[64 * k:64 * (k + 1)])


def test_store_align_post_update_advances_pointer(ctx):
    seen = []

    @Reg.__simd_vf__
    def vf(p):
        r = Reg.RegTensor[float]()
        m = Reg.CreateMask[float]()
        for k in range(2):
            Reg.Duplicate(r, float(k + 1))
            Reg.StoreAlign[float, Reg.PostLiteral.POST_MODE_UPDATE, Reg.StoreDist.DIST_NORM](p, r, 72, m)
            seen.append(p.addr)

    vf(ptr(DST))
    assert seen == [DST + 72 * 4, DST + 144 * 4]
    out = get(ctx, DST, F32, 136)
    np.testing.assert_array_equal(out[:64], 1.0)
    np.testing.assert_array_equal(out[72:136], 2.0)
    assert not ctx.ub.defined[DST + 64 * 4:DST + 72 * 4].any()      # the gap was never written


@pytest.mark.parametrize("idx", [(0, 64), (3, 64), (2, 128, 1, 64), (1, 8, 2, 16, 1, 32, 1, 64)])
def test_addr_reg_offsets_for_load_and_store(ctx, idx):
    x = np.arange(1024, dtype=F32)
    put(ctx, SRC, x)
    off = sum(idx[k] * idx[k + 1] for k in range(0, len(idx), 2))

    @Reg.__simd_vf__
    def vf(src, dst):
        r = Reg.RegTensor[float]()
        a = Reg.CreateAddrReg[float](*idx)
        Reg.LoadAlign[float](r, src, a)
        Reg.StoreAlign[float](dst, r, a, Reg.CreateMask[float]())

    vf(ptr(SRC), ptr(DST))
    np.testing.assert_array_equal(get(ctx, DST + off * 4, F32, 64), x[off:off + 64])
    assert not ctx.ub.defined[DST:DST + off * 4].any()


# -- StoreAlign dists --------------------------------------------------------------------------
def test_store_align_norm_tail_mask_keeps_sentinels(ctx):
    n = 150
    x = np.arange(1, 193, dtype=F32)
    put(ctx, SRC, x)
    put(ctx, DST, np.full(192, -1, F32))

    @Reg.__simd_vf__
    def vf(src, dst, count):
        r = Reg.RegTensor[float]()
        remain = uint32_t(count)
        for i in Reg.VLOOP(3):
            m = Reg.UpdateMask[float](remain)
            Reg.LoadAlign[float](r, src + i * 64)
            Reg.StoreAlign[float, Reg.StoreDist.DIST_NORM](dst + i * 64, r, m)

    vf(ptr(SRC), ptr(DST), n)
    out = get(ctx, DST, F32, 192)
    np.testing.assert_array_equal(out[:n], x[:n])
    np.testing.assert_array_equal(out[n:], -1)


@pytest.mark.parametrize("dist,src_dt,dst_dt,count", [("DIST_PACK_B32", U32, U16, 64), ("DIST_PACK_B32", U32, U16, 22),
                                                    ("DIST_PACK_B16", U16, U8, 100)])
def test_store_pack_low_halves_with_tail_mask(ctx, dist, src_dt, dst_dt, count):
    """Low half of each lane -> contiguous narrow elements; only active lanes written, at most 128 B."""
    vals = np.random.default_rng(3).integers(0, 2**32, 256 // src_dt.itemsize, dtype=np.uint64).astype(src_dt)
    put(ctx, SRC, vals)
    put(ctx, DST, np.full(256, 0xA5, U8))

    @Reg.__simd_vf__
    def vf(src, dst, n):
        r = Reg.RegTensor[src_dt]()
        Reg.LoadAlign[src_dt](r, src)
        Reg.StoreAlign[dst_dt, getattr(Reg.StoreDist, dist)](dst, r, Reg.UpdateMask[src_dt](uint32_t(n)))

    vf(ptr(SRC, src_dt), ptr(DST, dst_dt), count)
    out = get(ctx, DST, U8, 256)
    nbytes = count * dst_dt.itemsize
    np.testing.assert_array_equal(out[:nbytes].view(dst_dt), vals[:count].astype(dst_dt))   # modular = low half
    np.testing.assert_array_equal(out[nbytes:], 0xA5)


def test_store_pack_b32_interior_holes_are_position_preserving(ctx):
    """[numerics] pack_interior_mask = "position_preserving": active lane i -> dst[i], no compaction."""
    put(ctx, SRC, np.arange(64, dtype=U32) + 0x10000)
    put(ctx, DST, np.full(64, 0xFFFF, U16))

    @Reg.__simd_vf__
    def vf(src, dst):
        r = Reg.RegTensor[np.uint32]()
        Reg.LoadAlign[np.uint32](r, src)
        Reg.StoreAlign[np.uint16, Reg.StoreDist.DIST_PACK_B32](dst, r, Reg.CreateMask[np.uint32, Reg.MaskPattern.M4]())

    vf(ptr(SRC, U32), ptr(DST, U16))
    np.testing.assert_array_equal(get(ctx, DST, U16, 64), np.where(np.arange(64) % 4 == 0, np.arange(64), 0xFFFF))


@pytest.mark.parametrize("dist,dt,off", [("DIST_FIRST_ELEMENT_B8", U8, 5), ("DIST_FIRST_ELEMENT_B16", U16, 3),
                                         ("DIST_FIRST_ELEMENT_B32", U32, 7)])
def test_store_first_element_ignores_mask(ctx, dist, dt, off):
    vals = np.arange(7, 7 + 256 // dt.itemsize).astype(dt)
    put(ctx, SRC, vals)
    put(ctx, DST, np.full(64, 0x5A, U8))

    @Reg.__simd_vf__
    def vf(src, dst):
        r = Reg.RegTensor[dt]()
        Reg.LoadAlign[dt](r, src)
        Reg.StoreAlign[dt, getattr(Reg.StoreDist, dist)](dst, r, Reg.CreateMask[dt, Reg.MaskPattern.ALLF]())

    vf(ptr(SRC, dt), ptr(DST + off * dt.itemsize, dt))
    out = get(ctx, DST, U8, 64)
    expect = np.full(64, 0x5A, U8)
    expect[off * dt.itemsize:(off + 1) * dt.itemsize] = vals[:1].view(U8)
    np.testing.assert_array_equal(out, expect)


# -- block-strided forms (VSLDB / VSSTB) --------------------------------------------------------
@pytest.mark.parametrize("blk_stride", [0, 1, 3])
def test_block_strided_load_masked_blocks_read_zero(ctx, blk_stride):
    x = np.arange(1, 8 * 32 + 1, dtype=F32)                      # 32 blocks of 8 floats
    put(ctx, SRC, x)
    got = {}

    @Reg.__simd_vf__
    def vf(src):
        r = Reg.RegTensor[float]()
        m = Reg.UpdateMask[float](uint32_t(20))
        Reg.LoadAlign[float, Reg.DataCopyMode.DATA_BLOCK_COPY](r, src, blk_stride, m)
        got["r"] = r.to_numpy(F32)
        Reg.StoreAlign[float](UbPtr(DST, F32), r, m)

    vf(ptr(SRC))
    expect = np.zeros(64, F32)
    for b in range(3):                                           # lanes 0..19 touch blocks 0, 1, 2 (whole)
        expect[8 * b:8 * b + 8] = x[8 * b * blk_stride:8 * b * blk_stride + 8]
    np.testing.assert_array_equal(got["r"], expect)
    assert [i[0] for i in ctx.events[-1].instrs] == ["RV_PLT", "RV_VSLDB", "RV_VST"]


def test_block_strided_load_does_not_read_fully_masked_blocks(ctx):
    base = UB_SIZE - 3 * 32                                      # blocks 3..7 would lie past the UB end
    put(ctx, base, np.arange(24, dtype=F32))
    got = {}

    @Reg.__simd_vf__
    def vf(src):
        r = Reg.RegTensor[float]()
        Reg.LoadAlign[float, Reg.DataCopyMode.DATA_BLOCK_COPY](r, src, 1, Reg.UpdateMask[float](uint32_t(17)))
        got["r"] = r.to_numpy(F32)

    vf(ptr(base))
    np.testing.assert_array_equal(got["r"][:24], np.arange(24, dtype=F32))
    np.testing.assert_array_equal(got["r"][24:], 0)


def test_block_strided_store_element_mask_and_untouched_blocks(ctx):
    base = UB_SIZE - 6 * 32                                      # stride 2: block 3 would be past the end
    put(ctx, base, np.full(48, -1, F32))

    @Reg.__simd_vf__
    def vf(dst):
        r = Reg.RegTensor[float]()
        Reg.LoadAlign[float](r, UbPtr(SRC, F32))
        Reg.StoreAlign[float, Reg.DataCopyMode.DATA_BLOCK_COPY](dst, r, 2, Reg.UpdateMask[float](uint32_t(20)))

    x = np.arange(100, 164, dtype=F32)
    put(ctx, SRC, x)
    vf(ptr(base))
    expect = np.full(48, -1, F32)
    expect[0:8], expect[16:24], expect[32:36] = x[0:8], x[8:16], x[16:20]
    np.testing.assert_array_equal(get(ctx, base, F32, 48), expect)


@pytest.mark.parametrize("post", ["POST_MODE_NORMAL", "POST_MODE_UPDATE"])
def test_block_strided_repeat_stride(ctx, post):
    """With a repeatStride: NORMAL accesses ptr + repeatStride*32 and keeps ptr; UPDATE accesses ptr and
    then advances it by repeatStride*32 (api-facts 3)."""
    x = np.arange(1024, dtype=F32)
    put(ctx, SRC, x)
    put(ctx, DST, np.full(256, -1, F32))
    seen = []

    @Reg.__simd_vf__
    def vf(src, dst):
        r = Reg.RegTensor[float]()
        m = Reg.CreateMask[float]()
        mode = (Reg.DataCopyMode.DATA_BLOCK_COPY, getattr(Reg.PostLiteral, post))
        for _ in range(2):
            Reg.LoadAlign[(float,) + mode](r, src, 2, 4, m)
            Reg.StoreAlign[(float,) + mode](dst, r, 1, 3, m)
            seen.append((src.addr, dst.addr))

    vf(ptr(SRC), ptr(DST))
    out = get(ctx, DST, F32, 256)
    blocks = lambda base: np.concatenate([x[base + 16 * b:base + 16 * b + 8] for b in range(8)])
    if post == "POST_MODE_NORMAL":
        assert seen == [(SRC, DST)] * 2
        np.testing.assert_array_equal(out[24:88], blocks(32))
        np.testing.assert_array_equal(out[:24], -1)
    else:
        assert seen == [(SRC + 128, DST + 96), (SRC + 256, DST + 192)]
        np.testing.assert_array_equal(out[:24], blocks(0)[:24])          # then overwritten from 24 on
        np.testing.assert_array_equal(out[24:88], blocks(32))


# -- unaligned pairs ---------------------------------------------------------------------------
def test_load_unalign_at_unaligned_address_and_follow_up(ctx):
    x = np.arange(512, dtype=F32)
    put(ctx, SRC, x)
    got = []

    @Reg.__simd_vf__
    def vf(src):
        r = Reg.RegTensor[float]()
        u = Reg.UnalignRegForLoad()
        Reg.LoadUnAlignPre(u, src)
        for _ in range(2):
            Reg.LoadUnAlign(r, u, src, 64)                       # post-update by one VL, no new Pre
            got.append(r.to_numpy(F32))
            Reg.StoreAlign[float](UbPtr(DST, F32), r, Reg.CreateMask[float]())

    vf(ptr(SRC + 48))                                            # 12 floats in: the doc's src = 48 example
    np.testing.assert_array_equal(got[0], x[12:76])
    np.testing.assert_array_equal(got[1], x[76:140])
    assert [i[0] for i in ctx.events[-1].instrs if i[0].startswith("RV_VLD")] == ["RV_VLDAS", "RV_VLDUS", "RV_VLDUS"]


def test_store_unalign_doc_example(ctx):
    """uint32, dst = 48, count = 64 twice: [48, 288) then [288, 544) written, [544, 560) only by Post."""
    put(ctx, 0, np.full(1024, 0xEE, U8))
    vals = np.arange(64, dtype=U32)
    put(ctx, SRC, vals)
    written = []

    @Reg.__simd_vf__
    def vf(dst):
        r = Reg.RegTensor[np.uint32]()
        u = Reg.UnalignRegForStore()
        Reg.LoadAlign[np.uint32](r, UbPtr(SRC, U32))
        for _ in range(2):
            Reg.StoreUnAlign(dst, r, u, 64)
            written.append(int(np.nonzero(ctx.ub.data[:1024] != 0xEE)[0][-1]) + 1)
        Reg.StoreUnAlignPost(dst, u, 0)

    vf(ptr(48, U32))
    assert written == [288, 544]
    out = get(ctx, 0, U8, 1024)
    np.testing.assert_array_equal(out[:48], 0xEE)
    np.testing.assert_array_equal(out[48:560].view(U32), np.concatenate([vals, vals]))
    np.testing.assert_array_equal(out[560:], 0xEE)


@pytest.mark.parametrize("post", [True, False])
def test_store_unalign_one_element_sequence(ctx, post):
    n, first = 38, 3                                             # floats [3, 41): 12 B into block 0
    put(ctx, DST, np.full(64, -1, F32))

    @Reg.__simd_vf__
    def vf(dst):
        r = Reg.RegTensor[float]()
        u = Reg.UnalignRegForStore()
        for k in range(n):
            Reg.Duplicate(r, float(k + 1))
            Reg.StoreUnAlign(dst, r, u, 1)
        if post:
            Reg.StoreUnAlignPost(dst, u, 0)

    vf(ptr(DST + first * 4))
    out = get(ctx, DST, F32, 64)
    expect = np.full(64, -1, F32)
    end = first + n if post else (first + n) // 8 * 8           # without Post: only whole 32 B blocks
    expect[first:end] = np.arange(1, end - first + 1)
    np.testing.assert_array_equal(out, expect)
    assert ("UNALIGN_STORE_NOT_FLUSHED" in ctx.diag.codes()) is (not post)


# -- fatal address checks ------------------------------------------------------------------------
def _abort(fn, *args) -> "KernelAbort":
    with pytest.raises(KernelAbort) as ei:
        fn(*args)
    return ei.value


@Reg.__simd_vf__
def BadLoad(src):
    r = Reg.RegTensor[float]()
    Reg.LoadAlign[float](r, src)                                 # <- bad load


@Reg.__simd_vf__
def BadStore(dst):
    r = Reg.RegTensor[float]()
    Reg.Duplicate(r, 1.0)
    Reg.StoreAlign[float](dst, r, Reg.CreateMask[float]())       # <- bad store


@pytest.mark.parametrize("vf,addr,code,marker", [
    (BadLoad, SRC + 4, "UB_MISALIGNED", "# <- bad load"),
    (BadStore, DST + 16, "UB_MISALIGNED", "# <- bad store"),
    (BadLoad, UB_SIZE - 128, "UB_OUT_OF_BOUNDS", "# <- bad load"),
    (BadStore, UB_SIZE - 32, "UB_OUT_OF_BOUNDS", "# <- bad store"),
])
def test_bad_address_aborts_at_the_kernel_line(ctx, vf, addr, code, marker):
    d = _abort(vf, ptr(addr)).diag
    assert d.code == code and d.fatal
    assert d.file == os.path.abspath(__file__) and d.line == line_of(__file__, marker)
    assert ctx.vf is None                                        # the core left the VF cleanly


@pytest.mark.parametrize("dist,off", [("DIST_BRC_B32", 2), ("DIST_E2B_B16", 8), ("DIST_UNPACK_B16", 16)])
def test_load_dist_alignment_rules(ctx, dist, off):
    @Reg.__simd_vf__
    def vf(src):
        r = Reg.RegTensor[np.uint16]()
        Reg.LoadAlign[np.uint16, getattr(Reg.LoadDist, dist)](r, src)

    assert _abort(vf, ptr(SRC + off, U8)).diag.code == "UB_MISALIGNED"


def test_post_update_stride_must_keep_alignment(ctx):
    @Reg.__simd_vf__
    def vf(src):
        r = Reg.RegTensor[float]()
        Reg.LoadAlign[float, Reg.PostLiteral.POST_MODE_UPDATE, Reg.LoadDist.DIST_NORM](r, src, 60)
        Reg.LoadAlign[float, Reg.PostLiteral.POST_MODE_UPDATE, Reg.LoadDist.DIST_NORM](r, src, 60)

    assert _abort(vf, ptr(SRC)).diag.code == "UB_MISALIGNED"


def test_store_unalign_past_ub_end_aborts(ctx):
    @Reg.__simd_vf__
    def vf(dst):
        r = Reg.RegTensor[float]()
        u = Reg.UnalignRegForStore()
        Reg.Duplicate(r, 0.0)
        Reg.StoreUnAlign(dst, r, u, 8)

    assert _abort(vf, ptr(UB_SIZE - 12)).diag.code == "UB_OUT_OF_BOUNDS"


@pytest.mark.parametrize("active,ok", [(8, True), (9, False)])
def test_masked_store_at_ub_end_checks_only_active_lanes(ctx, active, ok):
    """Contiguous masked StoreAlign: only the active lanes must lie inside the UB (masked lanes are not
    accessed); an active lane past the end is UB_OUT_OF_BOUNDS."""
    @Reg.__simd_vf__
    def vf(dst):
        r = Reg.RegTensor[float]()
        Reg.Duplicate(r, 3.0)
        Reg.StoreAlign[float](dst, r, Reg.UpdateMask[float](uint32_t(active)))

    if ok:
        vf(ptr(UB_SIZE - 32))
        np.testing.assert_array_equal(get(ctx, UB_SIZE - 32, F32, 8), 3.0)
    else:
        assert _abort(vf, ptr(UB_SIZE - 32)).diag.code == "UB_OUT_OF_BOUNDS"
