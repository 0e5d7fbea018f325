"""elemwise_axpy_baseline: z = a * x + y (vendor elemwise/src/elemwise_axpy_baseline.asc).

One VL chunk per loop trip; the intermediate stays in a register. The VF runs VF_REPEAT times.
"""
from operators.simd_vf_story.common import VL_B32
from toolkit.ascendc import regbase as Reg
from toolkit.ascendc.dtypes import uint32_t

from .host import ElemwiseHost
from .kernel import KernelElemwiseAxpyBase

HOST = ElemwiseHost()


@Reg.__simd_vf__
def ElemwiseAxpyVf(xAddr, yAddr, zAddr, a, n, loopNum):
    vx = Reg.RegTensor[float]()
    vy = Reg.RegTensor[float]()
    vt = Reg.RegTensor[float]()
    mask = Reg.MaskReg()
    count = uint32_t(n)

    for i in Reg.VLOOP(loopNum):
        mask = Reg.UpdateMask[float](count)
        Reg.LoadAlign[float, Reg.LoadDist.DIST_NORM](vx, xAddr + i * VL_B32)
        Reg.LoadAlign[float, Reg.LoadDist.DIST_NORM](vy, yAddr + i * VL_B32)
        Reg.Muls(vt, vx, a, mask)
        Reg.Add(vt, vt, vy, mask)
        Reg.StoreAlign[float, Reg.StoreDist.DIST_NORM](zAddr + i * VL_B32, vt, mask)


class KernelElemwiseAxpy(KernelElemwiseAxpyBase):
    VF = ElemwiseAxpyVf


def elemwise_axpy_baseline(x, y, z, tiling):
    op = KernelElemwiseAxpy()
    op.Init(x, y, z, tiling)
    op.Process()


KERNEL = elemwise_axpy_baseline
