"""The CANN-compatible toolkit root (``migrate-check cann-home``): a directory laid out where the vendor's
CMake files look for their toolkit, made from the templates in ``root/`` for this Python and this package.

    <root>/set_env.sh                                  ASCEND_HOME_PATH, ASCEND_TOOLKIT_HOME, PATH, CMAKE_PREFIX_PATH
    <root>/<arch>-linux/ccec_compiler/bin/bisheng      our compiler driver (also compiler/ccec_compiler/bin, bin/)
    <root>/lib/cmake/ASC/                              the ASC package of find_package(ASC) and the ASC language
    <root>/compiler/tikcpp/ascendc_kernel_cmake/       ascendc.cmake: ascendc_library() (also tools/tikcpp/...)
    <root>/include                                     our headers (acl/acl.h, kernel_operator.h ...), tikicpulib.h
    <root>/lib64/lib<name>.a                           the vendor libraries a link names: empty (the emulator is them)
    <root>/<arch>-linux/{include,lib64}                the same, where newer installs keep them

It is generated, not shipped, because the driver must name the interpreter and the package it belongs to
(a wheel install, an editable one, a checkout on PYTHONPATH): ``$MIGRATE_CHECK_CANN_HOME`` if set, else
``$XDG_DATA_HOME/migrate-check/cann/<key>`` (``~/.local/share/...``), the key a hash of the interpreter, the
package's location and the templates. It is made in a staging directory and renamed into place whole;
an existing root with the same stamp is used as it is.
"""
from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import sys
import tempfile
from pathlib import Path

from ..toolchain import INCLUDE, PKG, digest, tree_digest

TEMPLATES = Path(__file__).resolve().parent / "root"
STAMP = ".migrate-check-root"
#: libraries the vendor's CMake files link by name (``-l``): empty archives satisfy a host linker
VENDOR_LIBS = ("ascendcl", "runtime", "platform", "tiling_api", "register", "c_sec", "ascendc_runtime",
               "profapi", "ge_runner", "graph", "nnopbase", "opapi", "ascend_dump", "error_manager", "mmpa",
               "ascendalog", "unified_dlog", "tikicpulib_cpuprof", "tikicpulib_stubreg", "acl_op_compiler")


class HomeError(Exception):
    """The toolkit root cannot be made (one line)."""


def arch_dir() -> str:
    return f"{os.uname().machine}-linux"


def _key() -> str:
    names = ",".join(sorted(p.name for p in INCLUDE.iterdir()))     # the entries <root>/include links
    return digest(sys.executable, str(PKG.parents[1]), tree_digest(TEMPLATES), arch_dir(), names)[:16]


def default_location() -> Path:
    env = os.environ.get("MIGRATE_CHECK_CANN_HOME")
    if env:
        return Path(os.path.abspath(env))
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "migrate-check" / "cann" / _key()


def cann_home(location: Path | None = None) -> Path:
    """The toolkit root, made now if it is missing or was made for another interpreter or package."""
    root = location or default_location()
    key = _key()
    if (root / STAMP).is_file() and (root / STAMP).read_text().strip() == key:
        return root
    if root.exists() and any(root.iterdir()) and not (root / STAMP).is_file():
        raise HomeError(f"{root} exists and is not a migrate-check toolkit root: refusing to write into it "
                        f"(MIGRATE_CHECK_CANN_HOME names a new or an empty directory)")
    try:
        root.parent.mkdir(parents=True, exist_ok=True)
        with _staging(root.parent) as work:
            _fill(work, root, key)
            _install(work, root)
    except OSError as err:
        raise HomeError(f"cannot make the toolkit root {root}: {(err.strerror or str(err)).lower()}") from None
    return root


@contextlib.contextmanager
def _staging(parent: Path):
    path = Path(tempfile.mkdtemp(prefix=".cann-", dir=parent))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def _install(work: Path, root: Path) -> None:
    """``work`` becomes ``root`` in one rename (an old root moved away first)."""
    new = work / "root"
    if root.exists():
        old = work / "old"
        os.rename(root, old)
    try:
        os.rename(new, root)
    except OSError:
        if (root / STAMP).is_file():              # another process made it meanwhile
            return
        raise


def _sh(value: str) -> str:
    return shlex.quote(value)


def _fill(work: Path, final: Path, key: str) -> None:
    new = work / "root"
    new.mkdir(mode=0o755)
    subst = {"@PYTHON@": _sh(sys.executable), "@PKG_ROOT@": _sh(str(PKG.parents[1])), "@ROOT@": _sh(str(final)),
             "@PY_FLAGS@": "-P" if sys.version_info >= (3, 11) else ""}
    for src in sorted(TEMPLATES.rglob("*")):
        rel = src.relative_to(TEMPLATES)
        if src.is_dir() or "__pycache__" in rel.parts:
            continue
        if src.suffix == ".tmpl" or rel.parts[0] == "include_extra":
            continue
        dst = new / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, dst)
    drv = new / arch_dir() / "ccec_compiler" / "bin" / "bisheng"
    _template("bisheng.sh.tmpl", drv, subst, 0o755)
    _template("set_env.sh.tmpl", new / "set_env.sh", subst, 0o644)
    for alias in (new / "compiler" / "ccec_compiler" / "bin", new / "bin"):
        alias.mkdir(parents=True, exist_ok=True)
        os.symlink(os.path.relpath(drv, alias), alias / "bisheng")
    _include(new / "include")
    lib64 = new / "lib64"
    lib64.mkdir()
    for name in VENDOR_LIBS:
        (lib64 / f"lib{name}.a").write_bytes(b"!<arch>\n")
    for sub in ("include", "lib64"):
        os.symlink(os.path.join("..", sub), new / arch_dir() / sub)
    (new / "tools").mkdir()
    os.symlink(os.path.join("..", "compiler", "tikcpp"), new / "tools" / "tikcpp")
    (new / "version.cfg").write_text("# migrate-check's CANN-compatible toolkit root\nversion=9.0.0\n")
    (new / STAMP).write_text(key + "\n")


def _include(dst: Path) -> None:
    """Our headers (each entry of the package's include directory, linked) and the root's own
    (``include_extra/``: tikicpulib.h of the CPU debug mode)."""
    dst.mkdir()
    for entry in sorted(INCLUDE.iterdir()):
        os.symlink(str(entry), dst / entry.name)
    for extra in sorted((TEMPLATES / "include_extra").iterdir()):
        shutil.copyfile(extra, dst / extra.name)


def _template(name: str, dst: Path, subst: dict[str, str], mode: int) -> None:
    text = (TEMPLATES / name).read_text(encoding="utf-8")
    for k, v in subst.items():
        text = text.replace(k, v)
    dst.parent.mkdir(parents=True, exist_ok=True)
    dst.write_text(text, encoding="utf-8")
    os.chmod(dst, mode)
