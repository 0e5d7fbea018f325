"""The reductions, Arange and PhiloxRandom on both routes: one .asc kernel and its Python twin call Sum, Mean
(half through float), ReduceXorSum (framework buffer), ReduceSum / ReduceMax / ReduceProd with a pattern
(the basic APIs' names), Arange and PhiloxRandom (count and stride modes: the bridge's srcShape[], PhiloxKey and
PhiloxCounter encodings). Both must write the same bytes and leave the same event stream."""
from __future__ import annotations

import numpy as np
import pytest

from tests.asc_support import assert_same_event_stream, both_routes, needs_compiler, output_bytes
from toolkit.ascendc import membase as MB
from toolkit.ascendc.dma import DataCopyExtParams, DataCopyPad, DataCopyPadExtParams
from toolkit.ascendc.dtypes import TemplateValue
from toolkit.ascendc.highlevel import index_random as IR
from toolkit.ascendc.highlevel import reduce as HR
from toolkit.ascendc.highlevel import reduce_pattern as RP
from toolkit.ascendc.pipe import TBuf, TPipe, TPosition
from toolkit.ascendc.regbase.types import RoundMode
from toolkit.ascendc.sync import PipeBarrier, PipeType
from toolkit.ascendc.tensor import GlobalTensor, gm_cast

N, OUT, TMP = 256, 2048, 8192

PROGRAM = r"""
#include "acl/acl.h"
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t N = 256, OUT = 2048, TMP = 8192;

extern "C" __global__ __aicore__ void hl_kernel(GM_ADDR x, GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> work, tmpBuf;
    pipe.InitBuffer(work, OUT * sizeof(float));
    pipe.InitBuffer(tmpBuf, TMP);
    GlobalTensor<float> xg, og;
    xg.SetGlobalBuffer((__gm__ float*)x, N);
    og.SetGlobalBuffer((__gm__ float*)out, OUT);
    LocalTensor<float> w = work.Get<float>();
    LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
    Duplicate(w, 0.0f, OUT);
    DataCopyPad(w, xg, DataCopyExtParams{1, N * 4, 0, 0, 0}, DataCopyPadExtParams<float>{false, 0, 0, 0});
    Sum(w[256], w, tmp, SumParams{4, 64, 61});
    LocalTensor<half> h = w[512].ReinterpretCast<half>();
    Cast(h, w, RoundMode::CAST_RINT, N);
    Mean<half, float>(w[576].ReinterpretCast<half>(), h, tmp, MeanParams{4, 64, 50});
    LocalTensor<int16_t> a = w[640].ReinterpretCast<int16_t>();
    Cast(a, w, RoundMode::CAST_RINT, N);
    LocalTensor<int16_t> xs = w[768].ReinterpretCast<int16_t>();      // dst by non-const reference (the page)
    ReduceXorSum(xs, a, a[128], 128);
    uint32_t ar[] = {8, 32};
    uint32_t odd[] = {9, 7};
    ReduceSum<float, Pattern::Reduce::AR, false>(w[800], w, tmp, ar, true);
    ReduceMax<float, Pattern::Reduce::RA>(w[808], w, odd, true);
    ReduceProd<float, Pattern::Reduce::RA, true>(w[816], w[1024], tmp, ar, true);
    Arange(w[864], 0.5f, 0.75f, 100);
    PhiloxKey key = {7u, 0x80000001u};
    PhiloxCounter ctr = {0xffffffffu, 3u, 0x10u, 0u};
    PhiloxRandom<10>(w[1024].ReinterpretCast<uint32_t>(), key, ctr, (uint16_t)60);
    PhiloxRandom(w[1088], key, ctr, PhiloxRandomParams{12, 3, 8});
    PipeBarrier<PIPE_ALL>();
    DataCopyPad(og, w, DataCopyExtParams(1, OUT * 4, 0, 0, 0));
}

int main()
{
    std::vector<float> x(N);
    for (uint32_t i = 0; i < N; ++i) x[i] = (float)((int)((i * 29) % 61) - 30) / 8.0f;
    uint8_t *dx = nullptr, *dout = nullptr;
    aclrtMalloc((void**)&dx, N * 4, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&dout, OUT * 4, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(dx, N * 4, x.data(), N * 4, ACL_MEMCPY_HOST_TO_DEVICE);
    hl_kernel<<<1, nullptr, nullptr>>>(dx, dout);
    return 0;
}
"""


def _x() -> np.ndarray:
    i = np.arange(N)
    return (((i * 29) % 61 - 30) / 8.0).astype(np.float32)


def hl_kernel(x_addr, out_addr) -> None:
    pipe = TPipe()
    work, tmpBuf = TBuf(TPosition.VECCALC), TBuf(TPosition.VECCALC)
    pipe.InitBuffer(work, OUT * 4)
    pipe.InitBuffer(tmpBuf, TMP)
    xg, og = GlobalTensor(float), GlobalTensor(float)
    xg.SetGlobalBuffer(gm_cast(float, x_addr))
    og.SetGlobalBuffer(gm_cast(float, out_addr))
    w, tmp = work.Get(float), tmpBuf.Get(np.uint8)
    MB.Duplicate(w, 0.0, OUT)
    DataCopyPad(w, xg, DataCopyExtParams(1, N * 4, 0, 0, 0), DataCopyPadExtParams(False, 0, 0, 0))
    HR.Sum(w[256], w, tmp, HR.SumParams(4, 64, 61))
    h = w[512].ReinterpretCast(np.float16)
    MB.Cast(h, w, RoundMode.CAST_RINT, N)
    HR.Mean[(np.float16, TemplateValue("accType", 4))](w[576].ReinterpretCast(np.float16), h, tmp,
                                                        HR.MeanParams(4, 64, 50))
    a = w[640].ReinterpretCast(np.int16)
    MB.Cast(a, w, RoundMode.CAST_RINT, N)
    HR.ReduceXorSum(w[768].ReinterpretCast(np.int16), a, a[128], 128)
    MB.ReduceSum[(np.float32, RP.Pattern.Reduce.AR, TemplateValue("isReuseSource", 0))](w[800], w, tmp, [8, 32], True)
    MB.ReduceMax[(np.float32, RP.Pattern.Reduce.RA)](w[808], w, [9, 7], True)
    RP.ReduceProd(w[816], w[1024], tmp, [8, 32], True, pattern=1, isReuseSource=True)
    IR.Arange(w[864], np.float32(0.5), np.float32(0.75), 100)
    key, ctr = [7, 0x80000001], [0xFFFFFFFF, 3, 0x10, 0]
    IR.PhiloxRandom(w[1024].ReinterpretCast(np.uint32), key, ctr, 60, Rounds=10)
    IR.PhiloxRandom(w[1088], key, ctr, IR.PhiloxRandomParams(12, 3, 8))
    PipeBarrier[PipeType.PIPE_ALL]()
    DataCopyPad(og, w, DataCopyExtParams(1, OUT * 4, 0, 0, 0))


@pytest.fixture(scope="module")
def both(tmp_path_factory):
    asc, py, gm = both_routes(tmp_path_factory.mktemp("hlreduce"), PROGRAM, _x(), OUT * 4, hl_kernel)
    assert not py.diagnostics.codes()
    return asc, py, gm


@needs_compiler
def test_same_bytes(both):
    asc, _, gm = both
    buf = gm[1].buf
    assert output_bytes(asc)["out"] == buf.data[buf.writer >= 0].tobytes()
    w = buf.data.view(np.float32)
    x = _x().astype(np.float64)
    np.testing.assert_allclose(w[256:260], x.reshape(4, 64)[:, :61].sum(1), rtol=1e-6, atol=1e-5)
    np.testing.assert_allclose(w[800:808], x.reshape(8, 32).sum(1), rtol=1e-6, atol=1e-5)
    np.testing.assert_array_equal(w[808:815], x[:63].reshape(9, 7).max(0))
    np.testing.assert_allclose(w[864:964], 0.5 + 0.75 * np.arange(100), rtol=1e-6)


@needs_compiler
def test_same_event_stream(both):
    asc, py, _ = both
    assert_same_event_stream(asc, py, "PhiloxRandom.tmp")
