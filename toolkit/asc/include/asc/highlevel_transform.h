// The high-level tensor transforms (高阶API/张量变换): the hand-written part around the generated wrappers
// (gen/hl_transform.h, gen/hl_transform_layout.h: each call runs toolkit/ascendc/highlevel/transform*.py).
// Here: TransDataConfig / TransDataParams, the forms that take arrays or Layouts (their shapes go out in a
// BroadcastTiling / TensorShapes: the flattened forms), GetBroadcastTilingInfo (kernel-side C++), the
// high-level Transpose forms (their tiling struct is declared after the basic API headers) and the
// kernel-side / optiling:: names of the tiling structs.
#pragma once
#include <cstdint>
#include <tuple>

#include "asc/hl_shape.h"
#include "asc/layout.h"

namespace AscendC {
struct TransDataConfig {
    DataFormat srcFormat = DataFormat::ND;
    DataFormat dstFormat = DataFormat::ND;
};
template <typename T, typename U>
struct TransDataParams {
    T srcLayout;
    U dstLayout;
};
}  // namespace AscendC

#include "asc/gen/hl_transform.h"
#include "asc/gen/hl_transform_layout.h"

namespace AscendC {
namespace __transform {
inline BroadcastTiling shapes(uint32_t rank, int32_t axis, const uint32_t* dstShape, const uint32_t* srcShape) {
    BroadcastTiling t;
    t.rank = rank;
    t.axis = axis;
    uint32_t* d[9] = {&t.dstShape0, &t.dstShape1, &t.dstShape2, &t.dstShape3, &t.dstShape4, &t.dstShape5,
                      &t.dstShape6, &t.dstShape7, &t.dstShape8};
    uint32_t* s[9] = {&t.srcShape0, &t.srcShape1, &t.srcShape2, &t.srcShape3, &t.srcShape4, &t.srcShape5,
                      &t.srcShape6, &t.srcShape7, &t.srcShape8};
    for (uint32_t k = 0; k < rank && k < 9; ++k) {
        *d[k] = dstShape ? dstShape[k] : 0;
        *s[k] = srcShape ? srcShape[k] : 0;
    }
    return t;
}
template <class Layout>
inline TensorShape shape_of(const Layout& layout) {
    return std::apply([](const auto&... d) { return TensorShape({(int64_t)d...}); }, layout.GetShape());
}
}  // namespace __transform

// Broadcast<T, dim, axis>: dim 1 or 2, axis 0 or 1 (checked by the emulator)
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
void Broadcast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t* dstShape,
               const uint32_t* srcShape, LocalTensor<uint8_t>& sharedTmpBuffer, ASC_SLP) {
    Broadcast(dstLocal, srcLocal, __transform::shapes(dim, axis, dstShape, srcShape), sharedTmpBuffer, loc);
}
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
void Broadcast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t* dstShape,
               const uint32_t* srcShape, ASC_SLP) {
    Broadcast(dstLocal, srcLocal, __transform::shapes(dim, axis, dstShape, srcShape), loc);
}
// the rank 1..9 form (Ascend 950): the rank from the tiling, the shapes from the arrays
template <class T, int constRank = -1, uint32_t* constDstShape = nullptr, uint32_t* constSrcShape = nullptr,
          bool constSrcInnerPad = false>
void Broadcast(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t* dstShape, const uint32_t* srcShape,
               BroadcastTiling* tiling, ASC_SLP) {
    const uint32_t rank = tiling ? tiling->rank : (constRank > 0 ? (uint32_t)constRank : 0u);
    BroadcastTiling t = __transform::shapes(rank, -1, dstShape, srcShape);
    t.srcInnerPad = tiling ? tiling->srcInnerPad : constSrcInnerPad;
    Broadcast(dst, src, t, loc);
}
// kernel side: the rank and both shapes (the emulator checks them when Broadcast runs)
template <class T, int constRank = -1, uint32_t* constDstShape = nullptr, uint32_t* constSrcShape = nullptr>
void GetBroadcastTilingInfo(uint32_t rank, const uint32_t* dstShape, const uint32_t* srcShape, bool srcInnerPad,
                            BroadcastTiling& tiling) {
    tiling = __transform::shapes(constRank > 0 ? (uint32_t)constRank : rank, -1, dstShape, srcShape);
    tiling.srcInnerPad = srcInnerPad;
}

template <const TransDataConfig& config, typename T, typename U, typename S>
void TransData(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
               const LocalTensor<uint8_t>& sharedTmpBuffer, const TransDataParams<U, S>& params, ASC_SLP) {
    TransData(dstTensor, srcTensor, sharedTmpBuffer, config.srcFormat, config.dstFormat,
              __transform::shape_of(params.srcLayout), __transform::shape_of(params.dstLayout), loc);
}
template <const TransDataConfig& config, typename T, typename U, typename S>
void TransData(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const TransDataParams<U, S>& params,
               ASC_SLP) {
    TransData(dstTensor, srcTensor, config.srcFormat, config.dstFormat, __transform::shape_of(params.srcLayout),
              __transform::shape_of(params.dstLayout), loc);
}

using PadTiling = tiling::PadTiling;
using UnPadTiling = tiling::UnPadTiling;
using ConfusionTransposeTiling = tiling::ConfusionTransposeTiling;

// the high-level Transpose (a form of AscendC::Transpose, id 342866039 = stable_id("AscendC::Transpose"))
template <class T>
void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer,
               TransposeType transposeType, const ConfusionTransposeTiling& tiling, ASC_SLP) {
    ASC_CALL(342866039, "AscendC::Transpose");
    __asc::put_local(c, dst); __asc::put_local(c, src); __asc::put_local(c, sharedTmpBuffer);
    __asc::put_earg(c, transposeType); __asc::put(c, tiling);
    c.go();
}
template <class T>
void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src, TransposeType transposeType,
               const ConfusionTransposeTiling& tiling, ASC_SLP) {
    ASC_CALL(342866039, "AscendC::Transpose");
    __asc::put_local(c, dst); __asc::put_local(c, src); __asc::put_earg(c, transposeType); __asc::put(c, tiling);
    c.go();
}
}  // namespace AscendC
namespace optiling {
using PadTiling = AscendC::tiling::PadTiling;
using UnPadTiling = AscendC::tiling::UnPadTiling;
using ConfusionTransposeTiling = AscendC::tiling::ConfusionTransposeTiling;
}  // namespace optiling
