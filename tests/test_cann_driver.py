"""The vendor's build flow without CMake: the toolkit root (`migrate-check cann-home`), its bisheng driver
(compile, link, a unit outside the emulated scope), executables that run themselves on the emulator,
`run a.asc b.cpp` and the launch stubs of `run kernel.cpp main.cpp`."""
from __future__ import annotations

import json
import os
import shutil
import subprocess

import pytest

from tests.asc_support import build, needs_compiler, write
from tests.cann_support import FIXTURES, cann_root, run, user_env  # noqa: F401  (fixture)
from tests.report_support import cli
from toolkit.asc import objmeta
from toolkit.asc.cann.args import DriverError, parse

pytestmark = needs_compiler

SUM = """\
    #include <cstdio>
    #include <vector>
    #include "sum.h"
    int main(int argc, char** argv) {
        std::vector<float> v{1, 2, 3.5f};
        std::printf("sum %g args %d\\n", sum_of(v), argc - 1);
        return argc > 2 ? 3 : 0;
    }
"""


def _two_sources(tmp_path):
    write(tmp_path, "sum.h", "#pragma once\n#include <vector>\nfloat sum_of(const std::vector<float>& v);\n")
    write(tmp_path, "sum.cpp", '#include "sum.h"\nfloat sum_of(const std::vector<float>& v) '
                               "{ float s = 0; for (float x : v) s += x; return s; }\n")
    return write(tmp_path, "main.asc", SUM), tmp_path / "sum.cpp"


def test_driver_command_line_is_read_as_build_systems_pass_it():
    cmd = parse(["-DSOURCE_DIR=\"/x\"", "-I", "inc", "-Iinc2", "-isystem", "sys", "-std=gnu++17", "-O3",
                 "--npu-arch=dav-3510", "--cce-simd-vf-fusion=true", "-x", "asc", "-MD", "-MT", "t.o", "-MF", "t.d",
                 "-o", "t.o", "-c", "k.asc", "-fPIC", "-Wall", "-g"])
    assert cmd.compile_only and cmd.output == "t.o" and cmd.sources == [("k.asc", "c++")]
    assert cmd.include_dirs == ["inc", "inc2", "sys"] and cmd.defines == ['SOURCE_DIR="/x"'] and cmd.std == "gnu++17"
    assert cmd.depfile and cmd.dep_path == "t.d" and cmd.dep_targets == ["t.o"] and cmd.vf_fusion and "-g" in cmd.extra
    link = parse(["a.o", "libk.a", "-o", "demo", "-L/opt", "-lm", "-l", "ascendcl", "-Wl,-rpath,/x", "-shared"])
    assert link.inputs == ["a.o", "libk.a"] and link.libs == ["m", "ascendcl"] and link.lib_dirs == ["/opt"]
    assert link.shared and link.link_extra == ["-Wl,-rpath,/x"] and not link.compile_only
    assert parse(["-v", "x.c"]).passthrough and parse(["-MP", "-c", "x.c"]).passthrough is False
    for bad in (["--npu-arch=dav-2201", "-c", "k.asc"], ["--cce-simd-vf-fusion=maybe"], ["-x", "fortran", "a"], ["-o"]):
        with pytest.raises(DriverError):
            parse(bad)


def test_toolkit_root_has_the_vendor_layout_and_set_env(cann_root):
    arch = f"{os.uname().machine}-linux"
    for rel in (f"{arch}/ccec_compiler/bin/bisheng", "compiler/ccec_compiler/bin/bisheng", "bin/bisheng",
                "lib/cmake/ASC/ASCConfig.cmake", "compiler/tikcpp/ascendc_kernel_cmake/ascendc.cmake",
                "tools/tikcpp/ascendc_kernel_cmake/ascendc.cmake", "include/acl/acl.h", "include/kernel_operator.h",
                "lib64/libascendcl.a", f"{arch}/lib64/libtiling_api.a"):
        assert (cann_root / rel).exists(), rel
    env = user_env(cann_root)
    assert env["ASCEND_HOME_PATH"] == env["ASCEND_TOOLKIT_HOME"] == str(cann_root)
    assert env["PATH"].split(":")[0] == f"{cann_root}/bin" and str(cann_root) in env["CMAKE_PREFIX_PATH"]
    code, out, err = cli("cann-home")
    assert code == 0 and out.strip() == str(cann_root), err


def test_run_links_every_source_and_a_missing_symbol_is_one_line(tmp_path):
    main, other = _two_sources(tmp_path)
    code, out, err = cli("run", str(main), str(other), "--", "x")
    assert code == 0 and out.startswith("sum 6.5 args 1\n"), err
    code, out, err = cli("run", str(main))
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and "Traceback" not in err
    assert lines[0].startswith("migrate-check: error: LINK_ERROR") and "sum_of(std::vector<float" in lines[0]


def test_built_program_runs_itself_from_any_directory(tmp_path):
    main, other = _two_sources(tmp_path)
    exe = tmp_path / "bin" / "demo"
    exe.parent.mkdir()
    shutil.copy(build([main, other]).library, exe)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = dict(os.environ, MIGRATE_CHECK_JSON=str(tmp_path / "r.json"))
    env.pop("PYTHONPATH", None)
    done = subprocess.run(["../bin/demo", "a", "b"], cwd=elsewhere, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 3 and done.stdout == "sum 6.5 args 2\n", done.stderr
    assert "program exit status 3" in done.stderr
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["exit_status"] == 3 and report["launches"] == []
    assert {r["source"] for r in objmeta.read(str(exe))} == {str(main), str(other)}


CUBE = """\
    #include "kernel_operator.h"
    __global__ __aicore__ void mm(GM_ADDR c)
    {
        AscendC::LocalTensor<float> a, b, d;
        AscendC::Mmad(d, a, b, AscendC::MmadParams{16, 16, 16, false, 0, false, false, false});
    }
    int main() { mm<<<1, nullptr, nullptr>>>(nullptr); return 0; }
"""


def test_driver_builds_a_unit_outside_the_scope_and_its_program_refuses_to_run(tmp_path, cann_root):
    env = user_env(cann_root)
    src = write(tmp_path, "mm.asc", CUBE)
    done = run(["bisheng", "--npu-arch=dav-3510", "-O3", "-x", "asc", "-c", str(src), "-o", "mm.o",
                "-MD", "-MT", "mm.o", "-MF", "mm.d"], tmp_path, env)
    assert done.returncode == 0 and "UNSUPPORTED_API AscendC::Mmad" in done.stderr, done.stderr
    assert (tmp_path / "mm.d").read_text().startswith("mm.o:")
    assert run(["bisheng", "mm.o", "-o", "mm", "-lascendcl", "-lm", "-ldl"], tmp_path, env).returncode == 0
    done = run(["./mm"], tmp_path, env)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip().splitlines() == [
        f"migrate-check: error: UNSUPPORTED_API AscendC::Mmad {src}:5 (catalogued, out of scope: cube)"]
    bad = write(tmp_path, "bad.asc", "int main() { return undeclared_thing; }\n")
    done = run(["bisheng", "-c", str(bad), "-o", "bad.o"], tmp_path, env)
    assert done.returncode == 1 and done.stderr.startswith(f"bisheng: error: {bad}:1:") and not (tmp_path / "bad.o").exists()


def test_stub_launches_run_as_angle_bracket_launches(tmp_path):
    project = tmp_path / "kl"
    shutil.copytree(FIXTURES / "kernel_launch", project)
    kernels = [str(project / f) for f in ("add_custom.cpp", "reduce_custom.cpp", "scale_vf_custom.cpp")]
    code, out, err = cli("run", *kernels, str(project / "main.cpp"), "--json", "-")
    report = json.loads(out)
    assert code == 0 and report["passed"] and "PASS\n" in report["stdout"], err
    assert [(lr["kernel"], lr["block_dim"], lr["where"][1]) for lr in report["launches"]] == [
        ("add_custom", 8, 78), ("reduce_custom", 8, 84), ("scale_vf_custom", 8, 89)]
    assert report["launches"][2]["counters"]["vf_count"] == 8
    angle = write(project, "angle.asc", """\
        #include "add_custom.cpp"
        #include "acl/acl.h"
        int main() {
            void *x, *y, *z;
            for (void** p : {&x, &y, &z}) aclrtMalloc(p, TOTAL_LEN * 4, ACL_MEM_MALLOC_HUGE_FIRST);
            add_custom<<<BLOCK_DIM, nullptr, nullptr>>>((GM_ADDR)x, (GM_ADDR)y, (GM_ADDR)z);
            return 0;
        }
    """)
    code, out, err = cli("run", str(angle), "--json", "-")
    first = json.loads(out)["launches"][0]
    stub = report["launches"][0]
    assert code == 0, err
    for key in ("ub", "counters", "cycles"):
        assert first[key] == stub[key], key
    assert [o["arg"] for o in first["outputs"]] == [o["arg"] for o in stub["outputs"]] == ["z"]


def test_compare_of_two_kernel_files_with_a_shared_host_main(tmp_path):
    project = tmp_path / "kl"
    shutil.copytree(FIXTURES / "kernel_launch", project)
    other = project / "ported"
    other.mkdir()
    for f in ("add_custom.cpp", "kernel_common.h"):
        shutil.copy(project / f, other / f)
    shared = [str(project / f) for f in ("reduce_custom.cpp", "scale_vf_custom.cpp", "main.cpp")]
    code, out, err = cli("compare", str(project / "add_custom.cpp"), str(other / "add_custom.cpp"),
                         *(a for f in shared for a in ("--with", f)), "--json", "-")
    result = json.loads(out)
    assert code == 0 and result["passed"], err
    assert [(p["kernel_a"], p["kernel_b"]) for p in result["launches"]] == [(k, k) for k in ("add_custom", "reduce_custom", "scale_vf_custom")]
