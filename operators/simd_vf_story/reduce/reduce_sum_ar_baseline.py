"""reduce_sum_ar_baseline: z[i] = sum_j x[i, j] (vendor reduce/src/reduce_sum_ar_baseline.asc).

Per row: fold the 4 column chunks into one accumulator with MERGING, reduce in-register, StoreUnAlign one
element; StoreUnAlignPost flushes at the end. The VF runs VF_REPEAT times.
"""
from toolkit import regbase as Reg
from toolkit.dma import DataCopyExtParams, DataCopyPad, DataCopyPadExtParams
from toolkit.dtypes import uint32_t
from toolkit.pipe import TPipe, TPosition, TQue
from toolkit.tensor import GlobalTensor, gm_cast

from ..common import BLOCK_BYTES, SIZEOF_FLOAT, VF_REPEAT, VL_B32, AlignUp, static_cast_u16
from .host import ReduceHost

HOST = ReduceHost("sum", "ar")


@Reg.__simd_vf__
def ReduceSumArVf(xAddr, zAddr, d0, d1, d1Pad):
    accReg = Reg.RegTensor[float]()
    inReg = Reg.RegTensor[float]()
    outReg = Reg.RegTensor[float]()
    unalignAcc = Reg.UnalignRegForStore()
    fullMask = Reg.CreateMask[float, Reg.MaskPattern.ALL]()
    rowChunks = static_cast_u16((d1 + VL_B32 - 1) // VL_B32)

    for i in Reg.VLOOP(static_cast_u16(d0)):
        Reg.Duplicate(accReg, 0.0)
        remainCols = uint32_t(d1)
        for c in Reg.VLOOP(rowChunks):
            mask = Reg.UpdateMask[float](remainCols)
            Reg.LoadAlign[float, Reg.LoadDist.DIST_NORM](inReg, xAddr + i * d1Pad + c * VL_B32)
            # MERGING: ZEROING would wipe the lanes beyond the partial last chunk
            Reg.Add[float, Reg.MaskMergeMode.MERGING](accReg, accReg, inReg, mask)
        Reg.ReduceSum(outReg, accReg, fullMask)
        Reg.StoreUnAlign(zAddr, outReg, unalignAcc, 1)
    Reg.StoreUnAlignPost(zAddr, unalignAcc, 0)


class KernelReduceSumAr:
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
        self.outLen_ = tiling.d0
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
            Reg.asc_vf_call[ReduceSumArVf](xAddr, zAddr, self.d0_, self.d1_, self.d1Pad_)
        self.outQueueZ.EnQue(zLocal)
        self.inQueueX.FreeTensor(xLocal)

    def CopyOut(self):
        zLocal = self.outQueueZ.DeQue(float)
        DataCopyPad(self.zGm, zLocal, DataCopyExtParams(1, self.outLen_ * SIZEOF_FLOAT, 0, 0, 0))
        self.outQueueZ.FreeTensor(zLocal)


def reduce_sum_ar_baseline(x, z, tiling):
    op = KernelReduceSumAr()
    op.Init(x, z, tiling)
    op.Process()


KERNEL = reduce_sum_ar_baseline
