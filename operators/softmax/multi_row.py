"""3_multi_row: two rows per VF, three ``__simd_vf__`` per row pair launched with ``asc_vf_call`` (softmax spec 5.1).

VfReduceMax2Row stores the two row maxima to a UB scalar buffer (StoreUnAlign); VfSubExpSum2Row
broadcast-loads them (DIST_BRC_B32), writes e = exp(x - m) to y and stores the two row sums over the
maxima; VfDiv2Row broadcast-loads the sums and divides y in place. No TPipe: raw LocalTensors at fixed
UB byte addresses (x ping, y ping, x pong, y pong, scalar buffer).
"""
from __future__ import annotations

from toolkit.ascendc import regbase as Reg
from toolkit.ascendc.dtypes import uint16_t, uint32_t

from .common import FLT_LOWEST, CeilDivision, RawPingPongKernel

STEP = 3


@Reg.__simd_vf__
def VfReduceMax2Row(xAddr0, xAddr1, scalarAddr, rowStride, n, loopNum, oneRepeatSize):
    xReg0 = Reg.RegTensor[float]()
    xReg1 = Reg.RegTensor[float]()
    maxReg0 = Reg.RegTensor[float]()
    maxReg1 = Reg.RegTensor[float]()
    tempReg = Reg.RegTensor[float]()
    unalignAcc = Reg.UnalignRegForStore()
    fullMask = Reg.CreateMask[float, Reg.MaskPattern.ALL]()
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
    storeAddr = scalarAddr + 0                     # a local copy: StoreUnAlign advances it
    Reg.StoreUnAlign(storeAddr, tempReg, unalignAcc, 1)
    Reg.ReduceMax(tempReg, maxReg1, fullMask)
    Reg.StoreUnAlign(storeAddr, tempReg, unalignAcc, 1)
    Reg.StoreUnAlignPost(storeAddr, unalignAcc, 0)


@Reg.__simd_vf__
def VfSubExpSum2Row(xAddr0, xAddr1, yAddr0, yAddr1, scalarAddr, rowStride, n, loopNum, oneRepeatSize):
    xReg0 = Reg.RegTensor[float]()
    xReg1 = Reg.RegTensor[float]()
    maxReg0 = Reg.RegTensor[float]()
    maxReg1 = Reg.RegTensor[float]()
    sumReg0 = Reg.RegTensor[float]()
    sumReg1 = Reg.RegTensor[float]()
    tempReg = Reg.RegTensor[float]()
    unalignAcc = Reg.UnalignRegForStore()
    fullMask = Reg.CreateMask[float, Reg.MaskPattern.ALL]()
    Reg.LoadAlign[float, Reg.LoadDist.DIST_BRC_B32](maxReg0, scalarAddr + 0)
    Reg.LoadAlign[float, Reg.LoadDist.DIST_BRC_B32](maxReg1, scalarAddr + 1)
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
    storeAddr = scalarAddr + 0
    Reg.StoreUnAlign(storeAddr, tempReg, unalignAcc, 1)
    Reg.ReduceSum(tempReg, sumReg1, fullMask)
    Reg.StoreUnAlign(storeAddr, tempReg, unalignAcc, 1)
    Reg.StoreUnAlignPost(storeAddr, unalignAcc, 0)


@Reg.__simd_vf__
def VfDiv2Row(yAddr0, yAddr1, scalarAddr, n, loopNum, oneRepeatSize):
    yReg0 = Reg.RegTensor[float]()
    yReg1 = Reg.RegTensor[float]()
    sumReg0 = Reg.RegTensor[float]()
    sumReg1 = Reg.RegTensor[float]()
    Reg.LoadAlign[float, Reg.LoadDist.DIST_BRC_B32](sumReg0, scalarAddr + 0)
    Reg.LoadAlign[float, Reg.LoadDist.DIST_BRC_B32](sumReg1, scalarAddr + 1)
    n3 = uint32_t(n)
    for i in Reg.VLOOP(loopNum):
        mask = Reg.UpdateMask[float](n3)
        Reg.LoadAlign(yReg0, yAddr0 + i * oneRepeatSize)
        Reg.LoadAlign(yReg1, yAddr1 + i * oneRepeatSize)
        Reg.Div(yReg0, yReg0, sumReg0, mask)
        Reg.Div(yReg1, yReg1, sumReg1, mask)
        Reg.StoreAlign(yAddr0 + i * oneRepeatSize, yReg0, mask)
        Reg.StoreAlign(yAddr1 + i * oneRepeatSize, yReg1, mask)


class KernelSoftmaxMultiRow(RawPingPongKernel):
    SCALAR_BUF = True

    def Compute(self, t: int, xLocal, yLocal, rows: int) -> None:
        for row in range(0, rows, 2):
            self.ComputeRegBase2Row(xLocal, yLocal, row)

    def ComputeRegBase2Row(self, xLocal, yLocal, row: int) -> None:
        n = self.actualN
        oneRepeatSize = uint16_t(256 // 4)
        loopNum = uint16_t(CeilDivision(n, int(oneRepeatSize)))
        xAddr0, xAddr1, yAddr0, yAddr1 = self.RowPairAddrs(xLocal, yLocal, row)
        scalarAddr = self.scalarBuf.GetPhyAddr()
        Reg.asc_vf_call[VfReduceMax2Row](xAddr0, xAddr1, scalarAddr, n, n, loopNum, oneRepeatSize)
        Reg.asc_vf_call[VfSubExpSum2Row](xAddr0, xAddr1, yAddr0, yAddr1, scalarAddr, n, n, loopNum,
                                         oneRepeatSize)
        Reg.asc_vf_call[VfDiv2Row](yAddr0, yAddr1, scalarAddr, n, loopNum, oneRepeatSize)
