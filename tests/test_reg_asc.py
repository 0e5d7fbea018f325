"""The Reg breadth through the .asc route: one C++ program (compiled once) calls the forms added for issue 18,
including the public-sample constructs of its point 4 (StoreUnAlign<float, POST_MODE_UPDATE> with an
UnalignReg, a `static const` CastTrait named CAST_B16_TO_B32, Gather<float, float, uint32_t> from UB, a
MaskReg stored to UB with a MaskDist and read back, loops nested 5 deep with runtime and literal trip
counts). Each case writes one 256-byte slot of `out`; the test checks every slot against numpy."""
from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from tests.asc_support import build_and_run, needs_compiler, output_bytes, write

BF16 = np.dtype(ml_dtypes.bfloat16)
SLOTS = 24

PROGRAM = r"""
#include <cstdio>
#include <vector>
#include "acl/acl.h"
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t SLOTS = 24;
// a sample-style trait: `static const`, not constexpr (a reference template argument binds it)
static const Reg::CastTrait CAST_B16_TO_B32 = {Reg::RegLayout::ZERO, Reg::SatMode::UNKNOWN,
                                               Reg::MaskMergeMode::ZEROING, RoundMode::UNKNOWN};
static constexpr Reg::CastTrait CAST_B16_TO_B32_ODD = {Reg::RegLayout::ONE, Reg::SatMode::UNKNOWN,
                                                       Reg::MaskMergeMode::ZEROING, Reg::RoundMode::UNKNOWN};
static constexpr Reg::DivSpecificMode DIV_MODE = {Reg::MaskMergeMode::ZEROING, true,
                                                  Reg::DivAlgo::PRECISION_0ULP_FTZ_FALSE};

__simd_vf__ inline void Point4VF(__ubuf__ float* out, __ubuf__ float* x, __ubuf__ bfloat16_t* bx,
                                 __ubuf__ uint32_t* idx, uint16_t n0, uint16_t n2, uint16_t n4)
{
    Reg::RegTensor<float> a;
    Reg::RegTensor<float> b;
    Reg::RegTensor<bfloat16_t> h;
    Reg::RegTensor<uint32_t> ix;
    Reg::UnalignReg u;
    Reg::MaskReg full = Reg::CreateMask<float>();
    // slot 0: StoreUnAlign<float, POST_MODE_UPDATE>(float*&, RegTensor&, UnalignReg&, uint32_t), 3 x 10
    Reg::LoadAlign(a, x);
    __ubuf__ float* p = out + 3;
    for (uint16_t k = 0; k < 3; ++k) {
        Reg::StoreUnAlign<float, Reg::PostLiteral::POST_MODE_UPDATE>(p, a, u, 10);
    }
    Reg::StoreUnAlignPost(p, u, 0);
    // slots 1, 2: CAST_B16_TO_B32 (static const) and the ODD layout on a plain bf16 load
    Reg::LoadAlign(h, bx);
    Reg::Cast<float, bfloat16_t, CAST_B16_TO_B32>(a, h, full);
    Reg::StoreAlign(out + 64, a, full);
    Reg::MaskReg b16 = Reg::CreateMask<uint16_t>();
    Reg::Cast<float, bfloat16_t, CAST_B16_TO_B32_ODD>(a, h, b16);
    Reg::StoreAlign(out + 128, a, full);
    // slot 3: Gather<float, float, uint32_t>(RegTensor&, float*&, RegTensor<uint32_t>&, MaskReg&)
    Reg::LoadAlign(ix, idx);
    __ubuf__ float* base = x;
    Reg::Gather<float, float, uint32_t>(b, base, ix, full);
    Reg::StoreAlign(out + 192, b, full);
    // slot 4: loops nested 5 deep (runtime, literal, runtime, literal, runtime trip counts)
    Reg::Duplicate(a, 0.0f);
    for (uint16_t i0 = 0; i0 < n0; ++i0) {
        for (uint16_t i1 = 0; i1 < 2; ++i1) {
            for (uint16_t i2 = 0; i2 < n2; ++i2) {
                for (uint16_t i3 = 0; i3 < 3; ++i3) {
                    for (uint16_t i4 = 0; i4 < n4; ++i4) {
                        Reg::Adds(a, a, 1.0f, full);
                    }
                }
            }
        }
    }
    Reg::StoreAlign(out + 256, a, full);
    // slot 5: Div with a DivSpecificMode pointer
    Reg::LoadAlign(a, x + 64);
    Reg::Duplicate(b, 3.0f);
    Reg::Div<float, &DIV_MODE>(a, a, b, full);
    Reg::StoreAlign(out + 320, a, full);
}

__simd_vf__ inline void MaskVF(__ubuf__ uint8_t* out)
{
    uint32_t n = 20;
    Reg::MaskReg m = Reg::UpdateMask<float>(n);
    Reg::MaskReg us;
    Reg::MaskReg ds;
    // slot 6: the predicate of 20 float lanes stored with DIST_NORM (32 B) and DIST_PACK (16 B)
    Reg::StoreAlign<uint8_t, Reg::MaskDist::DIST_NORM>(out, m);
    Reg::StoreAlign<uint8_t, Reg::MaskDist::DIST_PACK>(out + 32, m);
    // slot 6 (cont.): read back with DIST_US (16 B -> 32 B) and DIST_DS (64 B -> 32 B), stored again
    Reg::LoadAlign<uint8_t, Reg::MaskDist::DIST_US>(us, out + 32);
    Reg::StoreAlign<uint8_t, Reg::MaskDist::DIST_NORM>(out + 64, us);
    Reg::LoadAlign<uint8_t, Reg::MaskDist::DIST_DS>(ds, out);
    Reg::StoreAlign<uint8_t, Reg::MaskDist::DIST_NORM>(out + 96, ds);
    // post-update forms (bytes) and the MaskReg StoreUnAlign (b16: 16 B each)
    __ubuf__ uint8_t* q = out + 128;
    Reg::StoreAlign<uint8_t, Reg::PostLiteral::POST_MODE_UPDATE>(q, m, 32);
    Reg::UnalignRegForStore u;
    __ubuf__ uint16_t* w = (__ubuf__ uint16_t*)(out + 160);
    uint32_t c = 5;
    Reg::MaskReg m16 = Reg::UpdateMask<uint16_t>(c);
    Reg::StoreUnAlign(w, m16, u);
    Reg::StoreUnAlign(w, m16, u);
    Reg::StoreUnAlignPost(w, u, 0);
}

__simd_vf__ inline void BreadthVF(__ubuf__ float* out, __ubuf__ float* x, __ubuf__ uint32_t* idx)
{
    Reg::RegTensor<float> a;
    Reg::RegTensor<float> b;
    Reg::RegTensor<float> c;
    Reg::RegTensor<int32_t> i0;
    Reg::RegTensor<int32_t> i1;
    Reg::RegTensor<uint32_t> u0;
    Reg::RegTensor<uint32_t> u1;
    Reg::RegTensor<uint16_t> h0;
    Reg::RegTensor<uint8_t> b0;
    Reg::MaskReg full = Reg::CreateMask<float>();
    Reg::MaskReg m40 = Reg::CreateMask<float, Reg::MaskPattern::VL32>();
    Reg::MaskReg carry;
    Reg::LoadAlign(a, x);
    Reg::LoadAlign(b, x + 64);
    // slot 7: Neg, Log2 of |x| + 1, MulAddDst, AbsSub (4 x 16 lanes)
    Reg::Abs(c, a, full);
    Reg::Adds(c, c, 1.0f, full);
    Reg::Log2(c, c, full);
    Reg::MulAddDst(c, a, b, full);
    Reg::AbsSub(c, c, b, full);
    Reg::Neg(c, c, m40);
    Reg::StoreAlign(out + 448, c, full);
    // slot 8: AddC / Mull on uint32 bits of x
    Reg::RegTensor<uint32_t> u2;
    Reg::LoadAlign(u0, (__ubuf__ uint32_t*)x);
    Reg::LoadAlign(u1, (__ubuf__ uint32_t*)x + 64);
    Reg::Add(carry, u2, u0, u1, full);
    Reg::AddC(carry, u0, u0, u1, carry, full);
    Reg::StoreAlign((__ubuf__ uint32_t*)out + 512, u0, full);
    // slot 9: And / ShiftLefts / Not on int32
    Reg::LoadAlign(i0, (__ubuf__ int32_t*)idx);
    Reg::ShiftLefts(i1, i0, (int16_t)3, full);
    Reg::And(i1, i1, i0, full);
    Reg::Not(i1, i1, full);
    Reg::StoreAlign((__ubuf__ int32_t*)out + 576, i1, full);
    // slot 10, 11: Interleave / DeInterleave
    Reg::Interleave(a, b, a, b);
    Reg::StoreAlign(out + 640, a, full);
    Reg::DeInterleave(a, b, a, b);
    Reg::StoreAlign(out + 704, b, full);
    // slot 12: Squeeze<STORE_REG> + AR StoreUnAlign after ClearSpr (two VLs, the first half of each)
    Reg::UnalignRegForStore us;
    Reg::MaskReg h = Reg::CreateMask<float, Reg::MaskPattern::H>();
    Reg::ClearSpr<SpecialPurposeReg::AR>();
    for (uint16_t k = 0; k < 2; ++k) {
        Reg::LoadAlign(a, x + k * 64);
        Reg::Squeeze<float, Reg::GatherMaskMode::STORE_REG>(c, a, h);
        Reg::StoreUnAlign<float, Reg::PostLiteral::POST_MODE_UPDATE>(out + 768, c, us);
    }
    Reg::StoreUnAlignPost(out + 768, us);
    // slot 13: ReduceDataBlock MAX and PairReduceElem
    Reg::LoadAlign(a, x);
    Reg::MaskReg vl8 = Reg::CreateMask<float, Reg::MaskPattern::VL8>();
    Reg::ReduceDataBlock<Reg::ReduceType::MAX>(c, a, full);
    Reg::StoreAlign(out + 832, c, vl8);
    Reg::PairReduceElem(c, a, full);
    Reg::StoreAlign(out + 840, c, m40);
    // slot 14: Gather from a register without a mask, Scatter to UB, GatherB
    Reg::LoadAlign(u0, idx);
    Reg::Gather(b, a, u0);
    Reg::StoreAlign(out + 896, b, full);
    Reg::Scatter(out + 960, a, u0, full);
    // slot 16: Unsqueeze, Arange decreasing, Truncate
    Reg::Unsqueeze(i0, h);
    Reg::StoreAlign((__ubuf__ int32_t*)out + 1024, i0, full);
    Reg::Arange<int32_t, Reg::IndexOrder::DECREASE_ORDER>(i1, 5);
    Reg::StoreAlign((__ubuf__ int32_t*)out + 1088, i1, full);
    // slot 18: Load / Store at unaligned element addresses
    Reg::Load(a, x + 3);
    Reg::Store(out + 1152 + 1, a, 40);
    // slot 19: Histograms of the low bytes of idx
    Reg::LoadAlign(b0, (__ubuf__ uint8_t*)idx);
    Reg::Duplicate(h0, (uint16_t)0);
    Reg::MaskReg all8 = Reg::CreateMask<uint8_t>();
    Reg::MaskReg all16 = Reg::CreateMask<uint16_t>();
    Reg::Histograms<uint8_t, uint16_t, Reg::HistogramsBinType::BIN0, Reg::HistogramsType::FREQUENCY>(
        h0, b0, all8);
    Reg::StoreAlign((__ubuf__ uint16_t*)(out + 1216), h0, all16);
    // slot 20: MaskGenWithRegTensor, Select of masks, Move of registers, mask Interleave / Pack
    Reg::MaskReg g;
    Reg::MaskGenWithRegTensor<uint32_t, 2>(g, u0);
    Reg::MaskReg s;
    Reg::Select(s, g, h, m40);
    Reg::MaskReg p0;
    Reg::MaskReg p1;
    Reg::Interleave<uint32_t>(p0, p1, s, h);
    Reg::Pack<Reg::HighLowPart::HIGHEST>(p1, p0);
    Reg::Duplicate(c, -1.0f);
    Reg::Move(c, a, p1);
    Reg::StoreAlign(out + 1280, c, full);
    // slot 21: ExpSub and MulsCast (half at slot 2j)
    Reg::LoadAlign(b, x + 64);
    Reg::ExpSub(c, a, b, full);
    Reg::StoreAlign(out + 1344, c, full);
    Reg::RegTensor<half> hf;
    Reg::MulsCast<half, float, float, Reg::RegLayout::ZERO>(hf, a, 0.5f, full);
    Reg::StoreAlign((__ubuf__ half*)(out + 1408), hf, all16);
}

extern "C" __global__ __aicore__ void reg_kernel(GM_ADDR x, GM_ADDR bx, GM_ADDR idx, GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> inb;
    TBuf<TPosition::VECCALC> outb;
    pipe.InitBuffer(inb, 4096);
    pipe.InitBuffer(outb, SLOTS * 256);
    GlobalTensor<float> xg, og;
    GlobalTensor<bfloat16_t> bg;
    GlobalTensor<uint32_t> ig;
    xg.SetGlobalBuffer((__gm__ float*)x, 512);
    bg.SetGlobalBuffer((__gm__ bfloat16_t*)bx, 128);
    ig.SetGlobalBuffer((__gm__ uint32_t*)idx, 64);
    og.SetGlobalBuffer((__gm__ float*)out, SLOTS * 64);
    LocalTensor<float> in = inb.Get<float>();
    LocalTensor<float> o = outb.Get<float>();
    DataCopy(in, xg, 512);
    DataCopy(in[512].ReinterpretCast<bfloat16_t>(), bg, 128);
    DataCopy(in[576].ReinterpretCast<uint32_t>(), ig, 64);
    Duplicate(o, 0.0f, SLOTS * 64);
    PipeBarrier<PIPE_ALL>();
    __ubuf__ float* xa = (__ubuf__ float*)in.GetPhyAddr();
    __ubuf__ float* oa = (__ubuf__ float*)o.GetPhyAddr();
    Point4VF(oa, xa, (__ubuf__ bfloat16_t*)(xa + 512), (__ubuf__ uint32_t*)(xa + 576), 2, 2, 2);
    MaskVF((__ubuf__ uint8_t*)(oa + 384));
    BreadthVF(oa, xa, (__ubuf__ uint32_t*)(xa + 576));
    PipeBarrier<PIPE_ALL>();
    DataCopy(og, o, SLOTS * 64);
}

int main()
{
    std::vector<float> x(512);
    std::vector<uint16_t> bx(128);
    std::vector<uint32_t> idx(64);
    for (uint32_t i = 0; i < 512; ++i) x[i] = (float)((int)(i * 37 % 101) - 50) / 8.0f;
    for (uint32_t i = 0; i < 128; ++i) bx[i] = (uint16_t)(0x3F00 + i * 3);
    for (uint32_t i = 0; i < 64; ++i) idx[i] = (i * 7 + 3) % 64;
    uint8_t* d[4];
    size_t bytes[4] = {2048, 256, 256, SLOTS * 256};
    const void* src[3] = {x.data(), bx.data(), idx.data()};
    for (int k = 0; k < 4; ++k) {
        aclrtMalloc((void**)&d[k], bytes[k], ACL_MEM_MALLOC_HUGE_FIRST);
        if (k < 3) aclrtMemcpy(d[k], bytes[k], src[k], bytes[k], ACL_MEMCPY_HOST_TO_DEVICE);
    }
    reg_kernel<<<1, nullptr, nullptr>>>(d[0], d[1], d[2], d[3]);
    printf("done\n");
    return 0;
}
"""


@pytest.fixture(scope="module")
def out(tmp_path_factory):
    src = write(tmp_path_factory.mktemp("reg"), "reg.asc", PROGRAM)
    run = build_and_run(src)
    assert run.failure is None and run.exit_status == 0, (run.failure, run.stderr)
    return run, np.frombuffer(output_bytes(run)["out"], np.uint8).reshape(SLOTS, 256)


def inputs():
    i = np.arange(512)
    x = (((i * 37) % 101) - 50).astype(np.float32) / np.float32(8)
    bx = (0x3F00 + np.arange(128) * 3).astype(np.uint16).view(BF16)
    idx = ((np.arange(64) * 7 + 3) % 64).astype(np.uint32)
    return x, bx, idx


@needs_compiler
def test_point4_constructs_run_to_the_right_values(out):
    run, slots = out
    x, bx, idx = inputs()
    f = [s.view(np.float32) for s in slots]
    np.testing.assert_array_equal(f[0][3:33], np.tile(x[:10], 3))                  # StoreUnAlign, UnalignReg
    assert f[0][2] == 0 and f[0][33] == 0
    np.testing.assert_array_equal(f[1], bx[0::2].astype(np.float32))                # CAST_B16_TO_B32
    np.testing.assert_array_equal(f[2], bx[1::2].astype(np.float32))                # ..._ODD, b16 mask
    np.testing.assert_array_equal(f[3], x[idx])                                     # Gather<float, float, u32>
    assert (f[4] == 2 * 2 * 2 * 3 * 2).all()                                        # 5 nested loops
    np.testing.assert_array_equal(f[5], (x[64:128].astype(np.float64) / 3).astype(np.float32))
    assert "VF_SOFTWARE_LOOP" not in [d["code"] for d in run.launches[0]["diagnostics"]]


@needs_compiler
def test_a_mask_stored_with_a_dist_reads_back(out):
    _, slots = out
    m = slots[6].reshape(-1)
    bits = np.zeros(256, bool)
    bits[0:80:4] = True                                                             # UpdateMask<float>(20)
    np.testing.assert_array_equal(m[0:32], np.packbits(bits, bitorder="little"))    # DIST_NORM
    np.testing.assert_array_equal(m[32:48], np.packbits(bits[0::2], bitorder="little"))   # DIST_PACK
    np.testing.assert_array_equal(m[64:96], np.packbits(np.repeat(bits[0::2], 2), bitorder="little"))  # US
    ds = np.unpackbits(m[0:64], bitorder="little").astype(bool)[0::2]
    np.testing.assert_array_equal(m[96:128], np.packbits(ds, bitorder="little"))    # DS of 64 B
    np.testing.assert_array_equal(m[128:160], np.packbits(bits, bitorder="little"))  # post-update form
    m16 = np.zeros(128, bool)
    m16[:5] = True                                                                  # StoreUnAlign of a b16 mask
    np.testing.assert_array_equal(m[160:192], np.tile(np.packbits(m16, bitorder="little"), 2))


@needs_compiler
def test_breadth_forms_compute_the_page_formulas(out):
    _, slots = out
    x, _, idx = inputs()
    f = [s.view(np.float32) for s in slots]
    a, b = x[:64], x[64:128]
    c = np.log2(np.abs(a).astype(np.float64) + 1).astype(np.float32)
    c = (c.astype(np.float64) + a.astype(np.float64) * b).astype(np.float32)      # one rounding (exact here)
    c = np.abs(c - b)
    c = np.where(np.arange(64) < 32, -c, 0)
    np.testing.assert_allclose(f[7], c, rtol=2e-7)
    ua, ub = a.view(np.uint32).astype(np.uint64), b.view(np.uint32).astype(np.uint64)
    carry = ((ua + ub) >> 32).astype(np.uint64)
    np.testing.assert_array_equal(slots[8].view(np.uint32), ((ua + ub + carry) & 0xFFFFFFFF).astype(np.uint32))
    i0 = idx.astype(np.int32)
    np.testing.assert_array_equal(slots[9].view(np.int32), ~((i0 << 3) & i0))
    z = np.stack([a, b], 1).reshape(-1)
    np.testing.assert_array_equal(f[10], z[:64])
    np.testing.assert_array_equal(f[11], b)                                         # DeInterleave undid it
    np.testing.assert_array_equal(f[12][:64], np.concatenate([x[:32], x[64:96]]))  # Squeeze + AR
    blk = a.reshape(8, 8).max(axis=1)
    np.testing.assert_array_equal(f[13][:8], blk)
    np.testing.assert_array_equal(f[13][8:40], (a[0::2] + a[1::2]).astype(np.float32))
    np.testing.assert_array_equal(f[14], a[idx])
    scat = np.zeros(64, np.float32)
    scat[idx] = a
    np.testing.assert_array_equal(f[15], scat)
    h = np.arange(64) < 32
    np.testing.assert_array_equal(slots[16].view(np.int32), np.concatenate([[0], np.cumsum(h)[:-1]]))
    np.testing.assert_array_equal(slots[17].view(np.int32), np.arange(64)[::-1] + 5)
    np.testing.assert_array_equal(f[18][1:41], x[3:43])
    low = idx.view(np.uint8)
    np.testing.assert_array_equal(slots[19].view(np.uint16), [(low == n).sum() for n in range(128)])


@needs_compiler
def test_mask_producers_and_fused_casts(out):
    _, slots = out
    x, _, idx = inputs()
    f = [s.view(np.float32) for s in slots]
    a, b = x[3:67], x[64:128]                       # a: the unaligned Load of slot 18
    g = np.repeat(np.unpackbits(idx.view(np.uint8)[16:24], bitorder="little"), 4).astype(bool)
    h = np.zeros(256, bool)
    h[0:128:4] = True
    m40 = np.zeros(256, bool)
    m40[0:128:4] = True
    s = np.where(m40, g, h)
    w = 4
    z = np.stack([s.reshape(-1, w), h.reshape(-1, w)], 1).reshape(-1)
    p1 = np.zeros(256, bool)
    p1[128:] = z[:256][0::2]
    assert p1.any()
    np.testing.assert_array_equal(f[20], np.where(p1[::4], a, -1.0))
    np.testing.assert_array_equal(f[21], np.exp(a.astype(np.float64) - b).astype(np.float32))
    hv = slots[22].view(np.float16)
    assert (hv[1::2] == 0).all()
    np.testing.assert_array_equal(hv[0::2], (a * 0.5).astype(np.float16))          # exact in half here
