"""reduce_max_ar_baseline: z[i] = max_j x[i, j] (vendor reduce/src/reduce_max_ar_baseline.asc).

Per row: fold the 4 column chunks into one accumulator with MERGING, reduce in-register, StoreUnAlign one
element; StoreUnAlignPost flushes at the end. The VF runs VF_REPEAT times.
"""
from operators.simd_vf_story.common import NEG_INF, VL_B32, static_cast_u16
from toolkit.ascendc import regbase as Reg
from toolkit.ascendc.dtypes import uint32_t

from .host import ReduceHost
from .kernel import KernelReduceBase

HOST = ReduceHost("max", "ar")


@Reg.__simd_vf__
def ReduceMaxArVf(xAddr, zAddr, d0, d1, d1Pad):
    accReg = Reg.RegTensor[float]()
    inReg = Reg.RegTensor[float]()
    outReg = Reg.RegTensor[float]()
    unalignAcc = Reg.UnalignRegForStore()
    fullMask = Reg.CreateMask[float, Reg.MaskPattern.ALL]()
    rowChunks = static_cast_u16((d1 + VL_B32 - 1) // VL_B32)

    for i in Reg.VLOOP(static_cast_u16(d0)):
        Reg.Duplicate(accReg, NEG_INF)
        remainCols = uint32_t(d1)
        for c in Reg.VLOOP(rowChunks):
            mask = Reg.UpdateMask[float](remainCols)
            Reg.LoadAlign[float, Reg.LoadDist.DIST_NORM](inReg, xAddr + i * d1Pad + c * VL_B32)
            # MERGING: ZEROING would wipe the lanes beyond the partial last chunk
            Reg.Max[float, Reg.MaskMergeMode.MERGING](accReg, accReg, inReg, mask)
        Reg.ReduceMax(outReg, accReg, fullMask)
        Reg.StoreUnAlign(zAddr, outReg, unalignAcc, 1)
    Reg.StoreUnAlignPost(zAddr, unalignAcc, 0)


class KernelReduceMaxAr(KernelReduceBase):
    VF = ReduceMaxArVf


def reduce_max_ar_baseline(x, z, tiling):
    op = KernelReduceMaxAr()
    op.Init(x, z, tiling)
    op.Process()


KERNEL = reduce_max_ar_baseline
