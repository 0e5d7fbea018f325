"""``migrate-check kv_rms_norm_rope_cache`` in process: text, JSON, exit codes, bad input, data dirs,
envelope refusal, over-budget gate, atomic outputs."""
from __future__ import annotations

import io
import json
import os
from contextlib import redirect_stderr, redirect_stdout

import numpy as np
import pytest

from operators.kv_rms_norm_rope_cache import gen_data
from toolkit import cli

KV = "kv_rms_norm_rope_cache"
SMALL = ("--batch", "1", "--seq", "16")
OUTPUTS = ("k_cache", "v_cache", "k_out", "v_out")


def invoke(*args: str) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of ``migrate-check kv_rms_norm_rope_cache ARGS``."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = cli.main([KV, *args])
    return code, out.getvalue(), err.getvalue()


def assert_bad_input(code: int, out: str, err: str, *needles: str) -> None:
    assert code == 2 and out == ""
    assert err.endswith("\n") and err.count("\n") == 1 and err.startswith("migrate-check: error: ")
    assert "Traceback" not in err
    for n in needles:
        assert n in err


def blocks(text: str) -> dict[str, list[str]]:
    """Report lines per backend, from its ``Run ...`` header to its verdict."""
    out, cur = {}, None
    for line in text.splitlines():
        if line.startswith("Run "):
            cur = out.setdefault(line.split()[1].split("/")[0], [line])
        elif cur is not None:
            cur.append(line)
            if line in ("PASS", "FAIL"):
                cur = None
    return out


@pytest.fixture(scope="module")
def sample(tmp_path_factory):
    path = tmp_path_factory.mktemp("sample") / "report.json"
    code, out, err = invoke("--json", str(path))
    return code, out, err, json.loads(path.read_text())


# -- the sample run ---------------------------------------------------------------------------------

def test_sample_text_report(sample):
    code, out, err, _ = sample
    assert code == 0 and err == ""
    b = blocks(out)
    assert list(b) == ["membase", "regbase"]
    for name, lines in b.items():
        assert lines[0] == f"Run {name}/full_load, blockNum 54, blockFactor 19, ubFactor 8"
        assert lines[1:] == [f"{o} precision 100.000000%, errors 0, max diff 0.000000 at 0" for o in OUTPUTS] + ["PASS"]
    assert out.count("\nPASS\n") == 2 and "FAIL" not in out
    total = next(line for line in out.splitlines() if line.startswith("total "))
    assert total.split()[1:] == ["130048", "46080", "-83968"]
    assert "saving" in out and "64.6%" in out
    assert "bottleneck" in out


def test_sample_json_keys_and_values(sample):
    doc = sample[3]
    assert doc["params"] == {"batch": 8, "num_head": 1, "seq": 128, "dv": 512, "dk": 128, "ub_factor": 8,
                             "cores": 56, "seed": 2026, "epsilon": 1e-5}
    assert doc["tiling"] == {"block_num": 54, "block_factor": 19, "ub_factor": 8}
    assert doc["passed"] is True and list(doc["backends"]) == ["membase", "regbase"]
    for name, total, largest in (("membase", 130048, 15), ("regbase", 46080, 44)):
        b = doc["backends"][name]
        assert b["passed"] is True and b["diagnostics"] == []
        assert list(b["outputs"]) == list(OUTPUTS)
        for o in b["outputs"].values():
            assert {"errors": 0, "max_diff": 0.0, "max_diff_index": 0, "precision": 100.0}.items() <= o.items()
        ub = b["ub"]
        assert (ub["budget_bytes"], ub["total_bytes"], ub["max_ub_factor"]) == (253952, total, largest)
        assert [r["name"] for r in ub["buffers"]] == (
            ["gammaQueue", "inQueue", "cosSinQueue", "outQueue"] + (["wsBuffer"] if name == "membase" else []))
        for r in ub["buffers"]:
            assert set(r) >= {"name", "position", "num", "bytes_each", "bytes"}
            assert r["bytes"] == r["num"] * r["bytes_each"]
        assert sum(r["bytes"] for r in ub["buffers"]) == total
        cyc = b["cycles"]
        assert {"kernel_cycles", "vf_count", "vf_cycles", "pipes", "ipc", "bottleneck"} <= set(cyc)
        assert set(cyc["pipes"]) == {"MTE2", "MTE3", "VECTOR", "SCALAR"}
        assert cyc["kernel_cycles"] > 0 and cyc["vf_count"] > 0 and cyc["bottleneck"]


def test_regbase_is_cheaper_in_cycles_and_vf_count(sample):
    mem, reg = (sample[3]["backends"][b]["cycles"] for b in ("membase", "regbase"))
    assert reg["kernel_cycles"] < mem["kernel_cycles"] and reg["vf_count"] < mem["vf_count"]
    assert reg["vf_count"] == 2 * 162                            # 2 VFs per tile, 162 tiles
    assert mem["bottleneck"] in sample[1] and reg["bottleneck"] in sample[1]      # the text names both


# -- other shapes, backends, stdout JSON ------------------------------------------------------------

def test_tail_shape_passes_both_backends():
    code, out, err = invoke("--batch", "3", "--seq", "100", "--ub-factor", "5", "--cores", "7", "--json", "-")
    doc = json.loads(out)
    assert code == 0 and err == "" and doc["passed"]
    assert doc["tiling"] == {"block_num": 7, "block_factor": 43, "ub_factor": 5}
    assert all(doc["backends"][b]["passed"] for b in ("membase", "regbase"))


@pytest.mark.parametrize("backend", ["membase", "regbase"])
def test_backend_option_runs_one_backend(tmp_path, backend):
    path = tmp_path / "r.json"
    code, out, err = invoke(*SMALL, "--backend", backend, "--json", str(path))
    assert code == 0 and err == ""
    assert list(blocks(out)) == [backend] and out.count("Run ") == 1
    assert list(json.loads(path.read_text())["backends"]) == [backend]


def test_json_dash_prints_only_json():
    code, out, err = invoke(*SMALL, "--json", "-")
    assert code == 0 and err == ""
    assert json.loads(out)["passed"] is True and out.lstrip().startswith("{")
    code, out, err = invoke(*SMALL, "--backend", "regbase", "--dv", "520", "--force", "--json", "-")
    assert code == 1 and err == "" and json.loads(out)["passed"] is False      # a failed gate too


# -- --data-dir -------------------------------------------------------------------------------------

@pytest.fixture
def data_dir(tmp_path):
    d = tmp_path / "case"
    assert gen_data.main(["--batch", "1", "--seq", "16", "--dv", "512", "--dk", "128", "--output", str(d)]) == 0
    return d


def test_data_dir_clean_passes(data_dir):
    code, out, err = invoke(*SMALL, "--data-dir", str(data_dir))
    assert code == 0 and out.count("\nPASS\n") == 2


def test_data_dir_corrupted_golden_prints_the_mismatch(data_dir, tmp_path):
    path = data_dir / "output" / "v_out_golden.bin"
    golden = np.fromfile(path, dtype="<u2")
    index = 100
    actual = float(gen_data.bf16_bits_to_fp32(golden[index:index + 1])[0])
    golden[index] = 0x4000                                       # 2.0
    golden.tofile(path)
    report = tmp_path / "r.json"
    code, out, err = invoke(*SMALL, "--data-dir", str(data_dir), "--json", str(report))
    assert code == 1 and err == ""
    line = (f"v_out mismatch index {index}, expected 2.000000, actual {actual:.6f}, "
            f"diff {abs(2.0 - actual):.6f}")
    for name, lines in blocks(out).items():
        assert line in lines and lines[-1] == "FAIL", name
        assert f"v_out precision 99.987793%, errors 1, max diff {abs(2.0 - actual):.6f} at {index}" in lines
        assert sum("mismatch" in s for s in lines) == 1
    doc = json.loads(report.read_text())
    assert doc["passed"] is False
    for b in doc["backends"].values():
        assert b["passed"] is False and b["outputs"]["v_out"]["errors"] == 1
        assert b["outputs"]["v_out"]["max_diff_index"] == index and b["outputs"]["k_out"]["errors"] == 0


@pytest.mark.parametrize("name", ["input/gamma", "input/index", "output/k_cache_golden"])
def test_data_dir_wrongly_sized_file(data_dir, tmp_path, name):
    path = data_dir / f"{name}.bin"
    path.write_bytes(path.read_bytes()[:-2])
    report = tmp_path / "r.json"
    code, out, err = invoke(*SMALL, "--data-dir", str(data_dir), "--json", str(report))
    assert_bad_input(code, out, err, f"{name}.bin", "size")
    assert not report.exists()


def test_data_dir_missing_file_or_shape_mismatch(data_dir):
    os.remove(data_dir / "input" / "sin.bin")
    assert_bad_input(*invoke(*SMALL, "--data-dir", str(data_dir)), "sin.bin", "not found")
    assert_bad_input(*invoke("--batch", "2", "--seq", "16", "--data-dir", str(data_dir)), "kv.bin")
    assert_bad_input(*invoke(*SMALL, "--data-dir", str(data_dir / "input" / "kv.bin")), "not a directory")


# -- bad input --------------------------------------------------------------------------------------

@pytest.mark.parametrize("args,needle", [
    (("--batch", "0"), "--batch"), (("--seq", "-3"), "--seq"), (("--dv", "0"), "--dv"),
    (("--num-head", "0"), "--num-head"), (("--ub-factor", "0"), "--ub-factor"), (("--cores", "-1"), "--cores"),
    (("--dk", "127"), "dk must be even"), (("--seq", "abc"), "--seq"), (("--batch", "1.5"), "--batch"),
    (("--epsilon", "-1"), "--epsilon"), (("--epsilon", "nan"), "--epsilon"), (("--epsilon", "1e40"), "--epsilon"),
    (("--seed", "-5"), "--seed"), (("--backend", "both2"), "--backend"), (("--nope",), "--nope"),
    (("--batch", "99999999999999999999"), "cannot generate data"),
])
def test_bad_values_exit_2_with_one_line(tmp_path, args, needle):
    report, trace = tmp_path / "r.json", tmp_path / "t.json"
    code, out, err = invoke(*SMALL, *args, "--json", str(report), "--trace", str(trace))
    assert_bad_input(code, out, err, needle)
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("args,needle", [
    (("--dv", "576"), "membase/full_load outside the sample's envelope: dv = 576"),
    (("--backend", "membase", "--dk", "64"), "membase/full_load outside the sample's envelope: dk = 64"),
    (("--backend", "regbase", "--dv", "520"), "regbase/full_load outside the sample's envelope: dv = 520"),
    (("--backend", "regbase", "--dk", "160"), "regbase/full_load outside the sample's envelope: dk = 160"),
    (("--num-head", "2"), "num_head = 2"),
])
def test_envelope_is_refused_without_force(tmp_path, args, needle):
    report = tmp_path / "r.json"
    code, out, err = invoke(*SMALL, *args, "--json", str(report))
    assert_bad_input(code, out, err, needle, "--force")
    assert not report.exists()


def test_inside_the_regbase_envelope_needs_no_force():
    code, out, _ = invoke(*SMALL, "--backend", "regbase", "--dv", "576")
    assert code == 0 and "PASS" in out


def test_force_runs_and_reports_what_breaks(tmp_path):
    report = tmp_path / "r.json"
    code, out, err = invoke(*SMALL, "--backend", "regbase", "--dv", "520", "--force", "--json", str(report))
    assert code == 1 and err == ""
    assert "warning ZEROING_ACCUMULATOR" in out and blocks(out)["regbase"][-1] == "FAIL"
    diags = json.loads(report.read_text())["backends"]["regbase"]["diagnostics"]
    # gamma's DataCopy of 1040 B moves 1024 B (warned), so its last values are never written (error)
    assert {"ZEROING_ACCUMULATOR", "DATACOPY_TRUNCATED", "UNDEFINED_READ"} == {d["code"] for d in diags}


# -- the UB budget gate -----------------------------------------------------------------------------

def test_membase_plan_over_budget_fails_the_gate(tmp_path):
    report = tmp_path / "r.json"
    code, out, err = invoke("--ub-factor", "16", "--batch", "8", "--seq", "128", "--backend", "membase",
                            "--json", str(report))
    assert code == 1 and err == ""
    assert out.startswith("Run membase/full_load, blockNum 54, blockFactor 19, ubFactor 16\n")
    assert "UB plan 257024 B exceeds the budget 253952 B" in out and blocks(out)["membase"][-1] == "FAIL"
    b = json.loads(report.read_text())["backends"]["membase"]
    assert (b["ub"]["total_bytes"], b["ub"]["fits"], b["passed"]) == (257024, False, False)
    over = [d for d in b["diagnostics"] if d["code"] == "UB_OVER_BUDGET"]
    assert len(over) == 1 and over[0]["severity"] == "error"           # once, with every core it hit
    assert over[0]["cores"] == list(range(54)) and over[0]["occurrences"] == 54
    assert sum(line.startswith("error UB_OVER_BUDGET") for line in out.splitlines()) == 1
    assert "error UB_OVER_BUDGET on 54 cores (first core 0) at operators/kv_rms_norm_rope_cache/" in out
    # the kernel aborted: no cycle figures, the reason instead (row 14)
    cyc = b["cycles"]
    assert cyc["kernel_cycles"] is None and cyc["vf_count"] is None and cyc["bottleneck"] is None
    assert set(cyc["pipes"]) == {"MTE2", "MTE3", "VECTOR", "SCALAR"} and set(cyc["pipes"].values()) == {None}
    assert cyc["reason"] == "aborted: UB_OVER_BUDGET on 54 of 54 cores" and cyc["aborted"] == ["UB_OVER_BUDGET"]
    assert "kernel cycles (slowest core)  n/a (aborted: UB_OVER_BUDGET)" in out
    assert "bottleneck membase: n/a (aborted: UB_OVER_BUDGET)" in out
    plan = over[0]["extra"]["plan"]
    assert [(r["name"], r["num"], r["bytes_each"]) for r in plan] == [
        ("gammaQueue", 1, 3072), ("inQueue", 2, 20480), ("cosSinQueue", 2, 8192), ("outQueue", 2, 16384),
        ("wsBuffer", 1, 163840)]
    assert "gammaQueue 1x3072" in over[0]["message"] and "wsBuffer 1x163840" in over[0]["message"]


def test_regbase_fits_with_ub_factor_19():
    code, out, _ = invoke("--ub-factor", "19", "--batch", "1", "--seq", "19", "--cores", "1",
                          "--backend", "regbase", "--json", "-")
    b = json.loads(out)["backends"]["regbase"]
    assert code == 0 and b["passed"] and b["ub"]["total_bytes"] == 1024 + 19 * 5632


# -- output files -----------------------------------------------------------------------------------

def test_outputs_written_whole_and_only_on_a_real_run(tmp_path):
    report, trace = tmp_path / "r.json", tmp_path / "t.json"
    report.write_text("old")
    assert_bad_input(*invoke("--batch", "0", "--json", str(report), "--trace", str(trace)))
    assert report.read_text() == "old" and not trace.exists()
    code, out, err = invoke(*SMALL, "--json", str(report), "--trace", str(trace))
    assert code == 0 and json.loads(report.read_text())["passed"] is True
    check_kv_trace(json.loads(trace.read_text()), json.loads(report.read_text()))
    assert sorted(os.listdir(tmp_path)) == ["r.json", "t.json"]           # no temp files left


def check_kv_trace(trace: dict, report: dict) -> None:
    """The trace shows every core of both runs, its pipes and VFs, and agrees with the JSON cycles."""
    events = trace["traceEvents"]
    procs = {e["pid"]: e["args"]["name"] for e in events if e["ph"] == "M" and e["name"] == "process_name"}
    lanes = {(e["pid"], e["tid"]): e["args"]["name"].split(" #")[0]
             for e in events if e["ph"] == "M" and e["name"] == "thread_name"}
    slices = [e for e in events if e["ph"] == "X"]
    cores = report["tiling"]["block_num"]
    for b in ("membase", "regbase"):
        assert sorted(n for n in procs.values() if n.startswith(b)) == sorted(
            f"{b}/full_load core {c}" for c in range(cores))
        mine = [e for e in slices if procs[e["pid"]].startswith(b)]
        assert all(e["ts"] >= 0 and e["dur"] >= 1 for e in mine)
        cyc = report["backends"][b]["cycles"]
        assert max(e["ts"] + e["dur"] for e in mine) == cyc["kernel_cycles"]
        vector = [e for e in mine if lanes[e["pid"], e["tid"]] == "PUSHQ/VECTOR"]
        assert len(vector) == cyc["vf_count"]                              # one slice per VF launch
        slowest = f"{b}/full_load core {cyc['slowest_core']}"
        for lane, pipe in (("PUSHQ/VECTOR", "VECTOR"), ("SCALAR", "SCALAR")):
            busy = sum(e["dur"] for e in mine if procs[e["pid"]] == slowest and lanes[e["pid"], e["tid"]] == lane)
            assert busy == cyc["pipes"][pipe], (b, lane)
        vf_lanes = {procs[e["pid"]] for e in mine if lanes[e["pid"], e["tid"]] in ("RVECLD", "RVECEX", "RVECST")}
        assert vf_lanes == {f"{b}/full_load core 0"}                       # instruction lanes: first core only


@pytest.mark.parametrize("json_arg,trace_arg,needle", [
    ("{tmp}/missing/r.json", None, "does not exist"), ("{tmp}", None, "is a directory"),
    (None, "{tmp}/missing/t.json", "does not exist"), ("-", "-", "two outputs write to stdout"),
    ("{tmp}/same.json", "{tmp}/same.json", "two outputs write to"),
])
def test_unwritable_outputs_are_refused_before_running(tmp_path, json_arg, trace_arg, needle):
    args = list(SMALL)
    if json_arg:
        args += ["--json", json_arg.format(tmp=tmp_path)]
    if trace_arg:
        args += ["--trace", trace_arg.format(tmp=tmp_path)]
    assert_bad_input(*invoke(*args), needle)
    assert os.listdir(tmp_path) == []
