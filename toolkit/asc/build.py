"""Build an ``.asc`` program with the system C++ compiler into a shared object the child loads, cached.

Conventions of the vendor build (its CMake files): ``SOURCE_DIR`` is defined as the sample directory (the
nearest ancestor holding a ``CMakeLists.txt``, else the file's own directory); the file's directory and
``SOURCE_DIR/include`` are on the include path; optimised code (we use ``-O2``: the same semantics as the
vendor's ``-O3`` for conforming code, and a faster build).

The source and the headers that need it are rewritten (``rewrite.py``) into an overlay tree that stands
in for the user's tree (``overlay.py``); ``#line`` and ``-fmacro-prefix-map`` keep the original names.
Which headers need it comes from the compiler itself: its dependency output (``-MD``) lists every file
it read, ``#include MACRO`` and commented includes included; a file the first guess (a scan of the
include lines) missed that needs rewriting is added and the program compiled again.

The cache (``cache.py``): the entry's key hashes the compiler's identity, the flags, the source bytes,
our runtime and tools; the entry records every dependency with its hash and is used only while they
all hold. The compiler, like every child, is owned (``toolkit.console.children``): it runs in its own
session with a private ``$TMPDIR`` and dies with the build (timeout, Ctrl-C, an error).
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path

from toolkit.console.children import Deadline, TimedOut, run_tool

from . import cache as cachemod
from .cache import Cache, CacheError, sha256_file
from .errors import BuildError, compile_error, printable, tool_failure
from .overlay import (
    DEPS_TARGET,
    analyse,
    build_overlay,
    encode_source,
    mirror,
    original,
    parse_deps,
)
from .rewrite import c_string

PKG = Path(__file__).resolve().parent
INCLUDE = PKG / "include"
RUNTIME = PKG / "runtime"
BUILD_VERSION = "3"
#: attempts to compile with the rewritten set completed from the dependency output
MAX_ATTEMPTS = 6
_INCLUDE_RE = re.compile(rb'^\s*#\s*include\s*([<"])([^>"\n]+)[>"]', re.M)
_TOOLS = ("build.py", "overlay.py", "rewrite.py", "lexer.py", "errors.py", "cache.py")
_compiler_ids: dict[tuple, str] = {}


@dataclass
class Built:
    source: Path
    library: Path
    shim: Path
    source_dir: Path
    kernel_params: dict[str, list[str]] = field(default_factory=dict)
    cached: bool = False
    loops: list = field(default_factory=list)


def cache_root() -> Path:
    return cachemod.default_root()


def find_compiler() -> list[str]:
    """``$CXX``, else g++ or clang++ on PATH, else the ``ziglang`` package's ``zig c++``."""
    env = os.environ.get("CXX")
    if env:
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


def source_dir_of(src: Path) -> Path:
    for d in (src.parent, *src.parent.parents):
        if (d / "CMakeLists.txt").is_file():
            return d
    return src.parent


def _tool(cmd: list[str], deadline: Deadline | None, tmp: str | None = None, cwd=None) -> tuple[int, str, str]:
    """Run a compiler command (owned, private $TMPDIR); (return code, stdout, stderr), bytes kept."""
    env = dict(os.environ, **({"TMPDIR": tmp} if tmp else {}))
    try:
        code, out, err = run_tool(cmd, deadline, env=env, cwd=cwd)
    except TimedOut:
        raise BuildError(f"TIMEOUT: the build ran past the --timeout of {deadline.seconds:g} s and was stopped",
                         code="TIMEOUT") from None
    except OSError as err:
        raise BuildError(f"cannot run the compiler {printable(cmd[0])}: {(err.strerror or str(err)).lower()}",
                         code="NO_COMPILER") from None
    return code, out.decode("utf-8", "surrogateescape"), err.decode("utf-8", "surrogateescape")


def _compiler_id(cxx: list[str], deadline: Deadline | None) -> str:
    exe = shutil.which(cxx[0]) or cxx[0]
    try:
        st = os.stat(exe)
        stamp = (tuple(cxx), st.st_mtime_ns, st.st_size)
    except OSError:
        stamp = (tuple(cxx), 0, 0)
    if stamp not in _compiler_ids:
        code, out, _ = _tool([*cxx, "--version"], deadline)
        version = out.splitlines()[0] if code == 0 and out.strip() else ""
        _compiler_ids[stamp] = " ".join(cxx) + "\n" + version
    return _compiler_ids[stamp]


def _digest(*parts: str | bytes) -> str:
    h = hashlib.sha256()
    for p in parts:
        b = os.fsencode(p) if isinstance(p, str) else p
        h.update(len(b).to_bytes(8, "little") + b)
    return h.hexdigest()


def _tree_digest(root: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(root.rglob("*")):
        if p.is_file():
            h.update(os.fsencode(p.relative_to(root)) + b"\0" + p.read_bytes())
    return h.hexdigest()


def _our_object(store: Cache, cxx: list[str], cid: str, name: str, src: Path, args: list[str], fname: str,
                deadline: Deadline | None) -> Path:
    """One of our own sources compiled once per (compiler, source, headers), kept as a verified entry."""
    key = f"{name}-" + _digest(BUILD_VERSION, cid, json.dumps(args), src.read_bytes(), _tree_digest(INCLUDE))[:24]
    entry = store.lookup("runtime", key)
    if entry is not None:
        return entry.file(fname)
    with store.staging() as work:
        out = work / fname
        code, _, err = _tool([*cxx, *args, "-o", str(out), str(src)], deadline, tmp=_tmp(work))
        if code or not out.is_file():
            raise BuildError(f"building the migrate-check runtime failed: {tool_failure(err)}", code="RUNTIME_BUILD")
        return store.publish("runtime", key, work, {fname: out}, {}).file(fname)


def _tmp(work: Path) -> str:
    tmp = work / "tmp"
    tmp.mkdir(exist_ok=True)
    return str(tmp)


def _open_cache(root: Path | None) -> Cache:
    try:
        return Cache(root or cache_root())
    except CacheError as err:
        raise BuildError(printable(str(err)), code=err.code) from None


def _source(source: str | os.PathLike) -> Path:
    src = Path(os.path.abspath(os.fspath(source)))
    if not src.is_file():
        what = "is a directory" if src.is_dir() else "no such file"
        raise BuildError(f"{printable(os.fspath(source))}: {what}", code="BAD_INPUT")
    try:
        src = src.resolve()
        with open(src, "rb"):
            pass
    except OSError as err:
        raise BuildError(f"{printable(os.fspath(source))}: {(err.strerror or str(err)).lower()}", code="BAD_INPUT") from None
    return src


def build(source: str | Path, include_dirs: list[str] = (), defines: list[str] = (),
          cache: Path | None = None, deadline: Deadline | None = None) -> Built:
    src = _source(source)
    try:
        store = _open_cache(cache)
        sdir = source_dir_of(src)
        inc = [*[Path(d).resolve() for d in include_dirs], src.parent, sdir / "include"]
        cxx = find_compiler()
        cid = _compiler_id(cxx, deadline)
        common = ["-std=c++20", "-O2", "-fPIC", "-w", "-I", str(INCLUDE)]
        runtime_o = _our_object(store, cxx, cid, "runtime", RUNTIME / "runtime.cpp",
                                [*common, f'-D__ASC_PKG_DIR="{c_string(str(PKG))}"', "-c"], "runtime.o", deadline)
        shim = _our_object(store, cxx, cid, "exe_shim", RUNTIME / "exe_shim.c",
                           ["-x", "c", "-O2", "-fPIC", "-shared"], "exe_shim.so", deadline)
        flags = ["-std=c++20", "-O2", "-fPIC", "-w", f'-DSOURCE_DIR="{c_string(str(sdir))}"'] + \
            [f"-D{d}" for d in defines]
        key = _digest(BUILD_VERSION, cid, json.dumps(flags), *map(str, inc), str(src), src.read_bytes(),
                      sha256_file(runtime_o) or "", *(sha256_file(PKG / t) or "" for t in _TOOLS))[:32]
        entry = store.lookup("programs", key)
        if entry is not None and entry.fresh():
            return _built(src, entry, shim, sdir, True)
        with store.staging() as work:
            entry = _compile(store, key, work, src, inc, cxx, flags, runtime_o, deadline)
            return _built(src, entry, shim, sdir, False)
    except CacheError as err:
        raise BuildError(printable(str(err)), code=err.code) from None
    except BuildError as err:
        if err.code != "TIMEOUT":
            raise
        raise BuildError(f"{printable(str(src))}: {err}", code=err.code) from None
    except OSError as err:                         # a write in the cache or the overlay (disk full, ...)
        where = err.filename or (cache or cache_root())
        raise BuildError(printable(f"cannot write the build cache ({where}): {(err.strerror or str(err)).lower()}"),
                         code="CACHE_WRITE") from None


def _built(src: Path, entry, shim: Path, sdir: Path, cached: bool) -> Built:
    meta = entry.meta
    from .rewrite import LoopSite
    loops = [LoopSite(*lp) for lp in meta.get("loops", [])]
    return Built(src, entry.file("program.so"), shim, sdir, meta.get("kernel_params", {}), cached, loops)


def _guess(src: Path, inc: list[Path]) -> dict[str, bytes]:
    """The source and the headers its include lines name that are found next to it or on the user's
    include path (our headers excluded): a first guess of what needs rewriting."""
    seen: dict[str, bytes] = {}
    todo = [str(src)]
    while todo:
        f = todo.pop()
        if f in seen:
            continue
        try:
            seen[f] = data = Path(f).read_bytes()
        except OSError:
            continue
        for kind, name in _INCLUDE_RE.findall(data):
            dirs = ([os.path.dirname(f)] if kind == b'"' else []) + [str(d) for d in inc]
            for d in dirs:
                cand = os.path.realpath(os.path.join(d, os.fsdecode(name)))
                if os.path.isfile(cand):
                    if not cand.startswith(str(INCLUDE) + os.sep):
                        todo.append(cand)
                    break
    return seen


def _compile(store: Cache, key: str, work: Path, src: Path, inc: list[Path], cxx: list[str], flags: list[str],
             runtime_o: Path, deadline: Deadline | None):
    """Compile and link the program (see the module docstring); its published entry."""
    texts = _guess(src, inc)
    found = {f: analyse(f, data) for f, data in texts.items()}
    tmp = _tmp(work)
    for attempt in range(MAX_ATTEMPTS):
        files = {f: encode_source(r.text) for f, r in found.items() if r is not None and r.changed}
        files.setdefault(str(src), f'#line 1 "{c_string(str(src))}"\n'.encode() + texts[str(src)])
        root = work / f"ov{attempt}"
        build_overlay(root, files)
        out, deps_file = work / "program.so", work / "deps.d"
        deps_file.unlink(missing_ok=True)
        incs = [a for d in inc for a in ("-I", str(mirror(root, str(d))), "-I", str(d))]
        cmd = [*cxx, *flags, *incs, "-I", str(INCLUDE), f"-fmacro-prefix-map={root}/=/",
               "-MD", "-MF", str(deps_file), "-MT", DEPS_TARGET, "-shared", "-o", str(out),
               "-x", "c++", str(mirror(root, str(src))), "-x", "none", str(runtime_o),
               "-Wl,-Bsymbolic", "-Wl,--require-defined=main", "-ldl"]
        started = time.time_ns()
        code, _, err = _tool(cmd, deadline, tmp=tmp, cwd=str(src.parent))
        deps = _deps(root, deps_file)
        if not _complete(deps, texts, found):
            break
    if code or not out.is_file():
        raise compile_error(err, src, root, [*texts, *deps])
    meta = {"kernel_params": _kernel_params(found),
            "loops": [list(vars(lp).values()) for r in found.values() if r is not None for lp in r.loops]}
    return store.publish("programs", key, work, {"program.so": out}, meta,
                         _dep_hashes(deps, texts, files, started), executable=("program.so",))


def _complete(deps: list[str], texts: dict[str, bytes], found: dict) -> bool:
    """Add the files the compiler read that the guess missed (``texts``, ``found``: their analysis);
    whether one of them needs rewriting (then the program is compiled again)."""
    again = False
    for d in deps:
        if d in texts or d.startswith(str(INCLUDE) + os.sep):
            continue
        data = _read(d)
        if data is None:
            continue
        texts[d] = data
        found[d] = r = analyse(d, data)
        again |= r is not None and r.changed
    return again


def _read(path: str) -> bytes | None:
    try:
        return Path(path).read_bytes()
    except OSError:
        return None


def _deps(root: Path, deps_file: Path) -> list[str]:
    try:
        text = deps_file.read_bytes().decode("utf-8", "surrogateescape")
    except OSError:
        return []
    return list(dict.fromkeys(original(root, p) for p in parse_deps(text)))


def _dep_hashes(deps: list[str], texts: dict[str, bytes], files: dict, started: int) -> list[tuple[str, str | None]]:
    """Each dependency with the hash of the bytes compiled: a rewritten file's as we read it; another's
    as read after the compile, unless it changed since the compile started (then a hash no file has:
    the next lookup rebuilds)."""
    out = []
    for d in deps:
        if d in files:
            out.append((d, hashlib.sha256(texts[d]).hexdigest()))
            continue
        try:
            unstable = os.stat(d).st_mtime_ns >= started
        except OSError:
            unstable = False
        data = texts.get(d)
        digest = sha256_file(d) if data is None else hashlib.sha256(data).hexdigest()
        out.append((d, "changed-during-build" if unstable else digest))
    return out


def _kernel_params(found: dict) -> dict[str, list[str]]:
    params: dict[str, list[str]] = {}
    for r in found.values():
        if r is not None:
            for name, names in r.kernels.items():
                params.setdefault(name, names)
    return params


__all__ = ["BuildError", "Built", "build", "cache_root", "compile_error", "find_compiler", "source_dir_of"]
