"""The calls of the activation and normalization pages' examples (调用示例), as the pages write them, compile
against our headers (syntax only: g++ -fsyntax-only), with variables of the types the examples declare."""
from __future__ import annotations

import subprocess

from tests.asc_support import needs_compiler
from toolkit.asc.build import find_compiler
from toolkit.asc.headers import INCLUDE

CALLS = r"""
#include "kernel_operator.h"
using namespace AscendC;
constexpr SoftmaxConfig static_config = {true, 8, 64};
static constexpr LayerNormConfig config = {false, false, false, true};
static constexpr NormalizeConfig CONFIG = NLCFG_NORM;
static constexpr WelfordFinalizeConfig FCONFIG = {false};
template <typename T, typename U>
void page_calls(LocalTensor<T> dstLocal, LocalTensor<T> srcLocal, LocalTensor<T> src0Local, LocalTensor<T> src1Local,
                LocalTensor<T> sumTempLocal, LocalTensor<T> maxTempLocal, LocalTensor<uint8_t> sharedTmpBuffer,
                LocalTensor<U> meanLocal, LocalTensor<int32_t> counts, SoftMaxTiling softmaxTiling,
                LogSoftMaxTiling logTiling, RmsNormTiling rmsTiling, LayerNormTiling lnTiling,
                LayerNormSeparateTiling sepTiling, BatchNormTiling bnTiling, DeepNormTiling dnTiling,
                GroupNormTiling gnTiling, LayerNormGradTiling lngTiling, LayerNormGradBetaTiling lngbTiling)
{
    const bool isReuseSource = false, isBasicBlock = false, isReuseSrc = false, isFront = false;
    SoftMaxShapeInfo softmaxInfo = {8, 64, 8, 64};
    SoftMaxParams params = {8, 64, 8, 64, 2, 8, 0.9f};
    T epsilon = (T)1e-5f, alpha = (T)0.5f;
    uint32_t FROM = 0x3f800000;
    T TO = (T)0;
    SoftMax<T>(dstLocal, sumTempLocal, maxTempLocal, srcLocal, sharedTmpBuffer, softmaxTiling, softmaxInfo);
    SoftMax<T, false, false, false, static_config>(dstLocal, sumTempLocal, maxTempLocal, srcLocal, sharedTmpBuffer,
                                                  softmaxTiling, softmaxInfo);
    SoftMax<T>(dstLocal, srcLocal, sharedTmpBuffer, softmaxTiling, softmaxInfo);
    SoftMax<T>(dstLocal, sumTempLocal, maxTempLocal, srcLocal, softmaxTiling, softmaxInfo);
    SimpleSoftMax<T>(dstLocal, sumTempLocal, maxTempLocal, srcLocal, softmaxTiling, softmaxInfo);
    LogSoftMax<T, false>(dstLocal, sumTempLocal, maxTempLocal, srcLocal, sharedTmpBuffer, logTiling, softmaxInfo);
    SoftmaxGrad<T>(dstLocal, src0Local, srcLocal, sharedTmpBuffer, softmaxTiling, isFront, softmaxInfo);
    SoftmaxFlash<T, false>(srcLocal, sumTempLocal, maxTempLocal, srcLocal, src0Local, sumTempLocal, maxTempLocal,
                           softmaxTiling, false, softmaxInfo);
    SoftmaxFlashV2<T, true, false, false, false, static_config>(dstLocal, sumTempLocal, maxTempLocal, srcLocal,
        src0Local, sumTempLocal, maxTempLocal, sharedTmpBuffer, softmaxTiling, softmaxInfo);
    SoftmaxFlashV2<T, true>(dstLocal, sumTempLocal, maxTempLocal, srcLocal, src0Local, sumTempLocal, maxTempLocal,
                            softmaxTiling, softmaxInfo);
    AdjustSoftMaxRes<T, T>(srcLocal, maxTempLocal, FROM, TO, softmaxInfo);
    Gelu<T, false>(dstLocal, srcLocal, 32);
    FasterGelu<T, false, true>(dstLocal, srcLocal, 32);
    FasterGeluV2(dstLocal, srcLocal, sharedTmpBuffer, 32);
    GeGLU<T, false>(dstLocal, src0Local, src1Local, sharedTmpBuffer, 512);
    GeGLU<T, false>(dstLocal, src0Local, src1Local);
    Sigmoid(dstLocal, srcLocal);
    Sigmoid(dstLocal, srcLocal, sharedTmpBuffer, 32);
    Silu(dstLocal, srcLocal, 512);
    Swish(dstLocal, srcLocal, 512, alpha);
    SwiGLU(dstLocal, src0Local, src1Local, 1.0f, sharedTmpBuffer, 32);
    SwiGLU(dstLocal, src0Local, src1Local, 1.0f);
    ReGlu(dstLocal, src0Local, src1Local, sharedTmpBuffer, 30);
    RmsNorm<T, isBasicBlock>(dstLocal, srcLocal, src0Local, epsilon, rmsTiling);
    LayerNorm<T, false>(dstLocal, sumTempLocal, maxTempLocal, srcLocal, src0Local, src1Local, epsilon, lnTiling);
    LayerNorm<float, T, false, config>(dstLocal, meanLocal, meanLocal, srcLocal, src0Local.template ReinterpretCast<float>(),
        src1Local.template ReinterpretCast<float>(), (float)epsilon, LayerNormPara{8, 64, 64}, sepTiling);
    BatchNorm<T, isReuseSource, isBasicBlock>(dstLocal, sumTempLocal, maxTempLocal, srcLocal, src0Local, src1Local,
                                              (T)epsilon, bnTiling);
    DeepNorm<T, isReuseSrc, isBasicBlock>(dstLocal, sumTempLocal, maxTempLocal, srcLocal, src0Local, src1Local,
                                          src0Local, alpha, epsilon, dnTiling);
    GroupNorm<T, isReuseSource>(dstLocal, sumTempLocal, maxTempLocal, srcLocal, src0Local, src1Local, epsilon, gnTiling);
    LayerNormGrad<T, isReuseSource>(dstLocal, src1Local, src0Local, srcLocal, sumTempLocal, maxTempLocal, src0Local,
                                    sharedTmpBuffer, epsilon, lngTiling, {DataFormat::ND});
    LayerNormGradBeta<T, isReuseSource>(dstLocal, src1Local, src0Local, srcLocal, lngbTiling);
    Normalize<float, T, false, CONFIG>(dstLocal, meanLocal, meanLocal, meanLocal, srcLocal,
        src0Local.template ReinterpretCast<float>(), src1Local.template ReinterpretCast<float>(), (float)epsilon,
        NormalizePara{8, 64, 64});
    WelfordUpdate<T, U, false, WELFORD_UPDATE_ENABLE_INPLACE_CFG>(meanLocal, meanLocal, meanLocal, meanLocal, srcLocal,
        sharedTmpBuffer, WelfordUpdateParam{1, 64, 64, 1.0f});
    WelfordFinalizePara para{8, 64, 8, 64, 0, 0, 1.0f / 64, 1.0f / 512, 1.0f / 511};
    WelfordFinalize<false>(meanLocal, meanLocal, meanLocal, meanLocal, counts, sharedTmpBuffer, para);
    WelfordFinalize<false, FCONFIG>(meanLocal, meanLocal, meanLocal, meanLocal, sharedTmpBuffer, para);
}
template void page_calls<float, float>(LocalTensor<float>, LocalTensor<float>, LocalTensor<float>, LocalTensor<float>,
    LocalTensor<float>, LocalTensor<float>, LocalTensor<uint8_t>, LocalTensor<float>, LocalTensor<int32_t>,
    SoftMaxTiling, LogSoftMaxTiling, RmsNormTiling, LayerNormTiling, LayerNormSeparateTiling, BatchNormTiling,
    DeepNormTiling, GroupNormTiling, LayerNormGradTiling, LayerNormGradBetaTiling);

void host_calls()
{
    std::vector<int64_t> shapeVec = {320, 64};
    TensorShape srcShape(shapeVec);
    optiling::SoftMaxTiling tilingData;
    const uint32_t localWorkSpaceSize = GetSoftMaxMinTmpSize(srcShape, sizeof(half), false);
    SoftMaxTilingFunc(srcShape, sizeof(half), localWorkSpaceSize, tilingData);
    (void)IsBasicBlockInSoftMax(tilingData);
    uint32_t max = 0, min = 0, maxValue = 0, minValue = 0, maxLiveNodeCount = 0, extraBuf = 0;
    optiling::LayerNormTiling ln;
    GetLayerNormMaxMinTmpSize(srcShape, sizeof(half), false, max, min);
    GetLayerNormNDTilingInfo(srcShape, min, sizeof(half), false, ln);
    optiling::RmsNormTiling rms;
    (void)GetRmsNormMaxMinTmpSize(srcShape, sizeof(half), maxValue, minValue, false);
    (void)GetRmsNormTilingInfo(srcShape, srcShape, minValue, sizeof(half), rms, false);
    GetGeluMaxMinTmpSize(srcShape, 2, maxValue, minValue);
    GetSwiGLUMaxMinTmpSize(srcShape, 2, max, min, false);
    GetSwiGLUTmpBufferFactorSize(2, maxLiveNodeCount, extraBuf);
    optiling::GroupNormTiling gn;
    GetGroupNormMaxMinTmpSize(srcShape, sizeof(half), false, 2, max, min);
    GetGroupNormNDTilingInfo(srcShape, max, sizeof(half), false, 2, gn);
    optiling::LogSoftMaxTiling lg;
    LogSoftMaxTilingFunc(srcShape, 2, min, lg);
    (void)GetSoftMaxFlashV2MinTmpSize(srcShape, 2, 4, true, false);
    GetWelfordUpdateMaxMinTmpSize(srcShape, 4, 4, false, false, max, min);
}
"""


@needs_compiler
def test_the_pages_example_calls_compile(tmp_path):
    src = tmp_path / "calls.cpp"
    src.write_text(CALLS)
    cmd = [*find_compiler(), "-std=c++20", "-fsyntax-only", f"-I{INCLUDE}", str(src)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-4000:]
