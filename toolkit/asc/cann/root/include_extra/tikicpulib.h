// tikicpulib.h: the CPU debug mode of CANN's kernel-launch samples (RUN_MODE cpu, ASCENDC_CPU_DEBUG), on the
// migrate-check emulator. Everything it names is part of our kernel_operator.h (asc/debug.h): GmAlloc/GmFree
// are device memory (the emulator's GM), SetKernelMode does nothing, ICPU_RUN_KF(kernel, blockDim, args...)
// is the launch kernel<<<blockDim, nullptr, nullptr>>>(args...) (lock-step cores, the same reports).
#pragma once
#include <cstddef>
#include "acl/acl.h"
#include "kernel_operator.h"

// the samples name the kernel mode unqualified (KernelMode::AIV_MODE), as the vendor header declares it
using AscendC::KernelMode;
