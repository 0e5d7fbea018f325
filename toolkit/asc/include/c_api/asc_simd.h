// migrate-check's c_api/asc_simd.h: the whole C API (the vendor's umbrella header), run by the emulator.
#pragma once
#include "kernel_operator.h"
#include "asc/capireg.h"
