"""head_axis_1_naive: y[m, n] = x[m, n] + a[n] (vendor broadcast/src/head_axis_1_naive.asc).

Naive: one VF per row, each loads x and a chunk by chunk.
"""
from toolkit import regbase as Reg
from toolkit.dma import DataCopyExtParams, DataCopyPad, DataCopyPadExtParams
from toolkit.dtypes import uint32_t
from toolkit.pipe import TPipe, TPosition, TQue
from toolkit.tensor import GlobalTensor, gm_cast

from ..common import SIZEOF_FLOAT, VL_B32, VFLoopNumForB32
from .host import BroadcastHost

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


class KernelHeadAxis:
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
        self.aGm.SetGlobalBuffer(gm_cast(float, a), tiling.n)
        self.yGm.SetGlobalBuffer(gm_cast(float, y), tiling.m * tiling.n)
        self.pipe.InitBuffer(self.xQueue, 1, tiling.m * tiling.nElemsAligned * SIZEOF_FLOAT)
        self.pipe.InitBuffer(self.aQueue, 1, tiling.nElemsAligned * SIZEOF_FLOAT)
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
        DataCopyPad(aLocal, self.aGm, rowParams, padParams)
        self.xQueue.EnQue(xLocal)
        self.aQueue.EnQue(aLocal)

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

    def CopyOut(self):
        tiling = self.tiling
        yLocal = self.yQueue.DeQue(float)
        rowParams = DataCopyExtParams(1, tiling.n * SIZEOF_FLOAT, 0, 0, 0)
        for j in range(tiling.m):
            DataCopyPad(self.yGm[j * tiling.n], yLocal[j * tiling.nElemsAligned], rowParams)
        self.yQueue.FreeTensor(yLocal)


def head_axis_1_naive(x, a, y, tiling):
    op = KernelHeadAxis()
    op.Init(x, a, y, tiling)
    op.Process()


KERNEL = head_axis_1_naive
