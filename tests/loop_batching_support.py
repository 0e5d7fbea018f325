"""Shared by tests/test_loop_batching*.py: a launch run batched and unbatched and compared (output bytes,
per-core event streams, aborts, diagnostics, the timed summary), the statistics' expectations, and a
generic one-tile kernel."""
from __future__ import annotations

import json

import numpy as np
import pytest

from tests.asc_support import event_key
from toolkit.ascendc.dma import DataCopy
from toolkit.ascendc.pipe import TBuf, TPipe, TPosition
from toolkit.ascendc.regbase import loopbatch
from toolkit.ascendc.regbase.loopbatch import loop_batching
from toolkit.ascendc.tensor import GlobalTensor, gm_cast
from toolkit.engine.launch import gm_alloc, launch
from toolkit.engine.runtime import GetBlockIdx
from toolkit.timing.model import TimingModel
from toolkit.views.launch_summary import launch_summary

VL = 64                                  # fp32 lanes of one vector register
UB_FLOATS = 256 * 1024 // 4              # the whole UB as floats
CARRIED = "serial: a loop-carried register (read before the body writes it)"


@pytest.fixture(autouse=True)
def _fresh_refusals():
    """A refused loop site is remembered for the rest of the process (loopbatch._REFUSED), whatever
    launch refused it: each test starts afresh, so its statistics do not depend on the tests before it."""
    getattr(loopbatch, "_REFUSED", {}).clear()
    yield


# -- the comparison ------------------------------------------------------------------------------
def _same_launch(a, b) -> None:
    """tests/test_lockstep.py's comparison: events, aborts, diagnostics and the timed summary."""
    assert len(a.cores) == len(b.cores)
    for ca, cb in zip(a.cores, b.cores):
        assert [event_key(e) for e in ca.events] == [event_key(e) for e in cb.events], f"core {ca.core}"
        assert (ca.aborted is None) == (cb.aborted is None), f"core {ca.core}"
    ja, jb = ([d.to_json() for d in r.diagnostics] for r in (a, b))
    assert ja == jb
    sa, sb = (launch_summary(r, TimingModel(r.machine)) for r in (a, b))
    assert json.dumps(sa, sort_keys=True) == json.dumps(sb, sort_keys=True)


def _unbatched():
    """The reference: every iteration on its own."""
    return loop_batching(False)


def _stats(run) -> dict:
    return run.meta.get("loop_batching") or {}


def _twice(run_once):
    """``run_once()`` -> (LaunchResult, outputs) batched and unbatched: the same, or the test fails.
    Returns the batched run, its outputs and its statistics."""
    with loop_batching(True):
        a, out_a = run_once()
    with _unbatched():
        b, out_b = run_once()
    assert len(out_a) == len(out_b)
    for xa, xb in zip(out_a, out_b):
        assert np.array_equal(np.asarray(xa).view(np.uint8), np.asarray(xb).view(np.uint8))
    _same_launch(a, b)
    assert "batched" not in _stats(b) and not any(k.startswith("serial") for k in _stats(b))
    return a, out_a[0], _stats(a)


def _expect(stats: dict, batched: bool, *reasons: str) -> None:
    """``batched``: some loop batched; ``reasons``: the serial reasons counted (substrings), no other."""
    assert bool(stats.get("batched")) == batched, stats
    serial = {k for k in stats if k.startswith("serial")}
    assert all(any(why in k for k in serial) for why in reasons), (reasons, stats)
    assert all(any(why in k for why in reasons) for k in serial), (reasons, stats)


# -- a generic kernel: each core copies its slice of x into UB, runs ``body``, copies y back ---------
def tile_kernel(x, y, nin, nout, body, *extra):
    """``nin`` / ``nout`` floats per core (multiples of 8); UB: x at 0, y at ``ypos`` (after x, 256 B
    aligned). ``body(core, xptr, yptr, *extra)`` runs the VFs."""
    core = GetBlockIdx()
    pipe = TPipe()
    buf = TBuf(TPosition.VECCALC)
    pipe.InitBuffer(buf, 192 * 1024)
    xg, yg = GlobalTensor(float), GlobalTensor(float)
    xg.SetGlobalBuffer(gm_cast(float, x) + core * nin, nin)
    yg.SetGlobalBuffer(gm_cast(float, y) + core * nout, nout)
    t = buf.Get(float)
    ypos = (nin + 2 * VL + VL - 1) // VL * VL
    DataCopy(t, xg, nin)
    DataCopy(t[ypos], xg, min(nin, nout))         # y starts as a copy of x: every byte defined
    body(core, t.GetPhyAddr(), t[ypos].GetPhyAddr(), *extra)
    DataCopy(yg, t[ypos], nout)


def _run(body, cores, nin, nout, *extra, mode="lockstep", seed=0):
    x = np.random.default_rng(seed).uniform(-2, 2, cores * nin).astype(np.float32)

    def once():
        gx, gy = gm_alloc("x", x.view(np.uint8).copy()), gm_alloc("y", cores * nout * 4)
        r = launch(tile_kernel, cores, [gx, gy, nin, nout, body, *extra], mode=mode)
        return r, [gy.buf.data.copy()]
    a, y, stats = _twice(once)
    return a, x.reshape(cores, nin), y.view(np.float32).reshape(cores, nout), stats


def _f(v):
    return np.float32(v)
