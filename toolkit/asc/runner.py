"""Run a built program in an isolated child process and collect what it did.

The child (``toolkit.asc.child``) runs in its own session with stdout/stderr captured; it appends one
record per finished launch to a results file, and the C++ runtime writes one status line if the program
crashes (signal or uncaught exception). A program past ``timeout`` seconds is killed with its process
group. Everything the run writes (generated data, the results) lives in a temporary run directory that
is removed afterwards: the directory the program believes it was built into.
"""
from __future__ import annotations

import contextlib
import json
import os
import pickle
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from toolkit.engine.launch import current_mode

from .build import Built

SIGNAL_NAMES = {signal.SIGSEGV: "segmentation fault (SIGSEGV)", signal.SIGBUS: "bus error (SIGBUS)",
                signal.SIGFPE: "arithmetic exception (SIGFPE)", signal.SIGILL: "illegal instruction (SIGILL)",
                signal.SIGABRT: "aborted (SIGABRT)", signal.SIGKILL: "killed (SIGKILL)"}


@dataclass
class ProgramRun:
    source: str
    exit_status: int | None
    stdout: str
    stderr: str
    launches: list[dict] = field(default_factory=list)
    failure: str | None = None         #: crash / timeout / internal error, one line; None if it ran to the end
    host_errors: list[dict] = field(default_factory=list)

    @property
    def launches_passed(self) -> bool:
        return all(lr["passed"] for lr in self.launches)


def _python_wrapper(bindir: Path) -> None:
    """``python3`` on the child's PATH is this interpreter (its environment has numpy): samples run their
    generators with ``std::system("python3 gen_data.py ...")``."""
    bindir.mkdir()
    for name in ("python3", "python"):
        p = bindir / name
        p.write_text(f"#!/bin/sh\nexec {shlex.quote(sys.executable)} \"$@\"\n")
        p.chmod(0o755)


def _child_env(built: Built, run_dir: Path, exe: Path, status_fd: int) -> dict[str, str]:
    env = dict(os.environ)
    pkg_root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = pkg_root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env["PATH"] = str(run_dir / "bin") + os.pathsep + env.get("PATH", "")
    env["LD_PRELOAD"] = str(built.shim) + (" " + env["LD_PRELOAD"] if env.get("LD_PRELOAD") else "")
    env["ASC_EXE"] = str(exe)
    env["ASC_STATUS_FD"] = str(status_fd)
    return env


def run_program(built: Built, args: list[str], timeout: float | None = None, trace: bool = False,
                cwd: str | None = None, keep_events: bool = False, vf_fusion: bool = False,
                timeline: bool = False) -> ProgramRun:
    """Run ``built`` with ``args``; ``keep_events`` also returns every launch's raw event streams,
    ``timeline`` the slowest core's pipe timeline (for the HTML report)."""
    run_dir = Path(tempfile.mkdtemp(prefix="migrate-check-run-"))
    try:
        return _run_in(run_dir, built, args, timeout, trace, cwd, keep_events, vf_fusion, timeline)
    finally:
        shutil.rmtree(run_dir, ignore_errors=True)


def _run_in(run_dir: Path, built: Built, args: list[str], timeout, trace: bool, cwd, keep_events: bool,
            vf_fusion: bool = False, timeline: bool = False) -> ProgramRun:
    exe = run_dir / built.source.stem
    exe.write_bytes(b"")                    # the program's own path exists, as an executable would
    _python_wrapper(run_dir / "bin")
    results = run_dir / "results.pkl"
    spec = {"library": str(built.library), "exe": str(exe), "results": str(results),
            "kernel_params": built.kernel_params, "trace": trace, "keep_events": keep_events,
            "vf_fusion": vf_fusion, "timeline": timeline, "mode": current_mode()}
    (run_dir / "spec.json").write_text(json.dumps(spec))
    status_r, status_w = os.pipe()
    cmd = [sys.executable, "-m", "toolkit.asc.child", str(run_dir / "spec.json"), "--", *args]
    try:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                                env=_child_env(built, run_dir, exe, status_w), pass_fds=(status_w,),
                                start_new_session=True, cwd=cwd)
    finally:
        os.close(status_w)
    timed_out = False
    try:
        with _progress(built, results):
            out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        try:
            os.kill(proc.pid, signal.SIGUSR1)      # the runtime writes where the program is
            out, err = proc.communicate(timeout=1.0)
        except (subprocess.TimeoutExpired, ProcessLookupError):
            pass
        _kill_group(proc)
        out, err = proc.communicate()
    except BaseException:
        _kill_group(proc)
        proc.communicate()
        raise
    status_text = _read_all(status_r)
    records = _records(results)
    return _result(built, proc.returncode, out, err, records, status_text, timed_out, timeout)


@contextlib.contextmanager
def _progress(built: Built, results: Path):
    """On a terminal, after 2 s: ``running NAME: N launch(es) done, elapsed`` (the child appends one
    record per finished launch to ``results``; they are counted when the file grows)."""
    from toolkit.console.progress import ProgressLine
    line = ProgressLine(None, "launch(es)")
    line.note = f"running {built.source.name}"
    seen = [-1]

    def poll() -> None:
        try:
            size = results.stat().st_size
        except OSError:
            return
        if size != seen[0]:
            seen[0] = size
            line.done = sum(1 for r in _records(results) if r.get("kind") == "launch")

    if not line.enabled:
        yield
        return
    draw = line.draw
    line.draw = lambda: (poll(), draw())           # the ticking thread polls before each redraw
    with line.ticking():
        yield


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def _read_all(fd: int) -> str:
    with os.fdopen(fd, "rb") as fh:
        return fh.read().decode(errors="replace")


def _records(path: Path) -> list[dict]:
    out = []
    try:
        with open(path, "rb") as fh:
            while True:
                try:
                    out.append(pickle.load(fh))
                except EOFError:
                    break
                except (pickle.UnpicklingError, ValueError, AttributeError, ImportError) as err:
                    out.append({"kind": "truncated", "why": f"{type(err).__name__}: {err}"})
                    break                        # a record cut short by a crash, or unreadable
    except OSError:
        pass
    return out


def _result(built: Built, code: int, out: bytes, err: bytes, records: list[dict], status: str,
            timed_out: bool, timeout) -> ProgramRun:
    launches = [r for r in records if r.get("kind") == "launch"]
    if code is not None and code < 0 and records and records[-1].get("kind") == "truncated":
        records = records[:-1]                    # the crash cut the last record: the crash is the news
    host_errors = [r for r in records if r.get("kind") == "host_error"]
    run = ProgramRun(str(built.source), code, out.decode(errors="replace"), err.decode(errors="replace"),
                     launches, None, host_errors)
    where = _status_where(status)
    if timed_out:
        run.exit_status = None
        run.failure = f"timed out after {timeout:g} s{where}: the program was stopped"
    elif code is not None and code < 0:
        sig = -code
        what = status.split("\t", 1)[0] if status.strip() else ""
        name = SIGNAL_NAMES.get(sig, f"signal {sig}")
        run.failure = (what if what.startswith("uncaught") else f"crashed: {name}") + where
        run.exit_status = 128 + sig
    elif code == 70 and "migrate-check runtime:" in run.stderr:
        run.failure = "internal error of the emulator bridge: " + run.stderr.strip().splitlines()[-1]
    elif records and records[-1].get("kind") == "truncated":
        run.failure = "internal error: the run's results are unreadable (" + records[-1]["why"] + ")"
    return run


def _status_where(status: str) -> str:
    parts = status.strip().split("\n")[-1].split("\t") if status.strip() else []
    if len(parts) >= 5 and parts[1] != "?":
        kernel = f" in kernel {parts[3]} core {parts[4]}" if parts[3] else ""
        return f" after the API call at {os.path.relpath(parts[1]) if os.path.isabs(parts[1]) else parts[1]}:{parts[2]}{kernel}"
    return ""
