"""reduce_sum_ra_unroll: z[j] = sum_i x[i, j] (vendor reduce/src/reduce_sum_ra_unroll.asc).

Four accumulators over groups of 4 rows, a tail loop for the last 78 % 4 rows, then acc0 = op(acc0, acc1),
acc2 = op(acc2, acc3), acc0 = op(acc0, acc2). The VF runs VF_REPEAT times.
"""
from operators.simd_vf_story.common import VL_B32, static_cast_u16
from toolkit.ascendc import regbase as Reg
from toolkit.ascendc.dtypes import uint32_t

from .host import ReduceHost
from .kernel import KernelReduceBase

HOST = ReduceHost("sum", "ra")


@Reg.__simd_vf__
def ReduceSumRaVfUnroll(xAddr, zAddr, d0, d1, d1Pad):
    acc0 = Reg.RegTensor[float]()
    acc1 = Reg.RegTensor[float]()
    acc2 = Reg.RegTensor[float]()
    acc3 = Reg.RegTensor[float]()
    in0 = Reg.RegTensor[float]()
    in1 = Reg.RegTensor[float]()
    in2 = Reg.RegTensor[float]()
    in3 = Reg.RegTensor[float]()
    remainCols = uint32_t(d1)
    colChunks = static_cast_u16((d1 + VL_B32 - 1) // VL_B32)

    for c in Reg.VLOOP(colChunks):
        mask = Reg.UpdateMask[float](remainCols)
        Reg.Duplicate(acc0, 0.0)
        Reg.Duplicate(acc1, 0.0)
        Reg.Duplicate(acc2, 0.0)
        Reg.Duplicate(acc3, 0.0)
        groups = static_cast_u16(d0) // 4
        for g in Reg.VLOOP(groups):
            r = static_cast_u16(g * 4)
            Reg.LoadAlign[float, Reg.LoadDist.DIST_NORM](in0, xAddr + (r + 0) * d1Pad + c * VL_B32)
            Reg.LoadAlign[float, Reg.LoadDist.DIST_NORM](in1, xAddr + (r + 1) * d1Pad + c * VL_B32)
            Reg.LoadAlign[float, Reg.LoadDist.DIST_NORM](in2, xAddr + (r + 2) * d1Pad + c * VL_B32)
            Reg.LoadAlign[float, Reg.LoadDist.DIST_NORM](in3, xAddr + (r + 3) * d1Pad + c * VL_B32)
            Reg.Add(acc0, acc0, in0, mask)
            Reg.Add(acc1, acc1, in1, mask)
            Reg.Add(acc2, acc2, in2, mask)
            Reg.Add(acc3, acc3, in3, mask)
        for r in Reg.VLOOP(static_cast_u16(groups * 4), static_cast_u16(d0)):
            Reg.LoadAlign[float, Reg.LoadDist.DIST_NORM](in0, xAddr + r * d1Pad + c * VL_B32)
            Reg.Add(acc0, acc0, in0, mask)
        Reg.Add(acc0, acc0, acc1, mask)
        Reg.Add(acc2, acc2, acc3, mask)
        Reg.Add(acc0, acc0, acc2, mask)
        Reg.StoreAlign[float, Reg.StoreDist.DIST_NORM](zAddr + c * VL_B32, acc0, mask)


class KernelReduceSumRa(KernelReduceBase):
    AXIS = "ra"
    VF = ReduceSumRaVfUnroll


def reduce_sum_ra_unroll(x, z, tiling):
    op = KernelReduceSumRa()
    op.Init(x, z, tiling)
    op.Process()


KERNEL = reduce_sum_ra_unroll
