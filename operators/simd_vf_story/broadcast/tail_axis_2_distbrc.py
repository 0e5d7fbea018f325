"""tail_axis_2_distbrc: y[m, n] = x[m, n] + a[m] (vendor broadcast/src/tail_axis_2_distbrc.asc).

Optimised: one VF; the row loop is inside the VF and a[j] is broadcast into a register with a
DIST_BRC_B32 load at the start of each row.
"""
from operators.simd_vf_story.common import VL_B32, VFLoopNumForB32, static_cast_u16
from toolkit.ascendc import regbase as Reg
from toolkit.ascendc.dtypes import uint32_t

from .host import BroadcastHost
from .kernel import KernelTailAxisBase

HOST = BroadcastHost("tail")


@Reg.__simd_vf__
def ComputeVF(xAddr, aAddr, yAddr, n, nElemsAligned, vfLoopM, vfLoopN):
    xReg = Reg.RegTensor[float]()
    aReg = Reg.RegTensor[float]()
    yReg = Reg.RegTensor[float]()
    mask = Reg.CreateMask[float, Reg.MaskPattern.ALL]()

    remain = uint32_t()
    for j in Reg.VLOOP(vfLoopM):
        remain = uint32_t(n)
        Reg.LoadAlign[float, Reg.LoadDist.DIST_BRC_B32](aReg, aAddr + j)
        for i in Reg.VLOOP(vfLoopN):
            mask = Reg.UpdateMask[float](remain)
            Reg.LoadAlign[float](xReg, xAddr + j * nElemsAligned + i * VL_B32)
            Reg.Add[float](yReg, xReg, aReg, mask)
            Reg.StoreAlign[float](yAddr + j * nElemsAligned + i * VL_B32, yReg, mask)


class KernelTailAxis(KernelTailAxisBase):
    def Compute(self):
        tiling = self.tiling
        xLocal = self.xQueue.DeQue(float)
        aLocal = self.aQueue.DeQue(float)
        yLocal = self.yQueue.AllocTensor(float)
        xUb = xLocal.GetPhyAddr()
        aUb = aLocal.GetPhyAddr()
        yUb = yLocal.GetPhyAddr()
        Reg.asc_vf_call[ComputeVF](
            xUb, aUb, yUb, tiling.n, tiling.nElemsAligned, static_cast_u16(tiling.m), VFLoopNumForB32(tiling.n))
        self.yQueue.EnQue(yLocal)
        self.xQueue.FreeTensor(xLocal)
        self.aQueue.FreeTensor(aLocal)


def tail_axis_2_distbrc(x, a, y, tiling):
    op = KernelTailAxis()
    op.Init(x, a, y, tiling)
    op.Process()


KERNEL = tail_axis_2_distbrc
