// RegBase register types as C++ handles on the emulator's register objects (toolkit/ascendc/regbase/types.py).
// Constructing a register declares it in the running VF; copying copies its value; destruction releases it.
#pragma once
#include "asc/dma.h"

namespace AscendC::Reg {

class __RegHandle {
public:
    long long h_ = 0;
    __RegHandle() = default;
    __RegHandle(const char* kind, long long dtype, const __asc::SL& loc, long long b = 0) {
        h_ = __asc::object_new(kind, loc, dtype, b);
    }
    __RegHandle(const __RegHandle& o) : h_(o.h_ ? __asc::object_copy(o.h_) : 0) {}
    __RegHandle(__RegHandle&& o) noexcept : h_(o.h_) { o.h_ = 0; }
    __RegHandle& operator=(const __RegHandle& o) {
        if (this != &o) {
            long long n = o.h_ ? __asc::object_copy(o.h_) : 0;
            if (h_) __asc::object_free(h_);
            h_ = n;
        }
        return *this;
    }
    __RegHandle& operator=(__RegHandle&& o) noexcept {
        if (this != &o) {
            if (h_) __asc::object_free(h_);
            h_ = o.h_;
            o.h_ = 0;
        }
        return *this;
    }
    ~__RegHandle() { if (h_) __asc::object_free(h_); }
};

// RegTrait: how many VL registers a RegTensor spans (template arguments are these objects, as the vendor's)
struct RegTrait {
    int num = 1;
};
inline constexpr RegTrait RegTraitNumOne = {1};
inline constexpr RegTrait RegTraitNumTwo = {2};

template <class T, const RegTrait& Trait = RegTraitNumOne>
class RegTensor : public __RegHandle {
public:
    using value_type = T;
    explicit RegTensor(const __asc::SL& loc = __asc::SL::current())
        : __RegHandle("RegTensor", __asc::dtype_v<T>, loc, Trait.num) {}
};

class MaskReg : public __RegHandle {
public:
    using value_type = void;
    explicit MaskReg(const __asc::SL& loc = __asc::SL::current()) : __RegHandle("MaskReg", 0, loc) {}
    static MaskReg adopt(long long h) { MaskReg m(0); m.h_ = h; return m; }
private:
    explicit MaskReg(int) {}
};

class UnalignRegForLoad : public __RegHandle {
public:
    explicit UnalignRegForLoad(const __asc::SL& loc = __asc::SL::current())
        : __RegHandle("UnalignRegForLoad", 0, loc) {}
};
class UnalignRegForStore : public __RegHandle {
public:
    explicit UnalignRegForStore(const __asc::SL& loc = __asc::SL::current())
        : __RegHandle("UnalignRegForStore", 0, loc) {}
};
// The older name serves both directions: one staging register of each kind
class UnalignReg {
public:
    UnalignRegForLoad ld;
    UnalignRegForStore st;
    explicit UnalignReg(const __asc::SL& loc = __asc::SL::current()) : ld(loc), st(loc) {}
};

class AddrReg : public __RegHandle {
public:
    AddrReg() = default;
    static AddrReg adopt(long long h) { AddrReg a; a.h_ = h; return a; }
};

struct CastTrait {
    RegLayout layoutMode = RegLayout::UNKNOWN;
    SatMode satMode = SatMode::UNKNOWN;
    MaskMergeMode mrgMode = MaskMergeMode::UNKNOWN;
    RoundMode roundMode = RoundMode::UNKNOWN;
};
// Cast's default trait (a reference template argument: any static CastTrait object binds)
inline constexpr CastTrait castTrait = {};
using RoundMode = ::AscendC::RoundMode;       // the pages spell it Reg::RoundMode too

template <class R> struct is_reg : std::false_type {};
template <class T, const RegTrait& Tr> struct is_reg<RegTensor<T, Tr>> : std::true_type {};
template <> struct is_reg<MaskReg> : std::true_type {};

template <class T, class R>
using elem_t = std::conditional_t<std::is_void_v<T>, typename R::value_type, T>;

}  // namespace AscendC::Reg

namespace AscendC { namespace MicroAPI = Reg; }

namespace __asc {
template <class T, const AscendC::Reg::RegTrait& Tr>
inline Call& put(Call& c, const AscendC::Reg::RegTensor<T, Tr>& r) { return c.tag(T_REG, r.h_); }
// an ``auto mode`` template argument that is a pointer to a ...SpecificMode struct: its merge mode is sent
template <class M>
    requires requires(const M* m) { m->mrgMode; }
inline Call& put_enum(Call& c, const M* m) { return put_enum(c, m->mrgMode); }
inline Call& put(Call& c, const AscendC::Reg::MaskReg& m) { return c.tag(T_MASK, m.h_); }
inline Call& put(Call& c, const AscendC::Reg::UnalignRegForLoad& u) { return c.tag(T_OBJ, u.h_); }
inline Call& put(Call& c, const AscendC::Reg::UnalignRegForStore& u) { return c.tag(T_OBJ, u.h_); }
inline Call& put(Call& c, const AscendC::Reg::AddrReg& a) { return c.tag(T_AREG, a.h_); }
inline Call& put_trait(Call& c, const AscendC::Reg::CastTrait& t) {
    i64 packed = ((i64)t.layoutMode + 1) | (((i64)t.satMode + 1) << 4) | ((i64)t.mrgMode << 8) |
                 ((i64)t.roundMode << 12);
    return c.tag(T_TTRAIT, packed);
}
template <class T>
inline Call& put_ub(Call& c, T* p) { return put_ubptr(c, p); }
template <class T>
inline Call& put_ubref(Call& c, T* p) { return c.tag(T_UBREF | ((i64)dtype_v<T> << 8), ub_addr(p)); }
template <class T>
inline void set_ubref(T*& p, const Ret& r, int k) { p = ub_ptr<T>((unsigned long long)r.i(k)); }
}  // namespace __asc
