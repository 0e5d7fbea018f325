"""Synchronisation inside one core: SetFlag / WaitFlag and TQueSync (the recorded edges, the pairing
checks of the SetFlag-WaitFlag pages), FetchEventID / AllocEventID / ReleaseEventID (the TPipe pages: ids
0-7 per HardEvent, a fetched id is not held), Mutex::Lock / Unlock with AllocMutexID (the Lock page's
double-buffer example), DataSyncBarrier and PipeBarrier."""
from __future__ import annotations

import pytest

from toolkit.ascendc import sync
from toolkit.ascendc.pipe import TPipe
from toolkit.ascendc.sync import HardEvent, MemDsbT, PipeType, TQueSync
from toolkit.engine.launch import launch
from toolkit.record.events import PIPE_MTE2, PIPE_MTE3, PIPE_S, PIPE_V, PipeBarrier, Sync

from api_support import abort_code


def syncs(ctx):
    return [(e.src, e.dst, e.event_id, e.kind) for e in ctx.events if isinstance(e, Sync)]


def test_setflag_waitflag_record_the_edge_and_pair(ctx):
    sync.SetFlag[HardEvent.S_MTE3](3)
    sync.WaitFlag[HardEvent.S_MTE3](3)
    assert syncs(ctx) == [(PIPE_S, PIPE_MTE3, 3, "set"), (PIPE_S, PIPE_MTE3, 3, "wait")]
    ctx.finish()
    assert ctx.diag.codes() == []


def test_fetch_event_id_runtime_form_matches_template_form_and_is_not_held(ctx):
    pipe = TPipe()
    # the vendor KV construct: FetchEventID(HardEvent::S_MTE3), then SetFlag/WaitFlag with that id
    ev = pipe.FetchEventID(HardEvent.S_MTE3)
    assert ev == 0 and pipe.FetchEventID(HardEvent.S_MTE3) == 0        # fetching does not occupy
    sync.SetFlag[HardEvent.S_MTE3](ev)
    sync.WaitFlag[HardEvent.S_MTE3](ev)
    assert syncs(ctx)[-1] == (PIPE_S, PIPE_MTE3, 0, "wait")


def test_alloc_event_id_holds_until_release_and_runs_out_after_eight(ctx):
    pipe = TPipe()
    ids = [pipe.AllocEventID(HardEvent.V_S) for _ in range(8)]
    assert ids == list(range(8))
    assert pipe.FetchEventID(HardEvent.MTE2_V) == 0                   # other events keep their own ids
    assert abort_code(pipe.FetchEventID, HardEvent.V_S) == "BAD_PARAMETER"
    pipe.ReleaseEventID(HardEvent.V_S, 5)
    assert pipe.FetchEventID(HardEvent.V_S) == 5
    pipe.ReleaseEventID(HardEvent.V_S, 5)                                # not held any more
    assert ctx.diag.codes() == ["BAD_PARAMETER", "SYNC_UNPAIRED"]


def test_double_setflag_and_unmatched_scalar_wait_are_reported(ctx):
    sync.SetFlag[HardEvent.V_MTE3](1)
    sync.SetFlag[HardEvent.V_MTE3](1)                                    # undefined on the hardware
    sync.WaitFlag[HardEvent.MTE2_S](2)                                   # the scalar unit hangs
    assert ctx.diag.codes() == ["SYNC_UNPAIRED", "SYNC_UNPAIRED"]
    assert all(d.severity == "error" for d in ctx.diag)


def test_a_wait_before_its_set_on_a_pipe_is_legal_and_pairs_at_kernel_end():
    def kernel():
        sync.WaitFlag[HardEvent.MTE3_MTE2](0)      # MTE2 waits; the scalar unit goes on to issue the set
        sync.SetFlag[HardEvent.MTE3_MTE2](0)
        sync.SetFlag[HardEvent.V_S](4)             # never waited for: a warning at kernel end
    r = launch(kernel, 1, [])
    assert [(d.code, d.severity) for d in r.diagnostics] == [("SYNC_UNPAIRED", "warning")]


def test_event_id_outside_0_7_is_refused(ctx):
    assert abort_code(sync.SetFlag[HardEvent.S_V], 8) == "BAD_PARAMETER"


def test_tquesync_is_the_portable_spelling_of_the_same_edge(ctx):
    q = TQueSync(PipeType.PIPE_MTE2, PipeType.PIPE_V)
    q.SetFlag(2)
    q.WaitFlag(2)
    assert syncs(ctx) == [(PIPE_MTE2, PIPE_V, 2, "set"), (PIPE_MTE2, PIPE_V, 2, "wait")]
    with pytest.raises(TypeError):
        TQueSync(PipeType.PIPE_ALL, PipeType.PIPE_V)


def test_mutex_lock_waits_for_the_last_unlocking_pipe(ctx):
    # the Lock page's example: MTE2 -> V -> MTE3 in order through one MutexID per buffer
    m0, m1 = sync.AllocMutexID(), sync.AllocMutexID()
    assert (m0, m1) == (0, 1)
    for pipe in (PipeType.PIPE_MTE2, PipeType.PIPE_V, PipeType.PIPE_MTE3):
        sync.Lock[pipe](m0)
        sync.Unlock[pipe](m0)
    assert syncs(ctx) == [(PIPE_MTE2, PIPE_V, None, "wait"), (PIPE_V, PIPE_MTE3, None, "wait")]
    sync.ReleaseMutexID(m0)
    sync.ReleaseMutexID(m1)
    assert sync.AllocMutexID() == 0 and ctx.diag.codes() == []


def test_mutex_misuse_is_reported(ctx):
    sync.Unlock[PipeType.PIPE_V](3)                                     # Unlock before Lock
    sync.Lock[PipeType.PIPE_V](3)
    sync.Lock[PipeType.PIPE_V](3)                                       # two Locks in a row
    assert ctx.diag.codes() == ["SYNC_UNPAIRED", "SYNC_UNPAIRED"]
    assert abort_code(sync.Lock[PipeType.PIPE_V], 40) == "BAD_PARAMETER"


def test_mutex_ids_run_out_after_28(ctx):
    for _ in range(28):
        sync.AllocMutexID()
    assert abort_code(sync.AllocMutexID) == "BAD_PARAMETER"


def test_data_sync_barrier_makes_the_scalar_unit_wait_for_memory_pipes(ctx):
    sync.DataSyncBarrier[MemDsbT.DDR]()
    assert syncs(ctx) == [(PIPE_MTE2, PIPE_S, None, "wait"), (PIPE_MTE3, PIPE_S, None, "wait")]
    sync.DataSyncBarrier[MemDsbT.ALL]()
    assert [s[0] for s in syncs(ctx)[2:]] == [PIPE_MTE2, PIPE_MTE3, PIPE_V]


def test_pipe_barrier_records_its_pipe(ctx):
    sync.PipeBarrier[PipeType.PIPE_MTE3]()
    sync.PipeBarrier[PipeType.PIPE_ALL]()
    assert [e.pipe for e in ctx.events if isinstance(e, PipeBarrier)] == [PIPE_MTE3, "ALL"]
    assert PIPE_V != PIPE_S
