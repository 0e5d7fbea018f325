"""MemBase ReduceMax / ReduceSum count forms (library expansion on dav-3510), against numpy references."""
from collections import Counter

import numpy as np
import pytest

from toolkit.ascendc import membase as AscendC
from toolkit.ascendc.pipe import TPipe
from toolkit.engine.runtime import CoreContext, running
from toolkit.record.diagnostics import KernelAbort
from toolkit.record.events import ScalarOp, Sync

from api_support import get, last_vf, put, T, tree_sum

F32 = np.float32
SRC, WORK, DST = 0, 16384, 24576


@pytest.fixture
def tpipe(ctx):
    """A TPipe on ``ctx``: the library ReduceSum needs one (its V_S event id)."""
    return TPipe()


@pytest.mark.parametrize("count", [2048, 300, 4096])
def test_reduce_max_is_the_maximum_and_runs_the_library_vf(ctx, tpipe, count):
    x = np.random.default_rng(count).uniform(-5, 5, 4096).astype(F32)
    put(ctx, SRC, x)
    AscendC.ReduceMax(T(DST, F32, 8), T(SRC, F32), T(WORK, F32), count)
    assert get(ctx, DST, F32, 1)[0] == x[:count].max()
    ev = last_vf(ctx)
    chunks = -(-count // 64)
    ops = Counter(i[0] for i in ev.instrs)
    assert (ev.name, ev.launch) == ("ReduceMax", "membase")
    assert ops["RV_VLOOP"] == 1 and ops["RV_PLT"] == ops["RV_VLD"] == ops["RV_VMAX"] == ops["RV_VSEL"] == chunks
    assert ops["RV_VCMAX"] == ops["RV_VSTUI"] == ops["RV_VSTAS"] == ops["RV_VDUP"] == 1
    assert not any(isinstance(e, (Sync, ScalarOp)) for e in ctx.events)      # no flag, no scalar read


def test_reduce_max_seed_is_lowest_finite_and_nan_propagates(ctx, tpipe):
    put(ctx, SRC, np.full(512, -np.inf, F32))
    AscendC.ReduceMax(T(DST, F32, 8), T(SRC, F32), T(WORK, F32), 512)
    assert get(ctx, DST, F32, 1)[0] == np.finfo(F32).min
    x = np.zeros(512, F32)
    x[300] = np.nan
    put(ctx, SRC, x)
    AscendC.ReduceMax(T(DST, F32, 8), T(SRC, F32), T(WORK, F32), 512)
    assert np.isnan(get(ctx, DST, F32, 1)[0])


@pytest.mark.parametrize("count", [2048, 257, 4096])
def test_reduce_sum_chunk_partials_then_their_tree(ctx, tpipe, count):
    x = np.random.default_rng(7).uniform(0, 1, 4096).astype(F32)
    put(ctx, SRC, x)
    AscendC.ReduceSum(T(DST, F32, 8), T(SRC, F32), T(WORK, F32), count)
    chunks = -(-count // 64)
    padded = np.zeros(chunks * 64, F32)
    padded[:count] = x[:count]
    partial = tree_sum(padded.reshape(chunks, 64))
    lanes = np.zeros(64, F32)
    lanes[:chunks] = partial
    np.testing.assert_array_equal(get(ctx, WORK, F32, chunks), partial)
    assert get(ctx, DST, F32, 1)[0] == tree_sum(lanes)
    assert abs(float(get(ctx, DST, F32, 1)[0]) - float(np.sum(x[:count], dtype=np.float64))) < 1e-3
    ev = last_vf(ctx)
    ops = Counter(i[0] for i in ev.instrs)
    assert ops["RV_VLOOP"] == 2 and ops["RV_VCADD"] == ops["RV_VSTUI"] == chunks + 1 and ops["RV_VSTAS"] == 2
    assert ops["RV_MEMBAR"] == 1
    tail = ctx.events[-3:]
    assert [(e.src, e.dst, e.kind) for e in tail[:2]] == [("VECTOR", "SCALAR", "set"), ("VECTOR", "SCALAR", "wait")]
    assert isinstance(tail[2], ScalarOp) and tail[2].kind == "ub_read"


def test_reduce_sum_needs_a_tpipe_and_counts_outside_the_counter_mode_range_take_more_or_fewer_passes():
    c = CoreContext()
    with running(c):
        put(c, SRC, np.ones(2048, F32))
        with pytest.raises(KernelAbort):
            AscendC.ReduceSum(T(DST, F32, 8), T(SRC, F32), T(WORK, F32), 2048)
        assert "BAD_PARAMETER" in c.diag.codes()
    c = CoreContext()
    with running(c):
        TPipe()
        x = np.arange(256, dtype=np.float32)
        put(c, SRC, x)
        AscendC.ReduceSum(T(DST, F32, 8), T(SRC, F32), T(WORK, F32), 256)
        # pass 1: one tree sum per 64-element chunk, pass 2: the tree sum of the 4 partials (zero-padded)
        want = tree_sum(np.concatenate([tree_sum(x.reshape(4, 64)), np.zeros(60, np.float32)]))
        assert get(c, DST, F32, 1)[0] == want


def test_undefined_source_reaches_the_scalar_read(ctx, tpipe):
    put(ctx, SRC, np.ones(1024, F32))                   # 1024..2047 never written
    AscendC.ReduceSum(T(DST, F32, 8), T(SRC, F32), T(WORK, F32), 2048)
    assert any(d.code == "UNDEFINED_READ" for d in ctx.diag)
