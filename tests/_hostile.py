"""Helpers of the hostile-input tests: in-process and subprocess runs, a non-root process, file-tree
snapshots (nothing changed / nothing left behind)."""
from __future__ import annotations

import io
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from typing import Iterator

import pytest

from toolkit import cli
from toolkit.outputs import TEMP_PREFIX

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KV = "kv_rms_norm_rope_cache"
SMALL = ("--batch", "1", "--seq", "16")
NOBODY = 65534
MAIN = {"migrate-check": "from toolkit.cli import main; main()",
        "gen_data.py": "import runpy; runpy.run_path('%s/scripts/gen_data.py', run_name='__main__')" % REPO,
        "calibrate.py": "import runpy; runpy.run_path('%s/scripts/calibrate.py', run_name='__main__')" % REPO}


def invoke(*args: str) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of ``migrate-check ARGS`` in process."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = cli.main(list(args))
    return code, out.getvalue(), err.getvalue()


def assert_error_line(code: int, err: str, prog: str = "migrate-check", *needles: str) -> None:
    """Exit 2 with exactly one line on stderr, no traceback, naming every needle."""
    assert code == 2, err
    assert err.count("\n") == 1 and err.startswith(f"{prog}: error: ") and "Traceback" not in err, err
    for n in needles:
        assert n in err, (n, err)


def _drop_to_nobody() -> None:
    os.setgroups([])
    os.setgid(NOBODY)
    os.setuid(NOBODY)


def run(prog: str, *args: str, cwd: str | None = None, nobody: bool = False, timeout: float = 120,
        **kw) -> subprocess.CompletedProcess:
    """Run ``prog`` (migrate-check, gen_data.py, calibrate.py) as a fresh process, optionally as a
    non-root user (for the permission cases; root bypasses file modes)."""
    preexec = None
    if nobody and os.geteuid() == 0:
        preexec = _drop_to_nobody
    cmd = [sys.executable, "-c", MAIN[prog], *args]
    try:
        return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                              preexec_fn=preexec, **kw)
    except subprocess.SubprocessError as err:
        if "preexec_fn" in str(err):
            pytest.skip(f"cannot run as a non-root user here ({err})")
        raise


def need_unprivileged() -> None:
    """Skip unless a permission can actually be denied: we are not root, or can become nobody."""
    if os.geteuid() != 0:
        return
    probe = subprocess.run([sys.executable, "-c", "import os; print(os.geteuid())"], capture_output=True,
                           text=True, preexec_fn=_drop_to_nobody, check=False)
    if probe.returncode != 0 or probe.stdout.strip() != str(NOBODY):
        pytest.skip("running as root without the capability to drop to an unprivileged user")


@contextmanager
def shared_dir() -> Iterator[str]:
    """A temp directory the unprivileged user may use (pytest's tmp_path is 0700 root's)."""
    path = tempfile.mkdtemp(prefix="mc-hostile-", dir="/tmp")
    os.chmod(path, 0o777)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def give_to_nobody(*paths: str) -> None:
    if os.geteuid() == 0:
        for p in paths:
            os.chown(p, NOBODY, NOBODY)


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
