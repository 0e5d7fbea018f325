"""The high-level tensor transforms on both routes: one .asc kernel calls Broadcast (the [dim, axis] form and
the rank-3 form), Pad, UnPad, TransData and the high-level Transpose, with tilings from the host helpers;
its Python twin calls the same functions. Both must write the same bytes and leave the same event stream
(the framework buffers' UB plan rows included). And the calls of the pages' examples, as written, compile."""
from __future__ import annotations

import subprocess

import numpy as np
import pytest

from tests.asc_support import assert_same_event_stream, both_routes, needs_compiler, output_bytes
from toolkit.asc.build import find_compiler
from toolkit.asc.headers import INCLUDE
from toolkit.ascendc import membase as MB
from toolkit.ascendc.dma import DataCopyExtParams, DataCopyPad, DataCopyPadExtParams
from toolkit.ascendc.dtypes import uint32_t
from toolkit.ascendc.highlevel import transform as TR
from toolkit.ascendc.highlevel import transform_layout as TL
from toolkit.ascendc.highlevel.shape import TensorShape
from toolkit.ascendc.pipe import TBuf, TPipe, TPosition
from toolkit.ascendc.sync import PipeBarrier, PipeType
from toolkit.ascendc.sysenums import DataFormat
from toolkit.ascendc.tensor import GlobalTensor, gm_cast
from toolkit.engine.launch import gm_alloc, launch

N, OUT, TMP = 1024, 2048, 2048

PROGRAM = r"""
#include "acl/acl.h"
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t N = 1024, OUT = 2048;
static constexpr TransDataConfig kTo5hd = {DataFormat::NCDHW, DataFormat::NDC1HWC0};
struct Tilings { PadTiling pad; UnPadTiling unpad; ConfusionTransposeTiling tr; uint32_t tmp; };

extern "C" __global__ __aicore__ void tr_kernel(GM_ADDR x, GM_ADDR out, Tilings t)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> bi, work, tmpBuf;
    pipe.InitBuffer(bi, N * sizeof(half));
    pipe.InitBuffer(work, OUT * sizeof(half));
    pipe.InitBuffer(tmpBuf, t.tmp);
    GlobalTensor<half> xg, og;
    xg.SetGlobalBuffer((__gm__ half*)x, N);
    og.SetGlobalBuffer((__gm__ half*)out, OUT);
    LocalTensor<half> v = bi.Get<half>();
    LocalTensor<half> w = work.Get<half>();
    LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
    Duplicate(w, (half)0, OUT);
    DataCopyPad(v, xg, DataCopyExtParams{1, N * 2, 0, 0, 0}, DataCopyPadExtParams<half>{false, 0, 0, 0});
    const uint32_t s2[2] = {8, 1}, d2[2] = {8, 13};
    Broadcast<half, 2, 1>(w, v, d2, s2, tmp);
    const uint32_t s3[3] = {2, 1, 3}, d3[3] = {2, 5, 3};
    BroadcastTiling bt;
    GetBroadcastTilingInfo<half>(3, d3, s3, false, bt);
    Broadcast(w[112], v, d3, s3, &bt);
    PadParams pp{2, 1, 9};
    Pad(w[144], v, pp, t.pad);
    UnPadParams up{0, 3};
    UnPad(w[400], v, up, tmp, t.unpad);
    Layout src = MakeLayout(MakeShape(1, 20, 1, 1, 3), MakeStride());
    Layout dst = MakeLayout(MakeShape(1, 1, 2, 1, 3, 16), MakeStride());
    TransDataParams<decltype(src), decltype(dst)> params = {src, dst};
    TransData<kTo5hd>(w[624], v, params);
    Transpose(w[736], v, TransposeType::TRANSPOSE_ND2ND_102, t.tr);
    PipeBarrier<PIPE_V>();
    DataCopyPad(og, w, DataCopyExtParams{1, OUT * 2, 0, 0, 0});
}

int main()
{
    half x[N];
    for (uint32_t i = 0; i < N; ++i) x[i] = (half)(float)((int)(i * 29 % 211) - 100);
    Tilings t{};
    uint32_t maxValue = 0, minValue = 0;
    GetPadMaxMinTmpSize(TensorShape({16, 13}), 2, maxValue, minValue);
    PadTilingFunc(TensorShape({16, 13}), TensorShape({16, 13}), minValue, 2, t.pad);
    UnPadTilingFunc(TensorShape({14, 16}), 0, 2, t.unpad);
    GetTransposeTilingInfo(TensorShape({4, 6, 10}), 0, 2, 14, t.tr);
    t.tmp = minValue > 1024 ? minValue : 1024;
    uint8_t* d[2];
    aclrtMalloc((void**)&d[0], N * 2, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&d[1], OUT * 2, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(d[0], N * 2, x, N * 2, ACL_MEMCPY_HOST_TO_DEVICE);
    tr_kernel<<<1, nullptr, nullptr>>>(d[0], d[1], t);
    return 0;
}
"""


def _x() -> np.ndarray:
    i = np.arange(N)
    return ((i * 29) % 211 - 100).astype(np.float16)


def _tilings():
    mx, mn = uint32_t(0), uint32_t(0)
    TR.GetPadMaxMinTmpSize(TensorShape([16, 13]), 2, mx, mn)
    pad = TR.PadTilingFunc(TensorShape([16, 13]), TensorShape([16, 13]), mn.value, 2)
    unpad = TR.UnPadTilingFunc(TensorShape([14, 16]), 0, 2)
    tr = TL.GetTransposeTilingInfo(TensorShape([4, 6, 10]), 0, 2, 14)
    return pad, unpad, tr, max(mn.value, 1024)


def tr_kernel(x, out, tilings):
    pad, unpad, tr, tmp_bytes = tilings
    pipe = TPipe()
    bi, work, tmpBuf = TBuf(TPosition.VECCALC), TBuf(TPosition.VECCALC), TBuf(TPosition.VECCALC)
    pipe.InitBuffer(bi, N * 2)
    pipe.InitBuffer(work, OUT * 2)
    pipe.InitBuffer(tmpBuf, tmp_bytes)
    xg, og = GlobalTensor(np.float16), GlobalTensor(np.float16)
    xg.SetGlobalBuffer(gm_cast(np.float16, x), N)
    og.SetGlobalBuffer(gm_cast(np.float16, out), OUT)
    v, w, tmp = bi.Get(np.float16), work.Get(np.float16), tmpBuf.Get(np.uint8)
    MB.Duplicate(w, 0.0, OUT)
    DataCopyPad(v, xg, DataCopyExtParams(1, N * 2, 0, 0, 0), DataCopyPadExtParams(False, 0, 0, 0))
    TR.Broadcast[np.float16, 2, 1](w, v, [8, 13], [8, 1], tmp)
    bt = TR.GetBroadcastTilingInfo(3, [2, 5, 3], [2, 1, 3], False)
    TR.Broadcast(w[112], v, [2, 5, 3], [2, 1, 3], bt)
    TR.Pad(w[144], v, TR.PadParams(2, 1, 9), pad)
    TR.UnPad(w[400], v, TR.UnPadParams(0, 3), tmp, unpad)
    cfg = TL.TransDataConfig(DataFormat.NCDHW, DataFormat.NDC1HWC0)
    TL.TransData[cfg](w[624], v, TL.TransDataParams([1, 20, 1, 1, 3], [1, 1, 2, 1, 3, 16]))
    MB.Transpose(w[736], v, MB.TransposeType.TRANSPOSE_ND2ND_102, tr)
    PipeBarrier[PipeType.PIPE_V]()
    DataCopyPad(og, w, DataCopyExtParams(1, OUT * 2, 0, 0, 0))


@pytest.fixture(scope="module")
def both(tmp_path_factory):
    asc, py, gm = both_routes(tmp_path_factory.mktemp("hltr"), PROGRAM, _x(), OUT * 2,
                              lambda x, out: tr_kernel(x, out, _tilings()))
    return asc, py, gm


@needs_compiler
def test_same_bytes_and_the_results(both):
    asc, py, gm = both
    assert not [d.code for d in py.diagnostics]
    buf = gm[1].buf
    assert output_bytes(asc)["out"] == buf.data[buf.writer >= 0].tobytes()
    w, x = buf.data.view(np.float16), _x()
    np.testing.assert_array_equal(w[:104].reshape(8, 13), np.broadcast_to(x[:8, None], (8, 13)))
    np.testing.assert_array_equal(w[112:142].reshape(2, 5, 3), np.broadcast_to(x[:6].reshape(2, 1, 3), (2, 5, 3)))
    np.testing.assert_array_equal(w[144:400].reshape(16, 16), np.pad(x[:208].reshape(16, 13), ((0, 0), (2, 1)),
                                                                     constant_values=9))
    np.testing.assert_array_equal(w[400:582].reshape(14, 13), x[:224].reshape(14, 16)[:, :13])
    c5 = np.zeros((32, 3), np.float16)
    c5[:20] = x[:320].reshape(20, 16)[:, :3]
    np.testing.assert_array_equal(w[624:720].reshape(2, 3, 16), c5.reshape(2, 16, 3).transpose(0, 2, 1))
    np.testing.assert_array_equal(w[736:976].reshape(6, 4, 10), x[:240].reshape(4, 6, 10).transpose(1, 0, 2))


@needs_compiler
def test_same_event_stream(both):
    asc, py, _ = both
    assert_same_event_stream(asc, py, "Pad.tmp")


PAGE_CALLS = r"""
#include "kernel_operator.h"
using namespace AscendC;
struct TilingData { PadTiling padTilingData; UnPadTiling unpadTilingData; };
class KernelTranspose {
public:
    ConfusionTransposeTiling tiling;
    void Run(LocalTensor<half> dst, LocalTensor<half> src)
    {
        AscendC::Transpose(dst, src, AscendC::TransposeType::TRANSPOSE_NZ2ND_0213, this->tiling);
    }
};
void page_calls(LocalTensor<float> dstLocal, LocalTensor<float> srcLocal, LocalTensor<half> hDst,
                LocalTensor<half> hSrc, LocalTensor<uint8_t> tmp, GlobalTensor<float> zGm, TilingData tilingData)
{
    const uint32_t srcShape[2] = {16, 1};
    const uint32_t dstShape[2] = {16, 16};
    AscendC::Broadcast<float, 2, 1>(dstLocal, srcLocal, dstShape, srcShape);
    AscendC::PadParams padParams{0, 1, 321};
    AscendC::Pad(hDst, hSrc, padParams, tilingData.padTilingData);
    AscendC::UnPadParams unPadParams{0, 1};
    AscendC::UnPad(hDst, hSrc, unPadParams, tilingData.unpadTilingData);
    AscendC::Layout ncdhwLayout = AscendC::MakeLayout(AscendC::MakeShape(1, 32, 2, 2, 8), AscendC::MakeStride());
    AscendC::Layout ndc1hwc0Layout = AscendC::MakeLayout(AscendC::MakeShape(1, 2, 2, 2, 8, 16), AscendC::MakeStride());
    static constexpr AscendC::TransDataConfig config = {DataFormat::NCDHW, DataFormat::NDC1HWC0};
    AscendC::TransDataParams<decltype(ncdhwLayout), decltype(ndc1hwc0Layout)> params = {ncdhwLayout, ndc1hwc0Layout};
    AscendC::TransData<config>(hDst, hSrc, tmp, params);
    constexpr int32_t INIT_SIZE = 65536;
    AscendC::Fill(zGm, INIT_SIZE, (float)(AscendC::GetBlockIdx()));
}
void host_calls()
{
    auto ascendcPlatform = *platform_ascendc::PlatformAscendCManager::GetInstance();
    std::vector<int64_t> srcShapeVec = {1024, 1};
    std::vector<int64_t> dstShapeVec = {1024, 16};
    AscendC::TensorShape srcShape(srcShapeVec);
    AscendC::TensorShape dstShape(dstShapeVec);
    uint32_t maxValue{0};
    uint32_t minValue{0};
    AscendC::GetBroadCastMaxMinTmpSize(ascendcPlatform, srcShape, dstShape, 2, false, maxValue, minValue);
    std::vector<int64_t> shapeVec = {320, 63};
    AscendC::TensorShape padShape(shapeVec);
    AscendC::GetPadMaxMinTmpSize(padShape, sizeof(half), maxValue, minValue);
    optiling::PadTiling padTiling;
    AscendC::PadTilingFunc(padShape, padShape, minValue, sizeof(half), padTiling);
    AscendC::GetUnPadMaxMinTmpSize(ascendcPlatform, padShape, sizeof(half), maxValue, minValue);
    optiling::UnPadTiling unpadTiling;
    AscendC::UnPadTilingFunc(padShape, minValue, sizeof(half), unpadTiling);
    AscendC::TensorShape tShape(std::vector<int64_t>{1, 2, 64, 32});
    uint32_t transposeTypeIn = 1;
    AscendC::GetTransposeMaxMinTmpSize(tShape, sizeof(half), transposeTypeIn, maxValue, minValue);
    optiling::ConfusionTransposeTiling ct;
    AscendC::GetTransposeTilingInfo(tShape, minValue, sizeof(half), transposeTypeIn, ct);
    AscendC::GetConfusionTransposeTilingInfo(tShape, minValue, sizeof(half), transposeTypeIn, ct);
    AscendC::GetConfusionTransposeMaxMinTmpSize(tShape, sizeof(half), transposeTypeIn, maxValue, minValue);
    AscendC::GetConfusionTransposeOnlyTilingInfo(tShape, minValue, sizeof(half), ct);
    uint32_t maxSize, minSize;
    int32_t n = 1, c = 16, d = 2, h = 4, w = 4, c1 = 1, c0 = 16;
    auto ncdhwShape = AscendC::TensorShape({n, c, d, h, w});
    auto ndc1hwc0Shape = AscendC::TensorShape({n, d, c1, h, w, c0});
    TransDataConfig config = {DataFormat::NCDHW, DataFormat::NDC1HWC0};
    bool ret = GetTransDataMaxMinTmpSize(ascendcPlatform, ncdhwShape, ndc1hwc0Shape,
                                         AscendC::TensorDataType::DT_FLOAT16, config, maxSize, minSize);
    (void)ret;
}
"""


@needs_compiler
def test_the_pages_example_calls_compile(tmp_path):
    src = tmp_path / "calls.cpp"
    src.write_text(PAGE_CALLS)
    cmd = [*find_compiler(), "-std=c++20", "-fsyntax-only", f"-I{INCLUDE}", str(src)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-4000:]


def _mc_kernel(x, out, z):
    """Every transform on two cores in lock-step (the MemBase calls inside run batched across cores)."""
    from toolkit.ascendc.system import GetBlockIdx
    n, o = 512, 1344
    pipe = TPipe()
    bi, bo, tb = TBuf(TPosition.VECCALC), TBuf(TPosition.VECCALC), TBuf(TPosition.VECCALC)
    pipe.InitBuffer(bi, n * 2)
    pipe.InitBuffer(bo, o * 2)
    pipe.InitBuffer(tb, 4096)
    core = int(GetBlockIdx())
    xg, og, zg = GlobalTensor(np.float16), GlobalTensor(np.float16), GlobalTensor(np.float16)
    xg.SetGlobalBuffer(gm_cast(np.float16, x) + core * n, n)
    og.SetGlobalBuffer(gm_cast(np.float16, out) + core * o, o)
    zg.SetGlobalBuffer(gm_cast(np.float16, z) + core * 100, 100)
    v, w, t = bi.Get(np.float16), bo.Get(np.float16), tb.Get(np.uint8)
    MB.Duplicate(w, 0.0, o)
    DataCopyPad(v, xg, DataCopyExtParams(1, n * 2, 0, 0, 0), DataCopyPadExtParams(False, 0, 0, 0))
    TR.Broadcast[np.float16, 2, 1](w, v, [8, 13], [8, 1], t)
    TR.Broadcast[np.float16, 2, 0](w[112], v, [3, 16], [1, 16], t)
    TR.Pad(w[160], v, TR.PadParams(1, 1, 5), t, TR.PadTilingFunc(TensorShape([16, 14]), TensorShape([16, 14]), 0, 2))
    TR.UnPad(w[416], v, TR.UnPadParams(0, 2), t, TR.UnPadTilingFunc(TensorShape([8, 16]), 0, 2))
    TL.TransData[TL.TransDataConfig(DataFormat.NCDHW, DataFormat.NDC1HWC0)](
        w[528], v, t, TL.TransDataParams([1, 20, 1, 1, 3], [1, 1, 2, 1, 3, 16]))
    MB.Transpose(w[640], v, t, MB.TransposeType.TRANSPOSE_ND2ND_021,
                 TL.GetTransposeTilingInfo(TensorShape([3, 5, 9]), 0, 2, 13))
    MB.Transpose(w[800], v, MB.TransposeType.TRANSPOSE_ND2ND_ONLY, TL.GetTransposeTilingInfo(TensorShape([16, 32]),
                                                                                           0, 2, 7))
    DataCopyPad(og, w, DataCopyExtParams(1, o * 2, 0, 0, 0))
    TR.Fill(zg, 100, 2.5 + core)


def test_two_cores_in_lock_step():
    n, o = 512, 1344
    x = (np.arange(2 * n) % 251 - 100).astype(np.float16)
    gm = [gm_alloc("x", x.view(np.uint8)), gm_alloc("out", 2 * o * 2), gm_alloc("z", 200 * 2)]
    res = launch(_mc_kernel, 2, gm)
    assert not [d.code for d in res.diagnostics]
    out = gm[1].buf.data.view(np.float16).reshape(2, o)
    z = gm[2].buf.data.view(np.float16).reshape(2, 100)
    for c in range(2):
        xs, w = x[c * n:(c + 1) * n], out[c]
        np.testing.assert_array_equal(w[:104].reshape(8, 13), np.broadcast_to(xs[:8, None], (8, 13)))
        np.testing.assert_array_equal(w[112:160].reshape(3, 16), np.broadcast_to(xs[:16], (3, 16)))
        np.testing.assert_array_equal(w[160:416].reshape(16, 16),
                                      np.pad(xs[:224].reshape(16, 14), ((0, 0), (1, 1)), constant_values=5))
        np.testing.assert_array_equal(w[416:528].reshape(8, 14), xs[:128].reshape(8, 16)[:, :14])
        c5 = np.zeros((32, 3), np.float16)
        c5[:20] = xs[:320].reshape(20, 16)[:, :3]
        np.testing.assert_array_equal(w[528:624].reshape(2, 3, 16), c5.reshape(2, 16, 3).transpose(0, 2, 1))
        np.testing.assert_array_equal(w[640:775], xs[:135].reshape(3, 5, 9).transpose(0, 2, 1).ravel())
        np.testing.assert_array_equal(w[800:1312].reshape(32, 16), xs[:512].reshape(16, 32).T)
        np.testing.assert_array_equal(z[c], np.full(100, 2.5 + c, np.float16))
