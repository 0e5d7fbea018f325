"""The VF scheduler against hand-computed figures on synthetic instruction streams.

Streams are written directly as ``(opcode, dst, srcs, aux)`` tuples; the expected cycles follow from
the machine parameters read in each test (not from the scheduler)."""
import pytest

from toolkit.machine import MachineError, load_machine, with_overrides
from toolkit.timing.model import TimingModel
from toolkit.timing.vf_sched import schedule

M = load_machine()
T = M.params["timing"]


def chain(op: str, n: int) -> list:
    """n dependent ops: each reads the previous result (a loop-carried accumulator)."""
    return [(op, k + 1, (k,) if k else (), None) for k in range(n)]


def independent(op: str, n: int) -> list:
    return [(op, k + 1, (), None) for k in range(n)]


def test_dependent_chain_is_latency_bound():
    n = 100
    t = schedule(chain("RV_VADD", n), M)
    lat, dur = M.instr("RV_VADD").latency, M.instr("RV_VADD").duration
    # first issue after dispatch_to_issue, then one op every `latency` cycles, the last one lasting `duration`
    expected = T["dispatch_to_issue"] + (n - 1) * lat + dur
    assert t.steady == expected
    assert t.cycles == expected + T["vf_drain_cycles"]
    assert t.vf_time == t.cycles + T["vf_start_cycles"]
    assert t.bottleneck() == "dependency chain"


def test_independent_ops_are_throughput_bound():
    n = 200
    t = schedule(independent("RV_VADD", n), M)
    ii = M.instr("RV_VADD").ii
    per_cycle = T["ex_units"] / ii                       # both execute units, each busy `ii` cycles
    # the last op issues after n/per_cycle cycles of issue, then lasts its duration
    expected = T["dispatch_to_issue"] + n / per_cycle - 1 + M.instr("RV_VADD").duration
    assert abs(t.steady - expected) <= 2
    fill_drain = T["dispatch_to_issue"] + M.instr("RV_VADD").duration - 1
    assert t.bounds["execute units"] == n * ii / T["ex_units"] + fill_drain
    assert t.bottleneck() == "execute units"


def test_single_issue_ops_use_one_unit():
    n = 100
    dual = schedule(independent("RV_VMAX", n), M).steady
    single = schedule(independent("RV_VCMAX", n), M).steady
    assert M.instr("RV_VCMAX").issue == "single"
    assert single >= n * M.instr("RV_VCMAX").ii
    assert dual < single


def test_ub_ports_limit_loads_and_stores():
    n = 200
    fill = T["dispatch_to_issue"] - 1
    loads = schedule(independent("RV_VLD", n), M)
    assert abs(loads.steady - (fill + n / T["ub_slots"] + M.instr("RV_VLD").duration)) <= 2
    stores = schedule([("RV_VST", -1, (), None)] * n, M)
    assert abs(stores.steady - (fill + n / T["ub_write_slots"] + M.instr("RV_VST").duration)) <= 2


def test_window_limits_lookahead_past_a_long_chain():
    # a long dependent chain followed by independent loads: with a window of W waiting entries the loads
    # cannot be dispatched until the chain has drained to W waiting instructions
    n = 120
    stream = chain("RV_VMAX", n) + [("RV_VLD", 1000 + k, (), None) for k in range(10)]
    narrow = with_overrides(M, "timing", window=8)
    wide = with_overrides(M, "timing", window=512)
    t_narrow = schedule(stream, narrow, detail=True)
    t_wide = schedule(stream, wide, detail=True)
    first_load = lambda t: min(s for lane, op, s, e in t.slices if op == "RV_VLD")  # noqa: E731
    # wide: the loads wait only for the front end to dispatch the chain (dispatch_width per cycle)
    assert first_load(t_wide) <= n // T["dispatch_width"] + T["dispatch_to_issue"] + 1
    assert first_load(t_narrow) > 100


def test_loop_entry_stalls_dispatch():
    body = [("RV_VLD", 1, (), None)]
    base = schedule([("RV_VLOOP", -1, (), 1), ("ITER", -1, (), 1)] + body, M)
    gap = T["loop_entry_cycles"]
    loops = schedule([x for _ in range(10) for x in (("RV_VLOOP", -1, (), 1), ("ITER", -1, (), 1))] + body, M)
    assert loops.loop_entries == 10
    assert loops.steady - base.steady == 9 * gap


def test_membar_orders_store_then_load():
    store_load = [("RV_VST", -1, (), None), ("RV_VLD", 1, (), None)]
    with_bar = [("RV_VST", -1, (), None), ("RV_MEMBAR", -1, (), "VST_VLD"), ("RV_VLD", 1, (), None)]
    t0 = schedule(store_load, M, detail=True)
    t1 = schedule(with_bar, M, detail=True)
    store_end = [e for lane, op, s, e in t1.slices if op == "RV_VST"][0]
    load_issue = [e for lane, op, s, e in t1.slices if op == "RV_VLD"][0] - M.instr("RV_VLD").duration
    assert load_issue >= store_end + T["membar_release"]
    assert t1.steady > t0.steady


def test_pseudo_ops_cost_nothing_and_alias_carries_readiness():
    stream = [("RV_VLD", 1, (), "DINTLV_B16"), ("ALIAS", 2, (1,), None), ("ITER", -1, (), 1),
              ("RV_VADD", 3, (2,), None)]
    t = schedule(stream, M, detail=True)
    add = [s for lane, op, s, e in t.slices if op == "RV_VADD"][0]
    ld = [s for lane, op, s, e in t.slices if op == "RV_VLD"][0]
    assert add >= ld + M.instr("RV_VLD").latency
    assert "ITER" not in t.op_count and "ALIAS" not in t.op_count


def test_unknown_opcode_is_an_error_not_a_zero():
    with pytest.raises(MachineError):
        schedule([("RV_NOT_AN_OPCODE", 1, (), None)], M)


def test_counters_use_trace_durations():
    n = 10
    t = schedule(chain("RV_VADD", n) + [("RV_PLT", 50, (), 64)], M)
    assert t.op_count["RV_VADD"] == n
    assert t.op_sum_cycles["RV_VADD"] == n * M.instr("RV_VADD").duration
    assert t.lane_events["RVECEX"] == n + 1           # mask generation counts as RVECEX
    assert t.n_ex == n + 1


def test_timing_is_memoised_by_stream():
    from toolkit.events import VfCall
    model = TimingModel(M)
    a = VfCall("A", "direct", 3, chain("RV_VADD", 20))
    b = VfCall("B", "direct", 3, chain("RV_VADD", 20))
    assert model.vf(a) is model.vf(b)
    c = VfCall("C", "direct", 3, chain("RV_VADD", 21))
    assert model.vf(c) is not model.vf(a)
