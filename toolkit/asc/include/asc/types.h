// Scalar types of the Ascend C dialect (half, bfloat16_t) and the dialect's words as plain C++.
#pragma once
#include <cstdint>
#include <cstring>
#include "asc/bridge.h"

// Function and pointer qualifiers of the dialect: the emulator runs all code on the host.
#define __global__
#define __aicore__
#define __vector__
#define __cube__
#define __mix__
#define __host_aicore__
#define __simd_vf__
#define __simd_callee__
#define __no_simd_vf_fusion__
#define __gm__
#define __ubuf__
#define __ssbuf__
#define __inline__ inline
#ifndef GM_ADDR
#define GM_ADDR uint8_t*
#endif

namespace __asc {
// IEEE binary16 and bfloat16 conversions, round to nearest even (host-side types only: every vector
// computation on these types runs in the emulator through ml_dtypes).
inline uint32_t f2bits(float f) { uint32_t u; std::memcpy(&u, &f, 4); return u; }
inline float bits2f(uint32_t u) { float f; std::memcpy(&f, &u, 4); return f; }
inline uint16_t f32_to_bf16(float f) {
    uint32_t u = f2bits(f);
    if ((u & 0x7FFFFFFFu) > 0x7F800000u) return (uint16_t)((u >> 16) | 0x40);   // quiet NaN
    u += 0x7FFFu + ((u >> 16) & 1u);
    return (uint16_t)(u >> 16);
}
inline float bf16_to_f32(uint16_t h) { return bits2f((uint32_t)h << 16); }
uint16_t f32_to_f16(float f);
float f16_to_f32(uint16_t h);
}  // namespace __asc

struct half {
    uint16_t bits = 0;
    half() = default;
    half(float f) : bits(__asc::f32_to_f16(f)) {}
    half(double f) : half((float)f) {}
    half(int v) : half((float)v) {}
    operator float() const { return __asc::f16_to_f32(bits); }
    static constexpr half from_bits(uint16_t b) { half h; h.bits = b; return h; }
};
struct bfloat16_t {
    uint16_t bits = 0;
    bfloat16_t() = default;
    bfloat16_t(float f) : bits(__asc::f32_to_bf16(f)) {}
    bfloat16_t(double f) : bfloat16_t((float)f) {}
    bfloat16_t(int v) : bfloat16_t((float)v) {}
    operator float() const { return __asc::bf16_to_f32(bits); }
    static constexpr bfloat16_t from_bits(uint16_t b) { bfloat16_t h; h.bits = b; return h; }
};
using float16_t = half;
using float32_t = float;
namespace __asc {
ASC_DTYPE(half, 9)
ASC_DTYPE(bfloat16_t, 10)
}

namespace AscendC {
using ::half;
using ::bfloat16_t;
constexpr uint32_t VECTOR_REG_WIDTH = 256;
constexpr uint32_t VECTOR_REG_WIDTH_2XVL = 512;
constexpr uint32_t ONE_BLOCK_SIZE = 32;
constexpr uint32_t DEFAULT_BLK_NUM = 8;
constexpr uint32_t MAX_REPEAT_TIMES = 255;
constexpr uint32_t ONE_REPEAT_BYTE_SIZE = 256;
constexpr uint32_t BLOCK_CUBE = 16;
// Hand-written API forms (declared in toolkit/ascendc/api/tools.py): constexpr, so kernels can use them in
// constant expressions (array bounds, template arguments); VECTOR_REG_WIDTH is the machine file's vl_bytes.
__aicore__ constexpr inline uint32_t GetVecLen() { return VECTOR_REG_WIDTH; }
// The UB budget a kernel may allocate and the DataBlock (the machine file's figures; a test checks them;
// declared in toolkit/ascendc/api/system.py)
__aicore__ constexpr inline uint32_t GetUBSizeInBytes() { return 253952; }
__aicore__ constexpr inline int16_t GetDataBlockSizeInBytes() { return 32; }
template <class T, class U>
__aicore__ constexpr inline auto CeilDivision(T a, U b) -> decltype(a / b) { return (a + b - 1) / b; }
template <class T, class U>
__aicore__ constexpr inline auto AlignUp(T a, U b) -> decltype(a / b) { return (a + b - 1) / b * b; }
template <class T, class U>
__aicore__ constexpr inline auto CeilAlign(T a, U b) -> decltype(a / b) { return (a + b - 1) / b * b; }
}  // namespace AscendC
