// tikicpulib.h: the CPU debug mode of CANN's kernel-launch samples (RUN_MODE cpu, ASCENDC_CPU_DEBUG), on the
// migrate-check emulator: GmAlloc/GmFree are device memory (the emulator's GM), ICPU_RUN_KF(kernel, blockDim,
// args...) is the launch kernel<<<blockDim, nullptr, nullptr>>>(args...) (lock-step cores, the same reports).
#pragma once
#include <cstddef>
#include "acl/acl.h"
#include "kernel_operator.h"

enum class KernelMode { MIX_MODE = 0, AIC_MODE, AIV_MODE, MIX_AIC_1_1, MIX_AIC_1_2 };

namespace AscendC {
inline void* GmAlloc(size_t size)
{
    void* p = nullptr;
    return aclrtMalloc(&p, size, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS ? p : nullptr;
}
inline void GmFree(void* p) { aclrtFree(p); }
inline void SetKernelMode(KernelMode) {}
}  // namespace AscendC

#define ICPU_SET_TILING_KEY(key) ((void)(key))
#define ICPU_RUN_KF(func, blockdim, ...)                                                                   \
    ::__asc::launch_kernel(#func, __FILE__, __LINE__, [&](auto&... __asc_a) { func(__asc_a...); }, blockdim, \
                           nullptr, nullptr)(__VA_ARGS__)
