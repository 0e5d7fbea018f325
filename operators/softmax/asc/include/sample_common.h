// Softmax story, host side shared by every src/*.asc: the compile-time shape, gen_data.py, CompareFloat and
// RunSample<kStep>(launch, name) (aclInit -> stream -> data -> device copies -> launch -> copy back -> gate).
#pragma once
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>
#include <libgen.h>
#include <unistd.h>
#include "acl/acl.h"

#ifndef SOURCE_DIR
#define SOURCE_DIR "."
#endif

constexpr uint32_t TOTAL_M = 256;
constexpr uint32_t TOTAL_N = 2048;
constexpr uint32_t SINGLE_CORE_M = 8;
constexpr uint32_t SINGLE_CORE_N = 2048;
constexpr uint32_t TILE_LEN = 2 * SINGLE_CORE_N;
constexpr uint32_t BLOCKS = ((TOTAL_M + SINGLE_CORE_M - 1) / SINGLE_CORE_M) *
                            ((TOTAL_N + SINGLE_CORE_N - 1) / SINGLE_CORE_N);
constexpr float COMPARE_TOL = 1e-3f;
constexpr size_t MAX_MISMATCH_LINES = 20;

using SoftmaxLaunch = std::function<void(uint32_t, aclrtStream, uint8_t*, uint8_t*)>;

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
    std::string script;
    for (const std::string& cand : {dir + "/gen_data.py", dir + "/scripts/gen_data.py",
                                    std::string(SOURCE_DIR) + "/scripts/gen_data.py"}) {
        script = cand;
        if (std::ifstream(cand).good()) {
            break;
        }
    }
    std::string cmd = "env -u LD_LIBRARY_PATH python3 " + script + " --output " + dir;
    int status = std::system(cmd.c_str());
    if (status != 0) {
        std::cerr << "Generate data failed, command: " << cmd << std::endl;
    }
    return status;
}

inline std::vector<float> ReadFloats(const std::string& path)
{
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) {
        throw std::runtime_error("cannot open " + path);
    }
    std::vector<float> data(static_cast<size_t>(in.tellg()) / sizeof(float));
    in.seekg(0);
    in.read(reinterpret_cast<char*>(data.data()), data.size() * sizeof(float));
    return data;
}

// |actual - golden| > tol is an error (the first 20 printed); a strictly larger diff moves the max (first
// occurrence wins); a NaN diff fails both comparisons. Numbers in iostream default formatting.
inline size_t CompareFloat(const char* name, const std::vector<float>& out, const std::vector<float>& golden,
                           float tol)
{
    size_t errors = 0, maxIndex = 0;
    float maxDiff = 0.0f;
    for (size_t i = 0; i < golden.size(); ++i) {
        float diff = std::fabs(out[i] - golden[i]);
        if (diff > maxDiff) {
            maxDiff = diff;
            maxIndex = i;
        }
        if (diff > tol) {
            if (errors < MAX_MISMATCH_LINES) {
                std::cout << name << " mismatch index " << i << ", expected " << golden[i] << ", actual " << out[i]
                          << ", diff " << diff << std::endl;
            }
            ++errors;
        }
    }
    float precision = golden.empty() ? 100.0f : static_cast<float>(golden.size() - errors) / golden.size() * 100;
    std::cout << name << " precision " << precision << "%, errors " << errors << ", max diff " << maxDiff << " at "
              << maxIndex << std::endl;
    return errors;
}

template <int kStep>
int RunSample(const SoftmaxLaunch& launch, const char* name)
{
    const char* dev = std::getenv("SAMPLE_DEVICE_ID");
    int32_t deviceId = dev ? std::atoi(dev) : 7;
    aclrtStream stream = nullptr;
    int ret = aclInit(nullptr);
    if (ret != ACL_SUCCESS || (ret = aclrtSetDevice(deviceId)) != ACL_SUCCESS ||
        (ret = aclrtCreateStream(&stream)) != ACL_SUCCESS) {
        std::cout << "Init acl failed. ERROR: " << ret << std::endl;
        return ret;
    }
    std::string dir = ExeDir();
    if (int status = GenerateData(dir)) {
        return status;
    }
    std::vector<float> input, golden;
    try {
        input = ReadFloats(dir + "/input/input_x.bin");
        golden = ReadFloats(dir + "/output/golden.bin");
    } catch (const std::exception& e) {
        std::cerr << "Read input/golden failed: " << e.what() << std::endl;
        return 1;
    }
    size_t bytes = static_cast<size_t>(TOTAL_M) * TOTAL_N * sizeof(float);
    uint8_t* dIn = nullptr;
    uint8_t* dOut = nullptr;
    aclrtMalloc(reinterpret_cast<void**>(&dIn), bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(reinterpret_cast<void**>(&dOut), bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(dIn, bytes, input.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    launch(BLOCKS, stream, dIn, dOut);
    if ((ret = aclrtSynchronizeStream(stream)) != ACL_SUCCESS) {
        std::cout << "aclrtSynchronizeStream failed. ERROR: " << ret << std::endl;
        aclrtFree(dIn);
        aclrtFree(dOut);
        return ret;
    }
    std::vector<float> out(static_cast<size_t>(TOTAL_M) * TOTAL_N);
    aclrtMemcpy(out.data(), bytes, dOut, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
    size_t errors = CompareFloat("output", out, golden, COMPARE_TOL);
    std::cout << "[" << name << "] step " << kStep << (errors == 0 ? " PASSED" : " FAILED") << std::endl;
    aclrtFree(dIn);
    aclrtFree(dOut);
    aclrtDestroyStream(stream);
    aclrtResetDevice(deviceId);
    aclFinalize();
    return errors == 0 ? 0 : 1;
}
