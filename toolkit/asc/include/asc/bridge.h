// The call bridge of the migrate-check .asc runner: every AscendC API call in a user's program is
// marshalled into one call of the Python emulator (toolkit/asc/bridge.py), which runs the same API
// implementation the Python kernels use. Values travel as tagged words; see bridge.py for the decoder.
// Nothing here depends on Python headers: runtime.cpp declares the few stable-ABI functions it needs.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <source_location>
#include <type_traits>

namespace __asc {
using SL = std::source_location;
using i64 = long long;

// Word tags (bridge.py: TAG_*). A tag's high bits carry a dtype code or a struct id.
enum Tag : i64 {
    T_INT = 1, T_UINT = 2, T_FLT = 3, T_REG = 4, T_MASK = 5, T_OBJ = 6, T_UBPTR = 7, T_GMPTR = 8,
    T_LOCAL = 9, T_GLOBAL = 10, T_REF = 11, T_AREG = 12, T_STRUCT = 13, T_UBREF = 14, T_BOOL = 15,
    T_NONE = 16, T_TTYPE = 20, T_TENUM = 21, T_TTRAIT = 22, T_U64ARR = 23, T_EARG = 24, T_TVALUE = 25,
    T_TNAMED = 26,
};

// dtype codes (bridge.py: DTYPES)
template <class T> struct dtype_code { static constexpr int value = 0; };
#define ASC_DTYPE(T, c) template <> struct dtype_code<T> { static constexpr int value = c; };
ASC_DTYPE(int8_t, 1) ASC_DTYPE(uint8_t, 2) ASC_DTYPE(int16_t, 3) ASC_DTYPE(uint16_t, 4)
ASC_DTYPE(int32_t, 5) ASC_DTYPE(uint32_t, 6) ASC_DTYPE(long, 7) ASC_DTYPE(unsigned long, 8)
ASC_DTYPE(long long, 7) ASC_DTYPE(unsigned long long, 8) ASC_DTYPE(float, 11) ASC_DTYPE(double, 12)
ASC_DTYPE(bool, 13) ASC_DTYPE(char, 1) ASC_DTYPE(void, 2)
template <class T> constexpr int dtype_v = dtype_code<std::remove_cv_t<T>>::value;

struct Obj;                      // an opaque Python object
Obj* api(const char* name);      // resolve an API name once (cached per call site by the callers)

struct Word { i64 i; double d; bool is_float; };

struct Ret {                     // the Python result; released when it goes out of scope
    Obj* o = nullptr;
    Ret() = default;
    explicit Ret(Obj* p) : o(p) {}
    Ret(const Ret&) = delete;
    Ret& operator=(const Ret&) = delete;
    Ret(Ret&& r) noexcept : o(r.o) { r.o = nullptr; }
    ~Ret();
    i64 i(int k = -1) const;     // k >= 0: element k of a tuple result
    double f(int k = -1) const;
};

// One API call: its words, then go(). Every generated API wrapper builds one through ASC_CALL, which tags it
// with the API's stable id (toolkit.ascendc.api: the same id on both sides of the bridge).
class Call {
public:
    Call(Obj* fn, const SL& loc, int api_id = 0) : fn_(fn), loc_(loc), api_id_(api_id) {}
    Call& w(i64 v) { push(v); return *this; }
    Call& tag(i64 t, i64 v) { push(t); push(v); return *this; }
    Call& i(i64 v) { return tag(T_INT, v); }
    Call& u(unsigned long long v) { return tag(T_UINT, (i64)v); }
    Call& b(bool v) { return tag(T_BOOL, v ? 1 : 0); }
    Call& f(double v) { push(T_FLT); words_[n_].d = v; words_[n_].is_float = true; ++n_; return *this; }
    template <class T> Call& num(T v) {
        if constexpr (std::is_floating_point_v<T>) return f((double)v);
        else if constexpr (std::is_same_v<T, bool>) return b(v);
        else if constexpr (std::is_integral_v<T> && std::is_unsigned_v<T>) return u((unsigned long long)v);
        else if constexpr (std::is_integral_v<T> || std::is_enum_v<T>) return i((i64)v);
        else return f((double)(float)v);            // half, bfloat16_t: through float, exact
    }
    template <class T> Call& ttype() { return tag(T_TTYPE, dtype_v<T>); }
    Call& tenum(int enum_id, int value) { return tag(T_TENUM | ((i64)enum_id << 8), value); }
    Call& earg(int enum_id, int value) { return tag(T_EARG | ((i64)enum_id << 8), value); }
    Call& tvalue(i64 v) { return tag(T_TVALUE, v); }        // an integer non-type template argument
    // a named non-type template argument (MemBase isSetMask, config fields): the stable id of the name, the value
    Call& tnamed(int name_id, i64 value) { return tag(T_TNAMED | ((i64)name_id << 8), value); }
    Call& obj(i64 h) { return tag(T_OBJ, h); }
    template <class T> Call& ref(const T& v) { return tag(T_REF | ((i64)dtype_v<T> << 8), (i64)v); }
    Call& u64arr(const unsigned long long* m) { return tag(T_U64ARR, (i64)m[0]).w((i64)m[1]); }
    Call& u64arr(const unsigned long* m) { return tag(T_U64ARR, (i64)m[0]).w((i64)m[1]); }
    // two uint32_t (the high-level reductions' srcShape[], PhiloxKey): sent as a U64ARR pair
    Call& u64arr(const unsigned int* m) { return tag(T_U64ARR, (i64)m[0]).w((i64)m[1]); }
    int api_id() const { return api_id_; }
    Ret go();                   // run the call; throws __asc::Abort if the emulated core stopped
private:
    void push(i64 v) { words_[n_].i = v; words_[n_].is_float = false; ++n_; }
    Obj* fn_;
    const SL& loc_;
    int api_id_;
    Word words_[192];             // a high-level call with its tiling struct needs ~150
    int n_ = 0;
};

struct Abort {};                // a fatal diagnostic: the emulated core stops (as the hardware would)

// The current core's UB is a real array at this address: __ubuf__ pointers are real pointers into it
// (so raw dereferences work) whose low 32 bits are the UB byte address (ub_base is 4 GiB aligned).
extern unsigned char* ub_base;
// Scalar reads (GetValue) so far: an asc_vf_call counts those made while its arguments are evaluated
// (a VF parameter read by the scalar unit just before the call, as the Python kernels mark it).
extern long long scalar_reads;
// A UB byte address is the low 32 bits of a __ubuf__ pointer; one beyond the UB (or below it) is kept as
// is, so the emulator's bounds check reports it (UB_OUT_OF_BOUNDS) instead of wrapping it into the UB.
constexpr unsigned long long kUbAddrMask = 0xFFFFFFFFull;
inline i64 ub_addr(const volatile void* p) { return (i64)((unsigned long long)(uintptr_t)p & 0xFFFFFFFFull); }
template <class T> inline T* ub_ptr(unsigned long long addr) { return (T*)(ub_base + (addr & kUbAddrMask)); }

i64 object_new(const char* kind, const SL& loc, i64 a = 0, i64 b = 0);
void object_free(i64 h);
i64 object_copy(i64 h);
}  // namespace __asc

#define ASC_SLP const ::__asc::SL& loc = ::__asc::SL::current()
#define ASC_API(name) static ::__asc::Obj* const __asc_fn = ::__asc::api(name)
// The start of every generated API wrapper: resolve the API once per call site, open its Call `c`
#define ASC_CALL(ID, NAME) ASC_API(NAME); ::__asc::Call c(__asc_fn, loc, ID)
