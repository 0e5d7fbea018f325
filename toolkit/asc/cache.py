"""The build cache of the ``.asc`` route: entries that are verified before use, published atomically,
rebuilt when bad, and refused when someone else could have written them.

Layout: ``ROOT/AREA/KEY/`` holds an entry's files and ``manifest.json``: each file's size and SHA-256,
the files the compiler read with their SHA-256 (its own dependency output, so a header reached through
``#include MACRO`` counts), and small facts of the build (kernel parameter names, VF loops). The manifest
is written last, into a staging directory that is renamed into place in one step, so an entry is
complete or absent. A lookup re-hashes the entry's files (a truncated or emptied ``program.so`` is not
loaded: it is rebuilt) and the dependencies (an edited header makes the entry stale).

Ownership, as ssh treats its keys: the code in the cache is loaded into a process, so the root, every
area and every entry must belong to this user and not be writable by group or others; otherwise the
build refuses (one line, exit 2) instead of loading it. Directories are created ``0700``, files ``0644``
(``0755`` for programs).
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import stat
import time
from pathlib import Path
from typing import Iterator

from toolkit.console.children import scratch_dir

MANIFEST = "manifest.json"
FORMAT = 2
STAGING = "build-"
#: a staging directory older than this was left by a killed process: removed
STALE_STAGING_S = 24 * 3600


class CacheError(Exception):
    """The cache cannot be used: ``code`` CACHE_UNSAFE (ownership/permissions) or CACHE_WRITE (a failed write)."""

    def __init__(self, message: str, code: str):
        super().__init__(message)
        self.code = code


def default_root() -> Path:
    env = os.environ.get("MIGRATE_CHECK_CACHE")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "migrate-check" / "asc"


def sha256_file(path: str | os.PathLike) -> str | None:
    """SHA-256 of a file's bytes; None when it cannot be read (missing, a directory, ...)."""
    h = hashlib.sha256()
    try:
        with open(path, "rb") as fh:
            while chunk := fh.read(1 << 20):
                h.update(chunk)
    except OSError:
        return None
    return h.hexdigest()


def write_failed(what: str | os.PathLike, err: OSError) -> CacheError:
    reason = (err.strerror or str(err)).lower()
    return CacheError(f"cannot write the build cache ({os.fspath(what)}): {reason}", "CACHE_WRITE")


def _unsafe(path: Path, st: os.stat_result, what: str) -> CacheError | None:
    if st.st_uid != os.geteuid():
        return CacheError(f"the build cache {what} {path} belongs to another user (uid {st.st_uid}): refusing to "
                          f"load code from it (use a cache of your own: MIGRATE_CHECK_CACHE)", "CACHE_UNSAFE")
    if st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return CacheError(f"the build cache {what} {path} is writable by group or others: refusing to load code "
                          f"from it (chmod go-w {path})", "CACHE_UNSAFE")
    return None


def check_safe(path: Path, what: str, follow: bool = False) -> os.stat_result:
    """``path``'s stat after the ownership rules (module docstring); CacheError when they fail."""
    st = os.stat(path) if follow else os.lstat(path)
    if not follow and stat.S_ISLNK(st.st_mode):
        raise CacheError(f"the build cache {what} {path} is a symbolic link: refusing to load code through it",
                         "CACHE_UNSAFE")
    bad = _unsafe(path, st, what)
    if bad is not None:
        raise bad
    return st


class Entry:
    """A verified entry: ``path / name`` for its files, ``meta`` (what the build recorded)."""

    def __init__(self, path: Path, manifest: dict):
        self.path, self.manifest = path, manifest

    @property
    def meta(self) -> dict:
        return self.manifest.get("meta", {})

    def file(self, name: str) -> Path:
        return self.path / name

    def fresh(self) -> bool:
        """Every dependency still has the bytes it was built from."""
        return all(sha256_file(p) == h for p, h in self.manifest.get("deps", []))


class Cache:
    """The cache at ``root`` (created 0700 if missing; refused if unsafe)."""

    def __init__(self, root: Path):
        self.root = Path(os.path.abspath(root))
        try:
            self.root.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError as err:
            raise write_failed(self.root, err) from None
        check_safe(self.root, "directory", follow=True)
        self._sweep_staging()

    def area(self, name: str) -> Path:
        path = self.root / name
        try:
            path.mkdir(mode=0o700, exist_ok=True)
        except OSError as err:
            raise write_failed(path, err) from None
        check_safe(path, "directory")
        return path

    @contextlib.contextmanager
    def staging(self) -> Iterator[Path]:
        """A private directory in the cache (same file system: the publish is a rename), removed at the end."""
        try:
            cm = scratch_dir(STAGING, self.root)
            path = cm.__enter__()
        except OSError as err:
            raise write_failed(self.root, err) from None
        try:
            yield Path(path)
        finally:
            cm.__exit__(None, None, None)

    def lookup(self, area: str, key: str) -> Entry | None:
        """The entry ``area/key`` if it is complete and its files are intact (a bad one is removed)."""
        path = self.area(area) / key
        try:
            check_safe(path, "entry")
        except FileNotFoundError:
            return None
        manifest = _read_manifest(path, key)
        if manifest is None or not _files_intact(path, manifest):
            self._discard(path)
            return None
        return Entry(path, manifest)

    def publish(self, area: str, key: str, staged: Path, files: dict[str, Path], meta: dict,
                deps: list[tuple[str, str | None]] = (), executable: tuple[str, ...] = ()) -> Entry:
        """Move ``files`` (name -> path, inside the staging dir ``staged``) into a new entry ``area/key``
        with its manifest (written last); the entry in place afterwards (ours, or an equal one another
        run published first)."""
        final = self.area(area) / key
        entry_dir = staged / ("entry-" + key)
        try:
            entry_dir.mkdir(mode=0o700)
            listed = {}
            for name, src in files.items():
                dst = entry_dir / name
                os.replace(src, dst)
                os.chmod(dst, 0o755 if name in executable else 0o644)
                listed[name] = {"size": dst.stat().st_size, "sha256": sha256_file(dst)}
            manifest = {"format": FORMAT, "key": key, "files": listed, "deps": [list(d) for d in deps],
                        "meta": meta}
            tmp = entry_dir / (MANIFEST + ".tmp")
            with open(tmp, "w", encoding="utf-8") as fh:
                json.dump(manifest, fh)
                fh.flush()
                os.fsync(fh.fileno())
            os.chmod(tmp, 0o644)
            os.replace(tmp, entry_dir / MANIFEST)
        except OSError as err:
            raise write_failed(entry_dir, err) from None
        return self._install(entry_dir, final, key, manifest)

    def _install(self, entry_dir: Path, final: Path, key: str, manifest: dict) -> Entry:
        try:
            os.rename(entry_dir, final)
            return Entry(final, manifest)
        except OSError:
            pass                                   # an entry is there: another run's, or a bad one
        existing = self.lookup(final.parent.name, key)
        if existing is not None and existing.fresh():
            return existing
        self._discard(final)
        try:
            os.rename(entry_dir, final)
        except OSError as err:
            raise write_failed(final, err) from None
        return Entry(final, manifest)

    def _discard(self, path: Path) -> None:
        """Remove a bad entry: renamed out of the way first (atomic), then deleted."""
        trash = self.root / f"{STAGING}trash-{os.getpid()}-{time.monotonic_ns()}"
        with contextlib.suppress(OSError):
            os.rename(path, trash)
            shutil.rmtree(trash, ignore_errors=True)

    def _sweep_staging(self) -> None:
        now = time.time()
        with contextlib.suppress(OSError):
            for name in os.listdir(self.root):
                if name.startswith(STAGING):
                    path = self.root / name
                    with contextlib.suppress(OSError):
                        if now - path.lstat().st_mtime > STALE_STAGING_S:
                            shutil.rmtree(path, ignore_errors=True)


def _read_manifest(path: Path, key: str) -> dict | None:
    try:
        check_safe(path / MANIFEST, "entry")
        with open(path / MANIFEST, encoding="utf-8") as fh:
            manifest = json.load(fh)
    except FileNotFoundError:
        return None
    except (OSError, ValueError):
        return None
    ok = (isinstance(manifest, dict) and manifest.get("format") == FORMAT and manifest.get("key") == key
          and isinstance(manifest.get("files"), dict) and isinstance(manifest.get("deps"), list)
          and all(isinstance(d, list) and len(d) == 2 and isinstance(d[0], str) for d in manifest["deps"]))
    return manifest if ok else None


def _files_intact(path: Path, manifest: dict) -> bool:
    for name, info in manifest["files"].items():
        if not isinstance(info, dict) or "/" in name or name in ("", ".", ".."):
            return False
        f = path / name
        try:
            st = check_safe(f, "entry")
        except FileNotFoundError:
            return False
        if not stat.S_ISREG(st.st_mode) or st.st_size != info.get("size") or sha256_file(f) != info.get("sha256"):
            return False
    return True
