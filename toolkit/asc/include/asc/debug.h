// Debugging (declared in toolkit/ascendc/api/debug.py): device printf / PRINTF, assert / ascendc_assert, the
// time stamps and profiling markers, and the CPU-twin helpers (GmAlloc, ICPU_RUN_KF ...). DumpTensor,
// DumpAccChkPoint and Trap are generated (gen/debug.h). Device text is formatted here and handed to the
// emulator, which prints it per core when the launch ends (toolkit/ascendc/debug.py).
#pragma once
#include <cstdio>
#include <string>
#include "acl/acl_rt.h"
#include "asc/gen/debug.h"
#include "asc/vf.h"

namespace __asc {
// One piece of device text (the emulator buffers it per core)
inline void device_text(const std::string& s, const SL& loc = SL::current()) {
    static Obj* const fn = api("rt.device_print");
    Call c(fn, loc);
    c.i((i64)(uintptr_t)s.data()).i((i64)s.size());
    c.go();
}
template <class... A>
inline std::string format(const char* fmt, A... args) {
    int n = std::snprintf(nullptr, 0, fmt, args...);
    std::string s(n > 0 ? (size_t)n : 0, '\0');
    if (n > 0) std::snprintf(s.data(), s.size() + 1, fmt, args...);
    return s;
}
inline std::string format(const char* fmt) { return fmt; }
// half / bfloat16_t arguments print as float (as %f of a device printf takes them)
template <class T>
inline auto printable(T v) {
    if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>) return (double)(float)v;
    else if constexpr (std::is_same_v<T, float>) return (double)v;
    else return v;
}
[[noreturn]] inline void assert_fail(const char* file, int line, const char* expr, const std::string& msg,
                                     const SL& loc = SL::current()) {
    std::string text = format("[ASSERT] %s:%d: Assertion `%s' %s", file, line, expr, msg.c_str());
    if (text.empty() || text.back() != '\n') text += '\n';
    device_text(text, loc);
    static Obj* const fn = api("rt.kernel_assert");
    Call c(fn, loc);
    c.i((i64)(uintptr_t)text.data()).i((i64)text.size());
    c.go();
    throw Abort{};
}
template <class... A>
inline std::string assert_message(const char* fmt, A... args) { return format(fmt, printable(args)...); }
inline std::string assert_message() { return ""; }
}  // namespace __asc

namespace AscendC {
// printf / PRINTF: the C format of the arguments; the text reaches the output when the launch ends
template <class... A>
inline void PRINTF(const char* fmt, A... args) { __asc::device_text(__asc::format(fmt, __asc::printable(args)...)); }
template <class... A>
inline void printf(const char* fmt, A... args) { __asc::device_text(__asc::format(fmt, __asc::printable(args)...)); }

// PrintTimeStamp: only with -DASCENDC_TIME_STAMP_ON (off by default, as the page says); timeStamp is
// GetSystemCycle's stand-in, entry 0 (the stand-in starts there)
inline void PrintTimeStamp(uint32_t descId, ASC_SLP) {
#ifdef ASCENDC_TIME_STAMP_ON
    __asc::device_text(__asc::format("descId is %u, rsv is 0, timeStamp is %lld, pcPtr is %lld, entry is 0.\n", descId,
                                     (long long)GetSystemCycle(loc),
                                     (long long)(uintptr_t)__builtin_return_address(0)), loc);
#else
    (void)descId;
    (void)loc;
#endif
}
// Profiling markers: the emulator's trace has the cycle figures; these mark nothing
template <pipe_t pipe, uint16_t index>
inline void MarkStamp() {}
template <pipe_t pipe>
inline void MarkStamp(uint16_t index) { (void)index; }
inline void MetricsProfStart() {}
inline void MetricsProfStop() {}

// CPU twin debugging: GM from the emulated device memory, the kernel run as a <<<>>> launch
inline void* GmAlloc(size_t size) {
    void* p = nullptr;
    aclrtMalloc(&p, size, ACL_MEM_MALLOC_HUGE_FIRST);
    return p;
}
inline void GmFree(void* ptr) { aclrtFree(ptr); }
inline void SetKernelMode(KernelMode mode) { (void)mode; }
namespace __detail { inline uint64_t& tiling_key() { static uint64_t k = 0; return k; } }
}  // namespace AscendC

#define ICPU_SET_TILING_KEY(tilingKey) (::AscendC::__detail::tiling_key() = (uint64_t)(tilingKey))
#define ICPU_RUN_KF(func, numBlocks, ...)                                                                  \
    ::__asc::launch_kernel(#func, __FILE__, __LINE__, [&](auto&... asc_a) { func(asc_a...); }, numBlocks,   \
                           nullptr, nullptr)(__VA_ARGS__)

// assert(expr[, fmt, args...]) / ascendc_assert: on failure the message is printed and the core stops
#undef assert
#define assert(expr, ...)                                                                                   \
    ((expr) ? (void)0                                                                                       \
            : ::__asc::assert_fail(__FILE__, __LINE__, #expr, ::__asc::assert_message(__VA_ARGS__)))
#define ascendc_assert(expr, ...) assert(expr, ##__VA_ARGS__)
