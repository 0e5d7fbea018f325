"""scripts/calibrate.py refuses a bad --hold-out up front (issue 17 row 11: one line, exit 2, before any
kernel runs), and --write changes only the fitted values of the machine file."""
from __future__ import annotations

import importlib.util
import os
import time

import pytest
from _hostile import REPO, assert_error_line, run

from toolkit.calibration import vf_fit
from toolkit.cli import guarded
from toolkit.machine import load_machine, with_instr, with_overrides


def _calibrate():
    spec = importlib.util.spec_from_file_location("calibrate_script", os.path.join(REPO, "scripts", "calibrate.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("argv,needles", [
    (["--hold-out", "NOPE", "--fit"], ["--hold-out", "unknown calibration group 'NOPE'", "gelu_poly"]),
    (["--fit", "--hold-out", "gelu_poly,NOPE,silu,x y"], ["'NOPE', 'x y'"]),
    (["--hold-out", "gelu_poly"], ["--hold-out needs --fit"]),
])
def test_bad_hold_out_is_one_line_before_the_run(tmp_path, capsys, argv, needles):
    calibrate = _calibrate()
    t0 = time.perf_counter()
    code = guarded("calibrate.py", lambda: calibrate.main(argv + ["--json", str(tmp_path / "c.json")]))
    captured = capsys.readouterr()
    assert_error_line(code, captured.err, "calibrate.py", *needles)
    assert captured.out == "" and os.listdir(tmp_path) == []
    assert time.perf_counter() - t0 < 10          # refused before the kernels run (they take minutes)


def test_unknown_hold_out_exit_code_of_the_script():
    res = run("calibrate.py", "--hold-out", "NOPE", "--fit")
    assert_error_line(res.returncode, res.stderr, "calibrate.py", "'NOPE'")
    assert res.stdout == ""


def test_machine_file_text_replaces_only_the_fitted_values():
    text = ("[timing]\nstore_bank_cycles = { value = 1, source = \"fit: banks\" }\n"
            "window = { value = 64, source = \"x\" }\n"
            "[instructions.RV_VCMAX]\nii = 2\nlatency = 9\n[instructions.RV_VSEL]\nii = 1\n")
    base = load_machine()
    banks = base.params["timing"]["store_bank_cycles"] + 1
    fitted = with_instr(with_overrides(base, "timing", store_bank_cycles=banks, window=base.params["timing"]["window"] + 8),
                        "RV_VCMAX", ii=base.instr("RV_VCMAX").ii + 1)
    got = vf_fit.machine_file_text(text, fitted, base)
    want = text.replace("store_bank_cycles = { value = 1,", f"store_bank_cycles = {{ value = {banks},")
    want = want.replace("[instructions.RV_VCMAX]\nii = 2", f"[instructions.RV_VCMAX]\nii = {base.instr('RV_VCMAX').ii + 1}")
    assert got == want                  # the window is no fitted parameter: its line stays
    assert vf_fit.machine_file_text(text, base, base) == text
