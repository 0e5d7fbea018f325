"""``AscendC::`` high-level reductions (高阶API/归约操作): Sum, Mean, ReduceXorSum and the pattern reductions
ReduceMean / ReduceProd / ReduceAny / ReduceAll (ReduceSum / ReduceMax / ReduceMin share their C++ names with
the basic APIs: their high-level forms are added in ``membase_reduce``), with the host-side temporary-size
queries. Semantics: ``toolkit/ascendc/highlevel/reduce.py`` and ``reduce_pattern.py``; hand-written part:
``include/asc/highlevel_reduce.h`` (AscendC::Pattern::Reduce::AR / RA, the bridge encodings)."""
from __future__ import annotations

from toolkit.ascendc.highlevel import reduce as HR
from toolkit.ascendc.highlevel import reduce_pattern as RP

from .spec import (
    LOCAL,
    U64ARR,
    Arg,
    Family,
    Field,
    NameDef,
    StructDef,
    api,
    earg,
    form,
    local,
    scalar,
    sref,
    struct,
    tded,
    thidden,
    tnamed,
    ttype,
)

FAMILY = Family("hl.reduce", "AscendC", "hl_reduce.h", HR, doc_root="高阶API/归约操作")
PATTERN = Family("hl.reduce_pattern", "AscendC", "hl_reduce_pattern.h", RP, doc_root="高阶API/归约操作")

_HAND = "asc/highlevel_reduce.h"
_TMP = local("sharedTmpBuffer", "uint8_t")
_REUSE = tnamed("isReuseSource", "bool", "false")
_BASIC = thidden("isBasicBlock", "bool", "false")
_DIM = thidden("reduceDim", "int32_t", "-1")
_MM = (sref("maxValue", "uint32_t"), sref("minValue", "uint32_t"))
_TMP_NOTE = "the size the emulated kernel uses, min = max (the vendor's formula is not published)"
_TREE = ("the page's binary tree (ReduceSum / ReduceRepeat: adjacent pairs in a 256 B repeat, WholeReduceSum per "
         "repeat); rows over one repeat: partial sums per repeat tree-summed again (assumed)")


def _fields(*names_defaults: tuple) -> tuple:
    return tuple(Field(n, "uint32_t", d) for n, d in names_defaults)


STRUCTS = [
    StructDef("AscendC::SumParams", HR.SumParams, _fields(("outter", "1"), ("inner", "0"), ("n", "0")),
              doc="高阶API/归约操作/Sum接口/Sum.md"),
    StructDef("AscendC::MeanParams", HR.MeanParams, _fields(("outter", "1"), ("inner", "0"), ("n", "0")),
              doc="高阶API/归约操作/Mean接口/Mean.md"),
]
NAMES = [NameDef(f"AscendC::Pattern::Reduce::{p}", "type", _HAND, None,
                 "高阶API/归约操作/ReduceSum接口/ReduceSum-90.md") for p in ("AR", "RA")]


def _two(tps: tuple, head: tuple, tail: tuple, tmp=_TMP) -> tuple:
    """The sharedTmpBuffer form and the framework-buffer form."""
    return form(*tps, *head, tmp, *tail), form(*tps, *head, *tail)


#: the pattern reductions' forms: template <class T, class pattern, bool isReuseSource = false>
PATTERN_T = (ttype("T", None), tnamed("pattern", "class", None, send="pattern::ID"), _REUSE)
PATTERN_HEAD = (local("dstTensor"), local("srcTensor"))
PATTERN_TAIL = (Arg(U64ARR, "srcShape", "const uint32_t*"), scalar("srcInnerPad", "bool"))
PATTERN_NOTE = ("algorithm: assumed (dense [d0, d1] source: Gather to an aligned [M, P] matrix (AR: transposed), "
                "then a fold by halves over the reduced rows with one element-wise {op} per level; "
                "srcInnerPad is reserved on Ascend 950)")


def pattern_forms(page: str | None = None) -> tuple:
    """The sharedTmpBuffer and the framework form; ``page``: the forms' own page (the basic ApiDefs')."""
    import dataclasses
    return tuple(dataclasses.replace(f, doc=page) for f in _two(PATTERN_T, PATTERN_HEAD, PATTERN_TAIL))


def _pattern_api(short: str, page: str):
    op, types = RP.OPS[short]
    return api(PATTERN, short, getattr(RP, short), *pattern_forms(), dtypes=types, doc=page,
               note=PATTERN_NOTE.format(op=op) + (": the sum divided by the reduced length (Divs)"
                                                  if short == "ReduceMean" else ""))


def _pattern_host(short: str, page: str):
    return api(PATTERN, f"Get{short}MaxMinTmpSize", getattr(RP, f"Get{short}MaxMinTmpSize"),
               form(struct("srcShape", "AscendC::TensorShape"), earg("dataType", "TensorDataType"),
                    earg("pattern", "ReducePattern"), scalar("isSrcInnerPad", "bool"), scalar("isReuseSource", "bool"),
                    *_MM), doc=page, note=_TMP_NOTE)


_XOR_TMP = Arg(LOCAL, "sharedTmpBuffer", "LocalTensor<uint8_t>&")
APIS = [
    api(FAMILY, "Sum", HR.Sum, *_two((*tded("T"), _DIM, _REUSE, _BASIC), (local("dstTensor"), local("srcTensor")),
                                     (struct("sumParams", "SumParams"),)),
        dtypes=("half", "float"), doc="Sum接口/Sum.md", note="algorithm: " + _TREE),
    api(FAMILY, "Mean", HR.Mean,
        *_two((*tded("T"), tnamed("accType", "class", "T", send="sizeof(accType)"), _REUSE, _BASIC, _DIM),
              (local("dstTensor"), local("srcTensor")), (struct("meanParams", "MeanParams"),)),
        dtypes=("half", "float"), doc="Mean接口/Mean.md",
        note="algorithm: the sum first (" + _TREE + "), then Divs by n; half with accType float: row by row in float"),
    api(FAMILY, "ReduceXorSum", HR.ReduceXorSum,
        *_two((*tded("T"), _REUSE), (Arg(LOCAL, "dstTensor", "LocalTensor<T>&"), local("src0Tensor"),
                                     local("src1Tensor")), (scalar("calCount", "const uint32_t"),), tmp=_XOR_TMP),
        dtypes=("int16_t",), doc="ReduceXorSum接口/ReduceXorSum.md",
        note="(a | b) & ~(a & b) in int16, the int32 ReduceSum (exact), clamped to int16 (the page's saturation)"),
    api(FAMILY, "GetSumMaxMinTmpSize", HR.GetSumMaxMinTmpSize,
        form(scalar("n", "const uint32_t"), scalar("typeSize", "const uint32_t"), scalar("isReuseSource", "const bool"),
             *_MM), doc="Sum接口/GetSumMaxMinTmpSize.md", note=_TMP_NOTE),
    api(FAMILY, "GetMeanMaxMinTmpSize", HR.GetMeanMaxMinTmpSize,
        form(scalar("n", "const uint32_t"), scalar("srcTypeSize", "const uint32_t"),
             scalar("accTypeSize", "const uint32_t"), scalar("isReuseSource", "const bool"),
             sref("maxSize", "uint32_t"), sref("minSize", "uint32_t")),
        doc="Mean接口/GetMeanMaxMinTmpSize.md", note=_TMP_NOTE),
    api(FAMILY, "GetMeanTmpBufferFactorSize", HR.GetMeanTmpBufferFactorSize,
        form(scalar("typeSize", "const uint32_t"), sref("maxLiveNodeCount", "uint32_t"), sref("extraBuffer", "uint32_t")),
        doc="Mean接口/GetMeanTmpBufferFactorSize.md",
        note="a bound of the emulated kernel's use (half: 3, float: 1 nodes; 64 B extra), the vendor's formula is not "
             "published"),
    api(FAMILY, "GetReduceXorSumMaxMinTmpSize", HR.GetReduceXorSumMaxMinTmpSize,
        form(struct("srcShape", "AscendC::TensorShape"), scalar("typeSize", "const uint32_t"),
             scalar("isReuseSource", "const bool"), *_MM),
        doc="ReduceXorSum接口/GetReduceXorSumMaxMinTmpSize.md", note=_TMP_NOTE),
    _pattern_api("ReduceMean", "ReduceMean接口/ReduceMean.md"),
    _pattern_api("ReduceProd", "ReduceProd接口/ReduceProd.md"),
    _pattern_api("ReduceAny", "ReduceAny接口/ReduceAny.md"),
    _pattern_api("ReduceAll", "ReduceAll接口/ReduceAll.md"),
    *(_pattern_host(short, f"{short}接口/Get{short}MaxMinTmpSize.md")
      for short in ("ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceAny", "ReduceAll", "ReduceProd")),
]
