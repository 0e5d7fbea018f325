"""``AscendC::`` sorting of the high-level library (高阶API/排序操作): Concat, Sort (the (score, index) form and
the SortConfig forms), Extract, GetSortLen / GetSortOffset and the host-side size queries.

Layout (Ascend 950, the pages' "排布方式一"): a sorted entry is 8 bytes, the score in its low bytes and the
uint32 index in bytes 4..7 (the basic Sort32 / MrgSort layout, :mod:`toolkit.ascendc.membase.sort`).

* Concat(concat, src, tmp, repeatTime): on this layout the scores are the source itself: a Copy of
  16 * repeatTime elements (tmp is not used; GetConcatTmpSize gives 0).
* Sort<T, isFullSort>(dst, concat, index, tmp, repeatTime): Sort32 per block of 32 (descending, equal scores
  in input order); isFullSort merges the blocks four at a time with MrgSort, ping-pong between dst and tmp.
* Extract(dstValue, dstIndex, sorted, repeatTime): GatherMask of the score words (pattern 1) and the index
  words (pattern 2) of 32 * repeatTime entries; half scores go through dstIndex then pattern 1 of halves.
* Sort<T, isReuseSource, config>(...) with a SortConfig: MERGE_SORT is Sort32 + MrgSort of the scores
  (negated for ascending order) and their indices, then Extract; RADIX_SORT is the stable radix sort of
  :mod:`.radix`. Both are stable.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

import numpy as np

from toolkit.ascendc import membase as MB
from toolkit.ascendc.dtypes import np_dtype, scalar_value, uint64_t
from toolkit.ascendc.membase.elementwise import MemBaseApi, type_name
from toolkit.ascendc.membase.params import GatherMaskParams
from toolkit.ascendc.sysenums import TENSOR_DATA_TYPE_BYTES, TensorDataType
from toolkit.ascendc.tensor import LocalTensor
from toolkit.engine.runtime import current

from . import radix
from .targs import PositionalApi
from .tmpbuf import tmp_buffer

U32 = np.dtype(np.uint32)
I32 = np.dtype(np.int32)
U16 = np.dtype(np.uint16)
U8 = np.dtype(np.uint8)
ENTRY = 8
HF = ("half", "float")
RADIX_TYPES = ("uint8_t", "int8_t", "uint16_t", "int16_t", "uint32_t", "int32_t", "half", "bfloat16_t", "float",
               "uint64_t", "int64_t")
INDEX_TYPES = ("uint32_t", "int32_t", "uint64_t", "int64_t")


class SortType(Enum):
    RADIX_SORT = 0
    MERGE_SORT = 1


@dataclass
class SortConfig:
    type: Any = SortType.RADIX_SORT
    isDescend: bool = False
    hasSrcIndex: bool = False
    hasDstIndex: bool = False


def bad(api: str, msg: str) -> None:
    current().report("BAD_PARAMETER", f"{api}: {msg}")


def check_types(api: str, t: LocalTensor, allowed: tuple, what: str = "T") -> None:
    if type_name(t.dtype) not in allowed:
        bad(api, f"{what} is {type_name(t.dtype)}, not one of {', '.join(allowed)}")


def _a(n: int, k: int = 32) -> int:
    return -(-int(n) // k) * k


def aligned(buf: LocalTensor, dtype, count: int, off: int, align: int = 256) -> tuple[LocalTensor, int]:
    """A ``count``-element tensor of ``dtype`` in ``buf`` at the first ``align``-byte UB address from byte
    ``off``; the byte offset after it."""
    dt = np.dtype(dtype)
    addr = _a(buf.addr + off, align)
    return LocalTensor(addr, dt, count, buf.position), addr - buf.addr + _a(count * dt.itemsize)


# -- Concat / Extract / the (score, index) Sort --------------------------------------------------------------
def _concat(concat: LocalTensor, src: LocalTensor, tmp: LocalTensor, repeatTime: Any) -> None:
    """``Concat(concat, src, tmp, repeatTime)``: 16 elements per repeat (a Copy on this layout)."""
    api = "Concat"
    check_types(api, src, HF)
    r = int(scalar_value(repeatTime))
    if not 0 <= r <= 255:
        bad(api, f"repeatTime {r} is outside [0, 255]")
    if concat.dtype != src.dtype:
        bad(api, f"concat is {type_name(concat.dtype)}, src {type_name(src.dtype)}")
    if r:
        MB.Copy(concat, src, 16 * r)


def extract_entries(dst_value: LocalTensor, dst_index: LocalTensor | None, sorted_: LocalTensor, n: int,
                    words: LocalTensor | None = None) -> None:
    """Scores (and indices) of the first ``n`` entries of ``sorted_``; half scores pass through ``words``
    (a uint32 tensor of n elements: dst_index when none is given)."""
    if n <= 0:
        return
    ent = sorted_.ReinterpretCast(U32)
    gm = GatherMaskParams(1, 1, 8, 0)
    if dst_value.dtype.itemsize == 4:
        MB.GatherMask(dst_value.ReinterpretCast(U32), ent, 1, True, 2 * n, gm, uint64_t(0))
    else:
        w = words if words is not None else dst_index.ReinterpretCast(U32)
        MB.GatherMask(w, ent, 1, True, 2 * n, gm, uint64_t(0))
        MB.GatherMask(dst_value.ReinterpretCast(U16), w.ReinterpretCast(U16), 1, True, 2 * n, gm, uint64_t(0))
    if dst_index is not None:
        MB.GatherMask(dst_index.ReinterpretCast(U32), ent, 2, True, 2 * n, gm, uint64_t(0))


def _extract(dstValue: LocalTensor, dstIndex: LocalTensor, sorted: LocalTensor, repeatTime: Any) -> None:
    """``Extract(dstValue, dstIndex, sorted, repeatTime)``: 32 entries per repeat."""
    api = "Extract"
    check_types(api, dstValue, HF)
    r = int(scalar_value(repeatTime))
    if not 0 <= r <= 255:
        bad(api, f"repeatTime {r} is outside [0, 255]")
    if dstIndex.dtype != U32 or sorted.dtype != dstValue.dtype:
        bad(api, f"types must be (T, uint32_t, T), got ({type_name(dstValue.dtype)}, {type_name(dstIndex.dtype)}, "
                 f"{type_name(sorted.dtype)})")
    extract_entries(dstValue, dstIndex, sorted, 32 * r)


def _view(t: LocalTensor, entry: int) -> LocalTensor:
    """The tensor from entry ``entry`` of an entry buffer (element type T, 8 bytes an entry)."""
    return t[entry * ENTRY // t.dtype.itemsize]


def sort32(dst: LocalTensor, scores: LocalTensor, index: LocalTensor, blocks: int) -> None:
    """Sort32 over ``blocks`` blocks of 32 (255 a call)."""
    for b in range(0, blocks, 255):
        k = min(255, blocks - b)
        MB.Sort32(_view(dst, 32 * b), scores[32 * b], index[32 * b], k)


def merge_all(a: LocalTensor, b: LocalTensor, blocks: int, run: int = 32) -> LocalTensor:
    """Merges ``blocks`` sorted runs of ``run`` entries in ``a`` into one (four at a time, MrgSort), using
    ``b`` as the other half of a ping-pong; returns the tensor that holds the result."""
    runs = [(k * run, run) for k in range(blocks)]
    src, dst = a, b
    while len(runs) > 1:
        out, at = [], 0
        for g in range(0, len(runs), 4):
            grp = runs[g:g + 4]
            total = sum(n for _, n in grp)
            if len(grp) == 1:
                MB.Copy(_view(dst, at).ReinterpretCast(U32), _view(src, grp[0][0]).ReinterpretCast(U32), 2 * total)
            else:
                qs = [_view(src, s) for s, _ in grp] + [_view(src, grp[0][0])] * (4 - len(grp))
                lens = [n for _, n in grp] + [0] * (4 - len(grp))
                valid = {2: 0b11, 3: 0b111, 4: 0b1111}[len(grp)]
                MB.MrgSort(_view(dst, at), MB.MrgSortSrcList(*qs), MB.MrgSort4Info(lens, False, valid, 1))
            out.append((at, total))
            at += total
        runs = out
        src, dst = dst, src
    return src


def _sort_entries(api: str, dst: LocalTensor, concat: LocalTensor, index: LocalTensor, tmp: LocalTensor,
                  repeatTime: Any, isFullSort: Any) -> None:
    """``Sort<T, isFullSort>(dst, concat, index, tmp, repeatTime)``."""
    check_types(api, concat, HF)
    if dst.dtype != concat.dtype or tmp.dtype != concat.dtype or index.dtype != U32:
        bad(api, f"types must be (T, T, uint32_t, T), got ({type_name(dst.dtype)}, {type_name(concat.dtype)}, "
                 f"{type_name(index.dtype)}, {type_name(tmp.dtype)})")
    r = int(scalar_value(repeatTime))
    if not 0 <= r <= 255:
        bad(api, f"repeatTime {r} is outside [0, 255]")
    if r == 0:
        return
    if tmp.count * tmp.dtype.itemsize < r * 32 * ENTRY and bool(isFullSort):
        bad(api, f"tmp holds {tmp.count * tmp.dtype.itemsize} B, a full sort of {32 * r} elements needs "
                 f"{32 * r * ENTRY} B (GetSortTmpSize)")
    sort32(dst, concat, index, r)
    if bool(isFullSort) and r > 1:
        res = merge_all(dst, tmp, r)
        if res.addr != dst.addr:
            MB.Copy(dst.ReinterpretCast(U32), res.ReinterpretCast(U32), 64 * r)


# -- the SortConfig forms ------------------------------------------------------------------------------------
def config_of(config: Any) -> SortConfig:
    if isinstance(config, SortConfig):
        return config
    if config is None:
        return SortConfig()
    v = int(config)                       # the .asc route: type | isDescend << 1
    return SortConfig(SortType(v & 1), bool(v & 2))


def merge_tmp_bytes(n: int, itemsize: int) -> int:
    """MERGE_SORT: two entry buffers, the scores and the indices (256-byte aligned, 256 B of slack)."""
    n = _a(n)
    return 2 * _a(n * ENTRY, 256) + _a(n * itemsize, 256) + _a(n * 4, 256) + 256


def sort_tmp_bytes(n: int, itemsize: int, merge: bool) -> int:
    if n <= 0:
        return 0
    return merge_tmp_bytes(n, itemsize) if merge else radix.tmp_bytes(n, itemsize) + _a(n * 4) + 32


def _merge_sort(api: str, dst, dst_index, src, src_index, n: int, desc: bool, buf: LocalTensor) -> None:
    check_types(api, src, HF)
    if n % 32:
        bad(api, f"MERGE_SORT sorts a multiple of 32 elements, calCount is {n} (pad the data)")
    if src_index is not None and src_index.dtype != U32:
        bad(api, f"MERGE_SORT takes uint32_t indices, not {type_name(src_index.dtype)}")
    e1, off = aligned(buf, src.dtype, n * ENTRY // src.dtype.itemsize, 0)
    e2, off = aligned(buf, src.dtype, n * ENTRY // src.dtype.itemsize, off)
    scores, off = aligned(buf, src.dtype, n, off)
    idx, off = aligned(buf, U32, n, off)
    MB.Muls(scores, src, 1.0 if desc else -1.0, n)
    if src_index is not None:
        MB.Copy(idx, src_index, n)
    else:
        MB.CreateVecIndex(idx.ReinterpretCast(I32), 0, n)
    sort32(e1, scores, idx, n // 32)
    res = merge_all(e1, e2, n // 32)
    extract_entries(dst, dst_index, res, n, words=idx)
    if not desc:
        MB.Muls(dst, dst, -1.0, n)


def _radix_sort(api: str, dst, dst_index, src, src_index, n: int, desc: bool, buf: LocalTensor) -> None:
    check_types(api, src, RADIX_TYPES)
    if src_index is not None:
        check_types(api, src_index, INDEX_TYPES, "U")
    pos = radix.sort_positions(src, n, desc, buf)
    scratch = LocalTensor(buf.addr + radix.tmp_bytes(n, src.dtype.itemsize), U32, n, buf.position)
    radix.gather_by(dst, src, pos, n, scratch)
    if dst_index is None:
        return
    if src_index is not None:
        radix.gather_by(dst_index, src_index, pos, n, scratch)
    else:
        MB.Copy(dst_index.ReinterpretCast(U32), pos, n)


def _split_config_args(args: tuple) -> tuple:
    """(dst, dstIndex, src, srcIndex, sharedTmpBuffer, calCount) of the six SortConfig forms."""
    *ts, count = args
    dst = ts[0]
    if len(ts) == 2:
        return dst, None, ts[1], None, None, count
    if len(ts) == 3:
        if ts[1].dtype == dst.dtype and ts[2].dtype == U8:
            return dst, None, ts[1], None, ts[2], count
        return dst, ts[1], ts[2], None, None, count
    if len(ts) == 4:
        if ts[3].dtype == U8:
            return dst, ts[1], ts[2], None, ts[3], count
        return dst, ts[1], ts[2], ts[3], None, count
    return (*ts[:5], count)


def _sort(*args: Any, isFullSort: Any = None, isReuseSource: bool = False, config: Any = None) -> None:
    """``Sort<T, isFullSort>(dst, concat, index, tmp, repeatTime)`` or one of the SortConfig forms
    ``Sort<T[, U], isReuseSource, config>(dst[, dstIndex], src[, srcIndex][, sharedTmpBuffer], calCount)``."""
    api = "Sort"
    if isFullSort is not None:
        _sort_entries(api, *args, isFullSort=isFullSort)
        return
    if len(args) < 3 or not all(isinstance(a, LocalTensor) for a in args[:-1]):
        bad(api, f"unrecognised arguments ({len(args)})")
    dst, dst_index, src, src_index, tmp, count = _split_config_args(args)
    cfg = config_of(config)
    n = int(scalar_value(count))
    if dst.dtype != src.dtype:
        bad(api, f"dstTensor is {type_name(dst.dtype)}, srcTensor {type_name(src.dtype)}")
    if n < 0 or n > src.count or n > dst.count:
        bad(api, f"calCount {n} is outside [0, {min(src.count, dst.count)}] (the tensors' sizes)")
    for t, what in ((dst_index, "dstIndexTensor"), (src_index, "srcIndexTensor")):
        if t is not None and t.count < n:
            bad(api, f"{what} holds {t.count} elements, calCount is {n}")
    if dst_index is not None and src_index is None and dst_index.dtype != U32:
        bad(api, f"dstIndexTensor must be uint32_t without a srcIndexTensor, not {type_name(dst_index.dtype)}")
    if n == 0:
        return
    merge = SortType(getattr(cfg.type, "value", cfg.type)) == SortType.MERGE_SORT
    buf = tmp_buffer(api, tmp, sort_tmp_bytes(n, src.dtype.itemsize, merge))
    (_merge_sort if merge else _radix_sort)(api, dst, dst_index, src, src_index, n, bool(cfg.isDescend), buf)


def _sort_names(values: list) -> tuple:
    """``Sort[T, isFullSort]`` or ``Sort[T(, U), isReuseSource, config]``."""
    return ("isReuseSource", "config") if any(isinstance(v, SortConfig) for v in values) else ("isFullSort",)


Concat = MemBaseApi(_concat, "Concat", batchable=False)
Extract = MemBaseApi(_extract, "Extract", batchable=False)
Sort = PositionalApi(_sort, "Sort", _sort_names)


# -- sizes ---------------------------------------------------------------------------------------------------
class _PerType:
    """``GetSortLen[half](n)`` / ``GetSortLen(n, half)``: a kernel-side size in elements of T."""

    def __init__(self, fn):
        self.fn = fn

    def __getitem__(self, t: Any):
        return lambda n: self.fn(n, t)

    def __call__(self, n: Any, t: Any = np.float16) -> int:
        return self.fn(n, t)


def _entries_in(n: Any, t: Any) -> int:
    return int(scalar_value(n)) * ENTRY // np_dtype(t).itemsize


#: the size of n sorted entries and the offset of entry n, in elements of T (assumed: the MrgSort page's
#: example indexes a LocalTensor<T> with GetSortOffset; the pages name the unit bytes)
GetSortLen = _PerType(_entries_in)
GetSortOffset = _PerType(_entries_in)


def GetConcatTmpSize(*args: Any) -> int:
    """``GetConcatTmpSize(ascendcPlatform, elemCount, dataTypeSize)``: 0 (Concat is a Copy on this layout)."""
    return 0


def GetSortTmpSize(*args: Any) -> int:
    """``GetSortTmpSize(ascendcPlatform, elemCount, dataTypeSize)``: the ping-pong half of a full sort."""
    elem = int(scalar_value(args[-2]))
    return _a(elem, 32) * ENTRY


#: the element types of the sorting APIs, by their host-side TensorDataType
_SORT_TYPES = ("DT_FLOAT", "DT_FLOAT16", "DT_BF16", "DT_INT8", "DT_UINT8", "DT_INT16", "DT_UINT16", "DT_INT32",
               "DT_UINT32", "DT_INT64", "DT_UINT64")


def tdt_size(api: str, t: Any) -> int:
    """Bytes of a TensorDataType (a member, or its value from the bridge) that the sorting APIs take."""
    try:
        member = t if isinstance(t, TensorDataType) else TensorDataType(int(getattr(t, "value", t)))
    except ValueError:
        member = None
    if member is None or member.name not in _SORT_TYPES:
        bad(api, f"data type {t} is not one of {', '.join(_SORT_TYPES)}")
        return 4
    return TENSOR_DATA_TYPE_BYTES[member]


def GetSortMaxMinTmpSize(srcShape, valueType, indexType, isReuseSource, config, maxValue, minValue) -> None:
    """The temporary bytes of the SortConfig Sort for ``srcShape`` elements (max = min)."""
    cfg = config_of(config) if not hasattr(config, "type") else config
    if bool(getattr(cfg, "hasSrcIndex", False)) and not bool(getattr(cfg, "hasDstIndex", False)):
        bad("GetSortMaxMinTmpSize", "hasSrcIndex without hasDstIndex is not supported")
    merge = SortType(getattr(cfg.type, "value", cfg.type)) == SortType.MERGE_SORT
    size = sort_tmp_bytes(int(srcShape.GetShapeSize()), tdt_size("GetSortMaxMinTmpSize", valueType), merge)
    maxValue.value = minValue.value = size

