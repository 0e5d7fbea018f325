"""elemwise_axpy_unroll: z = a * x + y (vendor elemwise/src/elemwise_axpy_unroll.asc).

Hand unrolled by 4: four independent named register sets per trip (4 masks, 8 loads, 4 Muls+Add
pairs, 4 stores) over ceil(chunks / 4) trips; chunks beyond N get an empty mask. UB buffers are
rounded up to a multiple of 4 VL. The VF runs VF_REPEAT times.
"""
from toolkit import regbase as Reg
from toolkit.dma import DataCopyExtParams, DataCopyPad, DataCopyPadExtParams
from toolkit.dtypes import uint32_t
from toolkit.pipe import TPipe, TPosition, TQue
from toolkit.tensor import GlobalTensor, gm_cast

from ..common import SIZEOF_FLOAT, VF_REPEAT, VL_B32, VFLoopNumForB32
from .host import ElemwiseHost

HOST = ElemwiseHost()


UNROLL = 4


@Reg.__simd_vf__
def ElemwiseAxpyVfUnroll(xAddr, yAddr, zAddr, a, n, loopNum):
    vx0 = Reg.RegTensor[float]()
    vx1 = Reg.RegTensor[float]()
    vx2 = Reg.RegTensor[float]()
    vx3 = Reg.RegTensor[float]()
    vy0 = Reg.RegTensor[float]()
    vy1 = Reg.RegTensor[float]()
    vy2 = Reg.RegTensor[float]()
    vy3 = Reg.RegTensor[float]()
    vt0 = Reg.RegTensor[float]()
    vt1 = Reg.RegTensor[float]()
    vt2 = Reg.RegTensor[float]()
    vt3 = Reg.RegTensor[float]()
    count = uint32_t(n)

    for i in Reg.VLOOP(loopNum):
        base = i * UNROLL * VL_B32
        mask0 = Reg.UpdateMask[float](count)
        mask1 = Reg.UpdateMask[float](count)
        mask2 = Reg.UpdateMask[float](count)
        mask3 = Reg.UpdateMask[float](count)
        Reg.LoadAlign[float, Reg.LoadDist.DIST_NORM](vx0, xAddr + base + 0 * VL_B32)
        Reg.LoadAlign[float, Reg.LoadDist.DIST_NORM](vx1, xAddr + base + 1 * VL_B32)
        Reg.LoadAlign[float, Reg.LoadDist.DIST_NORM](vx2, xAddr + base + 2 * VL_B32)
        Reg.LoadAlign[float, Reg.LoadDist.DIST_NORM](vx3, xAddr + base + 3 * VL_B32)
        Reg.LoadAlign[float, Reg.LoadDist.DIST_NORM](vy0, yAddr + base + 0 * VL_B32)
        Reg.LoadAlign[float, Reg.LoadDist.DIST_NORM](vy1, yAddr + base + 1 * VL_B32)
        Reg.LoadAlign[float, Reg.LoadDist.DIST_NORM](vy2, yAddr + base + 2 * VL_B32)
        Reg.LoadAlign[float, Reg.LoadDist.DIST_NORM](vy3, yAddr + base + 3 * VL_B32)
        Reg.Muls(vt0, vx0, a, mask0)
        Reg.Add(vt0, vt0, vy0, mask0)
        Reg.Muls(vt1, vx1, a, mask1)
        Reg.Add(vt1, vt1, vy1, mask1)
        Reg.Muls(vt2, vx2, a, mask2)
        Reg.Add(vt2, vt2, vy2, mask2)
        Reg.Muls(vt3, vx3, a, mask3)
        Reg.Add(vt3, vt3, vy3, mask3)
        Reg.StoreAlign[float, Reg.StoreDist.DIST_NORM](zAddr + base + 0 * VL_B32, vt0, mask0)
        Reg.StoreAlign[float, Reg.StoreDist.DIST_NORM](zAddr + base + 1 * VL_B32, vt1, mask1)
        Reg.StoreAlign[float, Reg.StoreDist.DIST_NORM](zAddr + base + 2 * VL_B32, vt2, mask2)
        Reg.StoreAlign[float, Reg.StoreDist.DIST_NORM](zAddr + base + 3 * VL_B32, vt3, mask3)


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
        self.loopNum_ = (VFLoopNumForB32(self.n_) + UNROLL - 1) // UNROLL
        self.xGm.SetGlobalBuffer(gm_cast(float, x), self.n_)
        self.yGm.SetGlobalBuffer(gm_cast(float, y), self.n_)
        self.zGm.SetGlobalBuffer(gm_cast(float, z), self.n_)
        bufBytes = self.loopNum_ * UNROLL * VL_B32 * SIZEOF_FLOAT
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
            Reg.asc_vf_call[ElemwiseAxpyVfUnroll](x, y, z, self.a_, self.n_, self.loopNum_)
        self.outQueueZ.EnQue(zLocal)
        self.inQueueX.FreeTensor(xLocal)
        self.inQueueY.FreeTensor(yLocal)

    def CopyOut(self):
        zLocal = self.outQueueZ.DeQue(float)
        DataCopyPad(self.zGm, zLocal, DataCopyExtParams(1, self.n_ * SIZEOF_FLOAT, 0, 0, 0))
        self.outQueueZ.FreeTensor(zLocal)


def elemwise_axpy_unroll(x, y, z, tiling):
    op = KernelElemwiseAxpy()
    op.Init(x, y, z, tiling)
    op.Process()


KERNEL = elemwise_axpy_unroll
