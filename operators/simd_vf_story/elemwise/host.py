"""Host side of the elemwise AXPY kernels: z = a*x + y, a = 2.0, N = 19500, x = y = one seeded
uniform(-1, 1) fp32 input drawn as the sample's C++ host draws it (``std::mt19937 gen(0)`` with
``std::uniform_real_distribution<float>(-1, 1)``); check |z - (a*x + y)| <= 1e-4."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from operators.simd_vf_story.hostlib import Check, abs_check
from toolkit.harness.case import Case
from toolkit.harness.cpp_random import uniform_real_float

N = 19500
A = 2.0
SEED = 0
TOLERANCE = 1e-4


@dataclass(frozen=True)
class ElemwiseTiling:
    n: int
    a: float


class ElemwiseHost:
    def __init__(self, n: int = N, seed: int = SEED):
        self.tiling = ElemwiseTiling(n, A)
        self.seed = seed

    def case(self) -> Case:
        data = uniform_real_float(self.seed, self.tiling.n, -1.0, 1.0)
        return Case({"x": data, "y": data.copy()}, {"z": (self.tiling.n,)}, self.tiling)

    def check(self, got: dict[str, np.ndarray], inputs: dict[str, np.ndarray]) -> Check:
        x, y = inputs["x"].astype(np.float64), inputs["y"].astype(np.float64)
        return abs_check(got["z"], self.tiling.a * x + y, TOLERANCE)
