"""tail_axis_2_distbrc: y[m, n] = x[m, n] + a[m] (vendor broadcast/src/tail_axis_2_distbrc.asc).

Optimised: one VF; the row loop is inside the VF and a[j] is broadcast into a register with a
DIST_BRC_B32 load at the start of each row.
"""
from toolkit import regbase as Reg
from toolkit.dma import DataCopyExtParams, DataCopyPad, DataCopyPadExtParams
from toolkit.dtypes import uint32_t
from toolkit.pipe import TPipe, TPosition, TQue
from toolkit.tensor import GlobalTensor, gm_cast

from ..common import BLOCK_BYTES, SIZEOF_FLOAT, VL_B32, AlignUp, VFLoopNumForB32, static_cast_u16
from .host import BroadcastHost

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


class KernelTailAxis:
    def __init__(self):
        self.pipe = TPipe()
        self.xQueue = TQue(TPosition.VECIN, 1)
        self.aQueue = TQue(TPosition.VECIN, 1)
        self.yQueue = TQue(TPosition.VECOUT, 1)
        self.xGm = GlobalTensor(float)
        self.aGm = GlobalTensor(float)
        self.yGm = GlobalTensor(float)

    def Init(self, x, a, y, tiling):
        self.tiling = tiling
        self.xGm.SetGlobalBuffer(gm_cast(float, x), tiling.m * tiling.n)
        self.aGm.SetGlobalBuffer(gm_cast(float, a), tiling.m)
        self.yGm.SetGlobalBuffer(gm_cast(float, y), tiling.m * tiling.n)
        self.pipe.InitBuffer(self.xQueue, 1, tiling.m * tiling.nElemsAligned * SIZEOF_FLOAT)
        self.pipe.InitBuffer(self.aQueue, 1, AlignUp(tiling.m * SIZEOF_FLOAT, BLOCK_BYTES))
        self.pipe.InitBuffer(self.yQueue, 1, tiling.m * tiling.nElemsAligned * SIZEOF_FLOAT)

    def Process(self):
        self.CopyIn()
        self.Compute()
        self.CopyOut()

    def CopyIn(self):
        tiling = self.tiling
        xLocal = self.xQueue.AllocTensor(float)
        aLocal = self.aQueue.AllocTensor(float)
        rowParams = DataCopyExtParams(1, tiling.n * SIZEOF_FLOAT, 0, 0, 0)
        padParams = DataCopyPadExtParams(False, 0, 0, 0)
        for j in range(tiling.m):
            DataCopyPad(xLocal[j * tiling.nElemsAligned], self.xGm[j * tiling.n], rowParams, padParams)
        DataCopyPad(aLocal, self.aGm, DataCopyExtParams(1, tiling.m * SIZEOF_FLOAT, 0, 0, 0), padParams)
        self.xQueue.EnQue(xLocal)
        self.aQueue.EnQue(aLocal)

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

    def CopyOut(self):
        tiling = self.tiling
        yLocal = self.yQueue.DeQue(float)
        rowParams = DataCopyExtParams(1, tiling.n * SIZEOF_FLOAT, 0, 0, 0)
        for j in range(tiling.m):
            DataCopyPad(self.yGm[j * tiling.n], yLocal[j * tiling.nElemsAligned], rowParams)
        self.yQueue.FreeTensor(yLocal)


def tail_axis_2_distbrc(x, a, y, tiling):
    op = KernelTailAxis()
    op.Init(x, a, y, tiling)
    op.Process()


KERNEL = tail_axis_2_distbrc
