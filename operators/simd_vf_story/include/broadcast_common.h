// The broadcast samples' common code: tiling, the kernel's UB plan / row-by-row CopyIn into 32 B aligned row
// slots / CopyOut (a variant adds its VF and Compute), and the host side (shapes, flat-index inputs, reference,
// the main() body).
//   tail y[m, n] = x[m, n] + a[m]        head y[m, n] = x[m, n] + a[n]        (M = 17, N = 653)
//   mid  y[m, b, n] = x[m, b, n] + a[m, n]                                   (M = 8, B = 3, N = 653)
#pragma once
#include "story_common.h"

struct BroadcastTiling {
    uint32_t m;
    uint32_t b;
    uint32_t n;
    uint32_t nElemsAligned;   // row slot in UB: n rounded up to 32 B
};

enum class BroadcastShape { TAIL, HEAD, MID };

// x and y are [m * b] rows of n floats, each in a row slot of nElemsAligned floats; a is aRows rows of aLen
// floats: tail a[m] (one row of m), head a[n] (one row of n), mid a[m, n].
template <class Derived, BroadcastShape SHAPE>
class KernelBroadcastBase {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR a, GM_ADDR y, const BroadcastTiling& tiling)
    {
        tiling_ = tiling;
        xRows_ = tiling.m * tiling.b;
        aRows_ = SHAPE == BroadcastShape::MID ? tiling.m : 1;
        aLen_ = SHAPE == BroadcastShape::TAIL ? tiling.m : tiling.n;
        aSlot_ = StoryAlignUp(aLen_ * SIZEOF_FLOAT, BLOCK_BYTES) / SIZEOF_FLOAT;
        xGm.SetGlobalBuffer((__gm__ float*)x, xRows_ * tiling.n);
        aGm.SetGlobalBuffer((__gm__ float*)a, aRows_ * aLen_);
        yGm.SetGlobalBuffer((__gm__ float*)y, xRows_ * tiling.n);
        pipe.InitBuffer(xQueue, 1, xRows_ * tiling.nElemsAligned * SIZEOF_FLOAT);
        pipe.InitBuffer(aQueue, 1, aRows_ * aSlot_ * SIZEOF_FLOAT);
        pipe.InitBuffer(yQueue, 1, xRows_ * tiling.nElemsAligned * SIZEOF_FLOAT);
    }

    __aicore__ inline void Process()
    {
        CopyIn();
        static_cast<Derived*>(this)->Compute();
        CopyOut();
    }

protected:
    __aicore__ inline void CopyIn()
    {
        AscendC::LocalTensor<float> xLocal = xQueue.AllocTensor<float>();
        AscendC::LocalTensor<float> aLocal = aQueue.AllocTensor<float>();
        AscendC::DataCopyExtParams rowParams{1, tiling_.n * SIZEOF_FLOAT, 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> padParams{false, 0, 0, 0};
        for (uint32_t row = 0; row < xRows_; ++row) {
            AscendC::DataCopyPad(xLocal[row * tiling_.nElemsAligned], xGm[row * tiling_.n], rowParams, padParams);
        }
        AscendC::DataCopyExtParams aParams{1, aLen_ * SIZEOF_FLOAT, 0, 0, 0};
        for (uint32_t row = 0; row < aRows_; ++row) {
            AscendC::DataCopyPad(aLocal[row * aSlot_], aGm[row * aLen_], aParams, padParams);
        }
        xQueue.EnQue(xLocal);
        aQueue.EnQue(aLocal);
    }

    __aicore__ inline void CopyOut()
    {
        AscendC::LocalTensor<float> yLocal = yQueue.DeQue<float>();
        AscendC::DataCopyExtParams rowParams{1, tiling_.n * SIZEOF_FLOAT, 0, 0, 0};
        for (uint32_t row = 0; row < xRows_; ++row) {
            AscendC::DataCopyPad(yGm[row * tiling_.n], yLocal[row * tiling_.nElemsAligned], rowParams);
        }
        yQueue.FreeTensor(yLocal);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> xQueue;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> aQueue;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> yQueue;
    AscendC::GlobalTensor<float> xGm;
    AscendC::GlobalTensor<float> aGm;
    AscendC::GlobalTensor<float> yGm;
    BroadcastTiling tiling_;
    uint32_t xRows_ = 0;
    uint32_t aRows_ = 0;
    uint32_t aLen_ = 0;
    uint32_t aSlot_ = 0;
};

// ---------------------------------------------------------------------------------------------------------
// Host side
// ---------------------------------------------------------------------------------------------------------
constexpr double BROADCAST_TOLERANCE = 1e-3;

// The sample's shape and its inputs: x [m, b, n] and a (tail [m], head [n], mid [m, n]) hold flat indices.
struct BroadcastCase {
    explicit BroadcastCase(BroadcastShape s) : shape(s)
    {
        uint32_t m = s == BroadcastShape::MID ? 8 : 17;
        uint32_t b = s == BroadcastShape::MID ? 3 : 1;
        uint32_t n = 653;
        tiling = BroadcastTiling{m, b, n, StoryAlignUp(n, BLOCK_BYTES / SIZEOF_FLOAT)};
        x = FlatIndices(static_cast<size_t>(m) * b * n);
        a = FlatIndices(s == BroadcastShape::TAIL ? m : s == BroadcastShape::HEAD ? n : static_cast<size_t>(m) * n);
    }

    // y = x + a broadcast along the shape's axis, in double
    std::vector<double> Reference() const
    {
        std::vector<double> ref(x.size());
        const uint32_t m = tiling.m;
        const uint32_t b = tiling.b;
        const uint32_t n = tiling.n;
        for (uint32_t i = 0; i < m; ++i) {
            for (uint32_t j = 0; j < b; ++j) {
                for (uint32_t k = 0; k < n; ++k) {
                    size_t at = (static_cast<size_t>(i) * b + j) * n + k;
                    size_t aAt = shape == BroadcastShape::TAIL ? i : shape == BroadcastShape::HEAD ? k : i * n + k;
                    ref[at] = static_cast<double>(x[at]) + static_cast<double>(a[aAt]);
                }
            }
        }
        return ref;
    }

    BroadcastShape shape;
    BroadcastTiling tiling;
    std::vector<float> x;
    std::vector<float> a;
};

// launch(stream, x, a, y, tiling): the sample's kernel<<<1, nullptr, stream>>>(x, a, y, tiling)
using BroadcastLaunch = void (*)(aclrtStream, uint8_t*, uint8_t*, uint8_t*, const BroadcastTiling&);

// A broadcast sample's main(): the shape's inputs to the device, one launch, y back and checked.
inline int32_t RunBroadcastSample(BroadcastShape shape, BroadcastLaunch launch)
{
    AclSession acl;
    CHECK_ACL(acl.Ok() ? ACL_SUCCESS : ACL_ERROR_INVALID_PARAM);
    BroadcastCase bc(shape);
    DeviceBuffer x(bc.x);
    DeviceBuffer a(bc.a);
    DeviceBuffer y(bc.x.size() * sizeof(float));
    CHECK_ACL(x.Ok() && a.Ok() && y.Ok() ? ACL_SUCCESS : ACL_ERROR_BAD_ALLOC);

    launch(acl.stream, x.Get(), a.Get(), y.Get(), bc.tiling);
    CHECK_ACL(aclrtSynchronizeStream(acl.stream));

    return CheckClose("y", y.ToHost(bc.x.size()), bc.Reference(), BROADCAST_TOLERANCE);
}
