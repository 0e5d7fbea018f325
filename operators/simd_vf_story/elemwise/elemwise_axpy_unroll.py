"""elemwise_axpy_unroll: z = a * x + y (vendor elemwise/src/elemwise_axpy_unroll.asc).

Hand unrolled by 4: four independent named register sets per trip (4 masks, 8 loads, 4 Muls+Add
pairs, 4 stores) over ceil(chunks / 4) trips; chunks beyond N get an empty mask. UB buffers are
rounded up to a multiple of 4 VL. The VF runs VF_REPEAT times.
"""
from operators.simd_vf_story.common import VL_B32
from toolkit.ascendc import regbase as Reg
from toolkit.ascendc.dtypes import uint32_t

from .host import ElemwiseHost
from .kernel import KernelElemwiseAxpyBase

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


class KernelElemwiseAxpy(KernelElemwiseAxpyBase):
    UNROLL = UNROLL
    VF = ElemwiseAxpyVfUnroll


def elemwise_axpy_unroll(x, y, z, tiling):
    op = KernelElemwiseAxpy()
    op.Init(x, y, z, tiling)
    op.Process()


KERNEL = elemwise_axpy_unroll
