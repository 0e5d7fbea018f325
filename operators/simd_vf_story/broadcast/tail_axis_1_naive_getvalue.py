"""tail_axis_1_naive_getvalue: y[m, n] = x[m, n] + a[m] (vendor broadcast/src/tail_axis_1_naive_getvalue.asc).

Naive: one VF per row; the kernel reads a[j] from UB with a scalar GetValue and passes it to the VF.
"""
from operators.simd_vf_story.common import VL_B32, VFLoopNumForB32
from toolkit.ascendc import regbase as Reg
from toolkit.ascendc.dtypes import uint32_t

from .host import BroadcastHost
from .kernel import KernelTailAxisBase

HOST = BroadcastHost("tail")


@Reg.__simd_vf__
def ComputeVF(xAddr, yAddr, n, vfLoopN, aVal):
    xReg = Reg.RegTensor[float]()
    yReg = Reg.RegTensor[float]()
    mask = Reg.CreateMask[float, Reg.MaskPattern.ALL]()

    remain = uint32_t(n)
    for i in Reg.VLOOP(vfLoopN):
        mask = Reg.UpdateMask[float](remain)
        Reg.LoadAlign[float](xReg, xAddr + i * VL_B32)
        Reg.Adds[float](yReg, xReg, aVal, mask)
        Reg.StoreAlign[float](yAddr + i * VL_B32, yReg, mask)


class KernelTailAxis(KernelTailAxisBase):
    def Compute(self):
        tiling = self.tiling
        xLocal = self.xQueue.DeQue(float)
        aLocal = self.aQueue.DeQue(float)
        yLocal = self.yQueue.AllocTensor(float)
        xUb = xLocal.GetPhyAddr()
        yUb = yLocal.GetPhyAddr()
        for j in range(tiling.m):
            Reg.asc_vf_call[ComputeVF](
                xUb + j * tiling.nElemsAligned, yUb + j * tiling.nElemsAligned, tiling.n,
                VFLoopNumForB32(tiling.n), aLocal.GetValue(j))
        self.yQueue.EnQue(yLocal)
        self.xQueue.FreeTensor(xLocal)
        self.aQueue.FreeTensor(aLocal)


def tail_axis_1_naive_getvalue(x, a, y, tiling):
    op = KernelTailAxis()
    op.Init(x, a, y, tiling)
    op.Process()


KERNEL = tail_axis_1_naive_getvalue
