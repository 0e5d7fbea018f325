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
}  // namespace AscendC

#include "asc/gen/hl_normalization.h"

namespace AscendC {
using RmsNormTiling = tiling::RmsNormTiling;
using LayerNormTiling = tiling::LayerNormTiling;
using LayerNormSeparateTiling = tiling::LayerNormSeparateTiling;
}  // namespace AscendC
namespace optiling {
using RmsNormTiling = AscendC::tiling::RmsNormTiling;
using LayerNormTiling = AscendC::tiling::LayerNormTiling;
using LayerNormSeparateTiling = AscendC::tiling::LayerNormSeparateTiling;
}  // namespace optiling
