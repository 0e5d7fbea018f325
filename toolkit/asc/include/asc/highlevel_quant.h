// The high-level quantization family (高阶API/量化操作): the hand-written part (the configuration structs,
// their defaults and how a configuration is packed for the bridge) around the generated wrappers
// (gen/hl_quant.h: each call runs toolkit/ascendc/highlevel/quant.py). The policy enums are generated
// (asc/enums.h); the parameter structs too (gen/structs.h).
#pragma once
#include "asc/highlevel_act.h"
#include "asc/bytetypes.h"       // dstT / srcT may name the 8- and 4-bit types (refused when run)

namespace AscendC {
// AscendQuant's configuration: the page gives two structs of this name, the PER_TENSOR / PER_CHANNEL one
// (constant-folding hints: calcCount, offsetCount, scaleCount, workLocalSize; not needed by the emulator)
// and the PER_TOKEN / PER_GROUP one (hasOffset, kDim, roundMode). One struct with both constructors takes
// either brace list ({0, 0, 0, 0} and {hasOffset, kDim[, roundMode]}).
struct AscendQuantConfig {
    uint32_t calcCount = 0;
    uint32_t offsetCount = 0;
    uint32_t scaleCount = 0;
    uint32_t workLocalSize = 0;
    bool hasOffset = false;
    int32_t kDim = 1;
    RoundMode roundMode = RoundMode::CAST_RINT;
    constexpr AscendQuantConfig() = default;
    constexpr AscendQuantConfig(uint32_t calc, uint32_t offsetCnt, uint32_t scaleCnt, uint32_t work)
        : calcCount(calc), offsetCount(offsetCnt), scaleCount(scaleCnt), workLocalSize(work) {}
    constexpr AscendQuantConfig(bool offset, int32_t k = 1, RoundMode mode = RoundMode::CAST_RINT)
        : hasOffset(offset), kDim(k), roundMode(mode) {}
};
constexpr AscendQuantConfig ASCEND_QUANT_DEFAULT_CFG = {0u, 0u, 0u, 0u};
struct AscendDeQuantConfig {
    bool hasOffset = false;
    int32_t kDim = 1;
};
struct AscendAntiQuantConfig {
    bool hasOffset = false;
    bool isTranspose = false;
    int32_t kDim = 1;
};
struct QuantizeConfig {
    QuantizePolicy policy = QuantizePolicy::PER_TENSOR;
    bool hasOffset = false;
    RoundMode roundMode = RoundMode::CAST_RINT;
    int32_t kDim = 1;
};
struct DequantizeConfig {
    DequantizePolicy policy = DequantizePolicy::PER_TENSOR;
    bool hasOffset = false;
    int32_t kDim = 1;
};
struct AntiQuantizeConfig {
    AntiQuantizePolicy policy = AntiQuantizePolicy::PER_TENSOR;
    bool hasOffset = false;
    int32_t kDim = 1;
};
}  // namespace AscendC

namespace __asc {
// a configuration as one int (toolkit/ascendc/highlevel/quant_common.py decodes it): bits 0-2 policy,
// bit 3 hasOffset, bit 4 isTranspose, bits 8-15 the RoundMode value, bits 16-23 kDim + 1
constexpr long long quant_pack(int policy, bool offset, bool transpose, AscendC::RoundMode mode, int kDim) {
    return (long long)policy | (offset ? 8 : 0) | (transpose ? 16 : 0) | ((long long)(int)mode << 8) |
           ((long long)(kDim + 1) << 16);
}
constexpr long long quant_cfg(const AscendC::AscendQuantConfig& c) {
    return quant_pack(0, c.hasOffset, false, c.roundMode, c.kDim);
}
constexpr long long quant_cfg(const AscendC::AscendDeQuantConfig& c) {
    return quant_pack(0, c.hasOffset, false, AscendC::RoundMode::CAST_RINT, c.kDim);
}
constexpr long long quant_cfg(const AscendC::AscendAntiQuantConfig& c) {
    return quant_pack(0, c.hasOffset, c.isTranspose, AscendC::RoundMode::CAST_RINT, c.kDim);
}
constexpr long long quant_cfg(const AscendC::QuantizeConfig& c) {
    return quant_pack((int)c.policy, c.hasOffset, false, c.roundMode, c.kDim);
}
constexpr long long quant_cfg(const AscendC::DequantizeConfig& c) {
    return quant_pack((int)c.policy, c.hasOffset, false, AscendC::RoundMode::CAST_RINT, c.kDim);
}
constexpr long long quant_cfg(const AscendC::AntiQuantizeConfig& c) {
    return quant_pack((int)c.policy, c.hasOffset, false, AscendC::RoundMode::CAST_RINT, c.kDim);
}
}  // namespace __asc

#include "asc/gen/hl_quant.h"
