"""reduce_max_ra_baseline: z[j] = max_i x[i, j] (vendor reduce/src/reduce_max_ra_baseline.asc).

Outer column chunks, inner 78 rows folded into one accumulator (78 serial steps); ZEROING is fine
as the mask is constant over the row loop. The VF runs VF_REPEAT times.
"""
from toolkit import regbase as Reg
from toolkit.dma import DataCopyExtParams, DataCopyPad, DataCopyPadExtParams
from toolkit.dtypes import uint32_t
from toolkit.pipe import TPipe, TPosition, TQue
from toolkit.tensor import GlobalTensor, gm_cast

from ..common import BLOCK_BYTES, NEG_INF, SIZEOF_FLOAT, VF_REPEAT, VL_B32, AlignUp, static_cast_u16
from .host import ReduceHost

HOST = ReduceHost("max", "ra")


@Reg.__simd_vf__
def ReduceMaxRaVf(xAddr, zAddr, d0, d1, d1Pad):
    accReg = Reg.RegTensor[float]()
    inReg = Reg.RegTensor[float]()
    remainCols = uint32_t(d1)
    colChunks = static_cast_u16((d1 + VL_B32 - 1) // VL_B32)

    for c in Reg.VLOOP(colChunks):
        mask = Reg.UpdateMask[float](remainCols)
        Reg.Duplicate(accReg, NEG_INF)
        for i in Reg.VLOOP(static_cast_u16(d0)):
            Reg.LoadAlign[float, Reg.LoadDist.DIST_NORM](inReg, xAddr + i * d1Pad + c * VL_B32)
            Reg.Max(accReg, accReg, inReg, mask)
        Reg.StoreAlign[float, Reg.StoreDist.DIST_NORM](zAddr + c * VL_B32, accReg, mask)


class KernelReduceMaxRa:
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
        self.outLen_ = tiling.d1
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
            Reg.asc_vf_call[ReduceMaxRaVf](xAddr, zAddr, self.d0_, self.d1_, self.d1Pad_)
        self.outQueueZ.EnQue(zLocal)
        self.inQueueX.FreeTensor(xLocal)

    def CopyOut(self):
        zLocal = self.outQueueZ.DeQue(float)
        DataCopyPad(self.zGm, zLocal, DataCopyExtParams(1, self.outLen_ * SIZEOF_FLOAT, 0, 0, 0))
        self.outQueueZ.FreeTensor(zLocal)


def reduce_max_ra_baseline(x, z, tiling):
    op = KernelReduceMaxRa()
    op.Init(x, z, tiling)
    op.Process()


KERNEL = reduce_max_ra_baseline
