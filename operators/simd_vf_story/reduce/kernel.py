"""Kernel class shared by the reduce variants: UB plan (rows in d1Pad slots plus one VL of slack),
row-by-row CopyIn, VF_REPEAT launches of the variant's VF, CopyOut of [D0] (``ar``) or [D1] (``ra``).
A variant file adds its VF."""
from operators.simd_vf_story.common import (
    BLOCK_BYTES,
    SIZEOF_FLOAT,
    VF_REPEAT,
    VL_B32,
    AlignUp,
)
from toolkit.ascendc import regbase as Reg
from toolkit.ascendc.dma import DataCopyExtParams, DataCopyPad, DataCopyPadExtParams
from toolkit.ascendc.pipe import TPipe, TPosition, TQue
from toolkit.ascendc.tensor import GlobalTensor, gm_cast


class KernelReduceBase:
    """Init / Process / CopyIn / Compute (VF_REPEAT launches of the variant's ``VF``) / CopyOut."""

    VF = None       #: the variant's __simd_vf__ function
    AXIS = "ar"     #: "ar" reduces along D1 (out [D0]), "ra" along D0 (out [D1])

    def __init__(self):
        self.pipe = TPipe()
        self.inQueueX = TQue(TPosition.VECIN, 1)
        self.outQueueZ = TQue(TPosition.VECOUT, 1)
        self.xGm = GlobalTensor(float)
        self.zGm = GlobalTensor(float)

    def Init(self, x, z, tiling):
        self.d0_ = tiling.d0
        self.d1_ = tiling.d1
        self.d1Pad_ = tiling.d1Pad
        self.outLen_ = tiling.d0 if self.AXIS == "ar" else tiling.d1
        self.xGm.SetGlobalBuffer(gm_cast(float, x), self.d0_ * self.d1_)
        self.zGm.SetGlobalBuffer(gm_cast(float, z), self.outLen_)
        # row slots of d1Pad floats plus one VL of slack for whole-register loads of the last row
        self.pipe.InitBuffer(self.inQueueX, 1, (self.d0_ * self.d1Pad_ + VL_B32) * SIZEOF_FLOAT)
        self.pipe.InitBuffer(self.outQueueZ, 1, AlignUp(self.outLen_ * SIZEOF_FLOAT, BLOCK_BYTES))

    def Process(self):
        self.CopyIn()
        self.Compute()
        self.CopyOut()

    def CopyIn(self):
        xLocal = self.inQueueX.AllocTensor(float)
        rowParams = DataCopyExtParams(1, self.d1_ * SIZEOF_FLOAT, 0, 0, 0)
        padParams = DataCopyPadExtParams(False, 0, 0, 0)
        for i in range(self.d0_):
            DataCopyPad(xLocal[i * self.d1Pad_], self.xGm[i * self.d1_], rowParams, padParams)
        self.inQueueX.EnQue(xLocal)

    def Compute(self):
        xLocal = self.inQueueX.DeQue(float)
        zLocal = self.outQueueZ.AllocTensor(float)
        xAddr = xLocal.GetPhyAddr()
        zAddr = zLocal.GetPhyAddr()
        for _ in range(VF_REPEAT):
            Reg.asc_vf_call[self.VF](xAddr, zAddr, self.d0_, self.d1_, self.d1Pad_)
        self.outQueueZ.EnQue(zLocal)
        self.inQueueX.FreeTensor(xLocal)

    def CopyOut(self):
        zLocal = self.outQueueZ.DeQue(float)
        DataCopyPad(self.zGm, zLocal, DataCopyExtParams(1, self.outLen_ * SIZEOF_FLOAT, 0, 0, 0))
        self.outQueueZ.FreeTensor(zLocal)
