"""``AscendC::`` synchronisation: inside a core (SetFlag / WaitFlag, TQueSync, PipeBarrier, Mutex,
MutexIDs, DataSyncBarrier: toolkit/ascendc/sync.py) and between the cores of a launch (SyncAll,
CrossCoreSetFlag / CrossCoreWaitFlag, IBSet / IBWait, the deterministic block order, the task-level
signals of SuperKernel: toolkit/ascendc/crosscore.py)."""
from __future__ import annotations

from toolkit.ascendc import crosscore, sync
from toolkit.ascendc.sync import TQueSync

from .spec import GLOBAL, LOCAL, Arg, Family, api, form, glob, local, scalar, tenum, thidden, tvalue

_ROOT = "基础API/同步控制"
SYNC = Family("sync", "AscendC", "sync.h", sync, doc_root=f"{_ROOT}/核内同步")
MUTEX = Family("sync.mutex", "AscendC::Mutex", "", None, member=True, doc_root=f"{_ROOT}/核内同步")
QSYNC = Family("sync.tquesync", "AscendC::TQueSync", "TQueSync.inc", TQueSync, member=True,
               doc_root=f"{_ROOT}/核内同步")
CROSS = Family("sync.cross", "AscendC", "crosscore.h", crosscore, doc_root=f"{_ROOT}/核间同步")

_FLAG = "SetFlag-WaitFlag(ISASI).md"
_QUE = "SetFlag-WaitFlag.md"
_EVT = tenum("event", "HardEvent")
_PIPE = tenum("pipe", "pipe_t")
_ID = scalar("id", "MutexID")
_WS = (glob("gmWorkspace", "int32_t"), local("ubWorkspace", "int32_t"))
_WS_MUT = (Arg(GLOBAL, "gmWorkspace", "GlobalTensor<int32_t>&"), Arg(LOCAL, "ubWorkspace", "LocalTensor<int32_t>&"))
_AIV = thidden("isAIVOnly", "bool", "true")
_STATIC = "sync.h: a static member of class Mutex that calls AscendC::Lock / Unlock (the emulated form)"
_TASK = "the emulator runs one kernel launch at a time: nothing runs ahead of or after it"

APIS = [
    api(SYNC, "SetFlag", sync.SetFlag, form(_EVT, scalar("eventID", "int32_t", default="0")), doc=_FLAG),
    api(SYNC, "WaitFlag", sync.WaitFlag, form(_EVT, scalar("eventID", "int32_t", default="0")), doc=_FLAG),
    api(SYNC, "PipeBarrier", sync.PipeBarrier, form(tenum("pipe", "pipe_t")), doc="PipeBarrier(ISASI).md"),
    api(SYNC, "DataSyncBarrier", sync.DataSyncBarrier, form(tenum("arg0", "MemDsbT")), doc="DataSyncBarrier(ISASI).md"),
    api(SYNC, "AllocMutexID", sync.AllocMutexID, form(ret="MutexID"), doc="AllocMutexID-(ISASI).md"),
    api(SYNC, "ReleaseMutexID", sync.ReleaseMutexID, form(_ID), doc="ReleaseMutexID-(ISASI).md"),
    api(SYNC, "Lock", sync.Lock, form(_PIPE, _ID), doc="Lock.md",
        note="the page's Mutex::Lock; the catalog names it AscendC::Lock"),
    api(SYNC, "Unlock", sync.Unlock, form(_PIPE, _ID), doc="Unlock.md",
        note="the page's Mutex::Unlock; the catalog names it AscendC::Unlock"),
    api(MUTEX, "Lock", None, form(_PIPE, _ID, hand=_STATIC), doc="Lock.md"),
    api(MUTEX, "Unlock", None, form(_PIPE, _ID, hand=_STATIC), doc="Unlock.md"),
    api(QSYNC, "SetFlag", TQueSync.SetFlag, form(scalar("id", "TEventID")), doc=_QUE),
    api(QSYNC, "WaitFlag", TQueSync.WaitFlag, form(scalar("id", "TEventID")), doc=_QUE),
    # -- between cores
    api(CROSS, "SyncAll", crosscore.SyncAll,
        form(_AIV, *_WS, scalar("usedCores", "int32_t", default="0")),
        form(_AIV, thidden("config", "const SyncAllConfig&", "DEFAULT_SYNC_ALL_CONFIG")),
        doc="SyncAll.md"),
    api(CROSS, "CrossCoreSetFlag", crosscore.CrossCoreSetFlag,
        form(tvalue("modeId", "uint8_t"), _PIPE, scalar("flagId", "uint16_t")), doc="CrossCoreSetFlag(ISASI).md"),
    api(CROSS, "CrossCoreWaitFlag", crosscore.CrossCoreWaitFlag,
        form(tvalue("modeId", "uint8_t", "0"), tenum("pipe", "pipe_t", "PIPE_S"), scalar("flagId", "uint16_t")),
        doc="CrossCoreWaitFlag(ISASI).md"),
    api(CROSS, "IBSet", crosscore.IBSet,
        form(_AIV, *_WS, scalar("blockIdx", "int32_t"), scalar("eventID", "int32_t")), doc="IBSet.md"),
    api(CROSS, "IBWait", crosscore.IBWait,
        form(_AIV, *_WS, scalar("blockIdx", "int32_t"), scalar("eventID", "int32_t")), doc="IBWait.md"),
    api(CROSS, "InitDetermineComputeWorkspace", crosscore.InitDetermineComputeWorkspace, form(*_WS_MUT),
        doc="InitDetermineComputeWorkspace.md"),
    api(CROSS, "WaitPreBlock", crosscore.WaitPreBlock, form(*_WS_MUT), doc="WaitPreBlock.md"),
    api(CROSS, "NotifyNextBlock", crosscore.NotifyNextBlock, form(*_WS_MUT), doc="NotifyNextBlock.md"),
    api(CROSS, "SetNextTaskStart", None,
        form(thidden("AIV_PIPE", "pipe_t", "PIPE_MTE3"), thidden("AIC_PIPE", "pipe_t", "PIPE_FIX"),
             thidden("FORCE", "bool", "false"), native=""),
        doc="基础API/同步控制/任务间同步/SetNextTaskStart.md", note=_TASK),
    api(CROSS, "WaitPreTaskEnd", None, form(thidden("FORCE", "bool", "false"), native=""),
        doc="基础API/同步控制/任务间同步/WaitPreTaskEnd.md", note=_TASK),
]
