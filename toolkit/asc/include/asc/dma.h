// DataCopy / DataCopyPad (GM <-> UB), SetFlag / WaitFlag / PipeBarrier, block index, InitSocState.
#pragma once
#include "asc/pipe.h"

namespace AscendC {

struct DataCopyParams {
    uint16_t blockCount = 1;
    uint16_t blockLen = 0;
    uint16_t srcStride = 0;
    uint16_t dstStride = 0;
    DataCopyParams() = default;
    DataCopyParams(uint16_t count, uint16_t len, uint16_t srcS, uint16_t dstS)
        : blockCount(count), blockLen(len), srcStride(srcS), dstStride(dstS) {}
};
struct DataCopyExtParams {
    uint16_t blockCount = 1;
    uint32_t blockLen = 0;
    long long srcStride = 0;
    long long dstStride = 0;
    uint32_t rsv = 0;
    DataCopyExtParams() = default;
    DataCopyExtParams(uint16_t count, uint32_t len, long long srcS, long long dstS, uint32_t r = 0)
        : blockCount(count), blockLen(len), srcStride(srcS), dstStride(dstS), rsv(r) {}
};
using DataCopyPadParams = DataCopyExtParams;
template <class T>
struct DataCopyPadExtParams {
    bool isPad = false;
    uint8_t leftPadding = 0;
    uint8_t rightPadding = 0;
    T paddingValue = T(0);
    DataCopyPadExtParams() = default;
    DataCopyPadExtParams(bool p, uint8_t l, uint8_t r, T v) : isPad(p), leftPadding(l), rightPadding(r), paddingValue(v) {}
};

}  // namespace AscendC

namespace __asc {
enum StructId { S_DATACOPY = 1, S_DATACOPY_EXT = 2, S_DATACOPY_PAD = 3, S_BINARY_REPEAT = 4, S_UNARY_REPEAT = 5,
                S_BRCB_REPEAT = 6, S_GATHER_MASK = 7 };
inline Call& put(Call& c, const AscendC::DataCopyParams& p) {
    return c.tag(T_STRUCT | (S_DATACOPY << 8), 4).i(p.blockCount).i(p.blockLen).i(p.srcStride).i(p.dstStride);
}
inline Call& put(Call& c, const AscendC::DataCopyExtParams& p) {
    return c.tag(T_STRUCT | (S_DATACOPY_EXT << 8), 5).i(p.blockCount).i(p.blockLen).i(p.srcStride)
        .i(p.dstStride).i(p.rsv);
}
template <class T>
inline Call& put(Call& c, const AscendC::DataCopyPadExtParams<T>& p) {
    return c.tag(T_STRUCT | (S_DATACOPY_PAD << 8), 4).b(p.isPad).i(p.leftPadding).i(p.rightPadding)
        .num(p.paddingValue);
}
}  // namespace __asc

namespace AscendC {

#define ASC_COPY_CALL(NAME)                    \
    ASC_API("DataCopy." NAME);                 \
    __asc::Call c(__asc_fn, loc)

template <class T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, uint32_t count,
              const __asc::SL& loc = __asc::SL::current()) {
    ASC_COPY_CALL("DataCopy");
    __asc::put_global(__asc::put_local(c, dst), src).u(count);
    c.go();
}
template <class T>
void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count,
              const __asc::SL& loc = __asc::SL::current()) {
    ASC_COPY_CALL("DataCopy");
    __asc::put_local(__asc::put_global(c, dst), src).u(count);
    c.go();
}
template <class T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& p,
              const __asc::SL& loc = __asc::SL::current()) {
    ASC_COPY_CALL("DataCopy");
    __asc::put(__asc::put_global(__asc::put_local(c, dst), src), p);
    c.go();
}
template <class T>
void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p,
              const __asc::SL& loc = __asc::SL::current()) {
    ASC_COPY_CALL("DataCopy");
    __asc::put(__asc::put_local(__asc::put_global(c, dst), src), p);
    c.go();
}
template <class T>
void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count,
              const __asc::SL& loc = __asc::SL::current()) {
    ASC_COPY_CALL("DataCopy");
    __asc::put_local(__asc::put_local(c, dst), src).u(count);
    c.go();
}
template <class T>
void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyExtParams& p,
                 const DataCopyPadExtParams<T>& pad, const __asc::SL& loc = __asc::SL::current()) {
    ASC_COPY_CALL("DataCopyPad");
    __asc::put(__asc::put(__asc::put_global(__asc::put_local(c, dst), src), p), pad);
    c.go();
}
template <class T>
void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyExtParams& p,
                 const __asc::SL& loc = __asc::SL::current()) {
    ASC_COPY_CALL("DataCopyPad");
    __asc::put(__asc::put_local(__asc::put_global(c, dst), src), p);
    c.go();
}
#undef ASC_COPY_CALL

// -- synchronisation ------------------------------------------------------------------------------
template <HardEvent evt>
void SetFlag(int32_t eventId = 0, const __asc::SL& loc = __asc::SL::current()) {
    ASC_API("SYNC.SetFlag");
    __asc::Call c(__asc_fn, loc);
    c.tenum(__asc::enum_id<HardEvent>::value, (int)evt).i(eventId);
    c.go();
}
template <HardEvent evt>
void WaitFlag(int32_t eventId = 0, const __asc::SL& loc = __asc::SL::current()) {
    ASC_API("SYNC.WaitFlag");
    __asc::Call c(__asc_fn, loc);
    c.tenum(__asc::enum_id<HardEvent>::value, (int)evt).i(eventId);
    c.go();
}
template <pipe_t pipe>
void PipeBarrier(const __asc::SL& loc = __asc::SL::current()) {
    ASC_API("SYNC.PipeBarrier");
    __asc::Call c(__asc_fn, loc);
    c.tenum(__asc::enum_id<pipe_t>::value, (int)pipe);
    c.go();
}

// -- system ---------------------------------------------------------------------------------------
inline int64_t GetBlockIdx(const __asc::SL& loc = __asc::SL::current()) {
    ASC_API("SYS.GetBlockIdx");
    return __asc::Call(__asc_fn, loc).go().i();
}
inline int64_t GetBlockNum(const __asc::SL& loc = __asc::SL::current()) {
    ASC_API("SYS.GetBlockNum");
    return __asc::Call(__asc_fn, loc).go().i();
}
inline int64_t GetSubBlockIdx() { return 0; }
inline int64_t GetTaskRation() { return 1; }
inline void InitSocState() {}
inline void SetAtomicNone() {}
inline void SetMaskNorm() {}
inline void SetMaskCount() {}
inline void ResetMask() {}

}  // namespace AscendC
