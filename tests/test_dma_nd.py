"""DataCopy with SliceInfo arrays and the NDDMA form, on the pages' own examples: the 3 x 87 float source
sliced into a 2 x 48 destination; NDDMA's 2D constant and nearest-value padding, transpose and broadcast.
References are numpy slicing / np.pad / transpose of the same data; the .asc program runs the C++ forms."""
from __future__ import annotations

import numpy as np
import pytest

from tests.asc_support import build_and_run, needs_compiler, output_bytes, write
from toolkit.ascendc.dma_nd import SliceInfo, nd_dma, slice_copy
from toolkit.ascendc.tensor import GlobalTensor, LocalTensor
from toolkit.engine.launch import gm_alloc
from toolkit.record.events import Dma

from api_support import abort_code, get, put

F32, F16 = np.dtype(np.float32), np.dtype(np.float16)


def gm(arr, name="x"):
    g = GlobalTensor(arr.dtype)
    g.SetGlobalBuffer(gm_alloc(name, arr))
    return g


def test_slices_follow_the_page_example(ctx):
    x = np.arange(3 * 87, dtype=F32).reshape(3, 87)
    src = [SliceInfo(16, 70, 7, 3, 87), SliceInfo(0, 2, 1, 1, 3)]
    dst = [SliceInfo(0, 47, 0, 3, 48), SliceInfo(0, 1, 0, 1, 2)]
    slice_copy(LocalTensor(0, F32, 96), gm(x.reshape(-1)), dst, src)
    want = np.concatenate([x[[0, 2], 16:40], x[[0, 2], 47:71]], axis=1)
    np.testing.assert_array_equal(get(ctx, 0, F32, 96).reshape(2, 48), want)
    (ev,) = [e for e in ctx.events if isinstance(e, Dma)]
    assert (ev.direction, ev.nbytes, ev.bursts) == ("GM2UB", 96 * 4, 4)
    out = gm(np.zeros(3 * 87, F32), "y")
    slice_copy(out, LocalTensor(0, F32, 96), src, dst)             # and back: UB -> GM
    np.testing.assert_array_equal(out.buf.data.view(F32).reshape(3, 87)[[0, 2]][:, 16:40], x[[0, 2], 16:40])
    assert abort_code(slice_copy, LocalTensor(0, F32, 96), gm(x.reshape(-1)), dst[:1], src) == "BAD_PARAMETER"


def _nd(ctx, x, loops, shape, nearest=False, const=0):
    nd_dma(LocalTensor(0, x.dtype, int(np.prod(shape))), gm(x.reshape(-1)), nearest, 0xFFFF, 0xFFFF, const, loops)
    return get(ctx, 0, x.dtype, int(np.prod(shape))).reshape(shape)


def test_nddma_constant_padding(ctx):
    x = np.arange(16 * 32, dtype=F16).reshape(16, 32)
    got = _nd(ctx, x, [(1, 1, 32, 15, 17), (32, 64, 16, 13, 3)], (32, 64), const=-1)
    np.testing.assert_array_equal(got, np.pad(x, ((13, 3), (15, 17)), constant_values=-1))


def test_nddma_nearest_value_padding(ctx):
    x = np.arange(28 * 15, dtype=F16).reshape(28, 15)
    got = _nd(ctx, x, [(1, 1, 15, 11, 6), (15, 32, 28, 3, 1)], (32, 32), nearest=True)
    np.testing.assert_array_equal(got, np.pad(x, ((3, 1), (11, 6)), mode="edge"))


def test_nddma_transpose_and_broadcast(ctx):
    x = np.arange(16 * 64, dtype=F16).reshape(16, 64)
    np.testing.assert_array_equal(_nd(ctx, x, [(1, 16, 64, 0, 0), (64, 1, 16, 0, 0)], (64, 16)), x.T)
    row = np.arange(16, dtype=F16)
    np.testing.assert_array_equal(_nd(ctx, row, [(1, 1, 16, 0, 0), (0, 16, 3, 0, 0)], (3, 16)), np.tile(row, (3, 1)))


PROGRAM = r"""
#include "acl/acl.h"
#include "kernel_operator.h"
using namespace AscendC;

__global__ __aicore__ void nd_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    GlobalTensor<half> xg, yg;
    GlobalTensor<float> zg;
    xg.SetGlobalBuffer((__gm__ half*)x, 16 * 32);
    yg.SetGlobalBuffer((__gm__ half*)y, 32 * 64);
    zg.SetGlobalBuffer((__gm__ float*)z, 96);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 32 * 64 * 2);
    LocalTensor<half> xLocal = buf.Get<half>();
    NdDmaLoopInfo<2> loopInfo{{1, 32}, {1, 64}, {32, 16}, {15, 13}, {17, 3}};
    NdDmaParams<half, 2> params{loopInfo, 0};
    NdDmaDci();
    static constexpr NdDmaConfig dmaConfig;
    DataCopy<half, 2, dmaConfig>(xLocal, xg, params);
    SetFlag<HardEvent::MTE2_MTE3>(0);
    WaitFlag<HardEvent::MTE2_MTE3>(0);
    DataCopy(yg, xLocal, 32 * 64);
    SliceInfo src[] = {{16, 70, 7, 3, 87}, {0, 2, 1, 1, 3}};
    SliceInfo dst[] = {{0, 47, 0, 3, 48}, {0, 1, 0, 1, 2}};
    GlobalTensor<float> fg;
    fg.SetGlobalBuffer((__gm__ float*)x, 3 * 87);
    LocalTensor<float> f = buf.Get<float>();
    DataCopy(f, fg, dst, src, 2);
    SetFlag<HardEvent::MTE2_MTE3>(0);
    WaitFlag<HardEvent::MTE2_MTE3>(0);
    DataCopy(zg, f, 96);
}

int main()
{
    aclInit(nullptr);
    uint8_t *x, *y, *z;
    aclrtMalloc((void**)&x, 3 * 87 * 4, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&y, 32 * 64 * 2, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&z, 96 * 4, ACL_MEM_MALLOC_HUGE_FIRST);
    std::vector<uint8_t> host(3 * 87 * 4);
    for (size_t i = 0; i < host.size(); ++i) host[i] = (uint8_t)(i * 7 + 3);
    aclrtMemcpy(x, host.size(), host.data(), host.size(), ACL_MEMCPY_HOST_TO_DEVICE);
    nd_kernel<<<1, nullptr, nullptr>>>(x, y, z);
    return 0;
}
"""


@needs_compiler
def test_the_cpp_forms_run_the_same_semantics(tmp_path):
    run = build_and_run(write(tmp_path, "nd.asc", "#include <vector>\n" + PROGRAM))
    assert run.failure is None and run.exit_status == 0, (run.failure, run.stderr)
    assert run.launches[0]["diagnostics"] == []
    raw = (np.arange(3 * 87 * 4) * 7 + 3).astype(np.uint8)
    got = output_bytes(run)
    x16 = raw[:16 * 32 * 2].view(F16).reshape(16, 32)
    want = np.pad(x16, ((13, 3), (15, 17)))
    np.testing.assert_array_equal(np.frombuffer(got["y"], F16).reshape(32, 64).view(np.uint16), want.view(np.uint16))
    x32 = raw.view(F32).reshape(3, 87)
    want = np.concatenate([x32[[0, 2], 16:40], x32[[0, 2], 47:71]], axis=1)
    np.testing.assert_array_equal(np.frombuffer(got["z"], F32).reshape(2, 48).view(np.uint32), want.view(np.uint32))
