"""toolkit.harness: a case launched over its GM buffers, the run record and its gate, the side-by-side report,
the UB plan of a dry run and the --data-dir checks, on a small kernel written here (y = x + 1 per block)."""
from __future__ import annotations

import json
import os

import numpy as np
import pytest

from toolkit.ascendc.dma import DataCopy
from toolkit.ascendc.membase import Adds
from toolkit.ascendc.pipe import TBuf, TPipe, TPosition
from toolkit.ascendc.sync import PipeBarrier, PipeType
from toolkit.ascendc.tensor import GlobalTensor, gm_cast
from toolkit.console.outputs import BadUsage
from toolkit.engine.runtime import GetBlockIdx
from toolkit.harness import binio
from toolkit.harness.case import Case, Output, launch_case
from toolkit.harness.data import BadInput, check_data_dir, user_input
from toolkit.harness.golden import CompareFloat
from toolkit.harness.lineup import Lineup
from toolkit.harness.plan import init_plan, plan_refused
from toolkit.harness.run import Run, run_case
from toolkit.machine import load_machine
from toolkit.record.diagnostics import Diagnostics
from toolkit.views.launch_summary import gate
from toolkit.views.ub_report import UbReport

N = 64                                  # floats per block (256 B)


def _plan(n: int):
    pipe, buf = TPipe(), TBuf(TPosition.VECCALC)
    pipe.InitBuffer(buf, n * 4)
    return buf


def add_one(x, y, keep, untouched, n):
    """y[block] = x[block] + 1; ``keep`` and ``untouched`` are outputs the kernel never writes."""
    buf = _plan(n)
    xg, yg = GlobalTensor(float), GlobalTensor(float)
    xg.SetGlobalBuffer(gm_cast(float, x))
    yg.SetGlobalBuffer(gm_cast(float, y))
    off = GetBlockIdx() * n
    t = buf.Get(float)
    DataCopy(t, xg[off], n)
    PipeBarrier[PipeType.PIPE_ALL]()
    Adds(t, t, 1.0, n)
    PipeBarrier[PipeType.PIPE_ALL]()
    DataCopy(yg[off], t, n)
    PipeBarrier[PipeType.PIPE_ALL]()


def copy_out_unwritten(x, y, keep, untouched, n):
    """Copies UB bytes it never wrote to GM (legal: an UNDEFINED_READ warning), then reads one of them with
    the scalar unit: an UNDEFINED_READ error (not fatal)."""
    yg = GlobalTensor(float)
    yg.SetGlobalBuffer(gm_cast(float, y))
    t = _plan(n).Get(float)
    DataCopy(yg[GetBlockIdx() * n], t, n)
    PipeBarrier[PipeType.PIPE_ALL]()
    t.GetValue(0)


def case(blocks: int = 2) -> Case:
    x = np.arange(blocks * N, dtype=np.float32) / 8
    keep = np.full(16, 7, np.int32)
    outputs = {"y": (blocks, N), "keep": Output((16,), np.int32, init=keep),
               "untouched": Output((8,), np.uint8, fill=0xA5)}
    return Case({"x": x}, outputs, N, golden={"y": (x + 1).reshape(blocks, N)})


def check(c: Case):
    return lambda out: {"y": CompareFloat("y", out["y"], c.golden["y"])}


def plan_of(machine):
    return lambda: init_plan(lambda: _plan(N), machine)[0]


@pytest.fixture(scope="module")
def machine():
    return load_machine()


def test_launch_case_binds_inputs_then_outputs_then_the_tiling(machine):
    c = case()
    before = c.inputs["x"].copy()
    result, out = launch_case(add_one, 2, c, machine, name="add one")
    assert result.kernel == "add one" and result.block_num == 2 and not list(result.diagnostics)
    assert out["y"].shape == (2, N) and np.array_equal(out["y"], before.reshape(2, N) + 1)
    assert np.array_equal(out["keep"], np.full(16, 7, np.int32))        # an in-place output keeps its bytes
    assert out["untouched"].tolist() == [0xA5] * 8                        # a filled one its fill
    assert np.array_equal(c.inputs["x"], before)                          # the caller's input is never written


def test_a_shape_stands_for_zeroed_float32_and_no_tiling_means_no_argument(machine):
    seen = []

    def kernel(x, y):
        seen.append((x.buf.name, y.buf.name, y.buf.size))

    _, out = launch_case(kernel, 1, Case({"x": np.ones(4, np.float32)}, {"y": (2, 3)}), machine)
    assert seen == [("x", "y", 24)] and out["y"].dtype == np.float32 and not out["y"].any()


def test_the_gate_needs_every_check_the_plan_and_no_error(machine):
    ok, bad = CompareFloat("a", np.zeros(2), np.zeros(2)), CompareFloat("b", np.ones(2), np.zeros(2))
    fits, over = UbReport([], 100, 100), UbReport([], 101, 100)
    warn, err = Diagnostics(), Diagnostics()
    warn.report("ZEROING_ACCUMULATOR", "w", raise_fatal=False)
    err.report("UNDEFINED_READ", "e", raise_fatal=False)
    assert gate(warn, fits, [ok]) and gate([], None, [])                  # warnings and no plan pass
    assert not gate([], fits, [ok, bad]) and not gate([], over, [ok]) and not gate(err, fits, [ok])


def test_run_case_records_checks_plan_and_passes(machine):
    c = case()
    run = run_case(add_one, 2, c, check(c), variant="a", ub=plan_of(machine), machine=machine)
    assert isinstance(run, Run) and run.passed and run.failure() is None and run.label == "a"
    assert run.ub.total_bytes == N * 4 and run.ub.fits and run.seconds > 0
    assert run.events is run.launch.cores[0].events
    doc = run.to_json()
    assert list(doc) == ["label", "passed", "outputs", "ub", "uniform", "diagnostics"]
    assert doc["uniform"]["groups"] == 1 and doc["uniform"]["rounds"] == 1     # two cores, one group
    assert doc["outputs"]["y"]["errors"] == 0 and doc["ub"]["total_bytes"] == 256
    assert run.text_lines()[0] == "Run a" and run.text_lines()[-2:] == ["PASS", ""]


def test_failure_names_the_first_gate_that_failed(machine):
    c = case()
    c.golden["y"] = c.golden["y"] + np.float32(0.5)                       # every element off by 0.5
    wrong = run_case(add_one, 2, c, check(c), variant="a", ub=plan_of(machine), machine=machine)
    assert not wrong.passed and wrong.failure() == f"golden FAIL: y {2 * N} errors (max diff 0.5)"
    rows = wrong.gate_rows("golden (CompareFloat)")
    assert rows[0] == ("a: golden (CompareFloat)", False, "mismatches in y")
    assert rows[1][:2] == ("a: UB budget", True)
    assert rows[2] == ("a: kernel diagnostics", True, "0 error(s), 0 warning(s)")
    over = run_case(add_one, 2, case(), check(case()), variant="a", machine=machine,
                    ub=lambda: UbReport([], machine.ub_budget_bytes + 32, machine.ub_budget_bytes))
    assert over.failure() == f"UB plan {machine.ub_budget_bytes + 32} B over the budget {machine.ub_budget_bytes} B"
    undefined = run_case(copy_out_unwritten, 1, case(1), lambda out: {}, variant="u", machine=machine)
    assert not undefined.passed
    assert undefined.failure().startswith("error diagnostic UNDEFINED_READ at tests/test_harness.py:")


def test_lineup_reports_variants_side_by_side(machine):
    c = case()
    runs = {v: run_case(add_one, 2, c, check(c), variant=v, label=f"{v}/label", ub=plan_of(machine),
                        machine=machine) for v in ("a", "b")}
    lineup = Lineup(runs, machine)
    assert lineup.passed and set(lineup.cycles) == {"a", "b"}
    doc = lineup.to_json({"params": {"n": N}}, "variants")
    assert list(doc) == ["params", "passed", "variants"] and list(doc["variants"]) == ["a", "b"]
    assert doc["variants"]["a"]["cycles"] == lineup.cycles["a"] and doc["variants"]["a"]["label"] == "a/label"
    text = lineup.text("UB plan (bytes)").splitlines()
    assert text[0] == "Run a/label" and "Run b/label" in text and "UB plan (bytes)" in text
    assert text[text.index("UB plan (bytes)") + 1].split() == ["buffer", "position", "a", "b", "diff"]
    cycles = next(line for line in text if line.startswith("Cycles (model "))
    assert cycles.endswith(f"1 cycle = 1/{machine.clock_mhz} us)")
    assert lineup.cycles_title(cite_clock=True).endswith(f": {machine.sources['core']['clock_mhz']})")
    names = {e["args"]["name"] for e in lineup.trace()["traceEvents"] if e.get("name") == "process_name"}
    assert names == {"a/label core 0", "a/label core 1", "b/label core 0", "b/label core 1"}
    json.dumps(lineup.trace())


def test_init_plan_records_a_plan_past_the_budget(machine):
    budget = machine.ub_budget_bytes
    ub, diags = init_plan(lambda: _plan(budget // 4 + 8), machine, max_ub_factor=3)
    assert plan_refused(diags) and ub.total_bytes == budget + 32 and not ub.fits and ub.max_ub_factor == 3
    ub, diags = init_plan(lambda: _plan(N), machine)
    assert not plan_refused(diags) and ub.total_bytes == N * 4


def test_data_dir_checks_and_user_input(tmp_path):
    plain = tmp_path / "file"
    plain.write_text("x")
    for given, said in (("", "--data-dir '': empty path"), (str(tmp_path / "no"), "does not exist"),
                        (str(plain), "not a directory")):
        with pytest.raises(BadInput, match=said):
            check_data_dir(given)
    check_data_dir(str(tmp_path))
    with pytest.raises(BadUsage, match="^--data-dir '': empty path$"), user_input():
        check_data_dir("")


def test_read_files_reads_a_layout(tmp_path):
    x, g = np.arange(6, dtype=np.float32), np.arange(4, dtype=np.int64)
    binio.write_bin(tmp_path / "input" / "x.bin", x)
    binio.write_bin(tmp_path / "output" / "g.bin", g)
    got = binio.read_files(tmp_path, {"input/x": (np.float32, (2, 3)), "output/g": (np.int64, (4,))})
    assert np.array_equal(got["input/x"], x.reshape(2, 3)) and np.array_equal(got["output/g"], g)
    with pytest.raises(BadInput, match=os.path.join("input", "x.bin")):
        binio.read_files(tmp_path, {"input/x": (np.float32, (7,))})
