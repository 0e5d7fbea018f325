// TPipe / TQue / TBuf: C++ handles on the emulator's objects (toolkit/ascendc/pipe.py does the accounting
// and the queue state machine). Their API methods are generated (toolkit/ascendc/api/resource.py).
#pragma once
#include "asc/tensor.h"

namespace AscendC {

class TPipe;
namespace __detail { inline TPipe*& current_pipe() { static TPipe* p = nullptr; return p; } }

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
class TQueBind : public TQue<src, depth, mask> {};

template <TPosition pos = TPosition::VECCALC>
class TBuf : public __asc_Handle {
public:
    explicit TBuf(const __asc::SL& loc = __asc::SL::current()) {
        h_ = __asc::object_new("TBuf", loc, (long long)pos);
    }
#include "asc/gen/TBuf.inc"
};

}  // namespace AscendC

#include "asc/gen/resource.h"
