// TPipe / TQue / TQueBind / TBuf / TBufPool / LocalMemAllocator: C++ handles on the emulator's objects
// (toolkit/ascendc/pipe.py and bufpool.py do the accounting and the queue state machine). Their API methods
// are generated (toolkit/ascendc/api/resource.py).
#pragma once
#include <unordered_map>
#include "asc/tensor.h"
#include "asc/gen/structs.h"

namespace AscendC {

class TPipe;
namespace __detail {
// GetTPipePtr: the TPipe constructed last on the running core (cores are told apart by their UB, which
// toolkit/asc/program.py switches with the core: in lock-step several cores' TPipes are alive at once)
inline TPipe*& current_pipe() {
    static std::unordered_map<const void*, TPipe*> pipes;
    return pipes[__asc::ub_base];
}
inline GM_ADDR& sys_workspace() { static GM_ADDR p = nullptr; return p; }
// SSBuffer: 3 KB shared by the core's units (GetSsbufBaseAddr); one host buffer per program
inline void* ssbuf() { alignas(32) static unsigned char b[3072]; return b; }
// TQueBind<src, dst>: the buffer's position is the first of the two that is not GM
constexpr TPosition bind_position(TPosition src, TPosition dst) { return src == TPosition::GM ? dst : src; }
}  // namespace __detail

// A buffer of a custom TBufPool (GetBufHandle, InitStartBufHandle, InitBufHandle): its index in the pool
using TBufHandle = uint64_t;

class __asc_Handle {
public:
    long long h_ = 0;
    __asc_Handle() = default;
    __asc_Handle(const __asc_Handle&) = delete;
    __asc_Handle& operator=(const __asc_Handle&) = delete;
    ~__asc_Handle() { if (h_) __asc::object_free(h_); }
};

class TPipe : public __asc_Handle {
public:
    explicit TPipe(const __asc::SL& loc = __asc::SL::current()) {
        h_ = __asc::object_new("TPipe", loc);
        __detail::current_pipe() = this;
    }
    ~TPipe() { if (__detail::current_pipe() == this) __detail::current_pipe() = nullptr; }
#include "asc/gen/TPipe.inc"
};

template <TPosition pos, int32_t depth = 1, auto mask = 0>
class TQue : public __asc_Handle {
public:
    explicit TQue(const __asc::SL& loc = __asc::SL::current()) {
        h_ = __asc::object_new("TQue", loc, (long long)pos, depth);
    }
#include "asc/gen/TQue.inc"
};

template <TPosition src, TPosition dst, int32_t depth = 1, auto mask = 0>
class TQueBind : public __asc_Handle {
public:
    explicit TQueBind(const __asc::SL& loc = __asc::SL::current()) {
        h_ = __asc::object_new("TQue", loc, (long long)__detail::bind_position(src, dst), depth);
    }
#include "asc/gen/TQueBind.inc"
};

template <TPosition pos = TPosition::VECCALC>
class TBuf : public __asc_Handle {
public:
    explicit TBuf(const __asc::SL& loc = __asc::SL::current()) {
        h_ = __asc::object_new("TBuf", loc, (long long)pos);
    }
#include "asc/gen/TBuf.inc"
};

template <TPosition pos, uint32_t bufIDSize = 4>
class TBufPool : public __asc_Handle {
public:
    explicit TBufPool(const __asc::SL& loc = __asc::SL::current()) {
        h_ = __asc::object_new("TBufPool", loc, (long long)pos, bufIDSize);
    }
#include "asc/gen/TBufPool.inc"
};

template <Hardware hard = Hardware::UB>
class LocalMemAllocator : public __asc_Handle {
public:
    explicit LocalMemAllocator(const __asc::SL& loc = __asc::SL::current()) {
        h_ = __asc::object_new("LocalMemAllocator", loc, (long long)hard);
    }
#include "asc/gen/LocalMemAllocator.inc"
};

}  // namespace AscendC

// EXTERN_IMPL_BUFPOOL(MyPool, POSITION, BUFID_SIZE) inside a user's class: the pool members the page lists
// (Reset, Init, GetBufHandle, Set/GetCurAddr, Set/GetCurBufSize) on an emulated TBufPool, so that
// TPipe::InitBufPool(myPool, len) gives it its region; the user's InitBuffer hands the buffers out.
#define EXTERN_IMPL_BUFPOOL(EXT_BUFPOOL, POSITION, BUFID_SIZE)                                               \
public:                                                                                                   \
    ::AscendC::TBufPool<POSITION, BUFID_SIZE> asc_pool_;                                                  \
    long long& h_ = asc_pool_.h_;                                                                         \
    void Reset(ASC_SLP) { asc_pool_.Reset(loc); }                                                         \
    void Init(ASC_SLP) { asc_pool_.Init(loc); }                                                           \
    ::AscendC::TBufHandle GetBufHandle(uint8_t offset, ASC_SLP) { return asc_pool_.GetBufHandle(offset, loc); } \
    void SetCurAddr(uint32_t curAddr, ASC_SLP) { asc_pool_.SetCurAddr(curAddr, loc); }                    \
    uint32_t GetCurAddr(ASC_SLP) { return asc_pool_.GetCurAddr(loc); }                                    \
    void SetCurBufSize(uint8_t curBufSize, ASC_SLP) { asc_pool_.SetCurBufSize(curBufSize, loc); }         \
    uint8_t GetCurBufSize(ASC_SLP) { return asc_pool_.GetCurBufSize(loc); }

#include "asc/gen/resource.h"
