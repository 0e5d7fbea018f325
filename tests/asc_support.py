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


def both_routes(tmp: Path, program: str, x: np.ndarray, out_bytes: int, kernel) -> tuple:
    """One kernel on both routes: ``program`` (.asc text) built and run with its events kept, and the Python
    ``kernel(x, out)`` launched on one core over GM ``x`` (the bytes of ``x``) and ``out`` (``out_bytes``).
    Returns (the .asc run, the Python launch, the two GM allocations)."""
    from toolkit.engine.launch import gm_alloc, launch
    asc = build_and_run(write(tmp, "routes.asc", program), keep_events=True)
    assert asc.failure is None and asc.exit_status == 0, (asc.failure, asc.stderr)
    gm = [gm_alloc("x", np.ascontiguousarray(x).view(np.uint8)), gm_alloc("out", out_bytes)]
    return asc, launch(kernel, 1, gm), gm


def assert_same_event_stream(asc: ProgramRun, py, tmp_name: str) -> None:
    """Both routes recorded the same events (by :func:`event_key`), and the Python route's temporary buffer
    ``tmp_name`` (e.g. ``Sort.tmp``) is among them."""
    assert [event_key(e) for e in asc.launches[0]["events"][0]] == [event_key(e) for e in py.cores[0].events]
    assert any(getattr(e, "name", "") == tmp_name for e in py.cores[0].events)
