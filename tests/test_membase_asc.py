"""The MemBase breadth on the .asc route: one C++ kernel calls the new forms (named template values,
scalar-position and single-element forms, the mask state, compare / select with the CmpMask, the
reductions, conversions, gathers, relayout, sorting and the hand-written forms), and its Python twin calls
the same semantic functions: the two must write the same bytes and leave the same event stream."""
from __future__ import annotations

import numpy as np
import pytest

from tests.asc_support import build_and_run, event_key, needs_compiler, output_bytes, write
from toolkit.ascendc import membase as MB
from toolkit.ascendc.dma import DataCopyExtParams, DataCopyPad, DataCopyPadExtParams
from toolkit.ascendc.dtypes import uint16_t, uint64_t
from toolkit.ascendc.pipe import TBuf, TPipe, TPosition
from toolkit.ascendc.regbase.types import CMPMODE, ReduceType, RoundMode
from toolkit.ascendc.sync import PipeBarrier, PipeType
from toolkit.ascendc.tensor import GlobalTensor, gm_cast
from toolkit.engine.launch import gm_alloc, launch

N = 512
OUT = 8192          # floats copied out: the first 32 KB of the work buffer

PROGRAM = r"""
#include "acl/acl.h"
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t N = 512;
constexpr uint32_t OUT = 8192;
static constexpr BinaryConfig firstIsScalar = {0};

extern "C" __global__ __aicore__ void mb_kernel(GM_ADDR x, GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> work;
    pipe.InitBuffer(work, 16384 * sizeof(float));
    GlobalTensor<float> xg, og;
    xg.SetGlobalBuffer((__gm__ float*)x, N);
    og.SetGlobalBuffer((__gm__ float*)out, OUT);
    LocalTensor<float> w = work.Get<float>();
    Duplicate(w, 0.0f, OUT);
    DataCopyPad(w, xg, DataCopyExtParams{1, N * 4, 0, 0, 0}, DataCopyPadExtParams<float>{false, 0, 0, 0});
    LocalTensor<int16_t> s = w[512].ReinterpretCast<int16_t>();
    LocalTensor<int32_t> i32 = w[1024].ReinterpretCast<int32_t>();
    LocalTensor<uint8_t> bits = w[1536].ReinterpretCast<uint8_t>();
    // arithmetic: integer forms, shifts, scalar on either side, a single-element tensor, fused ops
    Cast(i32, w, RoundMode::CAST_FLOOR, 256);
    Cast(s, i32, RoundMode::CAST_NONE, 256);
    And(s[256], s, s[64], 128);
    ShiftRight(s[384], s, (int16_t)2, 128);
    ShiftLeft(i32[256], i32, i32[64], 64);
    Subs(w[2048], 1.5f, w, 64);
    Divs<BinaryDefaultType, true, firstIsScalar>(w[2112], w[3], w, 64);
    FusedMulAdd(w[2176], w, w[64], 64);
    Mull(i32[320], i32[384], i32, i32[64], 64);
    Axpy(w[2240], w, 0.5f, 64);
    // the mask state: the register with isSetMask = false, then counter mode
    SetVectorMask<float, MaskMode::NORMAL>(0, 0xF0F0F0F0F0F0F0F0ull);
    Adds<float, false>(w[2304], w, 2.0f, MASK_PLACEHOLDER, 1, UnaryRepeatParams(1, 1, 8, 8));
    ResetMask();
    SetMaskCount();
    Muls(w[2368], w, 3.0f, 100, 2, UnaryRepeatParams(1, 1, 8, 8));
    SetMaskNorm();
    // compare / select, with the CmpMask register
    Compare(bits, w, w[64], CMPMODE::LT, 64);
    Compares(bits[32], 0.0f, w, CMPMODE::GT, 64);
    Select(w[2496], bits, w, 9.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, 64);
    SetCmpMask(bits);
    SetVectorMask<float>(64);
    Select<float, SELMODE::VSEL_CMPMASK_SPR>(w[2560], w, w[64], 1, BinaryRepeatParams());
    ResetMask();
    Compare(w, w[64], CMPMODE::GE, 64, BinaryRepeatParams());
    GetCmpMask(bits[64]);
    // reductions
    ReduceRepeat<ReduceType::MAX, float>(w[2624], w, 64, 4, 1, 1, 8, ReduceOrder::ORDER_INDEX_VALUE);
    ReduceDataBlock<ReduceType::SUM, float>(w[2640], w, 64, 2, 1, 1, 8);
    ReducePairElem<ReduceType::SUM, float>(w[2688], w, 64, 1, 1, 1, 8);
    ReduceMax(w[2720], w, w[4096], 300, true);
    ReduceMin(w[2724], w, w[4096], 64, 4, 8);
    ReduceSum(w[2728], w, w[4096], 512);
    float total = GetReduceRepeatSumSpr<float>();
    Duplicate(w[2736], total, 8);
    // conversions
    Truncate<float, RoundMode::CAST_CEIL>(w[2744], w, 64);
    Cast(w[2808].ReinterpretCast<int64_t>(), w, RoundMode::CAST_RINT, 32);
    SetDeqScale((half)0.5f);
    AddDeqRelu(w[2872].ReinterpretCast<half>(), i32, i32[64], 64);
    float vs[16];
    int16_t vo[16];
    bool vm[16];
    for (int k = 0; k < 16; ++k) { vs[k] = 0.25f * (k + 1); vo[k] = (int16_t)(k - 8); vm[k] = true; }
    SetDeqScale<uint64_t>(w[4608].ReinterpretCast<uint64_t>(), VdeqInfo(vs, vo, vm));
    CastDequant<int8_t, int16_t, true, true>(w[2904].ReinterpretCast<int8_t>(), s, 64);
    // gathers, relayout, sorting
    CreateVecIndex(i32[448], (int32_t)0, 64);
    Muls(i32[448], i32[448], (int32_t)8, 64);
    Gather(w[2968], w, i32[448].ReinterpretCast<uint32_t>(), 4, 64);
    uint64_t cnt = 0;
    GatherMask(w[3032], w, (uint8_t)2, false, 0, GatherMaskParams{1, 1, 8, 0}, cnt);
    Transpose(w[3096].ReinterpretCast<half>(), w.ReinterpretCast<half>());
    TransposeParamsExt tp(1, 2, 2, 8, TransposeType::TRANSPOSE_NCHW2NHWC);
    Transpose(w[3224], w, w[5120].ReinterpretCast<uint8_t>(), tp);
    LocalTensor<half> dl[16], sl[16];
    for (int k = 0; k < 16; ++k) {
        dl[k] = w[3256 + 8 * k].ReinterpretCast<half>();
        sl[k] = w[8 * k].ReinterpretCast<half>();
    }
    TransDataTo5HD<half>(dl, sl, TransDataTo5HDParams(false, false, 1, 0, 0));
    Interleave(w[3384], w[3448], w, w[64], 64);
    Sort32(w[3584], w, i32[448].ReinterpretCast<uint32_t>(), 2);
    MrgSortSrcList<float> lists(w[3584], w[3648], w[3584], w[3648]);
    uint16_t lens[4] = {32, 32, 0, 0};
    MrgSort(w[3712], lists, MrgSort4Info(lens, false, 3, 1));
    uint16_t c1 = 0, c2 = 0, c3 = 0, c4 = 0;
    GetMrgSortResult(c1, c2, c3, c4);
    Copy(w[3840], w, 32, 1, CopyRepeatParams(1, 1, 8, 8));
    PipeBarrier<PIPE_V>();
    DataCopyPad(og, w, DataCopyExtParams{1, OUT * 4, 0, 0, 0});
}

int main()
{
    float x[N];
    for (uint32_t i = 0; i < N; ++i) x[i] = (float)((int)(i * 37 % 101) - 50) / 8.0f;
    uint8_t* d[2];
    aclrtMalloc((void**)&d[0], N * 4, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&d[1], OUT * 4, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(d[0], N * 4, x, N * 4, ACL_MEMCPY_HOST_TO_DEVICE);
    mb_kernel<<<1, nullptr, nullptr>>>(d[0], d[1]);
    return 0;
}
"""

I16, I32, I64, U8, U32, U64 = (np.dtype(t) for t in (np.int16, np.int32, np.int64, np.uint8, np.uint32, np.uint64))
F16, I8 = np.dtype(np.float16), np.dtype(np.int8)


def mb_kernel(x, out):
    pipe = TPipe()
    work = TBuf(TPosition.VECCALC)
    pipe.InitBuffer(work, 16384 * 4)
    xg, og = GlobalTensor(float), GlobalTensor(float)
    xg.SetGlobalBuffer(gm_cast(float, x), N)
    og.SetGlobalBuffer(gm_cast(float, out), OUT)
    w = work.Get(float)
    MB.Duplicate(w, 0.0, OUT)
    DataCopyPad(w, xg, DataCopyExtParams(1, N * 4, 0, 0, 0), DataCopyPadExtParams(False, 0, 0, 0))
    s, i32, bits = w[512].ReinterpretCast(I16), w[1024].ReinterpretCast(I32), w[1536].ReinterpretCast(U8)
    _arith_and_masks(w, s, i32)
    _compare_and_reduce(w, bits)
    _convert_and_move(w, s, i32)
    PipeBarrier[PipeType.PIPE_V]()
    DataCopyPad(og, w, DataCopyExtParams(1, OUT * 4, 0, 0, 0))


def _arith_and_masks(w, s, i32):
    MB.Cast(i32, w, RoundMode.CAST_FLOOR, 256)
    MB.Cast(s, i32, RoundMode.CAST_NONE, 256)
    MB.And(s[256], s, s[64], 128)
    MB.ShiftRight(s[384], s, 2, 128)
    MB.ShiftLeft(i32[256], i32, i32[64], 64)
    MB.Subs(w[2048], 1.5, w, 64)
    MB.Divs(w[2112], w[3], w, 64, config=0)
    MB.FusedMulAdd(w[2176], w, w[64], 64)
    MB.Mull(i32[320], i32[384], i32, i32[64], 64)
    MB.Axpy(w[2240], w, 0.5, 64)
    MB.SetVectorMask(float, MB.MaskMode.NORMAL, 0, 0xF0F0F0F0F0F0F0F0)
    MB.Adds[float, False](w[2304], w, 2.0, MB.MASK_PLACEHOLDER, 1, MB.UnaryRepeatParams(1, 1, 8, 8))
    MB.ResetMask()
    MB.SetMaskCount()
    MB.Muls(w[2368], w, 3.0, 100, 2, MB.UnaryRepeatParams(1, 1, 8, 8))
    MB.SetMaskNorm()


def _compare_and_reduce(w, bits):
    MB.Compare(bits, w, w[64], CMPMODE.LT, 64)
    MB.Compares(bits[32], 0.0, w, CMPMODE.GT, 64)
    MB.Select(w[2496], bits, w, 9.0, MB.SELMODE.VSEL_TENSOR_SCALAR_MODE, 64)
    MB.SetCmpMask(bits)
    MB.SetVectorMask(float, MB.MaskMode.NORMAL, 64)
    MB.Select[float, MB.SELMODE.VSEL_CMPMASK_SPR](w[2560], w, w[64], 1, MB.BinaryRepeatParams())
    MB.ResetMask()
    MB.Compare(w, w[64], CMPMODE.GE, 64, MB.BinaryRepeatParams())
    MB.GetCmpMask(bits[64])
    MB.ReduceRepeat[ReduceType.MAX, float](w[2624], w, 64, 4, 1, 1, 8, MB.ReduceOrder.ORDER_INDEX_VALUE)
    MB.ReduceDataBlock[ReduceType.SUM, float](w[2640], w, 64, 2, 1, 1, 8)
    MB.ReducePairElem[ReduceType.SUM, float](w[2688], w, 64, 1, 1, 1, 8)
    MB.ReduceMax(w[2720], w, w[4096], 300, True)
    MB.ReduceMin(w[2724], w, w[4096], 64, 4, 8)
    MB.ReduceSum(w[2728], w, w[4096], 512)
    total = MB.GetReduceRepeatSumSpr(float)
    MB.Duplicate(w[2736], total, 8)


def _convert_and_move(w, s, i32):
    MB.Truncate[float, RoundMode.CAST_CEIL](w[2744], w, 64)
    MB.Cast(w[2808].ReinterpretCast(I64), w, RoundMode.CAST_RINT, 32)
    MB.SetDeqScale(np.float16(0.5))
    MB.AddDeqRelu(w[2872].ReinterpretCast(F16), i32, i32[64], 64)
    info = MB.VdeqInfo([0.25 * (k + 1) for k in range(16)], [k - 8 for k in range(16)], [True] * 16)
    MB.SetDeqScale(w[4608].ReinterpretCast(U64), info)
    MB.CastDequant(w[2904].ReinterpretCast(I8), s, 64, isVecDeq=True, halfBlock=True)
    MB.CreateVecIndex(i32[448], 0, 64)
    MB.Muls(i32[448], i32[448], 8, 64)
    MB.Gather(w[2968], w, i32[448].ReinterpretCast(U32), 4, 64)
    cnt = uint64_t(0)
    MB.GatherMask(w[3032], w, 2, False, 0, MB.GatherMaskParams(1, 1, 8, 0), cnt)
    MB.Transpose(w[3096].ReinterpretCast(F16), w.ReinterpretCast(F16))
    tp = MB.TransposeParamsExt(1, 2, 2, 8, MB.TransposeType.TRANSPOSE_NCHW2NHWC)
    MB.Transpose(w[3224], w, w[5120].ReinterpretCast(U8), tp)
    dl = [w[3256 + 8 * k].ReinterpretCast(F16) for k in range(16)]
    sl = [w[8 * k].ReinterpretCast(F16) for k in range(16)]
    MB.TransDataTo5HD[F16](dl, sl, MB.TransDataTo5HDParams(False, False, 1, 0, 0))
    MB.Interleave(w[3384], w[3448], w, w[64], 64)
    MB.Sort32(w[3584], w, i32[448].ReinterpretCast(U32), 2)
    lists = MB.MrgSortSrcList(w[3584], w[3648], w[3584], w[3648])
    MB.MrgSort(w[3712], lists, MB.MrgSort4Info([32, 32, 0, 0], False, 3, 1))
    counts = [uint16_t(0) for _ in range(4)]
    MB.GetMrgSortResult(*counts)
    MB.Copy(w[3840], w, 32, 1, MB.CopyRepeatParams(1, 1, 8, 8))


def _x():
    i = np.arange(N)
    return ((((i * 37) % 101) - 50).astype(np.float32) / np.float32(8))


@pytest.fixture(scope="module")
def both(tmp_path_factory):
    src = write(tmp_path_factory.mktemp("mb"), "mb.asc", PROGRAM)
    asc = build_and_run(src, keep_events=True)
    assert asc.failure is None and asc.exit_status == 0, (asc.failure, asc.stderr)
    gm = [gm_alloc("x", _x().view(np.uint8)), gm_alloc("out", OUT * 4)]
    py = launch(mb_kernel, 1, gm)
    return asc, py, gm


@needs_compiler
def test_same_bytes_and_some_values(both):
    asc, py, gm = both
    buf = gm[1].buf
    assert output_bytes(asc)["out"] == buf.data[buf.writer >= 0].tobytes()
    w = buf.data.view(np.float32)
    x = _x()
    np.testing.assert_array_equal(w[2048:2112], np.float32(1.5) - x[:64])          # scalar first
    with np.errstate(divide="ignore"):
        np.testing.assert_array_equal(w[2112:2176], x[3] / x[:64])                 # src0[0] is the scalar
    lanes = np.array([(0xF0F0F0F0F0F0F0F0 >> k) & 1 for k in range(64)], bool)
    np.testing.assert_array_equal(w[2304:2368][lanes], x[:64][lanes] + 2)          # the mask register
    assert (w[2304:2368][~lanes] == 0).all()
    np.testing.assert_array_equal(w[2368:2468], x[:100] * 3)                       # counter mode: 100 elements
    assert (w[2468:2496] == 0).all()


@needs_compiler
def test_same_event_stream(both):
    asc, py, _ = both
    assert [event_key(e) for e in asc.launches[0]["events"][0]] == [event_key(e) for e in py.cores[0].events]


@needs_compiler
def test_same_diagnostics(both):
    asc, py, _ = both
    assert [d["code"] for d in asc.launches[0]["diagnostics"]] == py.diagnostics.codes()
