"""``AscendC::AscendAntiQuant`` and ``AscendC::AntiQuantize`` (高阶API/量化操作) and their temporary-size queries.

AscendAntiQuant PER_CHANNEL / PER_TENSOR (the page's formula dst = scale * (src + offset)): src [K, N]
(isTranspose false: offset / scale [K / groupSize, N], row i uses row i / groupSize) or [N, K] (isTranspose
true: offset / scale [N, K / groupSize], column j uses column j / groupSize). A half dst follows the page's
steps in half (Cast int8 -> half into dst, Add / Adds offset, Mul / Muls scale; no temporary buffer); a
bfloat16 dst its float steps (src through half to float, offset and scale to float, Add, Mul, CAST_RINT to
bf16). Without shapeInfo (or zeros) the offset / scale shape is assumed to be [1, N] (not transposed) or
[N, size / N] (transposed): our LocalTensor carries no ShapeInfo.

AscendAntiQuant PER_TOKEN / PER_GROUP and AntiQuantize (every policy): float rows, (src + offset) x scale,
cast to dstT with CAST_RINT (assumed: float arithmetic, the pages give none). Sources int8_t, fp8_e4m3fn_t,
fp8_e5m2_t, hifloat8_t (widened exactly by the Cast pairs fp8 -> float, hifloat8 -> float / half; a half dst
of an fp8 source takes the float rows: the Cast table has no fp8 -> half). The float4 PER_GROUP form (fp4x2
source, fp8_e8m0_t scale, groups of 32) and the PER_GROUP float4 scene of the AscendAntiQuantParam form and
AntiQuantize (groupSize, kDim; offset not used): :func:`.quant_low.fp4_rows`."""
from __future__ import annotations

from typing import Any

from toolkit.ascendc import membase as MB
from toolkit.ascendc.dtypes import scalar_value, type_name
from toolkit.ascendc.membase.elementwise import MemBaseApi
from toolkit.ascendc.membase.params import RoundMode
from toolkit.ascendc.tensor import LocalTensor

from . import quant_common as Q
from .quant_low import B8_IN, FP4_OUT, anti_fp4, fp4_rows
from .quant_common import F16

_DST = ("half", "bfloat16_t", "float")


def anti_rows(api: str, dst, src, scale, offset, m: int, n: int, cfg: Q.QuantCfg, group: int, tmp,
              derived_group: bool = False) -> None:
    """dst = dstT((float(src) + offset) * scale), row by row (``derived_group``: AscendAntiQuant's PER_CHANNEL
    group, from the shapes rather than a groupSize parameter)."""
    if type_name(src.dtype) in FP4_OUT and cfg.policy == Q.GROUP:      # the float4 scene: fp8_e8m0_t scale
        along_rows = (int(cfg.kDim) == 0) != bool(cfg.isTranspose)
        if Q.check_types(api, "dstTensor", dst, ("half", "bfloat16_t")):
            fp4_rows(api, dst, src, scale, tmp, m, n, Q.group_size(api, cfg.policy, group), along_rows)
        return
    if not (Q.check_types(api, "dstTensor", dst, _DST) and Q.check_types(api, "srcTensor", src, B8_IN)):
        return
    table = Q.ANTI_CHANNEL if cfg.policy in (Q.TENSOR, Q.CHANNEL) and not derived_group else Q.ANTI_TOKEN
    for what, t in (("scale", scale), ("offset", offset if cfg.hasOffset else None)):
        if not Q.check_combo(api, f"{what}, dstTensor", (t, dst), table):
            return
    if not Q.check_rows(api, m, n, dst, src):
        return
    ops = (Q.extent("dstTensor", dst, m * n), Q.extent("srcTensor", src, m * n))
    if not (Q.apart(api, *ops) and Q.apart(api, ("sharedTmpBuffer", tmp, Q.row_bytes(n)), *ops)):
        return
    g = max(int(group), 1) if derived_group else Q.group_size(api, cfg.policy, group)
    rows = Q.float_rows(api, tmp, n)
    sp = Q.ParamRows(scale, cfg.policy, n, cfg.kDim, g, rows.s, cfg.isTranspose)
    op = Q.ParamRows(offset, cfg.policy, n, cfg.kDim, g, rows.o, cfg.isTranspose) if cfg.hasOffset else None
    for i in range(m):
        Q.widen(rows.x, src[i * n], n, rows.h)
        if op is not None:
            Q.apply(MB.Add, MB.Adds, rows.x, op.segments(i))
        Q.apply(MB.Mul, MB.Muls, rows.x, sp.segments(i))
        Q.narrow_float(dst[i * n], rows.x, n)


# -- AscendAntiQuant PER_CHANNEL / PER_TENSOR ---------------------------------------------------------------
def _half_rows(dst, src, offset, scale, m: int, n: int, cfg: Q.QuantCfg, group: int) -> None:
    """The page's half steps, directly in dst."""
    MB.Cast(dst, src, RoundMode.CAST_NONE, m * n)
    for i in range(m):
        row = dst[i * n]
        for p, vec, sc in ((offset, MB.Add, MB.Adds), (scale, MB.Mul, MB.Muls)):
            if p is None:
                continue
            if not isinstance(p, LocalTensor):
                sc(row, row, float(scalar_value(p)), n)
            elif not cfg.isTranspose:
                vec(row, row, p[(i // group) * n], n)
            else:
                width = -(-n // group)
                for c in range(0, n, group):
                    sc(row[c], row[c], float(p.GetValue(i * width + c // group)), min(group, n - c))


def _channel(api: str, dst, src, offset, scale, tmp, k: int, info: Q.AntiQuantShapeInfo | None, transpose: bool):
    if not (Q.check_types(api, "dst", dst, ("half", "bfloat16_t")) and Q.check_types(api, "src", src, B8_IN)):
        return
    for what, t in (("offset", offset), ("scale", scale)):
        if isinstance(t, LocalTensor) and t.dtype != dst.dtype:
            Q.bad(api, f"{what} is {type_name(t.dtype)}, dst {type_name(dst.dtype)}: they must match")
            return
    total = src.count
    if k <= 0 or total % k:
        Q.bad(api, f"k = {k} does not divide the source's {total} elements")
        return
    rows, n = (total // k, k) if transpose else (k, total // k)
    group = 1
    if isinstance(scale, LocalTensor):
        h, w = (int(info.scaleHeight), int(info.scaleWidth)) if info is not None else (0, 0)
        if not h or not w:
            h, w = (rows, scale.count // rows) if transpose else (1, scale.count)
        group = max(n // max(w, 1), 1) if transpose else max(rows // max(h, 1), 1)
    cfg = Q.QuantCfg(policy=Q.GROUP if isinstance(scale, LocalTensor) else Q.TENSOR, isTranspose=transpose, kDim=0)
    if dst.dtype == F16 and type_name(src.dtype) in ("int8_t", "hifloat8_t"):
        if Q.apart(api, Q.extent("dst", dst, total), Q.extent("src", src, total)):
            _half_rows(dst, src, offset, scale, rows, n, cfg, group)
        return
    cfg.hasOffset = offset is not None
    anti_rows(api, dst, src, scale, offset, rows, n, cfg, group, tmp, True)


def _ascend_anti_quant(dst, src, *args: Any, isTranspose: Any = False, config: Any = None, policy: Any = None):
    """PER_CHANNEL ``(dst, src, offset, scale[, tmp], k[, shapeInfo])`` / ``(dst, src, scale[, tmp], k[, shapeInfo])``,
    PER_TENSOR with scalars, and PER_TOKEN / PER_GROUP ``(dst, src, scale, offset[, tmp], para)``."""
    api = "AscendAntiQuant"
    tmp, rest = Q.split_tmp(args)
    if rest and isinstance(rest[-1], Q.AscendQuantParam):
        para = rest[-1]
        got = Q.token_rows(api, para, config, policy, "AscendAntiQuantParam")
        if got is None:
            return
        cfg, m, n = got
        anti_rows(api, dst, src, rest[0], rest[1], m, n, cfg, int(para.groupSize), tmp)
        return
    info = rest.pop() if rest and isinstance(rest[-1], Q.AntiQuantShapeInfo) else None
    k = int(scalar_value(rest.pop()))
    # the float4 form: an fp8_e8m0_t scale, groups of 32 (quant_low.anti_fp4)
    if len(rest) == 1 and isinstance(rest[0], LocalTensor) and type_name(rest[0].dtype) == "fp8_e8m0_t":
        anti_fp4(api, dst, src, rest[0], tmp, k, bool(int(scalar_value(isTranspose))))
        return
    if not rest:
        Q.bad(api, "no scale operand")
        return
    offset, scale = (rest[0], rest[1]) if len(rest) == 2 else (None, rest[0])
    _channel(api, dst, src, offset, scale, tmp, k, info, bool(int(scalar_value(isTranspose))))


def _anti_quantize(dst, src, scale, offset, *args: Any, config: Any = None) -> None:
    """``AntiQuantize<config>(dst, src, scale, offset[, tmp], params)``."""
    api = "AntiQuantize"
    tmp, rest = Q.split_tmp(args)
    params = rest[-1]
    cfg = Q.policy_cfg(api, config, scale)
    if cfg is None:
        return
    cfg.isTranspose = False
    anti_rows(api, dst, src, scale, offset, int(params.m), int(params.n), cfg, int(params.groupSize), tmp)


AscendAntiQuant = MemBaseApi(_ascend_anti_quant, "AscendAntiQuant", batchable=False)
AntiQuantize = MemBaseApi(_anti_quantize, "AntiQuantize", batchable=False)


# -- host side: three float rows and one half row of the last dimension --------------------------------------
def _size(srcShape) -> int:
    dims = srcShape.GetDims()
    return Q.row_bytes(dims[-1] if dims else 0)


def GetAscendAntiQuantMaxMinTmpSize(srcShape, scaleShape, isTranspose, inputDataType, outputDataType, maxValue,
                                    minValue) -> None:
    maxValue.value = minValue.value = _size(srcShape)


def GetAscendAntiQuantMaxTmpSize(srcShape, scaleShape, isTranspose, inputDataType, outputDataType) -> int:
    return _size(srcShape)


def GetAscendAntiQuantMinTmpSize(srcShape, scaleShape, isTranspose, inputDataType, outputDataType) -> int:
    return _size(srcShape)


def GetAscendAntiQuantTmpBufferFactorSize(srcShape, scaleShape, isTranspose, inputDataType, outputDataType,
                                          maxLiveNodeCount, extraBuf) -> None:
    """Rows of n: 14 n bytes + 4 x 32 B of alignment, for a 1 B source element."""
    maxLiveNodeCount.value, extraBuf.value = 14, 128


def GetAntiQuantizeMaxMinTmpSize(srcShape, scaleShape, isTranspose, inputDataType, outputDataType, maxValue,
                                 minValue) -> None:
    maxValue.value = minValue.value = _size(srcShape)


def GetAntiQuantizeTmpBufferFactorSize(srcShape, scaleShape, inputDataType, outputDataType, maxLiveNodeCount,
                                       extraBuf) -> None:
    maxLiveNodeCount.value, extraBuf.value = 14, 128
