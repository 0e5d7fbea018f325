"""Helpers of the hostile-input tests: in-process and subprocess runs, a non-root process, file-tree
snapshots (nothing changed / nothing left behind)."""
from __future__ import annotations

import contextlib
import io
import os
import signal
import stat
import subprocess
import sys
import tempfile
import threading
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from typing import Iterator

import pytest

from toolkit import cli
from toolkit.console.outputs import TEMP_PREFIX

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KV = "kv_rms_norm_rope_cache"
SMALL = ("--batch", "1", "--seq", "16")
MAIN = {"migrate-check": "from toolkit.cli import main; main()",
        "gen_data.py": "import runpy; runpy.run_path('%s/scripts/gen_data.py', run_name='__main__')" % REPO,
        "calibrate.py": "import runpy; runpy.run_path('%s/scripts/calibrate.py', run_name='__main__')" % REPO}


def invoke(*args: str) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of ``migrate-check ARGS`` in process."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = cli.main(list(args))
    return code, out.getvalue(), err.getvalue()


@contextmanager
def fifo_reader(path) -> Iterator[list]:
    """A FIFO at ``path`` read by a daemon thread; the list gets what it read. A reader still waiting
    at the end (nothing opened the FIFO for writing) is released, so a failing test cannot hang."""
    os.mkfifo(path)
    got: list = []

    def read() -> None:
        with open(path, "rb") as fh:
            got.append(fh.read())

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    try:
        yield got
    finally:
        thread.join(0.2)
        if thread.is_alive():
            with contextlib.suppress(OSError):
                os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
        thread.join(10)


def assert_error_line(code: int, err: str, prog: str = "migrate-check", *needles: str) -> None:
    """Exit 2 with exactly one line on stderr, no traceback, naming every needle."""
    assert code == 2, err
    assert err.count("\n") == 1 and err.startswith(f"{prog}: error: ") and "Traceback" not in err, err
    for n in needles:
        assert n in err, (n, err)


#: Linux capability numbers (linux/capability.h) and prctl(PR_CAPBSET_DROP)
CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, PR_CAPBSET_DROP = 1, 2, 24


def _drop_file_capabilities() -> None:
    """In the child before exec: root loses the right to bypass file modes (the capability drop
    of issue 8), so a 0000 file or a 0555 directory refuses it as it would any user."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    for cap in (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH):
        if libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


def run(prog: str, *args: str, cwd: str | None = None, unprivileged: bool = False, timeout: float = 120,
        **kw) -> subprocess.CompletedProcess:
    """Run ``prog`` (migrate-check, gen_data.py, calibrate.py) as a fresh process; ``unprivileged``:
    without the capabilities that let root ignore file modes (for the permission cases)."""
    preexec = _drop_file_capabilities if unprivileged and os.geteuid() == 0 else None
    cmd = [sys.executable, "-c", MAIN[prog], *args]
    try:
        return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                              preexec_fn=preexec, **kw)
    except subprocess.SubprocessError as err:
        if "preexec_fn" in str(err):
            pytest.skip(f"cannot drop the file-mode capabilities here ({err})")
        raise


def need_unprivileged() -> None:
    """Skip unless a file mode can actually deny us: not root, or root able to drop its capabilities."""
    if os.geteuid() != 0:
        return
    probe = subprocess.run([sys.executable, "-c", "print(open('/proc/self/status').read())"], capture_output=True,
                           text=True, preexec_fn=_drop_file_capabilities, check=False)
    eff = [line.split()[1] for line in probe.stdout.splitlines() if line.startswith("CapEff:")]
    if probe.returncode != 0 or not eff or int(eff[0], 16) & (1 << CAP_DAC_OVERRIDE):
        pytest.skip("running as root without the capability to drop CAP_DAC_OVERRIDE")


def snapshot(root: str) -> dict[str, tuple]:
    """Every entry under ``root``: (kind, mode, content or link target), symlinks not followed."""
    out = {}
    for base, dirs, files in os.walk(root):
        for name in dirs + files:
            p = os.path.join(base, name)
            st = os.lstat(p)
            rel = os.path.relpath(p, root)
            if stat.S_ISLNK(st.st_mode):
                out[rel] = ("link", os.readlink(p))
            elif stat.S_ISREG(st.st_mode):
                with open(p, "rb") as fh:
                    out[rel] = ("file", stat.S_IMODE(st.st_mode), st.st_ino, fh.read())
            else:
                out[rel] = (stat.S_IFMT(st.st_mode), stat.S_IMODE(st.st_mode))
    return out


def leftovers(root: str) -> list[str]:
    """Temp files an output commit left behind under ``root``."""
    return [os.path.join(b, f) for b, _, files in os.walk(root) for f in files if f.startswith(TEMP_PREFIX)]


def interrupt_when(proc: subprocess.Popen, ready, sig: int = signal.SIGINT, timeout: float = 60) -> None:
    """Send ``sig`` to ``proc`` as soon as ``ready()`` is true (polling)."""
    import time

    end = time.monotonic() + timeout
    while not ready():
        if proc.poll() is not None or time.monotonic() > end:
            raise AssertionError(f"process ended (rc {proc.returncode}) before the interrupt point")
        time.sleep(0.01)
    proc.send_signal(sig)


#: path spellings a user might give, relative to a sandbox holding the entries made by ``sandbox()``
PATHS = ["out.json", "-", "", "dir", "dir/", "dir/new.json", "missing/x.json", "existing.json", "./existing.json",
         "link.json", "hard.json", "dangling.json", "loop.json", "/dev/null", "/proc/version", "n" * 300,
         "existing.json/x", "sub/../out.json", "dir/../existing.json", "ro.json", "a\0b", "/", ".", "dir/link.json"]


def sandbox() -> str:
    """A temp directory holding one of each hostile entry the PATHS spellings refer to."""
    root = tempfile.mkdtemp(prefix="mc-fuzz-")
    os.mkdir(os.path.join(root, "dir"))
    os.mkdir(os.path.join(root, "sub"))
    with open(os.path.join(root, "existing.json"), "w") as fh:
        fh.write("old")
    os.chmod(os.path.join(root, "existing.json"), 0o600)
    with open(os.path.join(root, "ro.json"), "w") as fh:
        fh.write("read-only")
    os.chmod(os.path.join(root, "ro.json"), 0o444)
    os.link(os.path.join(root, "existing.json"), os.path.join(root, "hard.json"))
    os.symlink("existing.json", os.path.join(root, "link.json"))
    os.symlink("../existing.json", os.path.join(root, "dir", "link.json"))
    os.symlink("dir/made.json", os.path.join(root, "dangling.json"))
    os.symlink("loop.json", os.path.join(root, "loop.json"))
    return root


def resolved(root: str, path: str) -> str:
    return os.path.realpath(os.path.join(root, path))


def check_invariants(root: str) -> None:
    """What no run may ever change: links stay links, the hard link stays one file, modes stay."""
    assert os.path.islink(os.path.join(root, "link.json")) and os.path.islink(os.path.join(root, "dangling.json"))
    assert os.path.samefile(os.path.join(root, "existing.json"), os.path.join(root, "hard.json"))
    assert stat.S_IMODE(os.stat(os.path.join(root, "existing.json")).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(os.path.join(root, "ro.json")).st_mode) == 0o444
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode) and os.path.isdir(os.path.join(root, "dir"))
    assert not leftovers(root)
