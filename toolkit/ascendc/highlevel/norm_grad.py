"""``AscendC::`` LayerNormGrad, LayerNormGradBeta, WelfordUpdate, WelfordFinalize (高阶API/归一化操作), their
tiling / parameter structs and host helpers, as MemBase calls in float (half through float).

- LayerNormGrad: the page's formulas per H row (pd_var and pd_mean from three row sums; the powers of
  (var + eps) on the scalar unit in float).
- LayerNormGradBeta: pdGamma = sum over the B*S rows of resForGamma * dy, pdBeta = sum of dy (column sums by
  vector Add).
- WelfordUpdate over the first abComputeLength elements: delta = x - mean; mean' = mean + delta * nRec;
  M' = M + delta * (x - mean'). With isInplace the outputs beyond it are the inputs (copied), otherwise they
  are not written (the page's example output agrees with both the formula and the copy).
- WelfordFinalize: counts c_i (the counts tensor, or headCount for the first headCountLength chunks and
  tailCount after); Mean = sum(c_i mean_i) * rRec, Var = (sum M_i + sum c_i (mean_i - Mean)^2) * (rRec, or
  rRecWithCorrection with isCorrection) (the pages give the formulas as images; the counts example's printed
  mean and variance are what this gives)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from toolkit.ascendc import membase as MB
from toolkit.ascendc.dtypes import scalar_value
from toolkit.ascendc.membase.elementwise import MemBaseApi
from toolkit.ascendc.membase.params import RoundMode
from toolkit.ascendc.tensor import LocalTensor

from .norm_variants import _as_float, _store
from .normalization import _fill, _last, _make, _Norm
from .softmax import row_tmp_bytes, work_bytes
from .tmpbuf import carve, tmp_buffer

F32 = np.dtype(np.float32)

_LNG = ["stackBufferSize", "bLength", "sLength", "hLength", "originalHLength", "oneCalSize", "nohCalSize", "loopNum", "tailSize", "nohTailSize", "tmpTensorBSHPos", "tmpTensorBSHSize", "pdVarTensorPos", "pdVarTensorSize", "pdMeanTensorPos", "pdMeanTensorSize", "x1TensorPos", "x1TensorSize", "x2TensorPos", "x2TensorSize", "x3TensorPos", "x3TensorSize", "tmpTensorPos", "tmpTensorSize", "tmpTensor1Pos", "tmpTensor1Size", "tmpTensor2Pos", "tmpTensor2Size", "lastDimValueBack", "lastDimValueBackMulTwo"]
_LNGB = ["stackBufferSize", "bLength", "sLength", "hLength", "originalHLength", "bshLength", "bsLength", "oneCalSize", "numberOfTmpBuf", "loopRound", "inputTailSize", "inputTailPos", "bsTailSize", "bshCurLength", "bsCurLength", "gammaTempTensorPos", "betaTempTensorPos", "inputDyTmpTensorPos", "resForGammaTmpTensorPos", "reserved"]
LayerNormGradTiling = _make("LayerNormGradTiling", _LNG)
LayerNormGradBetaTiling = _make("LayerNormGradBetaTiling", _LNGB)


@dataclass
class LayerNormGradShapeInfo:
    dataFormat: int = 0


@dataclass
class WelfordUpdateParam:
    rnLength: int = 0
    abLength: int = 0
    abComputeLength: int = 0
    nRec: float = 0.0


@dataclass
class WelfordFinalizePara:
    rnLength: int = 0
    abLength: int = 0
    headCount: int = 0
    headCountLength: int = 0
    tailCount: int = 0
    tailCountLength: int = 0
    abRec: float = 0.0
    rRec: float = 0.0
    rRecWithCorrection: float = 0.0


def _f(v: float) -> float:
    return float(np.float32(v))


# -- LayerNormGrad ------------------------------------------------------------------------------------------------
def _layer_norm_grad(outputPdX, resForGamma, inputDy, inputX, inputVariance, inputMean, inputGamma, *args: Any,
                     isReuseSource: bool = False) -> None:
    """``LayerNormGrad(pdX, resForGamma, dy, x, variance, mean, gamma[, sharedTmpBuffer], epsilon, tiling
    [, shapeInfo])``."""
    rest = list(args)
    tmp = rest.pop(0) if isinstance(rest[0], LocalTensor) else None
    eps, t = float(scalar_value(rest[0])), rest[1]
    rows, h = int(t.bLength) * int(t.sLength), int(t.hLength)
    oh = int(t.originalHLength) or h
    n = _Norm("LayerNormGrad", inputX, [inputGamma], tmp, rows, h, oh, extra_rows=3)
    x1, x2, dyf = n.extra
    g = n.params[0]
    for r in range(rows):
        x = n.row(r)
        dy = inputDy[r * h]
        if dy.dtype != F32:
            MB.Cast(dyf, dy, RoundMode.CAST_NONE, h)
            dy = dyf
        var, mean = float(inputVariance.GetValue(r)), float(inputMean.GetValue(r))
        rs = _f(1.0 / np.sqrt(np.float32(var) + np.float32(eps)))         # (var + eps) ^ -0.5
        MB.Mul(x1, dy, g, h)                                               # pd_xl
        MB.Adds(x2, x, -mean, h)                                           # x - mean
        MB.Mul(n.w, x1, x2, h)
        pd_var = _f(-0.5 * n.total(n.w) * rs * rs * rs)
        s_x1, s_x2 = n.total(x1), n.total(x2)
        pd_mean = _f(-s_x1 * rs + pd_var * (1.0 / oh) * (-2.0 * s_x2))
        out = n.out(outputPdX, r)
        MB.Muls(out, x1, rs, h)
        MB.Muls(n.w if out is not n.w else dyf, x2, _f(pd_var * 2.0 / oh), h)
        MB.Add(out, out, n.w if out is not n.w else dyf, h)
        MB.Adds(out, out, _f(pd_mean / oh), h)
        n.store(outputPdX, r)
        MB.Muls(x2, x2, rs, h)
        _store(resForGamma[r * h], x2, h)


def _layer_norm_grad_beta(outputPdGamma, outputPdBeta, resForGamma, inputDy, *args: Any,
                          isReuseSource: bool = False) -> None:
    """``LayerNormGradBeta(pdGamma, pdBeta, resForGamma, dy[, sharedTmpBuffer], tiling)``: column sums."""
    rest = list(args)
    tmp = rest.pop(0) if isinstance(rest[0], LocalTensor) else None
    t = rest[0]
    rows, h = int(t.bLength) * int(t.sLength), int(t.hLength)
    narrow = inputDy.dtype != F32
    buf = tmp_buffer("LayerNormGradBeta", tmp, row_tmp_bytes(h, 5 if narrow else 3))
    acc_g, off = carve(buf, F32, h, 0)
    acc_b, off = carve(buf, F32, h, off)
    prod, off = carve(buf, F32, h, off)
    MB.Duplicate(acc_g, 0.0, h)
    MB.Duplicate(acc_b, 0.0, h)
    for r in range(rows):
        o = [off]
        dy = _as_float(o, buf, inputDy[r * h], h)
        res = _as_float(o, buf, resForGamma[r * h], h)
        MB.Mul(prod, res, dy, h)
        MB.Add(acc_g, acc_g, prod, h)
        MB.Add(acc_b, acc_b, dy, h)
    _store(outputPdGamma, acc_g, h)
    _store(outputPdBeta, acc_b, h)


# -- Welford ------------------------------------------------------------------------------------------------------
def _welford_update(outputMean, outputVariance, inputMean, inputVariance, inputX, *args: Any,
                    isReuseSource: bool = False, config: int = 0) -> None:
    """``WelfordUpdate(mean, M, inMean, inM, x[, sharedTmpBuffer], para)``: one Welford step per element."""
    rest = list(args)
    tmp = rest.pop(0) if isinstance(rest[0], LocalTensor) else None
    p = rest[0]
    ab, n = int(p.abLength), int(p.abComputeLength)
    buf = tmp_buffer("WelfordUpdate", tmp, row_tmp_bytes(ab, 3))
    delta, off = carve(buf, F32, ab, 0)
    t, off = carve(buf, F32, ab, off)
    x = _as_float([off], buf, inputX, n)
    nrec = _f(p.nRec)
    if int(config) and ab > n:         # isInplace: the outputs beyond abComputeLength are the inputs (copied
        for dst, src in ((outputMean, inputMean), (outputVariance, inputVariance)):   # first: 32 B aligned)
            if dst.addr != src.addr:
                MB.Muls(dst, src, 1.0, ab)
    MB.Sub(delta, x, inputMean, n)
    MB.Muls(t, delta, nrec, n)
    MB.Add(outputMean, inputMean, t, n)
    MB.Sub(t, x, outputMean, n)
    MB.Mul(t, t, delta, n)
    MB.Add(outputVariance, inputVariance, t, n)


def _welford_finalize(outputMean, outputVariance, inputMean, inputVariance, *args: Any,
                      isReuseSource: bool = False, config: int = 0) -> None:
    """``WelfordFinalize(mean, var, inMean, inM[, counts][, sharedTmpBuffer], para)``."""
    rest = list(args)
    counts = rest.pop(0) if isinstance(rest[0], LocalTensor) and rest[0].dtype == np.int32 else None
    tmp = rest.pop(0) if isinstance(rest[0], LocalTensor) else None
    p = rest[0]
    ab = int(p.abLength)
    buf = tmp_buffer("WelfordFinalize", tmp, row_tmp_bytes(ab, 2))
    red, off = carve(buf, F32, 8, 0)
    work, off = carve(buf, F32, work_bytes(ab) // 4, off)
    c, off = carve(buf, F32, ab, off)
    t, off = carve(buf, F32, ab, off)
    if counts is not None:
        MB.Cast(c, counts, RoundMode.CAST_NONE, ab)
    else:
        head = int(p.headCountLength) or ab
        MB.Duplicate(c, float(p.headCount), head)
        if ab > head:
            MB.Duplicate(c[head], float(p.tailCount), ab - head)

    def total(x):
        MB.ReduceSum(red, x, work, ab)
        return float(red.GetValue(0))
    MB.Mul(t, c, inputMean, ab)
    mean = _f(total(t) * _f(p.rRec))                       # the struct's float fields are float32
    MB.Adds(t, inputMean, -mean, ab)
    MB.Mul(t, t, t, ab)
    MB.Mul(t, t, c, ab)
    MB.Add(t, t, inputVariance, ab)
    coef = _f(p.rRecWithCorrection) if int(config) else _f(p.rRec)
    outputMean.SetValue(0, mean)
    outputVariance.SetValue(0, _f(total(t) * coef))


LayerNormGrad = MemBaseApi(_layer_norm_grad, "LayerNormGrad", batchable=False)
LayerNormGradBeta = MemBaseApi(_layer_norm_grad_beta, "LayerNormGradBeta", batchable=False)
WelfordUpdate = MemBaseApi(_welford_update, "WelfordUpdate", batchable=False)
WelfordFinalize = MemBaseApi(_welford_finalize, "WelfordFinalize", batchable=False)


# -- host side ----------------------------------------------------------------------------------------------------
def _bsh(shape) -> tuple[int, int, int, int]:
    b, s, h, oh = ([int(d) for d in shape.GetDims()] + [0] * 4)[:4]
    return b, s, h, oh or h


def GetLayerNormGradMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue) -> None:
    maxValue.value = minValue.value = row_tmp_bytes(_bsh(srcShape)[2], 7)


def GetLayerNormGradNDTilingInfo(srcShape, stackBufferSize, typeSize, isReuseSource, *rest):
    b, s, h, oh = _bsh(srcShape)
    t = LayerNormGradTiling(stackBufferSize=int(scalar_value(stackBufferSize)), bLength=b, sLength=s, hLength=h,
                            originalHLength=oh, oneCalSize=b * s * h, loopNum=1)
    return _fill(rest, LayerNormGradTiling, t)


def GetLayerNormGradBetaMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue) -> None:
    maxValue.value = minValue.value = row_tmp_bytes(_bsh(srcShape)[2], 5)


def GetLayerNormGradBetaNDTilingInfo(srcShape, stackBufferSize, typeSize, isReuseSource, *rest):
    b, s, h, oh = _bsh(srcShape)
    t = LayerNormGradBetaTiling(stackBufferSize=int(scalar_value(stackBufferSize)), bLength=b, sLength=s, hLength=h,
                                originalHLength=oh, bshLength=b * s * h, bsLength=b * s, oneCalSize=b * s * h,
                                loopRound=1, bshCurLength=b * s * h, bsCurLength=b * s)
    return _fill(rest, LayerNormGradBetaTiling, t)


def GetWelfordUpdateMaxMinTmpSize(srcShape, typeSizeT, typeSizeU, isReuseSource, isInplace, maxValue,
                                  minValue) -> None:
    maxValue.value = minValue.value = row_tmp_bytes(_last(srcShape), 3)


def GetWelfordFinalizeMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue) -> None:
    maxValue.value = minValue.value = row_tmp_bytes(_last(srcShape), 2)
