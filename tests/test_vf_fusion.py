"""Compiler VF fusion as a post-pass of a core's events, identical on both routes: adjacent VFs merge
(one launch, both parameter lists, a VST->VLD barrier between the bodies); anything else of the core in
between, a __no_simd_vf_fusion__ VF or a MemBase call keeps them apart; off by default."""
from __future__ import annotations

import numpy as np

from tests.asc_support import build_and_run, needs_compiler, write
from toolkit.ascendc import regbase as Reg
from toolkit.ascendc.dtypes import uint32_t
from toolkit.ascendc.pipe import TBuf, TPipe, TPosition
from toolkit.compiler import stream_passes
from toolkit.engine.launch import gm_alloc, launch
from toolkit.record.events import VfCall


@Reg.__simd_vf__
def Fill(dst, value):
    r = Reg.RegTensor[float]()
    full = Reg.CreateMask[float, Reg.MaskPattern.ALL]()
    Reg.Duplicate(r, value, full)
    Reg.StoreAlign(dst, r, full)


@Reg.__no_simd_vf_fusion__
@Reg.__simd_vf__
def FillAlone(dst, value):
    r = Reg.RegTensor[float]()
    full = Reg.CreateMask[float, Reg.MaskPattern.ALL]()
    Reg.Duplicate(r, value, full)
    Reg.StoreAlign(dst, r, full)


def kernel(out):
    pipe = TPipe()
    buf = TBuf(TPosition.VECCALC)
    pipe.InitBuffer(buf, 1024)
    t = buf.Get(float)
    Fill(t.GetPhyAddr(), 1.0)
    Reg.asc_vf_call[Fill](t[64].GetPhyAddr(), 2.0)
    FillAlone(t[128].GetPhyAddr(), 3.0)
    t.GetValue(0)
    Fill(t[192].GetPhyAddr(), 4.0)


def _vfs(events):
    return [e for e in events if isinstance(e, VfCall)]


def test_adjacent_vfs_merge_and_the_rest_keeps_them_apart():
    plain = launch(kernel, 1, [gm_alloc("out", 64)])
    fused = launch(kernel, 1, [gm_alloc("out", 64)], passes=stream_passes(vf_fusion=True))
    assert [v.name for v in _vfs(plain.cores[0].events)] == ["Fill", "Fill", "FillAlone", "Fill"]
    vfs = _vfs(fused.cores[0].events)
    assert [v.name for v in vfs] == ["Fill+Fill", "FillAlone", "Fill"]
    merged = vfs[0]
    a = _vfs(plain.cores[0].events)[0]
    assert merged.nparams == 4 and len(merged.instrs) == 2 * len(a.instrs) + 1
    assert merged.instrs[len(a.instrs)].opcode == "RV_MEMBAR"
    ids = {i.dst for i in merged.instrs if i.dst >= 0}
    assert len(ids) == 2 * len({i.dst for i in a.instrs if i.dst >= 0})     # the second body renamed


PROGRAM = r"""
#include "acl/acl.h"
#include "kernel_operator.h"
__simd_vf__ inline void Fill(__ubuf__ float* dst, float v)
{
    AscendC::Reg::RegTensor<float> r;
    AscendC::Reg::MaskReg full = AscendC::Reg::CreateMask<float, AscendC::Reg::MaskPattern::ALL>();
    AscendC::Reg::Duplicate(r, v, full);
    AscendC::Reg::StoreAlign(dst, r, full);
}
__no_simd_vf_fusion__ __simd_vf__ inline void FillAlone(__ubuf__ float* dst, float v)
{
    AscendC::Reg::RegTensor<float> r;
    AscendC::Reg::MaskReg full = AscendC::Reg::CreateMask<float, AscendC::Reg::MaskPattern::ALL>();
    AscendC::Reg::Duplicate(r, v, full);
    AscendC::Reg::StoreAlign(dst, r, full);
}
extern "C" __global__ __aicore__ void kernel(GM_ADDR out)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024);
    AscendC::LocalTensor<float> t = buf.Get<float>();
    Fill((__ubuf__ float*)t.GetPhyAddr(), 1.0f);
    asc_vf_call<Fill>((__ubuf__ float*)t[64].GetPhyAddr(), 2.0f);
    FillAlone((__ubuf__ float*)t[128].GetPhyAddr(), 3.0f);
    t.GetValue(0);
    Fill((__ubuf__ float*)t[192].GetPhyAddr(), 4.0f);
}
int main()
{
    uint8_t* d;
    aclrtMalloc((void**)&d, 64, ACL_MEM_MALLOC_HUGE_FIRST);
    kernel<<<1, nullptr, nullptr>>>(d);
    return 0;
}
"""


@needs_compiler
def test_asc_route_fuses_the_same_way(tmp_path):
    from toolkit.asc.build import build
    from toolkit.asc.runner import run_program
    src = write(tmp_path, "fuse.asc", PROGRAM)
    built = build(src)
    plain = run_program(built, [], timeout=60)
    fused = run_program(built, [], timeout=60, vf_fusion=True)
    assert plain.launches[0]["counters"]["vf_count"] == 4
    assert fused.launches[0]["counters"]["vf_count"] == 3
    py = launch(kernel, 1, [gm_alloc("out", 64)], passes=stream_passes(vf_fusion=True))
    from toolkit.views.launch_summary import launch_counters
    assert fused.launches[0]["counters"] == launch_counters(py, py.machine)
