"""``AscendC::AscendQuant`` and ``AscendC::Quantize`` (高阶API/量化操作), with their host-side temporary-size
queries; this module is also the Python namespace of the whole family (it re-exports dequant / antiquant).

AscendQuant, int8 output, PER_TENSOR / PER_CHANNEL: the page's steps in half: a float source (and float
scale / offset tensors; a bfloat16 one of the dstT forms alike, assumed) cast to half (CAST_RINT), Muls / Mul by the scale, Adds / Add of the offset, then the half value
cast to int8 with CAST_RINT (round half to even, saturating). The temporary buffer holds the half values.

AscendQuant PER_TOKEN / PER_GROUP and Quantize (every policy): row by row in float (assumed: the pages
give no precision): source and scale / offset widened to float, x * scale (+ offset), then float -> half
with CAST_ODD and half -> int8 with the configured round mode. Round-to-odd keeps the sticky bit, so the two
steps round the float value exactly once (half has 3 fraction bits left below 256, every larger value
saturates). A round mode int8 does not support falls back to CAST_RINT, as the pages say. The 8- and 4-bit
float outputs (fp8_e4m3fn_t, fp8_e5m2_t, hifloat8_t; fp4x2_* in PER_GROUP): :mod:`.quant_low` (the half path
ends half -> hifloat8, or half -> float -> fp8 through 256 B more of the temporary buffer)."""
from __future__ import annotations

from typing import Any

from toolkit.ascendc import membase as MB
from toolkit.ascendc.dtypes import scalar_value, type_name
from toolkit.ascendc.membase.elementwise import MemBaseApi
from toolkit.ascendc.membase.params import RoundMode
from toolkit.ascendc.tensor import LocalTensor

from . import quant_common as Q
from . import quant_low as QL
from .antiquant import (AntiQuantize, AscendAntiQuant, GetAntiQuantizeMaxMinTmpSize,  # noqa: F401 (namespace)
                        GetAntiQuantizeTmpBufferFactorSize, GetAscendAntiQuantMaxMinTmpSize,
                        GetAscendAntiQuantMaxTmpSize, GetAscendAntiQuantMinTmpSize,
                        GetAscendAntiQuantTmpBufferFactorSize)
from .dequant import (AscendDequant, Dequantize, GetAscendDequantMaxMinTmpSize,  # noqa: F401 (namespace)
                      GetAscendDequantTmpBufferFactorSize, GetDequantizeMaxMinTmpSize, GetDequantizeTmpBufferFactorSize)
from .quant_common import F16, F32
from .tmpbuf import carve, tmp_buffer

_INT8_MODES = {RoundMode.CAST_RINT, RoundMode.CAST_ROUND, RoundMode.CAST_FLOOR, RoundMode.CAST_CEIL,
               RoundMode.CAST_TRUNC}
_SRC = ("half", "bfloat16_t", "float")


def _split(args: tuple) -> tuple[LocalTensor | None, list]:
    rest = list(args)
    tmp = rest.pop(0) if rest and isinstance(rest[0], LocalTensor) and rest[0].dtype == Q.U8 else None
    return tmp, rest


# -- AscendQuant PER_TENSOR / PER_CHANNEL (half arithmetic) ----------------------------------------------------
def half_need(src_dtype, count: int, sc: int, fp8_out: bool = False) -> int:
    """Bytes of the half path: the half values, plus half copies of a float / bfloat16 scale / offset tensor
    (``fp8_out``: plus a 64-float scratch for the half -> float -> fp8 step)."""
    extra = 2 * Q.align32(2 * max(sc, 1)) if src_dtype != F16 and sc else 0
    return Q.align32(2 * max(count, 1)) + extra + (256 if fp8_out else 0)


def _as_half(dst_h: LocalTensor, t: LocalTensor, n: int) -> LocalTensor:
    if t.dtype == F16:
        return t
    MB.Cast(dst_h, t, RoundMode.CAST_RINT, n)         # float / bfloat16 -> half, nearest even
    return dst_h


def _quant_half(api: str, dst, src, tmp, scale, offset, sc: int, count: int) -> None:
    if count <= 0:
        return
    if sc and (count % sc or sc % 32):
        Q.bad(api, f"calCount {count} must be a multiple of scaleCount {sc}, itself a multiple of 32")
        return
    fp8_out = dst.dtype in (QL.lf.FP8_E4M3FN, QL.lf.FP8_E5M2)
    need = half_need(src.dtype, count, sc, fp8_out)
    if not Q.apart(api, ("sharedTmpBuffer", tmp, need), Q.extent("dstTensor", dst, count),
                   Q.extent("srcTensor", src, count), Q.extent("scaleTensor", scale, sc),
                   Q.extent("offsetTensor", offset, sc)):
        return
    buf = tmp_buffer(api, tmp, need)
    h, off = carve(buf, F16, count, 0)
    sh = oh = None
    if sc:
        sh_buf, off = carve(buf, F16, sc, off)
        oh_buf, off = carve(buf, F16, sc, off)
        sh = _as_half(sh_buf, scale, sc)
        oh = _as_half(oh_buf, offset, sc) if isinstance(offset, LocalTensor) else None
    xs = _as_half(h, src, count)
    if sc:
        for r in range(0, count, sc):
            MB.Mul(h[r], xs[r], sh, sc)
            if oh is not None:
                MB.Add(h[r], h[r], oh, sc)
            else:
                MB.Adds(h[r], h[r], float(scalar_value(offset)), sc)
    else:
        MB.Muls(h, xs, float(scalar_value(scale)), count)
        MB.Adds(h, h, float(scalar_value(offset)), count)
    if QL.is_low(dst):
        f = carve(buf, F32, 64, need - 256)[0] if fp8_out else None
        QL.fp8_tail(dst, h, f, count, RoundMode.CAST_ROUND)
        return
    MB.Cast(dst, h, RoundMode.CAST_RINT, count)


# -- the float row path (PER_TOKEN / PER_GROUP, Quantize) ----------------------------------------------------
def quant_rows(api: str, dst, src, scale, offset, m: int, n: int, cfg: Q.QuantCfg, group: int, tmp) -> None:
    if not (Q.check_types(api, "dstTensor", dst, QL.out_types(cfg.policy)) and
            Q.check_types(api, "srcTensor", src, _SRC)):
        return
    for what, p in (("scale", scale), ("offset", offset if cfg.hasOffset else None)):
        if not Q.check_combo(api, f"srcTensor, {what}", (src, p), Q.QUANT_SRC_SCALE):
            return
    packed = dst.dtype in QL.lf.PACKED4
    if not (Q.check_rows(api, m, n, *((src,) if packed else (dst, src))) and QL.check_fp4(api, dst, src, scale, m, n)):
        return
    ops = (Q.extent("dstTensor", dst, m * n // (2 if packed else 1)), Q.extent("srcTensor", src, m * n))
    if not Q.apart(api, ("sharedTmpBuffer", tmp, Q.row_bytes(n)), *ops) or (
            api == "Quantize" and not Q.apart(api, *ops)):     # AscendQuant: src and dst may be one buffer
        return
    g = Q.group_size(api, cfg.policy, group)
    mode = cfg.roundMode if cfg.roundMode in _INT8_MODES else RoundMode.CAST_RINT
    rows = Q.float_rows(api, tmp, n)
    sp = Q.ParamRows(scale, cfg.policy, n, cfg.kDim, g, rows.s)
    op = Q.ParamRows(offset, cfg.policy, n, cfg.kDim, g, rows.o) if cfg.hasOffset else None
    for i in range(m):
        x = Q.widen(rows.x, src[i * n], n, None)
        segs = sp.segments(i)
        if x is not rows.x:                       # a float source: the first product goes to the work row
            for c, ln, v in segs:
                (MB.Mul(rows.x[c], x[c], v[c], ln) if isinstance(v, LocalTensor)
                 else MB.Muls(rows.x[c], x[c], v, ln))
        else:
            Q.apply(MB.Mul, MB.Muls, rows.x, segs)
        if op is not None:
            Q.apply(MB.Add, MB.Adds, rows.x, op.segments(i))
        if QL.is_low(dst):
            QL.store_row(dst, i, n, rows.x, rows.h, cfg.roundMode)
            continue
        MB.Cast(rows.h, rows.x, RoundMode.CAST_ODD, n)
        MB.Cast(dst[i * n], rows.h, mode, n)


# -- AscendQuant ------------------------------------------------------------------------------------------
def _ascend_quant(dst, src, *args: Any, config: Any = None, policy: Any = None) -> None:
    """Every AscendQuant overload: ``(dst, src[, tmp], scale, offset[, calCount])``, ``(dst, src[, tmp],
    scaleTensor, offset | offsetTensor[, scaleCount[, offsetCount], calCount])`` and the PER_TOKEN / PER_GROUP
    ``(dst, src[, tmp], scaleTensor, offset | offsetTensor, para)`` (config / policy template arguments)."""
    api = "AscendQuant"
    tmp, rest = _split(args)
    if rest and isinstance(rest[-1], Q.AscendQuantParam):
        para = rest[-1]
        cfg = Q.decode_cfg(config, policy)
        if cfg.policy not in (Q.TOKEN, Q.GROUP):
            Q.bad(api, "the AscendQuantParam form runs PER_TOKEN or PER_GROUP only (the other policies are reserved)")
            return
        if int(para.calCount) % max(int(para.n), 1):
            Q.bad(api, f"calCount {para.calCount} must be a multiple of n {para.n}")
        m = min(int(para.m), int(para.calCount) // max(int(para.n), 1))
        quant_rows(api, dst, src, rest[0], rest[1], m, int(para.n), cfg, int(para.groupSize), None)
        return
    if not (Q.check_types(api, "dstTensor", dst, QL.B8_OUT) and Q.check_types(api, "srcTensor", src, _SRC)):
        return
    scale, offset, counts = rest[0], rest[1], [int(scalar_value(v)) for v in rest[2:]]
    if isinstance(scale, LocalTensor):
        for what, t in (("scaleTensor", scale), ("offsetTensor", offset)):
            if isinstance(t, LocalTensor) and t.dtype != src.dtype:
                Q.bad(api, f"{what} is {type_name(t.dtype)}, srcTensor {type_name(src.dtype)}: they must match")
                return
        sc = counts[0] if counts else scale.count
        if len(counts) == 3 and counts[1] != sc:
            Q.bad(api, f"offsetCount {counts[1]} must equal scaleCount {sc}")
        count = counts[-1] if len(counts) >= 2 else src.count
        _quant_half(api, dst, src, tmp, scale, offset, sc, count)
        return
    count = counts[0] if counts else src.count
    _quant_half(api, dst, src, tmp, scale, offset, 0, count)


# -- Quantize ----------------------------------------------------------------------------------------------
def _quantize(dst, src, *args: Any, config: Any = None) -> None:
    """``Quantize<config>(dst, src[, tmp], scale, offset, params)``: scale / offset scalars or tensors."""
    api = "Quantize"
    tmp, rest = _split(args)
    scale, offset, params = rest
    cfg = Q.policy_cfg(api, config, scale)
    if cfg is None:
        return
    quant_rows(api, dst, src, scale, offset, int(params.m), int(params.n), cfg, int(params.groupSize), tmp)


AscendQuant = MemBaseApi(_ascend_quant, "AscendQuant", batchable=False)
Quantize = MemBaseApi(_quantize, "Quantize", batchable=False)


# -- host side --------------------------------------------------------------------------------------------
def _ts(typeSize: Any) -> int:
    return int(scalar_value(typeSize))


def GetAscendQuantMaxMinTmpSize(srcShape, typeSize, maxValue, minValue) -> None:
    """The half path over the whole shape; a float source: plus half copies of scale and offset (both values).
    typeSize 2: the minimum is a half source's, the maximum covers a bfloat16 one (its half copies too)."""
    count = srcShape.GetShapeSize()
    maxValue.value = half_need(F32, count, count, True)         # an fp8 dstT: + the 256 B float scratch
    minValue.value = half_need(F32 if _ts(typeSize) == 4 else F16, count, count)


def GetAscendQuantTmpBufferFactorSize(maxLiveNodeCount, extraBuf) -> None:
    """An upper bound of the half path for either source type: 3 x count x typeSize + 96 B (+ 256 B: the float
    scratch of an fp8 dstT)."""
    maxLiveNodeCount.value, extraBuf.value = 3, 96 + 256


def GetQuantizeMaxMinTmpSize(srcShape, typeSize, maxValue, minValue) -> None:
    """Three float rows and one half row of the source's last dimension."""
    dims = srcShape.GetDims()
    maxValue.value = minValue.value = Q.row_bytes(dims[-1] if dims else 0)


def GetQuantizeTmpBufferFactorSize(maxLiveNodeCount, extraBuf) -> None:
    """Rows of n elements: 14 n bytes + 4 x 32 B alignment, bounded by 7 x n x typeSize + 128 for typeSize 2 / 4."""
    maxLiveNodeCount.value, extraBuf.value = 7, 128

