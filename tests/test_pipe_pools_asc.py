"""The resource classes on the .asc route, written as the vendor's per-API examples write them:
``LocalMemAllocator<Hardware::UB>`` with ``Alloc<T, SIZE>()`` (the SetAtomicAdd example, 3 cores adding
into one GM row), TQueBind with the in-place AllocTensor / DeQue and the position-pair EnQue, TBufPool
nesting, a custom pool (EXTERN_IMPL_BUFPOOL) placing a queue, TBuf::GetWithOffset, PopStackBuffer and
TPipe::Reset; the UB plan rows carry the source's names."""
from __future__ import annotations

import numpy as np
import pytest

from tests.asc_support import build_and_run, needs_compiler, output_bytes, write

SIZE = 256

PROGRAM = r"""
#include <cstdio>
#include <vector>
#include "acl/acl.h"
#include "kernel_operator.h"

constexpr uint32_t SIZE = 256;

class MyBufPool {
public:
    __aicore__ inline MyBufPool() { Init(); }
    template <class T>
    __aicore__ inline bool InitBuffer(T& que, uint8_t num, uint32_t len)
    {
        uint32_t addr = GetCurAddr();
        auto handle = GetBufHandle(GetCurBufSize());
        que.InitStartBufHandle(handle, num, len);
        for (uint8_t i = 0; i < num; i++) que.InitBufHandle(this, i, handle, addr + i * len, len);
        SetCurAddr(addr + num * len);
        SetCurBufSize(GetCurBufSize() + num);
        return true;
    }
    EXTERN_IMPL_BUFPOOL(MyBufPool, AscendC::TPosition::VECCALC, 16);
};

__global__ __aicore__ void atomic_example(GM_ADDR src, GM_ADDR dst)
{
    AscendC::GlobalTensor<float> srcGlobal, dstGlobal;
    srcGlobal.SetGlobalBuffer((__gm__ float*)src + AscendC::GetBlockIdx() * SIZE, SIZE);
    dstGlobal.SetGlobalBuffer((__gm__ float*)dst, SIZE);
    AscendC::LocalMemAllocator<AscendC::Hardware::UB> ubAllocator;
    AscendC::LocalTensor<float> srcLocal = ubAllocator.Alloc<float, SIZE>();
    AscendC::DisableDmaAtomic();
    AscendC::DataCopy(srcLocal, srcGlobal, SIZE);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
    AscendC::SyncAll();
    AscendC::SetAtomicAdd<float>();
    AscendC::DataCopy(dstGlobal, srcLocal, SIZE);
    AscendC::DisableDmaAtomic();
}

__global__ __aicore__ void pools(GM_ADDR src, GM_ADDR dst)
{
    using namespace AscendC;
    GlobalTensor<float> srcGlobal, dstGlobal;
    srcGlobal.SetGlobalBuffer((__gm__ float*)src, SIZE);
    dstGlobal.SetGlobalBuffer((__gm__ float*)dst, 4 * SIZE);
    TPipe pipe;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, 0> bindQue;
    TBufPool<TPosition::VECCALC> outerPool, innerPool;
    TBuf<TPosition::VECCALC> scratch;
    TQue<TPosition::VECOUT, 1> customQue;
    MyBufPool custom;
    pipe.InitBuffer(bindQue, 1, SIZE * sizeof(float));
    pipe.InitBufPool(outerPool, 4 * SIZE * sizeof(float));
    outerPool.InitBufPool(innerPool, 2 * SIZE * sizeof(float));
    innerPool.InitBuffer(scratch, 2 * SIZE * sizeof(float));
    pipe.InitBufPool(custom, 2 * SIZE * sizeof(float));
    custom.InitBuffer(customQue, 2, SIZE * sizeof(float));

    LocalTensor<float> t;
    bindQue.AllocTensor<float>(t);                   // in-place forms (depth 0)
    DataCopy(t, srcGlobal, SIZE);
    bindQue.EnQue<TPosition::GM, TPosition::VECIN, float>(t);
    bindQue.DeQue<float>(t);
    LocalTensor<float> half1 = scratch.GetWithOffset<float>(SIZE, SIZE * sizeof(float));
    DataCopy(half1, t, SIZE);
    LocalTensor<float> o = customQue.AllocTensor<float>();
    DataCopy(o, half1, SIZE);
    customQue.EnQue(o);
    o = customQue.DeQue<float>();
    DataCopy(dstGlobal, o, SIZE);
    LocalTensor<float> rest;
    PopStackBuffer<float, TPosition::VECCALC>(rest);
    DataCopy(rest, o, SIZE);
    DataCopy(dstGlobal[SIZE], rest, SIZE);
    customQue.FreeTensor(o);
    bindQue.FreeTensor(t);
    dstGlobal.SetValue(2 * SIZE, (float)rest.GetSize());
    dstGlobal.SetValue(2 * SIZE + 1, (float)customQue.GetTensorCountInQue());
    dstGlobal.SetValue(2 * SIZE + 2, (float)bindQue.HasIdleBuffer());
    pipe.Reset();
    TQue<TPosition::VECOUT, 1> big;
    pipe.InitBuffer(big, 1, 200 * 1024);             // fits only because Reset gave the UB back
    LocalTensor<float> b = big.AllocTensor<float>();
    big.FreeTensor(b);
}

int main()
{
    aclInit(nullptr);
    std::vector<float> x(3 * SIZE);
    for (uint32_t i = 0; i < x.size(); ++i) x[i] = (float)(i % 17) - 3.0f;
    uint8_t *src, *dst, *out;
    aclrtMalloc((void**)&src, x.size() * 4, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&dst, SIZE * 4, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&out, 4 * SIZE * 4, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(src, x.size() * 4, x.data(), x.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemset(dst, SIZE * 4, 0, SIZE * 4);
    atomic_example<<<3, nullptr, nullptr>>>(src, dst);
    pools<<<1, nullptr, nullptr>>>(src, out);
    std::printf("done\n");
    return 0;
}
"""


def _x() -> np.ndarray:
    return (np.arange(3 * SIZE) % 17).astype(np.float32) - np.float32(3)


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    return build_and_run(write(tmp_path_factory.mktemp("pools"), "pools.asc", PROGRAM))


@needs_compiler
def test_allocator_example_sums_the_cores_atomically(run):
    assert run.failure is None and run.exit_status == 0, (run.failure, run.stderr)
    atomic, pools = run.launches
    assert atomic["diagnostics"] == [] and atomic["passed"]
    got = np.frombuffer(output_bytes(run, 0)["dst"], np.float32)
    np.testing.assert_array_equal(got, _x().reshape(3, SIZE).sum(axis=0))
    assert [(b["name"], b["bytes"]) for b in atomic["ub"]["buffers"]] == [("srcLocal", SIZE * 4)]


@needs_compiler
def test_pools_bind_queue_and_custom_pool(run):
    pools = run.launches[1]
    assert pools["diagnostics"] == [], pools["diagnostics"]
    out = np.frombuffer(output_bytes(run, 1)["dst"], np.float32)
    x = _x()[:SIZE]
    np.testing.assert_array_equal(out[:SIZE], x)
    np.testing.assert_array_equal(out[SIZE:2 * SIZE], x)
    rest = (253952 - 1024 - 4096 - 2048) // 4                 # PopStackBuffer: the UB after the pipe's plan
    assert list(out[2 * SIZE:2 * SIZE + 3]) == [rest, 0, 1]
    rows = [(b["name"], b["bytes"]) for b in pools["ub"]["buffers"]]
    assert rows == [("bindQue", 1024), ("outerPool", 4096), ("custom", 2048), ("big", 204800)]
