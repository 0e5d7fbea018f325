"""What a compiled translation unit tells the run about itself, carried inside the object file.

Each object the ``.asc`` route compiles holds one JSON record in an ELF section named ``asc_meta``: the
source, its ``__global__`` kernels with their parameter names (for naming outputs), its VF loops, whether
it was compiled for the compiler's VF fusion, and, for a source that uses an API the emulator does not
run, the one-line ``UNSUPPORTED_API`` message in place of code. The linker concatenates the sections of
every object (static libraries and other linkers included), so the executable carries the records of all
its translation units; the tool reads them from the file (:func:`read`), never by running it.

The record is a C string literal appended to the compiled text (:func:`c_definition`), so any C or C++
compiler emits it; ``used`` and, where the compiler has it, ``retain`` keep it through ``--gc-sections``.
"""
from __future__ import annotations

import json
import struct

from .rewrite import c_string

SECTION = "asc_meta"
VERSION = 1


def c_definition(record: dict) -> str:
    """The C/C++ text that puts ``record`` into the object's ``asc_meta`` section."""
    body = c_string(json.dumps({"v": VERSION, **record}, sort_keys=True, separators=(",", ":")))
    return ("\n\n#if defined(__has_attribute)\n#if __has_attribute(retain)\n#define __ASC_META_RETAIN , retain\n"
            "#endif\n#endif\n#ifndef __ASC_META_RETAIN\n#define __ASC_META_RETAIN\n#endif\n"
            f'static const char __asc_object_meta[] __attribute__((section("{SECTION}"), used __ASC_META_RETAIN))'
            f' = "{body}";\n')


class NotElf(ValueError):
    """The file is not an ELF object of the kind we build."""


def _sections(data: bytes) -> dict[str, bytes]:
    if data[:4] != b"\x7fELF":
        raise NotElf("not an ELF file")
    if data[4] != 2:
        raise NotElf("not a 64-bit ELF file")
    end = "<" if data[5] == 1 else ">"
    shoff, = struct.unpack_from(end + "Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from(end + "HHH", data, 0x3A)
    if shoff == 0 or shnum == 0 or shoff + shnum * shentsize > len(data):
        raise NotElf("an ELF file without section headers")
    heads = [struct.unpack_from(end + "IIQQQQIIQQ", data, shoff + k * shentsize) for k in range(shnum)]
    names_at = heads[shstrndx][4] if shstrndx < shnum else 0
    out = {}
    for name_off, kind, _flags, _addr, off, size, *_ in heads:
        start = names_at + name_off
        name = data[start:data.find(b"\0", start)].decode("ascii", "replace")
        if kind != 8:                                  # SHT_NOBITS has no bytes in the file
            out[name] = data[off:off + size]
    return out


def read(path: str) -> list[dict]:
    """Every ``asc_meta`` record in an ELF object, shared object or executable (in link order); [] when it
    has none. OSError when unreadable, :class:`NotElf` when it is not an ELF file."""
    with open(path, "rb") as fh:
        data = fh.read()
    blob = _sections(data).get(SECTION, b"")
    records = []
    for chunk in blob.split(b"\0"):
        if not chunk:
            continue
        try:
            rec = json.loads(chunk.decode("utf-8", "surrogateescape"))
        except ValueError:
            continue
        if isinstance(rec, dict) and rec.get("v") == VERSION:
            records.append(rec)
    return records


def merged(records: list[dict]) -> dict:
    """One program's facts from its objects' records: kernel parameter names (the first definition of a
    name wins, as the linker keeps the first), loops, VF fusion (asked by any object), the first
    unsupported-API message."""
    params: dict[str, list[str]] = {}
    loops: list = []
    for r in records:
        for name, names in (r.get("kernel_params") or {}).items():
            params.setdefault(name, names)
        loops.extend(r.get("loops") or [])
    unsupported = next((r["unsupported"] for r in records if r.get("unsupported")), None)
    return {"kernel_params": params, "loops": loops, "vf_fusion": any(r.get("vf_fusion") for r in records),
            "unsupported": unsupported, "sources": [r.get("source", "") for r in records]}
