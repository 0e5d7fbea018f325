"""The calls of the quantization pages' examples (调用示例), as the pages write them, compile against our
headers (syntax only: g++ -fsyntax-only) and pick the intended overloads: variables of the types the examples
declare, the configs as the examples spell them (constexpr static objects, brace lists)."""
from __future__ import annotations

import subprocess

from tests.asc_support import needs_compiler
from toolkit.asc.build import find_compiler
from toolkit.asc.headers import INCLUDE

CALLS = r"""
#include "kernel_operator.h"
using namespace AscendC;
using srcType = half;
using dstType = int8_t;
using scaleType = float;
constexpr bool has_offset = true, has_transpose = false;
void quant_calls(LocalTensor<int8_t> dstLocal, LocalTensor<half> srcLocal, LocalTensor<uint8_t> sharedTmpBuffer,
                 LocalTensor<half> scaleLocal, LocalTensor<half> offsetLocal, LocalTensor<float> tokScale,
                 LocalTensor<float> tokOffset, uint32_t m, uint32_t n, uint32_t calCount)
{
    const float scale = 0.02;
    const float offset = 0.9;
    AscendC::AscendQuant<srcType>(dstLocal, srcLocal, sharedTmpBuffer, scale, offset, calCount);
    AscendC::AscendQuant<dstType, srcType>(dstLocal, srcLocal, scale, offset, calCount);
    uint32_t scaleCount = 64, offsetCount = 64;
    AscendC::AscendQuant<srcType>(
        dstLocal, srcLocal, sharedTmpBuffer, scaleLocal, offsetLocal, scaleCount, offsetCount, calCount);
    AscendC::AscendQuant<dstType, srcType>(dstLocal, srcLocal, scaleLocal, offsetLocal, scaleCount, offsetCount,
                                           calCount);
    AscendC::AscendQuant(dstLocal, srcLocal, scaleLocal, (half)1.0f);
    constexpr static bool isReuseSource = false;
    constexpr static AscendQuantConfig config = {has_offset, 1};
    constexpr static AscendQuantConfig configRound = {has_offset, 1, RoundMode::CAST_ROUND};
    constexpr static AscendQuantPolicy policy = AscendQuantPolicy::PER_TOKEN;
    AscendQuantParam para;
    para.m = m;
    para.n = n;
    para.calCount = calCount;
    AscendQuant<dstType, srcType, scaleType, isReuseSource, config, policy>(
        dstLocal, srcLocal, sharedTmpBuffer, tokScale, tokOffset, para);
    AscendQuant<dstType, srcType, scaleType, isReuseSource, configRound, policy>(
        dstLocal, srcLocal, sharedTmpBuffer, tokScale, tokOffset, para);
    constexpr static QuantizePolicy tokenPolicy = QuantizePolicy::PER_TOKEN;
    constexpr static QuantizePolicy tensorPolicy = QuantizePolicy::PER_TENSOR;
    constexpr static QuantizeConfig qconfig = {tokenPolicy, true, RoundMode::CAST_ROUND, 1};
    QuantizeParams params;
    params.m = m;
    params.n = n;
    params.groupSize = n;
    Quantize<qconfig>(dstLocal, srcLocal, scaleLocal, offsetLocal, params);
    constexpr static QuantizeConfig tconfig = {tensorPolicy, true, RoundMode::CAST_ROUND, -1};
    half hs = 1.0f, ho = 0.0f;
    Quantize<tconfig>(dstLocal, srcLocal, hs, ho, params);
    Quantize<tconfig>(dstLocal, srcLocal, sharedTmpBuffer, hs, ho, params);
}
void dequant_calls(LocalTensor<float> dstLocal, LocalTensor<int32_t> srcLocal, LocalTensor<float> deqScaleLocal,
                   LocalTensor<uint8_t> sharedTmpBuffer, LocalTensor<float> offsetLocal, LocalTensor<half> halfDst,
                   LocalTensor<uint64_t> u64Scale, uint32_t calCountAll)
{
    uint32_t m = 4;
    uint32_t n = 8;
    uint32_t calCount = 6;
    AscendC::AscendDequant(dstLocal, srcLocal, deqScaleLocal, sharedTmpBuffer, {m, n, calCount});
    AscendC::AscendDequant(dstLocal, srcLocal, deqScaleLocal, {m, n, calCount});
    AscendC::AscendDequant(dstLocal, srcLocal, static_cast<float>(2.2), sharedTmpBuffer, {m, n, calCount});
    AscendC::AscendDequant(dstLocal, srcLocal, static_cast<float>(2.2), {m, n, calCount});
    AscendC::AscendDequant<half, uint64_t, DeQuantMode::DEQUANT_WITH_MULTI_ROW>(halfDst, srcLocal, u64Scale,
                                                                               {m, n, calCount});
    AscendC::AscendDequant(dstLocal, srcLocal, deqScaleLocal, sharedTmpBuffer, calCountAll);
    AscendC::AscendDequant(dstLocal, srcLocal, deqScaleLocal, calCountAll);
    AscendC::AscendDequant(dstLocal, srcLocal, deqScaleLocal);
    constexpr static AscendDeQuantConfig config = {has_offset, -1};
    constexpr static AscendDeQuantPolicy policy = AscendDeQuantPolicy::PER_TOKEN;
    AscendDeQuantParam para;
    para.m = m;
    para.n = n;
    para.calCount = calCount;
    AscendDequant<float, int32_t, float, config, policy>(dstLocal, srcLocal, deqScaleLocal, offsetLocal, para);
    constexpr static DequantizePolicy channelPolicy = DequantizePolicy::PER_CHANNEL;
    constexpr static DequantizePolicy tensorPolicy = DequantizePolicy::PER_TENSOR;
    constexpr static DequantizeConfig dconfig = {channelPolicy, false, 1};
    DequantizeParams params;
    params.m = m;
    params.n = n;
    params.groupSize = n;
    Dequantize<dconfig>(dstLocal, srcLocal, deqScaleLocal, offsetLocal, params);
    constexpr static DequantizeConfig tconfig = {tensorPolicy, false, -1};
    float scale = 1.0f, offset = 0.0f;
    Dequantize<tconfig>(dstLocal, srcLocal, scale, offset, params);
    Dequantize<tconfig>(dstLocal, srcLocal, scale, offset, sharedTmpBuffer, params);
}
void antiquant_calls(LocalTensor<half> dstLocal, LocalTensor<int8_t> srcLocal, LocalTensor<half> offsetLocal,
                     LocalTensor<half> scaleLocal, LocalTensor<uint8_t> sharedTmpBuffer, LocalTensor<float> tokScale,
                     LocalTensor<float> tokOffset, uint32_t k, uint32_t elementCountOfOffset, uint32_t m, uint32_t n,
                     uint32_t calCount)
{
    using InputType = int8_t;
    using OutType = half;
    AscendC::AntiQuantShapeInfo shapeInfo = {1, elementCountOfOffset, 1, elementCountOfOffset};
    AscendC::AscendAntiQuant<InputType, OutType, false>(
        dstLocal, srcLocal, offsetLocal, scaleLocal, sharedTmpBuffer, k, shapeInfo);
    AscendC::AscendAntiQuant<InputType, OutType, true>(dstLocal, srcLocal, scaleLocal, sharedTmpBuffer, k);
    AscendC::AscendAntiQuant<InputType, OutType, false>(dstLocal, srcLocal, (half)1.0f, (half)2.0f, k);
    AscendC::AscendAntiQuant<InputType, OutType, false>(dstLocal, srcLocal, (half)2.0f, sharedTmpBuffer, k);
    constexpr static AscendAntiQuantConfig config = {has_offset, has_transpose, -1};
    constexpr static AscendAntiQuantPolicy policy = AscendAntiQuantPolicy::PER_TOKEN;
    AscendAntiQuantParam para;
    para.m = m;
    para.n = n;
    para.calCount = calCount;
    AscendAntiQuant<half, int8_t, float, config, policy>(dstLocal, srcLocal, tokScale, tokOffset, para);
    constexpr static AntiQuantizePolicy tokenPolicy = AntiQuantizePolicy::PER_TOKEN;
    constexpr static AntiQuantizePolicy tensorPolicy = AntiQuantizePolicy::PER_TENSOR;
    constexpr static AntiQuantizeConfig aconfig = {tokenPolicy, true, 1};
    AntiQuantizeParams params;
    params.m = m;
    params.n = n;
    params.groupSize = n;
    AntiQuantize<aconfig>(dstLocal, srcLocal, scaleLocal, offsetLocal, params);
    constexpr static AntiQuantizeConfig tconfig = {tensorPolicy, true, -1};
    half scale = 1.0f, offset = 0.0f;
    AntiQuantize<tconfig>(dstLocal, srcLocal, scale, offset, params);
}
void host_calls()
{
    uint32_t maxValue = 0, minValue = 0, live = 0, extra = 0;
    std::vector<int64_t> dims = {8, 64};
    AscendC::TensorShape srcShape(dims), scaleShape(std::vector<int64_t>{1, 64});
    AscendC::GetAscendQuantMaxMinTmpSize(srcShape, 2, maxValue, minValue);
    AscendC::GetAscendQuantTmpBufferFactorSize(live, extra);
    AscendC::GetAscendDequantMaxMinTmpSize(srcShape, 4, maxValue, minValue);
    AscendC::GetAscendDequantTmpBufferFactorSize(srcShape, live, extra);
    AscendC::GetAscendAntiQuantMaxMinTmpSize(srcShape, scaleShape, false, AscendC::TensorDataType::DT_INT8,
                                             AscendC::TensorDataType::DT_FLOAT16, maxValue, minValue);
    (void)AscendC::GetAscendAntiQuantMaxTmpSize(srcShape, scaleShape, false, AscendC::TensorDataType::DT_INT8,
                                                AscendC::TensorDataType::DT_FLOAT16);
    (void)AscendC::GetAscendAntiQuantMinTmpSize(srcShape, scaleShape, false, AscendC::TensorDataType::DT_INT8,
                                                AscendC::TensorDataType::DT_FLOAT16);
    AscendC::GetAscendAntiQuantTmpBufferFactorSize(srcShape, scaleShape, false, AscendC::TensorDataType::DT_INT8,
                                                   AscendC::TensorDataType::DT_FLOAT16, live, extra);
    AscendC::GetQuantizeMaxMinTmpSize(srcShape, 2, maxValue, minValue);
    AscendC::GetQuantizeTmpBufferFactorSize(live, extra);
    AscendC::GetDequantizeMaxMinTmpSize(srcShape, 4, maxValue, minValue);
    AscendC::GetDequantizeTmpBufferFactorSize(srcShape, live, extra);
    AscendC::GetAntiQuantizeMaxMinTmpSize(srcShape, scaleShape, false, AscendC::TensorDataType::DT_INT8,
                                          AscendC::TensorDataType::DT_FLOAT16, maxValue, minValue);
    AscendC::GetAntiQuantizeTmpBufferFactorSize(srcShape, scaleShape, AscendC::TensorDataType::DT_INT8,
                                                AscendC::TensorDataType::DT_FLOAT16, live, extra);
}
"""


@needs_compiler
def test_the_pages_example_calls_compile(tmp_path):
    src = tmp_path / "quant_calls.cpp"
    src.write_text(CALLS)
    cmd = [*find_compiler(), "-std=c++20", "-fsyntax-only", f"-I{INCLUDE}", str(src)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-4000:]
