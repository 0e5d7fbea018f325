// VF instances, hardware loops, asc_vf_call and kernel launches.
#pragma once
#include <cstdio>
#include <exception>
#include <functional>
#include <string>
#include <tuple>
#include <utility>
#include "asc/bridge.h"
#include "asc/tensor.h"

namespace __asc {
// The static identity of a VF instance: the bytes of its parameters, a __ubuf__ pointer as its UB byte
// address (each core's UB lives at its own base; the same UB address is the same argument), a LocalTensor
// as its address, length and position. A parameter with no exact byte identity (a class with padding or
// its own copy semantics) makes the instance unkeyable: it then runs on its own core only.
extern unsigned long long ub_lo, ub_hi;
template <class T> struct is_local_tensor : std::false_type {};
template <class T> struct is_local_tensor<AscendC::LocalTensor<T>> : std::true_type {};
struct Unkeyable {};              // the rewrite could not name every parameter
template <class T>
bool vf_key(std::string& k, const T& v) {
    using U = std::remove_cv_t<T>;
    if constexpr (std::is_same_v<U, Unkeyable>) {
        return false;
    } else if constexpr (std::is_pointer_v<U>) {
        unsigned long long a = (unsigned long long)(uintptr_t)v;
        unsigned long long w = a >= ub_lo && a < ub_hi ? (a & 0xFFFFFFFFull) | (1ull << 63) : a;
        k.append((const char*)&w, sizeof w);
        return true;
    } else if constexpr (is_local_tensor<U>::value) {
        unsigned long long w[3] = {v.addr_, v.count_, (unsigned long long)v.pos_};
        k.append((const char*)w, sizeof w);
        return true;
    } else if constexpr (std::is_arithmetic_v<U> || std::is_enum_v<U> || std::has_unique_object_representations_v<U>) {
        k.append((const char*)&v, sizeof v);
        return true;
    } else {
        return false;
    }
}

// Opened by the rewrite around every __simd_vf__ body (``if (VfGate g{...}; g) { body }``): one VF
// instance on the current core. In lock-step the gate is closed (the body skipped) on a core whose
// group's leader ran the body for it.
class VfGate {
public:
    template <class... P>
    VfGate(const char* name, int nparams, int no_fusion, const char* file, int line, const P&... params)
        : exceptions_(std::uncaught_exceptions()) {
        std::string key;
        bool keyable = (true && ... && vf_key(key, params));
        open(name, nparams, no_fusion, file, line, keyable, key);
    }
    ~VfGate();
    explicit operator bool() const { return h_ != 0; }
    VfGate(const VfGate&) = delete;
    VfGate& operator=(const VfGate&) = delete;
private:
    void open(const char* name, int nparams, int no_fusion, const char* file, int line, bool keyable,
              const std::string& key);
    i64 h_ = 0;
    int exceptions_ = 0;
};
// Guards every loop of a __simd_vf__ / __simd_callee__ body (see rewrite.py). hardware: 0 a software loop,
// 1 a hardware loop, 2 a hardware loop whose bound is a literal (unrolled when nested beyond the levels).
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
void launch_run(i64 launch, void* body);      // runs body(core) for every core (lock-step or serial)
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
        std::function<int(unsigned)> body = [&](unsigned) -> int {   // one core's run: 1 if it aborted
            auto copy = saved;
            try {
                std::apply(kernel, copy);
            } catch (const Abort&) {
                return 1;
            }
            return 0;
        };
        launch_run(h, &body);
        launch_end(h);
    };
}
}  // namespace __asc

// asc_vf_call<F>(args...) must expand at the call site (its file:line): a macro, declared in
// toolkit/ascendc/api/tools.py as a hand-written form. (Device printf / PRINTF are in asc/debug.h.)
#define asc_vf_call ::__asc::VfCallSite{__FILE__, __LINE__}.call
