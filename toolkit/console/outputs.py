"""Outputs of a command or script: validated before the work, written all or nothing, never harmful.

Every command and script writes its files through :class:`OutputPlan`::

    plan = OutputPlan({"json": json_path, "trace": trace_path})   # None = not requested; checks now
    ...                                                          # the run: nothing is written yet
    contents = {"json": dump_json(report)}
    if "trace" in plan:                                          # compute only what was asked for
        contents["trace"] = dump_json(trace)
    plan.commit(contents)                                        # every requested output, or none
    if not plan.stdout_taken:                                    # "-" output: the only thing on stdout
        click.echo(report_text)

API
---
``OutputPlan(targets, *, labels=None, make_dirs=False)``
    ``targets``: output name -> path (``str`` / ``os.PathLike``) or ``None`` (not requested); any
    number of names. Every requested path is checked at construction, before any work: not empty,
    a name the file system accepts, not a directory (nor a socket / block device), its directory
    exists (or, with ``make_dirs``, can be created) and new files can be created in it, an existing
    file is writable, at most one output on stdout, and no two outputs on the same file (compared by
    resolved path and by device/inode, so ``./r.json`` and ``r.json`` or two hard links collide).
    Raises :class:`OutputError` (a :class:`BadUsage`: one line on stderr, exit 2).
    ``labels``: name -> how messages call the output (default ``--<name>``).
    ``make_dirs``: create missing parent directories at commit (removed again if the commit fails).
``name in plan``, ``plan.requested`` (names, in order)
``plan.stdout_taken``
    True when an output goes to stdout (``-``, ``/dev/stdout``, or any path that is this process's
    stdout): the caller prints nothing else there.
``plan.commit(contents)``
    ``contents``: name -> ``str`` or ``bytes`` for every requested name (other names are ignored).
    ``str`` is written as UTF-8 ending with a newline; ``bytes`` as they are. Raises
    :class:`OutputError` when a write fails (nothing is left behind); a closed stdout pipe raises
    ``BrokenPipeError`` (the entry point ends quietly).

What each kind of target gets
-----------------------------
* ``-`` (or the file that is this process's stdout): written to ``sys.stdout``.
* A new path or an existing regular file: the content goes to a temp file in the target's directory
  (``.migrate-check-*.tmp``), which then replaces the target (``os.replace``) with the old file's
  mode (and owner, where permitted). A file with several hard links is rewritten in place from the
  complete temp file instead, so every link sees the new content.
* A symlink is followed: the file it points at is written (a dangling link creates its target).
* A character device (``/dev/null``, a tty), a FIFO, ``/dev/fd/N`` (process substitution),
  ``/dev/stderr``: written through in place, never replaced.

A commit writes every temp file first, then the write-through targets, then renames the temp files
into place with SIGINT/SIGTERM/SIGHUP held until the renames are done; on any failure or interrupt
the temp files and the directories it created are removed. An interrupted run therefore leaves
either every output of the commit or none.
"""
from __future__ import annotations

import contextlib
import errno
import os
import re
import shlex
import signal
import stat
import sys
import tempfile
import threading
from dataclasses import dataclass, field
from typing import Any, Iterator, Mapping

STDOUT, FILE, STREAM = "stdout", "file", "stream"
TEMP_PREFIX, TEMP_SUFFIX = ".migrate-check-", ".tmp"
#: signals held while temp files are renamed into place or removed
HELD_SIGNALS = tuple(getattr(signal, n) for n in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, n))
_FD_DIR = re.compile(r"/proc/(?:self|thread-self|\d+)(?:/task/\d+)?/fd")
_MAX_LINKS = 40


class BadUsage(Exception):
    """A user mistake (bad option, unusable input or output path): one line on stderr, exit 2."""


class OutputError(BadUsage):
    """An output path that cannot be written (refused up front, or a write that failed)."""


@dataclass
class _Target:
    name: str
    label: str
    given: str
    kind: str = FILE
    path: str = ""                                    # FILE: every symlink followed; STREAM: as given
    st: os.stat_result | None = None                  # the existing file, if any
    mkdirs: list[str] = field(default_factory=list)   # missing parent directories, outermost first

    def error(self, reason: str) -> OutputError:
        return OutputError(f"cannot write {self.label} {shown(self.given)}: {reason}")

    def identity(self) -> tuple:
        if self.kind == STDOUT:
            return ("stdout",)
        if self.st is not None:
            return ("inode", self.st.st_dev, self.st.st_ino)
        return ("path", self.path)


@contextlib.contextmanager
def signal_handlers(handlers: Mapping[int, Any], keep: tuple = (signal.SIG_IGN,)) -> Iterator[None]:
    """``handlers`` (signal -> handler) installed for the block, in the main thread only, on the
    signals whose handler is not one of ``keep`` (an ignored signal stays ignored); the old handlers
    are restored when the block ends."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = {}
    for sig, handler in handlers.items():
        if signal.getsignal(sig) not in keep:
            old[sig] = signal.signal(sig, handler)
    try:
        yield
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)


@contextlib.contextmanager
def held_signals() -> Iterator[None]:
    """Hold SIGINT/SIGTERM/SIGHUP for the block (main thread only); a signal that arrived meanwhile
    is raised again when the block ends, so it still interrupts, just not halfway through."""
    pending: list[int] = []
    try:
        with signal_handlers({sig: lambda signum, frame: pending.append(signum) for sig in HELD_SIGNALS},
                             keep=(signal.SIG_IGN, None)):
            yield
    finally:
        if pending:
            signal.raise_signal(pending[0])


def shown(path: str) -> str:
    """``path`` as messages print it: shell-quoted, or ``repr`` when it holds unprintable characters."""
    return shlex.quote(path) if path.isprintable() else repr(path)


def _strerror(err: OSError) -> str:
    if err.errno == errno.ENOTDIR:
        return "a component of the path is not a directory"
    return (err.strerror or str(err)).lower()


def _resolve(given: str) -> tuple[str, bool]:
    """(``given`` with every symlink followed, whether it names an open file descriptor such as
    ``/dev/stdout`` or ``/dev/fd/63``, which must be written through, not replaced)."""
    p = given if os.path.isabs(given) else os.path.join(os.getcwd(), given)
    for _ in range(_MAX_LINKS):
        head, tail = os.path.split(p)
        parent = os.path.realpath(head)
        if _FD_DIR.fullmatch(parent):
            return p, True
        if tail in ("", ".", ".."):
            return os.path.realpath(p), False
        full = os.path.join(parent, tail)
        if not os.path.islink(full):
            return full, False
        p = os.path.join(parent, os.readlink(full))
    raise OSError(errno.ELOOP, os.strerror(errno.ELOOP), given)


def _stat(path: str) -> os.stat_result | None:
    try:
        return os.stat(path)
    except FileNotFoundError:
        return None


def _stdout_stat() -> os.stat_result | None:
    try:
        return os.fstat(sys.stdout.fileno())
    except (AttributeError, OSError, ValueError):
        try:
            return os.fstat(1)
        except OSError:
            return None


def _probe(directory: str) -> None:
    """Create and remove a temp file: the only sure test that the commit will be able to."""
    with held_signals():
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=TEMP_PREFIX, suffix=TEMP_SUFFIX)
        os.close(fd)
        os.unlink(tmp)


def _check_given_parent(t: _Target) -> None:
    """The directory as written must exist, as the OS would walk it: ``rel/../r.json`` needs ``rel``
    (resolving ``..`` first would quietly write next to it)."""
    given = t.given if os.path.isabs(t.given) else os.path.join(os.getcwd(), t.given)
    parent = os.path.dirname(given)
    try:
        os.stat(parent)
    except FileNotFoundError:
        raise t.error(f"directory {shown(os.path.dirname(t.given) or '.')} does not exist") from None
    except OSError as err:
        raise t.error(f"directory {shown(os.path.dirname(t.given) or '.')}: {_strerror(err)}") from None


def _check_directory(t: _Target, make_dirs: bool) -> None:
    """The directory of ``t.path`` exists (or can be made) and accepts new files."""
    parent = os.path.dirname(t.path)
    missing = []
    while True:
        try:
            st = os.stat(parent)
        except FileNotFoundError:
            if not make_dirs:
                raise t.error(f"directory {parent} does not exist") from None
            missing.append(parent)
            parent = os.path.dirname(parent)
            continue
        except OSError as err:
            raise t.error(f"directory {parent}: {_strerror(err)}") from None
        if not stat.S_ISDIR(st.st_mode):
            raise t.error(f"{parent} is not a directory")
        break
    try:
        _probe(parent)
    except OSError as err:
        raise t.error(f"directory {parent} does not accept new files ({_strerror(err)})") from None
    t.mkdirs = missing[::-1]


def _check_existing(t: _Target, st: os.stat_result, via_fd: bool) -> None:
    mode = st.st_mode
    if stat.S_ISDIR(mode):
        raise t.error("it is a directory")
    if stat.S_ISCHR(mode) or stat.S_ISFIFO(mode) or (via_fd and stat.S_ISREG(mode)):
        t.kind = STREAM
    elif not stat.S_ISREG(mode):
        raise t.error("not a regular file, character device or FIFO")
    if not os.access(t.path, os.W_OK):
        raise t.error("permission denied")


def _target(name: str, label: str, given: str | os.PathLike, make_dirs: bool,
            stdout_st: os.stat_result | None) -> _Target:
    t = _Target(name, label, os.fspath(given) if not isinstance(given, str) else given)
    if isinstance(t.given, bytes):
        t.given = os.fsdecode(t.given)
    if t.given == "-":
        t.kind = STDOUT
        return t
    if t.given == "":
        raise t.error("empty path")
    if "\0" in t.given:
        raise t.error("a path cannot contain a NUL character")
    try:
        t.path, via_fd = _resolve(t.given)
        t.st = _stat(t.path if not via_fd else t.given)
    except OSError as err:
        raise t.error(_strerror(err)) from None
    if t.st is not None and stdout_st is not None and os.path.samestat(t.st, stdout_st):
        t.kind = STDOUT
        return t
    if via_fd:
        if t.st is None:
            raise t.error("no such open file")
        t.path = t.given
    if t.st is not None:
        _check_existing(t, t.st, via_fd)
    elif t.given.endswith(os.sep):
        raise t.error("a file name cannot end with a slash")
    if t.kind == FILE:
        if not make_dirs:
            _check_given_parent(t)
        _check_directory(t, make_dirs)
    return t


def _payload(value: object, name: str) -> str | bytes:
    if isinstance(value, str):
        return value if value.endswith("\n") else value + "\n"
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    raise TypeError(f"output {name!r}: content must be str or bytes, not {type(value).__name__}")


def _as_bytes(payload: str | bytes) -> bytes:
    return payload.encode("utf-8", "surrogateescape") if isinstance(payload, str) else payload


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


class OutputPlan:
    """The outputs of one run: checked when constructed, written by :meth:`commit` (see the module
    docstring for the contract)."""

    def __init__(self, targets: Mapping[str, str | os.PathLike | None], *,
                 labels: Mapping[str, str] | None = None, make_dirs: bool = False) -> None:
        labels = dict(labels or {})
        stdout_st = _stdout_stat()
        self._targets: dict[str, _Target] = {}
        for name, given in targets.items():
            if given is None:
                continue
            label = labels.get(name, f"--{name}")
            self._targets[name] = _target(name, label, given, make_dirs, stdout_st)
        self._check_distinct()
        mask = os.umask(0)
        os.umask(mask)
        self._new_mode = 0o666 & ~mask

    def _check_distinct(self) -> None:
        seen: dict[tuple, _Target] = {}
        for t in self._targets.values():
            other = seen.setdefault(t.identity(), t)
            if other is not t:
                where = "stdout" if t.kind == STDOUT else shown(t.given)
                raise OutputError(f"two outputs write to {where} ({other.label} {shown(other.given)}, "
                                  f"{t.label} {shown(t.given)}); give them different paths")

    # -- queries ---------------------------------------------------------------------------------
    def __contains__(self, name: object) -> bool:
        return name in self._targets

    @property
    def requested(self) -> list[str]:
        return list(self._targets)

    @property
    def stdout_taken(self) -> bool:
        return any(t.kind == STDOUT for t in self._targets.values())

    # -- the commit ------------------------------------------------------------------------------
    def commit(self, contents: Mapping[str, object]) -> None:
        """Write every requested output or none (see the module docstring)."""
        missing = [n for n in self._targets if n not in contents]
        if missing:
            raise ValueError(f"no content for output(s) {', '.join(missing)}")
        data = {n: _payload(contents[n], n) for n in self._targets}
        staged: dict[str, str] = {}
        made: list[str] = []
        done = False
        current = None
        try:
            for t in self._by_kind(FILE):
                current = t
                self._stage(t, _as_bytes(data[t.name]), staged, made)
            for t in self._by_kind(STREAM) + self._by_kind(STDOUT):
                current = t
                self._write_through(t, data[t.name])
            with held_signals():
                for t in self._by_kind(FILE):
                    current = t
                    self._install(t, staged.pop(t.name))
            done = True
        except OSError as err:
            if isinstance(err, BrokenPipeError) and current is not None and current.kind == STDOUT:
                raise
            raise current.error(_strerror(err)) from None
        finally:
            with held_signals():
                for tmp in staged.values():
                    with contextlib.suppress(OSError):
                        os.unlink(tmp)
                for d in reversed(made if not done else []):
                    with contextlib.suppress(OSError):
                        os.rmdir(d)

    def _by_kind(self, kind: str) -> list[_Target]:
        return [t for t in self._targets.values() if t.kind == kind]

    def _stage(self, t: _Target, data: bytes, staged: dict[str, str], made: list[str]) -> None:
        """Write ``data`` to a temp file in the target's directory (registered in ``staged`` at once)."""
        with held_signals():
            for d in t.mkdirs:
                with contextlib.suppress(FileExistsError):
                    os.mkdir(d)
                    made.append(d)
            fd, staged[t.name] = tempfile.mkstemp(dir=os.path.dirname(t.path), prefix=TEMP_PREFIX,
                                                  suffix=TEMP_SUFFIX)
        try:
            _write_all(fd, data)
            if t.st is None:
                os.fchmod(fd, self._new_mode)
            else:
                os.fchmod(fd, stat.S_IMODE(t.st.st_mode) & ~(stat.S_ISUID | stat.S_ISGID))
                if (t.st.st_uid, t.st.st_gid) != (os.geteuid(), os.getegid()):
                    with contextlib.suppress(OSError):
                        os.fchown(fd, t.st.st_uid, t.st.st_gid)
            os.fsync(fd)
        finally:
            os.close(fd)

    @staticmethod
    def _install(t: _Target, tmp: str) -> None:
        if t.st is not None and t.st.st_nlink > 1:      # keep the hard links: rewrite the inode in place
            with open(tmp, "rb") as src, open(t.path, "r+b") as dst:
                dst.truncate(0)
                while chunk := src.read(1 << 20):
                    dst.write(chunk)
            os.unlink(tmp)
        else:
            os.replace(tmp, t.path)

    @staticmethod
    def _write_through(t: _Target, payload: str | bytes) -> None:
        if t.kind == STDOUT:
            _to_stdout(payload)
            return
        flags = os.O_WRONLY | os.O_NOCTTY | (os.O_APPEND if stat.S_ISREG(t.st.st_mode) else 0)
        fd = os.open(t.path, flags)
        try:
            _write_all(fd, _as_bytes(payload))
        finally:
            os.close(fd)


def _to_stdout(payload: str | bytes) -> None:
    """Write to this process's stdout: through its file descriptor when it has one (a short write
    on a pipe is finished, or fails with EPIPE, instead of being lost in Python's buffer)."""
    out = sys.stdout
    try:
        fd = out.fileno()
    except (AttributeError, OSError, ValueError):      # replaced by an in-memory stream
        if isinstance(payload, bytes) and hasattr(out, "buffer"):
            out.flush()
            out.buffer.write(payload)
        else:
            out.write(payload if isinstance(payload, str) else payload.decode("utf-8", "replace"))
        out.flush()
        return
    out.flush()
    _write_all(fd, _as_bytes(payload))
