"""``AscendC::TopK`` (高阶API/排序操作) and its host side (GetTopKMaxMinTmpSize, TopKTilingFunc, TopkTiling).

MERGE_SORT (half / float), as the page's steps on Ascend 950: positions by CreateVecIndex, the scores negated
for the k smallest (Sort32 sorts descending), the row padded from n to inner with -inf (a Duplicate from the
last block's start before the scaled copy of the n values), NaN keyed above +inf (the page: NaN first in
either order), Sort32 and, in the Normal mode, MrgSort of the blocks into one sorted row; then GatherMask of
the first k positions, and Gathers of the values (from the source: NaN payloads kept) and of the indices
(srcIndexLocal with isInitIndex, else the positions). finishLocal rows (isHasfinish) get the index n. The
Small mode (inner 32) sorts every row with one Sort32 call and compacts the first k positions of all rows
with one GatherMask.

RADIX_SELECT (every documented type, TopKConfig.algo): the stable radix sort of :mod:`.radix` of each row's
n values, descending for the k largest, and Gathers of the first k values and indices (``sorted`` false
gives them sorted too: one of the allowed orders). Equal values: the earlier first (both algorithms).
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from enum import Enum
from typing import Any

import numpy as np

from toolkit.ascendc import membase as MB
from toolkit.ascendc.dtypes import scalar_value, uint64_t
from toolkit.ascendc.membase.elementwise import type_name
from toolkit.ascendc.membase.params import GatherMaskParams
from toolkit.ascendc.regbase.types import CMPMODE
from toolkit.ascendc.tensor import LocalTensor

from . import radix
from .sort import HF, RADIX_TYPES, U16, U32, I32, U8, aligned, bad, merge_all, sort32, tdt_size
from .targs import PositionalApi
from .tmpbuf import tmp_buffer


class TopKMode(Enum):
    TOPK_NORMAL = 0
    TOPK_NSMALL = 1


class TopKAlgo(Enum):
    RADIX_SELECT = 0
    MERGE_SORT = 1


class TopKOrder(Enum):
    UNSET = 0
    LARGEST = 1
    SMALLEST = 2


@dataclass
class TopKConfig:
    algo: Any = TopKAlgo.MERGE_SORT
    order: Any = TopKOrder.UNSET
    sorted: bool = True


@dataclass
class TopKInfo:
    outter: int = 1
    inner: int = 0
    n: int = 0


_TILING_NAMES = ("tmpLocalSize allDataSize innerDataSize sortRepeat mrgSortRepeat kAlignFourBytes kAlignTwoBytes "
                 "maskOffset maskVreducev2FourBytes maskVreducev2TwoBytes mrgSortSrc1offset mrgSortSrc2offset "
                 "mrgSortSrc3offset mrgSortTwoQueueSrc1Offset mrgFourQueueTailPara1 mrgFourQueueTailPara2 "
                 "srcIndexOffset copyUbToUbBlockCount topkMrgSrc1MaskSizeOffset topkNSmallSrcIndexOffset "
                 "vreduceValMask0 vreduceValMask1 vreduceIdxMask0 vreduceIdxMask1 vreducehalfValMask0 "
                 "vreducehalfValMask1 vreducehalfValMask2 vreducehalfValMask3 vreducehalfValMask4 "
                 "vreducehalfValMask5 vreducehalfValMask6 vreducehalfValMask7").split()
#: the C++ types of the TopkTiling fields (the page's struct)
TILING_TYPES = {n: ("uint32_t" if n in ("sortRepeat", "copyUbToUbBlockCount") or n.startswith("vreduceV")
                    or n.startswith("vreduceI") else "uint16_t" if n.startswith("vreducehalf") else "int32_t")
                for n in _TILING_NAMES}
TopkTiling = dataclass(type("TopkTiling", (), {"__annotations__": {n: int for n in _TILING_NAMES},
                                              **{n: 0 for n in _TILING_NAMES}}))


def _enum(cls, v: Any):
    return v if isinstance(v, cls) else cls(int(getattr(v, "value", v)))


def config_of(config: Any) -> TopKConfig:
    if config is None:
        return TopKConfig()
    if isinstance(config, TopKConfig):
        return config
    if hasattr(config, "algo"):
        return TopKConfig(_enum(TopKAlgo, config.algo), _enum(TopKOrder, config.order), bool(config.sorted))
    v = int(config)                       # the .asc route: algo | order << 1 | sorted << 3
    return TopKConfig(TopKAlgo(v & 1), TopKOrder((v >> 1) & 3), bool(v & 8))


def _a(n: int, k: int = 256) -> int:
    return -(-int(n) // k) * k


def kpad(k: int, itemsize: int) -> int:
    per = 32 // itemsize if itemsize < 32 else 1
    return -(-int(k) // per) * per


def topk_tmp_bytes(inner: int, outter: int, k: int, itemsize: int, small: bool, radix_: bool) -> int:
    """The temporary bytes of one TopK call (each piece 256-byte aligned, 256 B of slack)."""
    inner, outter, k = max(int(inner), 32), max(int(outter), 1), max(int(k), 1)
    if radix_:
        stage = (_a(outter * kpad(k, itemsize) * itemsize) + _a(outter * kpad(k, 4) * 4) +
                 2 * _a(-(-outter * kpad(k, itemsize) * max(itemsize, 4) // 8))) if small else 0
        return _a(radix.tmp_bytes(inner, itemsize)) + _a(inner * 4) + stage + 256
    rows = outter if small else 1
    span = -(-rows * inner * itemsize // 256) * 256
    return (span + _a(span // itemsize // 8) + 3 * _a(rows * inner * 4) + (1 if small else 2) * _a(rows * inner * 8)
            + (_a(rows * 8) if small else 0) + 256)


def _pattern(buf: LocalTensor, rows: int, row_len: int, keep) -> LocalTensor:
    """Selection bits (rows * row_len, row by row) with bit j of a row set when ``keep(j)``: SetValue per byte."""
    row = np.array([bool(keep(j)) for j in range(row_len)])
    bits = np.packbits(np.tile(row, rows), bitorder="little")
    out = buf.ReinterpretCast(U8)
    for i, v in enumerate(bits):
        out.SetValue(i, int(v))
    return out


def _compact(dst: LocalTensor, stage: LocalTensor, rows: int, row_len: int, keep, pat: LocalTensor) -> None:
    """dst = the elements of ``stage`` (rows of row_len) selected by ``keep``, compacted (GatherMask)."""
    p = _pattern(pat, rows, row_len, keep)
    MB.GatherMask(dst, stage, p.ReinterpretCast(stage.dtype), True, rows * row_len, GatherMaskParams(1, 1, 8, 0),
                  uint64_t(0))


def _uview(t: LocalTensor) -> LocalTensor:
    w = t.dtype.itemsize
    return t.ReinterpretCast({1: U8, 2: U16, 4: U32, 8: U32}[w])


# -- MERGE_SORT ----------------------------------------------------------------------------------------------
def _scores(dst: LocalTensor, src: LocalTensor, n: int, inner: int, sign: float, span: int,
            number: LocalTensor) -> None:
    """dst[:inner] = sign * src[:n], padded with -inf (a Duplicate from the last block's start, then the
    scaled copy); NaN (either sign) sorts first (the page: NaN first in both orders, see _nan_to_inf).
    ``span``: the elements dst holds (whole 256 B repeats for the Compare); ``number``: span bits."""
    start = n // 32 * 32 if n < inner else inner
    if start < span:
        MB.Duplicate(dst[start], -np.inf, span - start)
    MB.Muls(dst, src, sign, n)
    _nan_to_inf(dst, number, span)


def _nan_to_inf(s: LocalTensor, number: LocalTensor, span: int) -> None:
    """+inf becomes the largest finite value, then NaN +inf: NaN sorts before every number (the values are
    gathered from the source afterwards, so the keys only order them; +inf ties with that largest value)."""
    MB.Compares(number, s, np.inf, CMPMODE.NE, span)
    MB.Select(s, number, s, float(np.finfo(s.dtype).max), MB.SELMODE.VSEL_TENSOR_SCALAR_MODE, span)
    MB.Compare(number, s, s, CMPMODE.EQ, span)
    MB.Select(s, number, s, np.inf, MB.SELMODE.VSEL_TENSOR_SCALAR_MODE, span)


def _span(count: int, itemsize: int) -> int:
    """Elements of whole 256 B repeats covering ``count``."""
    per = 256 // itemsize
    return -(-int(count) // per) * per


def _take_rows(a: dict, src: LocalTensor, pos: LocalTensor, dv: LocalTensor, di: LocalTensor, count: int,
               index_src: LocalTensor | None, scratch: LocalTensor) -> None:
    """The values (gathered from the source: NaN payloads and signs kept) and indices of ``count`` positions."""
    radix.gather_by(dv, src, pos, count, scratch)
    if index_src is not None:
        radix.gather_by(di, index_src, pos, count, scratch)
    else:
        MB.Copy(di.ReinterpretCast(U32), pos, count)


def _merge_normal(a: dict, buf: LocalTensor) -> None:
    src, info, k = a["src"], a["info"], a["k"]
    dt = src.dtype
    inner, n = info.inner, info.n
    span = _span(inner, dt.itemsize)
    s, off = aligned(buf, dt, span, 0)
    number, off = aligned(buf, U8, span // 8, off)
    idx, off = aligned(buf, U32, inner, off)
    e1, off = aligned(buf, dt, inner * 8 // dt.itemsize, off)
    e2, off = aligned(buf, dt, inner * 8 // dt.itemsize, off)
    pos, off = aligned(buf, U32, inner, off)
    scratch, off = aligned(buf, U32, inner, off)
    MB.CreateVecIndex(idx.ReinterpretCast(I32), 0, inner)
    kp, kpi = kpad(k, dt.itemsize), kpad(k, 4)
    for r in range(info.outter):
        _scores(s, src[r * inner], n, inner, 1.0 if a["largest"] else -1.0, span, number)
        sort32(e1, s, idx, inner // 32)
        res = merge_all(e1, e2, inner // 32)
        MB.GatherMask(pos, res.ReinterpretCast(U32), 2, True, 2 * k, GatherMaskParams(1, 1, 8, 0), uint64_t(0))
        dv, di = a["dst_value"][r * kp], a["dst_index"][r * kpi]
        _take_rows(a, src[r * inner], pos, dv, di, k, a["src_index"] if a["init_index"] else None, scratch)
        if a["finish"] is not None and int(a["finish"].GetValue(r)):
            MB.Duplicate(di, n, k)


def _merge_small(a: dict, buf: LocalTensor) -> None:
    src, info, k = a["src"], a["info"], a["k"]
    dt, rows, n = src.dtype, info.outter, info.n
    span = _span(rows * 32, dt.itemsize)
    s, off = aligned(buf, dt, span, 0)
    number, off = aligned(buf, U8, span // 8, off)
    idx, off = aligned(buf, U32, rows * 32, off)
    e1, off = aligned(buf, dt, rows * 256 // dt.itemsize, off)
    pos, off = aligned(buf, U32, rows * 32, off)
    scratch, off = aligned(buf, U32, rows * 32, off)
    pat, off = aligned(buf, U8, rows * 8, off)
    sign = 1.0 if a["largest"] else -1.0
    if n < 32:
        MB.Duplicate(s, -np.inf, span)
        for r in range(rows):
            MB.Muls(s[r * 32], src[r * 32], sign, n)
        _nan_to_inf(s, number, span)
    else:
        _scores(s, src, rows * 32, rows * 32, sign, span, number)
    MB.CreateVecIndex(idx.ReinterpretCast(I32), 0, rows * 32)      # positions in the whole input
    sort32(e1, s, idx, rows)
    _compact(pos, e1.ReinterpretCast(U32), rows, 64, lambda j: j % 2 == 1 and j < 2 * k, pat)
    count = rows * k
    radix.gather_by(a["dst_value"], src, pos, count, scratch)
    if a["init_index"]:
        radix.gather_by(a["dst_index"], a["src_index"], pos, count, scratch)
    else:                                                           # the position within the row
        MB.Duplicate(scratch, 31, count)
        MB.And(a["dst_index"].ReinterpretCast(U32), pos, scratch, count)


# -- RADIX_SELECT --------------------------------------------------------------------------------------------
def _radix(a: dict, buf: LocalTensor) -> None:
    src, info, k, small = a["src"], a["info"], a["k"], a["small"]
    dt, inner, n, rows = src.dtype, info.inner, info.n, info.outter
    w = dt.itemsize
    sort_buf, off = aligned(buf, U8, radix.tmp_bytes(inner, w), 0)
    scratch, off = aligned(buf, U32, inner, off)
    kp, kpi = kpad(k, w), kpad(k, 4)
    if small:
        sv, off = aligned(buf, dt, rows * kp, off)
        si, off = aligned(buf, I32, rows * kpi, off)
        pat, off = aligned(buf, U8, -(-rows * kp * max(w, 4) // 8), off)
        outs = (sv, si)
    else:
        outs = (a["dst_value"], a["dst_index"])
    for r in range(rows):
        pos = radix.sort_positions(src[r * inner], n, a["largest"], sort_buf, nan_first=True)
        dv, di = outs[0][r * kp], outs[1][r * kpi]
        radix.gather_by(dv, src[r * inner], pos, k, scratch)
        if a["init_index"]:
            radix.gather_by(di, a["src_index"][r * inner if small else 0], pos, k, scratch)
        else:
            MB.Copy(di.ReinterpretCast(U32), pos, k)
    if small:
        words = 2 if w == 8 else 1
        _compact(_uview(a["dst_value"]), _uview(sv), rows, kp * words, lambda j: j < k * words, pat)
        _compact(a["dst_index"].ReinterpretCast(U32), si.ReinterpretCast(U32), rows, kpi, lambda j: j < k, pat)


# -- the API -------------------------------------------------------------------------------------------------
def _check(a: dict) -> None:
    api, info, k, src = "TopK", a["info"], a["k"], a["src"]
    types = RADIX_TYPES if a["radix"] else HF
    if type_name(src.dtype) not in types:
        bad(api, f"T is {type_name(src.dtype)}, not one of {', '.join(types)} "
                 f"({'RADIX_SELECT' if a['radix'] else 'MERGE_SORT'})")
    if a["dst_value"].dtype != src.dtype or a["dst_index"].dtype != I32:
        bad(api, f"dstValueLocal / dstIndexLocal must be {type_name(src.dtype)} / int32_t")
    if info.inner <= 0 or info.inner % 32:
        bad(api, f"topKInfo.inner {info.inner} is not a positive multiple of 32")
    if not 1 <= info.n <= info.inner:
        bad(api, f"topKInfo.n {info.n} is outside [1, inner = {info.inner}]")
    if not 1 <= k <= info.n:
        bad(api, f"k {k} is outside [1, n = {info.n}]")
    if info.outter < 1 or src.count < info.outter * info.inner:
        bad(api, f"srcLocal holds {src.count} elements, outter * inner is {info.outter * info.inner}")
    if a["small"] and info.inner != 32:
        bad(api, f"TOPK_NSMALL needs topKInfo.inner 32, got {info.inner}")
    if a["small"] and a["has_finish"]:
        bad(api, "TOPK_NSMALL does not take isHasfinish = true")
    if not a["small"] and not a["radix"] and info.inner > 4096:
        bad(api, f"TOPK_NORMAL takes topKInfo.inner up to 4096, got {info.inner}")


def _topk(dstValueLocal, dstIndexLocal, srcLocal, srcIndexLocal, finishLocal, *rest: Any, isInitIndex: bool = False,
          isHasfinish: bool = False, isReuseSrc: bool = False, topkMode: Any = TopKMode.TOPK_NORMAL,
          config: Any = None) -> None:
    """``TopK<T, isInitIndex, isHasfinish, isReuseSrc, topkMode[, config]>(dstValueLocal, dstIndexLocal,
    srcLocal, srcIndexLocal, finishLocal[, tmpLocal], k, tiling, topKInfo[, isLargest])``."""
    rest = list(rest)
    tmp = rest.pop(0) if rest and isinstance(rest[0], LocalTensor) else None
    k, _tiling, info = rest[:3]
    largest = bool(scalar_value(rest[3])) if len(rest) > 3 else True
    cfg = config_of(config)
    order = _enum(TopKOrder, cfg.order)
    if order != TopKOrder.UNSET:
        largest = order == TopKOrder.LARGEST
    mode = _enum(TopKMode, topkMode)
    a = {"dst_value": dstValueLocal, "dst_index": dstIndexLocal, "src": srcLocal, "src_index": srcIndexLocal,
         "finish": finishLocal if bool(isHasfinish) else None, "has_finish": bool(isHasfinish),
         "k": int(scalar_value(k)), "info": TopKInfo(int(info.outter), int(info.inner), int(info.n)),
         "largest": largest, "init_index": bool(isInitIndex), "small": mode == TopKMode.TOPK_NSMALL,
         "radix": _enum(TopKAlgo, cfg.algo) == TopKAlgo.RADIX_SELECT}
    _check(a)
    inf = a["info"]
    need = topk_tmp_bytes(inf.inner, inf.outter, a["k"], srcLocal.dtype.itemsize, a["small"], a["radix"])
    buf = tmp_buffer("TopK", tmp, need)
    if a["radix"]:
        _radix(a, buf)
    else:
        (_merge_small if a["small"] else _merge_normal)(a, buf)


TopK = PositionalApi(_topk, "TopK", ("isInitIndex", "isHasfinish", "isReuseSrc", "topkMode", "config"))


# -- host side -----------------------------------------------------------------------------------------------
def _numeric_tail(args: tuple) -> list:
    """The arguments after an optional leading PlatformAscendC (the Python route may pass one)."""
    return list(args[1:]) if args and not isinstance(args[0], (int, np.integer, bool)) and \
        not hasattr(args[0], "value") else list(args)


def GetTopKMaxMinTmpSize(*args: Any) -> bool:
    """``GetTopKMaxMinTmpSize([ascendcPlatform,] inner, outter, isReuseSource, isInitIndex, mode, isLargest,
    dataTypeSize, maxValue, minValue)`` or ``(inner, outter, k, isReuseSource, isInitIndex, mode, isLargest,
    dataType, config, maxValue, minValue)``: max = min = the kernel's temporary bytes."""
    a = _numeric_tail(args)
    if len(a) == 11:
        inner, outter, k, _reuse, _init, mode, _largest, dtype, config, mx, mn = a
        size, radix_ = tdt_size("GetTopKMaxMinTmpSize", dtype), _enum(TopKAlgo, config_of(config).algo) == \
            TopKAlgo.RADIX_SELECT
    else:
        inner, outter, _reuse, _init, mode, _largest, size, mx, mn = a
        k, radix_ = int(scalar_value(inner)), False
    small = _enum(TopKMode, mode) == TopKMode.TOPK_NSMALL
    inner, outter, k = (int(scalar_value(v)) for v in (inner, outter, k))
    if inner <= 0 or inner % 32 or outter <= 0 or (small and inner != 32):
        return False                       # the page: false when the sizes cannot be given
    mx.value = mn.value = topk_tmp_bytes(inner, outter, k, int(scalar_value(size)), small, radix_)
    return True


def TopKTilingFunc(*args: Any) -> Any:
    """``TopKTilingFunc(ascendcPlatform, inner, outter, k, dataTypeSize, isInitIndex, mode, isLargest,
    topKTiling)``: the sizes and counts this emulator's TopK uses (the vendor's field meanings are not
    published; the kernel reads topKInfo, not the tiling)."""
    a = _numeric_tail(args)
    inner, outter, k, size, _init, mode = (a[j] for j in range(6))
    inner, outter, k, size = (int(scalar_value(x)) for x in (inner, outter, k, size))
    small = _enum(TopKMode, mode) == TopKMode.TOPK_NSMALL
    t = TopkTiling()
    t.tmpLocalSize = topk_tmp_bytes(inner, outter, k, size, small, False)
    t.allDataSize, t.innerDataSize, t.sortRepeat = inner * outter, inner, inner // 32 * (outter if small else 1)
    t.kAlignFourBytes, t.kAlignTwoBytes = kpad(k, 4), kpad(k, 2)
    t.srcIndexOffset = inner
    target = a[8] if len(a) > 8 else None
    if target is not None and hasattr(target, "tmpLocalSize"):
        for f in fields(TopkTiling):
            setattr(target, f.name, getattr(t, f.name))
    return t
