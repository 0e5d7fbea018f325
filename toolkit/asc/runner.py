"""Run a built program in an isolated child process and collect what it did.

The child (``toolkit.asc.child``) is an owned process (``toolkit.console.children``): its own session,
its whole tree killed when the run ends, however it ends; ``timeout`` (or the ``deadline`` the build
already used) bounds the run, and a background process the program leaves behind neither extends the run
nor outlives it. Records come back over a pipe the tool created (``channel.py``: data only, checked); the
C++ runtime writes one status line on another if the program crashes, is stopped, or the runtime fails.
Everything the run writes lives in a private run directory removed afterwards::

    RUN/exe/NAME        the executable the program believes it is (its directory: generated data), unless
                        it runs as the executable it was built as (``exe_path``)
    RUN/tools/bin/      python3 / python: this interpreter (the samples' gen_data scripts)
    RUN/tools/spec.json what the child is to do
"""
from __future__ import annotations

import contextlib
import contextvars
import json
import os
import shlex
import signal
import sys
from dataclasses import dataclass, field
from pathlib import Path

from toolkit.console.children import Deadline, Owned, scratch_dir
from toolkit.engine.launch import current_mode

from .build import Built
from .channel import Reader
from .errors import printable

SIGNAL_NAMES = {signal.SIGSEGV: "segmentation fault (SIGSEGV)", signal.SIGBUS: "bus error (SIGBUS)",
                signal.SIGFPE: "arithmetic exception (SIGFPE)", signal.SIGILL: "illegal instruction (SIGILL)",
                signal.SIGABRT: "aborted (SIGABRT)", signal.SIGKILL: "killed (SIGKILL)"}
#: seconds the program has to say where it was when the timeout stops it
STOP_REPORT_S = 1.0


@dataclass
class ProgramRun:
    source: str
    exit_status: int | None
    stdout: str
    stderr: str
    launches: list[dict] = field(default_factory=list)
    failure: str | None = None         #: crash / timeout / internal error, one line; None if it ran to the end
    host_errors: list[dict] = field(default_factory=list)
    stdout_bytes: bytes = b""          #: the program's stdout as it wrote it (``stdout`` is it decoded)

    @property
    def launches_passed(self) -> bool:
        return all(lr["passed"] for lr in self.launches)


def exe_name(source: Path) -> str:
    """The executable's name: the source's stem, or ``program`` when the stem is no file name."""
    stem = source.name[:-4] if source.name.endswith(".asc") else source.stem
    return stem if stem not in ("", ".", "..") else "program"


def _layout(run_dir: Path, built: Built, exe_path: str | None) -> Path:
    if exe_path is not None:                # the program runs as the executable it was built as
        exe = Path(exe_path)
    else:
        (run_dir / "exe").mkdir()
        exe = run_dir / "exe" / exe_name(built.source)
        exe.write_bytes(b"")                # the program's own path exists, as an executable would
        exe.chmod(0o755)
    bindir = run_dir / "tools" / "bin"
    bindir.mkdir(parents=True)
    for name in ("python3", "python"):     # python3 on the child's PATH is this interpreter (numpy)
        p = bindir / name
        p.write_text(f"#!/bin/sh\nexec {shlex.quote(sys.executable)} \"$@\"\n")
        p.chmod(0o755)
    return exe


def _child_env(built: Built, run_dir: Path, exe: Path, result_fd: int, status_fd: int) -> dict[str, str]:
    env = dict(os.environ)
    pkg_root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = pkg_root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env["PATH"] = str(run_dir / "tools" / "bin") + os.pathsep + env.get("PATH", "")
    env["LD_PRELOAD"] = str(built.shim) + (" " + env["LD_PRELOAD"] if env.get("LD_PRELOAD") else "")
    env["ASC_EXE"] = str(exe)
    env["ASC_RESULT_FD"] = str(result_fd)
    env["ASC_STATUS_FD"] = str(status_fd)
    from toolkit.ascendc.regbase.loopbatch import batching_on
    if not batching_on():                     # --unbatched-loops / loop_batching(False) reach the program
        env["MIGRATE_CHECK_LOOP_BATCH"] = "0"
    return env


def run_program(built: Built, args: list[str], timeout: float | None = None, trace: bool = False,
                cwd: str | None = None, keep_events: bool = False, vf_fusion: bool = False,
                timeline: bool = False, deadline: Deadline | None = None, exe_path: str | None = None,
                argv0: str | None = None, perturbation=None) -> ProgramRun:
    """Run ``built`` with ``args``; ``keep_events`` also returns every launch's raw event streams,
    ``timeline`` the slowest core's pipe timeline (for the HTML report). ``deadline`` (shared with the
    build) or ``timeout`` seconds bound the run. ``exe_path``: the program is that executable (run
    directly: its own path, not one in the run directory), started as ``argv0``. ``perturbation``: the
    :class:`toolkit.ascendc.numerics.Perturbation` the program's kernels run under (the precision envelope)."""
    deadline = deadline or Deadline(timeout)
    with scratch_dir("migrate-check-run-") as run_dir:
        opts = {"trace": trace, "keep_events": keep_events, "vf_fusion": vf_fusion, "timeline": timeline,
                **({"perturbation": perturbation.to_json()} if perturbation is not None else {})}
        return _run_in(Path(run_dir), built, list(args), deadline, cwd, opts, exe_path, argv0)


def _run_in(run_dir: Path, built: Built, args: list[str], deadline: Deadline, cwd, opts: dict,
            exe_path: str | None = None, argv0: str | None = None) -> ProgramRun:
    exe = _layout(run_dir, built, exe_path)
    spec = {"library": str(built.library), "exe": str(exe), "kernel_params": built.kernel_params,
            "mode": current_mode(), **opts, **({"argv0": argv0} if argv0 is not None else {})}
    spec_path = run_dir / "tools" / "spec.json"
    spec_path.write_text(json.dumps(spec))
    reader = Reader()
    results_r, results_w = os.pipe()
    status_r, status_w = os.pipe()
    try:
        env = _child_env(built, run_dir, exe, results_w, status_w)
        cmd = [sys.executable, "-m", "toolkit.asc.child", str(spec_path), "--", *args]
        child = Owned(cmd, env=env, cwd=cwd, pass_fds=(results_w, status_w),
                      extra={"results": results_r, "status": status_r}, keep=("stdout", "stderr", "status"))
    except BaseException:
        os.close(results_r)
        os.close(status_r)
        raise
    finally:
        os.close(results_w)
        os.close(status_w)
    with child, _progress(built, reader) as on_data:
        timed_out = not child.pump(deadline, on_data)
        if timed_out:
            with contextlib.suppress(ProcessLookupError):
                os.kill(child.pid, signal.SIGUSR1)      # the runtime writes where the program is
            child.pump(Deadline(STOP_REPORT_S), on_data, until=lambda: b"\n" in child.data["status"])
        code = child.close(on_data)
    reader.finish()
    status = bytes(child.data["status"]).decode("utf-8", "surrogateescape")
    return _result(built, code, child.output("stdout"), child.output("stderr"), reader, status,
                   timed_out, deadline)


#: the one progress line of programs run side by side (:func:`programs_progress`), with each one's launches
_SHARED_LINE: contextvars.ContextVar[tuple | None] = contextvars.ContextVar("programs_line", default=None)


@contextlib.contextmanager
def programs_progress(names: list[str]):
    """One line for the programs run inside the block at the same time (each in a thread made under a
    copy of this context: :func:`toolkit.console.children.beside`): ``running A, B: N launch(es) done``."""
    from toolkit.console.progress import ProgressLine
    line = ProgressLine(None, "launch(es)")
    line.note = "running " + ", ".join(printable(n) for n in names)
    token = _SHARED_LINE.set((line, {}))
    try:
        with line.ticking():                   # a line that is not shown draws nothing
            yield
    finally:
        _SHARED_LINE.reset(token)


def side_by_side(jobs: list, names: list[str], workers: int | None = None) -> list:
    """Each of ``jobs`` (functions that build and run a program, ``names`` the programs) called, their
    results in order: side by side (:func:`toolkit.console.children.beside`, one progress line) when
    ``workers`` (default: the usable CPUs) allows two, else one after the other. The same runs either way."""
    from toolkit.console.children import beside, usable_cpus
    if (workers if workers is not None else usable_cpus()) < 2 or len(jobs) < 2:
        return [job() for job in jobs]
    with programs_progress(names):
        return beside(list(jobs))


@contextlib.contextmanager
def _progress(built: Built, reader: Reader):
    """Records to ``reader`` as they arrive; on a terminal, after 2 s: ``running NAME: N launch(es) done,
    elapsed`` (or the shared line of :func:`programs_progress`). Yields the pipe callback of
    :meth:`Owned.pump`."""
    shared = _SHARED_LINE.get()
    if shared is not None:
        yield _shared_on_data(reader, *shared)
        return
    from toolkit.console.progress import ProgressLine
    line = ProgressLine(None, "launch(es)")
    line.note = f"running {printable(built.source.name)}"

    def on_data(name: str, chunk: bytes) -> None:
        if name == "results":
            reader.feed(chunk)
            line.done = reader.count("launch")

    if not line.enabled:
        yield on_data
        return
    with line.ticking():
        yield on_data


def _shared_on_data(reader: Reader, line, counts: dict):
    def on_data(name: str, chunk: bytes) -> None:
        if name == "results":
            reader.feed(chunk)
            counts[id(reader)] = reader.count("launch")
            line.update(sum(counts.values()))
    return on_data


def _result(built: Built, code: int, out: bytes, err: bytes, reader: Reader, status: str,
            timed_out: bool, deadline: Deadline) -> ProgramRun:
    records = reader.records
    run = ProgramRun(str(built.source), code, out.decode(errors="replace"), err.decode(errors="replace"),
                     [r for r in records if r["kind"] == "launch"], None,
                     [r for r in records if r["kind"] == "host_error"], out)
    run.failure = _failure(code, reader, _status(status), timed_out, deadline)
    if run.failure is not None:                   # a crash has a shell's status; a timeout or a tool failure none
        run.exit_status = 128 - code if code is not None and code < 0 and not timed_out else None
    return run


def _failure(code: int, reader: Reader, status: list[str], timed_out: bool, deadline: Deadline) -> str | None:
    """The run's failure line (``CODE: ...``), or None when the program ran to its own end."""
    tool = next((r for r in reader.records if r["kind"] == "tool_error"), None)
    logs = [r["text"] for r in reader.records if r["kind"] == "log"]
    where = _where(status)
    what = status[0] if status else ""
    if timed_out:
        return f"TIMEOUT: timed out after {deadline.seconds:g} s{where}: the program was stopped"
    if reader.error is not None:
        return f"INTERNAL_ERROR: the run's results are unreadable ({reader.error})"
    if tool is not None:
        return f"{tool.get('code', 'INTERNAL_ERROR')}: {printable(tool['message'])}"
    if what.startswith("internal error"):
        detail = printable(logs[-1].strip().splitlines()[-1]) if logs and logs[-1].strip() else ""
        return f"INTERNAL_ERROR: {printable(what)}" + (f" ({detail})" if detail else "")
    if code is not None and code < 0:
        if what.startswith("uncaught"):
            return f"UNCAUGHT_EXCEPTION: {printable(what)}{where}"
        return f"CRASH: {SIGNAL_NAMES.get(-code, f'signal {-code}')}{where}"
    if reader.truncated:
        return "INTERNAL_ERROR: the run's results were cut short"
    return None


def _status(text: str) -> list[str]:
    lines = [ln for ln in text.split("\n") if ln.strip()]
    return lines[-1].split("\t") if lines else []


def _where(parts: list[str]) -> str:
    """`` after the API call at FILE:LINE in kernel K core C`` (or ``in the loop at`` ...) from a status line."""
    if len(parts) < 5 or parts[1] == "?":
        return ""
    file = os.path.relpath(parts[1]) if os.path.isabs(parts[1]) and not parts[1].startswith("/proc") else parts[1]
    kind = parts[5] if len(parts) > 5 else "api"
    site = {"loop": "in the loop at", "vf": "in the VF at", "launch": "in the launch at",
            "after-launch": "after the launch at"}.get(kind, "after the API call at")
    kernel = f" in kernel {parts[3]} core {parts[4]}" if parts[3] else ""
    return printable(f" {site} {file}:{parts[2]}{kernel}")
