"""Host side shared by every simd_vf_story family: the family-host contract and the run on one core.

A family host (``broadcast/host.py`` ...) provides ``case()`` (a :class:`toolkit.harness.case.Case`:
fp32 inputs, output shapes, tiling) and ``check(got, inputs)`` (independent numpy reference and the
spec's tolerance, a :class:`Check`). ``run_kernel`` launches a kernel entry
``kernel(*input_gm, *output_gm, tiling)`` on one core through the harness (``toolkit.harness.run``) and
returns a :class:`VariantResult`.
"""
from __future__ import annotations

import importlib
import time
from dataclasses import dataclass
from typing import Callable, Protocol

import numpy as np

from toolkit.harness.case import Case
from toolkit.harness.golden import check_abs, check_rel_sum
from toolkit.harness.run import Run, run_case

__all__ = ["Case", "Check", "FamilyHost", "VariantResult", "abs_check", "rel_check", "run_kernel", "run_module"]


@dataclass
class Check:
    passed: bool
    max_error: float
    rule: str

    def describe(self, name: str) -> str:
        """One line for a failed gate: ``NAME max error E (RULE)``."""
        return f"{name} max error {self.max_error:g} ({self.rule})"


class FamilyHost(Protocol):
    def case(self) -> Case: ...

    def check(self, got: dict[str, np.ndarray], inputs: dict[str, np.ndarray]) -> Check: ...


@dataclass
class VariantResult(Run):
    """One variant run (:class:`toolkit.harness.run.Run` with the family's host check as ``check``); passed:
    host check passed, no error diagnostic (so no core aborted); no UB gate (the samples' plans are
    fixed)."""

    @property
    def name(self) -> str:
        return self.variant

    @property
    def check(self) -> Check:
        return self.checks["host"]

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
    """Launch ``kernel`` on one core with the family's inputs (as fp32) and check the outputs."""
    t0 = time.perf_counter()
    case = host.case()
    case.inputs = {k: np.ascontiguousarray(v, dtype=np.float32) for k, v in case.inputs.items()}
    name = name or getattr(kernel, "__name__", "kernel")
    run = run_case(kernel, 1, case, lambda got: {"host": host.check(got, case.inputs)}, variant=name, name=name,
                   record=VariantResult)
    run.seconds = time.perf_counter() - t0
    return run


def run_module(module_name: str, name: str | None = None) -> VariantResult:
    """Run the variant module ``module_name`` (it defines ``KERNEL`` and ``HOST``)."""
    mod = importlib.import_module(module_name)
    return run_kernel(mod.KERNEL, mod.HOST, name or module_name.rsplit(".", 1)[-1])
