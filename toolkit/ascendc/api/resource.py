"""``AscendC::`` resource management: the methods of TPipe, TQue, TQueBind, TBuf, TBufPool (also the custom
pools of EXTERN_IMPL_BUFPOOL) and LocalMemAllocator, GetTPipePtr, PopStackBuffer and the workspace
pointers. The classes themselves are hand-written handles (``include/asc/pipe.h``); their API methods are
generated into ``gen/<Class>.inc``, included in the class body. The Python side: toolkit/ascendc/pipe.py
(TPipe, TQue, TBuf) and toolkit/ascendc/bufpool.py (pools, LocalMemAllocator, PopStackBuffer, SPM)."""
from __future__ import annotations

from toolkit.ascendc import bufpool, pipe
from toolkit.ascendc.bufpool import LocalMemAllocator, TBufPool
from toolkit.ascendc.pipe import TBuf, TPipe, TQue

from .spec import (
    IGNORED,
    LOCAL,
    Arg,
    Family,
    api,
    earg,
    form,
    glob,
    handle,
    local,
    scalar,
    struct,
    tded,
    tenum,
    ttype,
    tvalue,
)

_ROOT = "基础API/资源管理"
FAMILY = Family("resource", "AscendC", "resource.h", bufpool, doc_root=_ROOT)
PIPE = Family("resource.tpipe", "AscendC::TPipe", "TPipe.inc", TPipe, member=True, doc_root=f"{_ROOT}/TPipe")
QUE = Family("resource.tque", "AscendC::TQue", "TQue.inc", TQue, member=True, doc_root=f"{_ROOT}/TQue")
BIND = Family("resource.tquebind", "AscendC::TQueBind", "TQueBind.inc", TQue, member=True,
              doc_root=f"{_ROOT}/TQueBind")
BUF = Family("resource.tbuf", "AscendC::TBuf", "TBuf.inc", TBuf, member=True, doc_root=f"{_ROOT}/TBuf")
POOL = Family("resource.tbufpool", "AscendC::TBufPool", "TBufPool.inc", TBufPool, member=True,
              doc_root=f"{_ROOT}/TBufPool")
ALLOC = Family("resource.allocator", "AscendC::LocalMemAllocator", "LocalMemAllocator.inc", LocalMemAllocator,
               member=True, doc_root=f"{_ROOT}/LocalMemAllocator")

_EVT = tenum("evt", "HardEvent")
_TT = ttype("T", None)
_POS = (tenum("srcUserPos", "TPosition"), tenum("dstUserPos", "TPosition"))
_LREF = Arg(LOCAL, "tensor", "LocalTensor<T>&")
_CUSTOM = "自定义TBufPool"
_WS = "workspace"


def _queue_methods(fam: Family, page: str = "") -> list:
    """The methods TQue and TQueBind share (the same Python TQue behind both); ``page``: the page suffix
    of TQueBind's copies of the TQue pages."""
    d = {"AllocTensor": "AllocTensor", "FreeTensor": "FreeTensor", "EnQue": "EnQue", "DeQue": "DeQue",
         "VacantInQue": "VacantInQue", "HasTensorInQue": "HasTensorInQue", "GetTensorCountInQue":
         "GetTensorCountInQue", "HasIdleBuffer": "HasIdleBuffer"}
    suffix = {"AllocTensor": "-64", "FreeTensor": "-65", "EnQue": "-66", "DeQue": "-67", "VacantInQue": "-68",
              "HasTensorInQue": "-69", "GetTensorCountInQue": "-70", "HasIdleBuffer": "-71"} if page else {}

    def doc(short: str) -> str:
        return f"{d[short]}{suffix.get(short, '')}.md"

    return [
        api(fam, "AllocTensor", TQue.AllocTensor,
            form(_TT, ret="LocalTensor<T>"), form(_TT, _LREF, into="tensor"), doc=doc("AllocTensor")),
        api(fam, "EnQue", TQue.EnQue, form(tded("T"), local("tensor"), ret="bool"),
            form(*_POS, tded("T"), local("tensor"), ret="bool"), doc=doc("EnQue")),
        api(fam, "DeQue", TQue.DeQue, form(_TT, ret="LocalTensor<T>"), form(_TT, _LREF, into="tensor"),
            form(*_POS, _TT, ret="LocalTensor<T>"), doc=doc("DeQue")),
        api(fam, "FreeTensor", TQue.FreeTensor, form(tded("T"), Arg(LOCAL, "tensor", "LocalTensor<T>&")),
            doc=doc("FreeTensor")),
        api(fam, "HasTensorInQue", TQue.HasTensorInQue, form(ret="bool"), doc=doc("HasTensorInQue")),
        api(fam, "GetTensorCountInQue", TQue.GetTensorCountInQue, form(ret="int32_t"),
            doc=doc("GetTensorCountInQue")),
        api(fam, "HasIdleBuffer", TQue.HasIdleBuffer, form(ret="bool"), doc=doc("HasIdleBuffer")),
        api(fam, "VacantInQue", TQue.VacantInQue, form(ret="bool"), doc=doc("VacantInQue")),
    ]


def _handle_methods(fam: Family, cls: type, doc_root: str) -> list:
    """InitStartBufHandle / InitBufHandle: how a custom TBufPool gives a TQue or TBuf its buffers."""
    return [
        api(fam, "InitStartBufHandle", cls.InitStartBufHandle,
            form(scalar("startBufhandle", "TBufHandle"), scalar("num", "uint8_t"), scalar("len", "uint32_t")),
            doc=f"{doc_root}/InitStartBufHandle.md"),
        api(fam, "InitBufHandle", cls.InitBufHandle,
            form(Arg(IGNORED, "bufPool", "const void*"), scalar("index", "uint32_t"),
                 scalar("bufhandle", "TBufHandle"), scalar("curPoolAddr", "uint32_t"), scalar("len", "uint32_t")),
            doc=f"{doc_root}/InitBufHandle.md"),
    ]


_INIT_QUE = form(tded("Q"), handle("que", "Q"), scalar("num", "uint8_t"), scalar("len", "uint32_t"), ret="bool")
_INIT_BUF = form(tded("B"), handle("buf", "B"), scalar("len", "uint32_t"), ret="bool")
_POOL_FORMS = (form(tded("P"), handle("bufPool", "P"), scalar("len", "uint32_t"), ret="bool"),
               form(tded("P", "S"), handle("bufPool", "P"), scalar("len", "uint32_t"), handle("shareBuf", "S"),
                    ret="bool"))
_BIND_ROOT = f"{_ROOT}/TQueBind"

APIS = [
    api(FAMILY, "GetTPipePtr", pipe.GetTPipePtr, form(ret="TPipe*", native="return __detail::current_pipe();"),
        doc="GetTPipePtr.md", note="the TPipe constructed last on this core (tracked on the C++ side)"),
    api(FAMILY, "PopStackBuffer", bufpool.PopStackBuffer,
        form(_TT, tenum("pos", "TPosition"), _LREF, ret="bool", into="tensor"), doc="PopStackBuffer.md"),
    api(FAMILY, "SetSysWorkspace", None, form(scalar("workspace", "GM_ADDR"),
                                              native="__detail::sys_workspace() = workspace;"),
        doc=f"{_WS}/SetSysWorkSpace.md"),
    api(FAMILY, "GetSysWorkSpacePtr", None, form(ret="GM_ADDR", native="return __detail::sys_workspace();"),
        doc=f"{_WS}/GetSysWorkSpacePtr.md"),
    api(FAMILY, "GetUserWorkspace", None, form(scalar("workspace", "GM_ADDR"), ret="GM_ADDR",
                                               native="return workspace;"),
        doc=f"{_WS}/GetUserWorkspace.md",
        note="the emulated APIs need no system workspace (assumed size 0): the user part starts at once"),
    # -- TPipe
    api(PIPE, "InitBuffer", TPipe.InitBuffer, _INIT_QUE, _INIT_BUF,
        doc="InitBuffer.md", note="the .asc route names the buffer after the source text (bridge adapter)"),
    api(PIPE, "InitBufPool", TPipe.InitBufPool, *_POOL_FORMS, doc="InitBufPool.md",
        note="the .asc route names the pool after the source text (bridge adapter)"),
    api(PIPE, "FetchEventID", TPipe.FetchEventID, form(_EVT, ret="TEventID"),
        form(earg("evt", "HardEvent"), ret="TEventID"), doc="FetchEventID.md"),
    api(PIPE, "AllocEventID", TPipe.AllocEventID, form(_EVT, ret="TEventID"), doc="AllocEventID.md"),
    api(PIPE, "ReleaseEventID", TPipe.ReleaseEventID, form(_EVT, scalar("id", "TEventID")), doc="ReleaseEventID.md"),
    api(PIPE, "Destroy", TPipe.Destroy, form(), doc="Destroy.md"),
    api(PIPE, "DestroyWithoutPipeAll", TPipe.DestroyWithoutPipeAll, form(), doc="DestroyWithoutPipeAll.md"),
    api(PIPE, "Reset", TPipe.Reset, form(), doc="Reset.md"),
    api(PIPE, "Init", None, form(native=""), doc="Init.md", note="the constructor does it"),
    api(PIPE, "GetBaseAddr", None, form(scalar("logicPos", "int8_t"), ret="uint8_t*",
                                        native="return logicPos == 0 ? nullptr : __asc::ub_ptr<uint8_t>(0);"),
        doc="GetBaseAddr.md", note="every local position is the UB: its byte 0 (GM: no base)"),
    api(PIPE, "InitSpmBuffer", TPipe.InitSpmBuffer,
        form(tded("T"), glob("workspace"), scalar("bufferSize", "const int32_t")),
        form(scalar("bufferSize", "const int32_t")), doc="InitSpmBuffer.md"),
    api(PIPE, "WriteSpmBuffer", TPipe.WriteSpmBuffer,
        form(tded("T"), local("writeBuffer"), struct("copyParams", "DataCopyParams"),
             scalar("writeOffset", "int32_t", default="0")),
        form(tded("T"), local("writeBuffer"), scalar("writeSize", "const int32_t"),
             scalar("writeOffset", "int32_t", default="0")), doc="WriteSpmBuffer.md"),
    api(PIPE, "ReadSpmBuffer", TPipe.ReadSpmBuffer,
        form(tded("T"), local("readBuffer"), struct("copyParams", "DataCopyParams"),
             scalar("readOffset", "int32_t", default="0")),
        form(tded("T"), local("readBuffer"), scalar("readSize", "const int32_t"),
             scalar("readOffset", "int32_t", default="0")), doc="ReadSpmBuffer.md"),
    # -- TQue, TQueBind
    *_queue_methods(QUE),
    *_handle_methods(QUE, TQue, _BIND_ROOT),
    *_queue_methods(BIND, page="bind"),
    api(BIND, "FreeAllEvent", TQue.FreeAllEvent, form(), doc="FreeAllEvent.md"),
    *_handle_methods(BIND, TQue, _BIND_ROOT),
    # -- TBuf
    api(BUF, "Get", TBuf.Get, form(_TT, ret="LocalTensor<T>"), form(_TT, scalar("len", "uint32_t"),
                                                                    ret="LocalTensor<T>"), doc="Get.md"),
    api(BUF, "GetWithOffset", TBuf.GetWithOffset,
        form(_TT, scalar("size", "uint32_t"), scalar("bufOffset", "uint32_t"), ret="LocalTensor<T>"),
        doc="GetWithOffset.md"),
    *_handle_methods(BUF, TBuf, _BIND_ROOT),
    # -- TBufPool (and the custom pools)
    api(POOL, "InitBuffer", TBufPool.InitBuffer, _INIT_QUE, _INIT_BUF, doc="InitBuffer-56.md"),
    api(POOL, "InitBufPool", TBufPool.InitBufPool, *_POOL_FORMS, doc="InitBufPool-55.md"),
    api(POOL, "Reset", TBufPool.Reset, form(), doc="Reset-57.md"),
    api(POOL, "Init", TBufPool.Init, form(), doc=f"{_ROOT}/{_CUSTOM}/Init-59.md"),
    api(POOL, "GetBufHandle", TBufPool.GetBufHandle, form(scalar("offset", "uint8_t"), ret="TBufHandle"),
        doc=f"{_ROOT}/{_CUSTOM}/GetBufHandle.md"),
    api(POOL, "GetCurAddr", TBufPool.GetCurAddr, form(ret="uint32_t"), doc=f"{_ROOT}/{_CUSTOM}/GetCurAddr.md"),
    api(POOL, "SetCurAddr", TBufPool.SetCurAddr, form(scalar("curAddr", "uint32_t")),
        doc=f"{_ROOT}/{_CUSTOM}/SetCurAddr.md"),
    api(POOL, "GetCurBufSize", TBufPool.GetCurBufSize, form(ret="uint8_t"),
        doc=f"{_ROOT}/{_CUSTOM}/GetCurBufSize.md"),
    api(POOL, "SetCurBufSize", TBufPool.SetCurBufSize, form(scalar("curBufSize", "uint8_t")),
        doc=f"{_ROOT}/{_CUSTOM}/SetCurBufSize.md"),
    # -- LocalMemAllocator<Hardware::UB>
    api(ALLOC, "Alloc", LocalMemAllocator.Alloc,
        form(ttype("DataType", None), tvalue("tileSize", "uint32_t"), ret="LocalTensor<DataType>"),
        form(tenum("pos", "TPosition"), ttype("DataType", None), tvalue("tileSize", "uint32_t"),
             ret="LocalTensor<DataType>"),
        form(ttype("DataType", None), scalar("tileSize", "uint32_t"), ret="LocalTensor<DataType>"),
        form(tenum("pos", "TPosition"), ttype("DataType", None), scalar("tileSize", "uint32_t"),
             ret="LocalTensor<DataType>"),
        doc="Alloc.md", note="the .asc route names the tensor after the variable it initialises (bridge adapter)"),
    api(ALLOC, "GetCurAddr", LocalMemAllocator.GetCurAddr, form(ret="uint32_t", const=True), doc="GetCurAddr-72.md"),
]
