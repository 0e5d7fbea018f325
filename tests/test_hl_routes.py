"""The high-level APIs on both routes: one .asc kernel calls SoftMax (framework and shared buffers), Gelu,
RmsNorm, the [A, R] LayerNorm with a config (no beta), SoftmaxFlashV2 without broadcast (a config mode) and
WelfordFinalize with counts, with tilings from the host helpers; its Python twin calls the same functions.
Both must write the same bytes and leave the same event stream (UB plan rows of the framework buffers
included): one implementation behind both."""
from __future__ import annotations

import numpy as np
import pytest

from tests.asc_support import (
    assert_same_event_stream,
    both_routes,
    needs_compiler,
    output_bytes,
)
from toolkit.ascendc import membase as MB
from toolkit.ascendc.dma import DataCopyExtParams, DataCopyPad, DataCopyPadExtParams
from toolkit.ascendc.highlevel import activation as A
from toolkit.ascendc.highlevel import norm_grad as NG
from toolkit.ascendc.highlevel import normalization as NM
from toolkit.ascendc.highlevel import softmax as S
from toolkit.ascendc.highlevel import softmax_flash as F
from toolkit.ascendc.highlevel.shape import TensorShape
from toolkit.ascendc.pipe import TBuf, TPipe, TPosition
from toolkit.ascendc.sync import PipeBarrier, PipeType
from toolkit.ascendc.tensor import GlobalTensor, gm_cast

M, K = 4, 64
N = M * K
OUT = 2048

PROGRAM = r"""
#include "acl/acl.h"
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t M = 4, K = 64, N = M * K, OUT = 2048;
static constexpr SoftmaxConfig kNoBrc = {true, 0, 0, SoftmaxMode::SOFTMAX_OUTPUT_WITHOUT_BRC};
static constexpr LayerNormConfig kNoBeta = {true, false, false, true};

struct Tilings { SoftMaxTiling sm; RmsNormTiling rms; LayerNormSeparateTiling sep; uint32_t tmp; };

extern "C" __global__ __aicore__ void hl_kernel(GM_ADDR x, GM_ADDR out, Tilings t)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> work, tmpBuf;
    pipe.InitBuffer(work, OUT * sizeof(float));
    pipe.InitBuffer(tmpBuf, t.tmp);
    GlobalTensor<float> xg, og;
    xg.SetGlobalBuffer((__gm__ float*)x, N);
    og.SetGlobalBuffer((__gm__ float*)out, OUT);
    LocalTensor<float> w = work.Get<float>();
    LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
    Duplicate(w, 0.0f, OUT);
    DataCopyPad(w, xg, DataCopyExtParams{1, N * 4, 0, 0, 0}, DataCopyPadExtParams<float>{false, 0, 0, 0});
    SoftMaxShapeInfo info(M, K, M, K);
    SoftMax(w[256], w[512], w[544], w, t.sm, info);
    SoftMax<float>(w[576], w, tmp, t.sm);
    Gelu(w[832], w, tmp, N);
    Duplicate(w[1088], 1.25f, K);
    RmsNorm(w[1152], w, w[1088], EPSILON, t.rms);
    LayerNormPara para(M, K, K);
    LayerNorm<float, float, false, kNoBeta>(w[1408], w[1664], w[1672], w, w[1088], w[1088], EPSILON, tmp, para, t.sep);
    SoftmaxFlashV2<float, false, false, false, false, kNoBrc>(w[1680], w[1936], w[1944], w, w[1952], w[512], w[544],
                                                               tmp, t.sm, info);
    LocalTensor<int32_t> counts = w[1960].ReinterpretCast<int32_t>();
    Duplicate(counts, (int32_t)3, 8);
    WelfordFinalizePara fin{1, 8, 0, 0, 0, 0, 0.125f, 1.0f / 24, 1.0f / 23};
    WelfordFinalize(w[1968], w[1976], w, w[8], counts, tmp, fin);
    PipeBarrier<PIPE_V>();
    DataCopyPad(og, w, DataCopyExtParams{1, OUT * 4, 0, 0, 0});
}

int main()
{
    float x[N];
    for (uint32_t i = 0; i < N; ++i) x[i] = (float)((int)(i * 53 % 89) - 44) / 10.0f;
    TensorShape shape({M, K});
    Tilings t{};
    SoftMaxTilingFunc(shape, sizeof(float), GetSoftMaxMinTmpSize(shape, sizeof(float), false), t.sm);
    TensorShape bsh({1, M, K});
    GetRmsNormTilingInfo(bsh, bsh, 0, sizeof(float), t.rms);
    GetLayerNormNDTilingInfo(shape, 0, sizeof(float), false, true, t.sep);
    uint32_t maxValue = 0, minValue = 0;
    GetGeluMaxMinTmpSize(TensorShape({N}), sizeof(float), maxValue, minValue);
    t.tmp = maxValue > 4096 ? maxValue : 4096;
    uint8_t* d[2];
    aclrtMalloc((void**)&d[0], N * 4, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&d[1], OUT * 4, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(d[0], N * 4, x, N * 4, ACL_MEMCPY_HOST_TO_DEVICE);
    hl_kernel<<<1, nullptr, nullptr>>>(d[0], d[1], t);
    return 0;
}
""".replace("EPSILON", "1e-5f")


def _x() -> np.ndarray:
    i = np.arange(N)
    return ((((i * 53) % 89) - 44).astype(np.float32) / np.float32(10))


def _tilings():
    shape = TensorShape([M, K])
    sm = S.SoftMaxTilingFunc(shape, 4, S.GetSoftMaxMinTmpSize(shape, 4, False))
    bsh = TensorShape([1, M, K])
    rms = NM.GetRmsNormTilingInfo(bsh, bsh, 0, 4)
    sep = NM.GetLayerNormNDTilingInfo(shape, 0, 4, False, True)
    return sm, rms, sep, 4096


def hl_kernel(x, out, tilings):
    sm, rms, sep, tmp_bytes = tilings
    pipe = TPipe()
    work, tmpBuf = TBuf(TPosition.VECCALC), TBuf(TPosition.VECCALC)
    pipe.InitBuffer(work, OUT * 4)
    pipe.InitBuffer(tmpBuf, tmp_bytes)
    xg, og = GlobalTensor(float), GlobalTensor(float)
    xg.SetGlobalBuffer(gm_cast(float, x), N)
    og.SetGlobalBuffer(gm_cast(float, out), OUT)
    w = work.Get(float)
    tmp = tmpBuf.Get(np.uint8)
    MB.Duplicate(w, 0.0, OUT)
    DataCopyPad(w, xg, DataCopyExtParams(1, N * 4, 0, 0, 0), DataCopyPadExtParams(False, 0, 0, 0))
    info = S.SoftMaxShapeInfo(M, K, M, K)
    S.SoftMax(w[256], w[512], w[544], w, sm, info)
    S.SoftMax(w[576], w, tmp, sm)
    A.Gelu(w[832], w, tmp, N)
    MB.Duplicate(w[1088], 1.25, K)
    NM.RmsNorm(w[1152], w, w[1088], 1e-5, rms)
    NM.LayerNorm(w[1408], w[1664], w[1672], w, w[1088], w[1088], 1e-5, tmp, NM.LayerNormPara(M, K, K), sep, config=9)
    F.SoftmaxFlashV2(w[1680], w[1936], w[1944], w, w[1952], w[512], w[544], tmp, sm, info, config=1)
    counts = w[1960].ReinterpretCast(np.int32)
    MB.Duplicate(counts, 3, 8)
    fin = NG.WelfordFinalizePara(1, 8, 0, 0, 0, 0, 0.125, 1.0 / 24, 1.0 / 23)
    NG.WelfordFinalize(w[1968], w[1976], w, w[8], counts, tmp, fin)
    PipeBarrier[PipeType.PIPE_V]()
    DataCopyPad(og, w, DataCopyExtParams(1, OUT * 4, 0, 0, 0))


@pytest.fixture(scope="module")
def both(tmp_path_factory):
    asc, py, gm = both_routes(tmp_path_factory.mktemp("hl"), PROGRAM, _x(), OUT * 4,
                              lambda x, out: hl_kernel(x, out, _tilings()))
    return asc, py, gm


@needs_compiler
def test_same_bytes_and_the_configs_took_effect(both):
    asc, _, gm = both
    buf = gm[1].buf
    assert output_bytes(asc)["out"] == buf.data[buf.writer >= 0].tobytes()
    w = buf.data.view(np.float32)
    x = _x().astype(np.float64).reshape(M, K)
    r = (x - x.mean(1, keepdims=True)) / np.sqrt(x.var(1, keepdims=True) + 1e-5) * 1.25     # no beta
    np.testing.assert_allclose(w[1408:1664].reshape(M, K), r, rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(w[1944:1948], x.max(1).astype(np.float32))              # one max per row
    np.testing.assert_allclose(w[1968], (3 * x.ravel()[:8]).sum() / 24, rtol=1e-6)


@needs_compiler
def test_same_event_stream(both):
    asc, py, _ = both
    assert_same_event_stream(asc, py, "SoftMax.tmp")
