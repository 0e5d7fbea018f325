"""mid_axis_5_vfloop_mnb: y[m, b, n] = x[m, b, n] + a[m, n] (vendor broadcast/src/mid_axis_5_vfloop_mnb.asc).

Optimised: one VF, m -> n -> b (each a chunk reused for the b rows).
"""
from operators.simd_vf_story.common import VL_B32, VFLoopNumForB32, static_cast_u16
from toolkit.ascendc import regbase as Reg
from toolkit.ascendc.dtypes import uint32_t

from .host import BroadcastHost
from .kernel import KernelMidAxisBase

HOST = BroadcastHost("mid")


@Reg.__simd_vf__
def ComputeVF(xAddr, aAddr, yAddr, vfLoopM, vfLoopB, n, nElemsAligned, vfLoopN):
    xReg = Reg.RegTensor[float]()
    aReg = Reg.RegTensor[float]()
    yReg = Reg.RegTensor[float]()
    mask = Reg.CreateMask[float, Reg.MaskPattern.ALL]()

    for m in Reg.VLOOP(vfLoopM):
        remain = uint32_t(n)
        for i in Reg.VLOOP(vfLoopN):
            mask = Reg.UpdateMask[float](remain)
            Reg.LoadAlign[float](aReg, aAddr + m * nElemsAligned + i * VL_B32)
            for b in Reg.VLOOP(vfLoopB):
                Reg.LoadAlign[float](
                    xReg, xAddr + (m * vfLoopB + b) * nElemsAligned + i * VL_B32)
                Reg.Add[float](yReg, xReg, aReg, mask)
                Reg.StoreAlign[float](
                    yAddr + (m * vfLoopB + b) * nElemsAligned + i * VL_B32, yReg, mask)


class KernelMidAxis(KernelMidAxisBase):
    def Compute(self):
        tiling = self.tiling
        xLocal = self.xQueue.DeQue(float)
        aLocal = self.aQueue.DeQue(float)
        yLocal = self.yQueue.AllocTensor(float)
        xUb = xLocal.GetPhyAddr()
        aUb = aLocal.GetPhyAddr()
        yUb = yLocal.GetPhyAddr()
        Reg.asc_vf_call[ComputeVF](xUb, aUb, yUb, static_cast_u16(tiling.m), static_cast_u16(tiling.b),
                                   tiling.n, tiling.nElemsAligned, VFLoopNumForB32(tiling.n))
        self.yQueue.EnQue(yLocal)
        self.xQueue.FreeTensor(xLocal)
        self.aQueue.FreeTensor(aLocal)


def mid_axis_5_vfloop_mnb(x, a, y, tiling):
    op = KernelMidAxis()
    op.Init(x, a, y, tiling)
    op.Process()


KERNEL = mid_axis_5_vfloop_mnb
