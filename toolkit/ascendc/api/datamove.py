"""``AscendC::`` data movement (DataCopy / DataCopyPad between GM and UB, UB to UB), cross-pipe sync
(SetFlag / WaitFlag / PipeBarrier) and the system values a kernel reads (GetBlockIdx ...)."""
from __future__ import annotations

from toolkit.ascendc import dma, sync
from toolkit.engine import runtime

from .spec import Family, api, form, glob, local, scalar, struct, tded, tenum

FAMILY = Family("datamove", "AscendC", "datamove.h", dma, doc_root="基础API/Memory矢量计算/数据搬运")
SYNC = Family("sync", "AscendC", "sync.h", sync, doc_root="基础API/同步控制/核内同步")
SYSTEM = Family("system", "AscendC", "system.h", runtime, doc_root="基础API/工具接口")

_T = tded("T")
_CONT = "DataCopy（GM与UB连续数据搬运）.md"
_SLICE = "基础API/Memory矢量计算/数据搬运/DataCopy（GM与UB切片数据搬运）.md"
_UB2UB = "基础API/Memory矢量计算/数据搬运/DataCopy（UBToUB连续数据搬运）.md"
_PAD_IN = "DataCopyPad（GMToUB非对齐数据搬运）.md"
_PAD_OUT = "基础API/Memory矢量计算/数据搬运/DataCopyPad（UBToGM非对齐数据搬运）.md"
_FLAG = "SetFlag-WaitFlag.md"
_NOP = "the emulator models one core per block: nothing to set up"

APIS = [
    api(FAMILY, "DataCopy", dma.DataCopy,
        form(_T, local("dst"), glob("src"), scalar("count", "uint32_t")),
        form(_T, glob("dst"), local("src"), scalar("count", "uint32_t")),
        form(_T, local("dst"), glob("src"), struct("repeatParams", "DataCopyParams"), doc=_SLICE),
        form(_T, glob("dst"), local("src"), struct("repeatParams", "DataCopyParams"), doc=_SLICE),
        form(_T, local("dst"), local("src"), scalar("count", "uint32_t"), doc=_UB2UB),
        doc=_CONT, dtypes=("int8_t", "uint8_t", "int16_t", "uint16_t", "half", "bfloat16_t", "int32_t", "uint32_t",
                           "float")),
    api(FAMILY, "DataCopyPad", dma.DataCopyPad,
        form(_T, local("dst"), glob("src"), struct("dataCopyParams", "DataCopyExtParams"),
             struct("padParams", "DataCopyPadExtParams<T>")),
        form(_T, glob("dst"), local("src"), struct("dataCopyParams", "DataCopyExtParams"), doc=_PAD_OUT),
        doc=_PAD_IN, dtypes=("int8_t", "uint8_t", "int16_t", "uint16_t", "half", "bfloat16_t", "int32_t", "uint32_t",
                             "float")),
    api(SYNC, "SetFlag", sync.SetFlag,
        form(tenum("event", "HardEvent"), scalar("eventID", "int32_t", default="0")), doc=_FLAG),
    api(SYNC, "WaitFlag", sync.WaitFlag,
        form(tenum("event", "HardEvent"), scalar("eventID", "int32_t", default="0")), doc=_FLAG),
    api(SYNC, "PipeBarrier", sync.PipeBarrier, form(tenum("pipe", "pipe_t")), doc="PipeBarrier(ISASI).md"),
    api(SYSTEM, "GetBlockIdx", runtime.GetBlockIdx, form(ret="int64_t"), doc="系统资源与变量/GetBlockIdx.md"),
    api(SYSTEM, "GetBlockNum", runtime.GetBlockNum, form(ret="int64_t"), doc="系统资源与变量/GetBlockNum.md"),
    api(SYSTEM, "GetSubBlockIdx", None, form(ret="int64_t", native="return 0;"),
        doc="系统资源与变量/GetSubBlockIdx(ISASI).md", note="one vector core per block: sub-block 0"),
    api(SYSTEM, "GetTaskRation", None, form(ret="int64_t", native="return 1;"),
        doc="系统资源与变量/GetTaskRatio.md", note="the older spelling of GetTaskRatio: one AIV per AIC task here"),
    api(SYSTEM, "InitSocState", None, form(native=""), doc="系统初始化/InitSocState.md", note=_NOP),
    api(SYSTEM, "SetAtomicNone", None, form(native=""), note="DataCopy atomics are not emulated; off is the default"),
    api(SYSTEM, "SetMaskNorm", None, form(native=""), doc="基础API/Memory矢量计算/掩码操作/SetMaskNorm.md",
        note="the MemBase API takes its mask per call: the mode register is not modelled"),
    api(SYSTEM, "SetMaskCount", None, form(native=""), doc="基础API/Memory矢量计算/掩码操作/SetMaskCount.md",
        note="the MemBase API takes its mask per call: the mode register is not modelled"),
    api(SYSTEM, "ResetMask", None, form(native=""), doc="基础API/Memory矢量计算/掩码操作/ResetMask.md",
        note="the MemBase API takes its mask per call: the mask register is not modelled"),
]
