"""The KV sample as our own .asc programs: their host code prints the header, the four CompareBf16 lines and
PASS; each launch equals the Python port's (UB plan, counters, cycles); `compare` of the two gives the
UB saving and the speed-up of the ports, with outputs equal within the bf16 tolerance."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from operators.kv_rms_norm_rope_cache import host
from tests.asc_support import build_and_run, needs_compiler
from toolkit.cli import main
from toolkit.machine import load_machine
from toolkit.timing.model import TimingModel
from toolkit.views.launch_summary import launch_counters, launch_summary

ASC = Path(__file__).resolve().parents[1] / "operators" / "kv_rms_norm_rope_cache" / "asc"


@pytest.fixture(scope="module")
def runs():
    return {b: build_and_run(ASC / b / "full_load.asc") for b in ("membase", "regbase")}


@pytest.fixture(scope="module")
def ports():
    p = host.KvParams()
    case = host.load_case(p, None)
    machine = load_machine()
    return {b: host.run_backend(b, p, case, machine) for b in ("membase", "regbase")}


@needs_compiler
@pytest.mark.parametrize("backend,ub", [("membase", 130048), ("regbase", 46080)])
def test_program_prints_the_sample_report(runs, backend, ub):
    run = runs[backend]
    assert run.failure is None and run.exit_status == 0
    lines = run.stdout.splitlines()
    assert lines[0] == f"Run {backend}/full_load, blockNum 54, blockFactor 19, ubFactor 8"
    for name in ("k_cache", "v_cache", "k_out", "v_out"):
        assert f"{name} precision 100.000000%, errors 0, max diff 0.000000 at 0" in lines
    assert lines[-1] == "PASS"
    (lr,) = run.launches
    assert lr["passed"] and lr["block_dim"] == 54 and lr["ub"]["total_bytes"] == ub


@needs_compiler
@pytest.mark.parametrize("backend", ["membase", "regbase"])
def test_launch_equals_the_python_port(runs, ports, backend):
    lr = runs[backend].launches[0]
    port = ports[backend].launch
    assert lr["counters"] == launch_counters(port, port.machine)
    want = launch_summary(port, TimingModel(port.machine))["cycles"]
    assert json.loads(json.dumps(lr["cycles"])) == json.loads(json.dumps(want))
    assert [b["name"] for b in lr["ub"]["buffers"]] == [b["name"] for b in ports[backend].ub.buffers]


@needs_compiler
def test_compare_of_the_two_sources(runs, ports, capsys):
    code = main(["compare", str(ASC / "membase" / "full_load.asc"), str(ASC / "regbase" / "full_load.asc"),
                 "--json", "-"])
    doc = json.loads(capsys.readouterr().out)
    assert code == 0 and doc["passed"]
    (pair,) = doc["launches"]
    assert pair["ub_saving_pct"] == 64.6
    m, r = (TimingModel(p.launch.machine).launch(p.launch).kernel_cycles for p in ports.values())
    assert pair["speedup"] == round(m / r, 3)
    assert {o["arg"] for o in pair["outputs"]} == {"k_cache", "v_cache", "k_out", "v_out"}
    assert all(o["mismatches"] == 0 and o["max_abs_diff"] <= 6e-2 for o in pair["outputs"])


@needs_compiler
def test_compare_side_by_side_equals_one_after_the_other(runs, tmp_path):
    """The two programs run side by side (two threads, the default on two CPUs) or one after the other
    (--jobs 1): the same report, JSON and trace."""
    got = {}
    for jobs in ("1", "2"):
        out = tmp_path / jobs
        out.mkdir()
        code = main(["compare", str(ASC / "membase" / "full_load.asc"), str(ASC / "regbase" / "full_load.asc"),
                     "--jobs", jobs, "--json", str(out / "r.json"), "--trace", str(out / "t.json")])
        assert code == 0
        got[jobs] = {p.name: p.read_bytes() for p in out.iterdir()}
    assert got["1"] == got["2"] and json.loads(got["2"]["r.json"])["passed"]
