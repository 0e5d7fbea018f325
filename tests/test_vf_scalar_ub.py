"""Python kernels: a __simd_vf__ that reads or writes UB with scalar accesses (LocalTensor GetValue /
SetValue, directly or in a function it calls; GetBlockIdx) runs on each core alone in lock-step
(toolkit/ascendc/regbase/vfscalar.py): the group of cores with equal parameters once ran one body over
their core axis, and GetValue crashed on the batch's UB. A scalar access the static check cannot see is
refused with a diagnostic, never a traceback."""
from __future__ import annotations

import numpy as np

from toolkit.ascendc import sync
from toolkit.ascendc import regbase as Reg
from toolkit.ascendc.dma import DataCopy
from toolkit.ascendc.pipe import TBuf, TPipe, TPosition
from toolkit.ascendc.regbase import __simd_vf__
from toolkit.ascendc.regbase.vfscalar import touches_ub
from toolkit.ascendc.sync import PipeBarrier
from toolkit.ascendc.tensor import GlobalTensor, gm_cast
from toolkit.engine.launch import gm_alloc, launch
from toolkit.engine.runtime import GetBlockIdx

CORES = 4


def _peek(t, k):
    return t.GetValue(k)


@__simd_vf__
def ScalarVF(t, addr):
    # a vector pass over the first 64 floats (+1), then scalar: t[64] = 2 * t[3] (read after the store)
    r = Reg.RegTensor[float]()
    full = Reg.CreateMask[float]()
    Reg.LoadAlign[float](r, addr)
    Reg.Adds(r, r, 1.0, full)
    Reg.StoreAlign[float](addr, r, full)
    Reg.LocalMemBar[Reg.MemType.VEC_STORE, Reg.MemType.SCALAR_LOAD]()
    t.SetValue(64, _peek(t, 3) * 2)


@__simd_vf__
def BlockIdxVF(t, addr):
    r = Reg.RegTensor[float]()
    Reg.Duplicate(r, float(GetBlockIdx()))           # the core's own index, a scalar of each core
    Reg.StoreAlign[float](addr, r, Reg.CreateMask[float]())


@__simd_vf__
def HiddenVF(t):
    getattr(t, "Get" + "Value")(3)             # no call the static check can name


@__simd_vf__
def PureVF(addr):
    r = Reg.RegTensor[float]()
    Reg.LoadAlign[float](r, addr)
    Reg.StoreAlign[float](addr + 64, r, Reg.CreateMask[float]())


def _kernel(vf):
    def kernel(x):
        pipe = TPipe()
        b = TBuf(TPosition.VECCALC)
        pipe.InitBuffer(b, 1024)
        t = b.Get(float)
        g = GlobalTensor(float)
        g.SetGlobalBuffer(gm_cast(float, x) + GetBlockIdx() * 256)
        DataCopy(t, g, 256)
        PipeBarrier[sync.PipeType.PIPE_ALL]()
        vf(t) if vf is HiddenVF else vf(t, t.GetPhyAddr())
        PipeBarrier[sync.PipeType.PIPE_ALL]()
        DataCopy(g, t, 256)
    return kernel


def test_scalar_ub_access_in_a_vf_runs_on_each_core():
    x = np.arange(CORES * 256, dtype=np.float32)
    gx = gm_alloc("x", x)
    run = launch(_kernel(ScalarVF), CORES, [gx])
    assert not run.diagnostics.errors()
    want = x.reshape(CORES, 256).copy()
    want[:, :64] += 1
    want[:, 64] = want[:, 3] * 2
    np.testing.assert_array_equal(gx.buf.as_array(np.float32).reshape(CORES, 256), want)


def test_get_block_idx_in_a_vf_is_each_cores_own():
    gx = gm_alloc("x", np.zeros(CORES * 256, dtype=np.float32))
    run = launch(_kernel(BlockIdxVF), CORES, [gx])
    assert not run.diagnostics.errors()
    got = gx.buf.as_array(np.float32).reshape(CORES, 256)
    np.testing.assert_array_equal(got[:, :64], np.repeat(np.arange(CORES, dtype=np.float32), 64).reshape(CORES, 64))


def test_a_scalar_access_the_check_cannot_see_is_a_diagnostic():
    gx = gm_alloc("x", np.zeros(CORES * 256, dtype=np.float32))
    run = launch(_kernel(HiddenVF), CORES, [gx])
    assert run.aborted
    assert [d.code for d in run.diagnostics.errors()] == ["UNSUPPORTED_API"]
    assert "lock-step cores share" in run.diagnostics.errors()[0].message


def test_which_vfs_run_per_core():
    assert touches_ub(ScalarVF.fn) and touches_ub(BlockIdxVF.fn) and not touches_ub(PureVF.fn)
    assert not touches_ub(HiddenVF.fn)                    # what the diagnostic above is for
    assert touches_ub(lambda t: t.GetValue(0)) and not touches_ub(lambda v, m: Reg.Adds(v, v, 1.0, m))
