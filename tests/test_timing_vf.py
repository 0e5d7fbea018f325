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
    stores = schedule([("RV_VST", -1, (), None)] * n, with_overrides(M, "timing", store_queue=1000))
    assert abs(stores.steady - (fill + n / T["ub_write_slots"] + M.instr("RV_VST").duration)) <= 2


def test_window_limits_lookahead_past_a_long_chain():
    # a long dependent chain followed by independent loads: with a window of W waiting entries the loads
    # cannot be dispatched until the chain has drained to W waiting instructions
    n = 120
    stream = chain("RV_VMAX", n) + [("RV_VLD", 1000 + k, (), None) for k in range(10)]
    narrow = with_overrides(M, "timing", window=8, phys_vregs=1000)
    wide = with_overrides(M, "timing", window=512, phys_vregs=1000)
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
    from toolkit.record.events import VfCall
    model = TimingModel(M)
    a = VfCall("A", "direct", 3, chain("RV_VADD", 20))
    b = VfCall("B", "direct", 3, chain("RV_VADD", 20))
    assert model.vf(a) is model.vf(b)
    c = VfCall("C", "direct", 3, chain("RV_VADD", 21))
    assert model.vf(c) is not model.vf(a)


# -- mechanisms of model v2 (hand-computed against the machine parameters) ---------------------------
def test_simple_ops_dual_issue_one_per_unit_per_cycle():
    n = 200
    dur = M.instr("RV_VMUL").duration
    uncapped = schedule(independent("RV_VMUL", n), with_overrides(M, "timing", exu_inflight=n))
    assert M.instr("RV_VMUL").ii == 1 and T["ex_units"] == 2
    # two per cycle: the last of n issues at d2i + n/2 - 1, then lasts its duration
    assert uncapped.steady == T["dispatch_to_issue"] + n // 2 - 1 + dur


def test_an_execute_unit_holds_at_most_exu_inflight_ops_in_flight():
    n, cap, dur = 200, T["exu_inflight"], M.instr("RV_VMUL").duration
    t = schedule(independent("RV_VMUL", n), M)
    assert cap < dur                      # the cap binds: each unit issues cap ops, then waits for the first
    groups, rem = divmod(n // 2, cap)     # per unit: groups of cap ops, one group per duration
    last = T["dispatch_to_issue"] + (dur * groups + rem - 1 if rem else dur * (groups - 1) + cap - 1)
    assert t.steady == last + dur
    assert t.bottleneck() == "execute units"


def test_long_op_occupies_a_special_function_pipe_not_an_execute_unit():
    div = M.instr("RV_VDIV")
    assert div.unit == "sfu"
    n = 40
    divs = schedule(independent("RV_VDIV", n), M)
    # n VDIVs over sfu_units pipes, each busy `ii` cycles per VDIV
    assert divs.steady == T["dispatch_to_issue"] + (n // T["sfu_units"] - 1) * div.ii + div.duration
    # interleaved simple ops still dual-issue beside them: adding n VADDs costs at most a few cycles
    mixed = [x for k in range(n) for x in (("RV_VDIV", 2 * k + 1, (), None), ("RV_VADD", 2 * k + 2, (), None))]
    assert schedule(mixed, M).steady <= divs.steady + 2


def test_store_queue_limits_stores_in_flight():
    n = 60
    stores = [("RV_VST", -1, (), None)] * n
    narrow = schedule(stores, with_overrides(M, "timing", store_queue=2, ub_write_slots=1))
    dur = M.instr("RV_VST").duration
    # two stores in flight, each held `duration` cycles: a pair (one per cycle on the write port) every
    # `duration` cycles; the last store issues one cycle after the last pair's first
    assert narrow.steady == T["dispatch_to_issue"] + (n // 2 - 1) * dur + 1 + dur
    assert narrow.bottleneck() == "store queue"


def test_iteration_cost_spaces_loop_iterations():
    body = [("ITER", -1, (), 1), ("RV_VADD", 1, (), None)]
    stream = [("RV_VLOOP", -1, (), 50)] + body * 50
    free = schedule(stream, with_overrides(M, "timing", iteration_cycles=0)).steady
    gap = schedule(stream, with_overrides(M, "timing", iteration_cycles=3)).steady
    # each of the 49 later iterations starts 3 cycles after the previous one
    assert gap == T["loop_entry_cycles"] + 49 * 3 + T["dispatch_to_issue"] + M.instr("RV_VADD").duration
    assert free < gap


def test_physical_registers_bound_the_values_in_flight():
    # independent loads whose values are read only at the end: each holds a register until then
    n = 20
    stream = [("RV_VLD", k + 1, (), None) for k in range(n)] + [("RV_VADD", 100, tuple(range(1, n + 1)), None)]
    few = schedule(stream, with_overrides(M, "timing", phys_vregs=4), detail=True)
    many = schedule(stream, with_overrides(M, "timing", phys_vregs=1000), detail=True)
    # no register can free before the VADD reads them all: past the budget the compiler would spill,
    # the scheduler goes on one at a time (never deadlocks) once nothing in flight can free one
    assert few.steady > many.steady


def test_vf_start_drain_and_instruction_log_time():
    t = schedule(chain("RV_VADD", 10), M)
    assert t.cycles == t.steady + T["vf_drain_cycles"]
    assert t.vf_time == t.cycles + T["vf_start_cycles"]
    assert t.log_cycles == t.vf_time + T["vf_log_extra_cycles"]


def test_membase_bank_conflict_costs_cycles():
    """The same MemBase Add, its two sources in one UB bank vs in different banks: the loads of one
    bank serialise ("all" rule) and the VF takes one cycle more (one VL chunk)."""
    from toolkit.ascendc.membase.vfstream import count_stream
    assert T["bank_conflicts"] == "all"
    same = count_stream("RV_VADD", 64, 64, ((8192, 4), (0, 4), (4096, 4)))      # 4096 % 512 == 0
    apart = count_stream("RV_VADD", 64, 64, ((8192, 4), (0, 4), (4096 + 256, 4)))
    assert schedule(same, M).steady == schedule(apart, M).steady + 1
    off = with_overrides(M, "timing", bank_conflicts="none")
    assert schedule(same, off).steady == schedule(apart, off).steady


def test_stalls_name_the_dependency_a_vf_waits_for():
    # a reduction feeding a long dependent tail: most cycles wait for VCADD / VDIV results
    stream = [("RV_VLD", 1, (), None), ("RV_VCADD", 2, (1,), None), ("RV_VDIV", 3, (2,), None),
              ("RV_VDIV", 4, (3,), None), ("RV_VST", -1, (4,), None)]
    t = schedule(stream, M)
    assert t.bottleneck() == "dependency chain"          # a single chain meets its bound
    assert set(t.stalls) >= {"wait RV_VCADD", "wait RV_VDIV"}


def test_a_zero_latency_result_is_read_in_the_cycle_it_is_made():
    # a machine file may give an op latency 0: its reader then issues in the producer's cycle (on the
    # other execute unit)
    from toolkit.machine import with_instr
    m = with_instr(M, "RV_VADD", latency=0, ii=1)
    t = schedule(chain("RV_VADD", 2), m, detail=True)
    starts = [s[2] for s in t.slices]
    assert starts[0] == starts[1] == T["dispatch_to_issue"]
    # and a store reading it goes out in the same cycle as well (the store phase follows the ops): a
    # store's slice ends its duration after it issued
    st = schedule([("RV_VADD", 1, (), None), ("RV_VST", -1, (1,), None)], m, detail=True)
    assert st.slices[1][3] == T["dispatch_to_issue"] + M.instr("RV_VST").duration
