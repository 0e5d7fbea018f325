"""Synchronisation between the cores of a launch, in lock-step and in the serial run alike: SyncAll (hard
and soft forms), CrossCoreSetFlag / CrossCoreWaitFlag with DMA atomic accumulation (the CrossCoreSetFlag
page's pattern), IBSet / IBWait, the WaitPreBlock / NotifyNextBlock chain, and a deadlock. References are
hand-computed sums over the cores' data; writes separated by a synchronisation are no GM_WRITE_CONFLICT."""
from __future__ import annotations

import numpy as np
import pytest

from toolkit.ascendc import atomic, crosscore, sync
from toolkit.ascendc.dma import DataCopy
from toolkit.ascendc.pipe import TBuf, TPipe, TPosition
from toolkit.ascendc.sync import HardEvent, PipeType
from toolkit.ascendc.tensor import GlobalTensor, gm_cast
from toolkit.engine.launch import gm_alloc, launch
from toolkit.engine.runtime import GetBlockIdx, GetBlockNum

F32, I32 = np.dtype(np.float32), np.dtype(np.int32)
N = 64                      # floats per core
MODES = ["lockstep", "serial"]


def gtensor(ptr, dt=F32):
    g = GlobalTensor(dt)
    g.SetGlobalBuffer(gm_cast(dt, ptr))
    return g


def ub(n_bytes=4 * N * 4, pos=TPosition.VECCALC):
    pipe = TPipe()
    buf = TBuf(pos)
    pipe.InitBuffer(buf, n_bytes)
    return buf


def run(kernel, cores, arrays, mode):
    ptrs = [gm_alloc(f"a{k}", a) for k, a in enumerate(arrays)]
    r = launch(kernel, cores, ptrs, mode=mode)
    return r, [p.buf.data for p in ptrs]


def _exchange_kernel(x, work, out):
    """Each core writes its doubled row to work; after SyncAll every core reads its right neighbour's row
    (written by another core) and overwrites that neighbour's slot (legal after the synchronisation)."""
    c, n = GetBlockIdx(), GetBlockNum()
    t = ub().Get(float)
    gx, gw, go = gtensor(x), gtensor(work), gtensor(out)
    DataCopy(t, gx[c * N], N)
    sync.SetFlag[HardEvent.MTE2_MTE3](0)
    sync.WaitFlag[HardEvent.MTE2_MTE3](0)
    DataCopy(gw[c * N], t, N)
    crosscore.SyncAll()
    right = (c + 1) % n
    DataCopy(t[N], gw[right * N], N)
    sync.SetFlag[HardEvent.MTE2_MTE3](0)
    sync.WaitFlag[HardEvent.MTE2_MTE3](0)
    DataCopy(go[c * N], t[N], N)
    crosscore.SyncAll()
    DataCopy(gw[right * N], t, N)            # overwrite the neighbour's slot: after a SyncAll, no race


@pytest.mark.parametrize("mode", MODES)
def test_syncall_orders_the_cores_writes_and_reads(mode):
    cores = 4
    x = np.arange(cores * N, dtype=F32)
    r, (_, work, out) = run(_exchange_kernel, cores, [x, np.zeros_like(x), np.zeros_like(x)], mode)
    assert r.diagnostics.codes() == []
    want = np.roll(x.reshape(cores, N), -1, axis=0).reshape(-1)
    np.testing.assert_array_equal(out.view(F32), want)
    np.testing.assert_array_equal(work.view(F32), np.roll(x.reshape(cores, N), 1, axis=0).reshape(-1))


def _soft_kernel(x, sync_gm, out):
    c = GetBlockIdx()
    buf = ub()
    t = buf.Get(float)
    sync_ws = buf.GetWithOffset(np.int32, 8 * 8, 2 * N * 4)
    gx, go = gtensor(x), gtensor(out)
    DataCopy(t, gx[c * N], N)
    DataCopy(go[c * N], t, N)
    crosscore.SyncAll(gtensor(sync_gm, I32), sync_ws, 0)
    if c == 0:                                 # reads every core's row after the barrier
        DataCopy(t, go[(GetBlockNum() - 1) * N], N)


@pytest.mark.parametrize("mode", MODES)
def test_soft_syncall_checks_its_workspaces_and_synchronises(mode):
    cores = 4
    x = np.arange(cores * N, dtype=F32) + 1
    r, (_, _, out) = run(_soft_kernel, cores, [x, np.zeros(cores * 8, I32), np.zeros_like(x)], mode)
    assert r.diagnostics.codes() == []
    np.testing.assert_array_equal(out.view(F32), x)
    small, = [np.zeros(cores * 8 - 1, I32)]
    r, _ = run(_soft_kernel, cores, [x, small, np.zeros_like(x)], mode)
    assert set(r.diagnostics.codes()) == {"BAD_PARAMETER"}            # gmWorkspace < blockNum * 32 B


def _atomic_kernel(x, acc, out):
    """The CrossCoreSetFlag page's pattern: every core adds its row into acc (DMA atomic add), mode-0 flag,
    then core 0 copies the sum out."""
    c = GetBlockIdx()
    t = ub().Get(float)
    gx, ga, go = gtensor(x), gtensor(acc), gtensor(out)
    DataCopy(t, gx[c * N], N)
    sync.SetFlag[HardEvent.MTE2_MTE3](0)
    sync.WaitFlag[HardEvent.MTE2_MTE3](0)
    atomic.SetAtomicAdd(float)
    DataCopy(ga, t, N)
    crosscore.CrossCoreSetFlag[0, PipeType.PIPE_MTE3](0)
    crosscore.CrossCoreWaitFlag(0)
    atomic.DisableDmaAtomic()
    if c == 0:
        DataCopy(t[N], ga, N)
        sync.SetFlag[HardEvent.MTE2_MTE3](0)
        sync.WaitFlag[HardEvent.MTE2_MTE3](0)
        DataCopy(go, t[N], N)
        DataCopy(ga, t, N)                      # a plain overwrite after the atomics: no conflict


@pytest.mark.parametrize("mode", MODES)
def test_cross_core_flag_and_dma_atomic_add_sum_the_cores(mode):
    cores = 3
    x = (np.arange(cores * N, dtype=F32) % 7) + 0.5
    r, (_, acc, out) = run(_atomic_kernel, cores, [x, np.zeros(N, F32), np.zeros(N, F32)], mode)
    assert r.diagnostics.codes() == []
    np.testing.assert_array_equal(out.view(F32), x.reshape(cores, N).sum(axis=0))
    np.testing.assert_array_equal(acc.view(F32), x[:N])


def _ib_kernel(x, sync_gm, out):
    """IBSet page example: core 1 waits for core 0, then reads what core 0 wrote."""
    c = GetBlockIdx()
    buf = ub()
    t, ws = buf.Get(float), buf.GetWithOffset(np.int32, 8, 3 * N * 4)
    gx, go, gs = gtensor(x), gtensor(out), gtensor(sync_gm, I32)
    if c == 1:
        crosscore.IBWait(gs, ws, 0, 0)
        DataCopy(t, go, N)                      # core 0's result
        DataCopy(go[N], t, N)
    if c == 0:
        DataCopy(t, gx, N)
        DataCopy(go, t, N)
        crosscore.IBSet(gs, ws, 0, 0)


@pytest.mark.parametrize("mode", MODES)
def test_ibwait_waits_for_ibset_of_the_core_named(mode):
    x = np.arange(N, dtype=F32) * 3
    r, (_, _, out) = run(_ib_kernel, 2, [x, np.zeros(2 * 8 + 8, I32), np.zeros(2 * N, F32)], mode)
    assert r.diagnostics.codes() == []
    np.testing.assert_array_equal(out.view(F32), np.concatenate([x, x]))


def _chain_kernel(x, ws_gm, acc):
    """InitDetermineComputeWorkspace page example: tiles accumulated atomically in blockIdx order."""
    c = GetBlockIdx()
    buf = ub()
    t, ws = buf.Get(float), buf.GetWithOffset(np.int32, 8 * 5, 2 * N * 4)
    gx, ga, gw = gtensor(x), gtensor(acc), gtensor(ws_gm, I32)
    crosscore.InitDetermineComputeWorkspace(gw, ws)
    for tile in range(2):
        DataCopy(t, gx[(c * 2 + tile) * N], N)
        crosscore.WaitPreBlock(gw, ws)
        atomic.SetAtomicAdd(float)
        DataCopy(ga[tile * N], t, N)
        atomic.DisableDmaAtomic()
        crosscore.NotifyNextBlock(gw, ws)


@pytest.mark.parametrize("mode", MODES)
def test_waitpreblock_chain_accumulates_in_core_order(mode):
    cores = 4
    x = np.random.default_rng(5).standard_normal(cores * 2 * N).astype(F32)
    r, (_, _, acc) = run(_chain_kernel, cores, [x, np.zeros(cores * 8, I32), np.zeros(2 * N, F32)], mode)
    assert r.diagnostics.codes() == []
    want = np.zeros((2, N), F32)
    for c in range(cores):                     # the order the chain imposes, float32 additions
        want = (want + x.reshape(cores, 2, N)[c]).astype(F32)
    np.testing.assert_array_equal(acc.view(F32).reshape(2, N), want)


def _deadlock_kernel(x):
    if GetBlockIdx() == 0:
        crosscore.SyncAll()


@pytest.mark.parametrize("mode", MODES)
def test_a_core_waiting_for_a_core_that_ended_is_a_deadlock(mode):
    r, _ = run(_deadlock_kernel, 2, [np.zeros(8, F32)], mode)
    d, = r.diagnostics
    assert d.code == "CROSS_CORE_DEADLOCK" and d.core == 0 and d.fatal
    assert [c.core for c in r.cores if c.aborted] == [0]


def test_one_core_launch_syncall_needs_nobody():
    r, _ = run(lambda x: crosscore.SyncAll(), 1, [np.zeros(8, F32)], "serial")
    assert r.diagnostics.codes() == []


def test_cross_core_modes_with_the_cube_are_refused(ctx):
    with pytest.raises(TypeError):
        crosscore.CrossCoreSetFlag[2, PipeType.PIPE_MTE3](0)
