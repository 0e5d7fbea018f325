// The high-level normalizations (高阶API/归一化操作): the hand-written part (LayerNormConfig, its default,
// the kernel-side and optiling:: names of the tiling structs) around the generated wrappers
// (gen/hl_normalization.h: each call runs toolkit/ascendc/highlevel/normalization.py).
#pragma once
#include "asc/highlevel_act.h"

namespace AscendC {
// the [A, R] LayerNorm's configuration: isNoBeta / isNoGamma / isOnlyOutput / isOutputRstd are emulated
struct LayerNormConfig {
    bool isNoBeta = false;
    bool isNoGamma = false;
    bool isOnlyOutput = false;
    bool isOutputRstd = true;
};
constexpr LayerNormConfig LNCFG_NORM = {false, false, false, true};
// Normalize's configuration: isNoBeta / isNoGamma are emulated; the [A, R] pattern is the one supported.
// ReducePattern (AR = 0, RA = 1, ...): declared in enums.h (toolkit/ascendc/sysenums.py)
struct NormalizeConfig {
    ReducePattern reducePattern = ReducePattern::AR;
    int32_t aLength = -1;
    bool isNoBeta = false;
    bool isNoGamma = false;
    bool isOnlyOutput = false;
};
constexpr NormalizeConfig NLCFG_NORM = {ReducePattern::AR, -1, false, false, false};
struct WelfordUpdateConfig { bool isInplace = false; };
constexpr WelfordUpdateConfig WFUPDATE_DEFAULT_CFG = {false};
constexpr WelfordUpdateConfig WELFORD_UPDATE_ENABLE_INPLACE_CFG = {true};     // the page's example uses it
struct WelfordFinalizeConfig { bool isCorrection = false; };
constexpr WelfordFinalizeConfig WFFINALIZE_DEFAULT_CFG = {false};
}  // namespace AscendC

#include "asc/gen/hl_normalization.h"
#include "asc/gen/hl_norm_variants.h"
#include "asc/gen/hl_norm_grad.h"

namespace AscendC {
using RmsNormTiling = tiling::RmsNormTiling;
using LayerNormTiling = tiling::LayerNormTiling;
using LayerNormSeparateTiling = tiling::LayerNormSeparateTiling;
using BatchNormTiling = tiling::BatchNormTiling;
using DeepNormTiling = tiling::DeepNormTiling;
using GroupNormTiling = tiling::GroupNormTiling;
using LayerNormGradTiling = tiling::LayerNormGradTiling;
using LayerNormGradBetaTiling = tiling::LayerNormGradBetaTiling;
}  // namespace AscendC
namespace optiling {
using RmsNormTiling = AscendC::tiling::RmsNormTiling;
using LayerNormTiling = AscendC::tiling::LayerNormTiling;
using LayerNormSeparateTiling = AscendC::tiling::LayerNormSeparateTiling;
using BatchNormTiling = AscendC::tiling::BatchNormTiling;
using DeepNormTiling = AscendC::tiling::DeepNormTiling;
using GroupNormTiling = AscendC::tiling::GroupNormTiling;
using LayerNormGradTiling = AscendC::tiling::LayerNormGradTiling;
using LayerNormGradBetaTiling = AscendC::tiling::LayerNormGradBetaTiling;
}  // namespace optiling
