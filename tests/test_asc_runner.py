"""`migrate-check run` / `compare` as a user meets them: bad sources, unsupported names, crashes, timeouts,
the build cache, options (-I, -D, args after --), exit codes, and a deliberately wrong port caught by
compare's output diff."""
from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from tests.asc_support import build, build_and_run, needs_compiler, write
from toolkit.asc.build import BuildError
from toolkit.cli import main

KERNEL = r"""
#include <cstdio>
#include <vector>
#include "acl/acl.h"
#include "kernel_operator.h"
#include "params.h"

__simd_vf__ inline void AddVF(__ubuf__ float* z, __ubuf__ float* x, uint32_t n, uint16_t loops)
{
    AscendC::Reg::RegTensor<float> v;
    for (uint16_t i = 0; i < loops; ++i) {
        AscendC::Reg::MaskReg m = AscendC::Reg::UpdateMask<float>(n);
        AscendC::Reg::LoadAlign(v, x + i * 64);
        AscendC::Reg::OP(v, v, SCALE, m);
        AscendC::Reg::StoreAlign(z + i * 64, v, m);
    }
}

extern "C" __global__ __aicore__ void scale(GM_ADDR x, GM_ADDR z, uint32_t n)
{
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, 2 * n * sizeof(float));
    AscendC::GlobalTensor<float> xg, zg;
    xg.SetGlobalBuffer((__gm__ float*)x, n);
    zg.SetGlobalBuffer((__gm__ float*)z, n);
    auto t = q.AllocTensor<float>();
    AscendC::DataCopy(t, xg, n);
    q.EnQue(t);
    t = q.DeQue<float>();
    AddVF((__ubuf__ float*)t[n].GetPhyAddr(), (__ubuf__ float*)t.GetPhyAddr(), n, (uint16_t)((n + 63) / 64));
    AscendC::DataCopy(zg, t[n], n);
    q.FreeTensor(t);
}

int main(int argc, char** argv)
{
    uint32_t n = argc > 1 ? (uint32_t)atoi(argv[1]) : 128;
    std::vector<float> x(n), z(n);
    for (uint32_t i = 0; i < n; ++i) x[i] = (float)i;
    uint8_t *dx, *dz;
    aclrtMalloc((void**)&dx, n * 4, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&dz, n * 4, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(dx, n * 4, x.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE);
    scale<<<1, nullptr, nullptr>>>(dx, dz, n);
    aclrtMemcpy(z.data(), n * 4, dz, n * 4, ACL_MEMCPY_DEVICE_TO_HOST);
    printf("n %u z1 %g\n", n, z[1]);
    return EXIT_STATUS;
}
"""
PARAMS = "#pragma once\n#ifndef OP\n#define OP Muls\n#endif\n#define SCALE 2.0f\n#ifndef EXIT_STATUS\n#define EXIT_STATUS 0\n#endif\n"


@pytest.fixture(scope="module")
def sample(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("sample")
    write(root, "CMakeLists.txt", "# the sample root\n")
    write(root, "include/params.h", PARAMS)
    return write(root, "src/scale.asc", KERNEL)


def _cli(*args: str, capsys=None) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr() if capsys else None
    return code, (out.out if out else ""), (out.err if out else "")


@needs_compiler
def test_run_finds_sample_include_dir_and_passes_args(sample, capsys):
    code, out, _ = _cli("run", str(sample), "--", "256", capsys=capsys)
    assert code == 0
    assert "n 256 z1 2" in out
    assert "launch 0: scale <<<1>>>" in out and "PASS" in out


@needs_compiler
def test_defines_change_the_program_and_its_own_status_is_the_exit_code(sample, capsys):
    code, out, _ = _cli("run", str(sample), "-D", "OP=Adds", "-D", "EXIT_STATUS=3", capsys=capsys)
    assert code == 3
    assert "z1 3" in out                      # 1 + 2: Adds instead of Muls


@needs_compiler
def test_json_report_keys(sample, tmp_path, capsys):
    code, out, _ = _cli("run", str(sample), "--json", "-", capsys=capsys)
    assert code == 0
    doc = json.loads(out)
    assert {"source", "exit_status", "passed", "stdout", "launches"} <= set(doc)
    lr = doc["launches"][0]
    assert {"kernel", "block_dim", "passed", "ub", "counters", "cycles", "diagnostics"} <= set(lr)
    assert {"budget_bytes", "total_bytes", "buffers"} <= set(lr["ub"])
    assert {"vf_count", "loop_entries", "RV_VMULS"} <= set(lr["counters"])
    assert {"kernel_cycles", "pipes", "ipc", "bottleneck"} <= set(lr["cycles"])
    assert lr["counters"]["RV_VMULS"] == 2 and lr["ub"]["total_bytes"] == 1024


@needs_compiler
def test_compile_error_is_bad_input_with_location(tmp_path, capsys):
    src = write(tmp_path, "bad.asc", '#include "kernel_operator.h"\nint main() {\n  int x = ;\n  return 0;\n}\n')
    code, _, err = _cli("run", str(src), capsys=capsys)
    assert code == 2
    assert f"{src}:3:" in err and "error" in err and err.count("\n") == 1


@needs_compiler
def test_unsupported_api_is_named_not_a_page_of_errors(tmp_path, capsys):
    src = write(tmp_path, "uns.asc", '#include "kernel_operator.h"\n__simd_vf__ void F()\n{\n'
                '    AscendC::Reg::RegTensor<float> r;\n    AscendC::Reg::Bitonic(r, r);\n}\nint main() { return 0; }\n')
    code, _, err = _cli("run", str(src), capsys=capsys)
    assert code == 2
    assert f"UNSUPPORTED_API Bitonic {src}:5" in err


@needs_compiler
def test_crash_is_one_line_with_the_last_api_call(tmp_path, capsys):
    src = write(tmp_path, "crash.asc", KERNEL.replace("    printf(\"n %u", "    *(volatile int*)nullptr = 1;\n    printf(\"n %u"))
    write(tmp_path, "params.h", PARAMS)
    code, out, err = _cli("run", str(src), capsys=capsys)
    assert code == 2
    assert "CRASH: segmentation fault (SIGSEGV)" in err and f"after the launch at {os.path.relpath(src)}:45" in err
    assert err.count("\n") == 1


@needs_compiler
def test_uncaught_exception_and_timeout_are_reported(tmp_path, capsys):
    write(tmp_path, "params.h", PARAMS)
    thrower = write(tmp_path, "throw.asc", KERNEL.replace("int main(int argc, char** argv)\n{",
                    "#include <stdexcept>\nint main(int argc, char** argv)\n{\n    throw std::runtime_error(\"boom\");"))
    code, _, err = _cli("run", str(thrower), capsys=capsys)
    assert code == 2 and "uncaught exception: boom" in err
    looper = write(tmp_path, "loop.asc", KERNEL.replace("    printf(\"n %u", "    for (volatile int k = 0;; ++k) {}\n    printf(\"n %u"))
    build(looper)                         # --timeout bounds the build too: build it first
    t0 = time.monotonic()
    code, _, err = _cli("run", str(looper), "--timeout", "2", capsys=capsys)
    assert code == 2 and "timed out after 2 s" in err
    assert time.monotonic() - t0 < 30


@needs_compiler
def test_build_cache_reuses_an_unchanged_program(sample, tmp_path):
    cache = tmp_path / "cache"
    first = build(sample, cache=cache)
    t0 = time.monotonic()
    second = build(sample, cache=cache)
    assert not first.cached and second.cached and second.library == first.library
    assert time.monotonic() - t0 < 1.0
    changed = build(sample, cache=cache, defines=["SCALE2=1"])
    assert not changed.cached and changed.library != first.library
    params = sample.parent.parent / "include" / "params.h"          # an included header changes: rebuild
    old = params.read_text()
    try:
        params.write_text(old + "\n// edited\n")
        assert not build(sample, cache=cache).cached
    finally:
        params.write_text(old)


@needs_compiler
def test_compare_catches_a_wrong_port(sample, tmp_path, capsys):
    wrong = write(tmp_path, "wrong/src/scale.asc", KERNEL)
    write(tmp_path, "wrong/CMakeLists.txt", "")
    write(tmp_path, "wrong/include/params.h", PARAMS.replace("#define OP Muls", "#define OP Adds"))
    code, out, _ = _cli("compare", str(sample), str(wrong), "--json", "-", capsys=capsys)
    assert code == 1
    doc = json.loads(out)
    assert not doc["passed"] and doc["a"]["passed"] and doc["b"]["passed"]
    z = doc["launches"][0]["outputs"][0]
    assert z["arg"] == "z" and z["dtype"] == "float32" and z["elements"] == 128
    assert z["mismatches"] == 127 and z["max_abs_diff"] == 125.0          # 2x vs x+2: equal only at x = 2
    code, out, _ = _cli("compare", str(sample), str(sample), capsys=capsys)
    assert code == 0 and out.rstrip().endswith("PASS")


@needs_compiler
def test_missing_source_and_missing_compiler_are_bad_input(tmp_path, capsys, monkeypatch):
    code, _, err = _cli("run", str(tmp_path / "nope.asc"), capsys=capsys)
    assert code == 2 and "no such file" in err
    monkeypatch.setenv("CXX", str(tmp_path / "no-such-compiler"))
    src = write(tmp_path, "x.asc", "int main() { return 0; }\n")
    with pytest.raises(BuildError) as err:
        build(src, cache=tmp_path / "c")
    assert "cannot run the compiler" in str(err.value)


def test_rewrite_keeps_lines_and_finds_launches_and_loops():
    from toolkit.asc.rewrite import rewrite
    src = ("template <int K> __global__ void k(int* x) {}\n__simd_vf__ void F(int n)\n{\n    for (uint16_t i = 0; i < n;"
           " ++i) { continue; }\n    for (;;) {}\n}\nint main() {\n    k<4><<<2,\n        nullptr, s>>>(p);\n}\n")
    r = rewrite(src, "/x/y.asc")
    body = r.text.split("\n", 1)[1]
    assert body.count("\n") == src.count("\n")
    assert r.launches == [("k<4>", 8)]
    assert [(lp.line, lp.hardware) for lp in r.loops] == [(4, False), (5, True)]
    assert "'continue'" in r.loops[0].reason
    assert "::__asc::launch_kernel(\"k<4>\"" in body and ".next(true)" in body
    assert os.path.basename(r.text.split("\n", 1)[0].split('"')[1]) == "y.asc"


def test_rewrite_gates_an_empty_vf_body_inside_its_braces():
    # the gate opens after the body's "{" and closes before its "}": for "{}" both edits sit at one
    # position and must land in the order they were made
    from toolkit.asc.rewrite import rewrite
    body = rewrite("__simd_vf__ inline void F(__ubuf__ float* x) {}\n", "a.asc").text.split("\n", 1)[1]
    assert body.startswith('__simd_vf__ inline void F(__ubuf__ float* x) { if (::__asc::VfGate')
    assert body.rstrip().endswith("__asc_vf) {} }")


@needs_compiler
def test_run_shows_launches_done_on_a_terminal_and_erases_the_line(sample, monkeypatch):
    """A long `run` on a terminal shows `running NAME: N launch(es) done, elapsed`, erased before the report."""
    import contextlib
    import io
    import pty
    import sys

    from toolkit.console import progress
    master, slave = pty.openpty()
    stream = os.fdopen(slave, "w")
    os.set_blocking(master, False)
    monkeypatch.setattr(progress, "DELAY_S", 0.0)
    monkeypatch.setattr(progress, "INTERVAL_S", 0.0)
    monkeypatch.setattr(sys, "stderr", stream)
    try:
        with contextlib.redirect_stdout(io.StringIO()) as out:
            assert main(["run", str(sample)]) == 0
        shown = b""
        with contextlib.suppress(BlockingIOError):
            while chunk := os.read(master, 65536):
                shown += chunk
    finally:
        stream.close()
        os.close(master)
    text = shown.decode()
    assert "running scale.asc: 0 launch(es) done" in text
    assert text.endswith("\r") and text.rsplit("\r", 2)[-2].strip() == ""
    assert "launch 0: scale <<<1>>>" in out.getvalue()


@needs_compiler
def test_a_launch_with_more_cores_than_ubs_can_be_mapped_is_one_line_and_a_failed_gate(tmp_path, capsys):
    src = write(tmp_path, "wide.asc", KERNEL.replace("scale<<<1, nullptr, nullptr>>>", "scale<<<40000, nullptr, nullptr>>>")
                .replace('#include "params.h"', "#define OP Muls\n#define SCALE 2.0f\n#define EXIT_STATUS 0"))
    code, out, _ = _cli("run", str(src), capsys=capsys)
    assert code == 1
    line = next(ln for ln in out.splitlines() if "UNSUPPORTED_API on the host" in ln)
    assert f"{src}:" in line and "scale<<<40000>>>" in line and "more cores than it can map" in line
    assert "0 launch(es); FAIL" in out and "Traceback" not in out
