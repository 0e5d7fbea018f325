"""Start-up stays cheap: ``migrate-check --help`` and every subcommand's ``--help`` load no emulator.

Each probe runs in a fresh interpreter and reports the modules it imported; the test fails when one of
them is a heavy module (numpy, ml_dtypes, matplotlib, dask, greenlet) or a subsystem that only a run
needs (the emulator, the cycle model, the .asc route ...). A set of modules is a stable check where a
wall-time limit would not be (scripts/bench.py measures the time). To see who imports an offender:
``python -X importtime -c 'from toolkit.cli import main; main()' --help``.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

#: module prefixes a --help must not import (a module or any of its submodules)
HEAVY = ("numpy", "ml_dtypes", "matplotlib", "dask", "distributed", "greenlet", "multiprocessing",
         "concurrent.futures.process",
         "toolkit.ascendc", "toolkit.engine.launch", "toolkit.engine.lockstep", "toolkit.timing",
         "toolkit.calibration", "toolkit.compiler", "toolkit.harness", "toolkit.asc", "toolkit.sweep.engine",
         "toolkit.views.cycles", "toolkit.views.charts", "toolkit.views.html_report")

ROOT = Path(__file__).resolve().parents[1]

#: run one command in this fresh interpreter; print its exit code, output and imported modules as JSON
PROBE = """
import contextlib, io, json, sys
from toolkit.cli import cli, main
out = io.StringIO()
with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
    code = main(sys.argv[1:])
got = {"code": code, "out": out.getvalue(), "modules": sorted(sys.modules)}
if sys.argv[1:] == ["--help"]:
    got["commands"] = sorted(cli.commands)
    got["sweeps"] = sorted(cli.commands["sweep"].list_commands(None))
print(json.dumps(got))
"""


def probe(*args: str) -> dict:
    """(``-c`` puts the working directory first on sys.path: the tree under test is imported)"""
    done = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=120, check=True)
    return json.loads(done.stdout)


def heavy(modules: list[str]) -> list[str]:
    return [m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY)
            or (m.startswith("operators.") and m.endswith(".host"))]


def summary(modules: list[str]) -> str:
    """The offending packages, not all their submodules: 'numpy, toolkit.timing (+40 submodules)'."""
    roots = sorted({next(h for h in HEAVY if m == h or m.startswith(h + ".")) if not m.endswith(".host") else m
                    for m in modules})
    return f"{', '.join(roots)} ({len(modules)} modules)"


@pytest.fixture(scope="module")
def top() -> dict:
    return probe("--help")


def test_top_level_help_loads_no_heavy_module(top):
    assert top["code"] == 0 and "Usage: migrate-check" in top["out"]
    hits = heavy(top["modules"])
    assert not hits, f"migrate-check --help imported {summary(hits)} (import them where they are used)"
    # the probe sees the commands: every operator's command module was loaded, and stayed light
    assert {"kv_rms_norm_rope_cache", "softmax", "simd_vf_story", "run", "compare", "sweep"} <= set(top["commands"])


def test_every_subcommand_help_loads_no_heavy_module(top):
    helps = [[name, "--help"] for name in top["commands"]]
    helps += [["sweep", name, "--help"] for name in top["sweeps"]] + [["sweep", "x.asc", "--help"]]
    assert ["sweep", "kv_rms_norm_rope_cache", "--help"] in helps
    offenders = {}
    for args in helps:
        got = probe(*args)
        assert got["code"] == 0 and "Usage:" in got["out"], (args, got["out"][-400:])
        if heavy(got["modules"]):
            offenders[" ".join(args)] = summary(heavy(got["modules"]))
    assert not offenders, f"--help imported heavy modules (import them where they are used): {offenders}"


def test_the_check_sees_a_heavy_import():
    """The probe is not blind: a command that runs (here up to its input check) loads the emulator."""
    got = probe("softmax", "--total-m", "0")
    assert got["code"] == 2 and "must be positive" in got["out"]
    assert {"numpy", "operators.softmax.host"} <= set(heavy(got["modules"]))
    assert heavy(["numpy.linalg", "toolkit.timing.core", "operators.softmax.host", "toolkit.asc"]) == [
        "numpy.linalg", "toolkit.timing.core", "operators.softmax.host", "toolkit.asc"]
    assert heavy(["toolkit.cli", "toolkit.machine", "click", "toolkit.ascendcx"]) == []
