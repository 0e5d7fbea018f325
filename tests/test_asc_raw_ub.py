"""C++ of a VF body that reads or writes UB through a pointer (SIMD_VF functions may, ordered by
LocalMemBar<..., SCALAR_*>) runs on every core, and in a hardware loop before the next iteration's calls
(toolkit/asc/rawub.py): lock-step once ran one body for a group of cores, so core 1's scalar code never
ran, and a recorded loop deferred the loads past the scalar stores."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.asc_support import build_and_run, needs_compiler, write
from toolkit.asc.lexer import match_forward, tokens
from toolkit.asc.rawub import touches_ub

PROGRAM = r"""
#include <cstdio>
#include <vector>
#include "acl/acl.h"
#include "kernel_operator.h"
using namespace AscendC;

// per core (its own x, the same parameters: lock-step groups the cores): row 0 = x + 1 (vector), x[64] =
// 2 * row0[3] (scalar, read after the vector store), then rows 1.. of a loop: row i = x row i + 0.5,
// x[(i + 1) * 64] = row i [5] (a scalar write the next iteration's load reads)
__simd_vf__ inline void VF(__ubuf__ float* x, __ubuf__ float* out, uint16_t n)
{
    Reg::RegTensor<float> a;
    Reg::MaskReg full = Reg::CreateMask<float>();
    Reg::LoadAlign(a, x);
    Reg::Adds(a, a, 1.0f, full);
    Reg::StoreAlign(out, a, full);
    Reg::LocalMemBar<Reg::MemType::VEC_STORE, Reg::MemType::SCALAR_LOAD>();
    x[64] = out[3] * 2.0f;
    Reg::LocalMemBar<Reg::MemType::SCALAR_STORE, Reg::MemType::VEC_LOAD>();
    for (uint16_t i = 1; i < n; ++i) {
        Reg::LoadAlign(a, x + i * 64);
        Reg::Adds(a, a, 0.5f, full);
        Reg::StoreAlign(out + i * 64, a, full);
        Reg::LocalMemBar<Reg::MemType::VEC_STORE, Reg::MemType::SCALAR_LOAD>();
        *(x + (i + 1) * 64) = out[i * 64 + 5];
        Reg::LocalMemBar<Reg::MemType::SCALAR_STORE, Reg::MemType::VEC_LOAD>();
    }
}

extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> inb, outb;
    pipe.InitBuffer(inb, 2048);
    pipe.InitBuffer(outb, 2048);
    GlobalTensor<float> xg, og;
    xg.SetGlobalBuffer((__gm__ float*)x + GetBlockIdx() * 512, 512);
    og.SetGlobalBuffer((__gm__ float*)out + GetBlockIdx() * 512, 512);
    LocalTensor<float> in = inb.Get<float>();
    LocalTensor<float> o = outb.Get<float>();
    DataCopy(in, xg, 512);
    Duplicate(o, 0.0f, 512);
    PipeBarrier<PIPE_ALL>();
    VF((__ubuf__ float*)in.GetPhyAddr(), (__ubuf__ float*)o.GetPhyAddr(), 6);
    PipeBarrier<PIPE_ALL>();
    DataCopy(og, o, 512);
}

int main()
{
    std::vector<float> x(4 * 512);
    for (int i = 0; i < 4 * 512; ++i) x[i] = (float)(i % 13) - 6.0f;
    uint8_t *dx, *dout;
    aclrtMalloc((void**)&dx, 4 * 2048, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&dout, 4 * 2048, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(dx, 4 * 2048, x.data(), 4 * 2048, ACL_MEMCPY_HOST_TO_DEVICE);
    k<<<4, nullptr, nullptr>>>(dx, dout);
    return 0;
}
"""


def expected(cores: int = 4, n: int = 6) -> np.ndarray:
    rows = []
    for core in range(cores):
        x = np.array([(i % 13) - 6.0 for i in range(core * 512, core * 512 + 512)], dtype=np.float32)
        out = np.zeros(512, dtype=np.float32)
        out[:64] = x[:64] + np.float32(1)
        x[64] = out[3] * np.float32(2)
        for i in range(1, n):
            out[i * 64:(i + 1) * 64] = x[i * 64:(i + 1) * 64] + np.float32(0.5)
            x[(i + 1) * 64] = out[i * 64 + 5]
        rows.append(out)
    return np.concatenate(rows)


@needs_compiler
@pytest.mark.parametrize("batched", ["1", "0"])
def test_scalar_ub_access_in_a_vf_runs_on_every_core_in_order(tmp_path: Path, monkeypatch, batched):
    monkeypatch.setenv("MIGRATE_CHECK_LOOP_BATCH", batched)
    run = build_and_run(write(tmp_path, "raw.asc", PROGRAM))
    assert run.failure is None, (run.failure, run.stderr)
    got = np.frombuffer(run.launches[0]["outputs"][0]["data"], np.float32)
    np.testing.assert_array_equal(got, expected())
    stats = run.launches[0].get("loop_batching", {})
    assert "batched" not in stats


def _flag(body: str, params: str = "__ubuf__ float* x, __ubuf__ float* y, float s") -> bool:
    toks = tokens(f"void f({params}) {{ {body} }}")
    lp = next(i for i, t in enumerate(toks) if t.text == "(")
    body_at = next(i for i, t in enumerate(toks) if t.text == "{")
    return touches_ub(toks, lp, body_at, match_forward(toks, body_at))


def test_which_bodies_touch_ub_through_a_pointer():
    assert _flag("float v = x[3];")
    assert _flag("y[i * 64] = s;")
    assert _flag("float v = *x;")
    assert _flag("s = s + *(x + 4);")
    assert _flag("__ubuf__ float* p = x + 8; p[0] = 1.0f;")
    assert _flag("((__ubuf__ float*)s)[2] = 0;", "uint64_t s")
    assert _flag('printf("%f", s);')
    assert _flag("float v = t.GetValue(3);", "LocalTensor<float> t") and _flag("t.SetValue(1, s);", "T t")
    # pointer arithmetic for the API calls, products and register arrays are not access
    assert not _flag("Reg::LoadAlign(a, x + i * 64); Reg::StoreAlign(y + i * 64, a, m);")
    assert not _flag("float t = s * s; uint32_t k = n * 64;")
    assert not _flag("Reg::RegTensor<float> r[4]; Reg::Adds(r[1], r[0], s, m);")
    assert not _flag("Reg::LoadAlign(a, (__ubuf__ float*)p + 64);", "uint64_t p")


CALLEE = r"""
__simd_callee__ inline void Peek(__ubuf__ float* p, float& v) { v = p[0]; }
__simd_callee__ inline void Pure(Reg::RegTensor<float>& r) { Reg::Duplicate(r, 1.0f); }
__simd_vf__ inline void Raw(__ubuf__ float* x, uint16_t n)
{
    float v;
    for (uint16_t i = 0; i < n; ++i) { Peek(x + i * 64, v); }
}
__simd_vf__ inline void Clean(__ubuf__ float* x, uint16_t n)
{
    Reg::RegTensor<float> r;
    for (uint16_t i = 0; i < n; ++i) { Pure(r); Reg::StoreAlign(x + i * 64, r, Reg::CreateMask<float>()); }
}
"""


def test_a_vf_calling_a_callee_that_touches_ub_runs_per_core_and_its_loops_are_not_recorded():
    from toolkit.asc.rewrite import NO_DEFER, rewrite

    text = rewrite(CALLEE, "c.asc").text
    raw, clean = text.split("void Clean")
    assert "::__asc::Unkeyable{}" in raw and "VfLoop __asc_lp7_" in raw
    assert f"({1 | NO_DEFER}, " in raw.split("VfLoop __asc_lp7_")[1][:40]
    assert "::__asc::Unkeyable{}" not in clean and ", x, n}" in clean
    assert f"({1 | NO_DEFER}, " not in clean


GETVALUE = r"""
#include "acl/acl.h"
#include "kernel_operator.h"
using namespace AscendC;
__simd_vf__ inline void VF(LocalTensor<float> t)
{
    float v = t.GetValue(3);
    t.SetValue(64, v * 2.0f);
    t.SetValue(65, (float)GetBlockIdx());
}
__simd_vf__ inline void IdxVF(__ubuf__ float* p)
{
    Reg::RegTensor<float> r;
    Reg::MaskReg full = Reg::CreateMask<float>();
    Reg::Duplicate(r, (float)GetBlockIdx());
    Reg::StoreAlign(p, r, full);
}
extern "C" __global__ __aicore__ void k(GM_ADDR x)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 1024);
    GlobalTensor<float> g;
    g.SetGlobalBuffer((__gm__ float*)x + GetBlockIdx() * 256, 256);
    LocalTensor<float> t = b.Get<float>();
    DataCopy(t, g, 256);
    PipeBarrier<PIPE_ALL>();
    VF(t);
    IdxVF((__ubuf__ float*)t.GetPhyAddr() + 128);
    PipeBarrier<PIPE_ALL>();
    DataCopy(g, t, 256);
}
int main()
{
    float x[1024];
    for (int i = 0; i < 1024; ++i) x[i] = (float)i;
    uint8_t* d;
    aclrtMalloc((void**)&d, 4096, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(d, 4096, x, 4096, ACL_MEMCPY_HOST_TO_DEVICE);
    k<<<4, nullptr, nullptr>>>(d);
    return 0;
}
"""


@needs_compiler
def test_local_tensor_get_and_set_value_and_the_block_index_in_a_vf_are_each_cores(tmp_path: Path):
    run = build_and_run(write(tmp_path, "g.asc", GETVALUE))
    assert run.failure is None and run.launches[0]["passed"], (run.failure, run.stderr)
    got = np.frombuffer(run.launches[0]["outputs"][0]["data"], np.float32).reshape(4, 256)
    want = np.arange(1024, dtype=np.float32).reshape(4, 256)
    want[:, 64] = want[:, 3] * 2
    want[:, 65] = np.arange(4)
    want[:, 128:192] = np.arange(4)[:, None]
    np.testing.assert_array_equal(got, want)
