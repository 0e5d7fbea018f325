"""``AscendC::AscendDequant`` and ``AscendC::Dequantize`` (高阶API/量化操作) and their temporary-size queries.

The AscendDequant page's steps, row by row: the int32 source row and the deqScale row cast to float
(uint64 deqScale: the float in its low 32 bits), the first calCount elements multiplied, the float row cast
to dstT (CAST_RINT). The row's remaining n_dst - calCount elements hold the converted source (the page calls
them undefined; its example shows the source values, which is what a whole-row cast gives). dst rows are
n_dst = n rounded up to 32 B of dstT apart. DEQUANT_WITH_SINGLE_ROW runs {1, n, c} as {n / c, c, c} when c
is a multiple of 32 / sizeof(dstT) and divides n. The deprecated forms without DequantParams (assumed: the
page does not say) run calCount elements as rows of deqScale's size (a scalar deqScale: one row).

PER_TOKEN / PER_GROUP and Dequantize: float rows of n, src (int32 or float) x scale, cast to dstT; offset
is reserved on both pages and not applied."""
from __future__ import annotations

from typing import Any

from toolkit.ascendc import membase as MB
from toolkit.ascendc.dtypes import scalar_value, type_name
from toolkit.ascendc.membase.elementwise import MemBaseApi
from toolkit.ascendc.membase.params import RoundMode
from toolkit.ascendc.tensor import LocalTensor

from . import quant_common as Q
from .quant_common import F32

_DST = ("half", "bfloat16_t", "float")


def dequant_rows(api: str, dst, src, scale, m: int, n: int, cnt: int, dst_stride: int, cfg: Q.QuantCfg,
                 group: int, tmp) -> None:
    """dst[i * dst_stride + j] = dstT(float(src[i * n + j]) * scale(i, j)) for j < cnt; the rest of the row:
    dstT(float(src))."""
    if not (Q.check_types(api, "dstTensor", dst, _DST) and Q.check_types(api, "srcTensor", src, ("int32_t", "float"))):
        return
    if not Q.check_rows(api, m, n, src):
        return
    if dst.count < (m - 1) * dst_stride + n or (dst_stride * dst.dtype.itemsize) % 32:
        Q.bad(api, f"{m} rows of {n} elements {dst_stride} apart do not fit dstTensor ({dst.count}) in 32 B rows")
        return
    ops = (Q.extent("dstTensor", dst, (m - 1) * dst_stride + n), Q.extent("srcTensor", src, m * n))
    if not (Q.apart(api, *ops) and Q.apart(api, ("sharedTmpBuffer", tmp, Q.row_bytes(n, 2, 0)), *ops)):
        return
    g = Q.group_size(api, cfg.policy, group)
    rows = Q.float_rows(api, tmp, n, nfloat=2, nhalf=0)
    # a per-channel deqScale is read for the calCount columns it has to hold (no further)
    sp = Q.ParamRows(scale, cfg.policy, cnt if cfg.policy == Q.CHANNEL else n, cfg.kDim, g, rows.s)
    for i in range(m):
        row, out = src[i * n], dst[i * dst_stride]
        x = out if dst.dtype == F32 else rows.x          # a float dst is the work row itself
        if src.dtype == F32:
            MB.Muls(x, row, 1.0, n)                      # an exact move (-0 stays -0)
        else:
            MB.Cast(x, row, RoundMode.CAST_NONE, n)
        segs = [(c, min(ln, cnt - c), v) for c, ln, v in sp.segments(i) if c < cnt]
        Q.apply(MB.Mul, MB.Muls, x, segs)
        if x is not out:
            Q.narrow_float(out, x, n)


def _shape(api: str, dst, params: Q.DequantParams, mode: Any) -> tuple[int, int, int, int]:
    m, n, c = int(params.m), int(params.n), int(params.calCount)
    size = dst.dtype.itemsize
    single = mode is None or int(getattr(mode, "value", mode)) == Q.DeQuantMode.DEQUANT_WITH_SINGLE_ROW.value
    if single and m == 1 and c > 0 and c % (32 // size) == 0 and n % c == 0:
        m, n = n // c, c
    if not 1 <= c <= n:
        Q.bad(api, f"calCount {c} must be in [1, n = {n}]")
    stride = Q.align32(n * size) // size
    return m, n, min(c, n), stride


def _ascend_dequant(dst, src, deqScale, *args: Any, mode: Any = None, config: Any = None, policy: Any = None) -> None:
    """``(dst, src, deqScale[, tmp], params)``, the deprecated ``(dst, src, deqScale[, tmp][, calCount])`` and the
    PER_TOKEN / PER_GROUP ``(dst, src, scaleTensor, offsetTensor[, tmp], para)``."""
    api = "AscendDequant"
    tmp, rest = Q.split_tmp(args)
    if rest and isinstance(rest[-1], Q.AscendQuantParam):
        para = rest[-1]
        got = Q.token_rows(api, para, config, policy, "AscendDeQuantParam")
        if got is None:
            return
        cfg, m, n = got
        if Q.check_combo(api, "srcTensor, scaleTensor, dstTensor", (src, deqScale, dst), Q.DEQ_TOKEN):
            dequant_rows(api, dst, src, deqScale, m, n, n, n, cfg, int(para.groupSize), tmp)
        return
    if not Q.check_types(api, "srcTensor", src, ("int32_t",)):
        return
    if isinstance(deqScale, LocalTensor):
        if not Q.check_combo(api, "dstTensor, deqScale", (dst, deqScale), Q.DEQ_CHANNEL):
            return
    elif not Q.check_types(api, "dstTensor (a scalar deqScale)", dst, ("bfloat16_t", "float")):
        return
    if rest and isinstance(rest[-1], Q.DequantParams):
        m, n, c, stride = _shape(api, dst, rest[-1], mode)
    else:
        count = int(scalar_value(rest[0])) if rest else src.count
        n = deqScale.count if isinstance(deqScale, LocalTensor) else count
        n = min(n, count) or 1
        m, c, stride = count // n, n, n
    cfg = Q.QuantCfg(policy=Q.CHANNEL if isinstance(deqScale, LocalTensor) else Q.TENSOR)
    if isinstance(deqScale, LocalTensor) and deqScale.count < c:
        Q.bad(api, f"deqScale holds {deqScale.count} elements, calCount is {c}")
        return
    dequant_rows(api, dst, src, deqScale, m, n, c, stride, cfg, 0, tmp)


def _dequantize(dst, src, scale, offset, *args: Any, config: Any = None) -> None:
    """``Dequantize<config>(dst, src, scale, offset[, tmp], params)``."""
    api = "Dequantize"
    tmp, rest = Q.split_tmp(args)
    params = rest[-1]
    cfg = Q.policy_cfg(api, config, scale)
    if cfg is None:
        return
    if isinstance(scale, LocalTensor) and scale.dtype == Q.U64 and (cfg.policy != Q.CHANNEL
                                                                    or type_name(dst.dtype) != "half"):
        Q.bad(api, "an uint64_t scale is the PER_CHANNEL form with a half dstTensor")
        return
    if cfg.policy == Q.TENSOR:
        ok = Q.check_types(api, "srcTensor", src, ("int32_t",)) and Q.check_types(api, "dstTensor", dst,
                                                                                ("bfloat16_t", "float"))
    elif cfg.policy == Q.CHANNEL:
        ok = Q.check_types(api, "srcTensor", src, ("int32_t",)) and Q.check_combo(api, "dstTensor, scale",
                                                                                (dst, scale), Q.DEQ_CHANNEL)
    else:
        ok = Q.check_combo(api, "srcTensor, scale, dstTensor", (src, scale, dst), Q.DEQ_TOKEN)
    n = int(params.n)
    if ok:
        dequant_rows(api, dst, src, scale, int(params.m), n, n, n, cfg, int(params.groupSize), tmp)


AscendDequant = MemBaseApi(_ascend_dequant, "AscendDequant", batchable=False)
Dequantize = MemBaseApi(_dequantize, "Dequantize", batchable=False)


# -- host side: two float rows of the last dimension ------------------------------------------------------
def _row(srcShape) -> int:
    dims = srcShape.GetDims()
    return dims[-1] if dims else 0


def GetAscendDequantMaxMinTmpSize(srcShape, typeSize, maxValue, minValue) -> None:
    maxValue.value = minValue.value = Q.row_bytes(_row(srcShape), 2, 0)


def GetAscendDequantTmpBufferFactorSize(srcShape, maxLiveNodeCount, extraBuf) -> None:
    """Two float rows of n: 2 x n x 4 B + 64 B of alignment (int32 source: 4 B per element)."""
    maxLiveNodeCount.value, extraBuf.value = 2, 64


def GetDequantizeMaxMinTmpSize(srcShape, typeSize, maxValue, minValue) -> None:
    GetAscendDequantMaxMinTmpSize(srcShape, typeSize, maxValue, minValue)


def GetDequantizeTmpBufferFactorSize(srcShape, maxLiveNodeCnt, extraBuf) -> None:
    GetAscendDequantTmpBufferFactorSize(srcShape, maxLiveNodeCnt, extraBuf)
