"""Build an ``.asc`` program with the system C++ compiler into a shared object the child loads, cached by
content.

Conventions of the vendor build (its CMake files): ``SOURCE_DIR`` is defined as the sample directory (the
nearest ancestor holding a ``CMakeLists.txt``, else the file's own directory); the file's directory and
``SOURCE_DIR/include`` are on the include path; optimised code (we use ``-O2``: the same semantics as the
vendor's ``-O3`` for conforming code, and a faster build).

The source and the sample's own headers it includes are rewritten (``rewrite.py``) into an overlay tree
that mirrors their absolute paths, so relative includes resolve as in the original tree; ``#line`` keeps
the original names in messages. The cache key hashes the compiler's identity, the flags, every overlay
file and our headers; a second run of an unchanged program does not recompile.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from .rewrite import rewrite

PKG = Path(__file__).resolve().parent
INCLUDE = PKG / "include"
RUNTIME = PKG / "runtime"
BUILD_VERSION = "1"
_INCLUDE_RE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)
class BuildError(Exception):
    """The program does not compile (bad input: exit 2). ``location`` is "file:line" of the first error."""

    def __init__(self, message: str, location: str = "", code: str = "COMPILE_ERROR"):
        super().__init__(message)
        self.location, self.code = location, code


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
    env = os.environ.get("MIGRATE_CHECK_CACHE")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "migrate-check" / "asc"


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


def _compiler_id(cxx: list[str]) -> str:
    try:
        out = subprocess.run([*cxx, "--version"], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        out = ""
    return " ".join(cxx) + "\n" + out.splitlines()[0] if out else " ".join(cxx)


def _tree_hash(root: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(root.rglob("*")):
        if p.is_file():
            h.update(str(p.relative_to(root)).encode())
            h.update(p.read_bytes())
    return h.hexdigest()


def _local_files(src: Path, include_dirs: list[Path]) -> list[Path]:
    """The source and every header it includes (transitively) that is found next to it or in one of the
    user's include directories (our headers and system headers excluded)."""
    seen: dict[Path, None] = {}
    todo = [src.resolve()]
    while todo:
        f = todo.pop()
        if f in seen:
            continue
        seen[f] = None
        try:
            text = f.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        for kind, name in _INCLUDE_RE.findall(text):
            dirs = ([f.parent] if kind == '"' else []) + include_dirs
            for d in dirs:
                cand = (d / name).resolve()
                if cand.is_file():
                    if INCLUDE not in cand.parents:
                        todo.append(cand)
                    break
    return list(seen)


def _run(cmd: list[str], cwd: Path | None = None) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, timeout=600)
    except OSError as err:
        raise BuildError(f"cannot run the compiler {cmd[0]}: {err}", code="NO_COMPILER") from None
    except subprocess.TimeoutExpired:
        raise BuildError("the compiler ran for more than 600 s", code="COMPILE_ERROR") from None


def _cached_object(cxx: list[str], cache: Path, name: str, src: Path, args: list[str], suffix: str) -> Path:
    """Compile one of our own sources once per (compiler, source, headers) and keep it in the cache."""
    key = hashlib.sha256((BUILD_VERSION + _compiler_id(cxx) + " ".join(args)).encode()
                         + src.read_bytes() + _tree_hash(INCLUDE).encode()).hexdigest()[:24]
    out = cache / "runtime" / f"{name}-{key}{suffix}"
    if out.is_file():
        return out
    out.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=out.parent, suffix=suffix)
    os.close(fd)
    r = _run([*cxx, *args, "-o", tmp, str(src)])
    if r.returncode:
        os.unlink(tmp)
        raise BuildError(f"building the migrate-check runtime failed:\n{r.stderr.strip()[:2000]}",
                         code="RUNTIME_BUILD")
    os.replace(tmp, out)
    return out


def build(source: str | Path, include_dirs: list[str] = (), defines: list[str] = (),
          cache: Path | None = None) -> Built:
    src = Path(source).resolve()
    if not src.is_file():
        raise BuildError(f"{source}: no such file", code="BAD_INPUT")
    cache = cache or cache_root()
    cache.mkdir(parents=True, exist_ok=True)
    sdir = source_dir_of(src)
    inc = [*[Path(d).resolve() for d in include_dirs], src.parent, sdir / "include"]
    cxx = find_compiler()
    files = _local_files(src, inc)
    texts = {f: f.read_text(encoding="utf-8", errors="replace") for f in files}
    rewritten = {f: rewrite(t, str(f)) for f, t in texts.items()}
    flags = ["-std=c++20", "-O2", "-fPIC", "-w", f'-DSOURCE_DIR="{sdir}"'] + \
        [f"-D{d}" for d in defines]
    common = ["-std=c++20", "-O2", "-fPIC", "-w", "-I", str(INCLUDE)]
    runtime_o = _cached_object(cxx, cache, "runtime", RUNTIME / "runtime.cpp", [*common, "-c"], ".o")
    shim = _cached_object(cxx, cache, "exe_shim", RUNTIME / "exe_shim.c",
                          ["-x", "c", "-O2", "-fPIC", "-shared"], ".so")
    h = hashlib.sha256((BUILD_VERSION + _compiler_id(cxx) + json.dumps(flags) +
                        json.dumps([str(d) for d in inc]) + runtime_o.name).encode())
    for f in sorted(files):
        h.update(str(f).encode() + b"\0" + rewritten[f].text.encode())
    key = h.hexdigest()[:32]
    out_dir = cache / "programs" / key
    params: dict[str, list[str]] = {}
    for r in rewritten.values():
        for name, names in r.kernels.items():
            params.setdefault(name, names)
    loops = [lp for r in rewritten.values() for lp in r.loops]
    if (out_dir / "program.so").is_file():
        return Built(src, out_dir / "program.so", shim, sdir, params, True, loops)
    work = Path(tempfile.mkdtemp(dir=cache, prefix="build-"))
    try:
        overlay = work / "overlay"
        for f, r in rewritten.items():
            dst = overlay / str(f).lstrip("/")
            dst.parent.mkdir(parents=True, exist_ok=True)
            text = r.text if r.changed else f'#line 1 "{f}"\n' + texts[f]
            dst.write_text(text, encoding="utf-8")
        incs = [arg for d in inc for arg in ("-I", str(overlay / str(d).lstrip("/")), "-I", str(d))]
        cmd = [*cxx, *flags, *incs, "-I", str(INCLUDE), "-shared", "-o", str(work / "program.so"),
               "-x", "c++", str(overlay / str(src).lstrip("/")), "-x", "none", str(runtime_o),
               "-Wl,-Bsymbolic", "-ldl"]
        r = _run(cmd, cwd=src.parent)
        if r.returncode:
            raise compile_error(r.stderr)
        out_dir.parent.mkdir(parents=True, exist_ok=True)
        final = work / "final"
        final.mkdir()
        os.replace(work / "program.so", final / "program.so")
        try:
            os.replace(final, out_dir)
        except OSError:
            pass                                  # another run built the same program meanwhile
        return Built(src, out_dir / "program.so", shim, sdir, params, False, loops)
    finally:
        shutil.rmtree(work, ignore_errors=True)


_ERR = re.compile(r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?:(?P<col>\d+):)? (?:fatal )?error: (?P<msg>.*)$")
_NOT_MEMBER = re.compile(r"‘([\w:]+)’ is not a member of ‘(AscendC[\w:]*)’|'([\w:]+)' is not a member of "
                         r"'(AscendC[\w:]*)'|no member named '(\w+)' in namespace '(AscendC[\w:]*)'")
_NO_MATCH = re.compile(r"no matching function for call to [‘'](AscendC::[\w:]+)")
_REQUIRED_FROM = re.compile(r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?:\d+:)?\s+required from here")


def compile_error(stderr: str) -> BuildError:
    """The first compiler error as (message, file:line); API names we do not implement become
    ``UNSUPPORTED_API name``. An error inside our headers is reported at the user's line that caused it."""
    lines = stderr.splitlines()
    for k, line in enumerate(lines):
        m = _ERR.match(line)
        if not m:
            continue
        file, lineno, msg = m.group("file"), m.group("line"), m.group("msg").strip()
        if str(INCLUDE) in str(Path(file).resolve()):
            for other in lines[k + 1:k + 40]:
                rf = _REQUIRED_FROM.match(other)
                if rf and str(INCLUDE) not in str(Path(rf.group("file")).resolve()):
                    file, lineno = rf.group("file"), rf.group("line")
                    break
            for other in reversed(lines[:k]):
                rf = re.match(r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):\d+:\s+required from here", other)
                if rf and str(INCLUDE) not in str(Path(rf.group("file")).resolve()):
                    file, lineno = rf.group("file"), rf.group("line")
                    break
        where = f"{file}:{lineno}"
        nm = _NOT_MEMBER.search(msg)
        if nm:
            name = next(g for g in nm.groups() if g)
            ns = [g for g in nm.groups() if g][1]
            return BuildError(f"UNSUPPORTED_API {name} {where}: {ns}::{name} is not implemented by the emulator",
                              where, "UNSUPPORTED_API")
        nf = _NO_MATCH.search(msg)
        if nf:
            return BuildError(f"UNSUPPORTED_API {nf.group(1).split('::')[-1]} {where}: this form of "
                              f"{nf.group(1)} is not implemented by the emulator", where, "UNSUPPORTED_API")
        return BuildError(f"{where}: {msg}", where)
    tail = stderr.strip().splitlines()[-1] if stderr.strip() else "unknown compiler failure"
    return BuildError(f"build failed: {tail}")
