// The 8- and 4-bit float and int4 element types (fp8_e4m3fn_t, hifloat8_t, fp4x2_e2m1_t, int4b_t ...), declared
// once for the C API register family (asc/capireg.h) and the kernel API (kernel_operator.h: the high-level
// quantization forms over any dstT / srcT name them). Byte containers in C++ (scalars are their bits); each
// has its own dtype code, so a tensor or register of one reaches Python as that element type
// (toolkit/ascendc/lowfloat.py: values, Cast and the quantization forms that take them).
#pragma once
#include <cstdint>
#include "asc/bridge.h"

namespace __capi {
struct ByteType {};             // the base of the byte containers below
}  // namespace __capi
#define ASC_BYTE_TYPE(T)                                                  \
    struct T : __capi::ByteType {                                         \
        uint8_t bits = 0;                                                 \
        T() = default;                                                    \
        constexpr explicit T(uint8_t b) : bits(b) {}                      \
        constexpr operator uint8_t() const { return bits; }               \
    };
ASC_BYTE_TYPE(fp8_e4m3fn_t)
ASC_BYTE_TYPE(fp8_e5m2_t)
ASC_BYTE_TYPE(fp8_e8m0_t)
ASC_BYTE_TYPE(hifloat8_t)
ASC_BYTE_TYPE(fp4x2_e2m1_t)
ASC_BYTE_TYPE(fp4x2_e1m2_t)
ASC_BYTE_TYPE(int4x2_t)
ASC_BYTE_TYPE(int4b_t)
#undef ASC_BYTE_TYPE
namespace __asc {
ASC_DTYPE(fp8_e4m3fn_t, 14) ASC_DTYPE(fp8_e5m2_t, 15) ASC_DTYPE(fp8_e8m0_t, 16) ASC_DTYPE(hifloat8_t, 17)
ASC_DTYPE(fp4x2_e2m1_t, 18) ASC_DTYPE(fp4x2_e1m2_t, 19) ASC_DTYPE(int4x2_t, 20) ASC_DTYPE(int4b_t, 21)
}  // namespace __asc
