"""Debugging APIs: DumpTensor / DumpAccChkPoint in the page's formats (flat, and by ShapeInfo with the
"-" filler and the size notes), LocalTensor::Print's DataBlock lines, Trap and a failed assert (the
core stops with KERNEL_TRAP / KERNEL_ASSERT, the assert prints the page's ``[ASSERT] file:line: Assertion
`expr' message`` line), device printf from kernels and from host code, and the CPU-twin helpers
(GmAlloc, ICPU_RUN_KF)."""
from __future__ import annotations

import numpy as np
import pytest

from tests.asc_support import build_and_run, needs_compiler, write
from toolkit.ascendc import debug
from toolkit.ascendc.shape import GetShapeSize, ShapeInfo
from toolkit.ascendc.tensor import GlobalTensor, LocalTensor
from toolkit.engine.launch import gm_alloc

from api_support import abort_code, line_of, put
from toolkit.record.diagnostics import KernelAbort

F16, F32, I32 = np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.int32)


def test_dump_tensor_flat_and_by_shape(ctx, capsys):
    put(ctx, 0, np.arange(64, dtype=F16) / 4)
    t = LocalTensor(0, F16, 64)
    debug.DumpTensor(t, 5, 4)
    debug.DumpTensor(t, 2, 6, ShapeInfo.of([2, 3]))
    debug.DumpTensor(t, 3, 4, ShapeInfo.of([3, 2]))        # the shape is bigger: "-" fills it
    debug.DumpTensor(t, 4, 8, ShapeInfo.of([2, 2]))        # smaller: the rest is not shown
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "DumpTensor: desc=5, addr=0x0, data_type=float16, position=UB, dump_size=4"
    assert out[1] == "[0.000000, 0.250000, 0.500000, 0.750000]"
    assert out[3:5] == ["[[0.000000,0.250000,0.500000],", "[0.750000,1.000000,1.250000]]"]
    assert out[6] == "shape is [3, 2], dumpSize is 4, data is not enough."
    assert out[7:10] == ["[[0.000000,0.250000],", "[0.500000,0.750000],", "[-,-]]"]
    assert out[11] == "shape is [2, 2], dumpSize is 8, dumpSize is greater than shapeSize."
    assert GetShapeSize(ShapeInfo.of([3, 5, 2])) == 30


def test_dump_of_gm_and_acc_chk_point_offsets(ctx, capsys):
    g = GlobalTensor(I32)
    g.SetGlobalBuffer(gm_alloc("y", np.arange(16, dtype=I32)))
    debug.DumpTensor(g, 1, 3)
    put(ctx, 64, np.arange(16, dtype=F32))
    debug.DumpAccChkPoint(LocalTensor(64, F32, 16), 56, 8, 2)
    out = capsys.readouterr().out.splitlines()
    assert out[:2] == ["DumpTensor: desc=1, addr=0x0, data_type=int32, position=GM, dump_size=3", "[0, 1, 2]"]
    assert out[2] == "DumpAccChkPoint: desc=56, addr=0x60, data_type=float32, position=UB, dump_size=2"
    assert out[3] == "[8.000000, 9.000000]"
    assert abort_code(debug.DumpTensor, LocalTensor(ctx.ub.size - 8, F32, 4), 0, 4) == "UB_OUT_OF_BOUNDS"


def test_print_writes_one_datablock_per_line(ctx, capsys):
    put(ctx, 0, np.arange(16, dtype=I32))
    LocalTensor(0, I32, 16).Print()
    LocalTensor(0, I32, 16).Print(3)
    assert capsys.readouterr().out.splitlines() == ["0000: 0 1 2 3 4 5 6 7", "0008: 8 9 10 11 12 13 14 15",
                                                    "0000: 0 1 2"]


def test_trap_stops_the_core(ctx):
    with pytest.raises(KernelAbort) as stop:
        debug.Trap()                                                                 # <- trap
    assert stop.value.diag.code == "KERNEL_TRAP" and stop.value.diag.fatal
    assert stop.value.diag.line == line_of(__file__, "# <- trap")


PROGRAM = r"""
#include <cstdio>
#include "acl/acl.h"
#include "kernel_operator.h"
using namespace AscendC;

__global__ __aicore__ void fail_kernel(GM_ADDR y)
{
    int64_t c = GetBlockIdx();
    GlobalTensor<int32_t> g;
    g.SetGlobalBuffer((__gm__ int32_t*)y + c * 8, 8);
    g.SetValue(0, (int32_t)c + 1);
    PrintTimeStamp(65577);                       // off without -DASCENDC_TIME_STAMP_ON
    MarkStamp<PIPE_V, 0>();
    MetricsProfStart();
    MetricsProfStop();
    int value = 10 + (int)c;
    if (c == 1) ascendc_assert(value != 11, "The value is %d.\n", value);
    if (c == 2) Trap();
    assert(value < 100);
    AscendC::printf("core %d value %d\n", (int)c, value);
    g.SetValue(1, 7);
}

int main()
{
    aclInit(nullptr);
    AscendC::printf("host side %d\n", 1);
    SetKernelMode(KernelMode::AIV_MODE);
    uint8_t* y = (uint8_t*)GmAlloc(4 * 8 * 4);
    ICPU_SET_TILING_KEY(1);
    ICPU_RUN_KF(fail_kernel, 4, y);
    GmFree(y);
    std::printf("done\n");
    return 0;
}
"""


ASSERT_LINE = next(k for k, text in enumerate(PROGRAM.splitlines(), 1) if "ascendc_assert" in text)


@pytest.fixture(scope="module")
def failing(tmp_path_factory):
    return build_and_run(write(tmp_path_factory.mktemp("dbg"), "dbg.asc", PROGRAM))


@needs_compiler
def test_assert_and_trap_stop_their_cores(failing):
    assert failing.failure is None and failing.exit_status == 0, failing.stderr
    (lr,) = failing.launches
    codes = {d["code"]: d for d in lr["diagnostics"]}
    assert set(codes) == {"KERNEL_ASSERT", "KERNEL_TRAP"} and not lr["passed"]
    assert codes["KERNEL_ASSERT"]["core"] == 1 and codes["KERNEL_TRAP"]["core"] == 2
    assert "Assertion `value != 11' The value is 11." in codes["KERNEL_ASSERT"]["message"]
    assert codes["KERNEL_ASSERT"]["location"].endswith(f"dbg.asc:{ASSERT_LINE}")


@needs_compiler
def test_device_text_in_core_order_after_the_launch(failing):
    out = failing.stdout.splitlines()
    assert out[0] == "host side 1" and out[1] == "core 0 value 10"
    assert out[2].startswith("[ASSERT] ") and out[2].endswith(f"dbg.asc:{ASSERT_LINE}: Assertion `value != 11' The value is 11.")
    assert out[3:] == ["core 3 value 13", "done"]
