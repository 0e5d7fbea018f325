"""Kernel class shared by the elemwise AXPY variants: UB plan (buffers rounded up to ``UNROLL`` VL
chunks), contiguous CopyIn / CopyOut, VF_REPEAT launches of the variant's VF. A variant file adds its VF."""
from operators.simd_vf_story.common import (
    SIZEOF_FLOAT,
    VF_REPEAT,
    VL_B32,
    VFLoopNumForB32,
)
from toolkit.ascendc import regbase as Reg
from toolkit.ascendc.dma import DataCopyExtParams, DataCopyPad, DataCopyPadExtParams
from toolkit.ascendc.pipe import TPipe, TPosition, TQue
from toolkit.ascendc.tensor import GlobalTensor, gm_cast


class KernelElemwiseAxpyBase:
    """Init / Process / CopyIn / Compute (VF_REPEAT launches of the variant's ``VF``) / CopyOut."""

    VF = None       #: the variant's __simd_vf__ function
    UNROLL = 1      #: VL chunks per loop trip (the hand-unrolled variant sets 4)

    def __init__(self):
        self.pipe = TPipe()
        self.inQueueX = TQue(TPosition.VECIN, 1)
        self.inQueueY = TQue(TPosition.VECIN, 1)
        self.outQueueZ = TQue(TPosition.VECOUT, 1)
        self.xGm = GlobalTensor(float)
        self.yGm = GlobalTensor(float)
        self.zGm = GlobalTensor(float)

    def Init(self, x, y, z, tiling):
        self.n_ = tiling.n
        self.a_ = tiling.a
        self.loopNum_ = (VFLoopNumForB32(self.n_) + self.UNROLL - 1) // self.UNROLL
        self.xGm.SetGlobalBuffer(gm_cast(float, x), self.n_)
        self.yGm.SetGlobalBuffer(gm_cast(float, y), self.n_)
        self.zGm.SetGlobalBuffer(gm_cast(float, z), self.n_)
        bufBytes = self.loopNum_ * self.UNROLL * VL_B32 * SIZEOF_FLOAT
        self.pipe.InitBuffer(self.inQueueX, 1, bufBytes)
        self.pipe.InitBuffer(self.inQueueY, 1, bufBytes)
        self.pipe.InitBuffer(self.outQueueZ, 1, bufBytes)

    def Process(self):
        self.CopyIn()
        self.Compute()
        self.CopyOut()

    def CopyIn(self):
        xLocal = self.inQueueX.AllocTensor(float)
        yLocal = self.inQueueY.AllocTensor(float)
        params = DataCopyExtParams(1, self.n_ * SIZEOF_FLOAT, 0, 0, 0)
        padParams = DataCopyPadExtParams(False, 0, 0, 0)
        DataCopyPad(xLocal, self.xGm, params, padParams)
        DataCopyPad(yLocal, self.yGm, params, padParams)
        self.inQueueX.EnQue(xLocal)
        self.inQueueY.EnQue(yLocal)

    def Compute(self):
        xLocal = self.inQueueX.DeQue(float)
        yLocal = self.inQueueY.DeQue(float)
        zLocal = self.outQueueZ.AllocTensor(float)
        x = xLocal.GetPhyAddr()
        y = yLocal.GetPhyAddr()
        z = zLocal.GetPhyAddr()
        for _ in range(VF_REPEAT):
            Reg.asc_vf_call[self.VF](x, y, z, self.a_, self.n_, self.loopNum_)
        self.outQueueZ.EnQue(zLocal)
        self.inQueueX.FreeTensor(xLocal)
        self.inQueueY.FreeTensor(yLocal)

    def CopyOut(self):
        zLocal = self.outQueueZ.DeQue(float)
        DataCopyPad(self.zGm, zLocal, DataCopyExtParams(1, self.n_ * SIZEOF_FLOAT, 0, 0, 0))
        self.outQueueZ.FreeTensor(zLocal)
