"""Host side shared by every simd_vf_story family: build GM buffers, launch on one core, check.

A family host (``broadcast/host.py`` ...) provides ``case()`` (inputs, output shapes, tiling) and
``check(got, inputs)`` (independent numpy reference and the spec's tolerance). ``run_kernel`` launches
a kernel entry ``kernel(*input_gm, *output_gm, tiling)`` with ``toolkit.engine.launch.launch`` on one core and
returns a :class:`VariantResult`.
"""
from __future__ import annotations

import importlib
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol

import numpy as np

from toolkit.engine.launch import LaunchResult, gm_alloc, launch
from toolkit.harness.golden import check_abs, check_rel_sum
from toolkit.record.diagnostics import Diagnostics


@dataclass
class Case:
    """Inputs (GM buffers in kernel-argument order), output shapes (fp32) and the tiling argument."""

    inputs: dict[str, np.ndarray]
    outputs: dict[str, tuple[int, ...]]
    tiling: Any


@dataclass
class Check:
    passed: bool
    max_error: float
    rule: str


class FamilyHost(Protocol):
    def case(self) -> Case: ...

    def check(self, got: dict[str, np.ndarray], inputs: dict[str, np.ndarray]) -> Check: ...


@dataclass
class VariantResult:
    """One variant run: host check, worst error, the core's events and the run's diagnostics."""

    name: str
    passed: bool            # host check passed, no core aborted, no error diagnostic
    check: Check
    events: list
    diagnostics: Diagnostics
    launch: LaunchResult
    outputs: dict[str, np.ndarray] = field(default_factory=dict)
    seconds: float = 0.0

    @property
    def max_error(self) -> float:
        return self.check.max_error


def abs_check(got: np.ndarray, ref: np.ndarray, tol: float) -> Check:
    """|got - ref| <= tol everywhere (NaN fails); worst error is the absolute one."""
    r = check_abs(got, ref, tol)
    return Check(r.passed, r.worst_error, f"|got-ref| <= {tol:g}")


def rel_check(got: np.ndarray, ref: np.ndarray, rtol: float) -> Check:
    """|got - ref| <= rtol * (|ref| + 1) everywhere (NaN fails); worst error is the absolute one."""
    r = check_rel_sum(got, ref, rtol)
    g, f = np.asarray(got, np.float64).ravel(), np.asarray(ref, np.float64).ravel()
    worst = float(np.max(np.abs(g - f))) if g.size else 0.0
    return Check(r.passed, worst if np.isfinite(worst) else float("inf"), f"|got-ref| <= {rtol:g}*(|ref|+1)")


def run_kernel(kernel: Callable[..., None], host: FamilyHost, name: str | None = None) -> VariantResult:
    """Launch ``kernel`` on one core with the family's inputs and check the outputs."""
    t0 = time.perf_counter()
    case = host.case()
    gm_in = [gm_alloc(k, np.ascontiguousarray(v, dtype=np.float32)) for k, v in case.inputs.items()]
    gm_out = [gm_alloc(k, int(np.prod(shape)) * 4) for k, shape in case.outputs.items()]
    res = launch(kernel, 1, [*gm_in, *gm_out, case.tiling], name=name)
    got = {k: p.buf.as_array(np.float32).reshape(shape).copy()
           for (k, shape), p in zip(case.outputs.items(), gm_out)}
    check = host.check(got, case.inputs)
    passed = check.passed and not res.aborted and not res.diagnostics.errors()
    return VariantResult(name or res.kernel, passed, check, res.cores[0].events, res.diagnostics, res,
                         got, time.perf_counter() - t0)


def run_module(module_name: str, name: str | None = None) -> VariantResult:
    """Run the variant module ``module_name`` (it defines ``KERNEL`` and ``HOST``)."""
    mod = importlib.import_module(module_name)
    return run_kernel(mod.KERNEL, mod.HOST, name or module_name.rsplit(".", 1)[-1])
