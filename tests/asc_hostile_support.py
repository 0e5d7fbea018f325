"""Helpers of the hostile `.asc` route tests (tests/test_asc_hostile.py): tiny programs, the tool as a
subprocess that can be signalled, process-tree and leftover checks, a private cache that already holds our
runtime objects (copied from the shared one, so a test pays for its own program's build only)."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests._hostile import MAIN, REPO
from toolkit.asc.build import build, cache_root
from toolkit.console.children import descendants, proc_table

PY = sys.executable
#: a program that only needs the C library (fast to build)
PLAIN = "#include <cstdio>\nint main(int argc, char** argv) { std::printf(\"ok\\n\"); return 0; }\n"


def write_bytes(path: Path, data: bytes | str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    return path


def warm_runtime(tmp: Path) -> Path:
    """The shared cache with our runtime objects built (one tiny program built into it)."""
    build(write_bytes(tmp / "warm" / "warm.asc", PLAIN))
    return cache_root() / "runtime"


def private_cache(tmp: Path, runtime: Path) -> Path:
    """A new cache directory holding a copy of the runtime entries."""
    root = tmp / "cache"
    root.mkdir(mode=0o700)
    shutil.copytree(runtime, root / "runtime")
    for p in [root / "runtime", *(root / "runtime").rglob("*")]:
        p.chmod(0o700 if p.is_dir() else 0o644)
    return root


def tool(*args: str, env: dict | None = None, **kw) -> subprocess.Popen:
    """``migrate-check ARGS`` as a subprocess of the test (own stdout/stderr pipes)."""
    full = dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get("PYTHONPATH", ""), **(env or {}))
    return subprocess.Popen([PY, "-c", MAIN["migrate-check"], *args], env=full, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=kw.pop("cwd", REPO), **kw)


def comm(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return ""


def alive(pid: int) -> bool:
    table = proc_table() or {}
    return pid in table and table[pid][1] not in "ZX"


def wait_for_children(root: int, name: str, count: int, timeout: float = 60.0) -> set[int]:
    """The pids of ``count`` live processes called ``name`` below ``root`` (waits for them to appear)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        table = proc_table() or {}
        found = {p for p in descendants([root], table) if comm(p) == name and table[p][1] not in "ZX"}
        if len(found) >= count:
            return found
        time.sleep(0.05)
    raise AssertionError(f"no {count} {name} processes under {root} after {timeout} s")


def processes_mentioning(text: str) -> list[int]:
    """Live processes whose command line contains ``text`` (leftovers of a test's tool run)."""
    out = []
    needle = text.encode()
    for pid in (proc_table() or {}):
        if pid == os.getpid():
            continue
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if needle in cmdline and alive(pid):
            out.append(pid)
    return out


def no_leftovers(text: str, for_s: float = 1.0) -> list[int]:
    """Processes mentioning ``text`` seen during ``for_s`` seconds (none start after the tool is gone)."""
    end = time.monotonic() + for_s
    seen: set[int] = set()
    while time.monotonic() < end:
        seen |= set(processes_mentioning(text))
        time.sleep(0.1)
    return sorted(seen)


def interrupt(proc: subprocess.Popen, sig: int = signal.SIGINT, timeout: float = 20.0) -> tuple[int, str, float]:
    """Send ``sig`` to the tool; (exit code, stderr, seconds until it exited)."""
    t0 = time.monotonic()
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=timeout)
    return proc.returncode, err.decode(errors="replace"), time.monotonic() - t0


def files_in(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if not p.is_dir())
