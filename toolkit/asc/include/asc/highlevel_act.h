// The high-level activations (高阶API/激活函数): the hand-written part. TensorShape (the host helpers' shape
// argument; the bridge sends its dimensions), the SoftMax config template argument, then the generated
// wrappers (gen/hl_softmax.h, gen/hl_activation.h: each call runs toolkit/ascendc/highlevel) and the other
// names of the tiling structs (the kernel side's AscendC::SoftMaxTiling, the host side's optiling::).
#pragma once
#include <cstdint>
#include <initializer_list>
#include <vector>

#include "asc/hl_shape.h"

namespace AscendC {

enum class SoftmaxMode { SOFTMAX_NORMAL = 0, SOFTMAX_OUTPUT_WITHOUT_BRC = 1 };
// accepted: on Ascend 950 the page reserves it (the shape comes from the tiling and the shape info)
struct SoftmaxConfig {
    bool isCheckTiling = true;
    uint32_t oriSrcM = 0;
    uint32_t oriSrcK = 0;
    SoftmaxMode mode = SoftmaxMode::SOFTMAX_NORMAL;
};
constexpr SoftmaxConfig SOFTMAX_DEFAULT_CFG = {true, 0, 0, SoftmaxMode::SOFTMAX_NORMAL};
}  // namespace AscendC

#include "asc/gen/hl_softmax.h"
#include "asc/gen/hl_softmax_flash.h"
#include "asc/gen/hl_activation.h"

namespace AscendC {
// the kernel-side SoftmaxFlashV2 tiling from the shape info (the host form's numbers: one row per pass, the
// statistics in 32 B blocks of dataTypeSize2; toolkit/ascendc/highlevel/softmax.py _tiling_of)
constexpr tiling::SoftMaxTiling SoftMaxFlashV2TilingFunc(const SoftMaxShapeInfo& shapeInfo, const uint32_t dataTypeSize1,
                                                         const uint32_t dataTypeSize2, const uint32_t localWorkSpaceSize,
                                                         const bool isUpdate = false, const bool isBasicBlock = false,
                                                         const bool isDataFormatNZ = false,
                                                         const bool isFlashOutputBrc = false)
{
    tiling::SoftMaxTiling t;
    const uint32_t m = shapeInfo.srcM, k = shapeInfo.srcK, blk = 32 / (dataTypeSize2 ? dataTypeSize2 : 1);
    t.srcM = m; t.srcK = k; t.srcSize = m * k;
    t.outMaxM = m; t.outMaxK = blk; t.outMaxSize = m * blk;
    t.splitM = 1; t.splitK = k; t.splitSize = k;
    t.reduceM = 1; t.reduceK = blk; t.reduceSize = blk;
    t.rangeM = m;
    return t;
}
using SoftMaxTiling = tiling::SoftMaxTiling;
using LogSoftMaxTiling = tiling::LogSoftMaxTiling;
}  // namespace AscendC
namespace optiling {
using SoftMaxTiling = AscendC::tiling::SoftMaxTiling;
using LogSoftMaxTiling = AscendC::tiling::LogSoftMaxTiling;
}  // namespace optiling
