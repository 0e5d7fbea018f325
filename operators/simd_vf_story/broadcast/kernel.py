"""Kernel class shared by the broadcast variants (the sample's common kernel code): UB plan, row-by-row
CopyIn into 32 B aligned row slots, CopyOut. Each variant file adds its VF and ``Compute``.

x and y are [m*b] rows of n floats, each in a row slot of ``nElemsAligned`` floats; ``a`` is
``A_ROWS`` rows of ``A_LEN`` floats: tail a[m] (one row of m), head a[n] (one row of n), mid a[m, n].
"""
from operators.simd_vf_story.common import BLOCK_BYTES, SIZEOF_FLOAT, AlignUp
from toolkit.ascendc.dma import DataCopyExtParams, DataCopyPad, DataCopyPadExtParams
from toolkit.ascendc.pipe import TPipe, TPosition, TQue
from toolkit.ascendc.tensor import GlobalTensor, gm_cast


class KernelBroadcastBase:
    """Init / Process / CopyIn / CopyOut; ``Compute`` comes from the variant."""

    SHAPE = "mid"   #: "tail" (a[m]), "head" (a[n]) or "mid" (a[m, n])

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
        self.xRows = tiling.m * tiling.b
        self.aRows, self.aLen = {"tail": (1, tiling.m), "head": (1, tiling.n), "mid": (tiling.m, tiling.n)}[self.SHAPE]
        self.aSlot = AlignUp(self.aLen * SIZEOF_FLOAT, BLOCK_BYTES) // SIZEOF_FLOAT
        self.xGm.SetGlobalBuffer(gm_cast(float, x), self.xRows * tiling.n)
        self.aGm.SetGlobalBuffer(gm_cast(float, a), self.aRows * self.aLen)
        self.yGm.SetGlobalBuffer(gm_cast(float, y), self.xRows * tiling.n)
        self.pipe.InitBuffer(self.xQueue, 1, self.xRows * tiling.nElemsAligned * SIZEOF_FLOAT)
        self.pipe.InitBuffer(self.aQueue, 1, self.aRows * self.aSlot * SIZEOF_FLOAT)
        self.pipe.InitBuffer(self.yQueue, 1, self.xRows * tiling.nElemsAligned * SIZEOF_FLOAT)

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
        for row in range(self.xRows):
            DataCopyPad(xLocal[row * tiling.nElemsAligned], self.xGm[row * tiling.n], rowParams, padParams)
        aParams = DataCopyExtParams(1, self.aLen * SIZEOF_FLOAT, 0, 0, 0)
        for row in range(self.aRows):
            DataCopyPad(aLocal[row * self.aSlot], self.aGm[row * self.aLen], aParams, padParams)
        self.xQueue.EnQue(xLocal)
        self.aQueue.EnQue(aLocal)

    def CopyOut(self):
        tiling = self.tiling
        yLocal = self.yQueue.DeQue(float)
        rowParams = DataCopyExtParams(1, tiling.n * SIZEOF_FLOAT, 0, 0, 0)
        for row in range(self.xRows):
            DataCopyPad(self.yGm[row * tiling.n], yLocal[row * tiling.nElemsAligned], rowParams)
        self.yQueue.FreeTensor(yLocal)


class KernelTailAxisBase(KernelBroadcastBase):
    SHAPE = "tail"


class KernelHeadAxisBase(KernelBroadcastBase):
    SHAPE = "head"


class KernelMidAxisBase(KernelBroadcastBase):
    SHAPE = "mid"
