// Shared by every simd_vf_story sample: the device-side constants of the VF code, and the host helpers the
// family main() bodies use (ACL session, device buffers, flat-index inputs, the PASSED / FAILED check;
// story_random.h has the uniform inputs).
#pragma once
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>
#include "acl/acl.h"
#include "kernel_operator.h"

// ---------------------------------------------------------------------------------------------------------
// Device side
// ---------------------------------------------------------------------------------------------------------
constexpr uint32_t VL_B32 = AscendC::VECTOR_REG_WIDTH / sizeof(float);   // fp32 lanes of a 256 B register (64)
constexpr uint32_t SIZEOF_FLOAT = sizeof(float);
constexpr uint32_t BLOCK_BYTES = 32;                                      // UB rows are 32 B aligned
constexpr int32_t VF_REPEAT = 5;             // elemwise / reduce: the VF runs back to back (steady state)
constexpr float NEG_INF = -3.4028235e38f;   // about -FLT_MAX: init value of the max accumulators

// Number of 64-lane fp32 chunks covering n elements (a VF loop trip count, uint16).
__aicore__ inline uint16_t VFLoopNumForB32(uint32_t n) { return static_cast<uint16_t>((n + VL_B32 - 1) / VL_B32); }

__aicore__ inline uint32_t StoryAlignUp(uint32_t value, uint32_t align) { return (value + align - 1) / align * align; }

// ---------------------------------------------------------------------------------------------------------
// Host side
// ---------------------------------------------------------------------------------------------------------
#define CHECK_ACL(expr)                                                                                     \
    do {                                                                                                    \
        aclError checkAclRet = (expr);                                                                      \
        if (checkAclRet != ACL_SUCCESS) {                                                                   \
            std::fprintf(stderr, "%s:%d: %s failed, error %d\n", __FILE__, __LINE__, #expr, (int)checkAclRet); \
            return 1;                                                                                       \
        }                                                                                                   \
    } while (0)

// aclInit, device 0 and one stream for the sample's lifetime.
class AclSession {
public:
    AclSession()
    {
        ok_ = aclInit(nullptr) == ACL_SUCCESS && aclrtSetDevice(deviceId_) == ACL_SUCCESS &&
              aclrtCreateStream(&stream) == ACL_SUCCESS;
        if (!ok_) {
            std::fprintf(stderr, "ACL initialisation failed\n");
        }
    }
    ~AclSession()
    {
        if (stream != nullptr) {
            aclrtDestroyStream(stream);
        }
        aclrtResetDevice(deviceId_);
        aclFinalize();
    }
    AclSession(const AclSession&) = delete;
    AclSession& operator=(const AclSession&) = delete;
    bool Ok() const { return ok_; }

    aclrtStream stream = nullptr;

private:
    int32_t deviceId_ = 0;
    bool ok_ = false;
};

// One device allocation (aclrtMalloc), optionally filled from a host vector; freed with the object.
class DeviceBuffer {
public:
    explicit DeviceBuffer(size_t bytes) : bytes_(bytes)
    {
        ok_ = aclrtMalloc(reinterpret_cast<void**>(&ptr_), bytes_, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS;
    }
    explicit DeviceBuffer(const std::vector<float>& host) : DeviceBuffer(host.size() * sizeof(float))
    {
        ok_ = ok_ && aclrtMemcpy(ptr_, bytes_, host.data(), bytes_, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS;
    }
    ~DeviceBuffer()
    {
        if (ptr_ != nullptr) {
            aclrtFree(ptr_);
        }
    }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    bool Ok() const { return ok_; }
    uint8_t* Get() const { return ptr_; }

    // The first `count` floats, copied back to the host (empty if the copy fails).
    std::vector<float> ToHost(size_t count) const
    {
        std::vector<float> host(count);
        if (aclrtMemcpy(host.data(), count * sizeof(float), ptr_, count * sizeof(float),
                        ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS) {
            host.clear();
        }
        return host;
    }

private:
    uint8_t* ptr_ = nullptr;
    size_t bytes_ = 0;
    bool ok_ = false;
};

// Broadcast samples: x and a hold their flat index 0, 1, 2 ...
inline std::vector<float> FlatIndices(size_t count)
{
    std::vector<float> v(count);
    for (size_t i = 0; i < count; ++i) {
        v[i] = static_cast<float>(i);
    }
    return v;
}

// |got - ref| <= atol + rtol * |ref| everywhere (NaN fails): the broadcast / elemwise / reduce_max checks use
// an absolute tolerance (rtol 0), reduce_sum |got - ref| <= 1e-3 * (|ref| + 1) against a double reference.
// Prints the mismatches (the first 10), a summary and PASSED / FAILED; returns the exit status.
inline int32_t CheckClose(const char* name, const std::vector<float>& got, const std::vector<double>& ref,
                          double atol, double rtol = 0.0)
{
    size_t bad = got.size() == ref.size() ? 0 : ref.size() + 1;
    double worst = 0.0;
    for (size_t i = 0; i < got.size() && i < ref.size(); ++i) {
        double err = std::fabs(static_cast<double>(got[i]) - ref[i]);
        if (!(err <= atol + rtol * std::fabs(ref[i]))) {
            if (bad < 10) {
                std::printf("%s[%zu] = %.9g, expected %.9g\n", name, i, got[i], ref[i]);
            }
            ++bad;
        }
        worst = err > worst ? err : worst;
    }
    std::printf("%s: %zu element(s), %zu mismatch(es), max abs error %.3e (tolerance %g + %g * |ref|)\n", name,
                ref.size(), bad, worst, atol, rtol);
    std::printf("%s\n", bad == 0 ? "PASSED" : "FAILED");
    return bad == 0 ? 0 : 1;
}
