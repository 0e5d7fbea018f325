"""``AscendC::LocalTensor`` and ``AscendC::GlobalTensor`` methods. The tensors are plain C++ values (an
address and a length); the methods that only do arithmetic on those are written in ``include/asc/tensor.h``
(``hand``), GetValue / SetValue go through the emulator (generated into ``gen/<Class>.inc``)."""
from __future__ import annotations

from toolkit.ascendc.tensor import GlobalTensor, LocalTensor

from .spec import GLOBAL, LOCAL, Arg, Family, api, earg, form, gm, scalar, struct, tded, tenum, ttype

_ROOT = "基础API/数据结构"
LOCAL_T = Family("tensor.local", "AscendC::LocalTensor", "LocalTensor.inc", LocalTensor, member=True,
                 self_kind=LOCAL, doc_root=f"{_ROOT}/LocalTensor")
GLOBAL_T = Family("tensor.global", "AscendC::GlobalTensor", "GlobalTensor.inc", GlobalTensor, member=True,
                  self_kind=GLOBAL, doc_root=f"{_ROOT}/GlobalTensor")

DATA = Family("tensor.data", "AscendC", "", None, doc_root="基础API/辅助数据结构")
_HAND = "tensor.h: arithmetic on the tensor's own fields (address, length, tag, shape), no emulator state involved"


def _hand(fam: Family, short: str, py, *forms, doc: str = ""):
    return api(fam, short, py, *forms, doc=doc or f"{short}.md")


def _h(*parts, **kw):
    return form(*parts, hand=_HAND, **kw)


APIS = [
    api(DATA, "GetShapeSize", None, form(struct("shapeInfo", "ShapeInfo"), ret="int",
                                          hand="tensor.h: the product of the shape's dimensions"), doc="ShapeInfo.md"),
    _hand(LOCAL_T, "operator[]", LocalTensor.__getitem__, _h(scalar("offset", "uint32_t"), ret="LocalTensor"),
          doc="operator.md"),
    _hand(LOCAL_T, "operator()", None, _h(scalar("index", "uint32_t"), ret="T&"),
          doc="operator().md"),
    _hand(LOCAL_T, "ReinterpretCast", LocalTensor.ReinterpretCast, _h(ttype("U", None), ret="LocalTensor<U>")),
    _hand(LOCAL_T, "GetPhyAddr", LocalTensor.GetPhyAddr, _h(ret="__ubuf__ T*"),
          _h(scalar("offset", "uint32_t"), ret="__ubuf__ T*")),
    _hand(LOCAL_T, "GetSize", LocalTensor.GetSize, _h(ret="uint32_t")),
    _hand(LOCAL_T, "GetLength", LocalTensor.GetLength, _h(ret="uint32_t")),
    _hand(LOCAL_T, "GetPosition", LocalTensor.GetPosition, _h(ret="TPosition")),
    _hand(LOCAL_T, "SetSize", None, _h(scalar("size", "uint32_t"))),
    _hand(LOCAL_T, "SetBufferLen", None, _h(scalar("dataLen", "uint32_t"))),
    _hand(LOCAL_T, "SetAddrWithOffset", None, _h(tded("S"), Arg(LOCAL, "src", "LocalTensor<S>&"),
                                                 scalar("offset", "uint32_t"))),
    _hand(LOCAL_T, "SetUserTag", None, _h(scalar("tag", "const TTagType"))),
    _hand(LOCAL_T, "GetUserTag", None, _h(ret="TTagType")),
    _hand(LOCAL_T, "SetShapeInfo", None, _h(struct("shapeInfo", "ShapeInfo"))),
    _hand(LOCAL_T, "GetShapeInfo", None, _h(ret="ShapeInfo")),
    _hand(LOCAL_T, "ToFile", None, _h(scalar("fileName", "const std::string&"), ret="int32_t")),
    api(LOCAL_T, "Print", LocalTensor.Print, form(const=True), form(scalar("len", "uint32_t"), const=True),
        doc="Print.md"),
    api(LOCAL_T, "GetValue", LocalTensor.GetValue,
        form(scalar("index", "uint32_t"), ret="T", scalar_read=True, const=True), doc="GetValue.md"),
    api(LOCAL_T, "SetValue", LocalTensor.SetValue,
        form(scalar("index", "uint32_t"), scalar("value", "T"), const=True), doc="SetValue.md"),
    _hand(GLOBAL_T, "SetGlobalBuffer", GlobalTensor.SetGlobalBuffer,
          _h(gm("buffer"), scalar("bufferSize", "unsigned long long", default="~0ull"))),
    _hand(GLOBAL_T, "operator[]", GlobalTensor.__getitem__, _h(scalar("offset", "unsigned long long"),
                                                                ret="GlobalTensor"), doc="operator.md"),
    _hand(GLOBAL_T, "operator()", None, _h(scalar("offset", "unsigned long long"), ret="__gm__ T&"),
          doc="operator().md"),
    _hand(GLOBAL_T, "GetPhyAddr", GlobalTensor.GetPhyAddr, _h(ret="__gm__ T*"),
          _h(scalar("offset", "unsigned long long"), ret="__gm__ T*")),
    _hand(GLOBAL_T, "GetSize", GlobalTensor.GetSize, _h(ret="unsigned long long")),
    _hand(GLOBAL_T, "ReinterpretCast", None, _h(ttype("U", None), ret="GlobalTensor<U>")),
    _hand(GLOBAL_T, "SetShapeInfo", None, _h(struct("shapeInfo", "ShapeInfo"))),
    _hand(GLOBAL_T, "GetShapeInfo", None, _h(ret="ShapeInfo")),
    api(GLOBAL_T, "SetL2CacheHint", None,
        form(tenum("rwMode", "CacheRwMode", "RW"), earg("mode", "CacheMode"), native=""), doc="SetL2CacheHint.md",
        note="the emulator has no L2 cache model: the hint changes nothing"),
    api(GLOBAL_T, "GetValue", GlobalTensor.GetValue,
        form(scalar("index", "unsigned long long"), ret="T", scalar_read=True, const=True), doc="GetValue.md"),
    api(GLOBAL_T, "SetValue", GlobalTensor.SetValue,
        form(scalar("index", "unsigned long long"), scalar("value", "T"), const=True), doc="SetValue.md"),
]
