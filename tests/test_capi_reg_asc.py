"""The C API register family through the .asc route: `migrate-check run` on two programs
(tests/fixtures/capi_reg.asc, capi_reg_more.asc) whose __simd_vf__ calls ~80 asc_* register functions on
vector_* registers and whose host main checks every output slot against values it computes itself (PASS /
FAILED). The tool's verdict must agree with the program's own check and report no diagnostic."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.asc_support import needs_compiler
from tests.report_support import cli_json

FIXTURES = Path(__file__).parent / "fixtures"
PROGRAMS = [FIXTURES / "capi_reg.asc", FIXTURES / "capi_reg_more.asc"]


@needs_compiler
@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.stem)
def test_the_capi_reg_programs_pass_their_own_check(monkeypatch, tmp_path, program):
    monkeypatch.setenv("MIGRATE_CHECK_CACHE", str(tmp_path / "cache"))
    code, report = cli_json("run", str(program))
    assert report["stdout"] == "PASS\n", report["stdout"]
    assert code == 0 and report["exit_status"] == 0 and report["passed"]
    launch, = report["launches"]
    assert launch["diagnostics"] == [] and launch["passed"]
    assert launch["counters"]                        # the VF ran on the emulator and recorded instructions


def test_the_programs_use_the_c_names_not_the_reg_api():
    names = set()
    for program in PROGRAMS:
        text = program.read_text()
        names |= set(re.findall(r"\b(asc_\w+)\(", text))
        assert "Reg::" not in text and '#include "c_api/asc_simd.h"' in text
    assert len(names) >= 75


FP8_CVT = r"""
#include "acl/acl.h"
#include "c_api/asc_simd.h"
__simd_vf__ inline void F8VF(__ubuf__ float* x)
{
    vector_float a;
    vector_fp8_e4m3fn_t b;
    asc_loadalign(a, x);
    asc_float2e4m3_rn(b, a, asc_create_mask_b32(PAT_ALL));
}
extern "C" __global__ __aicore__ void f8_kernel(GM_ADDR x)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> b;
    pipe.InitBuffer(b, 256);
    AscendC::LocalTensor<float> t = b.Get<float>();
    AscendC::Duplicate(t, 1.0f, 64);
    AscendC::PipeBarrier<PIPE_ALL>();
    F8VF((__ubuf__ float*)t.GetPhyAddr());
}
int main()
{
    void* d;
    aclrtMalloc(&d, 256, ACL_MEM_MALLOC_HUGE_FIRST);
    f8_kernel<<<1, nullptr, nullptr>>>((GM_ADDR)d);
    return 0;
}
"""


@needs_compiler
def test_a_byte_float_conversion_runs(monkeypatch, tmp_path):
    """An fp8 conversion compiles and runs (the 8- / 4-bit types are element types: toolkit.ascendc.lowfloat)."""
    monkeypatch.setenv("MIGRATE_CHECK_CACHE", str(tmp_path / "cache"))
    src = tmp_path / "f8.asc"
    src.write_text(FP8_CVT)
    code, report = cli_json("run", str(src))
    assert code == 0 and not report["launches"][0]["diagnostics"], report
