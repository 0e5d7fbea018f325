"""regbase/full_load: the hot compute chains as two VFs on registers; outer data flow unchanged.

RmsNormVF keeps the square-sum, rms and 1/rms in registers (no fp32 workspace, bf16 gamma cast per
chunk); RopeVF splits real/imag with RegLayout ZERO/ONE casts of one plain load. Both VFs are called
directly (no asc_vf_call), as in the sample.
"""
from __future__ import annotations

from toolkit.ascendc import regbase as Reg
from toolkit.ascendc.dma import DataCopy
from toolkit.ascendc.dtypes import bfloat16_t, uint16_t, uint32_t
from toolkit.ascendc.pipe import TPipe
from toolkit.ascendc.regbase import VLOOP, __simd_vf__

from .common import Align, KvRmsNormRopeCacheBase

VL_FP32_SIZE = 256 // 4
castTraitB16ToB32 = Reg.CastTrait(Reg.RegLayout.ZERO, Reg.SatMode.UNKNOWN, Reg.MaskMergeMode.ZEROING,
                                  Reg.RoundMode.CAST_NONE)
castTraitB16ToB32Odd = Reg.CastTrait(Reg.RegLayout.ONE, Reg.SatMode.UNKNOWN, Reg.MaskMergeMode.ZEROING,
                                     Reg.RoundMode.CAST_NONE)
castTraitB32ToB16 = Reg.CastTrait(Reg.RegLayout.ZERO, Reg.SatMode.NO_SAT, Reg.MaskMergeMode.ZEROING,
                                  Reg.RoundMode.CAST_RINT)


@__simd_vf__
def RmsNormVF(outAddr, xAddr, gammaAddr, rows, dv, dvLoop, reciprocal, epsilon):
    xB16 = Reg.RegTensor[bfloat16_t]()
    gammaB16 = Reg.RegTensor[bfloat16_t]()
    outB16 = Reg.RegTensor[bfloat16_t]()
    xFp32 = Reg.RegTensor[float]()
    gammaFp32 = Reg.RegTensor[float]()
    square = Reg.RegTensor[float]()
    reduceSum = Reg.RegTensor[float]()
    rmsValue = Reg.RegTensor[float]()
    invRms = Reg.RegTensor[float]()
    invRmsBrc = Reg.RegTensor[float]()
    one = Reg.RegTensor[float]()
    norm = Reg.RegTensor[float]()
    fullMask = Reg.CreateMask[float, Reg.MaskPattern.ALL]()
    oneMask = Reg.CreateMask[float, Reg.MaskPattern.VL1]()
    Reg.Duplicate(one, 1.0, oneMask)
    for row in VLOOP(rows):
        Reg.Duplicate(reduceSum, 0.0)
        remaining = uint32_t(dv)
        for i in VLOOP(dvLoop):
            mask = Reg.UpdateMask[float](remaining)
            Reg.LoadAlign[bfloat16_t, Reg.LoadDist.DIST_UNPACK_B16](xB16, xAddr + row * dv + i * VL_FP32_SIZE)
            Reg.Cast[float, bfloat16_t, castTraitB16ToB32](xFp32, xB16, mask)
            Reg.Mul(square, xFp32, xFp32, mask)
            Reg.Add(reduceSum, reduceSum, square, mask)
        Reg.ReduceSum(reduceSum, reduceSum, fullMask)
        Reg.Muls(reduceSum, reduceSum, reciprocal, oneMask)
        Reg.Adds(reduceSum, reduceSum, epsilon, oneMask)
        Reg.Sqrt(rmsValue, reduceSum, oneMask)
        Reg.Div(invRms, one, rmsValue, oneMask)
        Reg.Duplicate[float, Reg.HighLowPart.LOWEST](invRmsBrc, invRms, fullMask)
        remaining = uint32_t(dv)
        for i in VLOOP(dvLoop):
            mask = Reg.UpdateMask[float](remaining)
            Reg.LoadAlign[bfloat16_t, Reg.LoadDist.DIST_UNPACK_B16](xB16, xAddr + row * dv + i * VL_FP32_SIZE)
            Reg.LoadAlign[bfloat16_t, Reg.LoadDist.DIST_UNPACK_B16](gammaB16, gammaAddr + i * VL_FP32_SIZE)
            Reg.Cast[float, bfloat16_t, castTraitB16ToB32](xFp32, xB16, mask)
            Reg.Cast[float, bfloat16_t, castTraitB16ToB32](gammaFp32, gammaB16, mask)
            Reg.Mul(norm, xFp32, invRmsBrc, mask)
            Reg.Mul(norm, norm, gammaFp32, mask)
            Reg.Cast[bfloat16_t, float, castTraitB32ToB16](outB16, norm, mask)
            Reg.StoreAlign[bfloat16_t, Reg.StoreDist.DIST_PACK_B32](outAddr + row * dv + i * VL_FP32_SIZE, outB16,
                                                                   mask)


@__simd_vf__
def RopeVF(outFirst, outSecond, ropeAddr, cosFirst, sinFirst, cosSecond, sinSecond, rows, dk, pairCount):
    ropeB16 = Reg.RegTensor[bfloat16_t]()
    cosB16 = Reg.RegTensor[bfloat16_t]()
    sinB16 = Reg.RegTensor[bfloat16_t]()
    outB16 = Reg.RegTensor[bfloat16_t]()
    realFp32 = Reg.RegTensor[float]()
    imagFp32 = Reg.RegTensor[float]()
    cosFp32 = Reg.RegTensor[float]()
    sinFp32 = Reg.RegTensor[float]()
    mul0 = Reg.RegTensor[float]()
    mul1 = Reg.RegTensor[float]()
    result = Reg.RegTensor[float]()
    count = uint32_t(pairCount)
    mask = Reg.UpdateMask[float](count)
    maskB16 = Reg.CreateMask[uint16_t, Reg.MaskPattern.ALL]()
    for row in VLOOP(rows):
        Reg.LoadAlign[bfloat16_t](ropeB16, ropeAddr + row * dk)
        Reg.Cast[float, bfloat16_t, castTraitB16ToB32](realFp32, ropeB16, maskB16)
        Reg.Cast[float, bfloat16_t, castTraitB16ToB32Odd](imagFp32, ropeB16, maskB16)

        Reg.LoadAlign[bfloat16_t, Reg.LoadDist.DIST_UNPACK_B16](cosB16, cosFirst + row * dk)
        Reg.LoadAlign[bfloat16_t, Reg.LoadDist.DIST_UNPACK_B16](sinB16, sinFirst + row * dk)
        Reg.Cast[float, bfloat16_t, castTraitB16ToB32](cosFp32, cosB16, mask)
        Reg.Cast[float, bfloat16_t, castTraitB16ToB32](sinFp32, sinB16, mask)
        Reg.Mul(mul0, realFp32, cosFp32, mask)
        Reg.Mul(mul1, imagFp32, sinFp32, mask)
        Reg.Sub(result, mul0, mul1, mask)
        Reg.Cast[bfloat16_t, float, castTraitB32ToB16](outB16, result, mask)
        Reg.StoreAlign[bfloat16_t, Reg.StoreDist.DIST_PACK_B32](outFirst + row * dk, outB16, mask)

        Reg.LoadAlign[bfloat16_t, Reg.LoadDist.DIST_UNPACK_B16](cosB16, cosSecond + row * dk)
        Reg.LoadAlign[bfloat16_t, Reg.LoadDist.DIST_UNPACK_B16](sinB16, sinSecond + row * dk)
        Reg.Cast[float, bfloat16_t, castTraitB16ToB32](cosFp32, cosB16, mask)
        Reg.Cast[float, bfloat16_t, castTraitB16ToB32](sinFp32, sinB16, mask)
        Reg.Mul(mul0, imagFp32, cosFp32, mask)
        Reg.Mul(mul1, realFp32, sinFp32, mask)
        Reg.Add(result, mul0, mul1, mask)
        Reg.Cast[bfloat16_t, float, castTraitB32ToB16](outB16, result, mask)
        Reg.StoreAlign[bfloat16_t, Reg.StoreDist.DIST_PACK_B32](outSecond + row * dk, outB16, mask)


class KernelKvRmsNormRopeCache(KvRmsNormRopeCacheBase):
    """regbase/full_load: bf16 gamma, no workspace, two direct VF calls per tile."""

    def GammaBufferBytes(self) -> int:
        return Align(self.dv, 2)

    def CopyInGamma(self):
        gammaLocal = self.gammaQueue.AllocTensor(bfloat16_t)
        DataCopy(gammaLocal, self.gammaGm, self.dv)
        self.gammaQueue.EnQue(gammaLocal)
        return self.gammaQueue.DeQue(bfloat16_t)

    def Rope(self, outLocal, ropeLocal, cosSinLocal, rows: int) -> None:
        dk = self.dk
        pairCount = dk // 2
        outAddr = outLocal.GetPhyAddr()
        cosAddr = cosSinLocal.GetPhyAddr()
        sinAddr = cosSinLocal[rows * dk].GetPhyAddr()
        RopeVF(outAddr, outAddr + pairCount, ropeLocal.GetPhyAddr(), cosAddr, sinAddr, cosAddr + pairCount,
               sinAddr + pairCount, rows, dk, pairCount)

    def RmsNorm(self, outLocal, xLocal, gammaLocal, rows: int) -> None:
        dvLoop = (self.dv + VL_FP32_SIZE - 1) // VL_FP32_SIZE
        RmsNormVF(outLocal.GetPhyAddr(), xLocal.GetPhyAddr(), gammaLocal.GetPhyAddr(), rows, self.dv, dvLoop,
                  self.tiling.reciprocal, self.tiling.epsilon)


def kv_rms_norm_rope_cache(kv, gamma, cos, sin, index, kCache, vCache, kOut, vOut, tiling):
    """``extern "C" __global__ __aicore__`` entry of regbase/full_load."""
    pipe = TPipe()
    op = KernelKvRmsNormRopeCache()
    op.Init(kv, gamma, cos, sin, index, kCache, vCache, kOut, vOut, tiling, pipe)
    op.Process()
