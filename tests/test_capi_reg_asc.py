"""The C API register family through the .asc route: `migrate-check run` on one program
(tests/fixtures/capi_reg.asc) whose __simd_vf__ calls ~50 asc_* register functions on vector_* registers
and whose host main checks every output slot against values it computes itself (PASS / FAILED). The
tool's verdict must agree with the program's own check and report no diagnostic."""
from __future__ import annotations

from pathlib import Path

from tests.asc_support import needs_compiler
from tests.report_support import cli_json

PROGRAM = Path(__file__).parent / "fixtures" / "capi_reg.asc"


@needs_compiler
def test_the_capi_reg_program_passes_its_own_check(monkeypatch, tmp_path):
    monkeypatch.setenv("MIGRATE_CHECK_CACHE", str(tmp_path / "cache"))
    code, report = cli_json("run", str(PROGRAM))
    assert report["stdout"] == "PASS\n", report["stdout"]
    assert code == 0 and report["exit_status"] == 0 and report["passed"]
    launch, = report["launches"]
    assert launch["diagnostics"] == [] and launch["passed"]
    assert launch["counters"]                        # the VF ran on the emulator and recorded instructions


def test_the_program_uses_the_c_names_not_the_reg_api():
    text = PROGRAM.read_text()
    calls = {w for w in text.split() if w.startswith("asc_")}
    assert len({c.split("(")[0] for c in calls}) >= 40
    assert "Reg::" not in text and '#include "c_api/asc_simd.h"' in text
