"""The overlay tree a program is compiled from, and the compiler's dependency output read back.

The rewritten files (``rewrite.py``) must be compiled *as if they were at their own paths*: a quoted
include resolves next to the including file, ``../common/x.h`` climbs the user's real tree. The overlay
mirrors the absolute path of every rewritten file under ``ROOT``; each directory on those paths is a real
directory whose other entries are symbolic links to the originals. So every lookup the compiler makes
from a rewritten file lands where it would from the original, and only the rewritten files differ.
``-fmacro-prefix-map=ROOT/=/`` gives ``__FILE__`` and ``std::source_location`` the original names.

Bytes are kept: sources are read and written as bytes (a GBK comment or string literal stays as it
was); paths are ``str`` with the file system's undecodable bytes as surrogates (``os.fsdecode``).
"""
from __future__ import annotations

import os
from pathlib import Path

from .rewrite import Rewritten, rewrite

#: bytes that must be in a file for the rewrite to change it or find a kernel (a cheap filter before lexing)
_MARKERS = (b"<<<", b"__simd_vf__", b"__simd_callee__", b"__global__")


def decode_source(data: bytes) -> str:
    return data.decode("utf-8", "surrogateescape")


def encode_source(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


def analyse(path: str, data: bytes) -> Rewritten | None:
    """The rewrite of a file's bytes (``.changed``: it must be compiled rewritten; ``.kernels``: the
    ``__global__`` kernels it defines), or None when it has nothing of either."""
    if not any(m in data for m in _MARKERS):
        return None
    return rewrite(decode_source(data), path)


def mirror(root: Path, path: str) -> Path:
    return root / path.lstrip("/")


def build_overlay(root: Path, files: dict[str, bytes]) -> None:
    """Write ``files`` (absolute path -> new bytes) under ``root`` and link every other entry of each
    directory on their paths to the original (module docstring)."""
    real_dirs: set[str] = set()
    for path in files:
        d = os.path.dirname(path)
        while True:
            real_dirs.add(d)
            parent = os.path.dirname(d)
            if parent == d:
                break
            d = parent
    for d in sorted(real_dirs, key=len):
        mirror(root, d).mkdir(parents=True, exist_ok=True)
    for path, data in files.items():
        mirror(root, path).write_bytes(data)
    for d in real_dirs:
        try:
            names = os.listdir(d)
        except OSError:
            continue                              # unreadable: the compiler could not look there either
        for name in names:
            full = os.path.join(d, name)
            if full in real_dirs or full in files:
                continue
            link = mirror(root, full)
            try:
                os.symlink(full, link)
            except FileExistsError:
                pass


def original(root: Path, path: str) -> str:
    """The user's path of a file the compiler named (through the overlay or not)."""
    prefix = str(root) + "/"
    if not path.startswith(prefix):
        return os.path.realpath(path)
    real = os.path.realpath(path)
    if real.startswith(prefix):                   # a rewritten file: its mirror path
        return "/" + real[len(prefix):]
    return real                                    # a link: the original it points to


#: the target name of the dependency rule (``-MT``), so the rule's text starts with a known word
DEPS_TARGET = "program"


def parse_deps(text: str) -> list[str]:
    """The prerequisites of the Make rule written by ``-MD -MF FILE -MT program`` (GCC and Clang): escaped spaces (``\\ ``),
    ``\\#``, ``$$``, line continuations; a path may hold any other character, newlines included (the
    compiler writes them raw), so only unescaped spaces and continuations separate paths."""
    body = text[len(DEPS_TARGET) + 1:] if text.startswith(DEPS_TARGET + ":") else text.split(":", 1)[-1]
    body = body.rstrip("\n")
    out: list[str] = []
    cur: list[str] = []
    i, n = 0, len(body)
    while i < n:
        c = body[i]
        if c == "\\":
            j = i
            while j < n and body[j] == "\\":
                j += 1
            k, nxt = j - i, body[j] if j < n else ""
            if nxt in (" ", "\t"):              # 2N+1 backslashes: N and a space in the name; 2N: N, then the end
                cur.append("\\" * (k // 2) + (nxt if k % 2 else ""))
                if not k % 2:
                    _flush(cur, out)
            elif nxt == "#":
                cur.append("\\" * (k - 1) + "#")
            elif nxt == "\n":                    # a line continuation (after any backslashes of the name)
                cur.append("\\" * (k - 1))
                _flush(cur, out)
            else:
                cur.append("\\" * k)
                j -= 1
            i = j + 1
            continue
        if c == "$" and body[i + 1:i + 2] == "$":
            cur.append("$")
            i += 2
            continue
        if c in " \t":
            _flush(cur, out)
        else:
            cur.append(c)
        i += 1
    _flush(cur, out)
    return out


def _flush(cur: list[str], out: list[str]) -> None:
    if cur:
        token = "".join(cur).strip("\n")
        if token:
            out.append(token)
        cur.clear()
