// Host side shared by membase/full_load.asc and regbase/full_load.asc: sample constants, tiling, data
// generation through scripts/gen_data.py, device buffers, the launch, CompareBf16 and the verdict.
#pragma once
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <fstream>
#include <functional>
#include <iostream>
#include <string>
#include <vector>
#include <libgen.h>
#include <unistd.h>
#include "acl/acl.h"
#include "platform/platform_ascendc.h"

#ifndef SOURCE_DIR
#define SOURCE_DIR "."
#endif
#ifndef SAMPLE_BATCH
#define SAMPLE_BATCH 8
#endif
#ifndef SAMPLE_NUM_HEAD
#define SAMPLE_NUM_HEAD 1
#endif
#ifndef SAMPLE_SEQ
#define SAMPLE_SEQ 128
#endif
#ifndef SAMPLE_DV
#define SAMPLE_DV 512
#endif
#ifndef SAMPLE_DK
#define SAMPLE_DK 128
#endif
#ifndef SAMPLE_UB_FACTOR
#define SAMPLE_UB_FACTOR 8
#endif
#ifndef SAMPLE_EPSILON
#define SAMPLE_EPSILON 1e-5f
#endif
constexpr float BF16_COMPARE_TOL = 6e-2f;
constexpr int MAX_MISMATCH_LINES = 20;

struct KvRmsNormRopeCacheTiling {
    uint32_t totalRows;
    uint32_t blockFactor;
    uint32_t blockNum;
    uint32_t ubFactor;
    uint32_t numHead;
    uint32_t seqLength;
    uint32_t cacheLength;
    uint32_t dv;
    uint32_t dk;
    float epsilon;
    float reciprocal;
};

inline uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

inline KvRmsNormRopeCacheTiling BuildTiling()
{
    uint32_t coreNum = platform_ascendc::PlatformAscendCManager::GetInstance()->GetCoreNumAiv();
    KvRmsNormRopeCacheTiling t{};
    t.totalRows = SAMPLE_BATCH * SAMPLE_NUM_HEAD * SAMPLE_SEQ;
    t.blockFactor = CeilDiv(t.totalRows, coreNum);
    t.blockNum = CeilDiv(t.totalRows, t.blockFactor);
    t.ubFactor = SAMPLE_UB_FACTOR < t.blockFactor ? SAMPLE_UB_FACTOR : t.blockFactor;
    t.numHead = SAMPLE_NUM_HEAD;
    t.seqLength = SAMPLE_SEQ;
    t.cacheLength = SAMPLE_SEQ;
    t.dv = SAMPLE_DV;
    t.dk = SAMPLE_DK;
    t.epsilon = SAMPLE_EPSILON;
    t.reciprocal = 1.0f / static_cast<float>(SAMPLE_DV);
    return t;
}

inline std::string ExeDir()
{
    char buf[4096];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
    if (n <= 0) {
        return ".";
    }
    buf[n] = '\0';
    return dirname(buf);
}

inline int GenerateData(const std::string& dir)
{
    std::string script = dir + "/gen_data.py";
    for (const std::string& cand : {dir + "/gen_data.py", dir + "/scripts/gen_data.py",
                                    std::string(SOURCE_DIR) + "/scripts/gen_data.py"}) {
        script = cand;
        if (std::ifstream(cand).good()) {
            break;
        }
    }
    std::string cmd = "env -u LD_LIBRARY_PATH python3 " + script + " --batch " + std::to_string(SAMPLE_BATCH) +
                      " --seq " + std::to_string(SAMPLE_SEQ) + " --dv " + std::to_string(SAMPLE_DV) + " --dk " +
                      std::to_string(SAMPLE_DK) + " --output " + dir;
    int status = std::system(cmd.c_str());
    if (status != 0) {
        std::cerr << "Generate data failed, command: " << cmd << std::endl;
    }
    return status;
}

template <typename T>
std::vector<T> ReadFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) {
        throw std::runtime_error("cannot open " + path);
    }
    std::vector<T> data(static_cast<size_t>(in.tellg()) / sizeof(T));
    in.seekg(0);
    in.read(reinterpret_cast<char*>(data.data()), data.size() * sizeof(T));
    return data;
}

inline float Bf16ToFloat(uint16_t bits)
{
    uint32_t wide = static_cast<uint32_t>(bits) << 16;
    float f;
    std::memcpy(&f, &wide, sizeof(f));
    return f;
}

inline bool CompareBf16(const char* name, const std::vector<uint16_t>& actual, const std::vector<uint16_t>& golden)
{
    size_t errors = 0, maxIndex = 0;
    float maxDiff = 0.0f;
    for (size_t i = 0; i < golden.size(); ++i) {
        float a = Bf16ToFloat(actual[i]);
        float g = Bf16ToFloat(golden[i]);
        float diff = (a == g) ? 0.0f : ((std::isnan(a) || std::isnan(g)) ? INFINITY : std::fabs(a - g));
        if (diff > maxDiff) {
            maxDiff = diff;
            maxIndex = i;
        }
        if (diff > BF16_COMPARE_TOL) {
            if (errors < MAX_MISMATCH_LINES) {
                std::printf("%s mismatch index %zu, expected %f, actual %f, diff %f\n", name, i, g, a, diff);
            }
            ++errors;
        }
    }
    double precision = golden.empty() ? 100.0 : (golden.size() - errors) * 100.0 / golden.size();
    std::printf("%s precision %f%%, errors %zu, max diff %f at %zu\n", name, precision, errors, maxDiff, maxIndex);
    return errors == 0;
}

struct DeviceBuffer {
    uint8_t* ptr = nullptr;
    size_t bytes = 0;
    DeviceBuffer(const void* host, size_t n) : bytes(n)
    {
        aclrtMalloc(reinterpret_cast<void**>(&ptr), n, ACL_MEM_MALLOC_HUGE_FIRST);
        aclrtMemcpy(ptr, n, host, n, ACL_MEMCPY_HOST_TO_DEVICE);
    }
    ~DeviceBuffer() { aclrtFree(ptr); }
    template <typename T>
    std::vector<T> Fetch() const
    {
        std::vector<T> out(bytes / sizeof(T));
        aclrtMemcpy(out.data(), bytes, ptr, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
        return out;
    }
};

using KvLaunch = std::function<void(uint32_t, aclrtStream, uint8_t* const*, const KvRmsNormRopeCacheTiling&)>;

// aclInit -> stream -> gen_data.py -> read .bin -> device copies -> launch -> copy back -> CompareBf16 x4
inline int RunSample(const char* label, const KvLaunch& launch)
{
    if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) {
        std::cerr << "Init acl failed" << std::endl;
        return 1;
    }
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);
    std::string dir = ExeDir();
    if (int status = GenerateData(dir)) {
        return status;
    }
    KvRmsNormRopeCacheTiling tiling = BuildTiling();
    std::printf("Run %s, blockNum %u, blockFactor %u, ubFactor %u\n", label, tiling.blockNum, tiling.blockFactor,
                tiling.ubFactor);
    const char* inputs[] = {"kv", "gamma", "cos", "sin", "index", "k_cache", "v_cache"};
    const char* outputs[] = {"k_cache", "v_cache", "k_out", "v_out"};
    std::vector<std::vector<uint8_t>> host;
    std::vector<std::vector<uint16_t>> golden;
    try {
        for (const char* name : inputs) {
            host.push_back(ReadFile<uint8_t>(dir + "/input/" + name + ".bin"));
        }
        for (const char* name : outputs) {
            golden.push_back(ReadFile<uint16_t>(dir + "/output/" + name + "_golden.bin"));
        }
    } catch (const std::exception& e) {
        std::cerr << "Read input/golden failed: " << e.what() << std::endl;
        return 1;
    }
    std::vector<DeviceBuffer> dev;
    dev.reserve(9);
    for (auto& h : host) {
        dev.emplace_back(h.data(), h.size());
    }
    std::vector<uint8_t> kOut(golden[2].size() * 2, 0xFF), vOut(golden[3].size() * 2, 0xFF);
    dev.emplace_back(kOut.data(), kOut.size());
    dev.emplace_back(vOut.data(), vOut.size());
    uint8_t* args[9];
    for (int i = 0; i < 9; ++i) {
        args[i] = dev[i].ptr;
    }
    launch(tiling.blockNum, stream, args, tiling);
    aclrtSynchronizeStream(stream);
    bool pass = true;
    const int outputIndex[] = {5, 6, 7, 8};
    for (int k = 0; k < 4; ++k) {
        pass = CompareBf16(outputs[k], dev[outputIndex[k]].Fetch<uint16_t>(), golden[k]) && pass;
    }
    std::printf("%s\n", pass ? "PASS" : "FAIL");
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return pass ? 0 : 1;
}
