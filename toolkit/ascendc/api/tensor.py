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
GLOBAL_NAMES = Family("tensor.global_names", "", "", None, doc_root="基础API/辅助数据结构")
LAYOUT = Family("tensor.layout", "AscendC::Layout", "", None, member=True, doc_root="基础API/辅助数据结构/Layout")
TRAIT = Family("tensor.trait", "AscendC::TensorTrait", "", None, member=True,
               doc_root="基础API/辅助数据结构/TensorTrait")
DESC = Family("tensor.desc", "AscendC::TensorDesc", "", None, member=True, doc_root="基础API/辅助数据结构/TensorDesc")
COORD = Family("tensor.coordinate", "AscendC::Coordinate", "", None, doc_root="基础API/辅助数据结构/Coordinate")
_LAYOUT_H = "layout.h: compile-time C++ (tuples), no emulator state"


def _lay(fam: Family, short: str, doc: str, *forms) -> object:
    return api(fam, short, None, *(forms or (form(hand=_LAYOUT_H),)), doc=doc)


def _lf(*parts, **kw):
    return form(*parts, hand=_LAYOUT_H, **kw)


_PACK = (tded("Ts"), scalar("t", "const Ts&..."))
_C2I = (tded("C", "S", "D"), scalar("coord", "const C&"), scalar("shape", "const S&"), scalar("stride", "const D&"))
_LAYOUT_APIS = [
    _lay(DATA, "Shape", "Layout/MakeShape.md"), _lay(DATA, "Stride", "Layout/MakeStride.md"),
    _lay(DATA, "Coord", "Coordinate/Coordinate简介.md"),
    _lay(DATA, "MakeShape", "Layout/MakeShape.md", _lf(*_PACK, ret="auto")),
    _lay(DATA, "MakeStride", "Layout/MakeStride.md", _lf(*_PACK, ret="auto")),
    _lay(DATA, "MakeCoord", "Coordinate/MakeCoord.md", _lf(*_PACK, ret="auto")),
    _lay(DATA, "MakeLayout", "Layout/MakeLayout.md", _lf(tded("S", "D"), scalar("shape", "const S&"),
                                                         scalar("stride", "const D&"), ret="auto")),
    _lay(DATA, "is_layout", "Layout/is_layout.md"), _lay(DATA, "Layout", "Layout/Layout构造函数.md"),
    _lay(DATA, "Crd2Idx", "Coordinate/Crd2Idx.md", _lf(*_C2I, ret="auto")),
    _lay(DATA, "TensorTrait", "TensorTrait/TensorTrait构造函数.md"),
    _lay(DATA, "MakeTensorTrait", "TensorTrait/MakeTensorTrait.md",
         _lf(ttype("T", None), tenum("pos", "TPosition"), tded("L"), scalar("t", "const L&"), ret="auto")),
    _lay(DATA, "is_tensorTrait", "TensorTrait/is_tensorTrait.md"),
    _lay(DATA, "TensorDesc", "TensorDesc/TensorDesc简介.md"), _lay(DATA, "Complex", "complex32-complex64.md"),
    _lay(GLOBAL_NAMES, "complex32", "complex32-complex64.md"), _lay(GLOBAL_NAMES, "complex64", "complex32-complex64.md"),
    _lay(COORD, "Coord", "Coordinate简介.md"), _lay(COORD, "MakeCoord", "MakeCoord.md", _lf(*_PACK, ret="auto")),
    _lay(COORD, "Crd2Idx", "Crd2Idx.md", _lf(*_C2I, ret="auto")),
    *(_lay(LAYOUT, n, p, _lf(ret=r)) for n, p, r in (("layout", "layout1.md", "Layout&"),
                                                     ("GetShape", "GetShape.md", "ShapeType&"),
                                                     ("GetStride", "GetStride.md", "StrideType&"))),
    _lay(LAYOUT, "operator()", "运算符重载.md", _lf(tded("C"), scalar("coord", "const C&"), ret="auto")),
    _lay(TRAIT, "GetLayout", "GetLayout.md", _lf(ret="LayoutType&")),
    _lay(TRAIT, "SetLayout", "SetLayout.md", _lf(scalar("t", "const LayoutType&"))),
    _lay(DESC, "SetShapeAddr", "SetShapeAddr.md", _lf(scalar("shapePtr", "uint64_t*"))),
    _lay(DESC, "GetDim", "GetDim.md", _lf(ret="uint64_t")), _lay(DESC, "GetIndex", "GetIndex.md", _lf(ret="uint64_t")),
    _lay(DESC, "GetShape", "GetShape-138.md", _lf(scalar("offset", "uint32_t"), ret="uint64_t")),
    _lay(DESC, "GetDataPtr", "GetDataPtr.md", _lf(ret="T*")),
    _lay(DESC, "GetDataObj", "GetDataObj.md", _lf(ret="GlobalTensor<T>")),
]

_HAND = "tensor.h: arithmetic on the tensor's own fields (address, length, tag, shape), no emulator state involved"


def _hand(fam: Family, short: str, py, *forms, doc: str = ""):
    return api(fam, short, py, *forms, doc=doc or f"{short}.md")


def _h(*parts, **kw):
    return form(*parts, hand=_HAND, **kw)


APIS = [
    *_LAYOUT_APIS,
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
