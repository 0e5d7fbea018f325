"""Hardware loops of the .asc route batched (toolkit/asc/loopdefer.py): every program runs with loop batching
on and with MIGRATE_CHECK_LOOP_BATCH=0, and the two runs report the same (outputs, diagnostics, counters,
cycles, stdout), timings and the batching statistics aside; loops did batch where they can."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.asc_support import build_and_run, event_key, needs_compiler, write
from toolkit.views.run_report import run_json

ROOT = Path(__file__).resolve().parents[1]

PROGRAM = r"""
#include <cstdio>
#include <vector>
#include "acl/acl.h"
#include "kernel_operator.h"
using namespace AscendC;

// a UpdateMask tail: 200 floats = 3 full vectors and 8 lanes
__simd_vf__ inline void ScaleVF(__ubuf__ float* out, __ubuf__ float* x, uint32_t count, uint16_t n)
{
    Reg::RegTensor<float> a;
    for (uint16_t i = 0; i < n; ++i) {
        Reg::RegTensor<float> b;
        Reg::MaskReg mask = Reg::UpdateMask<float>(count);
        Reg::LoadAlign(a, x + i * 64);
        Reg::Muls(b, a, 2.0f, mask);
        Reg::Adds(b, b, (float)1.5f, mask);
        Reg::StoreAlign(out + i * 64, b, mask);
    }
}

// an accumulator: its update runs as a chain over the iterations (regbase/loopscan.py), the rest batched
__simd_vf__ inline void SumVF(__ubuf__ float* out, __ubuf__ float* x, uint16_t n)
{
    Reg::RegTensor<float> acc;
    Reg::RegTensor<float> a;
    Reg::MaskReg full = Reg::CreateMask<float>();
    Reg::Duplicate(acc, 0.0f);
    for (uint16_t i = 0; i < n; ++i) {
        Reg::LoadAlign(a, x + i * 64);
        Reg::Add(acc, acc, a, full);
    }
    Reg::StoreAlign(out, acc, full);
}

// nested loops: the outer one batched, the inner one (a per-row count) run inside it
__simd_vf__ inline void RowsVF(__ubuf__ float* out, __ubuf__ float* x, uint32_t cols, uint16_t rows,
                               uint16_t chunks)
{
    Reg::RegTensor<float> a;
    for (uint16_t r = 0; r < rows; ++r) {
        uint32_t left = cols;
        for (uint16_t c = 0; c < chunks; ++c) {
            Reg::MaskReg m = Reg::UpdateMask<float>(left);
            Reg::LoadAlign(a, x + r * cols + c * 64);
            Reg::Mins(a, a, 1.0f, m);
            Reg::StoreAlign(out + r * cols + c * 64, a, m);
        }
    }
}

// the last iteration stores outside UB
__simd_vf__ inline void OobVF(__ubuf__ float* out, __ubuf__ float* x, uint32_t stride, uint16_t n)
{
    Reg::RegTensor<float> a;
    Reg::MaskReg full = Reg::CreateMask<float>();
    for (uint16_t i = 0; i < n; ++i) {
        Reg::LoadAlign(a, x);
        Reg::StoreAlign(out + i * stride, a, full);
    }
}

// a by-reference pointer (post-update store) in the body: what was recorded is replayed, the loop goes on
__simd_vf__ inline void FlushVF(__ubuf__ float* out, __ubuf__ float* x, uint16_t n)
{
    Reg::RegTensor<float> a;
    Reg::RegTensor<float> b;
    Reg::UnalignReg u;
    Reg::MaskReg full = Reg::CreateMask<float>();
    __ubuf__ float* p = out;
    for (uint16_t i = 0; i < n; ++i) {
        Reg::LoadAlign(a, x + i * 64);
        Reg::Muls(b, a, 3.0f, full);
        Reg::StoreUnAlign<float, Reg::PostLiteral::POST_MODE_UPDATE>(p, b, u, 10);
    }
    Reg::StoreUnAlignPost(p, u, 0);
}

// a mask variable rebound every iteration (it releases the one declared before the loop): the register
// file's count after the loop is the serial one (9 masks then: REGISTER_SPILL both ways)
__simd_vf__ inline void MasksVF(__ubuf__ float* out, __ubuf__ float* x, uint32_t count, uint16_t n)
{
    Reg::RegTensor<float> a;
    Reg::MaskReg m1, m2, m3, m4, m5, m6, m7;
    Reg::MaskReg mask;
    for (uint16_t i = 0; i < n; ++i) {
        mask = Reg::UpdateMask<float>(count);
        Reg::MaskReg extra;
        Reg::LoadAlign(a, x + i * 64);
        Reg::StoreAlign(out + i * 64, a, mask);
    }
    Reg::MaskReg after1, after2;
    Reg::StoreAlign(out + 512, a, mask);
}

// scalar UB access in the body, ordered by barriers: a vector store read back by a scalar load, which a
// scalar store passes to the next iteration's vector load (the barriers with a scalar side end recording)
__simd_vf__ inline void ScalarVF(__ubuf__ float* out, __ubuf__ float* x, uint16_t n)
{
    Reg::RegTensor<float> a;
    Reg::MaskReg full = Reg::CreateMask<float>();
    for (uint16_t i = 0; i < n; ++i) {
        Reg::LoadAlign(a, x + i * 64);
        Reg::Adds(a, a, 1.0f, full);
        Reg::StoreAlign(out + i * 64, a, full);
        Reg::LocalMemBar<Reg::MemType::VEC_STORE, Reg::MemType::SCALAR_LOAD>();
        float v = out[i * 64 + 3];
        Reg::LocalMemBar<Reg::MemType::VEC_LOAD, Reg::MemType::SCALAR_STORE>();
        x[(i + 1) * 64] = v * 2.0f;
        Reg::LocalMemBar<Reg::MemType::SCALAR_STORE, Reg::MemType::VEC_LOAD>();
    }
}

extern "C" __global__ __aicore__ void loops_kernel(GM_ADDR x, GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> inb;
    TBuf<TPosition::VECCALC> outb;
    pipe.InitBuffer(inb, 8192);
    pipe.InitBuffer(outb, 8192);
    GlobalTensor<float> xg, og;
    xg.SetGlobalBuffer((__gm__ float*)x, 2048);
    og.SetGlobalBuffer((__gm__ float*)out, 2048);
    LocalTensor<float> in = inb.Get<float>();
    LocalTensor<float> o = outb.Get<float>();
    DataCopy(in, xg, 2048);
    Duplicate(o, 0.0f, 2048);
    PipeBarrier<PIPE_ALL>();
    __ubuf__ float* xa = (__ubuf__ float*)in.GetPhyAddr();
    __ubuf__ float* oa = (__ubuf__ float*)o.GetPhyAddr();
    ScaleVF(oa, xa, 200, 4);
    SumVF(oa + 256, xa, 8);
    RowsVF(oa + 512, xa + 512, 160, 6, 3);
    FlushVF(oa + 1536, xa, 5);
    MasksVF(oa + 1024, xa, 230, 4);
    ScalarVF(oa + 1600, xa + 1600, 3);
    PipeBarrier<PIPE_ALL>();
    DataCopy(og, o, 2048);
}

extern "C" __global__ __aicore__ void oob_kernel(GM_ADDR x, GM_ADDR out, uint32_t stride)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> inb;
    pipe.InitBuffer(inb, 8192);
    GlobalTensor<float> xg, og;
    xg.SetGlobalBuffer((__gm__ float*)x, 2048);
    og.SetGlobalBuffer((__gm__ float*)out, 2048);
    LocalTensor<float> in = inb.Get<float>();
    DataCopy(in, xg, 2048);
    PipeBarrier<PIPE_ALL>();
    __ubuf__ float* xa = (__ubuf__ float*)in.GetPhyAddr();
    OobVF(xa + 1024, xa, stride, 5);
    PipeBarrier<PIPE_ALL>();
    DataCopy(og, in, 2048);
}

// the core's last call is the loop's end: the abort of its replay is taken when the core ends
extern "C" __global__ __aicore__ void oob_last_kernel(GM_ADDR x, uint32_t stride)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> inb;
    pipe.InitBuffer(inb, 8192);
    LocalTensor<float> in = inb.Get<float>();
    __ubuf__ float* xa = (__ubuf__ float*)in.GetPhyAddr();
    Duplicate(in, 1.0f, 2048);
    PipeBarrier<PIPE_ALL>();
    OobVF(xa + 1024, xa, stride, 5);
}

int main()
{
    std::vector<float> x(2048);
    for (uint32_t i = 0; i < 2048; ++i) x[i] = (float)((int)(i * 37 % 101) - 50) / 8.0f;
    uint8_t* d[2];
    for (int k = 0; k < 2; ++k) aclrtMalloc((void**)&d[k], 8192, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(d[0], 8192, x.data(), 8192, ACL_MEMCPY_HOST_TO_DEVICE);
    loops_kernel<<<2, nullptr, nullptr>>>(d[0], d[1]);
    oob_kernel<<<2, nullptr, nullptr>>>(d[0], d[1], 16384);
    oob_last_kernel<<<1, nullptr, nullptr>>>(d[0], 16384);
    printf("done\n");
    return 0;
}
"""

_TIMINGS = ("seconds", "timings", "elapsed", "wall")


def _strip(v):
    """A run's JSON without timings and the loop statistics (what must not differ)."""
    if isinstance(v, dict):
        return {k: _strip(x) for k, x in v.items() if k != "loop_batching" and not any(t in k for t in _TIMINGS)}
    if isinstance(v, list):
        return [_strip(x) for x in v]
    return v


def _run(path: Path, batched: bool, monkeypatch, args=(), keep_events=False):
    with monkeypatch.context() as m:
        m.setenv("MIGRATE_CHECK_LOOP_BATCH", "1" if batched else "0")
        run = build_and_run(path, list(args), timeout=600, keep_events=keep_events)
    return run


def both(path: Path, monkeypatch, args=(), keep_events=False):
    on, off = (_run(path, b, monkeypatch, args, keep_events) for b in (True, False))
    assert on.failure is None and off.failure is None, (on.failure, on.stderr, off.failure)
    assert _strip(run_json(on)) == _strip(run_json(off))
    assert [lr["outputs"] for lr in on.launches] == [lr["outputs"] for lr in off.launches]
    assert not any("loop_batching" in lr for lr in off.launches)
    return on, off


def _stats(run) -> dict:
    out: dict = {}
    for lr in run.launches:
        for k, v in lr.get("loop_batching", {}).items():
            out[k] = out.get(k, 0) + v
    return out


def _expected_scalar_rows() -> list:
    """ScalarVF's output rows by hand: row i = x row i + 1, and x[(i + 1) * 64] = 2 * row i [3]."""
    x = np.array([((i * 37 % 101) - 50) / 8.0 for i in range(2048)], dtype=np.float32)[1600:1856].copy()
    out = np.zeros(192, dtype=np.float32)
    for i in range(3):
        out[i * 64:(i + 1) * 64] = x[i * 64:(i + 1) * 64] + np.float32(1)
        x[(i + 1) * 64] = out[i * 64 + 3] * np.float32(2)
    return out.tolist()


def _scalar_rows(run) -> list:
    return np.frombuffer(run.launches[0]["outputs"][0]["data"], np.float32)[1600:1792].tolist()


@pytest.fixture(scope="module")
def own(tmp_path_factory):
    return write(tmp_path_factory.mktemp("loops"), "loops.asc", PROGRAM)


@needs_compiler
def test_own_kernels_batched_equal_unbatched(own, monkeypatch):
    on, off = both(own, monkeypatch, keep_events=True)
    for la, lb in zip(on.launches, off.launches):        # the event streams too (instructions, VF meta)
        assert [[event_key(e) for e in core] for core in la["events"]] == \
            [[event_key(e) for e in core] for core in lb["events"]]
    assert any(d["code"] == "REGISTER_SPILL" for d in on.launches[0]["diagnostics"])
    assert on.exit_status == 0 and "done" in on.stdout
    assert _scalar_rows(on) == _expected_scalar_rows()   # each core's C++ ran, before the next load
    first = on.launches[0]["loop_batching"]
    # ScaleVF, RowsVF's outer loop and SumVF's loop (its accumulator as a chain: regbase/loopscan.py)
    assert first.get("batched", 0) >= 3 and not any("loop-carried" in k for k in first), first
    oob = on.launches[1]
    assert any(d["code"] == "UB_OUT_OF_BOUNDS" for d in oob["diagnostics"]), oob["diagnostics"]
    assert any(k.startswith("serial: ") for k in oob["loop_batching"])
    last = on.launches[2]
    assert not last["passed"] and any(d["code"] == "UB_OUT_OF_BOUNDS" for d in last["diagnostics"])


@needs_compiler
@pytest.mark.parametrize("backend", ["regbase", "membase"])
def test_kv_batched_equal_unbatched(backend, monkeypatch):
    on, _ = both(ROOT / "operators" / "kv_rms_norm_rope_cache" / "asc" / backend / "full_load.asc", monkeypatch)
    if backend == "regbase":
        assert _stats(on).get("batched", 0) > 0, _stats(on)


@needs_compiler
@pytest.mark.parametrize("name", ["0_membase", "3_multi_row", "7_merged_vf_direct"])
def test_softmax_batched_equal_unbatched(name, monkeypatch):
    both(ROOT / "operators" / "softmax" / "asc" / "src" / f"{name}.asc", monkeypatch)


STORY = sorted((ROOT / "operators" / "simd_vf_story").glob("*/*.asc"))


@needs_compiler
def test_story_batched_equal_unbatched(monkeypatch):
    batched = 0
    for path in STORY:
        on, _ = both(path, monkeypatch)
        batched += _stats(on).get("batched", 0)
    assert batched > 0
