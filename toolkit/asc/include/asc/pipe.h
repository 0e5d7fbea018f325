// TPipe / TQue / TBuf: C++ handles on the emulator's objects (toolkit/pipe.py does the accounting and
// the queue state machine).
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
    template <class Q>
    bool InitBuffer(Q& que, uint8_t num, uint32_t len, const __asc::SL& loc = __asc::SL::current()) {
        ASC_API("PIPE.InitBuffer");
        __asc::Call c(__asc_fn, loc);
        c.obj(h_).obj(que.h_).i(num).u(len);
        return c.go().i() != 0;
    }
    template <class B>
    bool InitBuffer(B& buf, uint32_t len, const __asc::SL& loc = __asc::SL::current()) {
        ASC_API("PIPE.InitBuffer");
        __asc::Call c(__asc_fn, loc);
        c.obj(h_).obj(buf.h_).u(len);
        return c.go().i() != 0;
    }
    template <HardEvent evt>
    TEventID FetchEventID(const __asc::SL& loc = __asc::SL::current()) {
        ASC_API(".FetchEventID");
        __asc::Call c(__asc_fn, loc);
        c.obj(h_).tenum(__asc::enum_id<HardEvent>::value, (int)evt);
        return (TEventID)c.go().i();
    }
    template <HardEvent evt>
    TEventID AllocEventID(const __asc::SL& loc = __asc::SL::current()) { return FetchEventID<evt>(loc); }
    template <HardEvent evt>
    void ReleaseEventID(TEventID, const __asc::SL& = __asc::SL::current()) {}
    void Destroy(const __asc::SL& loc = __asc::SL::current()) {
        ASC_API(".Destroy");
        __asc::Call c(__asc_fn, loc);
        c.obj(h_);
        c.go();
    }
    void Init() {}
    void Reset() {}
};

inline TPipe* GetTPipePtr() { return __detail::current_pipe(); }

template <TPosition pos, int32_t depth = 1, auto mask = 0>
class TQue : public __asc_Handle {
public:
    explicit TQue(const __asc::SL& loc = __asc::SL::current()) {
        h_ = __asc::object_new("TQue", loc, (long long)pos, depth);
    }
    template <class T>
    LocalTensor<T> AllocTensor(const __asc::SL& loc = __asc::SL::current()) {
        ASC_API(".AllocTensor");
        __asc::Call c(__asc_fn, loc);
        c.obj(h_).template ttype<T>();
        return __asc::take_local<T>(c.go());
    }
    template <class T>
    bool EnQue(const LocalTensor<T>& t, const __asc::SL& loc = __asc::SL::current()) {
        ASC_API(".EnQue");
        __asc::Call c(__asc_fn, loc);
        __asc::put_local(c.obj(h_), t);
        return c.go().i() != 0;
    }
    template <class T>
    LocalTensor<T> DeQue(const __asc::SL& loc = __asc::SL::current()) {
        ASC_API(".DeQue");
        __asc::Call c(__asc_fn, loc);
        c.obj(h_).template ttype<T>();
        return __asc::take_local<T>(c.go());
    }
    template <class T>
    void FreeTensor(LocalTensor<T>& t, const __asc::SL& loc = __asc::SL::current()) {
        ASC_API(".FreeTensor");
        __asc::Call c(__asc_fn, loc);
        __asc::put_local(c.obj(h_), t);
        c.go();
    }
    bool HasTensorInQue(const __asc::SL& loc = __asc::SL::current()) {
        ASC_API(".HasTensorInQue");
        __asc::Call c(__asc_fn, loc);
        c.obj(h_);
        return c.go().i() != 0;
    }
};

template <TPosition src, TPosition dst, int32_t depth = 1, auto mask = 0>
class TQueBind : public TQue<src, depth, mask> {};

template <TPosition pos = TPosition::VECCALC>
class TBuf : public __asc_Handle {
public:
    explicit TBuf(const __asc::SL& loc = __asc::SL::current()) {
        h_ = __asc::object_new("TBuf", loc, (long long)pos);
    }
    template <class T>
    LocalTensor<T> Get(const __asc::SL& loc = __asc::SL::current()) {
        ASC_API(".Get");
        __asc::Call c(__asc_fn, loc);
        c.obj(h_).template ttype<T>();
        return __asc::take_local<T>(c.go());
    }
    template <class T>
    LocalTensor<T> Get(uint32_t len, const __asc::SL& loc = __asc::SL::current()) {
        ASC_API(".Get");
        __asc::Call c(__asc_fn, loc);
        c.obj(h_).template ttype<T>().u(len);
        return __asc::take_local<T>(c.go());
    }
};

}  // namespace AscendC
