"""The options ``run``, ``compare`` and ``sweep A.asc`` share, validated as the KV command validates its
own: a bad value is exit 2 with one line naming the option, before anything is built.

``--timeout S``: a finite number of seconds >= 0.1 (``nan``, ``inf``, ``1e309``, negative: refused); it
bounds each program's build and run together. ``--atol X``: a finite number >= 0. ``-D NAME[=VALUE]``:
NAME is a C identifier (or a function-like ``NAME(ARGS)``), the value holds no newline.
"""
from __future__ import annotations

import math
import re
from typing import Callable

import click

MIN_TIMEOUT_S = 0.1
_MACRO = re.compile(r"[A-Za-z_]\w*(\([\w\s,.]*\))?")


class FiniteNumber(click.ParamType):
    """A finite float at least ``low`` (what ``what`` says it is)."""

    name = "number"

    def __init__(self, low: float, what: str):
        self.low, self.what = low, what

    def convert(self, value, param, ctx) -> float:
        try:
            x = float(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a number ({self.what})", param, ctx)
        if not math.isfinite(x) or x < self.low:
            self.fail(f"{value!r}: {self.what}", param, ctx)
        return x


class Define(click.ParamType):
    """``-D NAME[=VALUE]`` as the compiler takes it."""

    name = "NAME[=VALUE]"

    def convert(self, value, param, ctx) -> str:
        name, _, rest = str(value).partition("=")
        if not _MACRO.fullmatch(name):
            self.fail(f"{value!r}: the macro name must be an identifier (NAME or NAME(ARGS))", param, ctx)
        if "\n" in rest or "\r" in rest:
            self.fail(f"{value!r}: a macro value cannot hold a line break", param, ctx)
        return str(value)


SECONDS = FiniteNumber(MIN_TIMEOUT_S, f"a timeout is a finite number of seconds >= {MIN_TIMEOUT_S:g}")
TOLERANCE = FiniteNumber(0.0, "a tolerance is a finite number >= 0")


def build_options(timeout_help: str) -> list[Callable]:
    """``-I``, ``-D``, ``--timeout``, ``--vf-fusion``: how a program is built and how long it may take."""
    return [
        click.option("-I", "include_dirs", multiple=True, metavar="DIR", help="add DIR to the include path"),
        click.option("-D", "defines", multiple=True, type=Define(), metavar="NAME[=VALUE]",
                     help="define a macro (sweep: a list of values, comma list or FIRST..LAST, is swept)"),
        click.option("--timeout", type=SECONDS, default=600.0, show_default=True, help=timeout_help),
        click.option("--vf-fusion", is_flag=True,
                     help="model the compiler's VF fusion (--cce-simd-vf-fusion=true); default off, as samples "
                          "are profiled"),
    ]


def apply(options: list[Callable], fn: Callable) -> Callable:
    for opt in reversed(options):
        fn = opt(fn)
    return fn
