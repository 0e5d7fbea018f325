"""``AscendC::`` normalizations of the high-level library (高阶API/归一化操作): RmsNorm and LayerNorm (the
mean / variance form over [B, S, H] and the mean / rstd form over [A, R]), their tiling structs and the
host-side size and tiling helpers.

A call works row by row (a row: one H or R long line), every numeric step a MemBase call: the row sums by
ReduceSum into a 32 B result (read by the scalar unit), the per-row scalars (mean, 1/sqrt(var + eps)) on the
scalar unit in float, Adds / Muls / Mul / Add over the row. Half (and bfloat16 for LayerNorm's [A, R] form)
is cast to float first and the result cast back with round-to-nearest-even (assumed; the pages give the
formulas only). Reductions run over the original H (RmsNorm's originalHLength) or R; the variance is the
mean of the squared deviations (two passes, the stable form).

Temporary buffer (assumed layout): 32 B reduce result, ReduceSum work, float rows: the host helpers return
the size of the narrow-type layout (which covers float), min = max."""
from __future__ import annotations

from dataclasses import astuple, dataclass
from typing import Any

import numpy as np

from toolkit.ascendc import membase as MB
from toolkit.ascendc.dtypes import scalar_value
from toolkit.ascendc.membase.elementwise import MemBaseApi
from toolkit.ascendc.membase.params import RoundMode
from toolkit.ascendc.tensor import LocalTensor
from toolkit.engine.runtime import current

from .softmax import row_tmp_bytes, work_bytes
from .tmpbuf import carve, tmp_buffer

F32 = np.dtype(np.float32)


@dataclass
class RmsNormTiling:
    bLength: int = 0
    sLength: int = 0
    hLength: int = 0
    originalHLength: int = 0
    reciprocalOfHLength: float = 0.0
    mainBshLength: int = 0
    mainBsLength: int = 0
    mainBsLengthAlign: int = 0
    loopRound: int = 0
    inputTailPos: int = 0
    tailBshLength: int = 0
    tailBsLength: int = 0


_LN_FIELDS = ["bLength", "sLength", "hLength", "originalHLength", "inputXSize", "meanVarSize", "numberOfTmpBuf", "meanTmpTensorPos", "meanTmpTensorSize", "varianceTmpTensorPos", "varianceTmpTensorSize", "tmpBufSize", "oneTmpSize", "firstTmpStartPos", "secondTmpStartPos", "thirdTmpStartPos", "loopRound", "inputRoundSize", "inputTailSize", "inputTailPos", "meanVarRoundSize", "meanVarTailSize", "meanVarTailPos", "bshCurLength", "bsCurLength"]
_SEP_FIELDS = ["aLength", "rLength", "halfAddRepeatTimes", "rHeadLength", "k2Rec", "k2RRec", "inputXSize", "meanVarSize", "numberOfTmpBuf", "varianceTmpTensorPos", "varianceTmpTensorSize", "tmpBufSize", "oneTmpSize", "firstTmpStartPos", "secondTmpStartPos", "thirdTmpStartPos", "loopRound", "inputRoundSize", "inputTailSize", "inputTailPos", "meanVarRoundSize", "meanVarTailSize", "meanVarTailPos", "arCurLength", "aCurLength"]


def _make(name: str, fields: list[str], floats: tuple = (), bools: tuple = ()) -> type:
    """A tiling dataclass of the page's field list: uint32 fields (int), the ``floats`` and ``bools`` ones."""
    ns: dict = {"__annotations__": {}}
    for f in fields:
        kind = float if f in floats else bool if f in bools else int
        ns["__annotations__"][f] = kind.__name__
        ns[f] = kind(0)
    ns["__module__"] = __name__
    return dataclass(type(name, (), ns))


LayerNormTiling = _make("LayerNormTiling", [*_LN_FIELDS, "lastDimValueBack"], ("lastDimValueBack",))
LayerNormSeparateTiling = _make("LayerNormSeparateTiling", [*_SEP_FIELDS, "rValueBack"], ("k2Rec", "k2RRec", "rValueBack"))


@dataclass
class LayerNormPara:
    aLength: int = 0
    rLength: int = 0
    rLengthWithPadding: int = 0


#: LayerNormConfig bits as the .asc route packs them (isNoBeta 1, isNoGamma 2, isOnlyOutput 4, isOutputRstd 8)
LNCFG_NORM = 8


class _Norm:
    """A row-wise normalization call: rows of ``k`` elements (``kr`` of them reduced), its temporary buffer
    carved into the reduce result, the ReduceSum work and the float rows (x, gamma, beta, a scratch row)."""

    def __init__(self, api: str, x: LocalTensor, params: list[LocalTensor | None], tmp, rows: int, k: int, kr: int,
                 extra_rows: int = 0):
        ctx = current()
        self.api, self.x, self.m, self.k, self.kr = api, x, rows, k, kr
        if (k * x.dtype.itemsize) % 32:
            ctx.report("BAD_PARAMETER", f"{api}: the last axis ({k} elements) is not 32 B aligned")
        self.narrow = x.dtype != F32
        nparams = sum(p is not None and p.dtype != F32 for p in params)
        nrows = 1 + (1 if self.narrow else 0) + nparams + extra_rows
        buf = tmp_buffer(api, tmp, row_tmp_bytes(k, nrows))
        self.red, off = carve(buf, F32, 8, 0)
        self.work, off = carve(buf, F32, work_bytes(k) // 4, off)
        self.w, off = carve(buf, F32, k, off)
        if self.narrow:
            self.xf, off = carve(buf, F32, k, off)
        self.extra = []
        for _ in range(extra_rows):
            t, off = carve(buf, F32, k, off)
            self.extra.append(t)
        self.params = []
        for p in params:                      # gamma / beta in float, cast once
            if p is None or p.dtype == F32:
                self.params.append(p)
                continue
            f, off = carve(buf, F32, k, off)
            MB.Cast(f, p, RoundMode.CAST_NONE, k)
            self.params.append(f)

    def row(self, r: int) -> LocalTensor:
        if not self.narrow:
            return self.x[r * self.k]
        MB.Cast(self.xf, self.x[r * self.k], RoundMode.CAST_NONE, self.k)
        return self.xf

    def total(self, t: LocalTensor) -> float:
        MB.ReduceSum(self.red, t, self.work, self.kr)
        return float(self.red.GetValue(0))

    def out(self, dst: LocalTensor, r: int) -> LocalTensor:
        return dst[r * self.k] if dst.dtype == F32 else self.w

    def store(self, dst: LocalTensor, r: int) -> None:
        if dst.dtype != F32:
            MB.Cast(dst[r * self.k], self.w, RoundMode.CAST_RINT, self.k)


def _rstd(var: float, eps: float) -> float:
    """1 / sqrt(var + eps) on the scalar unit, in float."""
    return float(np.float32(1.0) / np.sqrt(np.float32(var) + np.float32(eps)))


def _rms_norm(dst, src, gamma, *args: Any, isBasicBlock: bool = False) -> None:
    """``RmsNorm(dst, src, gamma[, sharedTmpBuffer], epsilon, tiling)``: x / sqrt(mean(x^2) + eps) * gamma."""
    rest = list(args)
    tmp = rest.pop(0) if isinstance(rest[0], LocalTensor) else None
    eps, tiling = float(scalar_value(rest[0])), rest[1]
    rows, h = int(tiling.bLength) * int(tiling.sLength), int(tiling.hLength)
    oh = int(tiling.originalHLength) or h
    n = _Norm("RmsNorm", src, [gamma], tmp, rows, h, oh)
    g = n.params[0]
    inv_h = float(np.float32(tiling.reciprocalOfHLength)) or 1.0 / oh
    for r in range(rows):
        x = n.row(r)
        MB.Mul(n.w, x, x, h)
        ms = float(np.float32(n.total(n.w)) * np.float32(inv_h))
        out = n.out(dst, r)
        MB.Muls(out, x, _rstd(ms, eps), h)
        MB.Mul(out, out, g, h)
        n.store(dst, r)


def _block_rstd(n: _Norm, var: float, eps: float, rsqrt: bool) -> float:
    """1/sqrt(var + eps) on the vector unit over the 32 B result block: Adds(eps) then Rsqrt ([A, R] form) or
    Ln, Muls(-0.5), Exp ([B, S, H] form: the page's step 4)."""
    MB.Duplicate(n.red, var, 8)
    MB.Adds(n.red, n.red, eps, 8)
    if rsqrt:
        MB.Rsqrt(n.red, n.red, 8)
    else:
        MB.Ln(n.red, n.red, 8)
        MB.Muls(n.red, n.red, -0.5, 8)
        MB.Exp(n.red, n.red, 8)
    return float(n.red.GetValue(0))


def _finish_row(n: _Norm, dst, r: int, out, rstd: float, gamma, beta) -> None:
    MB.Muls(out, out, rstd, n.k)
    if gamma is not None:
        MB.Mul(out, out, gamma, n.k)
    if beta is not None:
        MB.Add(out, out, beta, n.k)
    n.store(dst, r)


def _layer_norm_rows(n: _Norm, dst, eps: float, gamma, beta, inv: float, stats, prepare=None) -> None:
    """The [B, S, H] steps of the page: mean = ReduceSum(Muls(x, 1/H)); variance = ReduceSum(Muls((x - mean)^2,
    1/H)); rstd by Adds, Ln, Muls, Exp; y = (x - mean) * rstd * gamma + beta."""
    for r in range(n.m):
        x = n.row(r)
        if prepare is not None:
            x = prepare(r, x)
        MB.Muls(n.w, x, inv, n.k)
        mean = n.total(n.w)
        out = n.out(dst, r)
        MB.Adds(out, x, -mean, n.k)                     # deviations
        sq = n.w if out is not n.w else n.xf            # a narrow row's x (in xf) is consumed by now
        MB.Mul(sq, out, out, n.k)
        MB.Muls(sq, sq, inv, n.k)
        var = n.total(sq)
        rstd = _block_rstd(n, var, eps, rsqrt=False)
        _finish_row(n, dst, r, out, rstd, gamma, beta)
        stats(r, mean, var, rstd)


LANES = 64


def binary_sum(n: _Norm, t: LocalTensor, other: LocalTensor, count: int) -> float:
    """The page's 二分累加 of ``count`` floats in ``t`` (changed): the tail beyond the largest power of two added
    onto the head, then adjacent 64-float blocks added pairwise (one level-0 Add per level, into ``other`` and
    back) down to one block, whose WholeReduceSum is the result."""
    head = 1 << (max(int(count), 1).bit_length() - 1)
    if count > head:
        MB.Add(t, t, t[head], count - head)
    cur, nxt, length = t, other, head
    while length > LANES:
        pairs = length // (2 * LANES)
        MB.Add(nxt, cur, cur[LANES], LANES, pairs, MB.BinaryRepeatParams(1, 1, 1, 8, 16, 16))
        cur, nxt, length = nxt, cur, length // 2
    MB.WholeReduceSum(n.red, cur, min(length, LANES), 1, 1, 1, 8)
    return float(n.red.GetValue(0))


def _layer_norm_ar_rows(n: _Norm, dst, eps: float, gamma, beta, r_len: int, stats) -> None:
    """The [A, R] steps of the page: x * 1/R summed by binary_sum (the mean), the squared deviations the same
    way (the variance), rstd = Rsqrt(var + eps), y = (x - mean) * rstd * gamma + beta."""
    a, b = n.extra
    inv = 1.0 / r_len
    for r in range(n.m):
        x = n.row(r)
        MB.Muls(a, x, inv, r_len)
        mean = binary_sum(n, a, b, r_len)
        out = n.out(dst, r)
        MB.Adds(out, x, -mean, n.k)
        MB.Mul(a, out, out, r_len)
        MB.Muls(a, a, inv, r_len)
        var = binary_sum(n, a, b, r_len)
        rstd = _block_rstd(n, var, eps, rsqrt=True)
        _finish_row(n, dst, r, out, rstd, gamma, beta)
        stats(r, mean, var, rstd)


def _layer_norm(output, outMean, outVar, inputX, gamma, beta, *args: Any, isReuseSource: bool = False,
                config: int = LNCFG_NORM) -> None:
    """``LayerNorm(output, mean, variance, x, gamma, beta[, sharedTmpBuffer], epsilon, tiling)`` over [B, S, H],
    or ``LayerNorm(output, mean, rstd, x, gamma, beta, epsilon[, sharedTmpBuffer], para, tiling)`` over [A, R]."""
    rest = list(args)
    if isinstance(rest[-1], LayerNormSeparateTiling) or isinstance(rest[-2], LayerNormPara):
        _layer_norm_ar(output, outMean, outVar, inputX, gamma, beta, rest, int(config))
        return
    tmp = rest.pop(0) if isinstance(rest[0], LocalTensor) else None
    eps, tiling = float(scalar_value(rest[0])), rest[1]
    rows, h = int(tiling.bLength) * int(tiling.sLength), int(tiling.hLength)
    oh = int(tiling.originalHLength) or h
    n = _Norm("LayerNorm", inputX, [gamma, beta], tmp, rows, h, oh)

    def stats(r, mean, var, rstd):
        outMean.SetValue(r, mean)                   # one element per row: a scalar store
        outVar.SetValue(r, var)
    _layer_norm_rows(n, output, eps, n.params[0], n.params[1], 1.0 / oh, stats)


def _layer_norm_ar(output, outMean, outRstd, inputX, gamma, beta, rest: list, config: int) -> None:
    eps = float(scalar_value(rest.pop(0)))
    tmp = rest.pop(0) if isinstance(rest[0], LocalTensor) else None
    para = rest[0]
    rows, r_len = int(para.aLength), int(para.rLength)
    k = int(para.rLengthWithPadding) or r_len
    no_beta, no_gamma, out_rstd = bool(config & 1), bool(config & 2), bool(config & 8)
    n = _Norm("LayerNorm", inputX, [None if no_gamma else gamma, None if no_beta else beta], tmp, rows, k, r_len,
              extra_rows=2)

    def stats(r, mean, var, rstd):
        outMean.SetValue(r, mean)
        outRstd.SetValue(r, rstd if out_rstd else var)
    _layer_norm_ar_rows(n, output, eps, n.params[0], n.params[1], r_len, stats)


RmsNorm = MemBaseApi(_rms_norm, "RmsNorm", batchable=False)
LayerNorm = MemBaseApi(_layer_norm, "LayerNorm", batchable=False)


# -- host side ------------------------------------------------------------------------------------------------
def _last(shape) -> int:
    dims = shape.GetDims()
    return int(dims[-1]) if dims else 0


def _norm_bytes(h: int, params: int) -> int:
    """The narrow-type layout: scratch, x and the parameter rows (covers float)."""
    return row_tmp_bytes(h, 2 + params)


def GetRmsNormMaxMinTmpSize(srcShape, typeSize, maxValue, minValue, isBasicBlock=False) -> bool:
    maxValue.value = minValue.value = _norm_bytes(_last(srcShape), 1)
    return True


def GetRmsNormTilingInfo(srcShape, originSrcShape, stackBufferByteSize, typeSize, *rest) -> RmsNormTiling:
    b, s, h = (list(srcShape.GetDims()) + [0, 0, 0])[:3]
    oh = _last(originSrcShape) or h
    bs = b * s
    t = RmsNormTiling(b, s, h, oh, 1.0 / oh if oh else 0.0, bs * h, bs, -(-bs // 8) * 8, 1, 0, 0, 0)
    return _fill(rest, RmsNormTiling, t)


def _fill(rest: tuple, cls: type, t: Any) -> Any:
    """The tiling ``t`` with its float fields rounded to float32 (as the C++ struct holds them), copied into
    the struct of that class a Python caller passed among ``rest``."""
    for name in t.__dataclass_fields__:
        v = getattr(t, name)
        if isinstance(v, float):
            setattr(t, name, float(np.float32(v)))
    out = next((a for a in rest if isinstance(a, cls)), None)
    if out is not None:
        for name, v in zip(t.__dataclass_fields__, astuple(t)):
            setattr(out, name, v)
    return t


def GetLayerNormMaxMinTmpSize(srcShape, typeSize, isReuseSource, *rest) -> None:
    """``(shape, typeSize, isReuseSource, max, min)`` or ``(shape, typeSize, isReuseSource, isComputeRstd,
    isOnlyOutput, max, min)``: the last two are the outputs. The shape is {B, S, H, originH} or {A, R}."""
    maxValue, minValue = rest[-2], rest[-1]
    dims = srcShape.GetDims()
    if len(rest) == 2:                                  # [B, S, H]: scratch, x, gamma, beta rows
        maxValue.value = minValue.value = _norm_bytes(int(dims[2]) if len(dims) >= 3 else _last(srcShape), 2)
    else:                                               # [A, R]: and the two binary-sum rows
        maxValue.value = minValue.value = _norm_bytes(_last(srcShape), 4)


def GetLayerNormNDTilingInfo(srcShape, stackBufferSize, typeSize, isReuseSource, *rest) -> Any:
    """``(shape {B, S, H, originH}, stackBufferSize, typeSize, isReuseSource, tiling)`` -> LayerNormTiling;
    ``(shape {A, R}, ..., isReuseSource, isComputeRstd, tiling)`` -> LayerNormSeparateTiling."""
    dims = [int(d) for d in srcShape.GetDims()]
    separate = any(isinstance(a, LayerNormSeparateTiling) for a in rest) or any(
        isinstance(a, (bool, int, np.bool_)) and not isinstance(a, LayerNormTiling) for a in rest)
    if separate:
        a, r = (dims + [0, 0])[:2]
        t = LayerNormSeparateTiling(aLength=a, rLength=r, rHeadLength=r, k2Rec=1.0 / r if r else 0.0,
                                    k2RRec=1.0 / r if r else 0.0, inputXSize=a * r, meanVarSize=a, loopRound=1,
                                    arCurLength=a * r, aCurLength=a, rValueBack=1.0 / r if r else 0.0,
                                    tmpBufSize=int(scalar_value(stackBufferSize)))
        return _fill(rest, LayerNormSeparateTiling, t)
    b, s, h = (dims + [0, 0, 0])[:3]
    oh = dims[3] if len(dims) > 3 else h
    t = LayerNormTiling(bLength=b, sLength=s, hLength=h, originalHLength=oh, inputXSize=b * s * h, meanVarSize=b * s,
                        loopRound=1, bshCurLength=b * s * h, bsCurLength=b * s, lastDimValueBack=1.0 / oh if oh else 0.0,
                        tmpBufSize=int(scalar_value(stackBufferSize)))
    return _fill(rest, LayerNormTiling, t)


def GetLayerNormNDTillingInfo(srcShape, stackBufferSize, typeSize, isReuseSource, *rest) -> Any:
    """The older spelling of GetLayerNormNDTilingInfo (the page: deprecated)."""
    return GetLayerNormNDTilingInfo(srcShape, stackBufferSize, typeSize, isReuseSource, *rest)
