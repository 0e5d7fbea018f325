"""head_axis_1_naive: y[m, n] = x[m, n] + a[n] (vendor broadcast/src/head_axis_1_naive.asc).

Naive: one VF per row, each loads x and a chunk by chunk.
"""
from operators.simd_vf_story.common import VL_B32, VFLoopNumForB32
from toolkit.ascendc import regbase as Reg
from toolkit.ascendc.dtypes import uint32_t

from .host import BroadcastHost
from .kernel import KernelHeadAxisBase

HOST = BroadcastHost("head")


@Reg.__simd_vf__
def ComputeVF(xAddr, aAddr, yAddr, n, vfLoopN):
    xReg = Reg.RegTensor[float]()
    aReg = Reg.RegTensor[float]()
    yReg = Reg.RegTensor[float]()
    mask = Reg.CreateMask[float, Reg.MaskPattern.ALL]()

    remain = uint32_t(n)
    for i in Reg.VLOOP(vfLoopN):
        mask = Reg.UpdateMask[float](remain)
        Reg.LoadAlign[float](xReg, xAddr + i * VL_B32)
        Reg.LoadAlign[float](aReg, aAddr + i * VL_B32)
        Reg.Add[float](yReg, xReg, aReg, mask)
        Reg.StoreAlign[float](yAddr + i * VL_B32, yReg, mask)


class KernelHeadAxis(KernelHeadAxisBase):
    def Compute(self):
        tiling = self.tiling
        xLocal = self.xQueue.DeQue(float)
        aLocal = self.aQueue.DeQue(float)
        yLocal = self.yQueue.AllocTensor(float)
        aUb = aLocal.GetPhyAddr()
        for j in range(tiling.m):
            xUbCurrentRow = xLocal.GetPhyAddr() + j * tiling.nElemsAligned
            yUbCurrentRow = yLocal.GetPhyAddr() + j * tiling.nElemsAligned
            Reg.asc_vf_call[ComputeVF](xUbCurrentRow, aUb, yUbCurrentRow, tiling.n, VFLoopNumForB32(tiling.n))
        self.yQueue.EnQue(yLocal)
        self.xQueue.FreeTensor(xLocal)
        self.aQueue.FreeTensor(aLocal)


def head_axis_1_naive(x, a, y, tiling):
    op = KernelHeadAxis()
    op.Init(x, a, y, tiling)
    op.Process()


KERNEL = head_axis_1_naive
