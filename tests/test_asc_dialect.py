"""The C++ and dialect constructs of real samples (surface spec 1) run unchanged: one
program uses them all and checks its own results in main(); the test checks what the emulator saw."""
from __future__ import annotations

import pytest

from tests.asc_support import build_and_run, needs_compiler, write

PROGRAM = r"""
#include <cstdio>
#include <cstring>
#include <vector>
#include "acl/acl.h"
#include "kernel_operator.h"

#define IDX(i, j) ((i) * 64 + (j))

__host_aicore__ inline uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

// a __simd_callee__ helper taking registers by reference
__simd_callee__ inline void AddOne(AscendC::Reg::RegTensor<float>& r, AscendC::Reg::MaskReg& m)
{
    AscendC::Reg::Adds(r, r, 1.0f, m);
}

template <typename T>
__simd_vf__ inline void ScaleVF(__ubuf__ T* dst, __ubuf__ T* src, uint32_t count, uint16_t loops, T factor)
{
    AscendC::Reg::RegTensor<T> v;
    #pragma unroll 2
    for (uint16_t i = 0; i < loops; ++i) {
        AscendC::Reg::MaskReg m = AscendC::Reg::UpdateMask<T>(count);       // count is updated by reference
        AscendC::Reg::LoadAlign(v, src + IDX(i, 0));
        AscendC::Reg::Muls(v, v, factor, m);
        AddOne(v, m);
        AscendC::Reg::StoreAlign(dst + IDX(i, 0), v, m);
    }
}

// stores one element per row with the pointer advanced by StoreUnAlign; a uint16 trip count that wrapped
__simd_vf__ inline void FirstOfRowsVF(__ubuf__ float* dst, __ubuf__ float* src, uint16_t rows)
{
    AscendC::Reg::RegTensor<float> v;
    AscendC::Reg::UnalignRegForStore u;
    for (uint16_t r = 0; r < rows; ++r) {
        AscendC::Reg::LoadAlign(v, src + r * 64);
        AscendC::Reg::StoreUnAlign(dst, v, u, 1);
    }
    AscendC::Reg::StoreUnAlignPost(dst, u, 0);
}

// a loop the compiler cannot make a hardware loop (while): runs, and is reported
__simd_vf__ inline void SoftLoopVF(__ubuf__ float* dst, uint32_t n)
{
    AscendC::Reg::RegTensor<float> v;
    AscendC::Reg::MaskReg all = AscendC::Reg::CreateMask<float, AscendC::Reg::MaskPattern::ALL>();
    uint32_t k = 0;
    while (k < n) {
        AscendC::Reg::Duplicate(v, 7.0f, all);
        AscendC::Reg::StoreAlign(dst + k * 64, v, all);
        ++k;
    }
}

template <typename T, int Mode>
class Kernel {
public:
    static constexpr uint32_t N = 256;
    static constexpr AscendC::Reg::CastTrait kToF32 = {AscendC::Reg::RegLayout::ZERO, AscendC::Reg::SatMode::UNKNOWN,
                                                      AscendC::Reg::MaskMergeMode::ZEROING, AscendC::RoundMode::CAST_NONE};
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y)
    {
        uint32_t half = N / AscendC::GetBlockNum();
        offset_ = AscendC::GetBlockIdx() * half;
        xg_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x) + offset_, half);
        yg_.SetGlobalBuffer(static_cast<__gm__ T*>(static_cast<void*>(y)) + offset_, half);
        pipe_.InitBuffer(que_, 1, 2 * N * sizeof(T));
        pipe_.InitBuffer(tmp_, 1024);
    }
    template <typename U>
    __aicore__ inline U First() { return xg_(0) + U(0); }
    __aicore__ inline void Process()
    {
        uint32_t half = N / AscendC::GetBlockNum();
        auto t = que_.template AllocTensor<T>();
        DataCopy(t, xg_, half);                              // unqualified: found by argument-dependent lookup
        que_.EnQue(t);
        t = que_.template DeQue<T>();
        AscendC::LocalTensor<T> out = t[N];
        AscendC::LocalTensor<T>& target = (Mode == 2) ? out : t;   // a ternary that yields a reference
        __ubuf__ T* src = (__ubuf__ T*)t.GetPhyAddr();
        if constexpr (Mode == 2) {
            asc_vf_call<ScaleVF<T>>((__ubuf__ T*)target.GetPhyAddr(), src, half, (uint16_t)CeilDiv(half, 64), T(2));
        } else {
            ScaleVF<T>((__ubuf__ T*)target.GetPhyAddr(), src, half, (uint16_t)CeilDiv(half, 64), T(3));
        }
        // a tensor at a raw UB byte address: the low 32 bits of a __ubuf__ pointer are its UB address
        uint32_t byteAddr = (uint32_t)(uintptr_t)tmp_.template Get<float>().GetPhyAddr();
        AscendC::LocalTensor<float> raw(AscendC::TPosition::VECCALC, byteAddr, 128);
        FirstOfRowsVF((__ubuf__ float*)raw.GetPhyAddr(), src, (uint16_t)(65536 + 2));
        float first = raw.GetValue(1);
        SoftLoopVF((__ubuf__ float*)raw[64].GetPhyAddr(), 2);
        AscendC::PRINTF("core %d first %.1f raw %.1f\n", (int)AscendC::GetBlockIdx(), (double)First<float>(),
                        (double)first);
        DataCopyPad(yg_, target, {1, static_cast<uint32_t>(half * sizeof(T)), 0, 0, 0});
        que_.FreeTensor(t);
    }

private:
    AscendC::TPipe pipe_;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> que_;
    AscendC::TQue<AscendC::TPosition::VECCALC, 1> tmpQue_;
    AscendC::TBuf<AscendC::TPosition::VECCALC> tmp_;
    AscendC::GlobalTensor<T> xg_, yg_;
    uint32_t offset_ = 0;
};

template <typename T, int Mode>
__global__ __aicore__ void scale_kernel(GM_ADDR x, GM_ADDR y)
{
    Kernel<T, Mode> op;
    op.Init(x, y);
    op.Process();
}

int main()
{
    constexpr uint32_t N = 256;
    std::vector<float> x(N), y(N);
    for (uint32_t i = 0; i < N; ++i) x[i] = (float)i;
    uint8_t *dx, *dy;
    aclrtMalloc((void**)&dx, N * 4, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&dy, N * 4, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(dx, N * 4, x.data(), N * 4, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtStream stream;
    aclrtCreateStream(&stream);
    int bad = 0;
    scale_kernel<float, 2><<<2, nullptr, stream>>>(dx, dy);
    aclrtMemcpy(y.data(), N * 4, dy, N * 4, ACL_MEMCPY_DEVICE_TO_HOST);
    for (uint32_t i = 0; i < N; ++i) bad += y[i] != x[i] * 2 + 1;
    scale_kernel<float, 3><<<1, 0, stream>>>(dx, dy);
    aclrtMemcpy(y.data(), N * 4, dy, N * 4, ACL_MEMCPY_DEVICE_TO_HOST);
    for (uint32_t i = 0; i < N; ++i) bad += y[i] != x[i] * 3 + 1;
    printf("%s %d\n", bad ? "FAILED" : "PASSED", bad);
    return bad ? 1 : 0;
}
"""


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    return build_and_run(write(tmp_path_factory.mktemp("dialect"), "dialect.asc", PROGRAM))


@needs_compiler
def test_program_runs_and_checks_itself(run):
    assert run.failure is None and run.exit_status == 0, (run.failure, run.stderr[-2000:])
    assert "PASSED 0" in run.stdout


@needs_compiler
def test_templated_launches_on_their_block_counts(run):
    assert [(lr["kernel"], lr["block_dim"]) for lr in run.launches] == \
        [("scale_kernel<float, 2>", 2), ("scale_kernel<float, 3>", 1)]


@needs_compiler
def test_device_printf_and_scalar_reads(run):
    # PRINTF per core; GlobalTensor operator() reads GM; the uint16 trip count 65538 wrapped to 2 rows, and
    # StoreUnAlign advanced its pointer (row 1's first element landed at index 1)
    assert "core 0 first 0.0 raw 64.0" in run.stdout
    assert "core 1 first 128.0 raw 192.0" in run.stdout


@needs_compiler
def test_loops_vf_kinds_and_counts(run):
    first, second = run.launches
    c = first["counters"]
    # per core: ScaleVF (asc_vf_call, 2 trips), FirstOfRowsVF (2 trips), SoftLoopVF (no hardware loop)
    assert c["vf_count"] == 6
    assert c["loop_entries"] == 4
    assert c["RV_VMULS"] == 4 and c["RV_VADDS"] == 4          # __simd_callee__ inlined into the loop
    assert c["RV_VSTUI"] == 4 and c["RV_VSTAS"] == 2
    assert second["counters"]["vf_count"] == 3                # direct VF call in the other constexpr branch
    codes = [d["code"] for d in first["diagnostics"]]
    assert codes == ["VF_SOFTWARE_LOOP"]
    soft = first["diagnostics"][0]
    assert soft["line"] == PROGRAM.splitlines().index("    while (k < n) {") + 1
    assert "'while' loop" in soft["message"]


@needs_compiler
def test_ub_plan_names_come_from_the_source(run):
    names = [b["name"] for b in run.launches[0]["ub"]["buffers"]]
    assert names == ["que", "tmp"]
