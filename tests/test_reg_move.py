"""Reg::Move of predicates (MaskReg计算/Move): dst = src where the mask is set, 0 elsewhere; without a mask a
plain copy. Reference: the lane arithmetic written here (the page's example: Move, then Adds under dst)."""
from __future__ import annotations

import numpy as np
import pytest

from tests.api_support import get, put
from toolkit.ascendc import regbase as Reg
from toolkit.ascendc.dtypes import uint32_t
from toolkit.ascendc.tensor import UbPtr

F32 = np.dtype(np.float32)


@pytest.mark.parametrize("count", [0, 20, 40, 64])
def test_move_keeps_src_under_mask_and_copies_without_one(ctx, count):
    x = np.arange(64, dtype=F32)
    put(ctx, 0, x)
    ops = []

    @Reg.__simd_vf__
    def vf(src, dst):
        r, out = Reg.RegTensor[F32](), Reg.RegTensor[F32]()
        half = Reg.CreateMask[F32, Reg.MaskPattern.H]()              # lanes 0..31
        m = Reg.UpdateMask[F32](uint32_t(count))                    # lanes 0..count-1
        moved, copied = Reg.MaskReg(), Reg.MaskReg()
        Reg.Move(moved, half, m)
        Reg.Move(copied, half)
        Reg.LoadAlign(r, src)
        Reg.Adds(out, r, 1.0, moved)
        Reg.StoreAlign(dst, out, Reg.CreateMask[F32]())
        Reg.Adds(out, r, 2.0, copied)
        Reg.StoreAlign(dst + 64, out, Reg.CreateMask[F32]())
        ops.extend(i.opcode for i in ctx.vf.instrs)

    vf(UbPtr(0, F32), UbPtr(1024, F32))
    lanes = np.arange(64)
    got = get(ctx, 1024, F32, 128)
    np.testing.assert_array_equal(got[:64], np.where((lanes < 32) & (lanes < count), x + 1, 0))
    np.testing.assert_array_equal(got[64:], np.where(lanes < 32, x + 2, 0))
    assert ops.count("RV_PMOV") == 2
