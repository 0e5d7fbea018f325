"""Every child process the tool starts (the C++ compiler, an ``.asc`` program, sweep workers), owned from
start to end: one deadline, one way to stop it with everything it started, and nothing left behind.

* :class:`Owned` starts a command in its **own session** (a terminal's Ctrl-C reaches the tool only; the
  tool decides) and is closed on every exit path (``with``: normal end, exception, timeout, the
  :class:`~toolkit.cli.Interrupted` of SIGINT/SIGTERM/SIGHUP). Closing kills the **whole tree**: the child,
  everything descended from it, and the processes that left its session (``setsid``, a daemon's double
  fork). The owning process is a *child subreaper* (``prctl(PR_SET_CHILD_SUBREAPER)``, Linux): an orphan
  of the tree is re-parented to it instead of init, so it can still be found (``/proc``) and killed. No
  cgroup is needed. Processes are frozen (SIGSTOP) before they are killed, so none can fork meanwhile.
* The tool never waits for end-of-file on a pipe: a background process of the program (``system("sleep
  25 &")``) holds the program's stdout for as long as it lives. :meth:`Owned.pump` reads the pipes until
  the child itself exits (a pidfd) or the :class:`Deadline` passes; the tree is then killed and what is
  left in the pipes is read for at most a short grace period. Captured output is bounded.
* :func:`beside` runs work made of owned children (a build, a program) in threads side by side, and on a
  failure or an interrupt kills what the other threads still run before it raises.
* :func:`scratch_dir` is a temp directory removed on every exit path (signals held while it is made and
  removed, so an interrupt cannot leave it half made); a compiler gets one as its ``$TMPDIR``.

Why hand-written: no library owns a process tree without cgroups; ``subprocess`` kills only the child
and waits for EOF on pipes that grandchildren inherit.
"""
from __future__ import annotations

import contextlib
import ctypes
import errno
import functools
import math
import os
import select
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from typing import Callable, Iterable, Iterator

from .outputs import held_signals

PR_SET_CHILD_SUBREAPER = 36
PR_SET_PDEATHSIG = 1
#: bytes of a child's stdout / stderr the tool keeps (the rest is counted, not kept)
CAPTURE_LIMIT = 64 << 20
#: seconds to read what is left in the pipes once the tree is dead (a process outside the tree may hold them)
DRAIN_S = 1.0
#: seconds to wait for a SIGSTOPped process to be stopped before the tree is looked at again
STOP_WAIT_S = 1.0
#: seconds :func:`kill_tree` goes on finding and stopping processes while each round finds new ones
FREEZE_S = 5.0
_READ = 1 << 16

_subreaper_pid: int | None = None
_live: dict[int, "Owned"] = {}
#: held while a child is started and registered, and while a tree is found and killed: the threads of one
#: process (two programs built and run at a time) must not see each other's just-started child as an
#: unowned orphan and kill it
_spawn_lock = threading.RLock()


class Deadline:
    """One time budget (seconds, None: none) shared by the steps of a command (build, then run)."""

    def __init__(self, seconds: float | None):
        if seconds is not None and not (math.isfinite(seconds) and seconds > 0):
            raise ValueError(f"a deadline needs a positive finite number of seconds (got {seconds!r})")
        self.seconds = seconds
        self.end = None if seconds is None else time.monotonic() + seconds

    def remaining(self) -> float | None:
        return None if self.end is None else max(self.end - time.monotonic(), 0.0)

    @property
    def expired(self) -> bool:
        return self.end is not None and time.monotonic() >= self.end


def die_with_parent(parent: int) -> None:
    """This process (a forked worker) is killed when its parent ``parent`` dies, even by SIGKILL
    (``prctl(PR_SET_PDEATHSIG)``, Linux); a parent already gone ends it now."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent:
        os._exit(128 + signal.SIGKILL)


def become_subreaper() -> bool:
    """Make this process the child subreaper of its descendants (once per process; Linux only)."""
    global _subreaper_pid
    if _subreaper_pid == os.getpid():
        return True
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        ok = libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        ok = False
    if ok:
        _subreaper_pid = os.getpid()
    return ok


def proc_table() -> dict[int, tuple[int, str]] | None:
    """pid -> (parent pid, state letter) of every process visible in /proc; None without /proc."""
    try:
        names = os.listdir("/proc")
    except OSError:
        return None
    table = {}
    for name in names:
        if name.isdigit():
            got = _stat(name)
            if got is not None:                    # (None: gone meanwhile)
                table[int(name)] = got
    return table


def _stat(pid) -> tuple[int, str] | None:
    """(parent pid, state letter) of ``pid`` from ``/proc/PID/stat``; None when it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            stat = fh.read()
    except OSError:
        return None
    fields = stat[stat.rfind(b")") + 2:].split()  # the command name may hold spaces and ')'
    return (int(fields[1]), fields[0].decode("ascii", "replace")) if len(fields) >= 2 else None


def children_of(pid: int, table: dict[int, tuple[int, str]]) -> set[int]:
    return {p for p, (pp, _) in table.items() if pp == pid}


def descendants(roots: Iterable[int], table: dict[int, tuple[int, str]]) -> set[int]:
    """``roots`` (those alive) and every process below them in ``table``."""
    kids: dict[int, list[int]] = {}
    for p, (pp, _) in table.items():
        kids.setdefault(pp, []).append(p)
    out, todo = set(), [r for r in roots if r in table]
    while todo:
        p = todo.pop()
        if p not in out:
            out.add(p)
            todo.extend(kids.get(p, ()))
    return out


def _signal_all(pids: Iterable[int], sig: int) -> None:
    for p in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(p, sig)


def kill_tree(roots: Iterable[int], spare: Iterable[int] = ()) -> set[int]:
    """SIGKILL ``roots`` and everything below them, including the orphans of the tree this process
    adopted as subreaper (its children not in ``spare`` and not owned by another :class:`Owned`). Each
    round freezes what it finds (SIGSTOP) so nothing forks between finding and killing. Returns every pid
    killed: the roots are for their owners to reap, the others for :func:`reap` once the roots are."""
    with _spawn_lock:
        return _kill_tree(set(roots), set(spare))


def _kill_tree(roots: set[int], spare: set[int]) -> set[int]:
    keep = spare | {p for p in _live if p not in roots}
    found, dead = (_freeze_walk if _children_listed() else _freeze_table)(roots, keep)
    if found is None:                              # no /proc: the session of each root is all we know
        for r in roots:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(r, signal.SIGKILL)
        return set()
    _signal_all(found, signal.SIGKILL)
    _signal_all(found, signal.SIGCONT)             # a stopped process dies of SIGKILL anyway; be sure
    return found | dead


def _freeze_walk(roots: set[int], keep: set[int]) -> tuple[set[int], set[int]]:
    """Stop the tree one process at a time, each before its children are read (``/proc/PID/task/TID/
    children``), so a stopped parent's list is final; rounds start again from this process's adopted
    orphans until one finds nothing new. Reading a few small files per process keeps a round short, so
    even a chain that forks and exits every few milliseconds (each step re-parented to us) is caught.
    (found: stopped, to kill; dead: zombies of the tree, for :func:`reap`.)"""
    me, found, dead = os.getpid(), set(), set()
    end = time.monotonic() + FREEZE_S
    while True:
        todo, seen, new = list(roots) + [p for p in _kids(me) if p not in keep], set(), False
        while todo:
            p = todo.pop()
            if p in seen:
                continue
            seen.add(p)
            state = _state(p)
            if state is None:
                continue
            if state in "ZX":
                dead.add(p)
                continue
            if p not in found:
                _signal_all((p,), signal.SIGSTOP)
                _wait_stopped({p})
                found.add(p)
                new = True
            todo.extend(_kids(p))
        if not new or time.monotonic() >= end:
            return found, dead - roots


def _freeze_table(roots: set[int], keep: set[int]) -> tuple[set[int] | None, set[int]]:
    """:func:`_freeze_walk` for a kernel without the ``children`` files: whole-``/proc`` rounds."""
    me, found, dead = os.getpid(), set(), set()
    for _ in range(50):
        table = proc_table()
        if table is None:
            return None, set()
        adopted = children_of(me, table) - keep - roots
        tree = descendants(roots | adopted, table)
        new = {p for p in tree - found if table[p][1] not in "ZX"}
        dead |= {p for p in tree - roots if table[p][1] == "Z"}
        if not new:
            break
        _signal_all(new, signal.SIGSTOP)
        _wait_stopped(new)
        found |= new
    return found, dead


@functools.lru_cache(maxsize=None)
def _children_listed() -> bool:
    """Whether the kernel lists a task's children (``CONFIG_PROC_CHILDREN``): looked at once."""
    return os.path.exists(f"/proc/self/task/{threading.get_native_id()}/children")


def _kids(pid: int) -> list[int]:
    """The children of every thread of ``pid`` (an orphan is re-parented to one thread of a subreaper)."""
    out: list[int] = []
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for tid in tids:
        try:
            with open(f"/proc/{pid}/task/{tid}/children", "rb") as fh:
                out += [int(c) for c in fh.read().split()]
        except OSError:
            continue
    return out


def _state(pid: int) -> str | None:
    """The state letter of ``pid`` (None: gone)."""
    got = _stat(pid)
    return None if got is None else got[1]


def _wait_stopped(pids: set[int], wait_s: float = STOP_WAIT_S) -> None:
    """Wait until each of ``pids`` has stopped or died. A SIGSTOP is only pending until its target next
    leaves the kernel: a fork already under way completes first, and its child must be seen after it
    (the daemon double fork raced this). A process that does not stop within ``wait_s`` (uninterruptible
    sleep) is taken as it is."""
    end = time.monotonic() + wait_s
    todo, pause = set(pids), 0.0
    while todo:
        todo = {p for p in todo if (_state(p) or "X") not in "TtZX"}
        if not todo or time.monotonic() >= end:
            return
        time.sleep(pause)                          # first a yield (the target often stops at once)
        pause = min(pause * 2 or 0.0002, 0.005)


def reap(pids: Iterable[int], wait_s: float = 2.0) -> None:
    """Collect the exit status of killed processes that are (or, as their parents die, become) this
    process's children, so no zombie is left; a pid that is gone, or belongs to no one of ours, is let go."""
    end = time.monotonic() + wait_s
    todo = set(pids)
    while todo:
        for p in list(todo):
            try:
                got, _ = os.waitpid(p, os.WNOHANG)
            except ChildProcessError:
                got = 0                          # not (yet) ours: its dying parent still holds it
            if got:
                todo.discard(p)
        if not todo or time.monotonic() >= end:
            return
        table = proc_table()
        if table is None:
            return
        todo = {p for p in todo if p in table}    # one that is gone was reaped by its own parent
        time.sleep(0.01)


class Owned:
    """A child process in its own session, with its stdout/stderr captured (bounded) and its whole tree
    killed by :meth:`close` (see the module docstring). Use as a context manager. ``extra``: more pipes
    to read (name -> the read end, closed with the child); ``keep``: the streams whose bytes are kept
    (default all; the others only go to ``on_data``)."""

    def __init__(self, cmd: list[str], *, env: dict | None = None, cwd: str | None = None,
                 pass_fds: tuple = (), extra: dict[str, int] | None = None, limit: int = CAPTURE_LIMIT,
                 keep: tuple[str, ...] | None = None):
        become_subreaper()
        self.limit = limit
        with held_signals(), _spawn_lock:
            if _stopping.is_set() and threading.current_thread() is not threading.main_thread():
                raise Stopped(f"not started (the work beside it is being stopped): {cmd[0]}")
            table = proc_table() or {}
            self._before = children_of(os.getpid(), table)
            self.proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, env=env, cwd=cwd, pass_fds=pass_fds,
                                         start_new_session=True)
            _live[self.proc.pid] = self
        self.pid = self.proc.pid
        self.fds: dict[str, int] = {"stdout": self.proc.stdout.fileno(), "stderr": self.proc.stderr.fileno(),
                                    **(extra or {})}
        self.data: dict[str, bytearray] = {name: bytearray() for name in self.fds}
        self.keep = set(self.fds if keep is None else keep)      #: the streams whose bytes are kept
        self.dropped: dict[str, int] = {name: 0 for name in self.fds}
        self._open = dict(self.fds)
        self._pidfd = _pidfd(self.pid)
        self.returncode: int | None = None
        self._closed = False

    # -- reading ---------------------------------------------------------------------------------
    def exited(self) -> bool:
        """Whether the child itself has ended (it is not reaped: its status stays for :meth:`close`)."""
        try:
            info = os.waitid(os.P_PID, self.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return True
        return info is not None

    def pump(self, deadline: Deadline | None = None, on_data: Callable[[str, bytes], None] | None = None,
             until: Callable[[], bool] | None = None) -> bool:
        """Read the child's pipes until it exits (True), the deadline passes or ``until()`` is true (False).
        ``on_data(name, chunk)`` sees every chunk as it arrives (for a stream parsed on the fly)."""
        while True:
            if self.exited():
                return True
            if (deadline is not None and deadline.expired) or (until is not None and until()):
                return False
            left = deadline.remaining() if deadline is not None else None
            wait = 0.25 if left is None else min(0.25, left)
            self._read_ready(wait, on_data)

    def _read_ready(self, wait: float, on_data) -> None:
        watched = list(self._open.values()) + ([self._pidfd] if self._pidfd is not None else [])
        if not self._open and self._pidfd is None:
            time.sleep(min(wait, 0.05))
            return
        try:
            ready, _, _ = select.select(watched, [], [], wait if self._pidfd is not None else min(wait, 0.05))
        except (OSError, ValueError):
            return
        for name, fd in list(self._open.items()):
            if fd in ready:
                self._read_one(name, fd, on_data)

    def _read_one(self, name: str, fd: int, on_data) -> None:
        try:
            chunk = os.read(fd, _READ)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        if not chunk:
            del self._open[name]
            return
        if on_data is not None:
            on_data(name, chunk)
        if name not in self.keep:
            return
        buf = self.data[name]
        room = self.limit - len(buf)
        if room > 0:
            buf += chunk[:room]
        self.dropped[name] += max(len(chunk) - max(room, 0), 0)

    def drain(self, grace: float = DRAIN_S, on_data=None) -> None:
        """Read what is left in the pipes, for at most ``grace`` seconds (every writer should be dead)."""
        end = time.monotonic() + grace
        while self._open and time.monotonic() < end:
            ready = select.select(list(self._open.values()), [], [], max(end - time.monotonic(), 0))[0]
            for name, fd in list(self._open.items()):
                if fd in ready:
                    self._read_one(name, fd, on_data)

    def output(self, name: str) -> bytes:
        extra = self.dropped.get(name, 0)
        note = f"\n[migrate-check: {extra} more bytes of {name} not kept]\n".encode() if extra else b""
        return bytes(self.data[name]) + note

    # -- the end ---------------------------------------------------------------------------------
    def kill(self) -> set[int]:
        return kill_tree([self.pid], spare=self._before)

    def close(self, on_data=None) -> int:
        """Kill the tree, read what is left, reap the child; its return code (negative: a signal)."""
        if self._closed:
            return self.returncode
        with held_signals():
            try:
                killed = self.kill()
                self.drain(on_data=on_data)
                self.returncode = self.proc.wait()
                reap(killed - {self.pid})
            finally:
                self._closed = True
                _live.pop(self.pid, None)
                for stream in (self.proc.stdout, self.proc.stderr):
                    with contextlib.suppress(OSError):
                        stream.close()
                for name, fd in self.fds.items():
                    if name not in ("stdout", "stderr"):
                        with contextlib.suppress(OSError):
                            os.close(fd)
                if self._pidfd is not None:
                    with contextlib.suppress(OSError):
                        os.close(self._pidfd)
        return self.returncode

    def __enter__(self) -> "Owned":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _pidfd(pid: int) -> int | None:
    try:
        return os.pidfd_open(pid)
    except (AttributeError, OSError):
        return None


class TimedOut(Exception):
    """A tool run past its deadline (its tree was killed)."""


def run_tool(cmd: list[str], deadline: Deadline | None = None, *, env: dict | None = None,
             cwd: str | None = None) -> tuple[int, bytes, bytes]:
    """Run ``cmd`` to its end (an owned child: its tree dies with it); (return code, stdout, stderr).
    Raises :class:`TimedOut` when the deadline passes first, OSError when it cannot start."""
    with Owned(cmd, env=env, cwd=cwd) as child:
        if not child.pump(deadline):
            child.close()
            raise TimedOut(" ".join(cmd[:1]))
        code = child.close()
        return code, child.output("stdout"), child.output("stderr")


@contextlib.contextmanager
def scratch_dir(prefix: str, parent: str | os.PathLike | None = None) -> Iterator[str]:
    """A new private directory, removed (with everything in it) however the block ends."""
    with held_signals():
        path = tempfile.mkdtemp(prefix=prefix, dir=parent)
    try:
        yield path
    finally:
        with held_signals():
            shutil.rmtree(path, ignore_errors=True)


def is_disk_full(err: OSError) -> bool:
    return err.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG)


__all__ = ["Deadline", "Owned", "TimedOut", "run_tool", "scratch_dir", "kill_tree", "reap",
           "become_subreaper", "die_with_parent", "proc_table", "descendants", "CAPTURE_LIMIT",
           "beside", "Stopped", "usable_cpus"]


# -- work side by side in threads ---------------------------------------------------------------------
def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity), at least 1."""
    try:
        return max(len(os.sched_getaffinity(0)), 1)
    except (AttributeError, OSError):
        return os.cpu_count() or 1


class Stopped(Exception):
    """A child was to start in a thread of :func:`beside` while its work was being stopped."""


#: set while :func:`beside` stops its threads' work: a thread other than the main one starts no child
_stopping = threading.Event()


def beside(fns: list[Callable[[], object]]) -> list[object]:
    """``fns[0]()`` in this thread and each other one in a thread of its own (under a copy of this
    thread's context: the launch mode and such), their results in order; with one, it runs here alone.
    Their work is owned children (a build, a program), so a thread waits in a pipe or a child's exit:
    two programs run at the same time on two CPUs. If one fails or this thread is interrupted, every
    child still running is killed and no thread starts another (:class:`Stopped`), the threads are
    waited for, and the first failure in order (the interrupt first) is raised: as one after the other
    would, once the others are stopped."""
    if len(fns) <= 1:
        return [fn() for fn in fns]
    import contextvars
    from concurrent.futures import ThreadPoolExecutor

    pool = ThreadPoolExecutor(len(fns) - 1, thread_name_prefix="beside")
    try:
        futures = [pool.submit(contextvars.copy_context().run, fn) for fn in fns[1:]]
        out = [fns[0]()]
        for f in futures:
            out.append(f.result())
        return out
    except BaseException:
        _stop_others()
        raise
    finally:
        pool.shutdown(wait=True)
        _stopping.clear()


def _stop_others() -> None:
    """Kill every owned child still running (this thread's are closed already) and refuse new ones."""
    with _spawn_lock:
        _stopping.set()
        live = list(_live.values())
    for owned in live:
        owned.kill()
