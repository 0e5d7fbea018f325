// The MemBase (LocalTensor) vector API: each form forwards its arguments to toolkit/ascendc/membase (one
// implementation of each semantic, shared with the Python kernels). Generated from toolkit/ascendc/api/membase*.py,
// after the hand-written declarations below (config structs, placeholders, the forms that take arrays or
// structs of tensors: see the definitions' notes).
#pragma once
#include <type_traits>
#include "asc/dma.h"

namespace __asc {
// a scalar of a tensor's element type that takes no part in template argument deduction (the tensors fix T)
template <class T> using nodeduce_t = typename std::type_identity<T>::type;
// reserved UB (the machine file's [membase] list_ub_addr): the address lists of TransDataTo5HD's array forms
constexpr uint32_t kMemBaseListUb = 253984;
}  // namespace __asc

namespace AscendC {
using ReduceType = Reg::ReduceType;
// the mask argument of a call that takes its mask from the mask register (isSetMask = false)
constexpr uint64_t MASK_PLACEHOLDER = 0;
constexpr uint32_t NCHW_CONV_ADDR_LIST_SIZE = 16;

// the reserved first template parameter of the "flexible scalar position" forms
struct BinaryDefaultType {};
// which source of a tensor-tensor call is the single-element scalar (0: src0, 1: src1)
struct BinaryConfig { int8_t scalarTensorIndex = 1; };
constexpr BinaryConfig DEFAULT_BINARY_CONFIG = {1};

// precision configs: accepted (every algo is within 1 ulp; the emulator rounds correctly)
enum class DivAlgo { INTRINSIC = 0, DIFF_COMPENSATION, PRECISION_1ULP_FTZ_TRUE, PRECISION_0ULP_FTZ_TRUE,
                     PRECISION_0ULP_FTZ_FALSE, PRECISION_1ULP_FTZ_FALSE };
struct DivConfig { DivAlgo algo = DivAlgo::INTRINSIC; };
constexpr DivConfig DEFAULT_DIV_CONFIG = {DivAlgo::INTRINSIC};
enum class ExpAlgo { INTRINSIC = 0, PRECISION_1ULP_FTZ_TRUE, PRECISION_1ULP_FTZ_FALSE };
struct ExpConfig { ExpAlgo algo = ExpAlgo::INTRINSIC; };
constexpr ExpConfig DEFAULT_EXP_CONFIG = {ExpAlgo::INTRINSIC};
enum class LnAlgo { INTRINSIC = 0, PRECISION_1ULP_FTZ_TRUE, PRECISION_1ULP_FTZ_FALSE };
struct LnConfig { LnAlgo algo = LnAlgo::INTRINSIC; };
constexpr LnConfig DEFAULT_LN_CONFIG = {LnAlgo::INTRINSIC};
enum class SqrtAlgo { INTRINSIC = 0, PRECISION_1ULP_FTZ_TRUE, PRECISION_0ULP_FTZ_FALSE, PRECISION_1ULP_FTZ_FALSE };
struct SqrtConfig { SqrtAlgo algo = SqrtAlgo::INTRINSIC; };
constexpr SqrtConfig DEFAULT_SQRT_CONFIG = {SqrtAlgo::INTRINSIC};
enum class RsqrtAlgo { INTRINSIC = 0, FAST_INVERSE, PRECISION_1ULP_FTZ_TRUE, PRECISION_0ULP_FTZ_FALSE,
                       PRECISION_1ULP_FTZ_FALSE };
struct RsqrtConfig { RsqrtAlgo algo = RsqrtAlgo::INTRINSIC; };
constexpr RsqrtConfig DEFAULT_RSQRT_CONFIG = {RsqrtAlgo::INTRINSIC};
enum class ReciprocalAlgo { INTRINSIC = 0, PRECISION_1ULP_FTZ_TRUE, PRECISION_1ULP_FTZ_FALSE };
struct ReciprocalConfig { ReciprocalAlgo algo = ReciprocalAlgo::INTRINSIC; };
constexpr ReciprocalConfig DEFAULT_RECIPROCAL_CONFIG = {ReciprocalAlgo::INTRINSIC};

// GatherMask's reserved mode parameter
enum class GatherMaskMode { DEFAULT = 0 };
constexpr GatherMaskMode defaultGatherMaskMode = GatherMaskMode::DEFAULT;

// CastDequant's 16 per-block parameter groups (SetDeqScale(vdeq, info) packs them into the vdeq tensor)
struct VdeqInfo {
    float vdeqScale[16] = {0};
    int16_t vdeqOffset[16] = {0};
    bool vdeqSignMode[16] = {false};
    VdeqInfo() = default;
    VdeqInfo(const float* scale, const int16_t* offset, const bool* signMode) {
        for (int k = 0; k < 16; ++k) {
            vdeqScale[k] = scale[k];
            vdeqOffset[k] = offset[k];
            vdeqSignMode[k] = signMode[k];
        }
    }
};

// MrgSort's four queues and their lengths (units of 8-byte entries)
template <class T>
struct MrgSortSrcList {
    MrgSortSrcList() = default;
    MrgSortSrcList(const LocalTensor<T> s1, const LocalTensor<T> s2, const LocalTensor<T> s3, const LocalTensor<T> s4)
        : src1(s1), src2(s2), src3(s3), src4(s4) {}
    LocalTensor<T> src1;
    LocalTensor<T> src2;
    LocalTensor<T> src3;
    LocalTensor<T> src4;
};
struct MrgSort4Info {
    MrgSort4Info() = default;
    MrgSort4Info(const uint16_t lengths[4], bool exhausted, uint16_t valid, uint16_t repeat)
        : ifExhaustedSuspension(exhausted), validBit(valid), repeatTimes(repeat) {
        for (int k = 0; k < 4; ++k) elementLengths[k] = lengths[k];
    }
    uint16_t elementLengths[4] = {0, 0, 0, 0};
    bool ifExhaustedSuspension = false;
    uint16_t validBit = 15;
    uint16_t repeatTimes = 1;
};

struct TransposeParamsExt {
    TransposeParamsExt() = default;
    TransposeParamsExt(const uint16_t n, const uint16_t c, const uint16_t h, const uint16_t w, const TransposeType t)
        : nSize(n), cSize(c), hSize(h), wSize(w), transposeType(t) {}
    uint16_t nSize = 0;
    uint16_t cSize = 0;
    uint16_t hSize = 0;
    uint16_t wSize = 0;
    TransposeType transposeType = TransposeType::TRANSPOSE_ND2ND_B16;
};
}  // namespace AscendC

#include "asc/gen/membase.h"
#include "asc/gen/membase_cmp.h"
#include "asc/gen/membase_reduce.h"
#include "asc/gen/membase_misc.h"

namespace AscendC {
// Hand-written forms (declared in toolkit/ascendc/api/membase_misc.py): their arguments hold arrays or
// tensors, so they send the fields to the flattened forms the definitions generate.
template <class T>
void MrgSort(const LocalTensor<T>& dst, const MrgSortSrcList<T>& src, const MrgSort4Info& params,
             ASC_SLP) {
    MrgSort(dst, src.src1, src.src2, src.src3, src.src4, params.elementLengths[0], params.elementLengths[1],
            params.elementLengths[2], params.elementLengths[3], params.ifExhaustedSuspension, params.validBit,
            params.repeatTimes, loc);
}
// the high-level MrgSort (高阶API/排序操作): the same merge, then the consumed counts into sortedNum
template <class T, bool isExhaustedSuspension = false>
void MrgSort(const LocalTensor<T>& dst, const MrgSortSrcList<T>& sortList, const uint16_t elementCountList[4],
             uint32_t sortedNum[4], uint16_t validBit, const int32_t repeatTime, ASC_SLP) {
    MrgSort(dst, sortList.src1, sortList.src2, sortList.src3, sortList.src4, elementCountList[0],
            elementCountList[1], elementCountList[2], elementCountList[3], isExhaustedSuspension, validBit,
            (uint16_t)repeatTime, loc);
    uint16_t n[4] = {0, 0, 0, 0};
    GetMrgSortResult(n[0], n[1], n[2], n[3], loc);
    for (int k = 0; k < 4; ++k) sortedNum[k] = n[k];
}
template <class T>
void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer,
               const TransposeParamsExt& transposeParams, ASC_SLP) {
    Transpose(dst, src, sharedTmpBuffer, transposeParams.nSize, transposeParams.cSize, transposeParams.hSize,
              transposeParams.wSize, (int32_t)transposeParams.transposeType, loc);
}
template <class T>
void SetDeqScale(const LocalTensor<T>& vdeq, const VdeqInfo& vdeqInfo, ASC_SLP) {
    LocalTensor<uint64_t> words = vdeq.template ReinterpretCast<uint64_t>();
    for (uint32_t k = 0; k < 16; ++k) {
        uint32_t bits;
        std::memcpy(&bits, &vdeqInfo.vdeqScale[k], 4);
        uint64_t w = (uint64_t)bits | ((uint64_t)((uint16_t)vdeqInfo.vdeqOffset[k] & 0x1FF) << 37) |
                     ((uint64_t)(vdeqInfo.vdeqSignMode[k] ? 1 : 0) << 46);
        words.SetValue(k, w, loc);
    }
    SetDeqScale(vdeq, loc);
}
namespace __membase {
template <class T>
LocalTensor<uint64_t> address_list(uint32_t slot, const T* addrs, ASC_SLP) {
    LocalTensor<uint64_t> list(TPosition::VECCALC, __asc::kMemBaseListUb + slot * 128, 16);
    for (uint32_t k = 0; k < 16; ++k) list.SetValue(k, (uint64_t)addrs[k], loc);
    return list;
}
}  // namespace __membase
template <class T>
void TransDataTo5HD(uint64_t* dstList, uint64_t* srcList, const TransDataTo5HDParams& nchwconvParams, ASC_SLP) {
    TransDataTo5HD<T>(__membase::address_list(0, dstList, loc), __membase::address_list(1, srcList, loc),
                      nchwconvParams, loc);
}
template <class T>
void TransDataTo5HD(const LocalTensor<T> (&dstList)[NCHW_CONV_ADDR_LIST_SIZE],
                    const LocalTensor<T> (&srcList)[NCHW_CONV_ADDR_LIST_SIZE],
                    const TransDataTo5HDParams& nchwconvParams, ASC_SLP) {
    uint64_t d[16], s[16];
    for (int k = 0; k < 16; ++k) {
        d[k] = dstList[k].addr_;
        s[k] = srcList[k].addr_;
    }
    TransDataTo5HD<T>(__membase::address_list(0, d, loc), __membase::address_list(1, s, loc), nchwconvParams, loc);
}
}  // namespace AscendC
