"""The cost model judged against the vendor-measured calibration table (what scripts/calibrate.py prints).

These are the acceptance figures of the cycle model; they guard against a parameter or scheduler
change that silently degrades it."""
import pytest

from toolkit.calibration import vf_rows as cal
from toolkit.machine import load_machine


@pytest.fixture(scope="module")
def preds():
    return cal.predict_rows(cal.collect(), load_machine())


def test_whole_vf_rows_mape_within_5_percent(preds):
    s = cal.summary(preds)
    assert s["vf_rows"] == 29                    # 19 story rows + 10 VF micro-kernel rows
    assert s["vf_mape"] <= 5.0


def test_every_within_group_ordering_is_reproduced(preds):
    bad = [o.describe() for o in cal.orderings(preds) if not o.ok]
    assert not bad


def test_dma_sum_cycles(preds):
    mte = [p for p in preds if p.kind == "mte"]
    assert len(mte) == 20
    within = [p for p in mte if abs(p.error_pct) <= 20.0]
    # two MTE3 rows (reduce_sum_ar unroll 487 and binary 503 for the same 312-byte copy the other ar
    # variants measure at ~304-314) are not reproducible by any deterministic DMA model
    assert len(within) >= 18


def test_opcode_sum_cycles(preds):
    rows = [p for p in preds if p.kind == "opcode_sum"]
    assert len(rows) == 36
    # trace durations of loads/stores queueing on UB banks are the weak part (elemwise VST, reduce ra
    # unroll VLD: the bank rule that fits the whole-VF cycles makes their events longer than drawn)
    assert cal.mape(preds, "opcode_sum") <= 12.0
    exact_ex = [p for p in rows if p.row.metric in ("RV_VADD", "RV_VMULS", "RV_VMAX", "RV_VCADD", "RV_VCMAX")]
    assert all(abs(p.error_pct) < 1.0 for p in exact_ex)


def test_unmodelled_rows_are_reported_not_guessed(preds):
    su = [p for p in preds if p.row.metric == "rvecsu_sum_cycles"]
    assert su and all(p.ours is None for p in su)
