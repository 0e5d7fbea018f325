"""``AscendC::`` BatchNorm, DeepNorm, GroupNorm and Normalize (高阶API/归一化操作), their tiling structs and host
helpers: MemBase calls over rows or columns in float (half through float), as :mod:`.normalization`.

- BatchNorm over [B, S, H]: mean / variance over B for each of the S*H columns (vector Add / Mul across the B
  rows, 1/sqrt on the vector unit), gamma / beta per batch index b (the page: shape [B]).
- DeepNorm(x, gx) = LayerNorm(alpha * x + gx) per H row; outputs mean and rstd per row.
- GroupNorm over [N, C, H, W]: mean / variance over each group of C / groupNum channels (one contiguous span of
  d*H*W elements), gamma / beta per channel (scalar reads); H*W elements must be 32 B aligned (assumed).
- Normalize over [A, R]: rstd = 1/sqrt(var + eps) and y from the given mean and variance."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from toolkit.ascendc import membase as MB
from toolkit.ascendc.dtypes import scalar_value
from toolkit.ascendc.membase.elementwise import MemBaseApi
from toolkit.ascendc.membase.params import RoundMode
from toolkit.ascendc.tensor import LocalTensor
from toolkit.engine.runtime import current

from .normalization import (
    _fill,
    _last,
    _layer_norm_rows,
    _make,
    _Norm,
    _norm_bytes,
    _rstd,
)
from .softmax import row_tmp_bytes
from .tmpbuf import carve, tmp_buffer

F32 = np.dtype(np.float32)

_BN = ["originalBLength", "meanVarSize", "meanTmpTensorPos", "varianceTmpTensorPos", "tmpBufSize", "oneTmpSize", "firstTmpStartPos", "secondTmpStartPos", "thirdTmpStartPos", "loopRound", "inputTailSize", "inputTailPos", "meanVarTailSize", "meanVarTailPos", "bshCurLength", "shCurLength", "firstDimValueBack", "castHalfRepStride", "shCurLengthBlockNum", "castHalfOutRepStride"]
_DN = ["bLength", "sLength", "hLength", "originalHLength", "inputXSize", "meanVarSize", "numberOfTmpBuf", "meanTmpTensorPos", "meanTmpTensorSize", "varianceTmpTensorPos", "varianceTmpTensorSize", "tmpBufSize", "oneTmpSize", "firstTmpStartPos", "secondTmpStartPos", "thirdTmpStartPos", "loopRound", "inputRoundSize", "inputTailSize", "inputTailPos", "meanVarRoundSize", "meanVarTailSize", "meanVarTailPos", "bshCurLength", "bsCurLength"]
_GN = ["n", "c", "hw", "g", "d", "hwAlignSize", "dhwAlignSize", "inputXSize", "meanVarSize", "numberOfTmpBuf", "meanTmpTensorPos", "meanTmpTensorSize", "varianceTmpTensorPos", "varianceTmpTensorSize", "tmpBufSize", "oneTmpSize", "firstTmpStartPos", "secondTmpStartPos", "thirdTmpStartPos", "loopRound", "inputRoundSize", "inputTailSize", "inputTailPos", "meanVarRoundSize", "meanVarTailSize", "meanVarTailPos", "bshCurLength", "bsCurLength", "factor"]

BatchNormTiling = _make("BatchNormTiling", _BN, ("firstDimValueBack",))
DeepNormTiling = _make("DeepNormTiling", [*_DN, "lastDimValueBack"], ("lastDimValueBack",))
GroupNormTiling = _make("GroupNormTiling", [*_GN, "smallShape"], ("factor",), ("smallShape",))


@dataclass
class NormalizePara:
    aLength: int = 0
    rLength: int = 0
    rLengthWithPadding: int = 0


def _check(api: str, t: LocalTensor, n: int) -> None:
    if (n * t.dtype.itemsize) % 32:
        current().report("BAD_PARAMETER", f"{api}: a {n}-element span of {t.dtype} is not 32 B aligned")


def _as_float(buf_off: list, buf: LocalTensor, src: LocalTensor, n: int) -> LocalTensor:
    """src in float: itself, or cast into the next float row of the buffer."""
    if src.dtype == F32:
        return src
    f, buf_off[0] = carve(buf, F32, n, buf_off[0])
    MB.Cast(f, src, RoundMode.CAST_NONE, n)
    return f


def _store(dst: LocalTensor, src: LocalTensor, n: int) -> None:
    if dst.dtype == F32:
        if dst.addr != src.addr:
            MB.Muls(dst, src, 1.0, n)
    else:
        MB.Cast(dst, src, RoundMode.CAST_RINT, n)


# -- BatchNorm ---------------------------------------------------------------------------------------------------
def _batch_norm(output, outMean, outVar, inputX, gamm, beta, *args: Any, isReuseSource: bool = False,
                isBasicBlock: bool = False) -> None:
    """``BatchNorm(output, mean, variance, x, gamma, beta[, sharedTmpBuffer], epsilon, tiling)`` over [B, S, H]."""
    rest = list(args)
    tmp = rest.pop(0) if isinstance(rest[0], LocalTensor) else None
    eps, tiling = float(scalar_value(rest[0])), rest[1]
    b, sh = int(tiling.originalBLength), int(tiling.shCurLength)
    _check("BatchNorm", inputX, sh)
    narrow = inputX.dtype != F32
    buf = tmp_buffer("BatchNorm", tmp, row_tmp_bytes(sh, 4 if narrow else 3))
    off = [0]
    mean, off[0] = carve(buf, F32, sh, 0)
    var, off[0] = carve(buf, F32, sh, off[0])
    d, off[0] = carve(buf, F32, sh, off[0])
    inv_b = 1.0 / b
    MB.Duplicate(mean, 0.0, sh)
    MB.Duplicate(var, 0.0, sh)
    xf_off = off[0]
    for k in range(b):
        off[0] = xf_off
        MB.Add(mean, mean, _as_float(off, buf, inputX[k * sh], sh), sh)
    MB.Muls(mean, mean, inv_b, sh)
    for k in range(b):
        off[0] = xf_off
        MB.Sub(d, _as_float(off, buf, inputX[k * sh], sh), mean, sh)
        MB.Mul(d, d, d, sh)
        MB.Add(var, var, d, sh)
    MB.Muls(var, var, inv_b, sh)
    _store(outMean, mean, sh)
    _store(outVar, var, sh)
    MB.Adds(var, var, eps, sh)                      # var -> 1/sqrt(var + eps)
    MB.Sqrt(var, var, sh)
    MB.Reciprocal(var, var, sh)
    for k in range(b):
        off[0] = xf_off
        MB.Sub(d, _as_float(off, buf, inputX[k * sh], sh), mean, sh)
        MB.Mul(d, d, var, sh)
        MB.Muls(d, d, float(gamm.GetValue(k)), sh)
        MB.Adds(d, d, float(beta.GetValue(k)), sh)
        _store(output[k * sh], d, sh)


# -- DeepNorm ----------------------------------------------------------------------------------------------------
def _deep_norm(dstLocal, meanLocal, rstdLocal, srcLocal, gxLocal, betaLocal, gammaLocal, *args: Any,
               isReuseSrc: bool = False, isBasicBlock: bool = False) -> None:
    """``DeepNorm(dst, mean, rstd, x, gx, beta, gamma[, sharedTmpBuffer], alpha, epsilon, tiling)``:
    LayerNorm(alpha * x + gx) per row."""
    rest = list(args)
    tmp = rest.pop(0) if isinstance(rest[0], LocalTensor) else None
    alpha, eps, tiling = float(scalar_value(rest[0])), float(scalar_value(rest[1])), rest[2]
    rows, h = int(tiling.bLength) * int(tiling.sLength), int(tiling.hLength)
    oh = int(tiling.originalHLength) or h
    n = _Norm("DeepNorm", srcLocal, [gammaLocal, betaLocal], tmp, rows, h, oh, extra_rows=1)
    gx_row = n.extra[0]

    def prepare(r: int, x: LocalTensor) -> LocalTensor:
        """alpha * x (rounded) + gx, in the extra float row."""
        g = gxLocal[r * h]
        if g.dtype == F32:
            MB.Muls(gx_row, x, alpha, h)
            MB.Add(gx_row, gx_row, g, h)
        else:
            MB.Cast(gx_row, g, RoundMode.CAST_NONE, h)
            MB.Muls(n.w, x, alpha, h)
            MB.Add(gx_row, gx_row, n.w, h)
        return gx_row

    def stats(r, mean, var, rstd):
        meanLocal.SetValue(r, mean)
        rstdLocal.SetValue(r, rstd)
    _layer_norm_rows(n, dstLocal, eps, n.params[0], n.params[1], 1.0 / oh, stats, prepare)


# -- GroupNorm ---------------------------------------------------------------------------------------------------
def _group_norm(output, outMean, outVar, inputX, gamma, beta, *args: Any, isReuseSource: bool = False) -> None:
    """``GroupNorm(output, mean, variance, x, gamma, beta[, sharedTmpBuffer], epsilon, tiling)`` over [N, C, H, W]."""
    rest = list(args)
    tmp = rest.pop(0) if isinstance(rest[0], LocalTensor) else None
    eps, t = float(scalar_value(rest[0])), rest[1]
    n_, c, hw, g = int(t.n), int(t.c), int(t.hw), int(t.g)
    d = c // g
    span = d * hw
    _check("GroupNorm", inputX, hw)
    nm = _Norm("GroupNorm", inputX, [], tmp, n_ * g, span, span, extra_rows=1)
    inv = 1.0 / span
    for r in range(n_ * g):
        x = nm.row(r)
        mean = float(np.float32(nm.total(x)) * np.float32(inv))
        MB.Adds(nm.w, x, -mean, span)
        sq = nm.extra[0]
        MB.Mul(sq, nm.w, nm.w, span)
        var = float(np.float32(nm.total(sq)) * np.float32(inv))
        MB.Muls(nm.w, nm.w, _rstd(var, eps), span)
        for j in range(d):
            ch = (r % g) * d + j
            seg = nm.w[j * hw]
            MB.Muls(seg, seg, float(gamma.GetValue(ch)), hw)
            MB.Adds(seg, seg, float(beta.GetValue(ch)), hw)
        _store(output[r * span], nm.w, span)
        outMean.SetValue(r, mean)
        outVar.SetValue(r, var)


# -- Normalize ---------------------------------------------------------------------------------------------------
def _normalize(output, outputRstd, inputMean, inputVariance, inputX, gamma, beta, *args: Any,
               isReuseSource: bool = False, config: int = 0) -> None:
    """``Normalize(y, rstd, mean, variance, x, gamma, beta[, sharedTmpBuffer], epsilon, para)`` over [A, R]."""
    rest = list(args)
    tmp = rest.pop(0) if isinstance(rest[0], LocalTensor) else None
    eps, para = float(scalar_value(rest[0])), rest[1]
    a, r_len = int(para.aLength), int(para.rLength)
    k = int(para.rLengthWithPadding) or r_len
    no_beta, no_gamma = bool(int(config) & 1), bool(int(config) & 2)
    n = _Norm("Normalize", inputX, [None if no_gamma else gamma, None if no_beta else beta], tmp, a, k, r_len)
    g, b = n.params
    for r in range(a):
        x = n.row(r)
        rstd = _rstd(float(inputVariance.GetValue(r)), eps)
        out = n.out(output, r)
        MB.Adds(out, x, -float(inputMean.GetValue(r)), k)
        MB.Muls(out, out, rstd, k)
        if g is not None:
            MB.Mul(out, out, g, k)
        if b is not None:
            MB.Add(out, out, b, k)
        n.store(output, r)
        outputRstd.SetValue(r, rstd)


BatchNorm = MemBaseApi(_batch_norm, "BatchNorm", batchable=False)
DeepNorm = MemBaseApi(_deep_norm, "DeepNorm", batchable=False)
GroupNorm = MemBaseApi(_group_norm, "GroupNorm", batchable=False)
Normalize = MemBaseApi(_normalize, "Normalize", batchable=False)


# -- host side ----------------------------------------------------------------------------------------------------
def _dims(shape, n: int) -> list[int]:
    return ([int(d) for d in shape.GetDims()] + [0] * n)[:n]


def GetBatchNormMaxMinTmpSize(srcShape, originSrcShape, typeSize, isReuseSource, maxValue, minValue,
                              isBasicBlock=False) -> bool:
    _, s, h = _dims(srcShape, 3)
    maxValue.value = minValue.value = row_tmp_bytes(s * h, 4)
    return True


def GetBatchNormNDTilingInfo(srcShape, originSrcShape, stackBufferByteSize, typeSize, isReuseSource, *rest):
    b, s, h = _dims(srcShape, 3)
    ob = _dims(originSrcShape, 1)[0] or b
    t = BatchNormTiling(originalBLength=ob, meanVarSize=s * h, tmpBufSize=int(scalar_value(stackBufferByteSize)),
                        loopRound=1, bshCurLength=b * s * h, shCurLength=s * h,
                        firstDimValueBack=1.0 / ob if ob else 0.0, shCurLengthBlockNum=s * h * 4 // 32)
    return _fill(rest, BatchNormTiling, t)


def GetDeepNormMaxMinTmpSize(srcShape, typeSize, isReuseSource, isBasicBlock, maxValue, minValue) -> bool:
    maxValue.value = minValue.value = _norm_bytes(_last(srcShape), 3)
    return True


def GetDeepNormTilingInfo(srcShape, originSrcShape, stackBufferSize, typeSize, isReuseSource, isBasicBlock, *rest):
    b, s, h = _dims(srcShape, 3)
    oh = _last(originSrcShape) or h
    t = DeepNormTiling(bLength=b, sLength=s, hLength=h, originalHLength=oh, inputXSize=b * s * h, meanVarSize=b * s,
                       tmpBufSize=int(scalar_value(stackBufferSize)), loopRound=1, bshCurLength=b * s * h,
                       bsCurLength=b * s, lastDimValueBack=1.0 / oh if oh else 0.0)
    return _fill(rest, DeepNormTiling, t)


def _gn_span(shape, groupNum) -> tuple[int, int, int, int, int]:
    n, c, h, w = _dims(shape, 4)
    g = max(int(scalar_value(groupNum)), 1)
    return n, c, h * w, g, c // g


def GetGroupNormMaxMinTmpSize(srcShape, typeSize, isReuseSource, groupNum, maxValue, minValue) -> None:
    *_, hw, _, d = _gn_span(srcShape, groupNum)
    maxValue.value = minValue.value = _norm_bytes(d * hw, 1)


def GetGroupNormNDTilingInfo(srcShape, stackBufferSize, typeSize, isReuseSource, groupNum, *rest):
    n, c, hw, g, d = _gn_span(srcShape, groupNum)
    t = GroupNormTiling(n=n, c=c, hw=hw, g=g, d=d, hwAlignSize=hw, dhwAlignSize=d * hw, inputXSize=n * c * hw,
                        meanVarSize=n * g, tmpBufSize=int(scalar_value(stackBufferSize)), loopRound=1,
                        bshCurLength=n * c * hw, bsCurLength=n * g, factor=1.0 / (d * hw) if d * hw else 0.0)
    return _fill(rest, GroupNormTiling, t)


def GetNormalizeMaxMinTmpSize(srcShape, typeSizeU, typeSizeT, isReuseSource, isComputeRstd, isOnlyOutput,
                              maxValue, minValue) -> None:
    maxValue.value = minValue.value = _norm_bytes(_last(srcShape), 2)
