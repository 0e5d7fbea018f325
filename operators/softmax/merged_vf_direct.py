"""7_merged_vf_direct: one ``__no_simd_vf_fusion__ __simd_vf__`` per row pair, called directly (softmax spec 5.2).

Phase A: running lane max, cross-lane ReduceMax, register broadcast (Duplicate from lane 0); phase B:
sub, exp, store to y, running lane sum, ReduceSum + broadcast; LocalMemBar<VEC_STORE, VEC_LOAD>; phase C:
reload y and divide by the sum. tileLen = 2 * TILE_LEN (4 rows per tile, 2 row pairs), no scalar buffer.
"""
from __future__ import annotations

from toolkit.ascendc import regbase as Reg
from toolkit.ascendc.dtypes import uint16_t, uint32_t

from .common import FLT_LOWEST, CeilDivision, RawPingPongKernel

STEP = 7


@Reg.__no_simd_vf_fusion__
@Reg.__simd_vf__
def VfSoftmax2RowDirect(xAddr0, xAddr1, yAddr0, yAddr1, n, loopNum, oneRepeatSize):
    xReg0 = Reg.RegTensor[float]()
    xReg1 = Reg.RegTensor[float]()
    maxReg0 = Reg.RegTensor[float]()
    maxReg1 = Reg.RegTensor[float]()
    sumReg0 = Reg.RegTensor[float]()
    sumReg1 = Reg.RegTensor[float]()
    tempReg = Reg.RegTensor[float]()
    fullMask = Reg.CreateMask[float, Reg.MaskPattern.ALL]()
    # phase A: row maxima, broadcast in registers
    Reg.Duplicate(maxReg0, FLT_LOWEST)
    Reg.Duplicate(maxReg1, FLT_LOWEST)
    n1 = uint32_t(n)
    for i in Reg.VLOOP(loopNum):
        mask = Reg.UpdateMask[float](n1)
        Reg.LoadAlign(xReg0, xAddr0 + i * oneRepeatSize)
        Reg.LoadAlign(xReg1, xAddr1 + i * oneRepeatSize)
        Reg.Max[float, Reg.MaskMergeMode.MERGING](maxReg0, maxReg0, xReg0, mask)
        Reg.Max[float, Reg.MaskMergeMode.MERGING](maxReg1, maxReg1, xReg1, mask)
    Reg.ReduceMax(tempReg, maxReg0, fullMask)
    Reg.Duplicate(maxReg0, tempReg, fullMask)
    Reg.ReduceMax(tempReg, maxReg1, fullMask)
    Reg.Duplicate(maxReg1, tempReg, fullMask)
    # phase B: e = exp(x - m) to y, running sums, broadcast
    Reg.Duplicate(sumReg0, 0.0)
    Reg.Duplicate(sumReg1, 0.0)
    n2 = uint32_t(n)
    for i in Reg.VLOOP(loopNum):
        mask = Reg.UpdateMask[float](n2)
        Reg.LoadAlign(xReg0, xAddr0 + i * oneRepeatSize)
        Reg.LoadAlign(xReg1, xAddr1 + i * oneRepeatSize)
        Reg.Sub(xReg0, xReg0, maxReg0, mask)
        Reg.Sub(xReg1, xReg1, maxReg1, mask)
        Reg.Exp(xReg0, xReg0, mask)
        Reg.Exp(xReg1, xReg1, mask)
        Reg.StoreAlign(yAddr0 + i * oneRepeatSize, xReg0, mask)
        Reg.StoreAlign(yAddr1 + i * oneRepeatSize, xReg1, mask)
        Reg.Add[float, Reg.MaskMergeMode.MERGING](sumReg0, sumReg0, xReg0, mask)
        Reg.Add[float, Reg.MaskMergeMode.MERGING](sumReg1, sumReg1, xReg1, mask)
    Reg.ReduceSum(tempReg, sumReg0, fullMask)
    Reg.Duplicate(sumReg0, tempReg, fullMask)
    Reg.ReduceSum(tempReg, sumReg1, fullMask)
    Reg.Duplicate(sumReg1, tempReg, fullMask)
    Reg.LocalMemBar[Reg.MemType.VEC_STORE, Reg.MemType.VEC_LOAD]()
    # phase C: reload e and divide
    yReg0 = Reg.RegTensor[float]()
    yReg1 = Reg.RegTensor[float]()
    n3 = uint32_t(n)
    for i in Reg.VLOOP(loopNum):
        mask = Reg.UpdateMask[float](n3)
        Reg.LoadAlign(yReg0, yAddr0 + i * oneRepeatSize)
        Reg.LoadAlign(yReg1, yAddr1 + i * oneRepeatSize)
        Reg.Div(yReg0, yReg0, sumReg0, mask)
        Reg.Div(yReg1, yReg1, sumReg1, mask)
        Reg.StoreAlign(yAddr0 + i * oneRepeatSize, yReg0, mask)
        Reg.StoreAlign(yAddr1 + i * oneRepeatSize, yReg1, mask)


class KernelSoftmaxMergedVfDirect(RawPingPongKernel):
    def Compute(self, t: int, xLocal, yLocal, rows: int) -> None:
        n = self.actualN
        oneRepeatSize = uint16_t(256 // 4)
        loopNum = uint16_t(CeilDivision(n, int(oneRepeatSize)))
        for row in range(0, rows, 2):
            xAddr0, xAddr1, yAddr0, yAddr1 = self.RowPairAddrs(xLocal, yLocal, row)
            VfSoftmax2RowDirect(xAddr0, xAddr1, yAddr0, yAddr1, n, loopNum, oneRepeatSize)
