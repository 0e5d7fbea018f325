// The kernel skeleton every variant shares: GM binding, block -> rows (InitGMOffsets), the hand-made ping/pong
// flag protocol and the DataCopyPad tile copies. A variant (Derived) provides InitBuffers, PrepareTensors,
// TileTensors and Compute. Template arguments as in the sample: (TOTAL_M, TOTAL_N, SINGLE_CORE_M,
// SINGLE_CORE_N, tileLen).
#pragma once
#include "kernel_operator.h"
#include "sample_common.h"

using namespace AscendC;

template <typename Derived, uint32_t kTotalM, uint32_t kTotalN, uint32_t kSingleCoreM, uint32_t kSingleCoreN,
          uint32_t kTileLen>
class SoftmaxKernelBase {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y)
    {
        InitSocState();
        xGm_.SetGlobalBuffer((__gm__ float*)x);
        yGm_.SetGlobalBuffer((__gm__ float*)y);
        InitGMOffsets();
        self().InitBuffers();
    }

    __aicore__ inline void Process()
    {
        self().PrepareTensors();
        SetFlag<HardEvent::V_MTE2>(EVENT_ID0);
        SetFlag<HardEvent::V_MTE2>(EVENT_ID1);
        SetFlag<HardEvent::MTE3_V>(EVENT_ID0);
        SetFlag<HardEvent::MTE3_V>(EVENT_ID1);
        constexpr uint32_t tileRow = kTileLen / kSingleCoreN;
        uint32_t tiles = (actualM_ + tileRow - 1) / tileRow;
        uint32_t tailRow = actualM_ - (tiles - 1) * tileRow;
        for (uint32_t t = 0; t < tiles; ++t) {
            event_t ev = (t & 1) ? EVENT_ID1 : EVENT_ID0;
            uint32_t rows = (t == tiles - 1) ? tailRow : tileRow;
            LocalTensor<float> xLocal, yLocal;
            self().TileTensors(t, xLocal, yLocal);
            uint64_t gmOffset = static_cast<uint64_t>(t) * tileRow * kTotalN;
            WaitFlag<HardEvent::V_MTE2>(ev);
            DataCopyExtParams cpIn{static_cast<uint16_t>(rows), actualN_ * 4, (kTotalN - actualN_) * 4, 0, 0};
            DataCopyPadExtParams<float> pad{false, 0, 0, 0};
            DataCopyPad<float>(xLocal, xGm_[gmOffset], cpIn, pad);
            SetFlag<HardEvent::MTE2_V>(ev);
            WaitFlag<HardEvent::MTE2_V>(ev);
            WaitFlag<HardEvent::MTE3_V>(ev);
            self().Compute(xLocal, yLocal, rows);
            SetFlag<HardEvent::V_MTE2>(ev);
            SetFlag<HardEvent::V_MTE3>(ev);
            WaitFlag<HardEvent::V_MTE3>(ev);
            DataCopyExtParams cpOut{static_cast<uint16_t>(rows), actualN_ * 4, 0, (kTotalN - actualN_) * 4, 0};
            DataCopyPad<float>(yGm_[gmOffset], yLocal, cpOut);
            SetFlag<HardEvent::MTE3_V>(ev);
        }
        WaitFlag<HardEvent::V_MTE2>(EVENT_ID0);
        WaitFlag<HardEvent::V_MTE2>(EVENT_ID1);
        WaitFlag<HardEvent::MTE3_V>(EVENT_ID0);
        WaitFlag<HardEvent::MTE3_V>(EVENT_ID1);
    }

protected:
    __aicore__ inline void InitGMOffsets()
    {
        constexpr uint32_t mIndex = (kTotalM + kSingleCoreM - 1) / kSingleCoreM;
        constexpr uint32_t nIndex = (kTotalN + kSingleCoreN - 1) / kSingleCoreN;
        constexpr uint32_t tailM = kTotalM - (mIndex - 1) * kSingleCoreM;
        constexpr uint32_t tailN = kTotalN - (nIndex - 1) * kSingleCoreN;
        uint32_t blockIdx = GetBlockIdx();
        uint32_t mIdx = blockIdx % mIndex;
        uint32_t nIdx = blockIdx / mIndex;
        actualM_ = (mIdx == mIndex - 1) ? tailM : kSingleCoreM;
        actualN_ = (nIdx == nIndex - 1) ? tailN : kSingleCoreN;
        uint64_t offset = static_cast<uint64_t>(mIdx) * kSingleCoreM * kTotalN + nIdx * kSingleCoreN;
        xGm_ = xGm_[offset];
        yGm_ = yGm_[offset];
    }

    Derived& self() { return *static_cast<Derived*>(this); }

    GlobalTensor<float> xGm_;
    GlobalTensor<float> yGm_;
    uint32_t actualM_ = 0;
    uint32_t actualN_ = 0;
};
