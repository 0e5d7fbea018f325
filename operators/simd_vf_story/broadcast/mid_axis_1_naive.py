"""mid_axis_1_naive: y[m, b, n] = x[m, b, n] + a[m, n] (vendor broadcast/src/mid_axis_1_naive.asc).

Naive: one VF per (m, b) row: 24 VF launches.
"""
from toolkit import regbase as Reg
from toolkit.dma import DataCopyExtParams, DataCopyPad, DataCopyPadExtParams
from toolkit.dtypes import uint32_t
from toolkit.pipe import TPipe, TPosition, TQue
from toolkit.tensor import GlobalTensor, gm_cast

from ..common import SIZEOF_FLOAT, VL_B32, VFLoopNumForB32
from .host import BroadcastHost

HOST = BroadcastHost("mid")


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


class KernelMidAxis:
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
        self.xGm.SetGlobalBuffer(gm_cast(float, x), tiling.m * tiling.b * tiling.n)
        self.aGm.SetGlobalBuffer(gm_cast(float, a), tiling.m * tiling.n)
        self.yGm.SetGlobalBuffer(gm_cast(float, y), tiling.m * tiling.b * tiling.n)
        self.pipe.InitBuffer(self.xQueue, 1, tiling.m * tiling.b * tiling.nElemsAligned * SIZEOF_FLOAT)
        self.pipe.InitBuffer(self.aQueue, 1, tiling.m * tiling.nElemsAligned * SIZEOF_FLOAT)
        self.pipe.InitBuffer(self.yQueue, 1, tiling.m * tiling.b * tiling.nElemsAligned * SIZEOF_FLOAT)

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
        for row in range(tiling.m * tiling.b):
            DataCopyPad(xLocal[row * tiling.nElemsAligned], self.xGm[row * tiling.n], rowParams, padParams)
        for m in range(tiling.m):
            DataCopyPad(aLocal[m * tiling.nElemsAligned], self.aGm[m * tiling.n], rowParams, padParams)
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
        for m in range(tiling.m):
            for b in range(tiling.b):
                rowOffset = (m * tiling.b + b) * tiling.nElemsAligned
                Reg.asc_vf_call[ComputeVF](
                    xUb + rowOffset, aUb + m * tiling.nElemsAligned, yUb + rowOffset, tiling.n,
                    VFLoopNumForB32(tiling.n))
        self.yQueue.EnQue(yLocal)
        self.xQueue.FreeTensor(xLocal)
        self.aQueue.FreeTensor(aLocal)

    def CopyOut(self):
        tiling = self.tiling
        yLocal = self.yQueue.DeQue(float)
        rowParams = DataCopyExtParams(1, tiling.n * SIZEOF_FLOAT, 0, 0, 0)
        for row in range(tiling.m * tiling.b):
            DataCopyPad(self.yGm[row * tiling.n], yLocal[row * tiling.nElemsAligned], rowParams)
        self.yQueue.FreeTensor(yLocal)


def mid_axis_1_naive(x, a, y, tiling):
    op = KernelMidAxis()
    op.Init(x, a, y, tiling)
    op.Process()


KERNEL = mid_axis_1_naive
