"""The .asc route calls the one implementation of each API the Python kernels call: the same kernel written
in C++ (run by `migrate-check run`'s machinery) and in Python (run by toolkit.engine.launch) must write the same
bytes and leave the same event stream, instruction records included."""
from __future__ import annotations

import numpy as np
import pytest

from tests.asc_support import (
    build_and_run,
    event_key,
    needs_compiler,
    output_bytes,
    write,
)
from toolkit.ascendc import membase as MB
from toolkit.ascendc import regbase as Reg
from toolkit.ascendc.dma import DataCopyExtParams, DataCopyPad, DataCopyPadExtParams
from toolkit.ascendc.dtypes import bfloat16_t, uint32_t
from toolkit.ascendc.pipe import TBuf, TPipe, TPosition, TQue
from toolkit.ascendc.tensor import GlobalTensor, gm_cast
from toolkit.engine.launch import gm_alloc, launch

N = 512

PROGRAM = r"""
#include <cstdio>
#include <vector>
#include "acl/acl.h"
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t N = 512;
static constexpr Reg::CastTrait toF32 = {Reg::RegLayout::ZERO, Reg::SatMode::UNKNOWN, Reg::MaskMergeMode::ZEROING,
                                         RoundMode::CAST_NONE};
static constexpr Reg::CastTrait toBf16 = {Reg::RegLayout::ZERO, Reg::SatMode::NO_SAT, Reg::MaskMergeMode::ZEROING,
                                          RoundMode::CAST_RINT};

__simd_vf__ inline void ArithVF(__ubuf__ float* out, __ubuf__ float* x, __ubuf__ float* y, uint32_t n, uint16_t loops)
{
    Reg::RegTensor<float> a;
    Reg::RegTensor<float> b;
    Reg::RegTensor<float> c;
    Reg::RegTensor<float> d;
    Reg::MaskReg cmp;
    for (uint16_t i = 0; i < loops; ++i) {
        Reg::MaskReg m = Reg::UpdateMask<float>(n);
        Reg::LoadAlign(a, x + i * 64);
        Reg::LoadAlign(b, y + i * 64);
        Reg::Mul(c, a, b, m);
        Reg::Mula(c, a, b, m);
        Reg::Adds(d, c, 1.5f, m);
        Reg::Maxs(d, d, -2.0f, m);
        Reg::Abs(d, d, m);
        Reg::Sqrt(d, d, m);
        Reg::Div(c, d, b, m);
        Reg::Exp(a, a, m);
        Reg::CompareScalar<float, CMPMODE::GT>(cmp, b, 0.0f, m);
        Reg::Select(c, c, a, cmp);
        Reg::Min(c, c, a, m);
        Reg::Sub<float, Reg::MaskMergeMode::MERGING>(c, c, d, m);
        Reg::StoreAlign(out + i * 64, c, m);
    }
}

__simd_vf__ inline void ReduceVF(__ubuf__ float* out, __ubuf__ float* x, uint16_t rows)
{
    Reg::RegTensor<float> v;
    Reg::RegTensor<float> s;
    Reg::RegTensor<float> t;
    Reg::UnalignRegForStore u;
    Reg::MaskReg full = Reg::CreateMask<float, Reg::MaskPattern::ALL>();
    for (uint16_t r = 0; r < rows; ++r) {
        Reg::LoadAlign(v, x + r * 64);
        Reg::ReduceSum(s, v, full);
        Reg::StoreUnAlign(out, s, u, 1);
        Reg::ReduceMax(t, v, full);
        Reg::Duplicate<float, Reg::HighLowPart::LOWEST>(s, t, full);
        Reg::StoreUnAlign(out, s, u, 1);
    }
    Reg::StoreUnAlignPost(out, u, 0);
}

__simd_vf__ inline void MoveVF(__ubuf__ float* out, __ubuf__ bfloat16_t* bout, __ubuf__ float* x,
                               __ubuf__ bfloat16_t* bx, __ubuf__ uint32_t* idx)
{
    Reg::RegTensor<float> a;
    Reg::RegTensor<float> b;
    Reg::RegTensor<float> c;
    Reg::RegTensor<bfloat16_t> h;
    Reg::RegTensor<uint32_t> ix;
    Reg::MaskReg full = Reg::CreateMask<float, Reg::MaskPattern::ALL>();
    Reg::MaskReg half = Reg::CreateMask<float, Reg::MaskPattern::H>();
    Reg::LoadAlign<float, Reg::LoadDist::DIST_BRC_B32>(a, x + 3);
    Reg::LoadAlign<float, Reg::LoadDist::DIST_DINTLV_B32>(b, c, x);
    Reg::Add(a, a, b, full);
    Reg::StoreAlign<float, Reg::StoreDist::DIST_INTLV_B32>(out, a, c, full);
    Reg::LoadAlign<bfloat16_t, Reg::LoadDist::DIST_UNPACK_B16>(h, bx);
    Reg::Cast<float, bfloat16_t, toF32>(b, h, full);
    Reg::Muls(b, b, 2.0f, full);
    Reg::Cast<bfloat16_t, float, toBf16>(h, b, full);
    Reg::StoreAlign<bfloat16_t, Reg::StoreDist::DIST_PACK_B32>(bout, h, half);
    Reg::LoadAlign(ix, idx);
    Reg::Gather(c, x, ix, full);
    Reg::StoreAlign(out + 128, c, full);
    Reg::Arange<float>(b, 10.0f);
    Reg::StoreAlign(out + 192, b, half);
    __ubuf__ float* p = x + 64;
    Reg::LoadAlign<float, Reg::PostLiteral::POST_MODE_UPDATE>(a, p, 64);
    Reg::LoadAlign<float, Reg::PostLiteral::POST_MODE_UPDATE>(b, p, 64);
    Reg::Sub(a, b, a, full);
    Reg::LocalMemBar<Reg::MemType::VEC_STORE, Reg::MemType::VEC_LOAD>();
    Reg::StoreAlign(out + 256, a, full);
}

extern "C" __global__ __aicore__ void api_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR bx, GM_ADDR idx, GM_ADDR r_out,
                                                 GM_ADDR m_out, GM_ADDR b_out)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQ;
    TQue<TPosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> work;
    pipe.InitBuffer(inQ, 1, 4 * N * sizeof(float));
    pipe.InitBuffer(outQ, 1, 2 * N * sizeof(float));
    pipe.InitBuffer(work, N * sizeof(float));
    GlobalTensor<float> xg, yg, rg, mg;
    GlobalTensor<bfloat16_t> bg, bo;
    GlobalTensor<uint32_t> ig;
    xg.SetGlobalBuffer((__gm__ float*)x, N);
    yg.SetGlobalBuffer((__gm__ float*)y, N);
    bg.SetGlobalBuffer((__gm__ bfloat16_t*)bx, 128);
    ig.SetGlobalBuffer((__gm__ uint32_t*)idx, 64);
    rg.SetGlobalBuffer((__gm__ float*)r_out, N);
    mg.SetGlobalBuffer((__gm__ float*)m_out, N);
    bo.SetGlobalBuffer((__gm__ bfloat16_t*)b_out, 64);
    LocalTensor<float> in = inQ.AllocTensor<float>();
    DataCopyPadExtParams<float> pad{false, 0, 0, 0};
    DataCopyPad(in, xg, DataCopyExtParams{1, N * 4, 0, 0, 0}, pad);
    DataCopyPad(in[N], yg, DataCopyExtParams{1, N * 4, 0, 0, 0}, pad);
    DataCopy(in[2 * N].ReinterpretCast<bfloat16_t>(), bg, 128);
    DataCopy(in[3 * N].ReinterpretCast<uint32_t>(), ig, 64);
    inQ.EnQue(in);
    in = inQ.DeQue<float>();
    LocalTensor<float> out = outQ.AllocTensor<float>();
    LocalTensor<float> w = work.Get<float>();
    Duplicate(out, 0.0f, 2 * N);
    __ubuf__ float* xa = (__ubuf__ float*)in.GetPhyAddr();
    asc_vf_call<ArithVF>((__ubuf__ float*)out.GetPhyAddr(), xa, xa + N, N, (uint16_t)(N / 64));
    ReduceVF((__ubuf__ float*)w.GetPhyAddr(), xa, 8);
    MoveVF((__ubuf__ float*)out[N].GetPhyAddr(), (__ubuf__ bfloat16_t*)w[64].GetPhyAddr(), xa,
           (__ubuf__ bfloat16_t*)in[2 * N].GetPhyAddr(), (__ubuf__ uint32_t*)in[3 * N].GetPhyAddr());
    // MemBase: count form, level-0 forms, reductions, Brcb, Duplicate, Cast
    LocalTensor<float> m = out[N + 320];
    Add(m, in, in[N], 64);
    Muls(m[64], in, 0.25f, 64);
    uint64_t bits[2] = {0x00FF00FF00FF00FFull, 0};
    Mul(m[128], in, in[N], bits, 1, BinaryRepeatParams(1, 1, 1, 8, 8, 8));
    Exp(m[192], in[64], 8, 1, UnaryRepeatParams(1, 1, 8, 8));
    WholeReduceSum(w[128], in, 64, 4, 1, 1, 8);
    Brcb(m[0], w[128], 1, BrcbRepeatParams(1, 8));
    Duplicate(w[200], 3.5f, 8);
    SetFlag<HardEvent::V_S>(EVENT_ID1);
    WaitFlag<HardEvent::V_S>(EVENT_ID1);
    float v = w.GetValue(200);
    Adds(m[32], m[32], v, 16);
    Cast(w[64].ReinterpretCast<bfloat16_t>()[64], m, RoundMode::CAST_RINT, 64);
    PipeBarrier<PIPE_V>();
    outQ.EnQue(out);
    inQ.FreeTensor(in);
    out = outQ.DeQue<float>();
    DataCopyPad(rg, out, DataCopyExtParams{1, N * 4, 0, 0, 0});
    DataCopyPad(mg, out[N], DataCopyExtParams{1, N * 4, 0, 0, 0});
    DataCopyPad(bo, w[64].ReinterpretCast<bfloat16_t>(), DataCopyExtParams{1, 64 * 2, 0, 0, 0});
    outQ.FreeTensor(out);
}

int main()
{
    std::vector<float> x(N), y(N);
    std::vector<uint16_t> bx(128);
    std::vector<uint32_t> idx(64);
    for (uint32_t i = 0; i < N; ++i) {
        x[i] = (float)((int)(i * 37 % 101) - 50) / 16.0f;
        y[i] = (float)((int)(i * 13 % 29) - 14) / 8.0f;
    }
    for (uint32_t i = 0; i < 128; ++i) bx[i] = (uint16_t)(0x3F00 + i * 3);
    for (uint32_t i = 0; i < 64; ++i) idx[i] = (i * 7) % 256;
    uint8_t* d[7];
    size_t bytes[7] = {N * 4, N * 4, 256, 256, N * 4, N * 4, 128};
    const void* src[4] = {x.data(), y.data(), bx.data(), idx.data()};
    for (int k = 0; k < 7; ++k) {
        aclrtMalloc((void**)&d[k], bytes[k], ACL_MEM_MALLOC_HUGE_FIRST);
        if (k < 4) aclrtMemcpy(d[k], bytes[k], src[k], bytes[k], ACL_MEMCPY_HOST_TO_DEVICE);
    }
    api_kernel<<<1, nullptr, nullptr>>>(d[0], d[1], d[2], d[3], d[4], d[5], d[6]);
    printf("done\n");
    return 0;
}
"""

toF32 = Reg.CastTrait(Reg.RegLayout.ZERO, Reg.SatMode.UNKNOWN, Reg.MaskMergeMode.ZEROING, Reg.RoundMode.CAST_NONE)
toBf16 = Reg.CastTrait(Reg.RegLayout.ZERO, Reg.SatMode.NO_SAT, Reg.MaskMergeMode.ZEROING, Reg.RoundMode.CAST_RINT)


@Reg.__simd_vf__
def ArithVF(out, x, y, n, loops):
    a, b, c, d = (Reg.RegTensor[float]() for _ in range(4))
    cmp = Reg.MaskReg()
    n = uint32_t(n)
    for i in Reg.VLOOP(loops):
        m = Reg.UpdateMask[float](n)
        Reg.LoadAlign(a, x + i * 64)
        Reg.LoadAlign(b, y + i * 64)
        Reg.Mul(c, a, b, m)
        Reg.Mula(c, a, b, m)
        Reg.Adds(d, c, 1.5, m)
        Reg.Maxs(d, d, -2.0, m)
        Reg.Abs(d, d, m)
        Reg.Sqrt(d, d, m)
        Reg.Div(c, d, b, m)
        Reg.Exp(a, a, m)
        Reg.CompareScalar[float, Reg.CMPMODE.GT](cmp, b, 0.0, m)
        Reg.Select(c, c, a, cmp)
        Reg.Min(c, c, a, m)
        Reg.Sub[float, Reg.MaskMergeMode.MERGING](c, c, d, m)
        Reg.StoreAlign(out + i * 64, c, m)


@Reg.__simd_vf__
def ReduceVF(out, x, rows):
    v, s, t = (Reg.RegTensor[float]() for _ in range(3))
    u = Reg.UnalignRegForStore()
    full = Reg.CreateMask[float, Reg.MaskPattern.ALL]()
    for r in Reg.VLOOP(rows):
        Reg.LoadAlign(v, x + r * 64)
        Reg.ReduceSum(s, v, full)
        Reg.StoreUnAlign(out, s, u, 1)
        Reg.ReduceMax(t, v, full)
        Reg.Duplicate[float, Reg.HighLowPart.LOWEST](s, t, full)
        Reg.StoreUnAlign(out, s, u, 1)
    Reg.StoreUnAlignPost(out, u, 0)


@Reg.__simd_vf__
def MoveVF(out, bout, x, bx, idx):
    a, b, c = (Reg.RegTensor[float]() for _ in range(3))
    h = Reg.RegTensor[bfloat16_t]()
    ix = Reg.RegTensor[np.uint32]()
    full = Reg.CreateMask[float, Reg.MaskPattern.ALL]()
    half = Reg.CreateMask[float, Reg.MaskPattern.H]()
    Reg.LoadAlign[float, Reg.LoadDist.DIST_BRC_B32](a, x + 3)
    Reg.LoadAlign[float, Reg.LoadDist.DIST_DINTLV_B32](b, c, x)
    Reg.Add(a, a, b, full)
    Reg.StoreAlign[float, Reg.StoreDist.DIST_INTLV_B32](out, a, c, full)
    Reg.LoadAlign[bfloat16_t, Reg.LoadDist.DIST_UNPACK_B16](h, bx)
    Reg.Cast[float, bfloat16_t, toF32](b, h, full)
    Reg.Muls(b, b, 2.0, full)
    Reg.Cast[bfloat16_t, float, toBf16](h, b, full)
    Reg.StoreAlign[bfloat16_t, Reg.StoreDist.DIST_PACK_B32](bout, h, half)
    Reg.LoadAlign(ix, idx)
    Reg.Gather(c, x, ix, full)
    Reg.StoreAlign(out + 128, c, full)
    Reg.Arange[float](b, 10.0)
    Reg.StoreAlign(out + 192, b, half)
    p = x + 64
    Reg.LoadAlign[float, Reg.PostLiteral.POST_MODE_UPDATE](a, p, 64)
    Reg.LoadAlign[float, Reg.PostLiteral.POST_MODE_UPDATE](b, p, 64)
    Reg.Sub(a, b, a, full)
    Reg.LocalMemBar[Reg.MemType.VEC_STORE, Reg.MemType.VEC_LOAD]()
    Reg.StoreAlign(out + 256, a, full)


def api_kernel(x, y, bx, idx, r_out, m_out, b_out):
    from toolkit.ascendc.dma import DataCopy
    from toolkit.ascendc.sync import HardEvent, PipeBarrier, PipeType, SetFlag, WaitFlag
    pipe = TPipe()
    inQ, outQ, work = TQue(TPosition.VECIN, 1), TQue(TPosition.VECOUT, 1), TBuf(TPosition.VECCALC)
    pipe.InitBuffer(inQ, 1, 4 * N * 4)
    pipe.InitBuffer(outQ, 1, 2 * N * 4)
    pipe.InitBuffer(work, N * 4)
    g = {name: GlobalTensor(t) for name, t in (("x", float), ("y", float), ("r", float), ("m", float),
                                                 ("b", bfloat16_t), ("bo", bfloat16_t), ("i", np.uint32))}
    for name, ptr, t, n in (("x", x, float, N), ("y", y, float, N), ("b", bx, bfloat16_t, 128),
                            ("i", idx, np.uint32, 64), ("r", r_out, float, N), ("m", m_out, float, N),
                            ("bo", b_out, bfloat16_t, 64)):
        g[name].SetGlobalBuffer(gm_cast(t, ptr), n)
    inl = inQ.AllocTensor(float)
    pad = DataCopyPadExtParams(False, 0, 0, 0)
    DataCopyPad(inl, g["x"], DataCopyExtParams(1, N * 4, 0, 0, 0), pad)
    DataCopyPad(inl[N], g["y"], DataCopyExtParams(1, N * 4, 0, 0, 0), pad)
    DataCopy(inl[2 * N].ReinterpretCast(bfloat16_t), g["b"], 128)
    DataCopy(inl[3 * N].ReinterpretCast(np.uint32), g["i"], 64)
    inQ.EnQue(inl)
    inl = inQ.DeQue(float)
    out = outQ.AllocTensor(float)
    w = work.Get(float)
    MB.Duplicate(out, 0.0, 2 * N)
    xa = inl.GetPhyAddr()
    Reg.asc_vf_call[ArithVF](out.GetPhyAddr(), xa, xa + N, N, N // 64)
    ReduceVF(w.GetPhyAddr(), xa, 8)
    MoveVF(out[N].GetPhyAddr(), w[64].GetPhyAddr().cast(bfloat16_t), xa, inl[2 * N].GetPhyAddr().cast(bfloat16_t),
           inl[3 * N].GetPhyAddr().cast(np.uint32))
    m = out[N + 320]
    MB.Add(m, inl, inl[N], 64)
    MB.Muls(m[64], inl, 0.25, 64)
    MB.Mul(m[128], inl, inl[N], [0x00FF00FF00FF00FF, 0], 1, MB.BinaryRepeatParams(1, 1, 1, 8, 8, 8))
    MB.Exp(m[192], inl[64], 8, 1, MB.UnaryRepeatParams(1, 1, 8, 8))
    MB.WholeReduceSum(w[128], inl, 64, 4, 1, 1, 8)
    MB.Brcb(m[0], w[128], 1, MB.BrcbRepeatParams(1, 8))
    MB.Duplicate(w[200], 3.5, 8)
    SetFlag[HardEvent.V_S](1)
    WaitFlag[HardEvent.V_S](1)
    v = w.GetValue(200)
    MB.Adds(m[32], m[32], v, 16)
    MB.Cast(w[64].ReinterpretCast(bfloat16_t)[64], m, MB.RoundMode.CAST_RINT, 64)
    PipeBarrier[PipeType.PIPE_V]()
    outQ.EnQue(out)
    inQ.FreeTensor(inl)
    out = outQ.DeQue(float)
    DataCopyPad(g["r"], out, DataCopyExtParams(1, N * 4, 0, 0, 0))
    DataCopyPad(g["m"], out[N], DataCopyExtParams(1, N * 4, 0, 0, 0))
    DataCopyPad(g["bo"], w[64].ReinterpretCast(bfloat16_t), DataCopyExtParams(1, 64 * 2, 0, 0, 0))
    outQ.FreeTensor(out)


def _inputs():
    i = np.arange(N)
    x = (((i * 37) % 101) - 50).astype(np.float32) / np.float32(16)
    y = (((i * 13) % 29) - 14).astype(np.float32) / np.float32(8)
    bx = (0x3F00 + np.arange(128) * 3).astype(np.uint16)
    idx = ((np.arange(64) * 7) % 256).astype(np.uint32)
    return x, y, bx, idx


@pytest.fixture(scope="module")
def both(tmp_path_factory):
    src = write(tmp_path_factory.mktemp("api"), "api.asc", PROGRAM)
    asc = build_and_run(src, keep_events=True)
    assert asc.failure is None and asc.exit_status == 0, (asc.failure, asc.stderr)
    x, y, bx, idx = _inputs()
    gm = [gm_alloc("x", x.view(np.uint8)), gm_alloc("y", y.view(np.uint8)), gm_alloc("bx", bx.view(np.uint8)),
          gm_alloc("idx", idx.view(np.uint8)), gm_alloc("r_out", N * 4), gm_alloc("m_out", N * 4),
          gm_alloc("b_out", 128)]
    py = launch(api_kernel, 1, gm)
    return asc, py, gm


@needs_compiler
def test_same_bytes_written(both):
    asc, py, gm = both
    got = output_bytes(asc)
    for name, ptr in zip(("r_out", "m_out", "b_out"), gm[4:]):
        buf = ptr.buf
        assert got[name] == buf.data[buf.writer >= 0].tobytes(), name
    assert len(got["r_out"]) == N * 4 and len(got["b_out"]) == 128


@needs_compiler
def test_same_event_stream_and_records(both):
    asc, py, _ = both
    events_asc = asc.launches[0]["events"][0]
    events_py = py.cores[0].events
    assert [event_key(e) for e in events_asc] == [event_key(e) for e in events_py]
    assert sum(1 for e in events_py if type(e).__name__ == "VfCall") > 10      # the MemBase calls are VFs too


@needs_compiler
def test_same_diagnostics_and_counters(both):
    asc, py, _ = both
    assert [d["code"] for d in asc.launches[0]["diagnostics"]] == py.diagnostics.codes()
    from toolkit.views.launch_summary import launch_counters
    assert asc.launches[0]["counters"] == launch_counters(py, py.machine)


# -- the rest of the surface: MicroAPI alias, masks to/from UB, block-strided and unaligned moves, AddrReg,
#    Reduce<type>, compares between registers, register Gather, mask logic, pipe event ids, C API -----------
PROGRAM2 = r"""
#include "acl/acl.h"
#include "kernel_operator.h"
namespace R = AscendC::MicroAPI;

__simd_vf__ inline void MoreVF(__ubuf__ float* out, __ubuf__ float* x, __ubuf__ uint8_t* mbuf, __ubuf__ uint32_t* ix)
{
    R::RegTensor<float> a;
    R::RegTensor<float> b;
    R::RegTensor<float> c;
    R::RegTensor<uint32_t> idx;
    R::UnalignRegForLoad ul;
    R::MaskReg m;
    R::MaskReg n;
    R::MaskReg all = R::CreateMask<float, R::MaskPattern::ALL>();
    R::MaskReg q = R::CreateMask<float, R::MaskPattern::Q>();
    R::LoadAlign<uint8_t, R::MaskDist::DIST_NORM>(m, mbuf);
    R::LoadAlign<float, R::DataCopyMode::DATA_BLOCK_COPY>(a, x, 2, m);
    R::LoadUnAlignPre(ul, x + 3);
    R::LoadUnAlign(b, ul, x + 3);
    R::Compare<float, AscendC::CMPMODE::GE>(n, a, b, all);
    R::MaskOr(n, n, q, all);
    R::MaskNot(m, n, all);
    R::StoreAlign<uint8_t, R::MaskDist::DIST_NORM>(mbuf + 32, m);
    R::Duplicate<float, R::MaskMergeMode::MERGING>(a, 9.0f, m);
    R::Reduce<R::ReduceType::MIN>(c, a, all);
    R::StoreAlign<float, R::StoreDist::DIST_FIRST_ELEMENT_B32>(out, c, all);
    R::Maxs(c, b, 0.5f, all);
    R::Mins(c, c, 4.0f, all);
    R::Relu(c, c, all);
    R::LoadAlign(idx, ix);
    R::Gather(b, c, idx, all);
    R::AddrReg ar = R::CreateAddrReg<float>(1, 64);
    R::StoreAlign(out + 64, b, ar, all);
    __ubuf__ float* p = out + 192;
    R::StoreAlign<float, R::PostLiteral::POST_MODE_UPDATE>(p, a, 64, all);
    R::StoreAlign<float, R::DataCopyMode::DATA_BLOCK_COPY>(p, c, 2, all);
    R::ReduceMin(c, b, all);
    R::Ln(c, c, q);
    R::StoreAlign(out + 512, c, q);
}

extern "C" __global__ __aicore__ void more_kernel(GM_ADDR x, GM_ADDR ix, GM_ADDR out, GM_ADDR cout)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 16384);
    AscendC::GlobalTensor<float> xg, og;
    AscendC::GlobalTensor<uint32_t> ig;
    xg.SetGlobalBuffer((__gm__ float*)x);
    ig.SetGlobalBuffer((__gm__ uint32_t*)ix);
    og.SetGlobalBuffer((__gm__ float*)out);
    AscendC::LocalTensor<float> t = buf.Get<float>();
    AscendC::DataCopy(t, xg, 1024);
    AscendC::DataCopy(t[1024].ReinterpretCast<uint32_t>(), ig, 64);
    AscendC::Duplicate(t[2048], 0.0f, 1024);
    AscendC::LocalTensor<uint8_t> mb = t[1536].ReinterpretCast<uint8_t>();
    for (int k = 0; k < 8; ++k) mb.SetValue(k * 4, (uint8_t)(0x11 * (k + 1)));
    int8_t ev = AscendC::GetTPipePtr()->FetchEventID<AscendC::HardEvent::S_V>();
    AscendC::SetFlag<AscendC::HardEvent::S_V>(ev);
    AscendC::WaitFlag<AscendC::HardEvent::S_V>(ev);
    MoreVF((__ubuf__ float*)t[2048].GetPhyAddr(), (__ubuf__ float*)t.GetPhyAddr(), (__ubuf__ uint8_t*)mb.GetPhyAddr(),
           (__ubuf__ uint32_t*)t[1024].GetPhyAddr());
    AscendC::DataCopy(og, t[2048], 1024);
    og.SetValue(1023, 5.0f);
    // the C API
    asc_init();
    __ubuf__ float* u = (__ubuf__ float*)t[3072].GetPhyAddr();
    asc_copy_gm2ub_sync(u, (__gm__ float*)x, 256);
    asc_add_sync(u + 64, u, u, 64);
    asc_copy_ub2gm_sync((__gm__ float*)cout, u + 64, 256);
}

int main()
{
    float x[1024];
    uint32_t ix[64];
    for (int i = 0; i < 1024; ++i) x[i] = (float)((i * 29) % 67) / 8.0f - 3.0f;
    for (int i = 0; i < 64; ++i) ix[i] = (i * 5) % 64;
    uint8_t *dx, *di, *dout, *dc;
    aclrtMalloc((void**)&dx, sizeof x, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&di, sizeof ix, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&dout, 4096, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&dc, 256, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(dx, sizeof x, x, sizeof x, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(di, sizeof ix, ix, sizeof ix, ACL_MEMCPY_HOST_TO_DEVICE);
    more_kernel<<<1, nullptr, nullptr>>>(dx, di, dout, dc);
    return 0;
}
"""


@Reg.__simd_vf__
def MoreVF(out, x, mbuf, ix):
    a, b, c = (Reg.RegTensor[float]() for _ in range(3))
    idx = Reg.RegTensor[np.uint32]()
    ul = Reg.UnalignRegForLoad()
    m, n = Reg.MaskReg(), Reg.MaskReg()
    all_ = Reg.CreateMask[float, Reg.MaskPattern.ALL]()
    q = Reg.CreateMask[float, Reg.MaskPattern.Q]()
    Reg.LoadAlign[np.uint8, Reg.MaskDist.DIST_NORM](m, mbuf)
    Reg.LoadAlign[float, Reg.DataCopyMode.DATA_BLOCK_COPY](a, x, 2, m)
    Reg.LoadUnAlignPre(ul, x + 3)
    Reg.LoadUnAlign(b, ul, x + 3)
    Reg.Compare[float, Reg.CMPMODE.GE](n, a, b, all_)
    Reg.MaskOr(n, n, q, all_)
    Reg.MaskNot(m, n, all_)
    Reg.StoreAlign[np.uint8, Reg.MaskDist.DIST_NORM](mbuf + 32, m)
    Reg.Duplicate[float, Reg.MaskMergeMode.MERGING](a, 9.0, m)
    Reg.Reduce[Reg.ReduceType.MIN](c, a, all_)
    Reg.StoreAlign[float, Reg.StoreDist.DIST_FIRST_ELEMENT_B32](out, c, all_)
    Reg.Maxs(c, b, 0.5, all_)
    Reg.Mins(c, c, 4.0, all_)
    Reg.Relu(c, c, all_)
    Reg.LoadAlign(idx, ix)
    Reg.Gather(b, c, idx, all_)
    ar = Reg.CreateAddrReg[float](1, 64)
    Reg.StoreAlign(out + 64, b, ar, all_)
    p = out + 192
    Reg.StoreAlign[float, Reg.PostLiteral.POST_MODE_UPDATE](p, a, 64, all_)
    Reg.StoreAlign[float, Reg.DataCopyMode.DATA_BLOCK_COPY](p, c, 2, all_)
    Reg.ReduceMin(c, b, all_)
    Reg.Ln(c, c, q)
    Reg.StoreAlign(out + 512, c, q)


def more_kernel(x, ix, out, cout):
    from toolkit.ascendc import capi
    from toolkit.ascendc.dma import DataCopy
    from toolkit.ascendc.pipe import GetTPipePtr
    from toolkit.ascendc.sync import HardEvent, SetFlag, WaitFlag
    from toolkit.ascendc.tensor import GmPtr
    pipe = TPipe()
    buf = TBuf(TPosition.VECCALC)
    pipe.InitBuffer(buf, 16384)
    xg, og, ig = GlobalTensor(float), GlobalTensor(float), GlobalTensor(np.uint32)
    xg.SetGlobalBuffer(gm_cast(float, x))
    ig.SetGlobalBuffer(gm_cast(np.uint32, ix))
    og.SetGlobalBuffer(gm_cast(float, out))
    t = buf.Get(float)
    DataCopy(t, xg, 1024)
    DataCopy(t[1024].ReinterpretCast(np.uint32), ig, 64)
    MB.Duplicate(t[2048], 0.0, 1024)
    mb = t[1536].ReinterpretCast(np.uint8)
    for k in range(8):
        mb.SetValue(k * 4, 0x11 * (k + 1))
    ev = GetTPipePtr().FetchEventID(HardEvent.S_V)
    SetFlag[HardEvent.S_V](ev)
    WaitFlag[HardEvent.S_V](ev)
    MoreVF(t[2048].GetPhyAddr(), t.GetPhyAddr(), mb.GetPhyAddr(), t[1024].GetPhyAddr().cast(np.uint32))
    DataCopy(og, t[2048], 1024)
    og.SetValue(1023, 5.0)
    capi.asc_init()
    u = t[3072].GetPhyAddr()
    capi.asc_copy_gm2ub_sync(u, GmPtr(x.buf, 0, np.float32), 256)
    capi.asc_add_sync(u + 64, u, u, 64)
    capi.asc_copy_ub2gm_sync(GmPtr(cout.buf, 0, np.float32), u + 64, 256)


@pytest.fixture(scope="module")
def both2(tmp_path_factory):
    src = write(tmp_path_factory.mktemp("api2"), "api2.asc", PROGRAM2)
    asc = build_and_run(src, keep_events=True)
    assert asc.failure is None and asc.exit_status == 0, (asc.failure, asc.stderr)
    i = np.arange(1024)
    x = (((i * 29) % 67).astype(np.float32) / np.float32(8) - np.float32(3)).astype(np.float32)
    ix = ((np.arange(64) * 5) % 64).astype(np.uint32)
    gm = [gm_alloc("x", x.view(np.uint8)), gm_alloc("ix", ix.view(np.uint8)), gm_alloc("out", 4096),
          gm_alloc("cout", 256)]
    return asc, launch(more_kernel, 1, gm), gm


@needs_compiler
def test_rest_of_surface_same_bytes_and_records(both2):
    asc, py, gm = both2
    got = output_bytes(asc)
    for name, ptr in zip(("out", "cout"), gm[2:]):
        buf = ptr.buf
        assert got[name] == buf.data[buf.writer >= 0].tobytes(), name
    assert [event_key(e) for e in asc.launches[0]["events"][0]] == [event_key(e) for e in py.cores[0].events]
    assert [d["code"] for d in asc.launches[0]["diagnostics"]] == py.diagnostics.codes()
