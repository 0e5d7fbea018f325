"""The 26 simd_vf_story ``.asc`` samples (operators/simd_vf_story/<family>/<variant>.asc) on the ``.asc`` route.

Each program is built with the system C++ compiler and run unchanged: its own host main() draws the inputs
(flat indices, or ``std::mt19937(0)`` with ``uniform_real_distribution<float>(-1, 1)``), checks against its
own reference and prints PASSED. Its launch must equal the Python port's launch on the same inputs: the same
output bytes, UB plan, counters (VF count, loop entries, RV_*) and cycles; and the counters must equal the
vendor's figures in calibration.csv. ``host/cpp_random.py`` (the Python ports' inputs) is checked bit for
bit against libstdc++.

Builds are cached (``MIGRATE_CHECK_CACHE`` or ~/.cache/migrate-check/asc); the 26 programs are built and
run once per session, two at a time.
"""
from __future__ import annotations

import re
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

from operators.simd_vf_story.hostlib import run_module
from operators.simd_vf_story.registry import MEASUREMENT_SCOPE, VARIANTS
from tests.asc_support import needs_compiler
from toolkit.asc.build import BuildError, build
from toolkit.asc.runner import ProgramRun, run_program
from toolkit.calibration.vendor_rows import load_calibration
from toolkit.harness.cpp_random import mt19937_u32, uniform_real_float
from toolkit.views.launch_summary import launch_summary

STORY = Path(__file__).resolve().parents[1] / "operators" / "simd_vf_story"
KEYS = list(VARIANTS)


def _build_and_run(key: str) -> ProgramRun | BuildError:
    try:
        return run_program(build(STORY / f"{key}.asc"), [], timeout=120)
    except BuildError as err:          # reported by the tests of that program only
        return err


@pytest.fixture(scope="session")
def asc_runs() -> dict[str, ProgramRun | BuildError]:
    """Every story program built and run once (two at a time: builds and child processes are separate)."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        return dict(zip(KEYS, pool.map(_build_and_run, KEYS)))


def _launch(asc_runs, key: str) -> dict:
    run = asc_runs[key]
    assert not isinstance(run, BuildError), f"{key}.asc does not build: {run}"
    assert len(run.launches) == 1, (run.failure, run.stdout, run.stderr)
    return run.launches[0]


@pytest.fixture(scope="session")
def python_launches() -> dict[str, tuple[dict, dict]]:
    """The Python port of every variant: (launch summary, outputs by name)."""
    out = {}
    for key, v in VARIANTS.items():
        res = run_module(v.module, v.name)
        out[key] = (launch_summary(res.launch), res.outputs)
    return out


# -- host/cpp_random.py against libstdc++ ------------------------------------------------------------
DRAWS = r"""
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
int main(int argc, char** argv) {
    unsigned seed = (unsigned)std::strtoul(argv[1], nullptr, 10);
    float lo = std::strtof(argv[2], nullptr), hi = std::strtof(argv[3], nullptr);
    int n = std::atoi(argv[4]);
    std::mt19937 raw(seed);
    std::mt19937 gen(seed);
    std::uniform_real_distribution<float> dist(lo, hi);
    for (int i = 0; i < n; ++i) {
        uint32_t u = (uint32_t)raw();
        float f = dist(gen);
        uint32_t b;
        std::memcpy(&b, &f, 4);
        std::fwrite(&u, 4, 1, stdout);
        std::fwrite(&b, 4, 1, stdout);
    }
}
"""


@pytest.fixture(scope="module")
def draws_exe(tmp_path_factory) -> Path:
    if shutil.which("g++") is None:
        pytest.skip("no g++ to build the libstdc++ reference of std::mt19937 / uniform_real_distribution")
    d = tmp_path_factory.mktemp("cpp_random")
    (d / "draws.cpp").write_text(DRAWS)
    subprocess.run(["g++", "-O2", "-o", str(d / "draws"), str(d / "draws.cpp")], check=True)
    return d / "draws"


@pytest.mark.parametrize("seed,lo,hi", [(0, -1.0, 1.0), (5489, 0.0, 1.0), (123456789, -3.5, 10.25)])
def test_cpp_random_is_libstdcxx_bit_for_bit(draws_exe, seed, lo, hi):
    n = 50_000
    out = subprocess.run([str(draws_exe), str(seed), repr(lo), repr(hi), str(n)], capture_output=True,
                         check=True).stdout
    pairs = np.frombuffer(out, dtype=np.uint32).reshape(n, 2)
    assert np.array_equal(mt19937_u32(seed, n), pairs[:, 0])
    assert np.array_equal(uniform_real_float(seed, n, lo, hi).view(np.uint32), pairs[:, 1])


def test_mt19937_is_the_standard_engine():
    # [rand.predef]: the 10000th output of a default-constructed std::mt19937 (seed 5489) is 4123659995
    assert int(mt19937_u32(5489, 10000)[-1]) == 4123659995
    assert int(mt19937_u32(0, 1)[0]) == 2357136044


def test_the_ports_draw_the_samples_inputs():
    from operators.simd_vf_story.elemwise.host import ElemwiseHost
    from operators.simd_vf_story.reduce.host import ReduceHost
    inputs = ElemwiseHost().case().inputs
    assert np.array_equal(inputs["x"], uniform_real_float(0, 19500)) and np.array_equal(inputs["y"], inputs["x"])
    for op, axis in [("max", "ra"), ("sum", "ar")]:
        x = ReduceHost(op, axis).case().inputs["x"]
        assert x.shape == (78, 250) and np.array_equal(x.ravel(), uniform_real_float(0, 78 * 250))


# -- the 26 programs ------------------------------------------------------------------------------------
@needs_compiler
@pytest.mark.parametrize("key", KEYS)
def test_program_passes_its_own_check(asc_runs, key):
    launch = _launch(asc_runs, key)
    run = asc_runs[key]
    assert run.failure is None and run.exit_status == 0, (run.failure, run.stdout, run.stderr)
    assert run.stdout.splitlines()[-1] == "PASSED" and " 0 mismatch(es)" in run.stdout
    assert launch["passed"] and launch["kernel"] == key.split("/")[1] and launch["block_dim"] == 1


@needs_compiler
@pytest.mark.parametrize("key", KEYS)
def test_launch_equals_the_python_port(asc_runs, python_launches, key):
    launch = _launch(asc_runs, key)
    summary, outputs = python_launches[key]
    (out,) = launch["outputs"]
    (name, want), = outputs.items()
    assert (out["arg"], out["dtype"]) == (name, "float32")
    assert out["data"] == np.ascontiguousarray(want, dtype=np.float32).tobytes()
    assert launch["counters"] == summary["counters"]
    assert launch["cycles"] == summary["cycles"]
    assert launch["ub"] == summary["ub"]
    assert launch["diagnostics"] == summary["diagnostics"] == []


CAL_KEYS = {(v.group, v.cal_variant): key for key, v in VARIANTS.items()}
COUNT_ROWS = [r for r in load_calibration() if (r.kernel, r.variant) in CAL_KEYS and
              (r.metric in ("vf_count", "rveclp_sum_cycles", "rvecex_events") or r.metric.startswith("RV_"))]


def test_every_story_count_row_is_checked():
    # 12 vf_count + 5 rveclp_sum_cycles + 36 RV_* + 10 rvecex_events rows, over 20 kernels
    assert len(COUNT_ROWS) == 63 and len({(r.kernel, r.variant) for r in COUNT_ROWS}) == 20


@needs_compiler
@pytest.mark.parametrize("row", COUNT_ROWS, ids=lambda r: f"{r.kernel}/{r.variant}/{r.metric}")
def test_counts_equal_calibration(asc_runs, row):
    key = CAL_KEYS[(row.kernel, row.variant)]
    counters = _launch(asc_runs, key)["counters"]
    if row.metric in ("vf_count", "rveclp_sum_cycles"):
        ours = counters["vf_count" if row.metric == "vf_count" else "loop_entries"]
        assert ours == int(row.number)
        return
    # RV_* and RVECEX rows are per VF instance of the VF_REPEAT loop (its VF_REPEAT instances are identical)
    assert MEASUREMENT_SCOPE[VARIANTS[key].family] == "vf"
    total = counters.get(row.metric, 0)
    assert total % counters["vf_count"] == 0
    ours = total // counters["vf_count"]
    if row.metric == "rvecex_events":
        assert abs(ours - row.number) <= 0.01 * row.number, (ours, row.number)
    else:
        assert ours == int(row.number)


@needs_compiler
def test_a_wrong_kernel_fails_its_own_check(tmp_path):
    """The samples' host checks are not vacuous: z = a*x - y instead of a*x + y prints FAILED, exit 1."""
    text = (STORY / "elemwise" / "elemwise_axpy_baseline.asc").read_text()
    assert text.count("AscendC::Reg::Add(vt, vt, vy, mask);") == 1
    wrong = tmp_path / "elemwise_axpy_wrong.asc"
    wrong.write_text(text.replace("AscendC::Reg::Add(vt, vt, vy, mask);", "AscendC::Reg::Sub(vt, vt, vy, mask);"))
    run = run_program(build(wrong, include_dirs=[str(STORY / "include")]), [], timeout=120)
    assert run.exit_status == 1 and run.failure is None
    assert run.stdout.splitlines()[-1] == "FAILED"
    mismatches = int(re.search(r"z: 19500 element\(s\), (\d+) mismatch", run.stdout).group(1))
    assert mismatches > 19000          # z = 2x - x instead of 2x + x: only |x| <= 5e-5 slips through
    assert run.launches[0]["passed"]       # the launch itself broke no rule: only the program's check fails
