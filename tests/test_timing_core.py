"""Core-level timing (pipes joined by queues and flags) on hand-built event streams."""
from toolkit.machine import load_machine, with_overrides
from toolkit.record.events import Dma, QueueOp, ScalarOp, Sync, VfCall
from toolkit.timing.core import critical_path
from toolkit.timing.model import TimingModel

M = load_machine()
T = M.params["timing"]
S = M.params["scalar"]
VF_BODY = [("RV_VADD", k + 1, (k,) if k else (), None) for k in range(40)]   # a ~latency-bound VF


def dma_in(nbytes: int) -> Dma:
    return Dma("GM2UB", "DataCopy", 0, "x", 0, nbytes, 1, nbytes)


def dma_out(nbytes: int) -> Dma:
    return Dma("UB2GM", "DataCopy", 0, "y", 0, nbytes, 1, nbytes)


def tiles(n: int, slots: int, nbytes: int = 8192) -> list:
    """CopyIn -> Compute -> CopyOut per tile through a VECIN and a VECOUT queue of ``slots`` buffers."""
    ev = []
    for i in range(n):
        s = i % slots
        ev += [QueueOp("alloc", "in", "VECIN", s), dma_in(nbytes), QueueOp("enque", "in", "VECIN", s),
               QueueOp("deque", "in", "VECIN", s), QueueOp("alloc", "out", "VECOUT", s),
               VfCall("compute", "asc_vf_call", 3, VF_BODY),
               QueueOp("enque", "out", "VECOUT", s), QueueOp("free", "in", "VECIN", s),
               QueueOp("deque", "out", "VECOUT", s), dma_out(nbytes), QueueOp("free", "out", "VECOUT", s)]
    return ev


def test_dma_cost_is_latency_plus_bytes_over_bandwidth():
    nbytes = 78000
    core = TimingModel(M).core(0, [dma_in(nbytes)])
    expected = T["mte2_latency"] + round(nbytes / T["mte2_bytes_per_cycle"])
    assert core.counters["mte2_sum_cycles"] == expected
    issued = S["entry_cycles"] + S["dma_issue_cycles"]          # the scalar unit sets the copy up first
    assert core.end == issued + expected


def test_double_buffering_overlaps_copy_in_with_compute():
    # with a scalar unit that runs ahead of its VFs (vf_launch_waits "none")
    model = TimingModel(with_overrides(M, "scalar", vf_launch_waits="none"))
    single = model.core(0, tiles(6, 1))
    double = model.core(0, tiles(6, 2))
    vf = model.vf(VfCall("compute", "asc_vf_call", 3, VF_BODY)).cycles
    assert double.end < single.end
    # with one buffer every tile's copy-in waits for the previous tile's copy-out to free the slot
    per_tile_single = (single.end - S["entry_cycles"]) / 6
    assert per_tile_single > vf + T["mte2_latency"]
    # with two buffers the steady state is bounded by the slowest stage, not the sum of stages
    assert double.end - S["entry_cycles"] < 6 * (vf + T["mte2_latency"] + T["mte3_latency"])


def test_a_scalar_unit_waiting_for_its_vfs_issues_the_next_copy_in_after_the_compute():
    core = TimingModel(with_overrides(M, "scalar", vf_launch_waits="all")).core(0, tiles(3, 2))
    vec = [s for s in core.slices if s.pipe == "VECTOR"]
    mte2 = [s for s in core.slices if s.pipe == "MTE2"]
    assert all(m.start >= v.end for v, m in zip(vec, mte2[1:]))
    ahead = TimingModel(with_overrides(M, "scalar", vf_launch_waits="none")).core(0, tiles(3, 2))
    assert ahead.end < core.end


def test_queue_edges_order_the_pipes():
    core = TimingModel(M).core(0, tiles(1, 1))
    mte2, vec, mte3 = (next(s for s in core.slices if s.pipe == p) for p in ("MTE2", "VECTOR", "MTE3"))
    assert vec.start >= mte2.end          # DeQue waits for the EnQue after the copy-in completed
    assert mte3.start >= vec.end          # CopyOut waits for the VF's EnQue


def test_scalar_gm_reads_go_through_a_data_cache_and_flags_wait_for_them():
    line = T["dcache_line_bytes"]
    ev = [ScalarOp("gm_read", 8, gm="index", gm_offset=0), ScalarOp("gm_read", 8, gm="index", gm_offset=8),
          ScalarOp("gm_read", 8, gm="index", gm_offset=line), Sync("SCALAR", "MTE3"), dma_out(256)]
    core = TimingModel(M).core(0, ev)
    miss, hit = T["gm_read_miss_cycles"], T["gm_read_hit_cycles"]
    issue = S["entry_cycles"] + S["flag_cycles"] + S["dma_issue_cycles"]
    assert core.counters["scalar_cycles"] == miss + hit + miss + issue
    mte3 = next(s for s in core.slices if s.pipe == "MTE3")
    # the MTE3 wait releases a flag latency after the scalar unit passed the flag
    passed = S["entry_cycles"] + miss + hit + miss + S["flag_cycles"]
    assert mte3.start == max(passed + S["flag_latency_cycles"], passed + S["dma_issue_cycles"])


def test_vf_parameter_pushes():
    ev = [VfCall("a", "asc_vf_call", 5, VF_BODY), VfCall("b", "asc_vf_call", 8, VF_BODY)]
    core = TimingModel(M).core(0, ev)
    per = T["push_pb_cycles"]
    assert core.counters["push_pb_cycles"] == per * 1 + per * 2     # <= 5 params: one push; 6-10: two
    assert core.counters["vf_count"] == 2


def test_critical_path_covers_the_core():
    core = TimingModel(M).core(0, tiles(4, 2))
    path = critical_path(core)
    assert sum(path.values()) == core.end
    assert set(path) <= {"MTE2", "VECTOR", "MTE3", "SCALAR", "wait"}
