"""Host side of the broadcast kernels: tiling, flat-index inputs, numpy reference, 1e-3 abs check.

tail: y[m, n] = x[m, n] + a[m]; head: y[m, n] = x[m, n] + a[n] (M=17, N=653);
mid: y[m, b, n] = x[m, b, n] + a[m, n] (M=8, B=3, N=653). x and a hold their flat index 0, 1, 2 ...
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from operators.simd_vf_story.common import AlignUp
from operators.simd_vf_story.hostlib import Check, abs_check
from toolkit.harness.case import Case

TOLERANCE = 1e-3
SHAPES = {"tail": (17, 1, 653), "head": (17, 1, 653), "mid": (8, 3, 653)}


@dataclass(frozen=True)
class BroadcastTiling:
    """The sample's tiling struct: rows m, broadcast axis b (mid only), row length n, padded row."""

    m: int
    b: int
    n: int
    nElemsAligned: int


class BroadcastHost:
    def __init__(self, pattern: str):
        if pattern not in SHAPES:
            raise ValueError(f"broadcast pattern {pattern!r}: one of {sorted(SHAPES)}")
        self.pattern = pattern
        m, b, n = SHAPES[pattern]
        self.tiling = BroadcastTiling(m, b, n, AlignUp(n, 8))

    def shapes(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        t = self.tiling
        x_shape = (t.m, t.b, t.n) if self.pattern == "mid" else (t.m, t.n)
        a_shape = {"tail": (t.m,), "head": (t.n,), "mid": (t.m, t.n)}[self.pattern]
        return x_shape, a_shape

    def case(self) -> Case:
        x_shape, a_shape = self.shapes()
        x = np.arange(int(np.prod(x_shape)), dtype=np.float32).reshape(x_shape)
        a = np.arange(int(np.prod(a_shape)), dtype=np.float32).reshape(a_shape)
        return Case({"x": x, "a": a}, {"y": x_shape}, self.tiling)

    def reference(self, x: np.ndarray, a: np.ndarray) -> np.ndarray:
        x64, a64 = x.astype(np.float64), a.astype(np.float64)
        if self.pattern == "tail":
            return x64 + a64[:, None]
        if self.pattern == "head":
            return x64 + a64[None, :]
        return x64 + a64[:, None, :]

    def check(self, got: dict[str, np.ndarray], inputs: dict[str, np.ndarray]) -> Check:
        return abs_check(got["y"], self.reference(inputs["x"], inputs["a"]), TOLERANCE)
