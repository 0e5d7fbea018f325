"""mid_axis_3_vfloop_bn: y[m, b, n] = x[m, b, n] + a[m, n] (vendor broadcast/src/mid_axis_3_vfloop_bn.asc).

First step: one VF per m (8 launches), b -> n: contiguous rows, a chunks reloaded for every b.
"""
from operators.simd_vf_story.common import VL_B32, VFLoopNumForB32, static_cast_u16
from toolkit.ascendc import regbase as Reg
from toolkit.ascendc.dtypes import uint32_t

from .host import BroadcastHost
from .kernel import KernelMidAxisBase

HOST = BroadcastHost("mid")


@Reg.__simd_vf__
def ComputeVF(xAddr, aAddr, yAddr, n, nElemsAligned, vfLoopB, vfLoopN):
    xReg = Reg.RegTensor[float]()
    aReg = Reg.RegTensor[float]()
    yReg = Reg.RegTensor[float]()
    mask = Reg.CreateMask[float, Reg.MaskPattern.ALL]()

    for b in Reg.VLOOP(vfLoopB):
        remain = uint32_t(n)
        for i in Reg.VLOOP(vfLoopN):
            mask = Reg.UpdateMask[float](remain)
            Reg.LoadAlign[float](aReg, aAddr + i * VL_B32)
            Reg.LoadAlign[float](xReg, xAddr + b * nElemsAligned + i * VL_B32)
            Reg.Add[float](yReg, xReg, aReg, mask)
            Reg.StoreAlign[float](yAddr + b * nElemsAligned + i * VL_B32, yReg, mask)


class KernelMidAxis(KernelMidAxisBase):
    def Compute(self):
        tiling = self.tiling
        xLocal = self.xQueue.DeQue(float)
        aLocal = self.aQueue.DeQue(float)
        yLocal = self.yQueue.AllocTensor(float)
        xUb = xLocal.GetPhyAddr()
        aUb = aLocal.GetPhyAddr()
        yUb = yLocal.GetPhyAddr()
        for m in range(tiling.m):
            Reg.asc_vf_call[ComputeVF](
                xUb + m * tiling.b * tiling.nElemsAligned, aUb + m * tiling.nElemsAligned,
                yUb + m * tiling.b * tiling.nElemsAligned, tiling.n, tiling.nElemsAligned,
                static_cast_u16(tiling.b), VFLoopNumForB32(tiling.n))
        self.yQueue.EnQue(yLocal)
        self.xQueue.FreeTensor(xLocal)
        self.aQueue.FreeTensor(aLocal)


def mid_axis_3_vfloop_bn(x, a, y, tiling):
    op = KernelMidAxis()
    op.Init(x, a, y, tiling)
    op.Process()


KERNEL = mid_axis_3_vfloop_bn
