"""reduce_sum_ra_baseline: z[j] = sum_i x[i, j] (vendor reduce/src/reduce_sum_ra_baseline.asc).

Outer column chunks, inner 78 rows folded into one accumulator (78 serial steps); ZEROING is fine
as the mask is constant over the row loop. The VF runs VF_REPEAT times.
"""
from operators.simd_vf_story.common import VL_B32, static_cast_u16
from toolkit.ascendc import regbase as Reg
from toolkit.ascendc.dtypes import uint32_t

from .host import ReduceHost
from .kernel import KernelReduceBase

HOST = ReduceHost("sum", "ra")


@Reg.__simd_vf__
def ReduceSumRaVf(xAddr, zAddr, d0, d1, d1Pad):
    accReg = Reg.RegTensor[float]()
    inReg = Reg.RegTensor[float]()
    remainCols = uint32_t(d1)
    colChunks = static_cast_u16((d1 + VL_B32 - 1) // VL_B32)

    for c in Reg.VLOOP(colChunks):
        mask = Reg.UpdateMask[float](remainCols)
        Reg.Duplicate(accReg, 0.0)
        for i in Reg.VLOOP(static_cast_u16(d0)):
            Reg.LoadAlign[float, Reg.LoadDist.DIST_NORM](inReg, xAddr + i * d1Pad + c * VL_B32)
            Reg.Add(accReg, accReg, inReg, mask)
        Reg.StoreAlign[float, Reg.StoreDist.DIST_NORM](zAddr + c * VL_B32, accReg, mask)


class KernelReduceSumRa(KernelReduceBase):
    AXIS = "ra"
    VF = ReduceSumRaVf


def reduce_sum_ra_baseline(x, z, tiling):
    op = KernelReduceSumRa()
    op.Init(x, z, tiling)
    op.Process()


KERNEL = reduce_sum_ra_baseline
