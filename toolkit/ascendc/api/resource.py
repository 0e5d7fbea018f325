"""``AscendC::`` resource management: the methods of TPipe, TQue (and TQueBind, which inherits them) and
TBuf, and GetTPipePtr. The classes themselves are hand-written handles (``include/asc/pipe.h``); their
API methods are generated into ``gen/<Class>.inc``, included in the class body."""
from __future__ import annotations

from toolkit.ascendc import pipe
from toolkit.ascendc.pipe import TBuf, TPipe, TQue

from .spec import LOCAL, Arg, Family, api, form, handle, local, scalar, tded, tenum, ttype

_ROOT = "基础API/资源管理"
FAMILY = Family("resource", "AscendC", "resource.h", pipe, doc_root=_ROOT)
PIPE = Family("resource.tpipe", "AscendC::TPipe", "TPipe.inc", TPipe, member=True, doc_root=f"{_ROOT}/TPipe")
QUE = Family("resource.tque", "AscendC::TQue", "TQue.inc", TQue, member=True, doc_root=f"{_ROOT}/TQue")
BUF = Family("resource.tbuf", "AscendC::TBuf", "TBuf.inc", TBuf, member=True, doc_root=f"{_ROOT}/TBuf")

_EVT = tenum("evt", "HardEvent")
_TT = ttype("T", None)

APIS = [
    api(FAMILY, "GetTPipePtr", pipe.GetTPipePtr, form(ret="TPipe*", native="return __detail::current_pipe();"),
        doc="GetTPipePtr.md", note="the TPipe constructed last on this core (tracked on the C++ side)"),
    api(PIPE, "InitBuffer", TPipe.InitBuffer,
        form(tded("Q"), handle("que", "Q"), scalar("num", "uint8_t"), scalar("len", "uint32_t"), ret="bool"),
        form(tded("B"), handle("buf", "B"), scalar("len", "uint32_t"), ret="bool"),
        doc="InitBuffer.md", note="the .asc route names the buffer after the source text (bridge adapter)"),
    api(PIPE, "FetchEventID", TPipe.FetchEventID, form(_EVT, ret="TEventID"), doc="FetchEventID.md"),
    api(PIPE, "AllocEventID", None, form(_EVT, ret="TEventID", via="AscendC::TPipe::FetchEventID"),
        doc="AllocEventID.md", note="ids are handed out round robin, as FetchEventID does"),
    api(PIPE, "ReleaseEventID", None, form(_EVT, scalar("id", "TEventID"), native=""), doc="ReleaseEventID.md",
        note="ids are handed out round robin: nothing to release"),
    api(PIPE, "Destroy", TPipe.Destroy, form(), doc="Destroy.md"),
    api(PIPE, "Init", None, form(native=""), doc="Init.md", note="the constructor does it"),
    api(PIPE, "Reset", None, form(native=""), doc="Reset.md", note="the UB plan is per kernel run"),
    api(QUE, "AllocTensor", TQue.AllocTensor, form(_TT, ret="LocalTensor<T>"), doc="AllocTensor.md"),
    api(QUE, "EnQue", TQue.EnQue, form(tded("T"), local("tensor"), ret="bool"), doc="EnQue.md"),
    api(QUE, "DeQue", TQue.DeQue, form(_TT, ret="LocalTensor<T>"), doc="DeQue.md"),
    api(QUE, "FreeTensor", TQue.FreeTensor, form(tded("T"), Arg(LOCAL, "tensor", "LocalTensor<T>&")), doc="FreeTensor.md"),
    api(QUE, "HasTensorInQue", TQue.HasTensorInQue, form(ret="bool"), doc="HasTensorInQue.md"),
    api(BUF, "Get", TBuf.Get,
        form(_TT, ret="LocalTensor<T>"),
        form(_TT, scalar("len", "uint32_t"), ret="LocalTensor<T>"),
        doc="Get.md"),
]
