"""Host side of the reduce kernels over x[D0, D1] = [78, 250] fp32, uniform(-1, 1) drawn row by row as the
sample's C++ host draws it (``std::mt19937 gen(0)``, ``std::uniform_real_distribution<float>(-1, 1)``).

``ar`` reduces along the last axis (out [D0]), ``ra`` along the first (out [D1]). max: |got - ref|
<= 1e-4; sum: float64 reference, |got - ref| <= 1e-3 * (|ref| + 1).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from operators.simd_vf_story.common import AlignUp
from operators.simd_vf_story.hostlib import Check, abs_check, rel_check
from toolkit.harness.case import Case
from toolkit.harness.cpp_random import uniform_real_float

D0, D1 = 78, 250
SEED = 0
MAX_TOLERANCE = 1e-4
SUM_RTOL = 1e-3


@dataclass(frozen=True)
class ReduceTiling:
    d0: int
    d1: int
    d1Pad: int     # row slot in UB: d1 rounded up to 32 B (256 floats for d1 = 250)


class ReduceHost:
    def __init__(self, op: str, axis: str, seed: int = SEED):
        if op not in ("max", "sum") or axis not in ("ar", "ra"):
            raise ValueError(f"reduce op/axis {op}/{axis}: op max|sum, axis ar|ra")
        self.op, self.axis, self.seed = op, axis, seed
        self.tiling = ReduceTiling(D0, D1, AlignUp(D1, 8))

    def case(self) -> Case:
        t = self.tiling
        x = uniform_real_float(self.seed, t.d0 * t.d1, -1.0, 1.0).reshape(t.d0, t.d1)
        out = (t.d0,) if self.axis == "ar" else (t.d1,)
        return Case({"x": x}, {"z": out}, t)

    def reference(self, x: np.ndarray) -> np.ndarray:
        axis = 1 if self.axis == "ar" else 0
        x64 = x.astype(np.float64)
        return x64.max(axis=axis) if self.op == "max" else x64.sum(axis=axis)

    def check(self, got: dict[str, np.ndarray], inputs: dict[str, np.ndarray]) -> Check:
        ref = self.reference(inputs["x"])
        if self.op == "max":
            return abs_check(got["z"], ref, MAX_TOLERANCE)
        return rel_check(got["z"], ref, SUM_RTOL)
