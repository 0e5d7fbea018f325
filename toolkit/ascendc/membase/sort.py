"""MemBase sorting (排序组合): ``Sort32``, ``MrgSort`` and ``GetMrgSortResult``.

Entries are 8 B (score, index) structures: float score in bytes 0..3, half score in bytes 0..1 (bytes 2..3
reserved: written 0 here), uint32 index in bytes 4..7.

* Sort32(dst, src0 scores, src1 uint32 indices, repeatTime): each repeat sorts 32 scores descending
  (equal scores: the earlier one first); src0 / src1 advance 32 elements, dst 256 B per repeat.
* MrgSort(dst, MrgSortSrcList{src1..src4}, MrgSort4Info{elementLengths[4], ifExhaustedSuspension,
  validBit, repeatTimes}): merges the valid sorted queues (validBit 3, 7 or 15) by descending score
  (equal scores: the lower queue, then the earlier entry). With ifExhaustedSuspension the merge stops
  when a queue runs out and GetMrgSortResult reports how many entries of each queue were consumed.
  repeatTimes > 1 (4 contiguous queues of one length): each repeat merges the next 4 queues.
Scores are compared as the element type; NaN sorts last (assumed).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from toolkit.ascendc.dtypes import CScalar, scalar_value
from toolkit.ascendc.tensor import LocalTensor
from toolkit.engine.runtime import current

from .elementwise import MemBaseApi, check_dtype, type_name
from .types import U32, dts
from .vfstream import count_stream, emit

_ATTR = "_membase_mrgsort_counts"
_TYPES = dts("half float")


@dataclass
class MrgSort4Info:
    elementLengths: Sequence[int] = field(default_factory=lambda: [0, 0, 0, 0])
    ifExhaustedSuspension: bool = False
    validBit: int = 15
    repeatTimes: int = 1


@dataclass
class MrgSortSrcList:
    src1: Any = None
    src2: Any = None
    src3: Any = None
    src4: Any = None


def _entries(dt: np.dtype, scores: np.ndarray, index: np.ndarray) -> np.ndarray:
    """(n,) scores and indices -> n 8-byte entries as bytes."""
    out = np.zeros((scores.size, 8), np.uint8)
    out[:, :dt.itemsize] = scores.astype(dt).view(np.uint8).reshape(-1, dt.itemsize)
    out[:, 4:] = index.astype(np.uint32).view(np.uint8).reshape(-1, 4)
    return out.ravel()


def _read(ctx, api: str, addr: int, nbytes: int, align: int) -> tuple[np.ndarray, bool]:
    ctx.ub.check(addr, nbytes, api, align)
    if ctx.dry_run:
        return np.zeros(nbytes, np.uint8), True
    return np.asarray(ctx.ub.data[addr:addr + nbytes]).copy(), bool(ctx.ub.defined[addr:addr + nbytes].all())


def _order(scores: np.ndarray) -> np.ndarray:
    """Descending, stable, NaN last."""
    key = np.where(np.isnan(scores.astype(np.float64)), np.inf, -scores.astype(np.float64))
    return np.argsort(key, kind="stable")


def _sort32(dst: LocalTensor, src0: LocalTensor, src1: LocalTensor, repeatTime: Any) -> None:
    """``Sort32(dst, src0, src1, repeatTime)``."""
    api = "Sort32"
    ctx = current()
    dt = src0.dtype
    check_dtype(ctx, api, dt, _TYPES)
    if dst.dtype != dt or src1.dtype != U32:
        ctx.report("BAD_PARAMETER", f"{api}: types must be (T, T, uint32_t), got ({type_name(dst.dtype)}, "
                   f"{type_name(dt)}, {type_name(src1.dtype)})")
    repeat = int(scalar_value(repeatTime))
    if not 0 <= repeat <= 255:
        ctx.report("BAD_PARAMETER", f"{api}: repeatTime {repeat} is outside [0, 255]")
    w = dt.itemsize
    for a, al in ((dst.addr, 256), (src0.addr, 32 * w), (src1.addr, 128)):
        if a % al:
            ctx.report("UB_MISALIGNED", f"{api}: an operand at 0x{a:x} is not {al}-byte aligned")
    raw_s, def_s = _read(ctx, api, src0.addr, repeat * 32 * w, 32)
    raw_i, def_i = _read(ctx, api, src1.addr, repeat * 128, 32)
    scores, index = raw_s.view(dt).reshape(repeat, 32), raw_i.view(np.uint32).reshape(repeat, 32)
    out = np.concatenate([_entries(dt, scores[r][o], index[r][o]) for r in range(repeat)
                          for o in (_order(scores[r]),)]) if repeat else np.zeros(0, np.uint8)
    ctx.ub.check(dst.addr, out.size, api, 32)
    if not ctx.dry_run and out.size:
        ctx.ub.write(dst.addr, out, def_s and def_i)
    emit(ctx, api, 4, count_stream("RV_VSORT32", repeat * 32, 32, ((dst.addr, 8), (src0.addr, w), (src1.addr, 4))),
         {"dtype": type_name(dt), "form": "level0", "repeat": repeat})


Sort32 = MemBaseApi(_sort32, "Sort32", batchable=False)


def _queues(src: Any) -> list[LocalTensor]:
    if isinstance(src, MrgSortSrcList):
        return [src.src1, src.src2, src.src3, src.src4]
    return list(src)


def _mrg_sort(dst: LocalTensor, *args: Any, isExhaustedSuspension: bool = False) -> None:
    """``MrgSort(dst, MrgSortSrcList, MrgSort4Info)`` (the .asc route sends the lists' fields flattened:
    ``(dst, src1, src2, src3, src4, len1, len2, len3, len4, ifExhaustedSuspension, validBit, repeatTimes)``),
    or the high-level ``MrgSort<T, isExhaustedSuspension>(dst, sortList, elementCountList, sortedNum,
    validBit, repeatTime)`` (高阶API/排序操作: the same merge; sortedNum, a list of 4, gets the consumed counts)."""
    api = "MrgSort"
    ctx = current()
    if len(args) == 5:
        src, lens, sorted_num, valid, repeat = args
        params = MrgSort4Info([int(scalar_value(x)) for x in list(lens)[:4]], bool(isExhaustedSuspension),
                              int(scalar_value(valid)), int(scalar_value(repeat)))
        _mrg_sort(dst, src, params)
        for k, n in enumerate(getattr(ctx, _ATTR, (0, 0, 0, 0))):
            if isinstance(sorted_num[k], CScalar):
                sorted_num[k].value = n
            else:
                sorted_num[k] = n
        return
    if len(args) == 2:
        src, params = args
    else:
        src = MrgSortSrcList(*args[:4])
        params = MrgSort4Info(list(args[4:8]), bool(args[8]), int(args[9]), int(args[10]))
    dt = dst.dtype
    check_dtype(ctx, api, dt, _TYPES)
    valid = int(scalar_value(params.validBit))
    if valid not in (3, 7, 15):
        ctx.report("BAD_PARAMETER", f"{api}: validBit {valid} is not 3, 7 or 15")
    nq = {3: 2, 7: 3, 15: 4}.get(valid, 4)
    lens = [int(scalar_value(x)) for x in params.elementLengths][:4]
    repeat = int(scalar_value(params.repeatTimes))
    suspend = bool(scalar_value(params.ifExhaustedSuspension))
    queues = _queues(src)[:nq]
    if repeat > 1 and (nq != 4 or suspend or len(set(lens)) != 1
                       or any(queues[k + 1].addr != queues[k].addr + lens[0] * 8 for k in range(3))):
        ctx.report("BAD_PARAMETER", f"{api}: repeatTimes > 1 needs 4 contiguous queues of one length, validBit 15 "
                   f"and ifExhaustedSuspension false")
    if dst.addr % 32:
        ctx.report("UB_MISALIGNED", f"{api}: dst at 0x{dst.addr:x} is not 32-byte aligned")
    total = sum(lens[:nq])
    out_addr, consumed = dst.addr, [0, 0, 0, 0]
    for r in range(max(repeat, 0)):
        heads = []
        ok = True
        for k, q in enumerate(queues):
            raw, d = _read(ctx, api, q.addr + r * total * 8, lens[k] * 8, 8)
            heads.append(raw.reshape(-1, 8))
            ok &= d
        merged, consumed = _merge(dt, heads, suspend)
        ctx.ub.check(out_addr, merged.size, api, 32)
        if not ctx.dry_run and merged.size:
            ctx.ub.write(out_addr, merged, ok)
        out_addr += merged.size
    setattr(ctx, _ATTR, tuple(consumed))
    emit(ctx, api, 4, count_stream("RV_VMRGSORT", max(repeat, 0) * total, 32, ((dst.addr, 8),
                                                                               *((q.addr, 8) for q in queues))),
         {"dtype": type_name(dt), "form": "level0", "repeat": repeat})


def _merge(dt: np.dtype, queues: list[np.ndarray], suspend: bool) -> tuple[np.ndarray, list[int]]:
    """Merge (n_k, 8)-byte entry arrays by descending score; returns the bytes and entries used per queue."""
    pos = [0] * len(queues)
    scores = [q[:, :dt.itemsize].copy().view(dt).ravel().astype(np.float64) for q in queues]
    out = []
    while True:
        live = [k for k in range(len(queues)) if pos[k] < len(queues[k])]
        if not live or (suspend and len(live) < len(queues)):
            break
        best = max(live, key=lambda k: (-np.inf if np.isnan(scores[k][pos[k]]) else scores[k][pos[k]], -k))
        out.append(queues[best][pos[best]])
        pos[best] += 1
    return (np.concatenate(out) if out else np.zeros(0, np.uint8)), pos + [0] * (4 - len(pos))


MrgSort = MemBaseApi(_mrg_sort, "MrgSort", batchable=False)


def GetMrgSortResult(mrgSortList1: Any, mrgSortList2: Any, mrgSortList3: Any, mrgSortList4: Any) -> None:
    """``GetMrgSortResult(uint16_t& ... x4)``: entries of each queue the last MrgSort consumed."""
    counts = getattr(current(), _ATTR, (0, 0, 0, 0))
    for box, n in zip((mrgSortList1, mrgSortList2, mrgSortList3, mrgSortList4), counts):
        if isinstance(box, CScalar):
            box.value = n



