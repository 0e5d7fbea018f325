"""The counter rows of the calibration table as toolkit/calibration/counter_rows.py reads and scores them
(figures copied by hand from the table's elemwise_axpy baseline rows)."""
from toolkit.calibration.counter_rows import Comparison, compare, measured_figures
from toolkit.calibration.vf_rows import vs_vendor


def test_measured_figures_split_count_and_sum_cycles():
    measured, sums = measured_figures("elemwise_axpy", "baseline")
    assert measured["vf_count"] == 5 and measured["pushq_vf_cycles"] == 625
    assert measured["RV_VMULS"] == 305 and sums["RV_VMULS"] == 2440
    assert sums["RV_VST"] == 4950 and "vf_count" not in sums


def test_exact_and_one_percent_rules():
    assert Comparison("RV_VADD", "per_vf", "RV_VADD", 305, 305, 0.0).ok
    assert not Comparison("RV_VADD", "per_vf", "RV_VADD", 304, 305, 0.0).ok
    within = Comparison("rvecex_events", "per_vf", "rvecex_events", 924, 915, 0.01)     # +0.98 %
    beyond = Comparison("rvecex_events", "per_vf", "rvecex_events", 925, 915, 0.01)     # +1.09 %
    assert within.ok and not beyond.ok and round(beyond.error_pct, 3) == 1.093
    assert within.to_json()["rule"] == "within 1%"


def test_compare_reads_the_counters_of_each_scope():
    counters = {"total": {"vf_count": 5}, "per_vf": {"RV_VMULS": 305, "rvecex_events": 915}}
    got = compare({"vf_count": 5, "RV_VMULS": 305, "rvecex_events": 900, "pushq_vf_cycles": 625, "RV_VST": 305},
                  counters.__getitem__)
    assert [(c.metric, c.scope, c.ours, c.ok) for c in got] == [
        ("vf_count", "total", 5, True), ("RV_VMULS", "per_vf", 305, True), ("rvecex_events", "per_vf", 915, False),
        ("RV_VST", "per_vf", 0, False)]                       # a counter we do not have counts 0


def test_vs_vendor_takes_sum_cycles_of_opcode_cells_and_the_scope_of_the_kernel():
    run = {"pushq_vf_sum_cycles": 3000, "RV_VADD:sum_cycles": 9999, "mte2_sum_cycles": 2343}
    vf = {"pushq_vf_cycles": 600, "RV_VADD:sum_cycles": 2100}
    got = vs_vendor({"pushq_vf_cycles": 625, "RV_VADD": 305, "vf_count": 5, "mte2_sum_cycles": 2343},
                    {"RV_VADD": 2135}, run, vf, "vf")
    assert got["pushq_vf_cycles"] == {"ours": 600, "vendor": 625, "error_pct": -4.0}
    assert got["RV_VADD:sum_cycles"]["ours"] == 2100 and got["RV_VADD:sum_cycles"]["vendor"] == 2135
    assert got["mte2_sum_cycles"]["error_pct"] == 0.0          # a run-only metric, from the run
    assert "vf_count" not in got
