"""The calls of the sorting and filtering pages' examples (调用示例), as the pages write them, compile against our
headers (g++ -fsyntax-only), kernel side and host side, with variables of the types the examples declare."""
from __future__ import annotations

import subprocess

from tests.asc_support import needs_compiler
from toolkit.asc.build import find_compiler
from toolkit.asc.headers import INCLUDE

CALLS = r"""
#include <cstdint>
#include <vector>
#include "kernel_operator.h"
using namespace AscendC;
template <typename T, bool isFullSort, bool isInitIndex, bool isHasfinish, bool isReuseSrc>
void kernel_calls(LocalTensor<T> concatLocal, LocalTensor<T> valueLocal, LocalTensor<T> concatTmpLocal,
                  LocalTensor<T> sortedLocal, LocalTensor<uint32_t> indexLocal, LocalTensor<T> sortTmpLocal,
                  LocalTensor<T> dstValueLocal, LocalTensor<uint32_t> dstIndexLocal, LocalTensor<T> dstLocal,
                  LocalTensor<T> srcLocal, LocalTensor<half> halfSorted, LocalTensor<half> halfTmp,
                  LocalTensor<T> dstLocalValue, LocalTensor<int32_t> dstLocalIndex, LocalTensor<T> srcLocalValue,
                  LocalTensor<int32_t> srcLocalIndex, LocalTensor<bool> srcLocalFinish,
                  LocalTensor<uint8_t> sharedTmpBuffer, TopkTiling topKTilingData, LocalTensor<uint8_t> maskLocal)
{
    uint32_t m_elementCount = 128;
    uint32_t m_sortRepeatTimes = m_elementCount / 32;
    uint32_t m_extractRepeatTimes = m_elementCount / 32;
    uint32_t m_concatRepeatTimes = m_elementCount / 16;
    AscendC::Concat(concatLocal, valueLocal, concatTmpLocal, m_concatRepeatTimes);
    AscendC::Sort<T, isFullSort>(sortedLocal, concatLocal, indexLocal, sortTmpLocal, m_sortRepeatTimes);
    AscendC::Extract(dstValueLocal, dstIndexLocal, sortedLocal, m_extractRepeatTimes);
    static constexpr AscendC::SortConfig config = {AscendC::SortType::RADIX_SORT, false};
    Sort<T, false, config>(dstLocal, dstIndexLocal, srcLocal, 1024);

    uint32_t elementCount = 128;
    uint32_t singleMergeTmpElementCount = elementCount / 4;
    uint32_t baseOffset = AscendC::GetSortOffset<half>(singleMergeTmpElementCount);
    AscendC::MrgSortSrcList sortList = AscendC::MrgSortSrcList(
        halfSorted[0], halfSorted[baseOffset], halfSorted[2 * baseOffset], halfSorted[3 * baseOffset]);
    uint16_t singleDataSize = elementCount / 4;
    const uint16_t elementCountList[4] = {singleDataSize, singleDataSize, singleDataSize, singleDataSize};
    uint32_t sortedNum[4];
    AscendC::MrgSort<half, false>(halfTmp, sortList, elementCountList, sortedNum, 0b1111, 1);
    (void)AscendC::GetSortLen<half>(128);
    (void)AscendC::GetSortOffset<half>(128);

    int32_t k = 5;
    bool isLargest = false;
    TopKInfo topKInfo;
    topKInfo.outter = 2;
    topKInfo.inner = 32;
    topKInfo.n = 32;
    AscendC::TopK<T, isInitIndex, isHasfinish, isReuseSrc, AscendC::TopKMode::TOPK_NORMAL>(
        dstLocalValue, dstLocalIndex, srcLocalValue, srcLocalIndex, srcLocalFinish, sharedTmpBuffer, k, topKTilingData,
        topKInfo, isLargest);
    AscendC::TopK<T, isInitIndex, isHasfinish, isReuseSrc, AscendC::TopKMode::TOPK_NORMAL>(
        dstLocalValue, dstLocalIndex, srcLocalValue, srcLocalIndex, srcLocalFinish, k, topKTilingData, topKInfo, isLargest);
    AscendC::TopK<T, isInitIndex, isHasfinish, isReuseSrc, AscendC::TopKMode::TOPK_NORMAL, defaultTopKConfig>(
        dstLocalValue, dstLocalIndex, srcLocalValue, srcLocalIndex, srcLocalFinish, sharedTmpBuffer, k, topKTilingData,
        topKInfo, isLargest);
    AscendC::TopK<T, isInitIndex, isHasfinish, isReuseSrc, AscendC::TopKMode::TOPK_NSMALL, defaultTopKConfig>(
        dstLocalValue, dstLocalIndex, srcLocalValue, srcLocalIndex, srcLocalFinish, k, topKTilingData, topKInfo, isLargest);

    LocalTensor<T> yLocal = dstLocal, xLocal = srcLocal;
    AscendC::DropOutShapeInfo info;
    float probValue = 0.5;
    info.firstAxis = 16 / 8;
    info.srcLastAxis = 64;
    info.maskLastAxis = 64;
    AscendC::DropOut(yLocal, xLocal, maskLocal, sharedTmpBuffer, probValue, info);

    T scalar = (T)35.6f;
    LocalTensor<T> srcLocal1 = srcLocal;
    LocalTensor<uint8_t> tmpBuffer = sharedTmpBuffer;
    AscendC::SelectWithBytesMaskShapeInfo sinfo;
    AscendC::Select(dstLocal, srcLocal1, scalar, srcLocalFinish, tmpBuffer, sinfo);
}
template void kernel_calls<half, true, true, true, false>(LocalTensor<half>, LocalTensor<half>, LocalTensor<half>,
    LocalTensor<half>, LocalTensor<uint32_t>, LocalTensor<half>, LocalTensor<half>, LocalTensor<uint32_t>,
    LocalTensor<half>, LocalTensor<half>, LocalTensor<half>, LocalTensor<half>, LocalTensor<half>, LocalTensor<int32_t>,
    LocalTensor<half>, LocalTensor<int32_t>, LocalTensor<bool>, LocalTensor<uint8_t>, TopkTiling, LocalTensor<uint8_t>);

void host_calls()
{
    fe::PlatFormInfos platform_info;
    auto plat = platform_ascendc::PlatformAscendC(&platform_info);
    const uint32_t elemCount = 128;
    (void)AscendC::GetConcatTmpSize(plat, elemCount, 2);
    (void)AscendC::GetSortTmpSize(plat, elemCount, 4);

    std::vector<int64_t> shape_vec = {1024};
    AscendC::TensorShape srcShape(shape_vec);
    AscendC::TensorDataType valueType = AscendC::TensorDataType::DT_UINT32;
    AscendC::TensorDataType indexType = AscendC::TensorDataType::DT_UINT32;
    bool isDescend = true, hasSrcIndex = false, hasDstIndex = false, isReuseSource = false;
    AscendC::SortConfig config;
    config.type = AscendC::SortType::RADIX_SORT;
    config.isDescend = isDescend;
    config.hasSrcIndex = hasSrcIndex;
    config.hasDstIndex = hasDstIndex;
    uint32_t maxValue = 0;
    uint32_t minValue = 0;
    AscendC::GetSortMaxMinTmpSize(srcShape, valueType, indexType, isReuseSource, config, maxValue, minValue);

    const int32_t OUTTER = 2, INNER = 32, K = 8;
    const bool IS_LARGEST = true, IS_INITINDEX = true, IS_REUSESOURCE = false;
    uint32_t maxsize = 0, minsize = 0, dtypesize = 4;
    optiling::TopkTiling topkTilingData;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(&platform_info);
    AscendC::TopKTilingFunc(ascendcPlatform, INNER, OUTTER, K, dtypesize, IS_INITINDEX, AscendC::TopKMode::TOPK_NSMALL,
                            IS_LARGEST, topkTilingData);
    AscendC::GetTopKMaxMinTmpSize(ascendcPlatform, INNER, OUTTER, IS_REUSESOURCE, IS_INITINDEX,
                                  AscendC::TopKMode::TOPK_NSMALL, IS_LARGEST, dtypesize, maxsize, minsize);
    const uint32_t is_init_index = 1, is_reuse_src = 0, is_largest = 1, outter = 2, inner = 32, k = 8;
    AscendC::TensorDataType xDType = AscendC::TensorDataType::DT_INT32;
    AscendC::TopKConfig tconfig;
    tconfig.algo = AscendC::TopKAlgo::RADIX_SELECT;
    tconfig.order = AscendC::TopKOrder::LARGEST;
    tconfig.sorted = false;
    AscendC::GetTopKMaxMinTmpSize(inner, outter, k, is_reuse_src, is_init_index, AscendC::TopKMode::TOPK_NORMAL,
                                  is_largest, xDType, tconfig, maxValue, minValue);

    int64_t firstAxis = 16, srcLastAxis = 64, maskLastAxis = 64;
    std::vector<int64_t> srcDims = {firstAxis, srcLastAxis, maskLastAxis};
    uint32_t typeSize = 2;
    AscendC::TensorShape shape(srcDims);
    AscendC::GetDropOutMaxMinTmpSize(shape, typeSize, false, maxValue, minValue);
    uint64_t tailSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, tailSize);
    (void)AscendC::GetDropOutMaxTmpSize(shape, typeSize, false);
    (void)AscendC::GetDropOutMinTmpSize(shape, typeSize, false);

    std::vector<int64_t> shape0Vec = {64, 128};
    std::vector<int64_t> shape1Vec = {1};
    std::vector<int64_t> mask1Vec = {64, 128};
    AscendC::TensorShape src0Shape(shape0Vec);
    AscendC::TensorShape src1Shape(shape1Vec);
    AscendC::TensorShape maskShape(mask1Vec);
    AscendC::GetSelectMaxMinTmpSize(src0Shape, src1Shape, 2, maskShape, 1, false, maxValue, minValue);
    (void)AscendC::GetSelectMinTmpSize(src0Shape, src1Shape, 2, maskShape, 1, false);
    (void)AscendC::GetSelectMaxTmpSize(src0Shape, src1Shape, 2, maskShape, 1, false);
}
"""


@needs_compiler
def test_the_pages_example_calls_compile(tmp_path):
    src = tmp_path / "calls.cpp"
    src.write_text(CALLS)
    done = subprocess.run([*find_compiler(), "-std=c++20", "-fsyntax-only", f"-I{INCLUDE}", str(src)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-4000:]
