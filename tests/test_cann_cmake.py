"""The vendor's CMake flow, unchanged, against our toolkit root: the samples repository (one project, build,
install, run from the install tree), the per-example projects of the API repository, ascendc_library()
projects, `run --cmake`. Each project is configured and built once per module (a configure and build takes
seconds); the tests read what those builds made."""
from __future__ import annotations

import json
import os

import pytest

from tests.asc_support import needs_compiler
from tests.cann_support import KV_ASC, cann_root, checkout, needs_cmake, run, user_env  # noqa: F401  (fixture)
from tests.report_support import cli

pytestmark = [needs_compiler, needs_cmake, pytest.mark.cmake]
KV_STORY = "2_Performance/kv_rms_norm_rope_cache_story"


def _ok(done):
    assert done.returncode == 0, (done.stdout[-2000:], done.stderr[-2000:])
    return done


@pytest.fixture(scope="module")
def samples(tmp_path_factory, cann_root):
    """The samples repository configured, built and installed as the vendor's CI does."""
    repo = checkout(tmp_path_factory.mktemp("repo") / "cann-samples", "samples")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["ASCEND_HOME_PATH"] = str(cann_root)          # all the vendor's README asks; cmake/ascend.cmake does the rest
    _ok(run(["cmake", "-S", ".", "-B", "build", "-DNPU_ARCH=dav-3510"], repo, env))
    built = _ok(run(["cmake", "--build", "build"], repo, env))
    _ok(run(["cmake", "--install", "build", "--prefix", "build_out"], repo, env))
    return repo, env, built


def test_samples_repository_builds_installs_and_runs_from_the_install_tree(samples):
    repo, env, built = samples
    assert "UNSUPPORTED_API AscendC::Mmad" in built.stderr + built.stdout   # a warning; the build goes on
    scripts = repo / "Samples" / KV_STORY / "scripts"
    scripts.rename(scripts.with_name("moved"))       # the installed tree finds <exe dir>/scripts/gen_data.py
    try:
        _installed_kv_runs(repo, env)
    finally:
        scripts.with_name("moved").rename(scripts)


def _installed_kv_runs(repo, env):
    story = repo / "build_out" / KV_STORY
    for variant in ("membase", "regbase"):
        exe = f"kv_rms_norm_rope_cache_{variant}_full_load"
        done = _ok(run([f"./{exe}"], story, dict(env, MIGRATE_CHECK_JSON=str(story / f"{variant}.json"))))
        lines = done.stdout.splitlines()
        assert lines[0] == f"Run {variant}/full_load, blockNum 54, blockFactor 19, ubFactor 8"
        assert [ln.split()[0] for ln in lines[1:5]] == ["k_cache", "v_cache", "k_out", "v_out"]
        assert all("precision 100.000000%, errors 0" in ln for ln in lines[1:5]) and lines[-1] == "PASS"
        assert "launch 0: kv_rms_norm_rope_cache <<<54>>>" in done.stderr
        installed = json.loads((story / f"{variant}.json").read_text())["launches"][0]
        code, out, err = cli("run", str(KV_ASC / variant / "full_load.asc"), "--json", "-")   # the same source
        direct = json.loads(out)["launches"][0]
        assert code == 0, err
        assert installed["ub"] == direct["ub"] and installed["cycles"] == direct["cycles"]
        assert installed["counters"] == direct["counters"]


def test_samples_two_source_target_and_out_of_scope_target(samples):
    repo, env, _ = samples
    gelu = repo / "build_out" / "0_Introduction" / "gelu_with_vf"
    done = _ok(run(["./gelu_with_vf"], gelu, env))
    assert done.stdout.splitlines()[-1] == "Vector gelu completed successfully!" and (gelu / "input_x.bin").is_file()
    done = run(["./matmul_basic"], repo / "build_out" / "3_Cube" / "matmul_basic", env)
    assert done.returncode == 2 and done.stdout == ""
    [line] = done.stderr.strip().splitlines()
    assert line.startswith("migrate-check: error: UNSUPPORTED_API AscendC::Mmad ") and "out of scope: cube" in line


def test_a_fresh_build_of_an_unchanged_tree_compiles_nothing(samples, tmp_path):
    repo, env, _ = samples
    log = tmp_path / "build.log"
    traced = dict(env, MIGRATE_CHECK_BUILD_LOG=str(log))           # a line for each compile or link run
    _ok(run(["cmake", "-S", ".", "-B", str(tmp_path / "again"), "-DNPU_ARCH=dav-3510"], repo, env))
    done = _ok(run(["cmake", "--build", str(tmp_path / "again")], repo, traced))
    assert done.stdout.count("Building ASC object") == 4 and not log.exists(), log.read_text()


def test_per_example_project_as_the_api_examples_run(tmp_path, cann_root, monkeypatch):
    example = checkout(tmp_path / "abs", "examples/abs")
    env = user_env(cann_root)
    build = example / "build"
    build.mkdir()
    _ok(run(["cmake", "-DCMAKE_ASC_ARCHITECTURES=dav-3510", ".."], build, env))
    _ok(run(["make"], build, env))
    _ok(run(["python3", "../scripts/gen_data.py"], build, env))
    done = _ok(run(["./demo"], build, env))
    assert done.stdout == "test pass!\n" and "launch 0: abs_custom <<<8>>>" in done.stderr
    assert (build / "output" / "output_y.bin").stat().st_size == 8 * 2048 * 4
    (example / "other").mkdir()
    bad = run(["cmake", "-DCMAKE_ASC_ARCHITECTURES=dav-2201", ".."], example / "other", env)
    assert bad.returncode != 0 and "dav-3510" in bad.stderr
    monkeypatch.chdir(build)                          # the program reads ./input, as ./demo does
    code, out, err = cli("run", "--cmake", str(example), "--target", "demo", "--build-dir", str(build), "--json", "-")
    assert code == 0 and json.loads(out)["launches"][0]["kernel"] == "abs_custom", err


def test_ascendc_library_project_builds_in_sim_mode_and_passes(tmp_path, cann_root):
    project = checkout(tmp_path / "kl", "kernel_launch")
    env = user_env(cann_root)
    _ok(run(["cmake", "-S", ".", "-B", "build", "-DRUN_MODE=sim"], project, env))
    _ok(run(["cmake", "--build", "build"], project, env))
    assert (project / "build" / "include" / "kernels" / "aclrtlaunch_scale_vf_custom.h").is_file()
    done = _ok(run(["./sim_exe"], project / "build", env))
    assert done.stdout.splitlines()[-1] == "PASS"
    assert [ln.split(" at ")[0] for ln in done.stderr.splitlines() if ln.startswith("launch ")] == [
        "launch 0: add_custom <<<8>>>", "launch 1: reduce_custom <<<8>>>", "launch 2: scale_vf_custom <<<8>>>"]
    _ok(run(["cmake", "-S", ".", "-B", "cpu", "-DRUN_MODE=cpu"], project, env))     # tikicpulib.h, ICPU_RUN_KF
    _ok(run(["cmake", "--build", "cpu"], project, env))
    done = _ok(run(["./sim_exe"], project / "cpu", env))
    assert done.stdout.splitlines()[-1] == "PASS" and "launch 0: add_custom <<<8>>> at " in done.stderr
    bad = run(["cmake", "-S", ".", "-B", "other", "-DSOC_VERSION=Ascend910B1"], project, env)
    assert bad.returncode != 0 and "SOC_VERSION=Ascend910B1" in bad.stderr and "Ascend 950" in bad.stderr
