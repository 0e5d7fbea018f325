"""``AscendC::`` element-wise activations of the high-level library (高阶API/激活函数): Gelu, FasterGelu,
FasterGeluV2, Silu, Swish, Sigmoid, SwiGLU, GeGLU, ReGlu, and their host-side temporary-size helpers.

Each is a chain of MemBase calls in float (:mod:`.elementwise`); half (and bfloat16 where documented) goes
through float in the temporary buffer. The formulas (the pages give them as images; the vendor's example
outputs confirm which source is gated in the GLU variants):

- Gelu(x) = x / (1 + exp(-2 sqrt(2/pi) (x + 0.044715 x^3)))  (the tanh form, simplified)
- FasterGelu(x) = x / (1 + exp(-1.702 x))
- FasterGeluV2(x) = x (sgn(x) (a (min(|x| / sqrt(2), -b) + b)^2 + c) + 0.5), a = -0.1444, b = -1.769, c = 0.5
  (the 1/sqrt(2) scaling: the page's example outputs need it)
- Silu(x) = x / (1 + exp(-x)); Swish(x, beta) = x / (1 + exp(-beta x)); Sigmoid(x) = 1 / (1 + exp(-x))
- SwiGLU(a, b, beta) = a * Swish(b, beta); GeGLU(a, b) = a * Gelu(b); ReGlu(a, b) = a * max(b, 0)
"""
from __future__ import annotations

from typing import Any

import numpy as np

from toolkit.ascendc import membase as MB
from toolkit.ascendc.dtypes import scalar_value
from toolkit.ascendc.membase.elementwise import MemBaseApi
from toolkit.ascendc.tensor import LocalTensor

from .elementwise import gelu_into, run_chain, swish_into, tmp_sizes
from .shape import TensorShape

U8 = np.dtype(np.uint8)
FASTER_GELU_K = 1.702
V2_A, V2_B, V2_C = -0.1444, -1.769, 0.5
INV_SQRT2 = 0.7071067811865476


def split(args: tuple, ndata: int) -> tuple[list, LocalTensor | None, list]:
    """(the ``ndata`` data tensors, the uint8 sharedTmpBuffer if one follows, the remaining arguments)."""
    data = list(args[:ndata])
    rest = list(args[ndata:])
    tmp = None
    if rest and isinstance(rest[0], LocalTensor):
        tmp = rest.pop(0)
    return data, tmp, rest


def _count(rest: list, default: int) -> int:
    return int(scalar_value(rest[0])) if rest else int(default)


# -- unary activations ----------------------------------------------------------------------------------
def _gelu(dst, src, *args: Any, highPrecision: bool = False, highPerformance: bool = False) -> None:
    """``Gelu(dst, src[, sharedTmpBuffer], dataSize)`` (highPrecision / highPerformance accepted: float math)."""
    _, tmp, rest = split((dst, src, *args), 2)
    run_chain("Gelu", dst, (src,), tmp, _count(rest, src.count), 1, lambda o, i, t, n: gelu_into(o, i[0], t[0], n))


def _faster_gelu(dst, src, *args: Any, highPrecision: bool = False, highPerformance: bool = False) -> None:
    """``FasterGelu(dst, src[, sharedTmpBuffer], dataSize)``: x / (1 + exp(-1.702 x))."""
    _, tmp, rest = split((dst, src, *args), 2)
    run_chain("FasterGelu", dst, (src,), tmp, _count(rest, src.count), 1,
              lambda o, i, t, n: swish_into(o, i[0], t[0], FASTER_GELU_K, n))


def _v2_body(out, ins, temps, n: int) -> None:
    x, t, s = ins[0], temps[0], temps[1]
    MB.Abs(t, x, n)
    MB.Muls(t, t, INV_SQRT2, n)
    MB.Mins(t, t, -V2_B, n)
    MB.Adds(t, t, V2_B, n)
    MB.Mul(t, t, t, n)
    MB.Muls(t, t, V2_A, n)
    MB.Adds(t, t, V2_C, n)
    _sign(s, x, n)
    MB.Mul(t, t, s, n)
    MB.Adds(t, t, 0.5, n)
    MB.Mul(out, t, x, n)


def _sign(s, x, n: int) -> None:
    """s = sgn(x) in float: x / (|x| + tiny) rounded to {-1, 0, 1} by clamping (no branch, MemBase only)."""
    MB.Muls(s, x, 2.0 ** 100, n)            # push every non-zero finite value past +-1
    MB.Mins(s, s, 1.0, n)
    MB.Maxs(s, s, -1.0, n)


def _faster_gelu_v2(dst, src, *args: Any, highPrecision: bool = False, highPerformance: bool = False) -> None:
    """``FasterGeluV2(dst, src[, sharedTmpBuffer], dataSize)``."""
    _, tmp, rest = split((dst, src, *args), 2)
    run_chain("FasterGeluV2", dst, (src,), tmp, _count(rest, src.count), 2, _v2_body)


def _silu(dst, src, dataSize, isReuseSource: bool = False) -> None:
    """``Silu(dst, src, dataSize)``: x / (1 + exp(-x)), temporary space reserved by the framework."""
    run_chain("Silu", dst, (src,), None, int(scalar_value(dataSize)), 1,
              lambda o, i, t, n: swish_into(o, i[0], t[0], 1.0, n))


def _swish(dst, src, dataSize, scalarValue, isReuseSource: bool = False) -> None:
    """``Swish(dst, src, dataSize, beta)``: x / (1 + exp(-beta x))."""
    beta = float(scalar_value(scalarValue))
    run_chain("Swish", dst, (src,), None, int(scalar_value(dataSize)), 1,
              lambda o, i, t, n: swish_into(o, i[0], t[0], beta, n))


def _sigmoid_body(out, ins, temps, n: int) -> None:
    MB.Muls(out, ins[0], -1.0, n)
    MB.Exp(out, out, n)
    MB.Adds(out, out, 1.0, n)
    MB.Reciprocal(out, out, n)


def _sigmoid(dst, src, *args: Any, isReuseSource: bool = False) -> None:
    """``Sigmoid(dst, src[, sharedTmpBuffer][, calCount])``: 1 / (1 + exp(-x))."""
    _, tmp, rest = split((dst, src, *args), 2)
    run_chain("Sigmoid", dst, (src,), tmp, _count(rest, src.count), 0, _sigmoid_body)


# -- gated linear units ----------------------------------------------------------------------------------
def _swiglu(dst, src0, src1, scalarValue, *args: Any, isReuseSource: bool = False) -> None:
    """``SwiGLU(dst, src0, src1, beta[, sharedTmpBuffer][, calCount])``: src0 * Swish(src1, beta)."""
    beta = float(scalar_value(scalarValue))
    tmp = args[0] if args and isinstance(args[0], LocalTensor) else None
    rest = list(args[1:] if tmp is not None else args)

    def body(out, ins, temps, n):
        swish_into(temps[1], ins[1], temps[0], beta, n)
        MB.Mul(out, ins[0], temps[1], n)
    run_chain("SwiGLU", dst, (src0, src1), tmp, _count(rest, src0.count), 2, body)


def _geglu(dst, src0, src1, *args: Any, isReuseSource: bool = False) -> None:
    """``GeGLU(dst, src0, src1[, sharedTmpBuffer][, calCount])``: src0 * Gelu(src1)."""
    _, tmp, rest = split((dst, src0, src1, *args), 3)

    def body(out, ins, temps, n):
        gelu_into(temps[1], ins[1], temps[0], n)
        MB.Mul(out, ins[0], temps[1], n)
    run_chain("GeGLU", dst, (src0, src1), tmp, _count(rest, src0.count), 2, body)


def _reglu(dst, src0, src1, *args: Any, isReuseSource: bool = False) -> None:
    """``ReGlu(dst, src0, src1[, sharedTmpBuffer], calCount)``: src0 * max(src1, 0)."""
    _, tmp, rest = split((dst, src0, src1, *args), 3)

    def body(out, ins, temps, n):
        MB.Maxs(temps[0], ins[1], 0.0, n)
        MB.Mul(out, ins[0], temps[0], n)
    run_chain("ReGlu", dst, (src0, src1), tmp, _count(rest, src0.count), 1, body,
              types=("half", "bfloat16_t", "float"))


Gelu = MemBaseApi(_gelu, "Gelu", batchable=False)
FasterGelu = MemBaseApi(_faster_gelu, "FasterGelu", batchable=False)
FasterGeluV2 = MemBaseApi(_faster_gelu_v2, "FasterGeluV2", batchable=False)
Silu = MemBaseApi(_silu, "Silu", batchable=False)
Swish = MemBaseApi(_swish, "Swish", batchable=False)
Sigmoid = MemBaseApi(_sigmoid, "Sigmoid", batchable=False)
SwiGLU = MemBaseApi(_swiglu, "SwiGLU", batchable=False)
GeGLU = MemBaseApi(_geglu, "GeGLU", batchable=False)
ReGlu = MemBaseApi(_reglu, "ReGlu", batchable=False)


# -- host side: temporary sizes (one formula: elementwise.tmp_sizes of each chain) -----------------------
def _dtype_of(typeSize: Any) -> np.dtype:
    return np.dtype(np.float32) if int(scalar_value(typeSize)) == 4 else np.dtype(np.float16)


def _sizes(shape: TensorShape, typeSize: Any, ninputs: int, ntemps: int) -> tuple[int, int]:
    return tmp_sizes(shape.GetShapeSize(), _dtype_of(typeSize), ninputs, ntemps)


def _set(maxValue: Any, minValue: Any, sizes: tuple[int, int]) -> None:
    maxValue.value, minValue.value = sizes


#: (inputs, float temporaries) of each chain, as run above
CHAINS = {"Gelu": (1, 1), "Silu": (1, 1), "Swish": (1, 1), "Sigmoid": (1, 0), "SwiGLU": (2, 2), "GeGLU": (2, 2),
          "ReGlu": (2, 1)}


def GetGeluMaxMinTmpSize(srcShape, typeSize, maxValue, minValue) -> None:
    _set(maxValue, minValue, _sizes(srcShape, typeSize, *CHAINS["Gelu"]))


def GetGeluMaxTmpSize(srcShape, typeSize) -> int:
    return _sizes(srcShape, typeSize, *CHAINS["Gelu"])[0]


def GetGeluMinTmpSize(srcShape, typeSize) -> int:
    return _sizes(srcShape, typeSize, *CHAINS["Gelu"])[1]


def GetSiluTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue) -> None:
    _set(maxValue, minValue, _sizes(srcShape, typeSize, *CHAINS["Silu"]))


def GetSwishTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue) -> None:
    _set(maxValue, minValue, _sizes(srcShape, typeSize, *CHAINS["Swish"]))


def GetSigmoidMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue) -> None:
    _set(maxValue, minValue, _sizes(srcShape, typeSize, *CHAINS["Sigmoid"]))


def GetSwiGLUMaxMinTmpSize(srcShape, typeSize, maxValue, minValue, isReuseSource=False) -> None:
    _set(maxValue, minValue, _sizes(srcShape, typeSize, *CHAINS["SwiGLU"]))


def GetGeGLUMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue) -> None:
    _set(maxValue, minValue, _sizes(srcShape, typeSize, *CHAINS["GeGLU"]))


def GetReGluMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue) -> None:
    _set(maxValue, minValue, _sizes(srcShape, typeSize, *CHAINS["ReGlu"]))


def _factor(api: str, typeSize: Any, maxLiveNodeCount: Any, extraBuf: Any) -> None:
    """tmp bytes = maxLiveNodeCount * count * typeSize + extraBuf covers the chain's float buffers (each
    rounded up to a whole 256 B vector: the extra)."""
    ninputs, ntemps = CHAINS[api]
    size = int(scalar_value(typeSize))
    nbuf = ntemps + (0 if size == 4 else ninputs + 1)
    maxLiveNodeCount.value = -(-nbuf * 4 // size)
    extraBuf.value = nbuf * 256


def GetSwiGLUTmpBufferFactorSize(typeSize, maxLiveNodeCount, extraBuffer) -> None:
    _factor("SwiGLU", typeSize, maxLiveNodeCount, extraBuffer)


def GetGeGLUTmpBufferFactorSize(typeSize, maxLiveNodeCount, extraBuf) -> None:
    _factor("GeGLU", typeSize, maxLiveNodeCount, extraBuf)
