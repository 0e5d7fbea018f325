"""scripts/gen_data.py and scripts/calibrate.py share the CLI's validation, messages and output module
(issue 8, rows 9-13)."""
from __future__ import annotations

import importlib.util
import os
import resource
import subprocess
import sys

import pytest
from _hostile import (
    KV,
    MAIN,
    REPO,
    assert_error_line,
    invoke,
    leftovers,
    need_unprivileged,
    run,
    snapshot,
)

from operators.kv_rms_norm_rope_cache import gen_data
from toolkit.cli import guarded

SHAPE = ["--batch", "1", "--seq", "4", "--dv", "64", "--dk", "16"]


def gen(capsys, *args: str) -> tuple[int, str]:
    code = gen_data.main(list(args))
    return code, capsys.readouterr().err


def _calibrate():
    spec = importlib.util.spec_from_file_location("calibrate_script", os.path.join(REPO, "scripts", "calibrate.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# -- row 9: where gen_data writes --------------------------------------------------------------------

def test_row9_output_is_a_file(tmp_path, capsys):
    (tmp_path / "a_file").write_text("keep")
    code, err = gen(capsys, *SHAPE, "--output", str(tmp_path / "a_file"))
    assert_error_line(code, err, "gen_data.py", "a_file", "not a directory")
    assert (tmp_path / "a_file").read_text() == "keep" and os.listdir(tmp_path) == ["a_file"]


def test_row9_unwritable_directory(tmp_path):
    need_unprivileged()
    os.mkdir(tmp_path / "ro", 0o555)
    res = run("gen_data.py", *SHAPE, "--output", "ro/case", cwd=tmp_path, unprivileged=True)
    assert_error_line(res.returncode, res.stderr, "gen_data.py", "ro", "permission denied")
    assert os.listdir(tmp_path / "ro") == []


# -- rows 10 and 11: the CLI's validation and messages ------------------------------------------------

@pytest.mark.parametrize("option,value,needle", [
    ("--seed", "-1", "--seed must be >= 0"), ("--batch", "99999999999999999999", "cannot generate data"),
    ("--epsilon", "nan", "--epsilon must be"), ("--epsilon", "-1", "--epsilon must be"),
    ("--epsilon", "inf", "--epsilon must be"), ("--dk", "15", "--dk must be even"), ("--dv", "-64", "--dv must be positive"),
])
def test_rows10_11_refused_like_the_cli(tmp_path, capsys, option, value, needle):
    args = dict(zip(SHAPE[::2], SHAPE[1::2]))
    args[option] = value
    argv = [x for kv in args.items() for x in kv]
    code, err = gen(capsys, *argv, "--output", str(tmp_path / "case"))
    assert_error_line(code, err, "gen_data.py", needle)
    assert os.listdir(tmp_path) == []
    cli_code, _, cli_err = invoke(KV, *argv, "--force")
    assert cli_code == 2 and cli_err.split("error: ", 1)[1] == err.split("error: ", 1)[1]     # the same words


def test_row10_bad_option_syntax_is_one_line(capsys):
    for argv in (["--batch", "x", "--seq", "4", "--dv", "64", "--dk", "16"], ["--seq", "4"], SHAPE + ["--nope"]):
        assert_error_line(*gen(capsys, *argv), "gen_data.py")


# -- row 12: the data directory appears complete or not at all ----------------------------------------

def test_row12_an_output_name_that_is_a_directory_writes_nothing(tmp_path, capsys):
    os.makedirs(tmp_path / "case" / "output" / "k_out_golden.bin")
    before = snapshot(str(tmp_path))
    code, err = gen(capsys, *SHAPE, "--output", str(tmp_path / "case"))
    assert_error_line(code, err, "gen_data.py", "k_out_golden.bin", "is a directory")
    assert snapshot(str(tmp_path)) == before


def test_row12_a_write_that_fails_leaves_no_directory_and_no_temp(tmp_path):
    res = subprocess.run([sys.executable, "-c", MAIN["gen_data.py"], "--batch", "2", "--seq", "16", "--dv", "512",
                          "--dk", "128", "--output", "case"], cwd=tmp_path, capture_output=True, text=True, timeout=60,
                         preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (8192, 8192)),
                         env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    assert_error_line(res.returncode, res.stderr, "gen_data.py", "file too large")
    assert os.listdir(tmp_path) == [] and not leftovers(str(tmp_path))


def test_row12_rewriting_a_case_keeps_it_whole(tmp_path, capsys):
    assert gen(capsys, *SHAPE, "--output", str(tmp_path))[0] == 0
    first = snapshot(str(tmp_path))
    assert gen(capsys, *SHAPE, "--seed", "7", "--output", str(tmp_path))[0] == 0
    second = snapshot(str(tmp_path))
    assert set(first) == set(second) and first["input/kv.bin"][3] != second["input/kv.bin"][3]
    assert not leftovers(str(tmp_path))


# -- row 13: calibrate.py checks its options and outputs before the run -------------------------------

@pytest.mark.parametrize("argv,needle", [
    (["--json", "{tmp}"], "is a directory"), (["--json", "{tmp}/nonexist/c.json"], "does not exist"),
    (["--write"], "--write needs --fit"), (["--json", ""], "empty path"), (["--fit", "--nope"], "--nope"),
])
def test_row13_calibrate_refuses_up_front(tmp_path, capsys, argv, needle):
    calibrate = _calibrate()
    code = guarded("calibrate.py", lambda: calibrate.main([a.format(tmp=tmp_path) for a in argv]))
    captured = capsys.readouterr()
    assert_error_line(code, captured.err, "calibrate.py", needle)
    assert captured.out == "" and os.listdir(tmp_path) == []


def test_row13_calibrate_script_exit_code(tmp_path):
    res = run("calibrate.py", "--json", str(tmp_path), cwd=tmp_path)
    assert_error_line(res.returncode, res.stderr, "calibrate.py", "is a directory")
