"""The `.asc` route against a hostile but realistic user (issue 17): one test per row of the issue's table.

Each row is a mechanism, tested through the CLI as a user meets it: signals to the tool during a build
and a sweep (row 1), the cache after an interrupted first build (2), a program's background processes
against --timeout (3), one-line errors for everything the tool itself cannot do (4), damaged cache entries
(5), headers the compiler reads that a text scan misses (6), source paths (7), native-binary behaviour
(8), diagnostics at the user's line with a documented code (9), a full disk (10), option validation (11),
the data-only result channel (12). Programs are tiny (most need only the C library); the two that need
the kernel headers are one program with modes.
"""
from __future__ import annotations

import json
import os
import pickle
import resource
import signal
import time
from pathlib import Path

import pytest

from tests._hostile import assert_error_line, invoke
from tests.asc_hostile_support import (
    PLAIN,
    alive,
    files_in,
    interrupt,
    no_leftovers,
    private_cache,
    processes_mentioning,
    tool,
    wait_for_children,
    warm_runtime,
    write_bytes,
)
from tests.asc_support import needs_compiler
from toolkit.asc.build import BuildError, build
from toolkit.asc.cache import Cache
from toolkit.asc.runner import run_program
from toolkit.cli.sweep_command import _defines

pytestmark = needs_compiler


@pytest.fixture(scope="module")
def runtime(tmp_path_factory) -> Path:
    return warm_runtime(tmp_path_factory.mktemp("warm"))


# -- row 1: every child ends with the tool, promptly; nothing left in $TMPDIR ----------------------------
def test_row01_signals_end_the_compiler_and_the_sweep_workers(tmp_path):
    src = write_bytes(tmp_path / "p.asc", PLAIN)
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    env = {"MIGRATE_CHECK_CACHE": str(tmp_path / "c1"), "TMPDIR": str(tmpdir)}
    proc = tool("run", str(src), env=env)           # an empty cache: the runtime build is under way
    compilers = wait_for_children(proc.pid, "cc1plus", 1)
    code, err, took = interrupt(proc, signal.SIGTERM)
    assert code == 143 and err.strip().endswith("interrupted") and took < 5, (code, err, took)
    assert not no_leftovers(str(tmp_path / "c1")) and not any(alive(p) for p in compilers)
    assert list(tmpdir.iterdir()) == []
    env["MIGRATE_CHECK_CACHE"] = str(tmp_path / "c2")
    proc = tool("sweep", str(src), "-D", "N=1,2,3,4", "--jobs", "2", env=env)
    wait_for_children(proc.pid, "cc1plus", 2)        # both workers compiling
    code, err, took = interrupt(proc, signal.SIGINT)
    assert code == 130 and took < 8, (code, err, took)
    assert not no_leftovers(str(tmp_path)), "a worker or compiler outlived the sweep (or started after it)"
    assert list(tmpdir.iterdir()) == []


HANGS = ("#include <cstdio>\n#include <cstdlib>\n#include <unistd.h>\nint main(int argc, char** argv) {\n"
         "    std::system(\"sleep 27.1717 &\");\n    for (;;) pause();\n}\n")


@pytest.mark.parametrize("sig, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_row01_signals_end_both_programs_of_a_side_by_side_compare(tmp_path, runtime, sig, code):
    a, b = (write_bytes(tmp_path / name / "hangs.asc", HANGS) for name in ("a", "b"))
    build(a), build(b)
    proc = tool("compare", str(a), str(b), "--jobs", "2")
    end = time.monotonic() + 60
    while len(processes_mentioning("27.1717")) < 2:              # both programs are running
        assert proc.poll() is None and time.monotonic() < end, proc.communicate()
        time.sleep(0.05)
    got, err, took = interrupt(proc, sig)
    assert got == code and err.strip().endswith("interrupted") and took < 5, (got, err, took)
    assert not no_leftovers("27.1717", 0.5) and not no_leftovers(str(tmp_path), 0.3)


def test_row01_a_build_error_beside_a_running_program_stops_it(tmp_path, runtime):
    bad = write_bytes(tmp_path / "bad.asc", "int main() { return ; }\n")
    hangs = write_bytes(tmp_path / "h" / "hangs.asc", HANGS.replace("27.1717", "28.1717"))
    build(hangs)
    t0 = time.monotonic()
    code, _, err = invoke("compare", str(bad), str(hangs), "--jobs", "2")
    assert_error_line(code, err, "migrate-check", f"{bad}:1:")
    assert time.monotonic() - t0 < 30 and not no_leftovers("28.1717", 0.5)


# -- row 2: an interrupted first build leaves nothing in the cache --------------------------------------
def test_row02_interrupted_first_build_leaves_no_temp_file_in_the_cache(tmp_path):
    cache = tmp_path / "cache"
    proc = tool("run", str(write_bytes(tmp_path / "p.asc", PLAIN)), env={"MIGRATE_CHECK_CACHE": str(cache)})
    wait_for_children(proc.pid, "cc1plus", 1)
    code, _, _ = interrupt(proc, signal.SIGINT)
    assert code == 130
    assert files_in(cache) == [] and [p.name for p in cache.iterdir()] == ["runtime"]       # no build-* left


# -- row 3: --timeout bounds the run; background processes neither extend it nor outlive it ---------------
DAEMONS = r"""
#include <cstdio>
#include <cstdlib>
#include <unistd.h>
int main(int argc, char** argv) {
    std::system("sleep 25.1717 &");                 // a background job holding stdout
    if (fork() == 0) {                               // a daemon: a new session, double fork
        setsid();
        if (fork() == 0) { execlp("sleep", "sleep", "26.1717", (char*)nullptr); _exit(1); }
        _exit(0);
    }
    if (argc > 1) for (;;) pause();                  // and main itself may hang: --timeout stops it
    std::printf("main returned\n");
    return 0;
}
"""


def test_row03_timeout_holds_against_background_processes_and_daemons(tmp_path, runtime):
    src = write_bytes(tmp_path / "daemons.asc", DAEMONS)
    build(src)
    t0 = time.monotonic()
    code, out, err = invoke("run", str(src), "--timeout", "3")
    assert code == 0 and "main returned" in out and time.monotonic() - t0 < 12, (code, err)   # not 25 s
    t0 = time.monotonic()
    code, _, err = invoke("run", str(src), "--timeout", "1.5", "--", "hang")
    assert_error_line(code, err, "migrate-check", "TIMEOUT", "timed out after 1.5 s")
    assert time.monotonic() - t0 < 10
    assert not no_leftovers("25.1717", 0.3) and not no_leftovers("26.1717", 0.3)


# -- row 4: the tool's own failures: one line, exit 2, never a traceback, never the program's status -----
CRASHY = "#include <csignal>\n#include <cstdio>\nint main(int argc, char** argv) {\n" \
         "    if (argc > 1) std::raise(SIGSEGV);\n    std::printf(\"no launch\\n\");\n    return 0;\n}\n"


def test_row04_tool_failures_are_one_line(tmp_path, runtime):
    gbk = write_bytes(tmp_path / "gbk.asc", b"int main() {\n    int x = ; // \xc4\xe3\xba\xc3 \xff\n}\n")
    code, _, err = invoke("run", str(gbk))
    assert_error_line(code, err, "migrate-check", f"{gbk}:2:")
    for bad in ("nan", "inf", "1e309", "-1", "0"):
        code, _, err = invoke("run", str(gbk), "--timeout", bad)
        assert_error_line(code, err, "migrate-check", "--timeout")
    crashy = write_bytes(tmp_path / os.fsdecode(b"d\xff\xfe") / "crashy.asc", CRASHY)   # not UTF-8
    code, _, err = invoke("run", str(crashy), "--html", str(tmp_path / "c.html"), "--", "crash")
    assert_error_line(code, err, "migrate-check", "CRASH: segmentation fault", "d\\xff\\xfe")
    assert not (tmp_path / "c.html").exists()
    code, out, err = invoke("run", str(crashy), "--html", str(tmp_path / "n.html"), "--json", "-")
    assert code == 0 and json.loads(out)["exit_status"] == 0, err
    assert "no launch" in (tmp_path / "n.html").read_text()
    for name, text in (("empty.asc", ""), ("nomain.asc", "int helper() { return 1; }\n")):
        code, _, err = invoke("run", str(write_bytes(tmp_path / name, text)))
        assert_error_line(code, err, "migrate-check", "NO_MAIN", name)


# -- row 5: damaged cache entries are rebuilt, never loaded ------------------------------------------------
def test_row05_truncated_or_empty_cache_entries_are_rebuilt(tmp_path, runtime):
    cache = private_cache(tmp_path, runtime)
    src = write_bytes(tmp_path / "p.asc", PLAIN)
    first = build(src, cache=cache)
    for damage in (lambda p: p.write_bytes(p.read_bytes()[: p.stat().st_size // 2]), lambda p: p.write_bytes(b"")):
        damage(first.library)
        again = build(src, cache=cache)
        assert not again.cached
        run = run_program(again, [], timeout=60)
        assert run.failure is None and run.exit_status == 0 and run.stdout == "ok\n", run.failure
    shim = first.shim
    shim.write_bytes(b"")                          # a runtime-* entry: rebuilt too
    assert run_program(build(src, cache=cache), [], timeout=60).exit_status == 0
    obj = next((cache / "runtime").glob("runtime-*/runtime.o"))
    obj.write_bytes(obj.read_bytes()[:100])
    assert Cache(cache).lookup("runtime", obj.parent.name) is None and not obj.parent.exists()
    os.chmod(cache, 0o777)                         # writable by others: refused, as ssh refuses its keys
    with pytest.raises(BuildError) as refused:
        build(src, cache=cache)
    assert refused.value.code == "CACHE_UNSAFE" and "chmod go-w" in str(refused.value)
    os.chmod(cache, 0o700)
    entry = build(src, cache=cache).library.parent
    if os.geteuid() == 0:                          # an entry another user owns: refused, never loaded
        os.chown(entry, 65534, 65534)
        with pytest.raises(BuildError, match="belongs to another user"):
            build(src, cache=cache)
        os.chown(entry, 0, 0)
    moved = entry.with_name(entry.name + ".real")
    entry.rename(moved)
    entry.symlink_to(moved)                        # an entry that is a link elsewhere: refused too
    with pytest.raises(BuildError, match="symbolic link"):
        build(src, cache=cache)


# -- row 6: the cache key covers the headers the compiler read ---------------------------------------------
HEADERS = '#include <cstdio>\n#define HDR "val.h"\n#include HDR\n#include /* c */ "v.h"\n' \
          'int main() { std::printf("%d %d\\n", VAL, V); return 0; }\n'


def test_row06_headers_found_by_the_compiler_are_in_the_key(tmp_path, runtime):
    cache = private_cache(tmp_path, runtime)
    src = write_bytes(tmp_path / "h.asc", HEADERS)
    write_bytes(tmp_path / "val.h", "#define VAL 1\n")
    write_bytes(tmp_path / "v.h", "#define V 2\n")
    assert run_program(build(src, cache=cache), [], timeout=60).stdout == "1 2\n"
    write_bytes(tmp_path / "val.h", "#define VAL 3\n")
    b = build(src, cache=cache)
    assert not b.cached and run_program(b, [], timeout=60).stdout == "3 2\n"
    write_bytes(tmp_path / "v.h", "#define V 4\n")
    assert run_program(build(src, cache=cache), [], timeout=60).stdout == "3 4\n"
    assert build(src, cache=cache).cached


# -- row 7: every path the compiler accepts --------------------------------------------------------------
PATHS = '#include <cstdio>\n#include <cstring>\n#include <libgen.h>\n' \
        'int main(int argc, char** argv) { std::printf("exe=%s\\n", basename(argv[0]));\n' \
        '    std::printf("dir=%d file=%d\\n", std::strcmp(SOURCE_DIR, DIR) == 0, std::strcmp(__FILE__, SRC) == 0);\n' \
        '    return 0; }\n'


def test_row07_every_path_the_compiler_accepts_runs(tmp_path, runtime):
    from toolkit.asc.rewrite import c_string
    for rel, exe in (("bin.asc", "bin"), ("..asc", "program"), ('we"ird\nd ir/p q.asc', "p q")):
        src = tmp_path / rel
        defines = [f'DIR="{c_string(str(src.parent))}"', f'SRC="{c_string(str(src))}"']
        write_bytes(src, PATHS)
        code, out, err = invoke("run", str(src), *(x for d in defines for x in ("-D", d)))
        assert code == 0 and f"exe={exe}\n" in out and "dir=1 file=1" in out, (rel, code, err)


# -- row 8: as a native binary ----------------------------------------------------------------------------
NATIVE = rb"""
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>
#include "acl/acl.h"
struct Global { ~Global() { std::printf("global destructor\n"); } } g;
static void bye() { std::printf("atexit handler\n"); }
int main(int argc, char** argv) {
    std::atexit(bye);
    char* real = realpath("/proc/self/exe", nullptr);
    std::printf("argv0=%s\nrealpath=%s\n", argv[0], real ? real : "(null)");
    std::string gbk = "\xc4\xe3\xba\xc3";
    std::printf("gbk=");
    for (unsigned char c : gbk) std::printf("%02x", c);
    std::printf("\nraw=%s\n", gbk.c_str());
    void* p = &g;
    int e = (int)aclrtMalloc(&p, SIZE_MAX, ACL_MEM_MALLOC_HUGE_FIRST);
    std::printf("SIZE_MAX=%d %s\n", e, p ? "ptr" : "null");
    void* q = &g;
    e = (int)aclrtMalloc(&q, (size_t)1 << 60, ACL_MEM_MALLOC_HUGE_FIRST);
    std::printf("huge=%d %s\n", e, q ? "ptr" : "null");
    return 0;
}
"""


def test_row08_the_program_behaves_as_a_native_binary(tmp_path, runtime):
    run = run_program(build(write_bytes(tmp_path / "native.asc", NATIVE)), [], timeout=60)
    assert run.failure is None and run.exit_status == 0 and not run.host_errors, (run.failure, run.host_errors)
    lines = dict(line.split("=", 1) for line in run.stdout.splitlines() if "=" in line)
    assert lines["realpath"] == os.path.realpath(lines["argv0"]) and lines["argv0"].endswith("/native")
    assert lines["gbk"] == "c4e3bac3" and b"raw=\xc4\xe3\xba\xc3\n" in run.stdout_bytes
    assert lines["SIZE_MAX"] == "200000 null" and lines["huge"] == "200000 null"       # ACL_ERROR_BAD_ALLOC
    assert run.stdout.endswith("atexit handler\nglobal destructor\n")


# -- rows 9 and 12: one kernel program, several modes ----------------------------------------------------
KERNELS = r"""
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <libgen.h>
#include <string>
#include <unistd.h>
#include "acl/acl.h"
#include "kernel_operator.h"

__simd_vf__ inline void Rec(__ubuf__ float* x, uint32_t depth)
{
    if (depth > 0) Rec(x, depth - 1);
}

__simd_vf__ inline void Spin(__ubuf__ float* x, uint32_t n)
{
    volatile uint32_t k = 0;
    while (k <= n) { }
}

extern "C" __global__ __aicore__ void kern(GM_ADDR x, uint32_t mode)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256);
    auto t = buf.Get<float>();
    if (mode == 1) Rec((__ubuf__ float*)t.GetPhyAddr(), 1);
    if (mode == 2) Spin((__ubuf__ float*)t.GetPhyAddr(), 4);
}

int main(int argc, char** argv)
{
    int mode = argc > 1 ? atoi(argv[1]) : 3;
    uint8_t* dx;
    aclrtMalloc((void**)&dx, 256, ACL_MEM_MALLOC_HUGE_FIRST);
    if (mode == 0) kern<<<0, nullptr, nullptr>>>(dx, mode);
    else kern<<<1, nullptr, nullptr>>>(dx, mode);
    std::string exe_dir = dirname(realpath("/proc/self/exe", nullptr));
    if (mode == 3 && argc > 2) {                      // plant a pickle where the old channel was, delete the run dir
        std::ifstream in(argv[2], std::ios::binary);
        std::string evil((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        for (std::string dir : {exe_dir, exe_dir + "/.."}) std::ofstream(dir + "/results.pkl", std::ios::binary) << evil;
        std::system(("rm -rf '" + exe_dir + "/..'").c_str());
    }
    if (mode == 4) {                                 // forge a record on the result channel
        const char* fd = std::getenv("ASC_RESULT_FD");
        std::string line = "{\"kind\":\"log\",\"text\":{\"$\":\"r\",\"c\":\"Popen\",\"v\":[\"touch x\"]}}\n";
        if (fd) (void)!write(atoi(fd), line.data(), line.size());
    }
    std::printf("mode %d done\n", mode);
    return 0;
}
"""
KERNEL_LINES = {k: n + 1 for n, line in enumerate(KERNELS.splitlines()) for k in ("<<<0", "while", "void Rec")
                if k in line}


@pytest.fixture(scope="module")
def kernels(tmp_path_factory):
    src = write_bytes(tmp_path_factory.mktemp("kernels") / "kern.asc", KERNELS)
    return src, build(src)


def _line(src: Path, key: str) -> str:
    return f"{os.path.relpath(src)}:{KERNEL_LINES[key]}" if key != "void Rec" else f"{src}:{KERNEL_LINES[key]}"


def test_row09_diagnostics_name_the_users_line_and_a_documented_code(kernels):
    src, _ = kernels
    code, out, _ = invoke("run", str(src), "--", "0")
    assert code == 1 and f"error BAD_PARAMETER on the host at {src}:{KERNEL_LINES['<<<0']}: kern<<<0>>>" in out
    code, out, _ = invoke("run", str(src), "--json", "-", "--", "1")
    diags = json.loads(out)["launches"][0]["diagnostics"]
    assert code == 1 and any(d["code"] == "VF_RULE" and d["location"] == f"{src}:{KERNEL_LINES['void Rec'] + 1}"
                             for d in diags), diags
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    assert "`VF_RULE`" in readme and "`BAD_PARAMETER`" in readme and "`TIMEOUT`" in readme
    code, _, err = invoke("run", str(src), "--timeout", "2", "--", "2")
    assert_error_line(code, err, "migrate-check", "TIMEOUT", f"in the loop at {_line(src, 'while')} in kernel kern")


class _Evil:
    def __init__(self, marker: str):
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


def test_row12_the_result_channel_carries_data_only(kernels, tmp_path):
    src, built = kernels
    marker = tmp_path / "executed"
    evil = write_bytes(tmp_path / "evil.pkl", pickle.dumps(_Evil(str(marker))))
    run = run_program(built, ["3", str(evil)], timeout=60)
    assert run.failure is None and run.exit_status == 0 and len(run.launches) == 1 and run.launches[0]["passed"]
    assert "mode 3 done" in run.stdout and not marker.exists()
    code, _, err = invoke("run", str(src), "--", "4")
    assert_error_line(code, err, "migrate-check", "INTERNAL_ERROR", "results are unreadable")


# -- row 10: a full disk is named as such ---------------------------------------------------------------
def _file_limit() -> None:
    resource.setrlimit(resource.RLIMIT_FSIZE, (16 << 10, 16 << 10))


def test_row10_a_full_disk_is_the_reported_cause(tmp_path):
    proc = tool("run", str(write_bytes(tmp_path / "p.asc", PLAIN)), env={"MIGRATE_CHECK_CACHE": str(tmp_path / "c")},
                preexec_fn=_file_limit)
    _, err = proc.communicate(timeout=120)
    err = err.decode()
    assert proc.returncode == 2 and err.count("\n") == 1 and "Traceback" not in err, err
    assert "file size limit exceeded" in err.lower() or "file too large" in err.lower(), err
    assert files_in(tmp_path / "c") == []


# -- row 11: bad options are refused as the KV command refuses them ----------------------------------------
SLOW = "constexpr long f() { long s = 0; for (long i = 0; i < 4000000000L; ++i) s += i % 7; return s; }\n" \
       "static_assert(f() > 0);\nint main() { return 0; }\n"


def test_row11_bad_options_are_refused_in_one_line(tmp_path):
    src = write_bytes(tmp_path / "p.asc", PLAIN)
    for bad in ("5..1", "1..10:0", "1..99999999", "1..x", "{1,2"):
        code, _, err = invoke("sweep", str(src), "-D", f"N={bad}")
        assert_error_line(code, err, "migrate-check", "-D N")
    assert _defines(("ARR={1,2}", "N=1,2", 'S="a,b"')) == (["ARR={1,2}", 'S="a,b"'], {"N": [1, 2]})
    for bad in ("-1", "nan", "inf"):
        code, _, err = invoke("compare", str(src), str(src), "--atol", bad)
        assert_error_line(code, err, "migrate-check", "--atol")
    for bad in ("=1", "1X=2", "X=a\nb"):
        code, _, err = invoke("run", str(src), "-D", bad)
        assert_error_line(code, err, "migrate-check", "-D")
    code, _, err = invoke("run", str(src), "--json", str(tmp_path / "rel" / ".." / "r.json"))
    assert_error_line(code, err, "migrate-check", "does not exist")
    env = {"MIGRATE_CHECK_CACHE": str(tmp_path / "c")}
    t0 = time.monotonic()
    proc = tool("run", str(write_bytes(tmp_path / "slow.asc", SLOW)), "--timeout", "1.5", env=env)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 2 and "TIMEOUT" in err.decode() and time.monotonic() - t0 < 8, err
    # the shared runtime objects may have finished before the timeout (complete entries are what a cache keeps);
    # no temporary file and no entry for the program that timed out
    assert [f for f in files_in(tmp_path / "c") if not f.startswith("runtime/") or "/tmp" in f] == []
