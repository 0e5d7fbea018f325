"""reduce_sum_ar_binary: z[i] = sum_j x[i, j] (vendor reduce/src/reduce_sum_ar_binary.asc).

Per row: pairwise fold c0 += c2 (full mask), c1 += c3 (MERGING, 58-lane mask), c0 += c1, then ReduceSum:
2 serial steps instead of 4. The VF runs VF_REPEAT times.
"""
from operators.simd_vf_story.common import VL_B32, static_cast_u16
from toolkit.ascendc import regbase as Reg
from toolkit.ascendc.dtypes import uint32_t

from .host import ReduceHost
from .kernel import KernelReduceBase

HOST = ReduceHost("sum", "ar")


@Reg.__simd_vf__
def ReduceSumArVfBinary(xAddr, zAddr, d0, d1, d1Pad):
    c0 = Reg.RegTensor[float]()
    c1 = Reg.RegTensor[float]()
    c2 = Reg.RegTensor[float]()
    c3 = Reg.RegTensor[float]()
    outReg = Reg.RegTensor[float]()
    unalignAcc = Reg.UnalignRegForStore()
    fullMask = Reg.CreateMask[float, Reg.MaskPattern.ALL]()

    for i in Reg.VLOOP(static_cast_u16(d0)):
        base = i * d1Pad
        lastValid = uint32_t(d1 - 3 * VL_B32)       # valid columns of the last chunk (250 - 192 = 58)
        Reg.LoadAlign[float, Reg.LoadDist.DIST_NORM](c0, xAddr + base + 0 * VL_B32)
        Reg.LoadAlign[float, Reg.LoadDist.DIST_NORM](c1, xAddr + base + 1 * VL_B32)
        Reg.LoadAlign[float, Reg.LoadDist.DIST_NORM](c2, xAddr + base + 2 * VL_B32)
        Reg.LoadAlign[float, Reg.LoadDist.DIST_NORM](c3, xAddr + base + 3 * VL_B32)
        lastMask = Reg.UpdateMask[float](lastValid)
        # level 1, fold distance 128: c3's lanes [58, 64) are row padding, kept out by MERGING + lastMask
        Reg.Add(c0, c0, c2, fullMask)
        Reg.Add[float, Reg.MaskMergeMode.MERGING](c1, c1, c3, lastMask)
        # level 2: c0 + c1, then the in-register ReduceSum (row sum in lane 0)
        Reg.Add(c0, c0, c1, fullMask)
        Reg.ReduceSum(outReg, c0, fullMask)
        Reg.StoreUnAlign(zAddr, outReg, unalignAcc, 1)
    Reg.StoreUnAlignPost(zAddr, unalignAcc, 0)


class KernelReduceSumAr(KernelReduceBase):
    VF = ReduceSumArVfBinary


def reduce_sum_ar_binary(x, z, tiling):
    op = KernelReduceSumAr()
    op.Init(x, z, tiling)
    op.Process()


KERNEL = reduce_sum_ar_binary
