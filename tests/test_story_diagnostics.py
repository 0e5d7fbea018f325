"""Diagnostics on test-local variants of the story kernels: the bug is reported where it is written."""
from __future__ import annotations

import os

from operators.simd_vf_story.common import NEG_INF, VF_REPEAT, VL_B32, static_cast_u16
from operators.simd_vf_story.elemwise import elemwise_axpy_baseline as axpy
from operators.simd_vf_story.hostlib import run_kernel
from operators.simd_vf_story.reduce import reduce_max_ar_baseline as max_ar
from operators.simd_vf_story.reduce import reduce_sum_ar_baseline as sum_ar
from toolkit.ascendc import regbase as Reg
from toolkit.ascendc.dtypes import uint32_t

from api_support import line_of


def reduce_kernel(base_cls, vf):
    """Kernel entry of ``base_cls`` (a story reduce kernel class) whose Compute launches ``vf``."""
    class Kernel(base_cls):
        def Compute(self):
            xLocal = self.inQueueX.DeQue(float)
            zLocal = self.outQueueZ.AllocTensor(float)
            for _ in range(VF_REPEAT):
                Reg.asc_vf_call[vf](xLocal.GetPhyAddr(), zLocal.GetPhyAddr(), self.d0_, self.d1_, self.d1Pad_)
            self.outQueueZ.EnQue(zLocal)
            self.inQueueX.FreeTensor(xLocal)

    def kernel(x, z, tiling):
        op = Kernel()
        op.Init(x, z, tiling)
        op.Process()
    return kernel


# -- 1. the ar fold written with ZEROING ------------------------------------------------------------
@Reg.__simd_vf__
def ReduceSumArVfZeroing(xAddr, zAddr, d0, d1, d1Pad):
    accReg = Reg.RegTensor[float]()
    inReg = Reg.RegTensor[float]()
    outReg = Reg.RegTensor[float]()
    unalignAcc = Reg.UnalignRegForStore()
    fullMask = Reg.CreateMask[float, Reg.MaskPattern.ALL]()
    rowChunks = static_cast_u16((d1 + VL_B32 - 1) // VL_B32)
    for i in Reg.VLOOP(static_cast_u16(d0)):
        Reg.Duplicate(accReg, 0.0)
        remainCols = uint32_t(d1)
        for c in Reg.VLOOP(rowChunks):
            mask = Reg.UpdateMask[float](remainCols)
            Reg.LoadAlign[float, Reg.LoadDist.DIST_NORM](inReg, xAddr + i * d1Pad + c * VL_B32)
            Reg.Add(accReg, accReg, inReg, mask)                     # <- ZEROING fold
        Reg.ReduceSum(outReg, accReg, fullMask)
        Reg.StoreUnAlign(zAddr, outReg, unalignAcc, 1)
    Reg.StoreUnAlignPost(zAddr, unalignAcc, 0)


def test_zeroing_fold_fails_the_check_and_is_diagnosed():
    r = run_kernel(reduce_kernel(sum_ar.KernelReduceSumAr, ReduceSumArVfZeroing), sum_ar.HOST)
    assert not r.check.passed and not r.passed
    diags = [d for d in r.diagnostics if d.code == "ZEROING_ACCUMULATOR"]
    assert diags and diags[0].file == os.path.abspath(__file__)
    assert diags[0].line == line_of(__file__, "# <- ZEROING fold")


def test_the_merging_baseline_is_clean():
    r = run_kernel(sum_ar.KERNEL, sum_ar.HOST)
    assert r.passed and "ZEROING_ACCUMULATOR" not in r.diagnostics.codes()


# -- 2. StoreUnAlign without StoreUnAlignPost -----------------------------------------------------
@Reg.__simd_vf__
def ReduceMaxArVfNoPost(xAddr, zAddr, d0, d1, d1Pad):
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
            Reg.Max[float, Reg.MaskMergeMode.MERGING](accReg, accReg, inReg, mask)
        Reg.ReduceMax(outReg, accReg, fullMask)
        Reg.StoreUnAlign(zAddr, outReg, unalignAcc, 1)                # <- never flushed
    # StoreUnAlignPost(zAddr, unalignAcc, 0) is missing


def test_missing_store_unalign_post_is_diagnosed():
    r = run_kernel(reduce_kernel(max_ar.KernelReduceMaxAr, ReduceMaxArVfNoPost), max_ar.HOST)
    assert not r.passed
    diags = [d for d in r.diagnostics if d.code == "UNALIGN_STORE_NOT_FLUSHED"]
    assert diags and diags[0].line == line_of(__file__, "# <- never flushed")
    # 78 floats = 312 B: the last 24 B stay pending, so they never reach GM
    assert diags[0].size == 312 % 32


# -- 3. a LoadAlign one element off its 32 B boundary -----------------------------------------------
@Reg.__simd_vf__
def ElemwiseAxpyVfMisaligned(xAddr, yAddr, zAddr, a, n, loopNum):
    vx = Reg.RegTensor[float]()
    vy = Reg.RegTensor[float]()
    vt = Reg.RegTensor[float]()
    count = uint32_t(n)
    for i in Reg.VLOOP(loopNum):
        mask = Reg.UpdateMask[float](count)
        Reg.LoadAlign[float, Reg.LoadDist.DIST_NORM](vx, xAddr + i * VL_B32 + 1)   # <- misaligned
        Reg.LoadAlign[float, Reg.LoadDist.DIST_NORM](vy, yAddr + i * VL_B32)
        Reg.Muls(vt, vx, a, mask)
        Reg.Add(vt, vt, vy, mask)
        Reg.StoreAlign[float, Reg.StoreDist.DIST_NORM](zAddr + i * VL_B32, vt, mask)


class KernelMisaligned(axpy.KernelElemwiseAxpy):
    def Compute(self):
        xLocal = self.inQueueX.DeQue(float)
        yLocal = self.inQueueY.DeQue(float)
        zLocal = self.outQueueZ.AllocTensor(float)
        Reg.asc_vf_call[ElemwiseAxpyVfMisaligned](xLocal.GetPhyAddr(), yLocal.GetPhyAddr(), zLocal.GetPhyAddr(),
                                                  self.a_, self.n_, self.loopNum_)
        self.outQueueZ.EnQue(zLocal)
        self.inQueueX.FreeTensor(xLocal)
        self.inQueueY.FreeTensor(yLocal)


def elemwise_axpy_misaligned(x, y, z, tiling):
    op = KernelMisaligned()
    op.Init(x, y, z, tiling)
    op.Process()


def test_misaligned_load_align_points_at_the_kernel_line():
    r = run_kernel(elemwise_axpy_misaligned, axpy.HOST)
    assert not r.passed and r.launch.aborted          # fatal: the core stops, as the hardware would
    d = next(d for d in r.diagnostics if d.code == "UB_MISALIGNED")
    assert d.file == os.path.abspath(__file__)
    assert d.line == line_of(__file__, "# <- misaligned")
    assert d.address % 32 == 4
