"""The C++ compiler the ``.asc`` route builds with, how it is run, and our own objects built once.

The compiler, like every child, is owned (``toolkit.console.children``): it runs in its own session with a
private ``$TMPDIR`` and dies with the build (timeout, Ctrl-C, an error). Our own sources (the runtime, the
``/proc/self/exe`` shim, the executable's entry point) are compiled once per (compiler, source, headers,
flags) into verified cache entries (``cache.py``).
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

from toolkit.console.children import Deadline, TimedOut, run_tool

from . import cache as cachemod
from .cache import Cache, CacheError
from .errors import BuildError, printable, tool_failure

PKG = Path(__file__).resolve().parent
INCLUDE = PKG / "include"
RUNTIME = PKG / "runtime"
#: bump when the way programs are compiled or linked changes (every cache key holds it)
BUILD_VERSION = "4"
_compiler_ids: dict[tuple, str] = {}
_tree_digests: dict[str, str] = {}


def cache_root() -> Path:
    return cachemod.default_root()


def find_compiler() -> list[str]:
    """``$CXX``, else g++ or clang++ on PATH, else the ``ziglang`` package's ``zig c++``. Our own compiler
    driver (``bisheng``, which a build system may export as ``CXX``) is never the compiler underneath."""
    env = os.environ.get("CXX")
    if env and not _is_driver(env.split()[0]):
        return env.split()
    for name in ("g++", "clang++", "c++"):
        path = shutil.which(name)
        if path:
            return [path]
    try:
        import ziglang  # noqa: F401
        return [os.sys.executable, "-m", "ziglang", "c++"]
    except ImportError:
        raise BuildError("no C++ compiler found: install g++ (apt-get install g++) or clang++, set $CXX, "
                         "or `pip install ziglang` for `zig c++`", code="NO_COMPILER") from None


def _is_driver(cmd: str) -> bool:
    path = shutil.which(cmd) or cmd
    try:
        with open(path, "rb") as fh:
            return b"toolkit.asc.cann.bisheng" in fh.read(1024)
    except OSError:
        return False


def tool(cmd: list[str], deadline: Deadline | None, tmp: str | None = None, cwd=None,
         env: dict | None = None) -> tuple[int, str, str]:
    """Run a compiler command (owned, private $TMPDIR); (return code, stdout, stderr), bytes kept."""
    env = dict(os.environ if env is None else env, **({"TMPDIR": tmp} if tmp else {}))
    try:
        code, out, err = run_tool(cmd, deadline, env=env, cwd=cwd)
    except TimedOut:
        raise BuildError(f"TIMEOUT: the build ran past the --timeout of {deadline.seconds:g} s and was stopped",
                         code="TIMEOUT") from None
    except OSError as err:
        raise BuildError(f"cannot run the compiler {printable(cmd[0])}: {(err.strerror or str(err)).lower()}",
                         code="NO_COMPILER") from None
    return code, out.decode("utf-8", "surrogateescape"), err.decode("utf-8", "surrogateescape")


def compiler_id(cxx: list[str], deadline: Deadline | None) -> str:
    exe = shutil.which(cxx[0]) or cxx[0]
    try:
        st = os.stat(exe)
        stamp = (tuple(cxx), st.st_mtime_ns, st.st_size)
    except OSError:
        stamp = (tuple(cxx), 0, 0)
    if stamp not in _compiler_ids:
        code, out, _ = tool([*cxx, "--version"], deadline)
        version = out.splitlines()[0] if code == 0 and out.strip() else ""
        _compiler_ids[stamp] = " ".join(cxx) + "\n" + version
    return _compiler_ids[stamp]


def digest(*parts: str | bytes) -> str:
    h = hashlib.sha256()
    for p in parts:
        b = os.fsencode(p) if isinstance(p, str) else p
        h.update(len(b).to_bytes(8, "little") + b)
    return h.hexdigest()


def tree_digest(root: Path) -> str:
    """The hash of every file under ``root`` (names and bytes), computed once per process."""
    key = str(root)
    if key not in _tree_digests:
        h = hashlib.sha256()
        for p in sorted(root.rglob("*")):
            if p.is_file():
                h.update(os.fsencode(p.relative_to(root)) + b"\0" + p.read_bytes())
        _tree_digests[key] = h.hexdigest()
    return _tree_digests[key]


def scratch_tmp(work: Path) -> str:
    tmp = work / "tmp"
    tmp.mkdir(exist_ok=True)
    return str(tmp)


def our_object(store: Cache, cxx: list[str], cid: str, name: str, src: Path, args: list[str], fname: str,
               deadline: Deadline | None, prelude: str = "") -> Path:
    """One of our own sources compiled once per (compiler, source, headers, flags), kept as a verified entry;
    ``prelude``: text included before the source (``-include``, written in the build's private directory)."""
    key = f"{name}-" + digest(BUILD_VERSION, cid, json.dumps(args), prelude, src.read_bytes(),
                              tree_digest(INCLUDE))[:24]
    entry = store.lookup("runtime", key)
    if entry is not None:
        return entry.file(fname)
    with store.staging() as work:
        out = work / fname
        pre = []
        if prelude:
            (work / "prelude.h").write_text(prelude)
            pre = ["-include", str(work / "prelude.h")]
        code, _, err = tool([*cxx, *args, *pre, "-o", str(out), str(src)], deadline, tmp=scratch_tmp(work))
        if code or not out.is_file():
            raise BuildError(f"building the migrate-check runtime failed: {tool_failure(err)}", code="RUNTIME_BUILD")
        return store.publish("runtime", key, work, {fname: out}, {}).file(fname)


def note_build(kind: str, what: str) -> None:
    """One line in ``$MIGRATE_CHECK_BUILD_LOG`` (when set) for each compile or link actually run (a cache
    hit writes nothing): what a build did, for the curious and for the tests of the cache."""
    path = os.environ.get("MIGRATE_CHECK_BUILD_LOG")
    if path:
        try:
            with open(path, "a", encoding="utf-8", errors="surrogateescape") as fh:
                fh.write(f"{kind} {what}\n")
        except OSError:
            pass


def open_cache(root: Path | None) -> Cache:
    try:
        return Cache(root or cache_root())
    except CacheError as err:
        raise BuildError(printable(str(err)), code=err.code) from None
