"""reduce_sum_ar_pragma: z[i] = sum_j x[i, j] (vendor reduce/src/reduce_sum_ar_pragma.asc).

The baseline with ``#pragma unroll 4`` on the row loop (``VLOOP(..., unroll=4)``, metadata only).
The VF runs VF_REPEAT times.
"""
from operators.simd_vf_story.common import VL_B32, static_cast_u16
from toolkit.ascendc import regbase as Reg
from toolkit.ascendc.dtypes import uint32_t

from .host import ReduceHost
from .kernel import KernelReduceBase

HOST = ReduceHost("sum", "ar")


@Reg.__simd_vf__
def ReduceSumArVfPragma(xAddr, zAddr, d0, d1, d1Pad):
    accReg = Reg.RegTensor[float]()
    inReg = Reg.RegTensor[float]()
    outReg = Reg.RegTensor[float]()
    unalignAcc = Reg.UnalignRegForStore()
    fullMask = Reg.CreateMask[float, Reg.MaskPattern.ALL]()
    rowChunks = static_cast_u16((d1 + VL_B32 - 1) // VL_B32)

    for i in Reg.VLOOP(static_cast_u16(d0), unroll=4):     # #pragma unroll 4
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


class KernelReduceSumAr(KernelReduceBase):
    VF = ReduceSumArVfPragma


def reduce_sum_ar_pragma(x, z, tiling):
    op = KernelReduceSumAr()
    op.Init(x, z, tiling)
    op.Process()


KERNEL = reduce_sum_ar_pragma
