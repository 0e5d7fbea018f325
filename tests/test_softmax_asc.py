"""The softmax .asc programs (operators/softmax/asc/src/<variant>.asc) on the .asc route: each builds, runs
its own host main (gen_data.py, CompareFloat, verdict line) and its launch equals the Python port's: same
output bytes, counters, cycles and UB plan."""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

from operators.softmax import host
from tests.asc_support import needs_compiler
from toolkit.asc.build import build
from toolkit.asc.runner import run_program
from toolkit.views.launch_summary import launch_summary

SRC = Path(__file__).resolve().parents[1] / "operators" / "softmax" / "asc" / "src"


pytestmark = needs_compiler


@pytest.fixture(scope="module")
def runs():
    def one(v):
        return run_program(build(SRC / f"{v}.asc"), [], timeout=300)
    with ThreadPoolExecutor(max_workers=3) as pool:
        return dict(zip(host.VARIANTS, pool.map(one, host.VARIANTS)))


@pytest.fixture(scope="module")
def ports():
    x, golden = host.gen_data()
    return {v: host.run_variant(v, x, golden) for v in host.VARIANTS}


@pytest.mark.parametrize("variant", list(host.VARIANTS))
def test_program_passes_and_equals_the_python_port(runs, ports, variant):
    run, port = runs[variant], ports[variant]
    assert run.failure is None and run.exit_status == 0, (run.failure, run.stdout, run.stderr)
    lines = run.stdout.splitlines()
    assert lines[-1] == f"[{variant}] step {port.step} PASSED"
    assert lines[-2] == port.compare.lines[-1]                   # the same CompareFloat summary line
    (launch,) = run.launches
    summary = launch_summary(port.launch)
    assert launch["block_dim"] == 32 and launch["passed"]
    assert launch["counters"] == summary["counters"]
    assert launch["cycles"] == summary["cycles"]
    (out,) = launch["outputs"]
    assert (out["arg"], out["dtype"]) == ("y", "float32")
    assert out["data"] == np.ascontiguousarray(port.output, np.float32).tobytes()
