// Parameter structs, DataCopy / DataCopyPad (GM <-> UB, UB <-> UB), synchronisation (asc/sync.h), atomics,
// the system values and registers, scalar computation and cache control: generated from toolkit/ascendc/api
// (names.py, datamove.py, sync.py, atomic.py, system.py).
#pragma once
#include "asc/pipe.h"
#include "asc/gen/structs.h"
#include "asc/gen/datamove.h"
#include "asc/sync.h"
#include "asc/gen/system.h"
#include "asc/gen/atomic.h"
#include "asc/gen/scalar.h"
#include "asc/gen/spr.h"
#include "asc/gen/cache.h"

// DataCopy with SliceInfo arrays and the NDDMA form: written by hand (array parameters, and NDDMA's arrays
// are sized by the template argument dim); each sends its fields to a runtime hook that runs
// toolkit/ascendc/dma_nd.py (declared as hand forms of AscendC::DataCopy in toolkit/ascendc/api/datamove.py).
namespace AscendC {
template <uint8_t dim>
struct NdDmaLoopInfo {
    uint64_t loopSrcStride[dim] = {0};     // per dimension, elements
    uint32_t loopDstStride[dim] = {0};
    uint32_t loopSize[dim] = {0};
    uint8_t loopLpSize[dim] = {0};         // left / right padding, elements
    uint8_t loopRpSize[dim] = {0};
};
template <class T, uint8_t dim>
struct NdDmaParams {
    NdDmaLoopInfo<dim> loopInfo;
    T constantValue;
};
struct NdDmaConfig {
    static constexpr uint16_t unsetPad = 0xffff;
    bool isNearestValueMode = false;
    uint16_t loopLpSize = unsetPad;
    uint16_t loopRpSize = unsetPad;
    bool ascOptimize = false;
};
constexpr NdDmaConfig kDefaultNdDmaConfig = {};

template <class T, uint8_t dim, const NdDmaConfig& config = kDefaultNdDmaConfig>
inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const NdDmaParams<T, dim>& params, ASC_SLP) {
    static __asc::Obj* const fn = __asc::api("rt.nd_dma");
    __asc::Call c(fn, loc);
    __asc::put_local(c, dst);
    __asc::put_global(c, src);
    c.b(config.isNearestValueMode).i(config.loopLpSize).i(config.loopRpSize).num(params.constantValue);
    for (uint32_t k = 0; k < dim; ++k)
        c.u(params.loopInfo.loopSrcStride[k]).i(params.loopInfo.loopDstStride[k]).i(params.loopInfo.loopSize[k])
            .i(params.loopInfo.loopLpSize[k]).i(params.loopInfo.loopRpSize[k]);
    c.go();
}

namespace __detail {
template <class D, class S>
inline void slice_copy(const D& dst, const S& src, const SliceInfo* d, const SliceInfo* s, uint32_t dim,
                       const __asc::SL& loc) {
    static __asc::Obj* const fn = __asc::api("rt.slice_copy");
    __asc::Call c(fn, loc);
    if constexpr (std::is_same_v<D, LocalTensor<typename D::PrimType>>) {
        __asc::put_local(c, dst);
        __asc::put_global(c, src);
    } else {
        __asc::put_global(c, dst);
        __asc::put_local(c, src);
    }
    uint32_t n = dim > 8 ? 8 : dim;
    c.i(n);
    for (const SliceInfo* list : {d, s})
        for (uint32_t k = 0; k < n; ++k)
            c.i(list[k].startIndex).i(list[k].endIndex).i(list[k].stride).i(list[k].burstLen).i(list[k].shapeValue);
    c.go();
}
}  // namespace __detail

template <class T>
inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const SliceInfo dstSliceInfo[],
                     const SliceInfo srcSliceInfo[], const uint32_t dimValue = 1, ASC_SLP) {
    __detail::slice_copy(dst, src, dstSliceInfo, srcSliceInfo, dimValue, loc);
}
template <class T>
inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const SliceInfo dstSliceInfo[],
                     const SliceInfo srcSliceInfo[], const uint32_t dimValue = 1, ASC_SLP) {
    __detail::slice_copy(dst, src, dstSliceInfo, srcSliceInfo, dimValue, loc);
}
}  // namespace AscendC
