"""UB port contention between DMA (MTE2/MTE3) and VF loads/stores (toolkit.timing.core_units.SharedUbPorts):
work that overlaps work already granted the UB ports gets the port cycles left and ends later."""
from toolkit.machine import load_machine, with_overrides
from toolkit.record.events import Dma, VfCall
from toolkit.timing.core_units import SharedUbPorts
from toolkit.timing.model import TimingModel
from toolkit.views.cycles import contention

M = load_machine()
T = M.params["timing"]
RUN_AHEAD = with_overrides(M, "scalar", vf_launch_waits="none")


def ub_heavy_vf(n: int = 200) -> VfCall:
    """Load, load, store per VL chunk: as many UB accesses as the ports allow (the VF is UB-port bound)."""
    body = []
    for k in range(n):
        a = 256 * (3 * k % 600)
        body += [("RV_VLD", 3 * k + 1, (), None, 0, None, a, 256),
                 ("RV_VLD", 3 * k + 2, (), None, 0, None, a + 256, 256),
                 ("RV_VST", -1, (3 * k + 1,), None, 0, None, a + 512, 256)]
    return VfCall("copy", "asc_vf_call", 3, body)


def compute_vf() -> VfCall:
    return VfCall("chain", "asc_vf_call", 3, [("RV_VADD", k + 1, (k,) if k else (), None) for k in range(200)])


def copy_in(nbytes: int) -> Dma:
    return Dma("GM2UB", "DataCopy", 0, "x", 0, nbytes, 1, nbytes)


def run(events: list, machine=RUN_AHEAD):
    return TimingModel(machine).core(0, events)


def test_the_granted_work_keeps_its_ports_and_the_newcomer_gets_what_is_left():
    ports = SharedUbPorts(M)
    # 1.5 slots per cycle over [0, 100): a newcomer needing 1 slot per cycle progresses at 0.5 there
    assert ports._grant(0, 100, 100.0, 50.0) == 100
    assert ports._grant(0, 40, 40.0, 0.0) == 80
    # past the granted work it runs at its own rate
    assert SharedUbPorts(M)._grant(0, 10, 10.0, 0.0) == 10
    late = SharedUbPorts(M)
    late._grant(0, 100, 100.0, 50.0)
    assert late._grant(100, 40, 40.0, 0.0) == 40


def test_writes_are_limited_to_the_write_port():
    ports = SharedUbPorts(M)
    assert T["ub_write_slots"] == 1
    ports._grant(0, 100, 0.0, 80.0)                  # 0.8 writes per cycle
    # 0.5 writes per cycle fit only 0.2 of the write port: 2.5x slower while both run
    assert ports._grant(0, 20, 0.0, 10.0) == 50


def test_a_copy_in_flight_slows_a_ub_bound_vf_and_the_bottleneck_line_says_so():
    vf = ub_heavy_vf()
    events = [copy_in(256 * 1024), vf]
    off = run(events, with_overrides(RUN_AHEAD, "timing", ub_dma_access_bytes=0))
    on = run(events)
    assert off.counters["ub_contention_vector_cycles"] == 0
    assert on.counters["ub_contention_vector_cycles"] > 0
    vec_on = [s for s in on.slices if s.pipe == "VECTOR"][0]
    vec_off = [s for s in off.slices if s.pipe == "VECTOR"][0]
    assert vec_on.end - vec_on.start > vec_off.end - vec_off.start
    assert "VECTOR delayed by DMA UB-port contention" in contention(on)
    assert contention(off) == ""


def test_a_vf_without_ub_accesses_and_a_vf_after_the_copy_are_not_delayed():
    assert run([copy_in(256 * 1024), compute_vf()]).counters["ub_contention_vector_cycles"] == 0
    # the scalar unit waits for the copy's data before the VF (a DeQue): no overlap, no contention
    from toolkit.record.events import QueueOp
    events = [QueueOp("alloc", "in", "VECIN", 0), copy_in(256 * 1024), QueueOp("enque", "in", "VECIN", 0),
              QueueOp("deque", "in", "VECIN", 0), ub_heavy_vf()]
    assert run(events).counters["ub_contention_vector_cycles"] == 0


def test_a_copy_out_beside_a_copy_in_shares_the_ports():
    events = [copy_in(64 * 1024), Dma("UB2GM", "DataCopy", 0, "y", 0, 64 * 1024, 1, 64 * 1024)]
    rates = T["mte2_bytes_per_cycle"] + T["mte3_bytes_per_cycle"]
    fits = with_overrides(M, "timing", ub_dma_access_bytes=int(rates / T["ub_slots"]) + 8)
    assert run(events, fits).counters["ub_contention_mte3_cycles"] == 0      # both within the two slots
    narrow = with_overrides(M, "timing", ub_dma_access_bytes=int(rates / T["ub_slots"] / 2))
    assert run(events, narrow).counters["ub_contention_mte3_cycles"] > 0     # MTE3 gets what MTE2 leaves
