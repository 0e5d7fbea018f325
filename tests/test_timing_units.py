"""The VF scheduler's hardware units (toolkit.timing.vf_units) and the core's shared units
(toolkit.timing.core_units): typed bounds, per-unit figures against hand-computed ones, and that a
resource is added as one class registered in the unit list (the scheduler and the pipes unchanged)."""
import json

from toolkit.machine import load_machine, with_overrides
from toolkit.record.events import Dma
from toolkit.timing.core import simulate_core
from toolkit.timing.core_units import CORE_UNITS, CoreUnit
from toolkit.timing.vf_decode import decode
from toolkit.timing.vf_sched import schedule
from toolkit.timing.vf_units import UNITS, Bound, OpClass, StreamStats, Unit

M = load_machine()
T = M.params["timing"]


def loads(n: int) -> list:
    return [("RV_VLD", k + 1, (), None) for k in range(n)]


def test_bounds_are_typed_in_bound_order_and_report_as_their_names():
    t = schedule(loads(8) + [("RV_VADD", 100, (1, 2), None), ("RV_VST", -1, (100,), None)], M)
    assert list(t.bounds) == list(Bound)                 # every bound, in the enum's order
    assert all(isinstance(k, Bound) for k in t.bounds)
    assert json.loads(json.dumps(t.bounds)).keys() == {b.value for b in Bound}
    assert t.bounds["UB ports"] == t.bounds[Bound.UB_PORTS]


def test_stream_stats_per_class():
    rows, _ = decode(loads(3) + [("RV_VADD", 10, (1, 2), None), ("RV_VST", -1, (10,), None)], M)
    s = StreamStats(rows)
    ld, st = M.instr("RV_VLD"), M.instr("RV_VST")
    assert s.n[OpClass.LOAD] == 3 and s.n[OpClass.STORE] == 1 and s.n[OpClass.ALU] == 1 and s.rows == 5
    assert s.span[OpClass.LOAD] == 3 * max(ld.ii, 1)
    assert s.dur[OpClass.STORE] == st.duration
    assert s.shortest_of(OpClass.LOAD, OpClass.STORE) == min(ld.duration, st.duration)
    assert s.shortest[OpClass.MEMBAR] is None


def test_each_throughput_bound_is_busy_over_units_plus_fill_and_drain():
    n = 12
    t = schedule(loads(n) + [("RV_VST", -1, (), None)] * 4, with_overrides(M, "timing", store_queue=4))
    ld, st = M.instr("RV_VLD"), M.instr("RV_VST")
    edge = T["dispatch_to_issue"] + min(ld.duration, st.duration) - 1
    assert t.bounds[Bound.UB_PORTS] == max((n + 4) / T["ub_slots"], 4 / T["ub_write_slots"]) + edge
    assert t.bounds[Bound.STORE_QUEUE] == 4 * st.duration / 4 + T["dispatch_to_issue"] + st.duration - 1
    assert t.bounds[Bound.DISPATCH] == (n + 4) / T["dispatch_width"] + edge
    assert t.bounds[Bound.EXECUTE_UNITS] == 0.0 and t.bounds[Bound.MASK_UNIT] == 0.0


class OneLoadPerCycle(Unit):
    """A hypothetical extra resource: a single UB read port (one load per cycle)."""

    serves = frozenset({OpClass.LOAD})

    def __init__(self, p, core):
        super().__init__(p, core)
        self.free_at = 0

    def can_issue(self, i, row, t):
        return self.free_at <= t

    def reserve(self, i, row, t):
        self.free_at = t + 1

    def next_free(self, t):
        return [self.free_at]


def test_a_new_resource_is_one_class_in_the_unit_list():
    n = 40
    base = schedule(loads(n), M)
    more = schedule(loads(n), M, units=UNITS + (OneLoadPerCycle,))
    # one load per cycle instead of ub_slots: the last of n loads issues n - 1 cycles after the first
    assert more.steady == T["dispatch_to_issue"] + n - 1 + M.instr("RV_VLD").duration
    assert base.steady < more.steady
    # the same figure as the machine's own UB ports cut to one slot
    assert more.steady == schedule(loads(n), with_overrides(M, "timing", ub_slots=1)).steady


class SlowDma(CoreUnit):
    """A hypothetical shared resource that holds every DMA 100 cycles longer."""

    def dma(self, pipe, start, latency, occupancy, nbytes):
        return occupancy + 100


def test_core_shared_units_sit_between_the_pipes_and_default_to_no_contention():
    ev = [Dma("GM2UB", "DataCopy", 0, "x", 0, 8192, 1, 8192), Dma("GM2UB", "DataCopy", 0, "x", 0, 8192, 1, 8192)]
    alone = simulate_core(0, ev, M, None)
    assert alone.end == simulate_core(0, ev, M, None, shared_units=()).end   # model v2: ports not shared
    slow = simulate_core(0, ev, M, None, shared_units=CORE_UNITS + (SlowDma,))
    assert slow.end == alone.end + 2 * 100                                 # back-to-back copies pipeline
