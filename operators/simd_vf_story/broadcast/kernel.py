"""Kernel classes shared by the broadcast variants (the sample's common kernel code): UB plan,
row-by-row CopyIn into 32 B aligned row slots, CopyOut. Each variant file adds its VF and ``Compute``."""
from toolkit.dma import DataCopyExtParams, DataCopyPad, DataCopyPadExtParams
from toolkit.pipe import TPipe, TPosition, TQue
from toolkit.tensor import GlobalTensor, gm_cast

from ..common import BLOCK_BYTES, SIZEOF_FLOAT, AlignUp


class KernelTailAxisBase:
    """Init / Process / CopyIn / CopyOut; ``Compute`` comes from the variant."""

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

    def CopyOut(self):
        tiling = self.tiling
        yLocal = self.yQueue.DeQue(float)
        rowParams = DataCopyExtParams(1, tiling.n * SIZEOF_FLOAT, 0, 0, 0)
        for j in range(tiling.m):
            DataCopyPad(self.yGm[j * tiling.n], yLocal[j * tiling.nElemsAligned], rowParams)
        self.yQueue.FreeTensor(yLocal)


class KernelHeadAxisBase:
    """Init / Process / CopyIn / CopyOut; ``Compute`` comes from the variant."""

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

    def CopyOut(self):
        tiling = self.tiling
        yLocal = self.yQueue.DeQue(float)
        rowParams = DataCopyExtParams(1, tiling.n * SIZEOF_FLOAT, 0, 0, 0)
        for j in range(tiling.m):
            DataCopyPad(self.yGm[j * tiling.n], yLocal[j * tiling.nElemsAligned], rowParams)
        self.yQueue.FreeTensor(yLocal)


class KernelMidAxisBase:
    """Init / Process / CopyIn / CopyOut; ``Compute`` comes from the variant."""

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

    def CopyOut(self):
        tiling = self.tiling
        yLocal = self.yQueue.DeQue(float)
        rowParams = DataCopyExtParams(1, tiling.n * SIZEOF_FLOAT, 0, 0, 0)
        for row in range(tiling.m * tiling.b):
            DataCopyPad(self.yGm[row * tiling.n], yLocal[row * tiling.nElemsAligned], rowParams)
        self.yQueue.FreeTensor(yLocal)
