"""Register reuse inside one loop body of a generated VF: a register whose value is dead (its last use
came) takes the next value of the same type, so a long chain needs as many RegTensors as values live at
once, not one per step. Applied only when a body would not fit the register file: the values' own names
read better.

The body is straight-line code the emitter wrote: each ``Reg::RegTensor<T> name;`` is defined by the
first line after its declaration that names it and is not read after its last line.
"""
from __future__ import annotations

import re

_DECL = re.compile(r"^Reg::RegTensor<([\w:]+)> (\w+);$")


def _uses(line: str, name: str) -> bool:
    return re.search(rf"\b{re.escape(name)}\b", line) is not None


def reuse(lines: list[str]) -> tuple[list[str], int]:
    """The body with dead registers reused, and how many RegTensors it still declares."""
    decls = [(k, m.group(1), m.group(2)) for k, ln in enumerate(lines) if (m := _DECL.match(ln.strip()))]
    last = {}
    for _, _, name in decls:
        last[name] = max((k for k, ln in enumerate(lines) if _uses(ln, name) and not _DECL.match(ln.strip())),
                         default=-1)
    rename: dict[str, str] = {}
    pool: dict[str, list[str]] = {}
    dropped: set[int] = set()
    alive: list[tuple[int, str, str]] = []        # (last use, dtype, register)
    for k, dtype, name in decls:
        define = next((j for j in range(k + 1, len(lines)) if _uses(lines[j], name)), k)
        for entry in list(alive):
            if entry[0] <= define:
                alive.remove(entry)
                pool.setdefault(entry[1], []).append(entry[2])
        free = pool.get(dtype) or []
        if free:
            reg = free.pop(0)
            rename[name] = reg
            dropped.add(k)
        else:
            reg = name
        alive.append((last[name], dtype, reg))
    out = []
    for k, ln in enumerate(lines):
        if k in dropped:
            continue
        for old, new in rename.items():
            ln = re.sub(rf"\b{re.escape(old)}\b", new, ln)
        out.append(ln)
    return out, len(decls) - len(dropped)
