"""reduce_sum_ar_unroll: z[i] = sum_j x[i, j] (vendor reduce/src/reduce_sum_ar_unroll.asc).

Four rows per group, one accumulator each, sharing the chunk mask; the tail rows as in the baseline;
StoreUnAlignPost at the end. The VF runs VF_REPEAT times.
"""
from operators.simd_vf_story.common import VL_B32, static_cast_u16
from toolkit.ascendc import regbase as Reg
from toolkit.ascendc.dtypes import uint32_t

from .host import ReduceHost
from .kernel import KernelReduceBase

HOST = ReduceHost("sum", "ar")


@Reg.__simd_vf__
def ReduceSumArVfUnroll(xAddr, zAddr, d0, d1, d1Pad):
    acc0 = Reg.RegTensor[float]()
    acc1 = Reg.RegTensor[float]()
    acc2 = Reg.RegTensor[float]()
    acc3 = Reg.RegTensor[float]()
    in0 = Reg.RegTensor[float]()
    in1 = Reg.RegTensor[float]()
    in2 = Reg.RegTensor[float]()
    in3 = Reg.RegTensor[float]()
    unalignAcc = Reg.UnalignRegForStore()
    fullMask = Reg.CreateMask[float, Reg.MaskPattern.ALL]()
    rowChunks = static_cast_u16((d1 + VL_B32 - 1) // VL_B32)
    groups = static_cast_u16(d0) // 4

    for g in Reg.VLOOP(groups):
        r = static_cast_u16(g * 4)
        Reg.Duplicate(acc0, 0.0)
        Reg.Duplicate(acc1, 0.0)
        Reg.Duplicate(acc2, 0.0)
        Reg.Duplicate(acc3, 0.0)
        remainCols = uint32_t(d1)
        for c in Reg.VLOOP(rowChunks):
            mask = Reg.UpdateMask[float](remainCols)
            Reg.LoadAlign[float, Reg.LoadDist.DIST_NORM](in0, xAddr + (r + 0) * d1Pad + c * VL_B32)
            Reg.LoadAlign[float, Reg.LoadDist.DIST_NORM](in1, xAddr + (r + 1) * d1Pad + c * VL_B32)
            Reg.LoadAlign[float, Reg.LoadDist.DIST_NORM](in2, xAddr + (r + 2) * d1Pad + c * VL_B32)
            Reg.LoadAlign[float, Reg.LoadDist.DIST_NORM](in3, xAddr + (r + 3) * d1Pad + c * VL_B32)
            Reg.Add[float, Reg.MaskMergeMode.MERGING](acc0, acc0, in0, mask)
            Reg.Add[float, Reg.MaskMergeMode.MERGING](acc1, acc1, in1, mask)
            Reg.Add[float, Reg.MaskMergeMode.MERGING](acc2, acc2, in2, mask)
            Reg.Add[float, Reg.MaskMergeMode.MERGING](acc3, acc3, in3, mask)
        Reg.ReduceSum(in0, acc0, fullMask)
        Reg.StoreUnAlign(zAddr, in0, unalignAcc, 1)
        Reg.ReduceSum(in1, acc1, fullMask)
        Reg.StoreUnAlign(zAddr, in1, unalignAcc, 1)
        Reg.ReduceSum(in2, acc2, fullMask)
        Reg.StoreUnAlign(zAddr, in2, unalignAcc, 1)
        Reg.ReduceSum(in3, acc3, fullMask)
        Reg.StoreUnAlign(zAddr, in3, unalignAcc, 1)
    for r in Reg.VLOOP(static_cast_u16(groups * 4), static_cast_u16(d0)):
        Reg.Duplicate(acc0, 0.0)
        remainCols = uint32_t(d1)
        for c in Reg.VLOOP(rowChunks):
            mask = Reg.UpdateMask[float](remainCols)
            Reg.LoadAlign[float, Reg.LoadDist.DIST_NORM](in0, xAddr + r * d1Pad + c * VL_B32)
            Reg.Add[float, Reg.MaskMergeMode.MERGING](acc0, acc0, in0, mask)
        Reg.ReduceSum(in0, acc0, fullMask)
        Reg.StoreUnAlign(zAddr, in0, unalignAcc, 1)
    Reg.StoreUnAlignPost(zAddr, unalignAcc, 0)


class KernelReduceSumAr(KernelReduceBase):
    VF = ReduceSumArVfUnroll


def reduce_sum_ar_unroll(x, z, tiling):
    op = KernelReduceSumAr()
    op.Init(x, z, tiling)
    op.Process()


KERNEL = reduce_sum_ar_unroll
