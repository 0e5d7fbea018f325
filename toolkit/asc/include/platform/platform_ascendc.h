// platform_ascendc: core count and memory sizes, from the migrate-check machine file.
#pragma once
#include <cstdint>
namespace fe {
class PlatFormInfos {};        // the platform description a host hands PlatformAscendC (nothing read from it here)
}  // namespace fe
namespace platform_ascendc {
enum class CoreMemType { L0_A = 0, L0_B = 1, L0_C = 2, L1 = 3, L2 = 4, UB = 5, HBM = 6, RESERVED };
enum class SocVersion { ASCEND910B = 0, ASCEND950 = 1, RESERVED_VERSION };
class PlatformAscendC {
public:
    PlatformAscendC() = default;
    explicit PlatformAscendC(fe::PlatFormInfos*) {}
    uint32_t GetCoreNumAiv() const;
    uint32_t GetCoreNumAic() const;
    uint32_t GetCoreNum() const { return GetCoreNumAiv(); }
    uint32_t GetCoreNumVector() const { return GetCoreNumAiv(); }
    void GetCoreMemSize(const CoreMemType memType, uint64_t& size) const;
    SocVersion GetSocVersion() const { return SocVersion::ASCEND950; }
    uint32_t CalcTschBlockDim(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const {
        return sliceNum < aivCoreNum ? sliceNum : aivCoreNum;
    }
};
class PlatformAscendCManager {
public:
    static PlatformAscendC* GetInstance();
    static PlatformAscendC* GetInstance(const char*) { return GetInstance(); }
};
}  // namespace platform_ascendc
