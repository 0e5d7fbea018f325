// Shared skeleton of the port test kernels (tests/test_port.py): every kernel streams blocks of two
// inputs through VECIN queues into one VECOUT queue; a case (Derived) declares its temporaries
// (InitTemps) and its compute (Compute): the region `migrate-check port` rewrites. The host side makes
// deterministic inputs, launches on CASE_BLOCKS cores and checks the output against a reference in
// double precision: exit 0 when every element is within the case's tolerance.
#pragma once
#include <cmath>
#include <cstdio>
#include <functional>
#include <vector>
#include "kernel_operator.h"
#include "acl/acl.h"

using namespace AscendC;

struct CaseTiling {
    uint32_t inElems;     // elements of each input per core
    uint32_t outElems;    // elements of the output per core
    uint32_t rows;
    float a;
    float b;
};

__aicore__ inline uint32_t Round256(uint32_t bytes) { return (bytes + 255) / 256 * 256; }

template <class Derived, class TIn, class TOut>
class CaseKernel {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const CaseTiling& t)
    {
        tiling_ = t;
        uint32_t core = GetBlockIdx();
        xGm_.SetGlobalBuffer((__gm__ TIn*)x + core * t.inElems);
        yGm_.SetGlobalBuffer((__gm__ TIn*)y + core * t.inElems);
        zGm_.SetGlobalBuffer((__gm__ TOut*)z + core * t.outElems);
        pipe_.InitBuffer(xQueue_, 1, Round256(t.inElems * sizeof(TIn)));
        pipe_.InitBuffer(yQueue_, 1, Round256(t.inElems * sizeof(TIn)));
        pipe_.InitBuffer(zQueue_, 1, Round256(t.outElems * sizeof(TOut)));
        self().InitTemps(&pipe_);
    }

    __aicore__ inline void Process()
    {
        LocalTensor<TIn> x = xQueue_.template AllocTensor<TIn>();
        LocalTensor<TIn> y = yQueue_.template AllocTensor<TIn>();
        DataCopyExtParams in{1, static_cast<uint32_t>(tiling_.inElems * sizeof(TIn)), 0, 0, 0};
        DataCopyPadExtParams<TIn> pad{false, 0, 0, 0};
        DataCopyPad(x, xGm_, in, pad);
        DataCopyPad(y, yGm_, in, pad);
        xQueue_.EnQue(x);
        yQueue_.EnQue(y);
        x = xQueue_.template DeQue<TIn>();
        y = yQueue_.template DeQue<TIn>();
        LocalTensor<TOut> z = zQueue_.template AllocTensor<TOut>();
        self().Compute(z, x, y);
        zQueue_.EnQue(z);
        z = zQueue_.template DeQue<TOut>();
        DataCopyPad(zGm_, z, DataCopyExtParams{1, static_cast<uint32_t>(tiling_.outElems * sizeof(TOut)), 0, 0, 0});
        zQueue_.FreeTensor(z);
        xQueue_.FreeTensor(x);
        yQueue_.FreeTensor(y);
    }

protected:
    Derived& self() { return *static_cast<Derived*>(this); }
    CaseTiling tiling_{};
    TPipe pipe_;
    TQue<TPosition::VECIN, 1> xQueue_, yQueue_;
    TQue<TPosition::VECOUT, 1> zQueue_;
    GlobalTensor<TIn> xGm_, yGm_;
    GlobalTensor<TOut> zGm_;
};

constexpr uint32_t CASE_BLOCKS = 2;

// reference: one core's output from that core's inputs (as the kernel saw them, after rounding to TIn)
using CaseReference = std::function<std::vector<double>(const std::vector<double>&, const std::vector<double>&,
                                                        const CaseTiling&)>;

template <class TIn, class TOut, class Launch>
int RunCase(const char* name, const CaseTiling& t, Launch launch, const CaseReference& ref, double tol)
{
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);
    size_t nIn = size_t(CASE_BLOCKS) * t.inElems, nOut = size_t(CASE_BLOCKS) * t.outElems;
    std::vector<TIn> x(nIn), y(nIn);
    for (size_t i = 0; i < nIn; ++i) {
        x[i] = TIn(static_cast<float>(1.5 * std::sin(0.37 * i + 0.1)));
        y[i] = TIn(static_cast<float>(0.5 + 0.25 * std::cos(0.23 * i)));
    }
    void *dx = nullptr, *dy = nullptr, *dz = nullptr;
    aclrtMalloc(&dx, nIn * sizeof(TIn), ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&dy, nIn * sizeof(TIn), ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&dz, nOut * sizeof(TOut), ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(dx, nIn * sizeof(TIn), x.data(), nIn * sizeof(TIn), ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(dy, nIn * sizeof(TIn), y.data(), nIn * sizeof(TIn), ACL_MEMCPY_HOST_TO_DEVICE);
    launch(stream, (uint8_t*)dx, (uint8_t*)dy, (uint8_t*)dz, t);
    aclrtSynchronizeStream(stream);
    std::vector<TOut> z(nOut);
    aclrtMemcpy(z.data(), nOut * sizeof(TOut), dz, nOut * sizeof(TOut), ACL_MEMCPY_DEVICE_TO_HOST);
    size_t errors = 0;
    double maxDiff = 0;
    for (uint32_t c = 0; c < CASE_BLOCKS; ++c) {
        std::vector<double> xc(t.inElems), yc(t.inElems);
        for (uint32_t i = 0; i < t.inElems; ++i) {
            xc[i] = static_cast<float>(x[c * t.inElems + i]);
            yc[i] = static_cast<float>(y[c * t.inElems + i]);
        }
        std::vector<double> want = ref(xc, yc, t);
        for (uint32_t i = 0; i < t.outElems; ++i) {
            double d = std::fabs(static_cast<float>(z[c * t.outElems + i]) - want[i]);
            maxDiff = d > maxDiff ? d : maxDiff;
            errors += !(d <= tol);
        }
    }
    std::printf("[%s] errors %zu, max diff %g: %s\n", name, errors, maxDiff, errors ? "FAILED" : "PASSED");
    aclrtFree(dx);
    aclrtFree(dy);
    aclrtFree(dz);
    aclrtDestroyStream(stream);
    aclFinalize();
    return errors ? 1 : 0;
}
