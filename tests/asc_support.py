"""Helpers of the .asc route tests: write a program to a temp dir, build it (our default build cache, or
one given), run it isolated, and compare event streams with a Python run of the same kernel."""
from __future__ import annotations

import dataclasses
import textwrap
from pathlib import Path

import numpy as np
import pytest

from toolkit.asc.build import BuildError, build, find_compiler
from toolkit.asc.runner import ProgramRun, run_program
from toolkit.record.events import VfCall


def _have_compiler() -> bool:
    """Whether the runner finds a C++ compiler (toolkit.asc.build.find_compiler: $CXX, g++, clang++, c++, zig)."""
    try:
        return bool(find_compiler())
    except BuildError:
        return False


HAVE_COMPILER = _have_compiler()
needs_compiler = pytest.mark.skipif(not HAVE_COMPILER, reason="no C++ compiler to build .asc programs")


def write(tmp: Path, name: str, text: str) -> Path:
    p = tmp / name
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(textwrap.dedent(text))
    return p


def build_and_run(path: Path, args: list[str] = (), timeout: float = 120, cache: Path | None = None,
                  keep_events: bool = False, **kw) -> ProgramRun:
    built = build(path, cache=cache, **kw)
    return run_program(built, list(args), timeout=timeout, keep_events=keep_events)


def output_bytes(run: ProgramRun, launch: int = 0) -> dict[str, bytes]:
    out = {}
    for o in run.launches[launch]["outputs"]:
        mask = np.unpackbits(np.frombuffer(o["written"], np.uint8))[:o["nbytes"]].astype(bool)
        out[o["arg"]] = np.frombuffer(o["data"], np.uint8)[mask].tobytes()
    return out


def event_key(ev) -> tuple:
    """An event without its source location (the two routes name different files)."""
    if isinstance(ev, VfCall):
        return ("VfCall", ev.name, ev.launch, ev.nparams, tuple(ev.instrs),
                tuple(sorted((k, str(v)) for k, v in ev.meta.items())))
    fields = {f.name: getattr(ev, f.name) for f in dataclasses.fields(ev) if f.name != "where"}
    return (type(ev).__name__, tuple(sorted((k, str(v)) for k, v in fields.items())))


__all__ = ["BuildError", "build", "find_compiler", "needs_compiler", "write", "build_and_run", "output_bytes",
           "event_key"]
