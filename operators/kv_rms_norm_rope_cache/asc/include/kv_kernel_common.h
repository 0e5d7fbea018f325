// The outer data flow both full_load kernels share (the migration keeps it untouched): GM binding, the
// streaming queues, CopyRopeAndX, cos/sin copy-in, CopyOutK / CopyOutV with the cache scatter and the
// tile loop. A backend (Derived) provides GammaBufferBytes, InitWorkspace, CopyInGamma, Rope, RmsNorm.
#pragma once
#include "kernel_operator.h"
#include "sample_common.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

__aicore__ inline uint32_t Align(uint32_t n, uint32_t bytes) { return (n * bytes + 31) / 32 * 32; }

template <typename Derived>
class KvRmsNormRopeCacheBase {
public:
    __aicore__ inline void Init(GM_ADDR kv, GM_ADDR gamma, GM_ADDR cos, GM_ADDR sin, GM_ADDR index, GM_ADDR kCache,
                                GM_ADDR vCache, GM_ADDR kOut, GM_ADDR vOut, const KvRmsNormRopeCacheTiling& tiling,
                                TPipe* pipe)
    {
        tiling_ = tiling;
        pipe_ = pipe;
        dv_ = tiling.dv;
        dk_ = tiling.dk;
        ubFactor_ = tiling.ubFactor;
        blockIdx_ = GetBlockIdx();
        rowOffset_ = blockIdx_ * tiling.blockFactor;
        blockRows_ = tiling.blockFactor < tiling.totalRows - rowOffset_ ? tiling.blockFactor
                                                                        : tiling.totalRows - rowOffset_;
        kvGm_.SetGlobalBuffer((__gm__ bfloat16_t*)kv + rowOffset_ * (dv_ + dk_));
        gammaGm_.SetGlobalBuffer((__gm__ bfloat16_t*)gamma);
        cosGm_.SetGlobalBuffer((__gm__ bfloat16_t*)cos + rowOffset_ * dk_);
        sinGm_.SetGlobalBuffer((__gm__ bfloat16_t*)sin + rowOffset_ * dk_);
        indexGm_.SetGlobalBuffer((__gm__ int64_t*)index);
        kCacheGm_.SetGlobalBuffer((__gm__ bfloat16_t*)kCache);
        vCacheGm_.SetGlobalBuffer((__gm__ bfloat16_t*)vCache);
        kOutGm_.SetGlobalBuffer((__gm__ bfloat16_t*)kOut + rowOffset_ * dk_);
        vOutGm_.SetGlobalBuffer((__gm__ bfloat16_t*)vOut + rowOffset_ * dv_);
        pipe->InitBuffer(gammaQueue_, 1, self().GammaBufferBytes());
        pipe->InitBuffer(inQueue_, BUFFER_NUM, ubFactor_ * Align(dv_ + dk_, 2));
        pipe->InitBuffer(cosSinQueue_, BUFFER_NUM, ubFactor_ * Align(2 * dk_, 2));
        pipe->InitBuffer(outQueue_, BUFFER_NUM, ubFactor_ * Align(dv_, 2));
        self().InitWorkspace(pipe);
    }

    __aicore__ inline void Process()
    {
        auto gammaLocal = self().CopyInGamma();
        uint32_t ubLoop = (blockRows_ + ubFactor_ - 1) / ubFactor_;
        for (uint32_t loopIdx = 0; loopIdx < ubLoop; ++loopIdx) {
            uint32_t rows = loopIdx < ubLoop - 1 ? ubFactor_ : blockRows_ - loopIdx * ubFactor_;
            ProcessTile(loopIdx, rows, gammaLocal);
        }
        gammaQueue_.FreeTensor(gammaLocal);
    }

protected:
    template <typename G>
    __aicore__ inline void ProcessTile(uint32_t loopIdx, uint32_t rows, G& gammaLocal)
    {
        LocalTensor<bfloat16_t> inLocal = inQueue_.AllocTensor<bfloat16_t>();
        CopyRopeAndX(inLocal, loopIdx, rows);
        inQueue_.EnQue(inLocal);
        inLocal = inQueue_.DeQue<bfloat16_t>();
        LocalTensor<bfloat16_t> ropeLocal = inLocal;
        LocalTensor<bfloat16_t> xLocal = inLocal[rows * dk_];

        LocalTensor<bfloat16_t> cosSinLocal = cosSinQueue_.AllocTensor<bfloat16_t>();
        DataCopy(cosSinLocal, cosGm_[loopIdx * ubFactor_ * dk_], rows * dk_);
        DataCopy(cosSinLocal[rows * dk_], sinGm_[loopIdx * ubFactor_ * dk_], rows * dk_);
        cosSinQueue_.EnQue(cosSinLocal);
        cosSinLocal = cosSinQueue_.DeQue<bfloat16_t>();

        LocalTensor<bfloat16_t> outLocal = outQueue_.AllocTensor<bfloat16_t>();
        self().Rope(outLocal, ropeLocal, cosSinLocal, rows);
        outQueue_.EnQue(outLocal);
        outLocal = outQueue_.DeQue<bfloat16_t>();
        CopyOut(outLocal, loopIdx, rows, dk_, kCacheGm_, kOutGm_);
        outQueue_.FreeTensor(outLocal);
        cosSinQueue_.FreeTensor(cosSinLocal);

        outLocal = outQueue_.AllocTensor<bfloat16_t>();
        self().RmsNorm(outLocal, xLocal, gammaLocal, rows);
        outQueue_.EnQue(outLocal);
        outLocal = outQueue_.DeQue<bfloat16_t>();
        CopyOut(outLocal, loopIdx, rows, dv_, vCacheGm_, vOutGm_);
        outQueue_.FreeTensor(outLocal);
        inQueue_.FreeTensor(inLocal);
    }

    __aicore__ inline void CopyRopeAndX(LocalTensor<bfloat16_t>& inLocal, uint32_t loopIdx, uint32_t rows)
    {
        uint64_t gmOffset = static_cast<uint64_t>(loopIdx) * ubFactor_ * (dv_ + dk_);
        DataCopyPadExtParams<bfloat16_t> padParams{false, 0, 0, 0};
        DataCopyExtParams xParams{static_cast<uint16_t>(rows), dv_ * 2, dk_ * 2, 0, 0};
        DataCopyPad(inLocal[rows * dk_], kvGm_[gmOffset], xParams, padParams);
        DataCopyExtParams ropeParams{static_cast<uint16_t>(rows), dk_ * 2, dv_ * 2, 0, 0};
        DataCopyPad(inLocal, kvGm_[gmOffset + dv_], ropeParams, padParams);
    }

    // per row: read the token's cache index (scalar GM read), then the cache row (if idx >= 0) and the output row
    __aicore__ inline void CopyOut(LocalTensor<bfloat16_t>& outLocal, uint32_t loopIdx, uint32_t rows, uint32_t d,
                                   GlobalTensor<bfloat16_t>& cacheGm, GlobalTensor<bfloat16_t>& outGm)
    {
        DataCopyExtParams copyParams{1, d * 2, 0, 0, 0};
        for (uint32_t i = 0; i < rows; ++i) {
            uint32_t tileRow = loopIdx * ubFactor_ + i;
            uint32_t token = rowOffset_ + tileRow;
            int64_t cacheOffset = indexGm_.GetValue(token);
            SetFlag<HardEvent::S_MTE3>(EVENT_ID0);
            WaitFlag<HardEvent::S_MTE3>(EVENT_ID0);
            if (cacheOffset >= 0) {
                uint64_t batch = token / tiling_.seqLength;
                DataCopyPad(cacheGm[(batch * tiling_.cacheLength + cacheOffset) * d], outLocal[i * d], copyParams);
            }
            DataCopyPad(outGm[tileRow * d], outLocal[i * d], copyParams);
        }
    }

    Derived& self() { return *static_cast<Derived*>(this); }

    KvRmsNormRopeCacheTiling tiling_{};
    TPipe* pipe_ = nullptr;
    uint32_t dv_ = 0, dk_ = 0, ubFactor_ = 0, blockIdx_ = 0, rowOffset_ = 0, blockRows_ = 0;
    GlobalTensor<bfloat16_t> kvGm_, gammaGm_, cosGm_, sinGm_, kCacheGm_, vCacheGm_, kOutGm_, vOutGm_;
    GlobalTensor<int64_t> indexGm_;
    TQue<TPosition::VECIN, 1> gammaQueue_, inQueue_, cosSinQueue_;
    TQue<TPosition::VECOUT, 1> outQueue_;
};
