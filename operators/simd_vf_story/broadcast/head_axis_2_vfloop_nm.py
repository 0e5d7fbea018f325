"""head_axis_2_vfloop_nm: y[m, n] = x[m, n] + a[n] (vendor broadcast/src/head_axis_2_vfloop_nm.asc).

One VF, n -> m: each a chunk is loaded once and reused for all m rows.
"""
from operators.simd_vf_story.common import VL_B32, VFLoopNumForB32, static_cast_u16
from toolkit.ascendc import regbase as Reg
from toolkit.ascendc.dtypes import uint32_t

from .host import BroadcastHost
from .kernel import KernelHeadAxisBase

HOST = BroadcastHost("head")


@Reg.__simd_vf__
def ComputeVF(xAddr, aAddr, yAddr, n, nElemsAligned, vfLoopM, vfLoopN):
    xReg = Reg.RegTensor[float]()
    aReg = Reg.RegTensor[float]()
    yReg = Reg.RegTensor[float]()
    mask = Reg.CreateMask[float, Reg.MaskPattern.ALL]()

    remain = uint32_t(n)
    for i in Reg.VLOOP(vfLoopN):
        mask = Reg.UpdateMask[float](remain)
        Reg.LoadAlign[float](aReg, aAddr + i * VL_B32)
        for j in Reg.VLOOP(vfLoopM):
            Reg.LoadAlign[float](xReg, xAddr + i * VL_B32 + j * nElemsAligned)
            Reg.Add[float](yReg, xReg, aReg, mask)
            Reg.StoreAlign[float](yAddr + i * VL_B32 + j * nElemsAligned, yReg, mask)


class KernelHeadAxis(KernelHeadAxisBase):
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


def head_axis_2_vfloop_nm(x, a, y, tiling):
    op = KernelHeadAxis()
    op.Init(x, a, y, tiling)
    op.Process()


KERNEL = head_axis_2_vfloop_nm
