"""``AscendC::`` atomics (原子操作): the DMA atomic mode of UB -> GM copies (SetAtomicAdd / Max / Min /
Type, SetStoreAtomicConfig, DisableDmaAtomic, SetAtomicNone) and the scalar GM atomics (AtomicAdd ...),
all in toolkit/ascendc/atomic.py."""
from __future__ import annotations

from toolkit.ascendc import atomic

from .spec import Family, api, form, gm, scalar, sref, tded, tenum, ttype

FAMILY = Family("atomic", "AscendC", "atomic.h", atomic, doc_root="基础API/原子操作")

_DMA_TYPES = ("int8_t", "int16_t", "half", "bfloat16_t", "int32_t", "float")
_T = ttype("T", None)


def _scalar(short: str, *values: str, dtypes: tuple[str, ...]):
    return api(FAMILY, short, getattr(atomic, short),
               form(tded("T"), gm("address"), *(scalar(v, "T") for v in values), ret="T"), doc=f"{short}.md",
               dtypes=dtypes)


_INTS_FLOAT = ("int32_t", "uint32_t", "float", "int64_t", "uint64_t")

APIS = [
    api(FAMILY, "SetAtomicAdd", atomic.SetAtomicAdd, form(_T), doc="SetAtomicAdd.md", dtypes=_DMA_TYPES),
    api(FAMILY, "SetAtomicMax", atomic.SetAtomicMax, form(_T), doc="SetAtomicMax(ISASI).md", dtypes=_DMA_TYPES),
    api(FAMILY, "SetAtomicMin", atomic.SetAtomicMin, form(_T), doc="SetAtomicMin(ISASI).md", dtypes=_DMA_TYPES),
    api(FAMILY, "SetAtomicType", atomic.SetAtomicType, form(_T), doc="SetAtomicType.md", dtypes=_DMA_TYPES),
    api(FAMILY, "DisableDmaAtomic", atomic.DisableDmaAtomic, form(), doc="DisableDmaAtomic.md"),
    api(FAMILY, "SetAtomicNone", atomic.SetAtomicNone, form(), note="the older name of DisableDmaAtomic"),
    api(FAMILY, "SetStoreAtomicConfig", atomic.SetStoreAtomicConfig,
        form(tenum("type", "AtomicDtype"), tenum("op", "AtomicOp")), doc="SetStoreAtomicConfig(ISASI).md"),
    api(FAMILY, "GetStoreAtomicConfig", atomic.GetStoreAtomicConfig,
        form(sref("atomicType", "uint16_t"), sref("atomicOp", "uint16_t")), doc="GetStoreAtomicConfig(ISASI).md"),
    _scalar("AtomicAdd", "value", dtypes=_INTS_FLOAT),
    _scalar("AtomicMax", "value", dtypes=_INTS_FLOAT),
    _scalar("AtomicMin", "value", dtypes=_INTS_FLOAT),
    _scalar("AtomicExch", "value", dtypes=("uint32_t", "uint64_t")),
    _scalar("AtomicCas", "value1", "value2", dtypes=("uint32_t", "uint64_t")),
]
