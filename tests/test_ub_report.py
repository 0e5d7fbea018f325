"""toolkit.views.ub_report on hand-made BufferInit events: totals, percent, fit, JSON, compare table."""
from __future__ import annotations

import pytest

from toolkit.record.events import BufferInit, QueueOp
from toolkit.views.ub_report import compare_table, ub_report

MEM = [BufferInit("gammaQueue", "TQue", "VECIN", 1, 3072, 0, 1),
       QueueOp("alloc", "gammaQueue", "VECIN", 0),                       # not a buffer: ignored
       BufferInit("inQueue", "TQue", "VECIN", 2, 10240, 3072, 1),
       BufferInit("wsBuffer", "TBuf", "VECCALC", 1, 81920, 23552, 0)]
REG = [BufferInit("gammaQueue", "TQue", "VECIN", 1, 1024, 0, 1),
       BufferInit("inQueue", "TQue", "VECIN", 2, 10240, 1024, 1),
       BufferInit("outQueue", "TQue", "VECOUT", 2, 64, 21504, 1)]


def rows(table: str) -> dict[str, list[str]]:
    return {line.split("  ")[0].strip(): line.split() for line in table.splitlines()[1:]}


def test_report_rows_totals_and_json():
    r = ub_report(MEM, 253952, 15)
    assert r.buffers == [
        {"name": "gammaQueue", "position": "VECIN", "num": 1, "bytes_each": 3072, "bytes": 3072},
        {"name": "inQueue", "position": "VECIN", "num": 2, "bytes_each": 10240, "bytes": 20480},
        {"name": "wsBuffer", "position": "VECCALC", "num": 1, "bytes_each": 81920, "bytes": 81920}]
    assert r.total_bytes == 105472 and r.fits and r.max_ub_factor == 15
    assert r.percent == pytest.approx(100 * 105472 / 253952)
    assert r.to_json() == {"budget_bytes": 253952, "total_bytes": 105472, "percent_used": 41.53, "fits": True,
                           "max_ub_factor": 15, "buffers": r.buffers}


def test_fit_is_inclusive_and_empty_plans_are_harmless():
    assert ub_report(MEM, 105472).fits and not ub_report(MEM, 105471).fits
    empty = ub_report([], 0)
    assert (empty.total_bytes, empty.percent, empty.fits, empty.max_ub_factor) == (0, 0.0, True, None)


def test_compare_two_plans_exact_text():
    table = compare_table({"membase": ub_report(MEM, 253952, 15), "regbase": ub_report(REG, 253952, 44)})
    assert table.splitlines() == [
        "buffer        position            membase            regbase      diff",
        "gammaQueue    VECIN       1 x 3072 = 3072    1 x 1024 = 1024     -2048",
        "inQueue       VECIN     2 x 10240 = 20480  2 x 10240 = 20480        +0",
        "wsBuffer      VECCALC   1 x 81920 = 81920                  -    -81920",
        "outQueue      VECOUT                    -       2 x 64 = 128      +128",
        "total                              105472              21632    -83840",
        "budget                             253952             253952        +0",
        "percent used                        41.5%               8.5%  -33.0 pt",
        "max ubFactor                           15                 44       +29",
        "saving                                                           79.5%",
    ]


def test_compare_cells_diff_and_saving():
    t = rows(compare_table({"a": ub_report(MEM, 253952, 15), "b": ub_report(REG, 253952, 44)}))
    assert t["wsBuffer"][-2:] == ["-", "-81920"]                          # missing in b: "-", diff -bytes
    assert t["outQueue"][2] == "-" and t["outQueue"][-1] == "+128"
    assert t["total"][1:] == ["105472", "21632", "-83840"]
    assert t["saving"][1] == f"{100 * (105472 - 21632) / 105472:.1f}%"


def test_percent_diff_is_taken_on_the_shown_percentages():
    # 10.07 % and 3.088 % show as 10.1 % and 3.1 %: the diff reads -7.0 pt (not -6.98 -> -7.0 by luck)
    a = ub_report([BufferInit("x", "TQue", "VECIN", 1, 1007, 0, 1)], 10000, 1)
    b = ub_report([BufferInit("x", "TQue", "VECIN", 1, 3088, 0, 1)], 100000, 1)
    assert rows(compare_table({"a": a, "b": b}))["percent used"][2:] == ["10.1%", "3.1%", "-7.0", "pt"]
    c = ub_report([BufferInit("x", "TQue", "VECIN", 1, 1004, 0, 1)], 10000, 1)    # 10.04 -> 10.0
    d = ub_report([BufferInit("x", "TQue", "VECIN", 1, 2006, 0, 1)], 10000, 1)    # 20.06 -> 20.1
    assert rows(compare_table({"c": c, "d": d}))["percent used"][-2:] == ["+10.1", "pt"]


def test_max_factor_row_when_unknown_and_custom_name():
    t = compare_table({"a": ub_report(MEM, 253952, None), "b": ub_report(REG, 253952, 44)}, factor_name="tileRows")
    line = next(line for line in t.splitlines() if line.startswith("max tileRows"))
    assert line.split()[2:] == ["-", "44"]                                # no diff when one side is unknown
    assert "max ubFactor" not in t


def test_single_plan_and_three_plans_have_no_diff_or_saving():
    one = compare_table({"only": ub_report(MEM, 253952, 15)})
    assert one.splitlines()[0].split() == ["buffer", "position", "only"]
    assert "saving" not in one and "diff" not in one
    assert rows(one)["total"] == ["total", "105472"]
    three = compare_table({k: ub_report(REG, 253952, 44) for k in "xyz"})
    assert three.splitlines()[0].split() == ["buffer", "position", "x", "y", "z"] and "saving" not in three
    assert rows(three)["max ubFactor"][-3:] == ["44", "44", "44"]


def test_zero_total_reference_has_no_saving_row():
    t = compare_table({"a": ub_report([], 253952, None), "b": ub_report(REG, 253952, 44)})
    assert "saving" not in t and rows(t)["gammaQueue"][2] == "-"
