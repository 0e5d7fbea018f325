// VF instances, hardware loops, asc_vf_call, kernel launches and device printf.
#pragma once
#include <cstdio>
#include <tuple>
#include <utility>
#include "asc/bridge.h"

namespace __asc {
// Opened by the rewrite at the top of every __simd_vf__ body: one VF instance on the current core.
class VfScope {
public:
    VfScope(const char* name, int nparams, int no_fusion, const char* file, int line);
    ~VfScope();
    VfScope(const VfScope&) = delete;
    VfScope& operator=(const VfScope&) = delete;
private:
    i64 h_ = 0;
    int exceptions_ = 0;
};
// Guards every loop of a __simd_vf__ / __simd_callee__ body (see rewrite.py).
class VfLoop {
public:
    VfLoop(int hardware, int unroll, const char* reason, const char* file, int line);
    ~VfLoop();
    bool next(bool cond) { if (cond && h_) iterate(); return cond; }
    VfLoop(const VfLoop&) = delete;
    VfLoop& operator=(const VfLoop&) = delete;
private:
    void iterate();
    i64 h_ = 0;
};
void vf_call_site(const char* file, int line, int nargs, int scalar_args);

struct VfCallSite {
    const char* file;
    int line;
    i64 reads = scalar_reads;      // taken before the arguments are evaluated
    template <auto F, class... A>
    void call(A&&... a) const {
        vf_call_site(file, line, (int)sizeof...(A), (int)(scalar_reads - reads));
        F(std::forward<A>(a)...);
    }
};

// kernel<<<blockDim, l2ctrl, stream>>>(args): the rewrite turns it into launch_kernel(...)(args)
i64 launch_begin(const char* name, const char* file, int line, unsigned block_dim);
bool core_begin(i64 launch, unsigned core);
void core_end(i64 launch, unsigned core, bool aborted);
void launch_end(i64 launch);
void launch_arg_ptr(i64 launch, int index, i64 addr, int dtype);

template <class A>
void launch_arg(i64 launch, int index, const A& a) {
    if constexpr (std::is_pointer_v<A>)
        launch_arg_ptr(launch, index, (i64)(uintptr_t)a, dtype_v<std::remove_cv_t<std::remove_pointer_t<A>>>);
    else
        launch_arg_ptr(launch, index, 0, 0);
}

template <class F, class B, class L2, class S>
auto launch_kernel(const char* name, const char* file, int line, F kernel, B blockDim, L2&&, S&&) {
    return [=](auto&&... args) {
        auto saved = std::make_tuple(std::decay_t<decltype(args)>(args)...);
        unsigned n = (unsigned)blockDim;
        i64 h = launch_begin(name, file, line, n);
        std::apply([h](const auto&... a) { int k = 0; (launch_arg(h, k++, a), ...); }, saved);
        for (unsigned core = 0; core < n; ++core) {
            if (!core_begin(h, core)) continue;
            auto copy = saved;
            bool aborted = false;
            try {
                std::apply(kernel, copy);
            } catch (const Abort&) {
                aborted = true;
            }
            core_end(h, core, aborted);
        }
        launch_end(h);
    };
}
}  // namespace __asc

#define asc_vf_call ::__asc::VfCallSite{__FILE__, __LINE__}.call

namespace AscendC {
template <class... A>
inline void PRINTF(const char* fmt, A... args) { std::printf(fmt, args...); }
template <class... A>
inline void printf(const char* fmt, A... args) { std::printf(fmt, args...); }
inline void DumpTensor(...) {}
}  // namespace AscendC
