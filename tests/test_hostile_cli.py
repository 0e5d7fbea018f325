"""``migrate-check`` against a hostile but realistic user: one test per row of issue 8's table
(rows 1-8 and 14-16; the scripts' rows 9-13 are in test_hostile_scripts.py)."""
from __future__ import annotations

import json
import os
import resource
import shutil
import signal
import stat
import subprocess
import sys

import numpy as np
import pytest
from _hostile import (
    KV,
    MAIN,
    REPO,
    SMALL,
    assert_error_line,
    fifo_reader,
    interrupt_when,
    invoke,
    leftovers,
    need_unprivileged,
    run,
)

from operators.kv_rms_norm_rope_cache import gen_data


def kv(*args: str) -> tuple[int, str, str]:
    return invoke(KV, *args)


@pytest.fixture(scope="module")
def case_dir(tmp_path_factory):
    d = tmp_path_factory.mktemp("case")
    assert gen_data.main(["--batch", "1", "--seq", "16", "--dv", "512", "--dk", "128", "--output", str(d)]) == 0
    return d


def fresh_case(src, dst) -> str:
    shutil.copytree(src, dst)
    return str(dst)


# -- row 1: devices, FIFOs, symlinks, hard links, modes ------------------------------------------------

def test_row1_outputs_at_a_device_a_symlink_a_hard_link_and_a_0600_file(tmp_path):
    real, hard = tmp_path / "real.json", tmp_path / "hard.json"
    real.write_text("old")
    real.chmod(0o600)
    os.link(real, hard)
    (tmp_path / "link.json").symlink_to("real.json")
    code, out, err = kv(*SMALL, "--json", "/dev/null", "--trace", str(tmp_path / "link.json"))
    assert code == 0 and err == "" and "PASS" in out
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)                     # still the device
    assert os.path.islink(tmp_path / "link.json") and json.loads(real.read_text())["traceEvents"]
    assert stat.S_IMODE(real.stat().st_mode) == 0o600 and os.path.samefile(real, hard)
    assert sorted(os.listdir(tmp_path)) == ["hard.json", "link.json", "real.json"]


def test_row1_fifo_reader_gets_the_report(tmp_path):
    fifo = tmp_path / "report.fifo"
    with fifo_reader(fifo) as got:
        code, _, err = kv(*SMALL, "--backend", "regbase", "--json", str(fifo))
    assert code == 0 and err == "" and json.loads(got[0])["passed"] is True
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


# -- row 2: unreadable / odd input files --------------------------------------------------------------

@pytest.mark.parametrize("name", ["input/kv.bin", "output/v_out_golden.bin"])
def test_row2_unreadable_input_or_golden_is_one_line(case_dir, tmp_path, name):
    need_unprivileged()
    data = fresh_case(case_dir, tmp_path / "case")
    os.chmod(os.path.join(data, name), 0o000)
    res = run("migrate-check", KV, *SMALL, "--data-dir", data, "--json", "r.json", cwd=tmp_path, unprivileged=True)
    assert_error_line(res.returncode, res.stderr, "migrate-check", name, "permission denied")
    assert res.stdout == "" and os.listdir(tmp_path) == ["case"]


@pytest.mark.parametrize("kind,needle", [("fifo", "a FIFO, not a data file"), ("dir", "a directory, not a data file"),
                                         ("dangling", "file not found"), ("devnull", "a character device")])
def test_row2_input_that_is_not_a_regular_file(case_dir, tmp_path, kind, needle):
    data = fresh_case(case_dir, tmp_path / "case")
    path = os.path.join(data, "input", "gamma.bin")
    os.remove(path)
    {"fifo": lambda: os.mkfifo(path), "dir": lambda: os.mkdir(path),
     "dangling": lambda: os.symlink("nowhere.bin", path), "devnull": lambda: os.symlink("/dev/null", path)}[kind]()
    code, out, err = kv(*SMALL, "--data-dir", data)                    # a FIFO must not block the run
    assert_error_line(code, err, "migrate-check", "input/gamma.bin", needle)


# -- row 3: outputs checked before the run -------------------------------------------------------------

@pytest.mark.parametrize("path,needle", [
    ("", "empty path"), ("/proc/version", "does not accept new files"), ("n" * 300 + ".json", "name too long"),
    ("{tmp}/no/such/dir/r.json", "does not exist"), ("{tmp}", "is a directory"),
])
def test_row3_unusable_output_paths_are_refused_before_the_run(tmp_path, monkeypatch, path, needle):
    monkeypatch.chdir(tmp_path)
    code, out, err = kv(*SMALL, "--trace", "t.json", "--json", path.format(tmp=tmp_path))
    assert_error_line(code, err, "migrate-check", "--json", needle)
    assert out == "" and os.listdir(tmp_path) == []


def test_row3_and_4_read_only_directory_refused_before_anything_is_written(tmp_path):
    need_unprivileged()
    os.mkdir(tmp_path / "ro", 0o555)
    res = run("migrate-check", KV, *SMALL, "--trace", "t.json", "--json", "ro/r.json", cwd=tmp_path, unprivileged=True)
    assert_error_line(res.returncode, res.stderr, "migrate-check", "ro/r.json", "permission denied")
    assert os.listdir(tmp_path) == ["ro"] and os.listdir(tmp_path / "ro") == []


def _fsize_limit(nbytes: int):
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (nbytes, nbytes))
    return limit


def test_row3_and_4_file_size_limit_fails_the_write_and_leaves_nothing(tmp_path):
    """``ulimit -f 64``: the small JSON would fit, the trace does not; neither is written."""
    res = subprocess.run([sys.executable, "-c", MAIN["migrate-check"], KV, *SMALL, "--json", "r.json",
                          "--trace", "t.json"], cwd=tmp_path, capture_output=True, text=True, timeout=120,
                         preexec_fn=_fsize_limit(64 * 1024), env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    assert_error_line(res.returncode, res.stderr, "migrate-check", "t.json", "file too large")
    assert res.stdout == "" and os.listdir(tmp_path) == []


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash for >(...)")
def test_row3_process_substitution(tmp_path):
    script = (f"{sys.executable} -c '{MAIN['migrate-check']}' {KV} {' '.join(SMALL)} --backend regbase "
              f"--json >(cat > ps.json) > out.txt; echo $? > rc; wait")
    subprocess.run(["bash", "-c", script], cwd=tmp_path, timeout=120, check=True)
    assert (tmp_path / "rc").read_text().strip() == "0"
    assert json.loads((tmp_path / "ps.json").read_text())["passed"] is True
    assert "PASS" in (tmp_path / "out.txt").read_text()


# -- row 5: data values out of range ------------------------------------------------------------------

@pytest.mark.parametrize("value", [2**56, 2**63 - 1, 2**40, 16])
def test_row5_index_out_of_range_is_gm_out_of_bounds(case_dir, tmp_path, value):
    data = fresh_case(case_dir, tmp_path / "case")
    path = os.path.join(data, "input", "index.bin")
    index = np.fromfile(path, dtype="<i8")
    index[3] = value
    index.tofile(path)
    code, out, err = kv(*SMALL, "--data-dir", data, "--json", str(tmp_path / "r.json"))
    assert code == 1 and err == ""
    doc = json.loads((tmp_path / "r.json").read_text())
    for b in ("membase", "regbase"):
        diags = doc["backends"][b]["diagnostics"]
        assert [d["code"] for d in diags] == ["GM_OUT_OF_BOUNDS"] and diags[0]["cores"] == [3]
        assert diags[0]["address"] == value * 128 * 2                # k_cache row `value`, dk = 128 bf16
        assert doc["backends"][b]["cycles"]["kernel_cycles"] is None
    assert out.count("error GM_OUT_OF_BOUNDS core 3 at operators/kv_rms_norm_rope_cache/common.py:") == 2


def test_row5_non_finite_values_keep_the_report_strict_json(case_dir, tmp_path):
    data = fresh_case(case_dir, tmp_path / "case")
    path = os.path.join(data, "output", "v_out_golden.bin")
    golden = np.fromfile(path, dtype="<u2")
    golden[[5, 9]] = [0x7F80, 0x7FC0]                                   # +inf and NaN in the golden
    golden.tofile(path)
    code, out, err = kv(*SMALL, "--data-dir", data, "--backend", "regbase", "--json", "-")

    def refuse(name):
        raise AssertionError(f"{name} is not JSON")
    doc = json.loads(out, parse_constant=refuse)
    assert code == 1 and err == "" and doc["backends"]["regbase"]["outputs"]["v_out"]["errors"] >= 1


# -- row 6: one file, two spellings --------------------------------------------------------------------

def test_row6_two_spellings_of_one_output_are_refused(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "r.json").write_text("keep")
    os.symlink("r.json", tmp_path / "alias.json")
    for other in ("./r.json", "alias.json", str(tmp_path / "sub" / ".." / "r.json")):
        os.makedirs(tmp_path / "sub", exist_ok=True)
        code, out, err = kv(*SMALL, "--json", other, "--trace", "r.json")
        assert_error_line(code, err, "migrate-check", "two outputs write to", "r.json")
        assert (tmp_path / "r.json").read_text() == "keep"


# -- row 7: '-' is the only thing on stdout ------------------------------------------------------------

@pytest.mark.parametrize("option", ["--trace", "--json"])
def test_row7_dash_output_is_all_of_stdout(tmp_path, option):
    other = "--json" if option == "--trace" else "--trace"
    code, out, err = kv(*SMALL, option, "-", other, str(tmp_path / "other.json"))
    assert code == 0 and err == ""
    doc = json.loads(out)                                                 # the whole of stdout is JSON
    assert ("traceEvents" in doc) == (option == "--trace")
    assert json.loads((tmp_path / "other.json").read_text())


def test_row7_dev_stdout_counts_as_stdout(tmp_path):
    res = run("migrate-check", KV, *SMALL, "--backend", "regbase", "--json", "/dev/stdout", cwd=tmp_path)
    assert res.returncode == 0 and json.loads(res.stdout)["passed"] is True and res.stderr == ""
    res = run("migrate-check", KV, *SMALL, "--json", "-", "--trace", "/dev/stdout", cwd=tmp_path)
    assert_error_line(res.returncode, res.stderr, "migrate-check", "two outputs write to stdout")


# -- row 8: interrupts ---------------------------------------------------------------------------------

def _popen(*args: str, cwd) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", MAIN["migrate-check"], *args], cwd=cwd, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as fh:
        fields = fh.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.mark.parametrize("sig,code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_row8_interrupt_during_the_run(tmp_path, sig, code):
    if not os.path.exists("/proc/self/stat"):
        pytest.skip("needs /proc to tell when the run is under way")
    # --batch 32: the run lasts about 3 s of CPU past the 0.9 s mark, so a loaded machine polling late
    # still interrupts it mid-run (the default case, about 1.4 s in all, could finish first)
    proc = _popen(KV, "--batch", "32", "--json", "r.json", "--trace", "t.json", cwd=tmp_path)
    interrupt_when(proc, lambda: _cpu_seconds(proc.pid) > 0.9, sig)       # past the imports, inside the run
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == code and err == "migrate-check: interrupted\n" and out == ""
    assert os.listdir(tmp_path) == []


def test_row8_interrupt_while_the_outputs_are_written(tmp_path):
    """The trace is staged as a temp file while the JSON waits for a FIFO reader: Ctrl-C then."""
    os.mkfifo(tmp_path / "r.fifo")
    proc = _popen(KV, *SMALL, "--trace", "t.json", "--json", "r.fifo", cwd=tmp_path)
    staged = lambda: [p for p in leftovers(str(tmp_path)) if os.path.getsize(p)]   # not the empty probe
    interrupt_when(proc, staged)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and err == "migrate-check: interrupted\n" and out == ""
    assert os.listdir(tmp_path) == ["r.fifo"]


# -- rows 14 and 15 are in test_cli_kv.py (over budget: n/a cycles, one diagnostic for 54 cores) -----
# -- row 16: messages, usage, pipes, locations ---------------------------------------------------------

def test_row16_data_dir_messages(case_dir, tmp_path):
    assert_error_line(*kv(*SMALL, "--data-dir", str(tmp_path / "nope"))[::2], "migrate-check", "does not exist")
    (tmp_path / "file").write_text("")
    assert_error_line(*kv(*SMALL, "--data-dir", str(tmp_path / "file"))[::2], "migrate-check",
                      "not a directory")
    assert_error_line(*kv("--dk", "127")[::2], "migrate-check", "--dk must be even")


def test_row16_bare_command_prints_usage_on_stderr():
    res = run("migrate-check")
    assert res.returncode == 2 and res.stdout == "" and res.stderr.startswith("Usage: migrate-check")


def test_row16_closed_stdout_pipe_ends_quietly(tmp_path):
    proc = _popen(KV, *SMALL, "--trace", "-", cwd=tmp_path)
    assert proc.stdout.read(20).startswith("{")
    proc.stdout.close()                                                   # `| head -c 20`
    err = proc.stderr.read()
    assert proc.wait(60) == 141 and err == ""


def test_row16_locations_are_relative_to_the_project_wherever_we_run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = kv("--ub-factor", "16", "--backend", "membase", "--cores", "2", "--json", "r.json")
    loc = json.loads((tmp_path / "r.json").read_text())["backends"]["membase"]["diagnostics"][0]["location"]
    assert code == 1 and loc.startswith("operators/kv_rms_norm_rope_cache/") and os.path.isfile(
        os.path.join(REPO, loc.rsplit(":", 1)[0]))
    assert "../" not in out
