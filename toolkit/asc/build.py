"""Build an ``.asc`` program (one source, or several: ``run a.asc b.cpp``) with the system C++ compiler into
the file the child loads, cached.

Each source is compiled into a cached object (``compile.py``: the rewrite, the overlay, the compiler's
dependency output); the objects are linked with our runtime into one file that is a shared object for the
child and an executable of its own (``link.py``), cached by the objects' content. A second build of an
unchanged program compiles and links nothing. The compiler, like every child, is owned
(``toolkit.console.children``) and dies with the build (timeout, Ctrl-C, an error).
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from toolkit.console.children import Deadline

from .cache import CacheError
from .compile import Obj, UnitOptions, compile_object, describe, source_dir_of
from .errors import BuildError, compile_error, printable
from .link import link_program, runtime_objects
from .toolchain import cache_root, find_compiler, open_cache

#: file suffixes that ``run`` takes as sources of the program (the others are the program's arguments)
SOURCE_SUFFIXES = (".asc", ".cpp", ".cc", ".cxx", ".c++", ".C", ".c")


@dataclass
class Built:
    source: Path
    library: Path
    shim: Path
    source_dir: Path
    kernel_params: dict[str, list[str]] = field(default_factory=dict)
    cached: bool = False
    loops: list = field(default_factory=list)
    sources: list[Path] = field(default_factory=list)
    vf_fusion: bool = False
    unsupported: str | None = None


def check_source(source: str | os.PathLike) -> Path:
    """The absolute, resolved path of a readable source file; BAD_INPUT otherwise."""
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


def build(source: str | Path | list, include_dirs: list[str] = (), defines: list[str] = (),
          cache: Path | None = None, deadline: Deadline | None = None) -> Built:
    """Build the program of ``source`` (a path, or a list of paths: the first names the program)."""
    srcs = [check_source(s) for s in (source if isinstance(source, (list, tuple)) else [source])]
    with build_errors(cache, srcs[0]):
        store = open_cache(cache)
        cxx = find_compiler()
        _, _, shim = runtime_objects(store, cxx, deadline)
        kernel_files, stub_dir = launch_stubs(store, srcs)
        incs = (*include_dirs, *([str(stub_dir)] if stub_dir else []))
        objs: list[Obj] = []
        for src in srcs:
            opts = UnitOptions(incs, tuple(defines), stubs=src in kernel_files)
            try:
                objs.append(compile_object(store, cxx, src, opts, deadline))
            except BuildError as err:
                raise describe(err, src) from None
        program, facts, linked_cached = link_program(store, cxx, [o.path for o in objs], [], str(srcs[0]), deadline)
        return built_from(srcs, program, shim, facts, linked_cached and all(o.cached for o in objs))


def launch_stubs(store, srcs: list[Path]) -> tuple[set[Path], Path | None]:
    """``run kernel.cpp main.cpp``: the sources that are device code only (``__global__`` kernels, no
    ``main``, no ``<<<>>>``) get the launch stubs of ``ascendc_library()``, and their ``aclrtlaunch_<k>.h``
    headers a directory (a cache entry named by their content) on every unit's include path."""
    from .cann import stubs
    if len(srcs) < 2:
        return set(), None
    kernel_files = {s for s in srcs if stubs.is_kernel_file(s.read_bytes())}
    if not kernel_files:
        return set(), None
    headers = {f"aclrtlaunch_{k.name}.h": stubs.header(k) for s in sorted(kernel_files)
               for k in stubs.kernels_of(s.read_bytes().decode("utf-8", "surrogateescape"))}
    from .toolchain import digest
    key = "h-" + digest(*(f"{n}\0{t}" for n, t in sorted(headers.items())))[:30]
    entry = store.lookup("stubs", key)
    if entry is None:
        with store.staging() as work:
            files = {}
            for name, text in headers.items():
                (work / name).write_text(text, encoding="utf-8", errors="surrogateescape")
                files[name] = work / name
            entry = store.publish("stubs", key, work, files, {})
    return kernel_files, entry.path


def built_from(srcs: list[Path], program: Path, shim: Path, facts: dict, cached: bool) -> Built:
    from .rewrite import LoopSite
    loops = [LoopSite(*lp) for lp in facts.get("loops", [])]
    return Built(srcs[0], program, shim, source_dir_of(srcs[0]), facts.get("kernel_params", {}), cached, loops,
                 srcs, bool(facts.get("vf_fusion")), facts.get("unsupported"))


class build_errors:
    """Cache and write failures of a build as one-line BuildErrors (CACHE_UNSAFE, CACHE_WRITE); a TIMEOUT
    names the program."""

    def __init__(self, cache: Path | None, src: Path):
        self.cache, self.src = cache, src

    def __enter__(self):
        return self

    def __exit__(self, kind, err, tb):
        if err is None:
            return False
        if isinstance(err, CacheError):
            raise BuildError(printable(str(err)), code=err.code) from None
        if isinstance(err, BuildError):
            if err.code == "TIMEOUT" and not str(err).startswith(printable(str(self.src))):
                raise describe(err, self.src) from None
            return False
        if isinstance(err, OSError):                 # a write in the cache or the overlay (disk full, ...)
            where = err.filename or (self.cache or cache_root())
            raise BuildError(printable(f"cannot write the build cache ({where}): {(err.strerror or str(err)).lower()}"),
                             code="CACHE_WRITE") from None
        return False


__all__ = ["BuildError", "Built", "build", "cache_root", "compile_error", "find_compiler", "source_dir_of",
           "check_source", "built_from", "SOURCE_SUFFIXES"]
