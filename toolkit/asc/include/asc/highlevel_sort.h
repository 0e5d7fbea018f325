// The high-level sorting and filtering (高阶API/排序操作, 高阶API/数据过滤): the hand-written part (SortConfig and
// TopKConfig, aggregates usable as constexpr template arguments, their defaults, the TopK tiling struct under
// its kernel-side and optiling:: names) around the generated wrappers (gen/hl_sort.h, gen/hl_topk.h,
// gen/hl_filter.h: each call runs toolkit/ascendc/highlevel/{sort,topk,filter}.py).
// Definitions: toolkit/ascendc/api/hl_sort.py, hl_filter.py.
#pragma once
#include "asc/hl_math_types.h"

namespace AscendC {
// host side (GetSortMaxMinTmpSize) reads all four fields; the kernel's Sort reads type and isDescend
struct SortConfig {
    SortType type = SortType::RADIX_SORT;
    bool isDescend = false;
    bool hasSrcIndex = false;
    bool hasDstIndex = false;
};
constexpr SortConfig DEFAULT_SORT_CONFIG = {SortType::RADIX_SORT, false};
struct TopKConfig {
    TopKAlgo algo = TopKAlgo::MERGE_SORT;
    TopKOrder order = TopKOrder::UNSET;
    bool sorted = true;
};
constexpr TopKConfig defaultTopKConfig = {TopKAlgo::MERGE_SORT, TopKOrder::UNSET, true};
namespace tiling {
struct TopkTiling {
    int32_t tmpLocalSize = 0;
    int32_t allDataSize = 0;
    int32_t innerDataSize = 0;
    uint32_t sortRepeat = 0;
    int32_t mrgSortRepeat = 0;
    int32_t kAlignFourBytes = 0;
    int32_t kAlignTwoBytes = 0;
    int32_t maskOffset = 0;
    int32_t maskVreducev2FourBytes = 0;
    int32_t maskVreducev2TwoBytes = 0;
    int32_t mrgSortSrc1offset = 0;
    int32_t mrgSortSrc2offset = 0;
    int32_t mrgSortSrc3offset = 0;
    int32_t mrgSortTwoQueueSrc1Offset = 0;
    int32_t mrgFourQueueTailPara1 = 0;
    int32_t mrgFourQueueTailPara2 = 0;
    int32_t srcIndexOffset = 0;
    uint32_t copyUbToUbBlockCount = 0;
    int32_t topkMrgSrc1MaskSizeOffset = 0;
    int32_t topkNSmallSrcIndexOffset = 0;
    uint32_t vreduceValMask0 = 0;
    uint32_t vreduceValMask1 = 0;
    uint32_t vreduceIdxMask0 = 0;
    uint32_t vreduceIdxMask1 = 0;
    uint16_t vreducehalfValMask0 = 0;
    uint16_t vreducehalfValMask1 = 0;
    uint16_t vreducehalfValMask2 = 0;
    uint16_t vreducehalfValMask3 = 0;
    uint16_t vreducehalfValMask4 = 0;
    uint16_t vreducehalfValMask5 = 0;
    uint16_t vreducehalfValMask6 = 0;
    uint16_t vreducehalfValMask7 = 0;
};
}  // namespace tiling
using TopkTiling = tiling::TopkTiling;
}  // namespace AscendC
namespace optiling {
// the host-side tiling struct of TopKTilingFunc's first form: the same fields
struct TopkTiling : AscendC::tiling::TopkTiling {};
}  // namespace optiling

#include "asc/gen/hl_sort.h"
#include "asc/gen/hl_topk.h"
#include "asc/gen/hl_filter.h"
