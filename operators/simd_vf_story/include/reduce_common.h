// The reduce samples' common code over x[D0, D1] = [78, 250] fp32: tiling, the kernel (UB rows in d1Pad slots plus
// one VL of slack, row-by-row CopyIn, VF_REPEAT launches of the variant's VF, CopyOut of [D0] for `ar` or [D1]
// for `ra`) and the host side (uniform(-1, 1) input, max / sum references and their tolerances, the main()
// body).
#pragma once
#include "story_common.h"
#include "story_random.h"

struct ReduceTiling {
    uint32_t d0;
    uint32_t d1;
    uint32_t d1Pad;   // row slot in UB: d1 rounded up to 32 B (256 floats for d1 = 250)
};

enum class ReduceAxis { AR, RA };   // AR: along the last axis (out [D0]); RA: along the first (out [D1])

// VF: the variant's __simd_vf__ (xAddr, zAddr, d0, d1, d1Pad).
template <auto VF, ReduceAxis AXIS>
class KernelReduce {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR z, const ReduceTiling& tiling)
    {
        d0_ = tiling.d0;
        d1_ = tiling.d1;
        d1Pad_ = tiling.d1Pad;
        outLen_ = AXIS == ReduceAxis::AR ? tiling.d0 : tiling.d1;
        xGm.SetGlobalBuffer((__gm__ float*)x, d0_ * d1_);
        zGm.SetGlobalBuffer((__gm__ float*)z, outLen_);
        // row slots of d1Pad floats plus one VL of slack for whole-register loads of the last row
        pipe.InitBuffer(inQueueX, 1, (d0_ * d1Pad_ + VL_B32) * SIZEOF_FLOAT);
        pipe.InitBuffer(outQueueZ, 1, StoryAlignUp(outLen_ * SIZEOF_FLOAT, BLOCK_BYTES));
    }

    __aicore__ inline void Process()
    {
        CopyIn();
        Compute();
        CopyOut();
    }

private:
    __aicore__ inline void CopyIn()
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        AscendC::DataCopyExtParams rowParams{1, d1_ * SIZEOF_FLOAT, 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> padParams{false, 0, 0, 0};
        for (uint32_t i = 0; i < d0_; ++i) {
            AscendC::DataCopyPad(xLocal[i * d1Pad_], xGm[i * d1_], rowParams, padParams);
        }
        inQueueX.EnQue(xLocal);
    }

    __aicore__ inline void Compute()
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        AscendC::LocalTensor<float> zLocal = outQueueZ.AllocTensor<float>();
        auto* xAddr = reinterpret_cast<__ubuf__ float*>(xLocal.GetPhyAddr());
        auto* zAddr = reinterpret_cast<__ubuf__ float*>(zLocal.GetPhyAddr());
        for (int32_t repeat = 0; repeat < VF_REPEAT; ++repeat) {
            asc_vf_call<VF>(xAddr, zAddr, d0_, d1_, d1Pad_);
        }
        outQueueZ.EnQue(zLocal);
        inQueueX.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut()
    {
        AscendC::LocalTensor<float> zLocal = outQueueZ.DeQue<float>();
        AscendC::DataCopyPad(zGm, zLocal, AscendC::DataCopyExtParams{1, outLen_ * SIZEOF_FLOAT, 0, 0, 0});
        outQueueZ.FreeTensor(zLocal);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> inQueueX;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQueueZ;
    AscendC::GlobalTensor<float> xGm;
    AscendC::GlobalTensor<float> zGm;
    uint32_t d0_ = 0;
    uint32_t d1_ = 0;
    uint32_t d1Pad_ = 0;
    uint32_t outLen_ = 0;
};

// ---------------------------------------------------------------------------------------------------------
// Host side
// ---------------------------------------------------------------------------------------------------------
constexpr uint32_t REDUCE_D0 = 78;
constexpr uint32_t REDUCE_D1 = 250;
constexpr double REDUCE_MAX_TOLERANCE = 1e-4;   // max is exact: a tiny absolute tolerance
constexpr double REDUCE_SUM_RTOL = 1e-3;        // sum: |got - ref| <= 1e-3 * (|ref| + 1)

inline ReduceTiling MakeReduceTiling()
{
    return ReduceTiling{REDUCE_D0, REDUCE_D1, StoryAlignUp(REDUCE_D1, BLOCK_BYTES / SIZEOF_FLOAT)};
}

// out[k] = max over the reduced axis, in float
inline std::vector<double> ReduceMaxReference(const ReduceTiling& t, ReduceAxis axis, const std::vector<float>& x)
{
    const uint32_t outLen = axis == ReduceAxis::AR ? t.d0 : t.d1;
    std::vector<float> acc(outLen, NEG_INF);
    for (uint32_t i = 0; i < t.d0; ++i) {
        for (uint32_t j = 0; j < t.d1; ++j) {
            float& a = acc[axis == ReduceAxis::AR ? i : j];
            a = x[i * t.d1 + j] > a ? x[i * t.d1 + j] : a;
        }
    }
    return std::vector<double>(acc.begin(), acc.end());
}

// out[k] = sum over the reduced axis, accumulated in double
inline std::vector<double> ReduceSumReference(const ReduceTiling& t, ReduceAxis axis, const std::vector<float>& x)
{
    std::vector<double> acc(axis == ReduceAxis::AR ? t.d0 : t.d1, 0.0);
    for (uint32_t i = 0; i < t.d0; ++i) {
        for (uint32_t j = 0; j < t.d1; ++j) {
            acc[axis == ReduceAxis::AR ? i : j] += static_cast<double>(x[i * t.d1 + j]);
        }
    }
    return acc;
}

enum class ReduceOp { MAX, SUM };

// launch(stream, x, z, tiling): the sample's kernel<<<1, nullptr, stream>>>(x, z, tiling)
using ReduceLaunch = void (*)(aclrtStream, uint8_t*, uint8_t*, const ReduceTiling&);

// A reduce sample's main(): the uniform input to the device, one launch, z back and checked against the
// op's reference with its tolerance.
inline int32_t RunReduceSample(ReduceOp op, ReduceAxis axis, ReduceLaunch launch)
{
    AclSession acl;
    CHECK_ACL(acl.Ok() ? ACL_SUCCESS : ACL_ERROR_INVALID_PARAM);
    ReduceTiling tiling = MakeReduceTiling();
    const uint32_t outLen = axis == ReduceAxis::AR ? tiling.d0 : tiling.d1;
    std::vector<float> xHost = UniformInputs(tiling.d0 * tiling.d1);
    DeviceBuffer x(xHost);
    DeviceBuffer z(outLen * sizeof(float));
    CHECK_ACL(x.Ok() && z.Ok() ? ACL_SUCCESS : ACL_ERROR_BAD_ALLOC);

    launch(acl.stream, x.Get(), z.Get(), tiling);
    CHECK_ACL(aclrtSynchronizeStream(acl.stream));

    if (op == ReduceOp::MAX) {
        return CheckClose("z", z.ToHost(outLen), ReduceMaxReference(tiling, axis, xHost), REDUCE_MAX_TOLERANCE);
    }
    return CheckClose("z", z.ToHost(outLen), ReduceSumReference(tiling, axis, xHost), REDUCE_SUM_RTOL,
                      REDUCE_SUM_RTOL);
}
