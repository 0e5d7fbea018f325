"""membase/full_load: every vector step is a LocalTensor API call on UB, with fp32 temporaries in the
``wsBuffer`` TBuf (rows*(3*dv + 8*dk) floats) and an fp32 copy of gamma. Each call runs as its own small
VF on Ascend 950. The folds hard-wire dv = 512 and the RoPE repeat strides hard-wire dk = 128.
"""
from __future__ import annotations

from toolkit.ascendc.dma import DataCopy
from toolkit.ascendc.dtypes import bfloat16_t, uint64_t
from toolkit.ascendc.membase import (
    Add,
    Adds,
    BinaryRepeatParams,
    Brcb,
    BrcbRepeatParams,
    Cast,
    Div,
    GatherMask,
    GatherMaskParams,
    Mul,
    Muls,
    RoundMode,
    Sqrt,
    WholeReduceSum,
)
from toolkit.ascendc.pipe import TBuf, TPipe, TPosition

from .common import Align, KvRmsNormRopeCacheBase

NUM_THREE, NUM_EIGHT, NUM_SIXTEEN = 3, 8, 16
FP32_REPEAT = 64
FULL_MASK = [0xFFFFFFFFFFFFFFFF, 0xFFFFFFFFFFFFFFFF]


class KernelKvRmsNormRopeCache(KvRmsNormRopeCacheBase):
    """membase/full_load."""

    def GammaBufferBytes(self) -> int:
        return Align(self.dv, 4) + Align(self.dv, 2)

    def InitWorkspace(self, pipe: TPipe) -> None:
        self.wsBuffer = TBuf(TPosition.VECCALC)
        pipe.InitBuffer(self.wsBuffer, self.ubFactor * (self.dv * NUM_THREE + self.dk * NUM_EIGHT) * 4)

    def CopyInGamma(self):
        dv = self.dv
        gammaLocal = self.gammaQueue.AllocTensor(float)
        DataCopy(gammaLocal[dv].ReinterpretCast(bfloat16_t), self.gammaGm, dv)
        self.gammaQueue.EnQue(gammaLocal)
        gammaLocal = self.gammaQueue.DeQue(float)
        Cast(gammaLocal, gammaLocal[dv].ReinterpretCast(bfloat16_t), RoundMode.CAST_NONE, dv)
        return gammaLocal

    def RmsNorm(self, outLocal, xLocal, gammaLocal, rows: int) -> None:
        dv = self.dv
        ws = self.wsBuffer.Get(float)
        xFp32 = ws
        square = ws[rows * dv]
        rowSum = ws[2 * rows * dv]
        Cast(xFp32, xLocal, RoundMode.CAST_NONE, rows * dv)
        Mul(square, xFp32, xFp32, rows * dv)
        foldParams = BinaryRepeatParams(1, 1, 1, NUM_EIGHT, NUM_SIXTEEN, NUM_SIXTEEN)
        Add(square, square, square[FP32_REPEAT], FULL_MASK, 4 * rows, foldParams)
        Add(square, square, square[FP32_REPEAT], FULL_MASK, 2 * rows, foldParams)
        Add(square, square, square[FP32_REPEAT], FULL_MASK, rows, foldParams)
        WholeReduceSum(rowSum, square, FP32_REPEAT, rows, 1, 1, NUM_EIGHT)
        Muls(rowSum, rowSum, self.tiling.reciprocal, rows)
        Adds(rowSum, rowSum, self.tiling.epsilon, rows)
        Sqrt(rowSum, rowSum, rows)
        Brcb(square, rowSum, (rows + NUM_EIGHT - 1) // NUM_EIGHT, BrcbRepeatParams(1, NUM_EIGHT))
        divParams = BinaryRepeatParams(1, 1, 0, NUM_EIGHT, NUM_EIGHT, 0)
        for row in range(rows):
            Div(xFp32[row * dv], xFp32[row * dv], square[row * NUM_EIGHT], FULL_MASK, NUM_EIGHT, divParams)
        for row in range(rows):
            Mul(xFp32[row * dv], xFp32[row * dv], gammaLocal, dv)
        Cast(outLocal, xFp32, RoundMode.CAST_RINT, rows * dv)

    def Rope(self, outLocal, ropeLocal, cosSinLocal, rows: int) -> None:
        dv, dk = self.dv, self.dk
        half = dk // 2
        n = rows * dk
        ws = self.wsBuffer.Get(float)
        base = rows * dv
        cosFp32 = ws[base]
        sinFp32 = ws[base + n]
        y0 = ws[base + 2 * n]
        y1 = ws[base + 3 * n]
        realFp32 = ws[base + 4 * n]
        imagFp32 = ws[base + 5 * n]
        realLocal = ws[base + 6 * n].ReinterpretCast(bfloat16_t)
        imagLocal = realLocal[n]
        Cast(cosFp32, cosSinLocal, RoundMode.CAST_NONE, n)
        Cast(sinFp32, cosSinLocal[n], RoundMode.CAST_NONE, n)
        rsvdCnt = uint64_t(0)
        gatherParams = GatherMaskParams(1, 1, NUM_EIGHT, 0)
        GatherMask(realLocal, ropeLocal, 1, True, n, gatherParams, rsvdCnt)
        GatherMask(imagLocal, ropeLocal, 2, True, n, gatherParams, rsvdCnt)
        Cast(realFp32, realLocal, RoundMode.CAST_NONE, n // 2)
        Cast(imagFp32, imagLocal, RoundMode.CAST_NONE, n // 2)
        halfParams = BinaryRepeatParams(1, 1, 1, NUM_SIXTEEN, NUM_EIGHT, NUM_SIXTEEN)
        Mul(y0, realFp32, cosFp32, FP32_REPEAT, rows, halfParams)
        Mul(y0[half], imagFp32, cosFp32[half], FP32_REPEAT, rows, halfParams)
        Muls(imagFp32, imagFp32, -1.0, rows * half)
        Mul(y1, imagFp32, sinFp32, FP32_REPEAT, rows, halfParams)
        Mul(y1[half], realFp32, sinFp32[half], FP32_REPEAT, rows, halfParams)
        Add(y0, y0, y1, n)
        Cast(outLocal, y0, RoundMode.CAST_RINT, n)


def kv_rms_norm_rope_cache(kv, gamma, cos, sin, index, kCache, vCache, kOut, vOut, tiling):
    """``extern "C" __global__ __aicore__`` entry of membase/full_load."""
    pipe = TPipe()
    op = KernelKvRmsNormRopeCache()
    op.Init(kv, gamma, cos, sin, index, kCache, vCache, kOut, vOut, tiling, pipe)
    op.Process()
