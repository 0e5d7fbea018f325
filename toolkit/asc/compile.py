"""Compile one translation unit of a program (an ``.asc``, a ``.cpp`` beside it, a kernel ``.cpp``) into
a cached object file.

The source and the headers that need it are rewritten (``rewrite.py``) into an overlay tree that stands
in for the user's tree (``overlay.py``); ``#line`` and ``-fmacro-prefix-map`` keep the original names.
Which headers need it comes from the compiler itself: its dependency output (``-MD``) lists every file
it read, ``#include MACRO`` and commented includes included; a file the first guess (a scan of the
include lines) missed that needs rewriting is added and the unit compiled again.

The object carries what the run needs to know of it (``objmeta.py``: kernels, loops, VF fusion). Its
cache entry's key hashes the compiler's identity, the flags, the source bytes, our headers and tools;
the entry records every dependency with its hash and is used only while they all hold.

Conventions of the vendor build that ``migrate-check run`` applies by itself (``implicit``): ``SOURCE_DIR``
is the sample directory (the nearest ancestor holding a ``CMakeLists.txt``, else the file's own directory);
the file's directory and ``SOURCE_DIR/include`` are on the include path. The compiler driver
(``toolkit.asc.cann.bisheng``) passes what the build system says instead. Optimisation is ``-O2`` (the
vendor's ``-O1``/``-O3`` have the same semantics for conforming code; the emulated figures do not depend
on it).
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

from toolkit.console.children import Deadline

from . import objmeta
from .cache import Cache, sha256_file
from .errors import BuildError, compile_error, printable
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
from .toolchain import (
    BUILD_VERSION,
    INCLUDE,
    PKG,
    compiler_id,
    digest,
    note_build,
    scratch_tmp,
    tool,
    tree_digest,
)

#: attempts to compile with the rewritten set completed from the dependency output
MAX_ATTEMPTS = 6
_INCLUDE_RE = re.compile(rb'^\s*#\s*include\s*([<"])([^>"\n]+)[>"]', re.MULTILINE)
_TOOLS = ("compile.py", "objmeta.py", "overlay.py", "rewrite.py", "lexer.py", "errors.py", "cache.py", "toolchain.py",
          "cann/stubs.py")
_CXX20 = re.compile(r"(c|gnu)\+\+(2[0a-z]|23|26)$")
C_SUFFIXES = (".c",)


@dataclass(frozen=True)
class UnitOptions:
    """How a unit is compiled: the user's include dirs, ``-D``/``-U``, ``-std``, flags passed through."""
    include_dirs: tuple[str, ...] = ()
    defines: tuple[str, ...] = ()
    undefines: tuple[str, ...] = ()
    implicit: bool = True            #: run's conventions (module docstring)
    std: str | None = None           #: the user's -std= value (raised to C++20 for C++: our headers need it)
    extra: tuple[str, ...] = ()      #: flags passed to the compiler as given (-g, -pthread, -include F)
    vf_fusion: bool = False          #: compiled for the compiler's VF fusion (--cce-simd-vf-fusion=true)
    lang: str | None = None          #: "c" or "c++" (None: from the suffix)
    stubs: bool = False              #: define the aclrtlaunch_<kernel> launch stubs (ascendc_library)
    remember_failure: bool = False   #: a compile error is cached too (the driver: a rebuild does not retry it)


@dataclass
class Obj:
    """A compiled unit: its cached object file, what it carries (``meta``), the files it read."""
    path: Path
    source: Path
    meta: dict
    deps: list[str] = field(default_factory=list)
    cached: bool = False


def source_dir_of(src: Path) -> Path:
    for d in (src.parent, *src.parent.parents):
        if (d / "CMakeLists.txt").is_file():
            return d
    return src.parent


def _std(opts: UnitOptions, lang: str) -> list[str]:
    if lang == "c":
        return [f"-std={opts.std}"] if opts.std else []
    if opts.std and _CXX20.match(opts.std):
        return [f"-std={opts.std}"]
    return ["-std=gnu++20" if opts.std and opts.std.startswith("gnu") else "-std=c++20"]


def unit_flags(src: Path, opts: UnitOptions, lang: str) -> tuple[list[str], list[Path]]:
    """The compiler flags (without include dirs) and the include path of a unit."""
    flags = [*_std(opts, lang), "-O2", "-fPIC", "-w"]
    inc = [Path(d).resolve() for d in opts.include_dirs]
    user_sd = any(d.split("=", 1)[0] == "SOURCE_DIR" for d in opts.defines)
    if opts.implicit:
        sdir = source_dir_of(src)
        inc += [src.parent, sdir / "include"]
        if not user_sd:
            flags.append(f'-DSOURCE_DIR="{c_string(str(sdir))}"')
    flags += [f"-D{d}" for d in opts.defines] + [f"-U{u}" for u in opts.undefines] + list(opts.extra)
    return flags, inc


def compile_object(store: Cache, cxx: list[str], src: Path, opts: UnitOptions, deadline: Deadline | None) -> Obj:
    """The cached object of ``src`` (compiled now when no fresh entry holds it)."""
    lang = opts.lang or ("c" if src.suffix in C_SUFFIXES else "c++")
    cid = compiler_id(cxx, deadline)
    flags, inc = unit_flags(src, opts, lang)
    key = digest(BUILD_VERSION, cid, lang, json.dumps(flags), *map(str, inc), str(src), src.read_bytes(),
                 str(opts.vf_fusion), str(opts.stubs), tree_digest(INCLUDE), *(sha256_file(PKG / t) or "" for t in _TOOLS))[:32]
    entry = store.lookup("objects", key)
    if entry is not None and entry.fresh():
        return _obj(src, entry, True)
    failed = store.lookup("objects", "x" + key[1:]) if opts.remember_failure else None
    if failed is not None and failed.fresh():
        raise BuildError(failed.meta["error"], failed.meta["location"], failed.meta["code"])
    note_build("compile", str(src))
    with store.staging() as work:
        entry = _compile(store, key, work, src, inc, cxx, flags, lang, opts, deadline)
        return _obj(src, entry, False)


def _obj(src: Path, entry, cached: bool) -> Obj:
    return Obj(entry.file("object.o"), src, entry.meta, [d for d, _ in entry.manifest.get("deps", [])], cached)


def placeholder_object(store: Cache, cxx: list[str], src: Path, record: dict, text: str,
                       deadline: Deadline | None) -> Obj:
    """An object that stands for a unit the emulator cannot run: ``record`` (with its ``unsupported``
    message) and ``text`` (C++ the program still needs to link, e.g. launch stubs) only."""
    cid = compiler_id(cxx, deadline)
    meta = {"source": str(src), **record}
    key = "ph-" + digest(BUILD_VERSION, cid, json.dumps(meta, sort_keys=True), text)[:29]
    entry = store.lookup("objects", key)
    if entry is not None:
        return _obj(src, entry, True)
    with store.staging() as work:
        unit = work / "placeholder.cpp"
        unit.write_bytes(encode_source(text + objmeta.c_definition(meta)))
        out = work / "object.o"
        code, _, err = tool([*cxx, "-std=c++20", "-fPIC", "-w", "-I", str(INCLUDE), "-c", "-o", str(out),
                             str(unit)], deadline, tmp=scratch_tmp(work))
        if code or not out.is_file():
            raise compile_error(err, src)
        return _obj(src, store.publish("objects", key, work, {"object.o": out}, meta), False)


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


def _meta(src: Path, found: dict, opts: UnitOptions) -> dict:
    return {"source": str(src), "kernel_params": _kernel_params(found), "vf_fusion": opts.vf_fusion,
            "loops": [list(vars(lp).values()) for r in found.values() if r is not None for lp in r.loops]}


def _compile(store: Cache, key: str, work: Path, src: Path, inc: list[Path], cxx: list[str], flags: list[str],
             lang: str, opts: UnitOptions, deadline: Deadline | None):
    """Compile the unit (see the module docstring); its published entry."""
    texts = _guess(src, inc)
    found = {f: analyse(f, data) for f, data in texts.items()}
    tmp = scratch_tmp(work)
    for attempt in range(MAX_ATTEMPTS):
        files = {f: encode_source(r.text) for f, r in found.items() if r is not None and r.changed}
        files.setdefault(str(src), f'#line 1 "{c_string(str(src))}"\n'.encode() + texts[str(src)])
        meta = _meta(src, found, opts)
        files[str(src)] += objmeta.c_definition(meta).encode() + _stubs(src, texts, opts)
        root = work / f"ov{attempt}"
        build_overlay(root, files)
        out, deps_file = work / "object.o", work / "deps.d"
        deps_file.unlink(missing_ok=True)
        incs = [a for d in inc for a in ("-I", str(mirror(root, str(d))), "-I", str(d))]
        cmd = [*cxx, *flags, *incs, "-I", str(INCLUDE), f"-fmacro-prefix-map={root}/=/",
               "-MD", "-MF", str(deps_file), "-MT", DEPS_TARGET, "-c", "-o", str(out),
               "-x", lang, str(mirror(root, str(src)))]
        started = time.time_ns()
        code, _, err = tool(cmd, deadline, tmp=tmp, cwd=str(src.parent))
        deps = _deps(root, deps_file)
        if not _complete(deps, texts, found):
            break
    if code or not out.is_file():
        error = compile_error(err, src, root, [*texts, *deps])
        if opts.remember_failure and error.code in ("COMPILE_ERROR", "UNSUPPORTED_API"):
            store.publish("objects", "x" + key[1:], work, {}, {"error": str(error), "location": error.location,
                                                               "code": error.code},
                          _dep_hashes(deps, texts, files, started))
        raise error
    return store.publish("objects", key, work, {"object.o": out}, meta, _dep_hashes(deps, texts, files, started))


def _stubs(src: Path, texts: dict[str, bytes], opts: UnitOptions) -> bytes:
    if not opts.stubs:
        return b""
    from .cann import stubs
    return encode_source(stubs.definitions(stubs.kernels_of(texts[str(src)].decode("utf-8", "surrogateescape")),
                                           str(src)))


def _complete(deps: list[str], texts: dict[str, bytes], found: dict) -> bool:
    """Add the files the compiler read that the guess missed (``texts``, ``found``: their analysis);
    whether one of them needs rewriting (then the unit is compiled again)."""
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
        digest_ = sha256_file(d) if data is None else hashlib.sha256(data).hexdigest()
        out.append((d, "changed-during-build" if unstable else digest_))
    return out


def _kernel_params(found: dict) -> dict[str, list[str]]:
    params: dict[str, list[str]] = {}
    for r in found.values():
        if r is not None:
            for name, names in r.kernels.items():
                params.setdefault(name, names)
    return params


def describe(err: BuildError, src: Path) -> BuildError:
    """A TIMEOUT of a unit names the unit."""
    if err.code != "TIMEOUT":
        return err
    return BuildError(f"{printable(str(src))}: {err}", code=err.code)
