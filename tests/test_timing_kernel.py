"""Whole-kernel timing: flags by (event, id), the scalar unit, GM shared by cores, launch and task time."""
import dataclasses

import pytest

from toolkit.machine import load_machine, with_overrides
from toolkit.record.events import PIPE_MTE2, Dma, PipeBarrier, ScalarOp, Sync, VfCall
from toolkit.timing.core import dma_cost
from toolkit.timing.kernel import BusyProfile
from toolkit.timing.model import TimingModel

M = load_machine()
S, MEM = M.params["scalar"], M.params["memory"]
VF_BODY = [("RV_VADD", k + 1, (k,) if k else (), None) for k in range(40)]


def dma_in(nbytes: int) -> Dma:
    return Dma("GM2UB", "DataCopyPad", 0, "x", 0, nbytes, 1, nbytes)


def vf(name: str = "f", launch: str = "direct") -> VfCall:
    return VfCall(name, launch, 3, VF_BODY)


def flag(src: str, dst: str, eid: int, kind: str) -> Sync:
    return Sync(src, dst, eid, kind)


class FakeLaunch:
    def __init__(self, streams):
        self.cores = [type("Core", (), {"core": k, "events": ev})() for k, ev in enumerate(streams)]


def test_waitflag_matches_its_event_id_not_the_whole_source_pipe():
    # ping/pong: the wait on id 1 was satisfied at the start; it must not wait for the VF set on id 0
    ev = [flag("VECTOR", "MTE2", 0, "set"), flag("VECTOR", "MTE2", 1, "set"),
          flag("VECTOR", "MTE2", 0, "wait"), dma_in(4096), vf(), flag("VECTOR", "MTE2", 0, "set"),
          flag("VECTOR", "MTE2", 1, "wait"), dma_in(4096), flag("VECTOR", "MTE2", 0, "wait"), dma_in(4096)]
    core = TimingModel(with_overrides(M, "scalar", vf_launch_waits="none")).core(0, ev)
    vec = next(s for s in core.slices if s.pipe == "VECTOR")
    d0, d1, d2 = (s for s in core.slices if s.pipe == "MTE2")
    assert d1.start < vec.end                      # id 1: the prefetch overlaps the VF
    assert d2.start >= vec.end + S["flag_latency_cycles"]   # id 0 again: waits for the VF's SetFlag
    # without ids (old records) a wait holds for everything the source pipe was given
    legacy = [dma_in(4096), vf(), Sync("VECTOR", "MTE2"), dma_in(4096)]
    core = TimingModel(with_overrides(M, "scalar", vf_launch_waits="none")).core(0, legacy)
    vec = next(s for s in core.slices if s.pipe == "VECTOR")
    assert [s for s in core.slices if s.pipe == "MTE2"][1].start >= vec.end


def test_scalar_unit_costs_entry_issue_and_waits():
    model = TimingModel(M)
    core = model.core(0, [vf("a", "membase"), PipeBarrier("VECTOR"), vf("b", "direct")])
    sc = [s for s in core.slices if s.pipe == "SCALAR"]
    assert sc[0].name == "kernel entry" and sc[0].end == S["entry_cycles"]
    assert sc[1].end - sc[1].start == S["membase_call_cycles"]
    a, b = (s for s in core.slices if s.pipe == "VECTOR")
    # vf_launch_waits "all": the scalar unit sets the second VF up only after the first completed
    assert b.start >= a.end + S["barrier_cycles"] + S["vf_call_cycles"]
    assert core.busy["SCALAR"] == sum(s.end - s.start for s in sc)


def test_a_value_read_from_ub_delays_the_next_launch_and_vs_flags_wait_for_the_vector_pipe():
    model = TimingModel(M)
    ev = [vf("reduce", "membase"), flag("VECTOR", "SCALAR", 0, "set"), flag("VECTOR", "SCALAR", 0, "wait"),
          ScalarOp("ub_read", 4), vf("use", "membase")]
    core = model.core(0, ev)
    red, use = (s for s in core.slices if s.pipe == "VECTOR")
    read = next(s for s in core.slices if s.name == "ub_read")
    assert read.start >= red.end + S["flag_latency_cycles"]
    assert use.start >= read.start + M.params["timing"]["scalar_ub_read_cycles"]


def test_isolated_vfs_use_the_scheduler_vf_time():
    class Timed(TimingModel):
        def vf(self, call):
            return dataclasses.replace(super().vf(call), vf_time=super().vf(call).cycles + 50)
    model = Timed(with_overrides(M, "scalar", vf_launch_waits="none"))
    back_to_back = model.core(0, [vf("a"), vf("b")])
    a, b = (s for s in back_to_back.slices if s.pipe == "VECTOR")
    assert b.end - b.start == model.vf(vf()).cycles         # follows a busy vector pipe
    after_barrier = model.core(0, [vf("a"), PipeBarrier("VECTOR"), vf("b")])
    a, b = (s for s in after_barrier.slices if s.pipe == "VECTOR")
    assert b.end - b.start == model.vf(vf()).vf_time


def test_dma_cost_alone_is_the_single_core_figure_and_shares_bandwidth_under_load():
    t = M.params["timing"]
    lat, occ = dma_cost(M, PIPE_MTE2, 16384, 1, 1.0)
    assert (lat, occ) == (t["mte2_latency"], round(16384 / t["mte2_bytes_per_cycle"]))
    lat32, occ32 = dma_cost(M, PIPE_MTE2, 16384, 1, 32.0, 31 * 16384)
    shared = MEM["gm_read_bytes_per_cycle"]
    assert occ32 == round(16384 * 32 / shared)
    assert lat32 == round(t["mte2_latency"] + 31 * 16384 / shared)
    # a write is posted: it shares the bandwidth, it does not queue
    assert dma_cost(M, "MTE3", 16384, 1, 32.0)[0] == t["mte3_latency"]


def test_busy_profile_counts_cores_not_copies():
    def core_with(intervals):
        from toolkit.timing.core import CoreTiming, Slice
        return CoreTiming(0, 0, {}, [Slice("MTE2", "d", s, e) for s, e in intervals], [], {})
    prof = BusyProfile([core_with([(0, 100), (50, 150)]), core_with([(100, 200)])], "MTE2")
    assert prof.average(0, 100) == 1.0             # one core, two overlapping copies
    assert prof.average(100, 150) == 2.0
    assert prof.average(0, 200) == pytest.approx(1.25)


def test_many_cores_loading_at_once_slow_each_other_one_core_does_not():
    tile = [flag("VECTOR", "MTE2", 0, "wait"), dma_in(16384), flag("MTE2", "VECTOR", 0, "set"),
            flag("MTE2", "VECTOR", 0, "wait"), vf(), flag("VECTOR", "MTE2", 0, "set")]
    stream = [flag("VECTOR", "MTE2", 0, "set")] + tile + tile
    model = TimingModel(M)
    one = model.launch(FakeLaunch([stream]))
    many = model.launch(FakeLaunch([stream] * 32))
    alone = [s for s in one.cores[0].slices if s.pipe == "MTE2"]
    assert [(s.args["cores"], s.args["queued_bytes"]) for s in alone] == [(1.0, 0), (1.0, 0)]
    loaded = [s for s in many.cores[0].slices if s.pipe == "MTE2"]
    for s in loaded:                 # lockstep cores: 32 share the bandwidth, 31 copies are ahead
        assert s.args["cores"] == pytest.approx(32, rel=0.02)
        assert s.args["queued_bytes"] == pytest.approx(31 * 16384, rel=0.02)
        assert s.end - s.start == sum(dma_cost(M, PIPE_MTE2, 16384, 1, s.args["cores"], s.args["queued_bytes"]))
    assert many.kernel_cycles > one.kernel_cycles
    small = model.launch(FakeLaunch([[dma_in(256)]] * 32)).cores[0]
    assert next(s for s in small.slices if s.pipe == "MTE2").args["queued_bytes"] <= 31 * 256


def test_task_time_adds_launch_and_tail_and_converts_with_the_machine_clock():
    kt = TimingModel(M).launch(FakeLaunch([[vf()]]))
    lp = M.params["launch"]
    assert kt.task_cycles == lp["launch_cycles"] + kt.kernel_cycles + lp["tail_cycles"]
    assert kt.us(kt.task_cycles) == pytest.approx(kt.task_cycles / M.clock_mhz)
    assert M.sources["core"]["clock_mhz"]
