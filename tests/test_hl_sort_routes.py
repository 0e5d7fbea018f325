"""The high-level sorting and filtering on both routes: one .asc kernel calls Sort (RADIX_SORT with indices and
the framework's buffer, MERGE_SORT with a shared buffer, the (score, index) full sort), Extract, the high-level
MrgSort, TopK (MERGE_SORT Normal with finish rows, RADIX_SELECT Small), DropOut (bit mode) and the byte-mask
Select; its Python twin calls the same functions. Both must write the same bytes and leave the same event
stream: one implementation behind both."""
from __future__ import annotations

import numpy as np
import pytest

from tests.asc_support import assert_same_event_stream, both_routes, needs_compiler, output_bytes
from toolkit.ascendc import membase as MB
from toolkit.ascendc.dma import DataCopy
from toolkit.ascendc.highlevel import filter as FI
from toolkit.ascendc.highlevel import sort as SO
from toolkit.ascendc.highlevel import topk as TK
from toolkit.ascendc.pipe import TBuf, TPipe, TPosition
from toolkit.ascendc.sync import PipeBarrier, PipeType
from toolkit.ascendc.tensor import GlobalTensor, gm_cast

BYTES, TMP = 8192, 24576

PROGRAM = r"""
#include "acl/acl.h"
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t BYTES = 8192, TMP = 24576;
static constexpr SortConfig kRadixDesc = {SortType::RADIX_SORT, true};
static constexpr SortConfig kMergeAsc = {SortType::MERGE_SORT, false};
static constexpr TopKConfig kRadixTopK = {TopKAlgo::RADIX_SELECT, TopKOrder::SMALLEST, true};

extern "C" __global__ __aicore__ void sort_kernel(GM_ADDR x, GM_ADDR out, TopkTiling tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> work, tmpBuf;
    pipe.InitBuffer(work, BYTES);
    pipe.InitBuffer(tmpBuf, TMP);
    GlobalTensor<uint8_t> xg, og;
    xg.SetGlobalBuffer((__gm__ uint8_t*)x, BYTES);
    og.SetGlobalBuffer((__gm__ uint8_t*)out, BYTES);
    LocalTensor<uint8_t> w = work.Get<uint8_t>();
    LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
    DataCopy(w, xg, BYTES);
    PipeBarrier<PIPE_ALL>();
    LocalTensor<float> f = w.ReinterpretCast<float>();            // 64 floats at 0, 64 int16 at 256
    LocalTensor<int16_t> dstR = w[512].ReinterpretCast<int16_t>();
    LocalTensor<uint32_t> dstIdxR = w[768].ReinterpretCast<uint32_t>();
    Sort<int16_t, false, kRadixDesc>(dstR, dstIdxR, w[256].ReinterpretCast<int16_t>(), 64);
    LocalTensor<float> dstM = w[1024].ReinterpretCast<float>();
    LocalTensor<uint32_t> dstIdxM = w[1280].ReinterpretCast<uint32_t>();
    Sort<float, false, kMergeAsc>(dstM, dstIdxM, f, tmp, 64);
    CreateVecIndex(w[1536].ReinterpretCast<int32_t>(), 0, 64);
    LocalTensor<float> sortTmp = w[2560].ReinterpretCast<float>();
    Sort<float, true>(w[2048].ReinterpretCast<float>(), f, w[1536].ReinterpretCast<uint32_t>(), sortTmp, 2);
    Extract(w[3072].ReinterpretCast<float>(), w[3328].ReinterpretCast<uint32_t>(), w[2048].ReinterpretCast<float>(), 2);
    Sort<float, false>(w[2048].ReinterpretCast<float>(), f, w[1536].ReinterpretCast<uint32_t>(), sortTmp, 2);
    LocalTensor<float> s = w[2048].ReinterpretCast<float>();
    MrgSortSrcList<float> list(s, s[GetSortOffset<float>(32)], s, s);
    const uint16_t counts[4] = {32, 32, 0, 0};
    uint32_t sortedNum[4] = {0, 0, 0, 0};
    MrgSort<float, true>(w[3584].ReinterpretCast<float>(), list, counts, sortedNum, 0b11, 1);
    w[4096].ReinterpretCast<uint32_t>().SetValue(0, sortedNum[0]);
    w[4096].ReinterpretCast<uint32_t>().SetValue(1, sortedNum[1]);
    TopKInfo info{2, 32, 30};
    LocalTensor<bool> finish = w[4128].ReinterpretCast<bool>();
    TopK<float, false, true, false, TopKMode::TOPK_NORMAL>(w[4160].ReinterpretCast<float>(),
        w[4224].ReinterpretCast<int32_t>(), f, w[1536].ReinterpretCast<int32_t>(), finish, tmp, 4, tiling, info, true);
    TopKInfo small{4, 32, 32};
    TopK<int16_t, false, false, false, TopKMode::TOPK_NSMALL, kRadixTopK>(w[4288].ReinterpretCast<int16_t>(),
        w[4352].ReinterpretCast<int32_t>(), w[256].ReinterpretCast<int16_t>(), w[1536].ReinterpretCast<int32_t>(),
        finish, 3, tiling, small, true);
    DropOutShapeInfo d;
    d.firstAxis = 2;
    d.srcLastAxis = 32;
    d.maskLastAxis = 4;
    DropOut(w[4608].ReinterpretCast<float>(), f, w[4416], tmp, 0.5f, d);
    SelectWithBytesMaskShapeInfo sel;
    sel.firstAxis = 2;
    sel.srcLastAxis = 32;
    sel.maskLastAxis = 64;
    Select(w[4864].ReinterpretCast<float>(), 7.0f, f, w[4448].ReinterpretCast<uint8_t>(), tmp, sel);
    PipeBarrier<PIPE_ALL>();
    DataCopy(og, w, BYTES);
}

int main()
{
    static uint8_t x[BYTES] = {};
    float* f = (float*)x;
    for (int i = 0; i < 64; ++i) f[i] = (float)((i * 37) % 23) - 11.0f;
    int16_t* h = (int16_t*)(x + 256);
    for (int i = 0; i < 128; ++i) h[i] = (int16_t)((i * 91) % 50 - 25);
    x[4129] = 1;
    for (int i = 0; i < 8; ++i) x[4416 + i] = (uint8_t)(i * 45 + 3);
    for (int i = 0; i < 128; ++i) x[4448 + i] = (uint8_t)(i % 3 == 0);
    TopkTiling tiling;
    TopKTilingFunc(*platform_ascendc::PlatformAscendCManager::GetInstance(), 32, 2, 4, 4, false,
                   TopKMode::TOPK_NORMAL, true, tiling);
    uint8_t* d[2];
    aclrtMalloc((void**)&d[0], BYTES, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&d[1], BYTES, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(d[0], BYTES, x, BYTES, ACL_MEMCPY_HOST_TO_DEVICE);
    sort_kernel<<<1, nullptr, nullptr>>>(d[0], d[1], tiling);
    return 0;
}
"""


def _x() -> np.ndarray:
    x = np.zeros(BYTES, np.uint8)
    i = np.arange(64)
    x[:256] = (((i * 37) % 23) - 11).astype(np.float32).view(np.uint8)
    j = np.arange(128)
    x[256:512] = ((j * 91) % 50 - 25).astype(np.int16).view(np.uint8)
    x[4129] = 1
    x[4416:4424] = (np.arange(8) * 45 + 3).astype(np.uint8)
    x[4448:4576] = (j % 3 == 0).astype(np.uint8)
    return x


def sort_kernel(x, out):
    pipe = TPipe()
    work, tmpBuf = TBuf(TPosition.VECCALC), TBuf(TPosition.VECCALC)
    pipe.InitBuffer(work, BYTES)
    pipe.InitBuffer(tmpBuf, TMP)
    xg, og = GlobalTensor(np.uint8), GlobalTensor(np.uint8)
    xg.SetGlobalBuffer(gm_cast(np.uint8, x), BYTES)
    og.SetGlobalBuffer(gm_cast(np.uint8, out), BYTES)
    w, tmp = work.Get(np.uint8), tmpBuf.Get(np.uint8)
    DataCopy(w, xg, BYTES)
    PipeBarrier[PipeType.PIPE_ALL]()
    v = lambda off, dt: w[off].ReinterpretCast(dt)        # noqa: E731
    f, u32, i32, i16 = v(0, np.float32), np.uint32, np.int32, np.int16
    SO.Sort(v(512, i16), v(768, u32), v(256, i16), 64, config=SO.SortConfig(SO.SortType.RADIX_SORT, True))
    SO.Sort(v(1024, np.float32), v(1280, u32), f, tmp, 64, config=SO.SortConfig(SO.SortType.MERGE_SORT, False))
    MB.CreateVecIndex(v(1536, i32), 0, 64)
    SO.Sort(v(2048, np.float32), f, v(1536, u32), v(2560, np.float32), 2, isFullSort=True)
    SO.Extract(v(3072, np.float32), v(3328, u32), v(2048, np.float32), 2)
    SO.Sort(v(2048, np.float32), f, v(1536, u32), v(2560, np.float32), 2, isFullSort=False)
    s = v(2048, np.float32)
    done = [0, 0, 0, 0]
    MB.MrgSort(v(3584, np.float32), MB.MrgSortSrcList(s, s[SO.GetSortOffset[np.float32](32)], s, s), [32, 32, 0, 0],
               done, 0b11, 1, isExhaustedSuspension=True)
    v(4096, u32).SetValue(0, done[0])
    v(4096, u32).SetValue(1, done[1])
    tiling = TK.TopKTilingFunc(None, 32, 2, 4, 4, False, TK.TopKMode.TOPK_NORMAL, True)
    finish = v(4128, np.uint8)
    TK.TopK(v(4160, np.float32), v(4224, i32), f, v(1536, i32), finish, tmp, 4, tiling, TK.TopKInfo(2, 32, 30), True,
            isHasfinish=True)
    TK.TopK(v(4288, i16), v(4352, i32), v(256, i16), v(1536, i32), finish, 3, tiling, TK.TopKInfo(4, 32, 32), True,
            topkMode=TK.TopKMode.TOPK_NSMALL,
            config=TK.TopKConfig(TK.TopKAlgo.RADIX_SELECT, TK.TopKOrder.SMALLEST, True))
    FI.DropOut(v(4608, np.float32), f, w[4416], tmp, 0.5, FI.DropOutShapeInfo(2, 32, 4))
    MB.Select(v(4864, np.float32), np.float32(7.0), f, v(4448, np.uint8), tmp, FI.SelectWithBytesMaskShapeInfo(2, 32, 64))
    PipeBarrier[PipeType.PIPE_ALL]()
    DataCopy(og, w, BYTES)


@pytest.fixture(scope="module")
def both(tmp_path_factory):
    asc, py, gm = both_routes(tmp_path_factory.mktemp("hlsort"), PROGRAM, _x(), BYTES, sort_kernel)
    assert not py.diagnostics.codes()
    return asc, py, gm


@needs_compiler
def test_same_bytes_and_the_results_hold(both):
    asc, _, gm = both
    buf = gm[1].buf
    assert output_bytes(asc)["out"] == buf.data[buf.writer >= 0].tobytes()
    y, x = buf.data, _x()
    xf = x[:256].view(np.float32)
    h = x[256:512].view(np.int16)
    order = np.array(sorted(range(64), key=lambda k: -int(h[k])))
    np.testing.assert_array_equal(y[768:1024].view(np.uint32), order)
    np.testing.assert_array_equal(y[1024:1280].view(np.float32), np.sort(xf, kind="stable"))
    np.testing.assert_array_equal(y[3072:3328].view(np.float32), -np.sort(-xf, kind="stable"))
    assert max(y[4096:4104].view(np.uint32)) == 32                                # suspended: one queue used up
    idx = y[4224:4288].view(np.int32).reshape(2, 8)[:, :4]                        # rows of kpad_index 8
    np.testing.assert_array_equal(idx[1], [30] * 4)                               # the finish row: index n
    np.testing.assert_array_equal(idx[0], sorted(range(30), key=lambda k: -xf[k])[:4])


@needs_compiler
def test_same_event_stream(both):
    asc, py, _ = both
    assert_same_event_stream(asc, py, "Sort.tmp")
