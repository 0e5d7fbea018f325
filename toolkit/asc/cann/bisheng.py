"""``bisheng``: the compiler driver of our CANN-compatible toolkit root (``python -m toolkit.asc.cann.bisheng``).

It stands where the vendor's compiler driver stands (``<root>/<arch>-linux/ccec_compiler/bin/bisheng``) and
takes what build systems pass it (``args.py``). A compile (``-c``) builds the unit through the ``.asc``
route (the rewrite, our headers, the content cache: ``toolkit.asc.compile``) and writes the object where
it was asked, with a Make dependency file when asked (``-MD``), so ``make`` rebuilds after a header edit and
a rebuild of an unchanged tree (even a fresh build directory) compiles nothing. A link makes the program
(``toolkit.asc.link``): an executable that runs itself on the emulator, or with ``-shared`` a shared
library. The vendor's own libraries (``-lascendcl -lruntime -lplatform -ltiling_api -lregister`` ...) are
the emulator and are not linked.

A unit that uses an API outside the emulated scope (cube, SIMT; a header of the vendor's kit we do not
ship) still gives an object, so a build of a whole repository goes on: the object carries the one-line
``UNSUPPORTED_API`` message, and the executable prints it and exits 2 when run. Other compile errors fail
the compile as a compiler's would: ``bisheng: error: ...`` on stderr, exit 1.
"""
from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import sys
import tempfile
import threading
from pathlib import Path

from ..build import build_errors, check_source
from ..compile import Obj, UnitOptions, compile_object, placeholder_object
from ..errors import BuildError, printable
from ..link import link_flags, link_program, runtime_objects
from ..toolchain import INCLUDE, find_compiler, open_cache
from . import stubs
from .args import Command, DriverError, parse

PROG = "bisheng"
_NESTED = "MIGRATE_CHECK_IN_BISHENG"
#: headers of the vendor's kit we do not ship: a unit that includes one uses APIs outside the emulated scope
_VENDOR_HEADERS = re.compile(r"fatal error: ((?:lib|adv_api|simt_api|impl|interface|kernel_tiling|aclnn\w*|"
                             r"graph|register|tikcfw|c_api|utils)/\S+|kernel_\w+\.h|tikicpulib\.h|"
                             r"[\w/]*matmul\w*\.h|[\w/]*simt\w*\.h): No such file or directory")
_UNSUPPORTED = re.compile(r"UNSUPPORTED_API (\S+) (.+?):(\d+): (?:this form of )?(\S+) is not implemented")


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if os.environ.get(_NESTED) == "1":
        print(f"{PROG}: error: the host compiler is this driver itself: set CXX to a C++ compiler", file=sys.stderr)
        return 1
    os.environ[_NESTED] = "1"                      # seen by the compilers it starts, not by its caller
    try:
        return _main(argv)
    finally:
        os.environ.pop(_NESTED, None)


def _main(argv: list[str]) -> int:
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, _interrupt)
    try:
        cmd = parse(argv)
        if cmd.version:
            return _version()
        if cmd.passthrough:
            return _passthrough(argv, cmd)
        if cmd.runtime_dir is not None:
            return _runtime_objects(cmd.runtime_dir)
        if cmd.headers_dir is not None:
            return _launch_headers(cmd)
        if not cmd.sources and not cmd.inputs:
            raise DriverError("no input files")
        return _compile(cmd) if cmd.compile_only else _link(cmd)
    except DriverError as err:
        print(f"{PROG}: error: {printable(str(err))}", file=sys.stderr)
        return 1
    except BuildError as err:
        print(f"{PROG}: error: {printable(str(err))}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except OSError as err:
        print(f"{PROG}: error: {printable(str(err.filename or ''))}: {(err.strerror or str(err)).lower()}",
              file=sys.stderr)
        return 1


def _version() -> int:
    print("bisheng (migrate-check: Ascend C on the emulator, dav-3510) using " + " ".join(find_compiler()))
    return 0


def _passthrough(argv: list[str], cmd: Command) -> int:
    """CMake's probes (``-v``, ``-E`` ...): the host compiler itself (its C compiler for C sources), with
    our headers on the path."""
    c_only = bool(cmd.sources) and all(lang == "c" for _, lang in cmd.sources)
    cxx = c_compiler() if c_only else find_compiler()
    args = [a for a in argv if not a.startswith("--npu-arch") and not a.startswith("--cce-")]
    os.execvp(cxx[0], [*cxx, *args, "-I", str(INCLUDE)])
    return 1


def c_compiler() -> list[str]:
    """``$CC`` (unless it is this driver), else gcc, clang or cc on PATH, else the C++ compiler in C mode."""
    env = os.environ.get("CC")
    if env and b"toolkit.asc.cann.bisheng" not in _head(env.split()[0]):
        return env.split()
    for name in ("gcc", "clang", "cc"):
        path = shutil.which(name)
        if path:
            return [path]
    return [*find_compiler(), "-x", "c"]


def _head(cmd: str) -> bytes:
    try:
        with open(shutil.which(cmd) or cmd, "rb") as fh:
            return fh.read(1024)
    except OSError:
        return b""


def _options(cmd: Command, lang: str) -> UnitOptions:
    return UnitOptions(tuple(cmd.include_dirs), tuple(cmd.defines), tuple(cmd.undefines), implicit=False,
                       std=cmd.std, extra=tuple(cmd.extra), vf_fusion=cmd.vf_fusion, lang=lang, stubs=cmd.stubs,
                       remember_failure=True)


def _runtime_objects(out_dir: str) -> int:
    """Our runtime and entry objects, for a link the host compiler makes (``ascendc.cmake``)."""
    runtime_o, entry_o, _ = runtime_objects(open_cache(None), find_compiler(), None)
    os.makedirs(out_dir, exist_ok=True)
    for src, name in ((runtime_o, "runtime.o"), (entry_o, "exe_entry.o")):
        publish(src, os.path.join(out_dir, name), 0o644)
    return 0


def _launch_headers(cmd: Command) -> int:
    """``aclrtlaunch_<kernel>.h`` of every kernel of the sources, into the directory (a file is rewritten
    only when its text changes, so nothing is rebuilt for nothing)."""
    os.makedirs(cmd.headers_dir, exist_ok=True)
    for path, _ in cmd.sources:
        text = check_source(path).read_bytes().decode("utf-8", "surrogateescape")
        for k in stubs.kernels_of(text):
            dst = os.path.join(cmd.headers_dir, f"aclrtlaunch_{k.name}.h")
            new = stubs.header(k)
            try:
                with open(dst, encoding="utf-8", errors="surrogateescape") as fh:
                    if fh.read() == new:
                        continue
            except OSError:
                pass
            with open(dst + ".tmp", "w", encoding="utf-8", errors="surrogateescape") as fh:
                fh.write(new)
            os.replace(dst + ".tmp", dst)
    return 0


def unsupported_message(err: BuildError) -> str | None:
    """The ``UNSUPPORTED_API`` line when a compile failed on an API outside the emulated scope, else None."""
    from toolkit.ascendc.catalog.lookup import (
        api_in_compiler_error,
        lookup,
        unsupported_api_message,
    )
    text = str(err)
    m = _UNSUPPORTED.search(text)
    if m:
        return unsupported_api_message(m.group(4), m.group(2), m.group(3))
    if _VENDOR_HEADERS.search(text):
        where = err.location or "?"
        header = _VENDOR_HEADERS.search(text).group(1)
        return f"UNSUPPORTED_API {header} {where} (a header of the vendor's kit the emulator does not provide)"
    found = api_in_compiler_error(text)
    if found and lookup(found[0]) is not None and err.location:
        file, _, line = err.location.rpartition(":")
        return unsupported_api_message(found[0], file, line)
    return None


def compile_unit(store, cxx, path: str, lang: str, cmd: Command) -> Obj:
    """The object of one source: compiled for the emulator, or a placeholder naming the API it lacks."""
    src = check_source(path)
    try:
        return compile_object(store, cxx, src, _options(cmd, lang), None)
    except BuildError as err:
        message = unsupported_message(err)
        if message is None:
            raise
    print(f"{PROG}: warning: {printable(message)}: built; the program will say so and exit 2 when run",
          file=sys.stderr)
    text = stubs.placeholders(stubs.kernels_of(src.read_bytes().decode("utf-8", "surrogateescape"))) \
        if cmd.stubs else ""
    return placeholder_object(store, cxx, src, {"unsupported": message}, text, None)


def _compile(cmd: Command) -> int:
    if len(cmd.sources) != 1:
        raise DriverError("-c takes one source file" if cmd.sources else "-c: no source file")
    path, lang = cmd.sources[0]
    out = cmd.output or os.path.splitext(os.path.basename(path))[0] + ".o"
    store = open_cache(None)
    with build_errors(None, Path(path)):
        obj = compile_unit(store, find_compiler(), path, lang, cmd)
    publish(obj.path, out, 0o644)
    if cmd.depfile:
        write_depfile(cmd.dep_path or os.path.splitext(out)[0] + ".d", cmd.dep_targets or [out],
                      [str(obj.source), *obj.deps])
    return 0


def _link(cmd: Command) -> int:
    store = open_cache(None)
    cxx = find_compiler()
    out = cmd.output or "a.out"
    with build_errors(None, Path(out)):
        objects = [Path(p) for p in cmd.inputs]
        for path, lang in cmd.sources:
            objects.append(compile_unit(store, cxx, path, lang, cmd).path)
        user = link_flags(cmd.libs, cmd.lib_dirs, cmd.link_extra)
        program, _, _ = link_program(store, cxx, objects, user, out, None, shared_lib=cmd.shared)
    publish(program, out, 0o755)
    return 0


def publish(src: Path, dst: str, mode: int) -> None:
    """Copy a cache file to where the build wants it: a new file renamed over the old one."""
    d = os.path.dirname(os.path.abspath(dst))
    fd, tmp = tempfile.mkstemp(prefix=".bisheng-", dir=d)
    try:
        with os.fdopen(fd, "wb") as fh, open(src, "rb") as inp:
            shutil.copyfileobj(inp, fh)
        os.chmod(tmp, mode & ~_umask())
        os.replace(tmp, dst)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _make_escape(path: str) -> str:
    out = path.replace("$", "$$").replace("#", "\\#")
    return re.sub(r"(\\*) ", lambda m: "\\" * (2 * len(m.group(1))) + "\\ ", out)


def write_depfile(path: str, targets: list[str], deps: list[str]) -> None:
    """A Make rule ``targets: deps`` (GCC's format: spaces, ``#`` and ``$`` escaped), written whole."""
    seen = list(dict.fromkeys(d for d in deps if d))
    text = " ".join(_make_escape(t) for t in targets) + ":" + "".join(f" \\\n  {_make_escape(d)}" for d in seen) + "\n"
    d = os.path.dirname(os.path.abspath(path))
    os.makedirs(d, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".bisheng-", dir=d)
    with os.fdopen(fd, "w", encoding="utf-8", errors="surrogateescape") as fh:
        fh.write(text)
    os.replace(tmp, path)


if __name__ == "__main__":
    sys.exit(main())
