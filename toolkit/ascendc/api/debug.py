"""``AscendC::`` debugging (调试接口): DumpTensor, DumpAccChkPoint and Trap run in the emulator
(toolkit/ascendc/debug.py); printf / PRINTF, assert / ascendc_assert, the time stamps and profiling
markers and the CPU-twin helpers are written by hand in ``include/asc/debug.h`` (variadic, macros, or
host-side code)."""
from __future__ import annotations

from toolkit.ascendc import debug

from .spec import Family, api, form, glob, local, scalar, struct, tded, tenum, tvalue

FAMILY = Family("debug", "AscendC", "debug.h", debug, doc_root="基础API/调试接口")
MACROS = Family("debug.macro", "", "", None, doc_root="基础API/调试接口")

_T = tded("T")
_DUMP = "上板打印"
_PRINT = "debug.h: variadic, formatted with the C format rules; the text is printed per core at launch end"
_MARK = "debug.h: a profiling marker; the emulator's trace has the cycle figures, it marks nothing"
_TWIN = "debug.h: CPU-twin debugging; GM comes from the emulated device memory"
_ASSERT = "debug.h: a macro; on failure prints '[ASSERT] file:line: Assertion `expr' message' and the core stops"
_SIZE = (scalar("desc", "uint32_t"), scalar("dumpSize", "uint32_t"))
_SHAPE = struct("shapeInfo", "ShapeInfo")

APIS = [
    api(FAMILY, "PRINTF", None, form(tded("A"), scalar("fmt", "const char*"), hand=_PRINT),
        doc="基础API/调试接口/上板打印/上板打印.md"),
    api(FAMILY, "printf", None, form(tded("A"), scalar("fmt", "const char*"), hand=_PRINT),
        doc="基础API/调试接口/上板打印/上板打印.md"),
    api(FAMILY, "DumpTensor", debug.DumpTensor,
        form(_T, local("tensor"), *_SIZE), form(_T, glob("tensor"), *_SIZE),
        form(_T, local("tensor"), *_SIZE, _SHAPE), form(_T, glob("tensor"), *_SIZE, _SHAPE),
        doc=f"{_DUMP}/DumpTensor.md"),
    api(FAMILY, "DumpAccChkPoint", debug.DumpAccChkPoint,
        form(_T, local("tensor"), scalar("index", "uint32_t"), scalar("countOff", "uint32_t"),
             scalar("dumpSize", "uint32_t")),
        form(_T, glob("tensor"), scalar("index", "uint32_t"), scalar("countOff", "uint32_t"),
             scalar("dumpSize", "uint32_t")), doc=f"{_DUMP}/DumpAccChkPoint.md"),
    api(FAMILY, "PrintTimeStamp", None, form(scalar("descId", "uint32_t"), hand="debug.h: prints only with "
                                             "-DASCENDC_TIME_STAMP_ON, as the page says"),
        doc=f"{_DUMP}/PrintTimeStamp.md"),
    api(FAMILY, "Trap", debug.Trap, form(), doc="异常检测/Trap.md"),
    api(FAMILY, "MarkStamp", None, form(tenum("pipe", "pipe_t"), tvalue("index", "uint16_t"), hand=_MARK),
        form(tenum("pipe", "pipe_t"), scalar("index", "uint16_t"), hand=_MARK), doc="性能统计/MarkStamp.md"),
    api(FAMILY, "MetricsProfStart", None, form(hand=_MARK), doc="性能统计/MetricsProfStart.md"),
    api(FAMILY, "MetricsProfStop", None, form(hand=_MARK), doc="性能统计/MetricsProfStop.md"),
    api(FAMILY, "GmAlloc", None, form(scalar("size", "size_t"), ret="void*", hand=_TWIN), doc="CPU孪生调试/GmAlloc.md"),
    api(FAMILY, "GmFree", None, form(scalar("ptr", "void*"), hand=_TWIN), doc="CPU孪生调试/GmFree.md"),
    api(FAMILY, "SetKernelMode", None, form(scalar("mode", "KernelMode"), hand=_TWIN),
        doc="CPU孪生调试/SetKernelMode.md"),
    api(MACROS, "ICPU_RUN_KF", None, form(hand="debug.h: a macro that launches func as func<<<numBlocks>>>(...)"),
        doc="CPU孪生调试/ICPU_RUN_KF.md"),
    api(MACROS, "ICPU_SET_TILING_KEY", None, form(hand="debug.h: a macro (the key is kept, nothing reads it)"),
        doc="CPU孪生调试/ICPU_SET_TILING_KEY.md"),
    api(MACROS, "assert", None, form(hand=_ASSERT), doc="异常检测/assert.md"),
    api(MACROS, "ascendc_assert", None, form(hand=_ASSERT), doc="异常检测/ascendc_assert.md"),
]
