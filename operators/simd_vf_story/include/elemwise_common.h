// The elemwise AXPY samples' common code (z = a * x + y, a = 2.0, N = 19500): tiling, the kernel (UB plan with
// buffers rounded up to UNROLL VL chunks, contiguous CopyIn / CopyOut, VF_REPEAT launches of the variant's VF)
// and the host side (x = y = one uniform(-1, 1) input, the reference, |z - (a * x + y)| <= 1e-4, the
// main() body).
#pragma once
#include "story_common.h"
#include "story_random.h"

struct ElemwiseTiling {
    uint32_t n;
    float a;
};

// VF: the variant's __simd_vf__ (x, y, z, a, n, loopNum); UNROLL: VL chunks per loop trip.
template <auto VF, uint32_t UNROLL = 1>
class KernelElemwiseAxpy {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const ElemwiseTiling& tiling)
    {
        n_ = tiling.n;
        a_ = tiling.a;
        loopNum_ = (VFLoopNumForB32(n_) + UNROLL - 1) / UNROLL;
        xGm.SetGlobalBuffer((__gm__ float*)x, n_);
        yGm.SetGlobalBuffer((__gm__ float*)y, n_);
        zGm.SetGlobalBuffer((__gm__ float*)z, n_);
        uint32_t bufBytes = loopNum_ * UNROLL * VL_B32 * SIZEOF_FLOAT;
        pipe.InitBuffer(inQueueX, 1, bufBytes);
        pipe.InitBuffer(inQueueY, 1, bufBytes);
        pipe.InitBuffer(outQueueZ, 1, bufBytes);
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
        AscendC::LocalTensor<float> yLocal = inQueueY.AllocTensor<float>();
        AscendC::DataCopyExtParams params{1, n_ * SIZEOF_FLOAT, 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> padParams{false, 0, 0, 0};
        AscendC::DataCopyPad(xLocal, xGm, params, padParams);
        AscendC::DataCopyPad(yLocal, yGm, params, padParams);
        inQueueX.EnQue(xLocal);
        inQueueY.EnQue(yLocal);
    }

    __aicore__ inline void Compute()
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        AscendC::LocalTensor<float> yLocal = inQueueY.DeQue<float>();
        AscendC::LocalTensor<float> zLocal = outQueueZ.AllocTensor<float>();
        auto* x = reinterpret_cast<__ubuf__ float*>(xLocal.GetPhyAddr());
        auto* y = reinterpret_cast<__ubuf__ float*>(yLocal.GetPhyAddr());
        auto* z = reinterpret_cast<__ubuf__ float*>(zLocal.GetPhyAddr());
        for (int32_t repeat = 0; repeat < VF_REPEAT; ++repeat) {
            asc_vf_call<VF>(x, y, z, a_, n_, static_cast<uint16_t>(loopNum_));
        }
        outQueueZ.EnQue(zLocal);
        inQueueX.FreeTensor(xLocal);
        inQueueY.FreeTensor(yLocal);
    }

    __aicore__ inline void CopyOut()
    {
        AscendC::LocalTensor<float> zLocal = outQueueZ.DeQue<float>();
        AscendC::DataCopyPad(zGm, zLocal, AscendC::DataCopyExtParams{1, n_ * SIZEOF_FLOAT, 0, 0, 0});
        outQueueZ.FreeTensor(zLocal);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> inQueueX;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> inQueueY;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQueueZ;
    AscendC::GlobalTensor<float> xGm;
    AscendC::GlobalTensor<float> yGm;
    AscendC::GlobalTensor<float> zGm;
    uint32_t n_ = 0;
    float a_ = 0.0f;
    uint32_t loopNum_ = 0;
};

// ---------------------------------------------------------------------------------------------------------
// Host side
// ---------------------------------------------------------------------------------------------------------
constexpr uint32_t ELEMWISE_N = 19500;
constexpr float ELEMWISE_A = 2.0f;
constexpr double ELEMWISE_TOLERANCE = 1e-4;

// z = a * x + y in float, as the sample's golden
inline std::vector<double> ElemwiseReference(const ElemwiseTiling& tiling, const std::vector<float>& x,
                                             const std::vector<float>& y)
{
    std::vector<double> ref(tiling.n);
    for (uint32_t i = 0; i < tiling.n; ++i) {
        ref[i] = static_cast<double>(tiling.a * x[i] + y[i]);
    }
    return ref;
}

// launch(stream, x, y, z, tiling): the sample's kernel<<<1, nullptr, stream>>>(x, y, z, tiling)
using ElemwiseLaunch = void (*)(aclrtStream, uint8_t*, uint8_t*, uint8_t*, const ElemwiseTiling&);

// An elemwise sample's main(): x = y = one uniform input to the device, one launch, z back and checked.
inline int32_t RunElemwiseSample(ElemwiseLaunch launch)
{
    AclSession acl;
    CHECK_ACL(acl.Ok() ? ACL_SUCCESS : ACL_ERROR_INVALID_PARAM);
    ElemwiseTiling tiling{ELEMWISE_N, ELEMWISE_A};
    std::vector<float> xHost = UniformInputs(tiling.n);
    std::vector<float> yHost = xHost;
    DeviceBuffer x(xHost);
    DeviceBuffer y(yHost);
    DeviceBuffer z(tiling.n * sizeof(float));
    CHECK_ACL(x.Ok() && y.Ok() && z.Ok() ? ACL_SUCCESS : ACL_ERROR_BAD_ALLOC);

    launch(acl.stream, x.Get(), y.Get(), z.Get(), tiling);
    CHECK_ACL(aclrtSynchronizeStream(acl.stream));

    return CheckClose("z", z.ToHost(tiling.n), ElemwiseReference(tiling, xHost, yHost), ELEMWISE_TOLERANCE);
}
