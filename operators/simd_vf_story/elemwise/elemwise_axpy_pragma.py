"""elemwise_axpy_pragma: z = a * x + y (vendor elemwise/src/elemwise_axpy_pragma.asc).

The baseline body with ``#pragma unroll 4`` on the chunk loop (``VLOOP(..., unroll=4)``: a compiler
hint kept as metadata; the dependency structure is the baseline's). The VF runs VF_REPEAT times.
"""
from toolkit import regbase as Reg
from toolkit.dma import DataCopyExtParams, DataCopyPad, DataCopyPadExtParams
from toolkit.dtypes import uint32_t
from toolkit.pipe import TPipe, TPosition, TQue
from toolkit.tensor import GlobalTensor, gm_cast

from ..common import SIZEOF_FLOAT, VF_REPEAT, VL_B32, VFLoopNumForB32
from .host import ElemwiseHost

HOST = ElemwiseHost()


@Reg.__simd_vf__
def ElemwiseAxpyVfPragma(xAddr, yAddr, zAddr, a, n, loopNum):
    vx = Reg.RegTensor[float]()
    vy = Reg.RegTensor[float]()
    vt = Reg.RegTensor[float]()
    mask = Reg.MaskReg()
    count = uint32_t(n)

    for i in Reg.VLOOP(loopNum, unroll=4):     # #pragma unroll 4
        mask = Reg.UpdateMask[float](count)
        Reg.LoadAlign[float, Reg.LoadDist.DIST_NORM](vx, xAddr + i * VL_B32)
        Reg.LoadAlign[float, Reg.LoadDist.DIST_NORM](vy, yAddr + i * VL_B32)
        Reg.Muls(vt, vx, a, mask)
        Reg.Add(vt, vt, vy, mask)
        Reg.StoreAlign[float, Reg.StoreDist.DIST_NORM](zAddr + i * VL_B32, vt, mask)


class KernelElemwiseAxpy:
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
        self.loopNum_ = VFLoopNumForB32(self.n_)
        self.xGm.SetGlobalBuffer(gm_cast(float, x), self.n_)
        self.yGm.SetGlobalBuffer(gm_cast(float, y), self.n_)
        self.zGm.SetGlobalBuffer(gm_cast(float, z), self.n_)
        bufBytes = self.loopNum_ * VL_B32 * SIZEOF_FLOAT
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
            Reg.asc_vf_call[ElemwiseAxpyVfPragma](x, y, z, self.a_, self.n_, self.loopNum_)
        self.outQueueZ.EnQue(zLocal)
        self.inQueueX.FreeTensor(xLocal)
        self.inQueueY.FreeTensor(yLocal)

    def CopyOut(self):
        zLocal = self.outQueueZ.DeQue(float)
        DataCopyPad(self.zGm, zLocal, DataCopyExtParams(1, self.n_ * SIZEOF_FLOAT, 0, 0, 0))
        self.outQueueZ.FreeTensor(zLocal)


def elemwise_axpy_pragma(x, y, z, tiling):
    op = KernelElemwiseAxpy()
    op.Init(x, y, z, tiling)
    op.Process()


KERNEL = elemwise_axpy_pragma
