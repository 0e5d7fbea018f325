// LocalTensor / GlobalTensor: plain values on the C++ side (a UB byte address or a GM pointer, a length,
// and for queue buffers the owning queue's handle and slot); element access goes through the emulator.
#pragma once
#include <cstdio>
#include <string>
#include "asc/enums.h"
#include "asc/types.h"

namespace AscendC {
template <class T> class LocalTensor;
template <class T> class GlobalTensor;
}  // namespace AscendC

// Encoders the generated wrappers use (declared before the tensor classes, whose generated methods call them)
namespace __asc {
template <class T> Call& put_local(Call& c, const AscendC::LocalTensor<T>& t);
template <class T> Call& put_global(Call& c, const AscendC::GlobalTensor<T>& g);
template <class T> T take_scalar(const Ret& r);
// a scalar UB access through LocalTensor::operator() (bounds checked, the element taken as defined)
inline void ub_element(unsigned addr, unsigned nbytes, const SL& loc) {
    static Obj* const fn = api("rt.ub_element");
    Call c(fn, loc);
    c.i(addr).i(nbytes);
    c.go();
}
template <class E>
inline Call& put_enum(Call& c, E e) { return c.tenum(enum_id<E>::value, (int)e); }
template <class E>
inline Call& put_earg(Call& c, E e) { return c.earg(enum_id<E>::value, (int)e); }
// an integer non-type template argument (here: the generated headers before regtypes.h send them too)
inline Call& put_tvalue(Call& c, long long v) { return c.tvalue(v); }
template <class T>
inline Call& put_ttype(Call& c) {
    if constexpr (!std::is_void_v<T>) c.ttype<T>();
    return c;
}
}  // namespace __asc

namespace AscendC {
// ShapeInfo (hand-written: its shapes are arrays; the bridge encoder is generated, gen/structs.h)
constexpr uint32_t K_MAX_DIM = 8;
struct ShapeInfo {
    uint8_t shapeDim = 0;
    uint8_t originalShapeDim = 0;
    uint32_t shape[K_MAX_DIM] = {};
    uint32_t originalShape[K_MAX_DIM] = {};
    DataFormat dataFormat = DataFormat::ND;
    ShapeInfo() = default;
    ShapeInfo(const uint8_t inputShapeDim, const uint32_t inputShape[], const uint8_t inputOriginalShapeDim,
              const uint32_t inputOriginalShape[], const DataFormat inputFormat)
        : shapeDim(inputShapeDim), originalShapeDim(inputOriginalShapeDim), dataFormat(inputFormat) {
        for (uint32_t k = 0; k < inputShapeDim && k < K_MAX_DIM; ++k) shape[k] = inputShape[k];
        for (uint32_t k = 0; k < inputOriginalShapeDim && k < K_MAX_DIM; ++k) originalShape[k] = inputOriginalShape[k];
    }
    ShapeInfo(const uint8_t inputShapeDim, const uint32_t inputShape[], const DataFormat inputFormat)
        : ShapeInfo(inputShapeDim, inputShape, inputShapeDim, inputShape, inputFormat) {}
    ShapeInfo(const uint8_t inputShapeDim, const uint32_t inputShape[])
        : ShapeInfo(inputShapeDim, inputShape, DataFormat::ND) {}
};
// the product of the shape's dimensions
inline int GetShapeSize(const ShapeInfo& shapeInfo) {
    int n = 1;
    for (uint32_t k = 0; k < shapeInfo.shapeDim && k < K_MAX_DIM; ++k) n *= (int)shapeInfo.shape[k];
    return n;
}
using TTagType = int32_t;

template <class T>
class LocalTensor {
public:
    using PrimType = T;
    uint32_t addr_ = 0;          // UB byte address
    uint32_t count_ = 0;         // elements
    TPosition pos_ = TPosition::VECCALC;
    long long que_ = 0;          // owning queue (bridge handle), 0 for TBuf/raw tensors
    int32_t slot_ = -1;
    TTagType tag_ = 0;           // SetUserTag / GetUserTag
    ShapeInfo shape_{};          // SetShapeInfo / GetShapeInfo

    LocalTensor() = default;
    // LocalTensor<T>(TPosition, byteAddr, length): a tensor at a raw UB byte address (length in elements)
    LocalTensor(TPosition pos, uint32_t byteAddr, uint32_t length)
        : addr_((uint32_t)(byteAddr & __asc::kUbAddrMask)), count_(length), pos_(pos) {}

    // Hand-written API forms (declared in toolkit/ascendc/api/tensor.py): arithmetic on this value's own
    // address and length, which the emulator need not see; GetValue/SetValue are generated below.
    LocalTensor operator[](uint32_t offset) const {
        LocalTensor t = *this;
        t.addr_ += offset * (uint32_t)sizeof(T);
        t.count_ = offset < count_ ? count_ - offset : 0;
        return t;
    }
    template <class U>
    LocalTensor<U> ReinterpretCast() const {
        LocalTensor<U> t;
        t.addr_ = addr_;
        t.count_ = (uint32_t)((unsigned long long)count_ * sizeof(T) / sizeof(U));
        t.pos_ = pos_;
        t.que_ = que_;
        t.slot_ = slot_;
        return t;
    }
    __ubuf__ T* GetPhyAddr() const { return __asc::ub_ptr<T>(addr_); }
    __ubuf__ T* GetPhyAddr(uint32_t offset) const { return __asc::ub_ptr<T>(addr_ + offset * sizeof(T)); }
    uint32_t GetSize() const { return count_; }
    uint32_t GetLength() const { return count_ * (uint32_t)sizeof(T); }
    TPosition GetPosition() const { return pos_; }
    void SetSize(uint32_t n) { count_ = n; }
    void SetBufferLen(uint32_t dataLen) { count_ = dataLen; }
    // the new tensor starts offset elements of src's type after src (the page's rule)
    template <class S>
    void SetAddrWithOffset(LocalTensor<S>& src, uint32_t offset) {
        addr_ = src.addr_ + offset * (uint32_t)sizeof(S);
        uint64_t bytes = (uint64_t)src.count_ * sizeof(S);
        uint64_t skip = (uint64_t)offset * sizeof(S);
        count_ = (uint32_t)(bytes > skip ? (bytes - skip) / sizeof(T) : 0);
        pos_ = src.pos_;
    }
    void SetUserTag(const TTagType tag) { tag_ = tag; }
    TTagType GetUserTag() const { return tag_; }
    void SetShapeInfo(const ShapeInfo& shapeInfo) { shape_ = shapeInfo; }
    ShapeInfo GetShapeInfo() const { return shape_; }
    // ToFile (CPU debugging): the tensor's UB bytes to a file; 0 on success
    int32_t ToFile(const std::string& fileName) const {
        FILE* f = std::fopen(fileName.c_str(), "wb");
        if (!f) return -1;
        size_t n = (size_t)count_ * sizeof(T);
        size_t w = std::fwrite(__asc::ub_ptr<unsigned char>(addr_), 1, n, f);
        return std::fclose(f) == 0 && w == n ? 0 : -1;
    }

    // tensor(i): a reference to the element in UB, read or written by the scalar unit. The emulator checks
    // the bounds and takes the element as defined (it cannot tell a read from a write: a read of a
    // never-written element is not reported here).
    T& operator()(uint32_t index, const __asc::SL& loc = __asc::SL::current()) const {
        uint32_t a = addr_ + index * (uint32_t)sizeof(T);
        __asc::ub_element(a, (uint32_t)sizeof(T), loc);
        return *__asc::ub_ptr<T>(a);
    }
    // dst = src0 + src1, dst = src0 < src1 ...: the whole-tensor forms (asc/tensor_expr.h)
    template <class E, class = typename E::IsTensorExpr>
    LocalTensor& operator=(const E& expr) {
        expr.Assign(*this);
        return *this;
    }
#include "asc/gen/LocalTensor.inc"
};

template <class T>
class GlobalTensor {
public:
    using PrimType = T;
    __gm__ T* ptr_ = nullptr;
    unsigned long long count_ = ~0ull;      // ~0: up to the end of the device allocation
    ShapeInfo shape_{};                     // SetShapeInfo / GetShapeInfo

    // Hand-written API forms (declared in toolkit/ascendc/api/tensor.py): pointer arithmetic on this value.
    void SetGlobalBuffer(__gm__ T* p, unsigned long long n = ~0ull) { ptr_ = p; count_ = n; }
    GlobalTensor operator[](unsigned long long offset) const {
        GlobalTensor g = *this;
        g.ptr_ = ptr_ + offset;
        g.count_ = count_ == ~0ull ? ~0ull : (offset < count_ ? count_ - offset : 0);
        return g;
    }
    __gm__ T* GetPhyAddr() const { return ptr_; }
    __gm__ T* GetPhyAddr(unsigned long long offset) const { return ptr_ + offset; }
    unsigned long long GetSize() const { return count_; }
    template <class U>
    GlobalTensor<U> ReinterpretCast() const {
        GlobalTensor<U> g;
        g.ptr_ = (__gm__ U*)ptr_;
        g.count_ = count_ == ~0ull ? ~0ull : count_ * sizeof(T) / sizeof(U);
        g.shape_ = shape_;
        return g;
    }
    void SetShapeInfo(const ShapeInfo& shapeInfo) { shape_ = shapeInfo; }
    ShapeInfo GetShapeInfo() const { return shape_; }
    // direct element reference (a scalar GM access the emulator does not see; GetValue/SetValue are checked)
    __gm__ T& operator()(unsigned long long offset) const { return ptr_[offset]; }

#include "asc/gen/GlobalTensor.inc"
};

}  // namespace AscendC

namespace __asc {
template <class T>
Call& put_local(Call& c, const AscendC::LocalTensor<T>& t) {
    return c.tag(T_LOCAL | ((i64)dtype_v<T> << 8), t.addr_).w(t.count_).w((i64)t.pos_).w(t.que_).w(t.slot_);
}
template <class T>
Call& put_global(Call& c, const AscendC::GlobalTensor<T>& g) {
    return c.tag(T_GLOBAL | ((i64)dtype_v<T> << 8), (i64)(uintptr_t)g.ptr_).w((i64)g.count_);
}
template <class T>
inline Call& put_ubptr(Call& c, const volatile T* p) {
    return c.tag(T_UBPTR | ((i64)dtype_v<T> << 8), ub_addr(p));
}
template <class T>
inline Call& put_gmptr(Call& c, const volatile T* p) {
    return c.tag(T_GMPTR | ((i64)dtype_v<T> << 8), (i64)(uintptr_t)p);
}
// A LocalTensor returned by the emulator: (addr, count, position, queue handle, slot)
template <class T>
inline AscendC::LocalTensor<T> take_local(const Ret& r) {
    AscendC::LocalTensor<T> t;
    t.addr_ = (uint32_t)r.i(0);
    t.count_ = (uint32_t)r.i(1);
    t.pos_ = (AscendC::TPosition)r.i(2);
    t.que_ = r.i(3);
    t.slot_ = (int32_t)r.i(4);
    return t;
}
template <class T>
T take_scalar(const Ret& r) {
    if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>)
        return T((float)r.f());
    else
        return (T)r.i();
}
}  // namespace __asc
