"""Per-core timing memoised by event signature (toolkit.timing.core.core_signature): the signature holds
everything the core model reads, and a launch that simulates each signature once (and only the last
pass in detail) gives every core exactly the figures of a core-by-core simulation in detail."""
from __future__ import annotations

import dataclasses

import pytest

from operators.kv_rms_norm_rope_cache import host
from toolkit.machine import load_machine
from toolkit.record.events import (
    Dma,
    Instr,
    PipeBarrier,
    QueueOp,
    ScalarOp,
    Sync,
    VfCall,
)
from toolkit.timing.core import core_signature
from toolkit.timing.kernel import _moved, concurrency, simulate_launch
from toolkit.timing.model import TimingModel

M = load_machine()
LINE = M.params["timing"]["dcache_line_bytes"]
BODY = tuple(Instr("RV_VADD", k + 1, (k,) if k else ()) for k in range(12))
OTHER_BODY = tuple(Instr("RV_VMUL", k + 1, (k,) if k else ()) for k in range(30))
WORDS = ["GM2UB", "UB2GM", "DataCopyPad", "X", "kv", "other", "gm_read", "ub_read", "ub_write", "gm_write",
         "set", "wait", "alloc", "enque", "deque", "free", "q", "q2", "VECIN", "VECOUT", "VECCALC", "VECTOR",
         "MTE2", "MTE3", "SCALAR", "ALL", "f", "g", "membase", "direct", "asc_vf_call"]


def stream() -> list:
    """A core's events touching every handler of the core model (queues, flags, DMA, VFs, scalar reads)."""
    return [
        QueueOp("alloc", "q", "VECIN", 0), Dma("GM2UB", "DataCopyPad", 0, "kv", 0, 2048, 2, 1024),
        QueueOp("enque", "q", "VECIN", 0), QueueOp("deque", "q", "VECIN", 0),
        ScalarOp("gm_read", 8, gm="kv", gm_offset=0), ScalarOp("gm_read", 8, gm="kv", gm_offset=8),
        VfCall("f", "direct", 3, BODY), ScalarOp("ub_read", 4),
        VfCall("g", "asc_vf_call", 2, BODY, meta={"scalar_args": 1}), PipeBarrier("VECTOR"),
        VfCall("h", "membase", 5, OTHER_BODY), QueueOp("free", "q", "VECIN", 0),
        Sync("VECTOR", "MTE3", 0, "set"), Sync("VECTOR", "MTE3", 0, "wait"),
        Dma("UB2GM", "DataCopyPad", 0, "out", 0, 1024, 1, 1024), Sync("MTE3", "SCALAR", None, "wait"),
    ]


def figures(ct) -> tuple:
    """Every figure of a core's timing except which core it is and which event objects its VFs are."""
    return (ct.end, ct.busy, [dataclasses.astuple(s) for s in ct.slices],
            [(id(t), start) for _, t, start in ct.vfs], ct.counters)


def alternatives(value):
    if isinstance(value, bool) or value is None:
        return [None, 0, 1, True]
    if isinstance(value, int):
        return [value + 1, value + 4096, 0]
    if isinstance(value, str):
        return [w for w in WORDS if w != value]
    if isinstance(value, tuple) and value and isinstance(value[0], Instr):
        return [OTHER_BODY if value is BODY else BODY]
    if isinstance(value, dict):
        return [{}, {"scalar_args": 2}, {"fused": ["a", "b"]}]
    if isinstance(value, tuple):
        return [("elsewhere.py", 7)]
    return []


def test_any_field_that_moves_a_figure_is_in_the_signature():
    model = TimingModel(M)
    base = stream()
    ref, ref_sig = figures(model.core(0, base)), core_signature(base, {}, LINE)
    checked = 0
    for k, ev in enumerate(base):
        for f in dataclasses.fields(ev):
            for alt in alternatives(getattr(ev, f.name)):
                events = list(base)
                events[k] = dataclasses.replace(ev, **{f.name: alt})
                try:
                    got = figures(model.core(0, events))
                except (KeyError, TypeError, ValueError):
                    continue                     # not an event the model accepts
                if got != ref:
                    checked += 1
                    assert core_signature(events, {}, LINE) != ref_sig, (type(ev).__name__, f.name, alt)
    assert checked > 100


def test_a_gm_scalar_read_enters_as_a_cache_hit_or_miss_not_by_address():
    def reads(*offsets):
        return [ScalarOp("gm_read", 8, gm="index", gm_offset=o) for o in offsets]
    assert core_signature(reads(0, 8), {}, LINE) == core_signature(reads(640, 648), {}, LINE)   # miss, hit
    assert core_signature(reads(0, 8), {}, LINE) != core_signature(reads(0, LINE), {}, LINE)    # miss, miss


def core_by_core(model: TimingModel, streams: list) -> list:
    """The launch fixed point as first written: every core simulated in detail on every pass."""
    def table(load):
        return lambda pipe, k: load[pipe][k] if k < len(load[pipe]) else (1.0, 0.0)
    timings = [model.core(core, events) for core, events in streams]
    loads = concurrency(timings, M)
    for _ in range(int(M.params["memory"]["load_iterations"])):
        timings = [model.core(core, events, table(load)) for (core, events), load in zip(streams, loads)]
        new = concurrency(timings, M)
        if not _moved(loads, new):
            break
        loads = new
    return timings


def test_a_launch_that_converges_early_equals_the_reference():
    model = TimingModel(M)
    streams = [(k, [Dma("GM2UB", "DataCopy", 0, "x", 0, 256 * (1 + k % 2), 1, 256)]) for k in range(6)]
    calls = []

    def counting(core, events, table=None, detail=True):
        calls.append(detail)
        return model.core(core, events, table, detail)
    got = simulate_launch(counting, streams, M, key=lambda events: core_signature(events, {}, LINE))
    assert [figures(c) for c in got] == [figures(c) for c in core_by_core(model, streams)]
    assert calls.count(True) == 2 and len(calls) < 2 * (1 + M.params["memory"]["load_iterations"])


@pytest.fixture(scope="module")
def kv_runs():
    """A small KV case whose cores fall into two signatures: 16 rows (whole index cache lines) on five
    cores, 12 on the tail core."""
    p = host.KvParams(batch=2, seq=46, ub_factor=4, cores=6)
    case = host.load_case(p, None)
    return {b: host.run_backend(b, p, case, M) for b in ("membase", "regbase")}


@pytest.mark.parametrize("backend", ["membase", "regbase"])
def test_grouped_launch_equals_the_core_by_core_simulation(kv_runs, backend):
    launch = kv_runs[backend].launch
    model = TimingModel(M)
    grouped = model.launch(launch).cores
    alone = core_by_core(model, [(c.core, c.events) for c in launch.cores])
    streams: dict = {}
    assert len({core_signature(c.events, streams, LINE) for c in launch.cores}) == 2
    assert [figures(c) for c in grouped] == [figures(c) for c in alone]
    for run, ct in zip(launch.cores, grouped):
        assert ct.core == run.core
        assert [ev for ev, _, _ in ct.vfs] == [e for e in run.events if type(e) is VfCall]
        assert all(a is b for a, (b, _, _) in zip((e for e in run.events if type(e) is VfCall), ct.vfs))
