// migrate-check: the types of the high-level math APIs (高阶API/数学计算): TensorShape (host-side queries),
// the per-API config structs and enums with their default constants, then the generated APIs.
// Definitions: toolkit/ascendc/api/hl_math.py (NAMES). Every config is accepted; none changes the result
// here (the emulator runs one documented algorithm per API, see `migrate-check api`).
#pragma once
#include <cstdint>
#include <cstddef>
#include <initializer_list>
#include <vector>
#include "platform/platform_ascendc.h"

#include "asc/hl_shape.h"

namespace AscendC {


enum class SinAlgo { POLYNOMIAL_APPROXIMATION = 0, RADIAN_REDUCTION };
struct SinConfig { SinAlgo algo = SinAlgo::POLYNOMIAL_APPROXIMATION; };
constexpr SinConfig defaultSinConfig = {};
enum class CosAlgo { POLYNOMIAL_APPROXIMATION = 0, RADIAN_REDUCTION };
struct CosConfig { CosAlgo algo = CosAlgo::POLYNOMIAL_APPROXIMATION; };
constexpr CosConfig defaultCosConfig = {};
enum class AtanAlgo { TAYLOR_EXPANSION = 0, POLYNOMIAL_APPROXIMATION };
struct AtanConfig { AtanAlgo algo = AtanAlgo::TAYLOR_EXPANSION; };
constexpr AtanConfig defaultAtanConfig = {};
enum class TanhAlgo { INTRINSIC = 0, SUBSECTION_COMPENSATION };
struct TanhConfig { TanhAlgo algo = TanhAlgo::INTRINSIC; };
constexpr TanhConfig DEFAULT_TANH_CONFIG = {};
enum class ErfAlgo { PADE_APPROXIMATION = 0, SUBSECTION_POLYNOMIAL_APPROXIMATION };
struct ErfConfig { ErfAlgo algo = ErfAlgo::PADE_APPROXIMATION; };
constexpr ErfConfig defaultErfConfig = {};
constexpr uint32_t FMOD_ITERATION_NUM_MAX = 11;
enum class FmodAlgo { NORMAL = 0, ITERATION_COMPENSATION = 1 };
struct FmodConfig { FmodAlgo algo = FmodAlgo::NORMAL; uint32_t iterationNum = FMOD_ITERATION_NUM_MAX; };
constexpr FmodConfig DEFAULT_FMOD_CONFIG = {};
enum class PowerAlgo { INTRINSIC = 0, DOUBLE_FLOAT_TECH };
struct PowerConfig { PowerAlgo algo = PowerAlgo::INTRINSIC; };
constexpr PowerConfig defaultPowerConfig = {};
enum class CumSumAlgorithm { CUMSUM_ALGORITHM_LINEBYLINE = 0, CUMSUM_ALGORITHM_SKLANSKY = 1 };
struct CumSumConfig {
    bool isLastAxis{true};
    bool isReuseSource{false};
    bool outputLastRow{false};
    CumSumAlgorithm algorithm{CumSumAlgorithm::CUMSUM_ALGORITHM_LINEBYLINE};
};
constexpr CumSumConfig defaultCumSumConfig = {};

struct RintConfig { bool isReuseSource; };
constexpr RintConfig DEFAULT_RINT_CONFIG = {false};
struct FmaConfig { bool isReuseSource; };
constexpr FmaConfig DEFAULT_FMA_CONFIG = {false};
struct SinCosConfig { bool isReuseSource; };
constexpr SinCosConfig DEFAULT_SINCOS_CONFIG = {false};
struct ClampConfig { bool isReuseSource; };
constexpr ClampConfig DEFAULT_CLAMP_CONFIG = {false};
struct IsNanConfig { bool isReuseSource; };
constexpr IsNanConfig DEFAULT_IS_NAN_CONFIG = {false};
struct IsInfConfig { bool isReuseSource; };
constexpr IsInfConfig DEFAULT_IS_INF_CONFIG = {false};
struct BitwiseAndConfig { bool isReuseSource; };
constexpr BitwiseAndConfig DEFAULT_BITWISE_AND_CONFIG = {false};
struct BitwiseOrConfig { bool isReuseSource; };
constexpr BitwiseOrConfig DEFAULT_BITWISE_OR_CONFIG = {false};
struct BitwiseXorConfig { bool isReuseSource; };
constexpr BitwiseXorConfig DEFAULT_BITWISE_XOR_CONFIG = {false};
struct BitwiseNotConfig { bool isReuseSource; };
constexpr BitwiseNotConfig DEFAULT_BITWISE_NOT_CONFIG = {false};
struct LogicalAndConfig { bool isReuseSource; };
constexpr LogicalAndConfig DEFAULT_LOGICAL_AND_CONFIG = {false};
struct LogicalOrConfig { bool isReuseSource; };
constexpr LogicalOrConfig DEFAULT_LOGICAL_OR_CONFIG = {false};
struct LogicalXorConfig { bool isReuseSource; };
constexpr LogicalXorConfig DEFAULT_LOGICAL_XOR_CONFIG = {false};
struct LogicalNotConfig { bool isReuseSource; };
constexpr LogicalNotConfig DEFAULT_LOGICAL_NOT_CONFIG = {false};
struct LogicalAndsConfig { bool isReuseSource; int8_t scalarTensorIndex; };
constexpr LogicalAndsConfig DEFAULT_LOGICAL_ANDS_CONFIG = {false, 1};
struct LogicalOrsConfig { bool isReuseSource; int8_t scalarTensorIndex; };
constexpr LogicalOrsConfig DEFAULT_LOGICAL_ORS_CONFIG = {false, 1};

}  // namespace AscendC

#include "asc/gen/hl_math.h"
