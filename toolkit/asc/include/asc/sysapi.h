// Hand-written system and scalar APIs (declared in toolkit/ascendc/api/system.py): the constexpr sizes, the
// NumericLimits class, Async, and the scalar Cast forms (overloads of the AscendC::Cast of the MemBase API).
// None needs the emulator (NumericLimits' vector forms are a Duplicate of the value's bits).
#pragma once
#include <cmath>
#include <limits>
#include <type_traits>
#include "asc/membase.h"

namespace AscendC {
// Async<engine, f>(args...): f runs on the unit named; the emulated kernels run on the AIV
template <EngineType engine, auto funPtr, class... Args>
__aicore__ inline void Async(Args... args) {
    if constexpr (engine == EngineType::AIV) funPtr(args...);
}

namespace __detail {
template <class T>
constexpr bool is_fp_v = std::is_same_v<T, float> || std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>;
// a float constant by its bits: (float bits, half bits, bfloat16 bits)
template <class T>
constexpr T fp_bits(uint32_t f32, uint16_t f16, uint16_t b16) {
    if constexpr (std::is_same_v<T, float>) return __builtin_bit_cast(float, f32);
    else if constexpr (std::is_same_v<T, half>) return half::from_bits(f16);
    else return bfloat16_t::from_bits(b16);
}
template <class T>
using bits_t = std::conditional_t<sizeof(T) == 4, uint32_t, std::conditional_t<sizeof(T) == 2, uint16_t, uint8_t>>;
}  // namespace __detail

// NumericLimits<T>: the scalar forms are constexpr; the vector forms fill dst's first count elements with the
// value's exact bits (a Duplicate on the tensor viewed as unsigned integers: NaN payloads survive)
template <class T>
struct NumericLimits {
    static constexpr bool fp = __detail::is_fp_v<T>;
    __aicore__ static constexpr T Max() {
        if constexpr (fp) return __detail::fp_bits<T>(0x7F7FFFFFu, 0x7BFF, 0x7F7F);
        else return std::numeric_limits<T>::max();
    }
    __aicore__ static constexpr T Lowest() {
        if constexpr (fp) return __detail::fp_bits<T>(0xFF7FFFFFu, 0xFBFF, 0xFF7F);
        else return std::numeric_limits<T>::lowest();
    }
    __aicore__ static constexpr T Min() {
        if constexpr (fp) return __detail::fp_bits<T>(0x00800000u, 0x0400, 0x0080);
        else return std::numeric_limits<T>::lowest();
    }
    __aicore__ static constexpr T Infinity() { return __detail::fp_bits<T>(0x7F800000u, 0x7C00, 0x7F80); }
    __aicore__ static constexpr T NegativeInfinity() { return __detail::fp_bits<T>(0xFF800000u, 0xFC00, 0xFF80); }
    __aicore__ static constexpr T QuietNaN() { return __detail::fp_bits<T>(0x7FC00000u, 0x7E00, 0x7FC0); }
    __aicore__ static constexpr T SignalingNaN() { return __detail::fp_bits<T>(0x7FA00000u, 0x7D00, 0x7FA0); }
    __aicore__ static constexpr T DeNormMin() { return __detail::fp_bits<T>(0x00000001u, 0x0001, 0x0001); }

    __aicore__ static inline void Max(const LocalTensor<T>& dst, uint32_t count, ASC_SLP) { fill(dst, Max(), count, loc); }
    __aicore__ static inline void Lowest(const LocalTensor<T>& dst, uint32_t count, ASC_SLP) {
        fill(dst, Lowest(), count, loc);
    }
    __aicore__ static inline void Min(const LocalTensor<T>& dst, uint32_t count, ASC_SLP) { fill(dst, Min(), count, loc); }
    __aicore__ static inline void Infinity(const LocalTensor<T>& dst, uint32_t count, ASC_SLP) {
        fill(dst, Infinity(), count, loc);
    }
    __aicore__ static inline void NegativeInfinity(const LocalTensor<T>& dst, uint32_t count, ASC_SLP) {
        fill(dst, NegativeInfinity(), count, loc);
    }
    __aicore__ static inline void QuietNaN(const LocalTensor<T>& dst, uint32_t count, ASC_SLP) {
        fill(dst, QuietNaN(), count, loc);
    }
    __aicore__ static inline void SignalingNaN(const LocalTensor<T>& dst, uint32_t count, ASC_SLP) {
        fill(dst, SignalingNaN(), count, loc);
    }
    __aicore__ static inline void DeNormMin(const LocalTensor<T>& dst, uint32_t count, ASC_SLP) {
        fill(dst, DeNormMin(), count, loc);
    }

private:
    static void fill(const LocalTensor<T>& dst, T value, uint32_t count, const __asc::SL& loc) {
        using B = __detail::bits_t<T>;
        B bits;
        std::memcpy(&bits, &value, sizeof bits);
        if constexpr (std::is_same_v<B, uint8_t>)
            Duplicate(dst.template ReinterpretCast<int16_t>(), (int16_t)(bits * 0x0101), (int32_t)((count + 1) / 2), loc);
        else
            Duplicate(dst.template ReinterpretCast<B>(), bits, (int32_t)count, loc);
    }
};

// -- scalar Cast (标量计算): float -> bfloat16_t (round to nearest even), bfloat16_t -> float, and float ->
// half / int32_t with a RoundMode. Overloads of the MemBase AscendC::Cast (other arguments).
namespace __detail {
// the half next to h (bits) towards +inf (up) or -inf
inline uint16_t f16_step(uint16_t h, bool up) {
    bool neg = h & 0x8000;
    if ((h & 0x7FFF) == 0) return up ? 0x0001 : 0x8001;
    return (uint16_t)(neg == up ? h - 1 : h + 1);
}
// float -> half under a RoundMode (assumed for RINT/NONE: nearest even; ROUND: nearest, ties away from zero;
// ODD: an inexact result takes the neighbour whose last bit is 1)
inline uint16_t f32_to_f16_mode(float x, RoundMode mode) {
    uint16_t h = __asc::f32_to_f16(x);
    float r = __asc::f16_to_f32(h);
    if (std::isnan(x) || r == x || std::isinf(r)) return h;
    uint16_t lo = r < x ? h : f16_step(h, false), hi = r < x ? f16_step(h, true) : h;
    switch (mode) {
    case RoundMode::CAST_FLOOR: return lo;
    case RoundMode::CAST_CEIL: return hi;
    case RoundMode::CAST_TRUNC: return x > 0 ? lo : hi;
    case RoundMode::CAST_ODD: return (lo & 1) ? lo : hi;
    case RoundMode::CAST_ROUND: {
        double dl = (double)x - __asc::f16_to_f32(lo), dh = (double)__asc::f16_to_f32(hi) - x;
        return dl == dh ? (x > 0 ? hi : lo) : h;
    }
    default: return h;
    }
}
// float -> int32_t under a RoundMode (out of range saturates, NaN gives 0: assumed)
inline int32_t f32_to_s32_mode(float x, RoundMode mode) {
    if (std::isnan(x)) return 0;
    double v = mode == RoundMode::CAST_FLOOR ? std::floor(x) : mode == RoundMode::CAST_CEIL ? std::ceil(x)
             : mode == RoundMode::CAST_ROUND ? std::round(x) : mode == RoundMode::CAST_TRUNC ? std::trunc(x)
             : std::nearbyint(x);
    return v >= 2147483647.0 ? 2147483647 : v <= -2147483648.0 ? (-2147483647 - 1) : (int32_t)v;
}
}  // namespace __detail

__aicore__ inline bfloat16_t Cast(const float& fVal) { return bfloat16_t(fVal); }

template <class T, class U = float, std::enable_if_t<std::is_same_v<T, bfloat16_t>, int> = 0>
__aicore__ constexpr inline U Cast(T bVal) { return U(__builtin_bit_cast(float, (uint32_t)bVal.bits << 16)); }

template <class T, class U, RoundMode roundMode,
          std::enable_if_t<std::is_same_v<T, float> && (std::is_same_v<U, half> || std::is_same_v<U, int32_t>), int> = 0>
__aicore__ inline U Cast(T valueIn) {
    if constexpr (std::is_same_v<U, half>) return half::from_bits(__detail::f32_to_f16_mode(valueIn, roundMode));
    else return __detail::f32_to_s32_mode(valueIn, roundMode);
}
}  // namespace AscendC
