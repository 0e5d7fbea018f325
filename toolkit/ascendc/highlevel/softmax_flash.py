"""``AscendC::`` SoftmaxFlash, SoftmaxFlashV2 (FlashAttention-2), SoftmaxFlashV3 (PASA), AdjustSoftMaxRes and
their host helpers (高阶API/激活函数/SoftMax接口): the row engine of :mod:`.softmax` with the pages' update
formulas. Per row the statistics are scalars (read from the inputs' 32 B blocks, or one element per row with
``SOFTMAX_OUTPUT_WITHOUT_BRC``), exponentials of them run as a MemBase Exp on the 32 B reduce result.

SoftmaxFlashV3: the page's pseudo-code leaves the per-split local mean ambiguous; taken as the mean of each of
the ``splitMeanCnt`` equal column segments (assumed), the row shifted by (global mean - local mean) * alpha /
(1 - alpha) per segment, then the V2 update with the running mean."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from toolkit.ascendc import membase as MB
from toolkit.ascendc.dtypes import scalar_value
from toolkit.ascendc.membase.elementwise import MemBaseApi
from toolkit.ascendc.tensor import LocalTensor

from .softmax import _block, _fill, _nz, _out, _parse, _Rows, _tiling_of, host_tmp_bytes

F32 = np.dtype(np.float32)
WITHOUT_BRC = 1                     #: SoftmaxMode::SOFTMAX_OUTPUT_WITHOUT_BRC


@dataclass
class SoftMaxParams:
    srcM: int = 0
    srcK: int = 0
    oriSrcM: int = 0
    oriSrcK: int = 0
    loopCnt: int = 0
    splitMeanCnt: int = 0
    alpha: float = 0.0


def _stat(t: LocalTensor, r: int, brc: bool) -> float:
    return float(t.GetValue(r * (32 // t.dtype.itemsize) if brc else r))


def _put(t: LocalTensor | None, r: int, value: float, brc: bool) -> None:
    if t is None:
        return
    if brc:
        _block(t, r, value)
    else:
        t.SetValue(r, value)


def _exp(rows: _Rows, v: float) -> float:
    """exp(v) by the vector unit (Duplicate + Exp on the reduce result), read back."""
    MB.Duplicate(rows.red, v, 8)
    MB.Exp(rows.red, rows.red, 8)
    return float(rows.red.GetValue(0))


def _f32(v: float) -> float:
    return float(np.float32(v))


def _flash_rows(rows: _Rows, dst, sum_t, max_t, exp_max, in_sum, in_max, update: bool, v1: bool, brc: bool = True,
                reduce_max=None) -> None:
    for r in range(rows.m):
        (x,) = rows.load(r)
        w = rows.out_row(dst, r)
        mx = rows.reduce("max", x)
        if reduce_max is not None and update:         # the page: no outReduceMax without isUpdate
            _put(reduce_max, r, mx, brc)
        e = 0.0
        if update:
            old = _stat(in_max, r, brc)
            mx = max(mx, old)
        MB.Adds(w, x, -mx, rows.k)
        MB.Exp(w, w, rows.k)
        sm = rows.reduce("sum", w)
        if update:
            e = _exp(rows, _f32(old - mx))
            insum = _stat(in_sum, r, brc)
            sm = _f32(_f32(e * insum) + sm)
        if v1:
            MB.Divs(w, w, sm, rows.k)
            if update:
                e = _f32(_f32(e * insum) / sm)
        _put(max_t, r, mx, brc)
        _put(sum_t, r, sm, brc)
        if update:
            _put(exp_max, r, e, brc)
        rows.store(dst, r, w)


def _softmax_flash(dst, sum_t, max_t, src, exp_max, in_sum, in_max, *args: Any, isReuseSource: bool = False,
                   isBasicBlock: bool = False) -> None:
    """``SoftmaxFlash(dst, sum, max, src, expMax, inSum, inMax[, sharedTmpBuffer], tiling, isUpdate = false
    [, shapeInfo])``: the page's formula (normalised dst; with isUpdate the running max / sum)."""
    _, tmp, tiling, rest = _parse((dst, sum_t, max_t, src, exp_max, in_sum, in_max, *args), 7)
    update = bool(scalar_value(rest[0])) if rest else False
    rows = _Rows("SoftmaxFlash", [src], tmp, tiling, rest[1] if len(rest) > 1 else None)
    _flash_rows(rows, dst, sum_t, max_t, exp_max, in_sum, in_max, update, v1=True)


def _softmax_flash_v2(dst, *args: Any, isUpdate: bool = False, isReuseSource: bool = False,
                      isBasicBlock: bool = False, isDataFormatNZ: bool = False, config: int = 0) -> None:
    """``SoftmaxFlashV2(dst[, outReduceMax], expSum, max, src, expMax, inExpSum, inMax[, sharedTmpBuffer],
    tiling[, shapeInfo])``: dst = exp(src - max) (not normalised), the FlashAttention-2 update."""
    _nz("SoftmaxFlashV2", isDataFormatNZ)
    data_tensors = [a for a in args if isinstance(a, LocalTensor) and a.dtype != np.uint8]
    with_reduce = len(data_tensors) == 7              # outReduceMax first (the 7-tensor forms after dst)
    n = 8 if with_reduce else 7
    data, tmp, tiling, rest = _parse((dst, *args), n)
    if with_reduce:
        reduce_max, sum_t, max_t, src, exp_max, in_sum, in_max = data[1:8]
    else:
        reduce_max, (sum_t, max_t, src, exp_max, in_sum, in_max) = None, data[1:7]
    rows = _Rows("SoftmaxFlashV2", [src], tmp, tiling, rest[0] if rest else None)
    _flash_rows(rows, dst, sum_t, max_t, exp_max, in_sum, in_max, bool(isUpdate), v1=False,
                brc=int(config) != WITHOUT_BRC, reduce_max=reduce_max)


def _v3_shift(rows: _Rows, x, w, gm: float, splits: int, scale: float) -> None:
    """w = x shifted per column segment by (global mean - segment mean) * scale."""
    base = rows.k // splits
    for i in range(splits):
        seg = x[i * base]
        MB.ReduceSum(rows.red, seg, rows.work, base)
        lm = _f32(float(rows.red.GetValue(0)) / base)
        MB.Adds(w[i * base], seg, -_f32((gm - lm) * scale), base)


def _softmax_flash_v3(dst, mean_t, sum_t, max_t, src, exp_max, in_mean, in_sum, in_max, *args: Any,
                      isUpdate: bool = False, isReuseSource: bool = False, isBasicBlock: bool = False,
                      isDataFormatNZ: bool = False) -> None:
    """``SoftmaxFlashV3(dst, mean, expSum, max, src, expMax, inMean, inExpSum, inMax[, sharedTmpBuffer], tiling,
    params)``: the PASA update (half data, float statistics)."""
    _nz("SoftmaxFlashV3", isDataFormatNZ)
    _, tmp, tiling, rest = _parse((dst, mean_t, sum_t, max_t, src, exp_max, in_mean, in_sum, in_max, *args), 9)
    p = rest[0]
    info = SoftMaxParamsInfo(p)
    rows = _Rows("SoftmaxFlashV3", [src], tmp, tiling, info)
    alpha = _f32(p.alpha)
    scale = _f32(alpha / (1.0 - alpha)) if alpha != 1.0 else 0.0
    splits = max(int(p.splitMeanCnt), 1)
    loops = max(int(p.loopCnt), 1)
    for r in range(rows.m):
        (x,) = rows.load(r)
        w = rows.rows[0]
        gm = _f32(rows.reduce("sum", x) / rows.k)
        _v3_shift(rows, x, w, gm, splits, scale)
        mx = rows.reduce("max", w)
        if isUpdate:
            inmean, inmax = _stat(in_mean, r, True), _stat(in_max, r, True)
            mean = _f32((gm + inmean * (loops - 1)) / loops)
            shift_cur, shift_prev = _f32((gm - mean) * scale), _f32((inmean - mean) * scale)
            new_max = max(_f32(shift_cur + mx), _f32(shift_prev + inmax))
            MB.Adds(w, w, -_f32(new_max - shift_cur), rows.k)
        else:
            mean, new_max = gm, mx
            MB.Adds(w, w, -mx, rows.k)
        MB.Exp(w, w, rows.k)
        sm = rows.reduce("sum", w)
        if isUpdate:
            e = _exp(rows, _f32(inmax - new_max + shift_prev))
            sm = _f32(_f32(e * _stat(in_sum, r, True)) + sm)
            _block(exp_max, r, e)
        _block(mean_t, r, mean)
        _block(max_t, r, new_max)
        _block(sum_t, r, sm)
        if dst.dtype != F32:
            MB.Cast(dst[r * rows.k], w, MB.RoundMode.CAST_RINT, rows.k)
        else:
            MB.Muls(dst[r * rows.k], w, 1.0, rows.k)


class SoftMaxParamsInfo:
    """The shape part of a SoftMaxParams, as the row engine reads a SoftMaxShapeInfo."""

    def __init__(self, p: SoftMaxParams):
        self.srcM, self.srcK, self.oriSrcM, self.oriSrcK = p.srcM, p.srcK, p.oriSrcM, p.oriSrcK


def _adjust(softMaxRes, maxTensor, from_, to, softmaxShapeInfo, isDataFormatNZ: bool = False,
            stepSizeMode: int = 0) -> bool:
    """``AdjustSoftMaxRes(res, max, from, to, shapeInfo)``: rows whose max has the bit pattern ``from`` are set
    to ``to``; whether any row was."""
    _nz("AdjustSoftMaxRes", isDataFormatNZ)
    m, k = int(softmaxShapeInfo.srcM), int(softmaxShapeInfo.srcK)
    dt = maxTensor.dtype
    bits = np.dtype(f"u{dt.itemsize}")
    step = 1 if int(stepSizeMode) else 32 // dt.itemsize
    want = int(scalar_value(from_)) & ((1 << (8 * dt.itemsize)) - 1)
    hit = False
    for r in range(m):
        v = np.array([maxTensor.GetValue(r * step)], dt).view(bits)[0]
        if int(v) == want:
            MB.Duplicate(softMaxRes[r * k], scalar_value(to), k)
            hit = True
    return hit


SoftmaxFlash = MemBaseApi(_softmax_flash, "SoftmaxFlash", batchable=False)
SoftmaxFlashV2 = MemBaseApi(_softmax_flash_v2, "SoftmaxFlashV2", batchable=False)
SoftmaxFlashV3 = MemBaseApi(_softmax_flash_v3, "SoftmaxFlashV3", batchable=False)
AdjustSoftMaxRes = MemBaseApi(_adjust, "AdjustSoftMaxRes", batchable=False)


# -- host side ------------------------------------------------------------------------------------------------
def GetSoftMaxFlashMaxTmpSize(srcShape, dataTypeSize, isUpdate, isReuseSource) -> int:
    return host_tmp_bytes(srcShape)


def GetSoftMaxFlashMinTmpSize(srcShape, dataTypeSize, isUpdate, isReuseSource) -> int:
    return host_tmp_bytes(srcShape)


def GetSoftMaxFlashV2MaxTmpSize(srcShape, dataTypeSize1, dataTypeSize2, isUpdate, isBasicBlock=False,
                                isFlashOutputBrc=False) -> int:
    return host_tmp_bytes(srcShape)


def GetSoftMaxFlashV2MinTmpSize(srcShape, dataTypeSize1, dataTypeSize2, isUpdate, isBasicBlock=False,
                                isFlashOutputBrc=False) -> int:
    return host_tmp_bytes(srcShape)


def GetSoftMaxFlashV3MaxMinTmpSize(srcShape, dataTypeSize1, dataTypeSize2, maxValue, minValue, isUpdate,
                                   isBasicBlock=False) -> None:
    maxValue.value = minValue.value = host_tmp_bytes(srcShape)


def SoftMaxFlashTilingFunc(srcShape, dataTypeSize, localWorkSpaceSize, *rest):
    """``SoftMaxFlashTilingFunc(shape, dataTypeSize, localWorkSpaceSize, tiling, isUpdate = false)``."""
    return _fill(_out(rest), _tiling_of(srcShape, dataTypeSize))


def SoftMaxFlashV2TilingFunc(srcShape, dataTypeSize1, dataTypeSize2, localWorkSpaceSize, *rest):
    """``(shape, dataTypeSize1, dataTypeSize2, localWorkSpaceSize, tiling, isUpdate, isBasicBlock = false,
    isFlashOutputBrc = false)``: the statistics' blocks sized by dataTypeSize2."""
    return _fill(_out(rest), _tiling_of(srcShape, dataTypeSize2))


def SoftMaxFlashV3TilingFunc(srcShape, dataTypeSize1, dataTypeSize2, localWorkSpaceSize, *rest):
    return _fill(_out(rest), _tiling_of(srcShape, dataTypeSize2))
