""".asc programs run their cores in lock-step (a VF body runs once for the cores that reach it with the same
parameters, MemBase calls once per group) and equal the core-by-core run (`--serial`): the same output
bytes, per-core event streams, diagnostics (with the cores they hit), aborts, stdout and cycles; on the KV
sample (a tail core) and on a kernel built to diverge: per-core lengths, an out-of-bounds VF on some cores
(a group whose leader aborts inside the body), an unkeyable VF parameter, a data-dependent branch."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.asc_support import build, event_key, needs_compiler, output_bytes, write
from toolkit.asc.runner import run_program
from toolkit.engine.launch import launch_mode

ASC = Path(__file__).resolve().parents[1] / "operators" / "kv_rms_norm_rope_cache" / "asc"

DIVERGE = r"""
#include <cstdio>
#include <vector>
#include "acl/acl.h"
#include "kernel_operator.h"

struct Padded { char tag; int scale; };        // padding bytes: no exact identity, the VF is unkeyable

__simd_vf__ inline void ScaleVF(__ubuf__ float* z, __ubuf__ float* x, uint32_t n, float s)
{
    AscendC::Reg::RegTensor<float> v;
    uint16_t loops = (uint16_t)((n + 63) / 64);
    for (uint16_t i = 0; i < loops; ++i) {
        AscendC::Reg::MaskReg m = AscendC::Reg::UpdateMask<float>(n);
        AscendC::Reg::LoadAlign(v, x + i * 64);
        AscendC::Reg::Muls(v, v, s, m);
        AscendC::Reg::StoreAlign(z + i * 64, v, m);
    }
}

__simd_vf__ inline void OffsetVF(__ubuf__ float* z, Padded p)
{
    AscendC::Reg::RegTensor<float> v;
    AscendC::Reg::MaskReg m = AscendC::Reg::CreateMask<float>();
    AscendC::Reg::LoadAlign(v, z);
    AscendC::Reg::Adds(v, v, (float)p.scale, m);
    AscendC::Reg::StoreAlign(z, v, m);
}

extern "C" __global__ __aicore__ void diverge(GM_ADDR x, GM_ADDR z, uint32_t n)
{
    uint32_t core = AscendC::GetBlockIdx();
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 2 * n * sizeof(float));
    AscendC::LocalTensor<float> t = buf.Get<float>();
    AscendC::GlobalTensor<float> xg, zg;
    xg.SetGlobalBuffer((__gm__ float*)x + core * n, n);
    zg.SetGlobalBuffer((__gm__ float*)z + core * n, n);
    AscendC::DataCopy(t, xg, n);
    AscendC::PipeBarrier<PIPE_ALL>();
    uint32_t len = core == 6 ? n / 2 : n;                      // core 6 diverges
    float s = xg.GetValue(0) > 500.0f ? 3.0f : 2.0f;           // data-dependent: cores 2.. differ from 0, 1
    AscendC::Adds(t, t, 1.0f, len);                            // MemBase: grouped by length
    AscendC::PipeBarrier<PIPE_V>();
    __ubuf__ float* dst = (__ubuf__ float*)t[n].GetPhyAddr();
    if (core == 3 || core == 4) dst += 70000;                  // two cores out of UB: the group's leader aborts
    ScaleVF(dst, (__ubuf__ float*)t.GetPhyAddr(), len, s);
    Padded p{'p', (int)core};
    OffsetVF((__ubuf__ float*)t[n].GetPhyAddr(), p);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(zg, t[n], n);
}

int main()
{
    const uint32_t cores = 8, n = 128;
    std::vector<float> x(cores * n), z(cores * n, -1.0f);
    for (uint32_t i = 0; i < cores * n; ++i) x[i] = (float)i;
    uint8_t *dx, *dz;
    aclrtMalloc((void**)&dx, x.size() * 4, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&dz, z.size() * 4, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(dx, x.size() * 4, x.data(), x.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(dz, z.size() * 4, z.data(), z.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE);
    diverge<<<cores, nullptr, nullptr>>>(dx, dz, n);
    aclrtMemcpy(z.data(), z.size() * 4, dz, z.size() * 4, ACL_MEMCPY_DEVICE_TO_HOST);
    for (uint32_t c = 0; c < cores; ++c) printf("core %u: %g %g\n", c, z[c * n + 1], z[c * n + n - 1]);
    return 0;
}
"""


def _both(path: Path):
    built = build(path)
    out = {}
    for mode in ("serial", "lockstep"):
        with launch_mode(mode):
            out[mode] = run_program(built, [], timeout=300, keep_events=True)
    return out["serial"], out["lockstep"]


def _assert_same(a, b) -> None:
    assert a.failure is None and b.failure is None
    assert a.stdout == b.stdout and a.exit_status == b.exit_status
    assert len(a.launches) == len(b.launches)
    for la, lb in zip(a.launches, b.launches):
        assert output_bytes(a) == output_bytes(b)
        for k, (ea, eb) in enumerate(zip(la["events"], lb["events"])):
            assert [event_key(e) for e in ea] == [event_key(e) for e in eb], f"core {k}"
        strip = ("events", "execution", "outputs", "loop_batching")   # (how it ran: loops batched per instance)
        ja, jb = ({k: v for k, v in lr.items() if k not in strip} for lr in (la, lb))
        assert json.dumps(ja, sort_keys=True, default=str) == json.dumps(jb, sort_keys=True, default=str)
        assert la["execution"]["mode"] == "serial" and lb["execution"]["mode"] == "lockstep"


@needs_compiler
@pytest.mark.parametrize("backend", ["membase", "regbase"])
def test_kv_sample_in_lockstep_equals_serial(backend):
    a, b = _both(ASC / backend / "full_load.asc")
    _assert_same(a, b)
    assert b.stdout.splitlines()[-1] == "PASS"
    ex = b.launches[0]["execution"]
    assert ex["groups_run"] * 10 < ex["calls_parked"]          # 54 cores share nearly every call


@needs_compiler
def test_diverging_kernel_in_lockstep_equals_serial(tmp_path):
    a, b = _both(write(tmp_path, "diverge.asc", DIVERGE))
    _assert_same(a, b)
    (lr,) = b.launches
    oob = [d for d in lr["diagnostics"] if d["code"] == "UB_OUT_OF_BOUNDS"]
    assert oob and sorted(oob[0]["cores"]) == [3, 4]                # both cores of the aborted group
    lines = b.stdout.splitlines()
    # z = (x + 1) * s (+ core on the first 64), s = 2 where x[0] <= 500; core 6 scaled half its row;
    # cores 3, 4 stopped before writing z
    assert lines[0] == "core 0: 4 256" and lines[1] == "core 1: 261 512"
    assert lines[3] == "core 3: -1 -1" and lines[4] == "core 4: -1 -1"
    assert lines[5] == f"core 5: {(641 + 1) * 3 + 5} {(767 + 1) * 3}"
    assert lines[6].startswith(f"core 6: {(769 + 1) * 3 + 6} ")
    ex = lr["execution"]
    assert ex["groups_run"] < ex["calls_parked"]
