"""Polynomial GeLU: gelu(x) = 0.5 * x * (1 + erf(x / sqrt 2)), erf(s) ~ s * P(s^2) / Q(s^2) on s clamped
to [-3.92, 3.92] (P degree 5, Q monic degree 5; max error 1.4e-7 against erf).

Per VL chunk: VLD, 28 compute instructions (VMULS x3, VMINS, VMAXS, VMUL x11, VADDS x11, VDIV), VST.
With unroll U the loop body is written U times, each copy with its own registers, in sequence (the
vendor built U > 1 without machine scheduling, so the copies are not interleaved).
"""
from __future__ import annotations

import math

import numpy as np

from toolkit import regbase as Reg
from toolkit.regbase import VL_B32

from .kernel import MicroHost, make_kernel

CLAMP = 3.92
P = (0.05098256928139001, 8.03359084103311, 120.07455187174517, 1451.1047847093696, 5485.783734898653,
     29659.016169872266)
Q = (35.82138240876043, 435.3894699024673, 3199.132994291027, 13623.044034102335, 26284.625290762877)
INV_SQRT2 = 1.0 / math.sqrt(2.0)


@Reg.__simd_callee__
def GeluOne(r, mask):
    """gelu of the chunk in r[0] into r[5]; r = (x, s, s2, p, q, y) registers of one copy."""
    x, s, s2, p, q, y = r
    Reg.Muls(s, x, INV_SQRT2, mask)
    Reg.Mins(s, s, CLAMP, mask)
    Reg.Maxs(s, s, -CLAMP, mask)
    Reg.Mul(s2, s, s, mask)
    Reg.Muls(p, s2, P[0], mask)
    Reg.Adds(p, p, P[1], mask)
    for c in P[2:]:
        Reg.Mul(p, p, s2, mask)
        Reg.Adds(p, p, c, mask)
    Reg.Mul(p, p, s, mask)
    Reg.Adds(q, s2, Q[0], mask)
    for c in Q[1:]:
        Reg.Mul(q, q, s2, mask)
        Reg.Adds(q, q, c, mask)
    Reg.Div(y, p, q, mask)
    Reg.Adds(y, y, 1.0, mask)
    Reg.Mul(y, y, x, mask)
    Reg.Muls(y, y, 0.5, mask)


def gelu_vf(unroll: int):
    @Reg.__simd_vf__
    def vf(zAddr, xAddr, trips):
        regs = [tuple(Reg.RegTensor[float]() for _ in range(6)) for _ in range(unroll)]
        mask = Reg.CreateMask[float, Reg.MaskPattern.ALL]()
        for i in Reg.VLOOP(trips):
            for u in range(unroll):
                off = (i * unroll + u) * VL_B32
                Reg.LoadAlign[float](regs[u][0], xAddr + off)
                GeluOne(regs[u], mask)
                Reg.StoreAlign[float](zAddr + off, regs[u][5], mask)
    vf.name = vf.__name__ = f"GeluPolyVF_U{unroll}"
    return vf


def reference(x: np.ndarray) -> np.ndarray:
    erf = np.vectorize(math.erf)(np.clip(x * INV_SQRT2, -CLAMP, CLAMP))
    return 0.5 * x * (1.0 + erf)


def variant(iters: int, unroll: int):
    return make_kernel(gelu_vf(unroll), 1), MicroHost(iters, unroll, [(-4.0, 4.0)], reference, 1e-5)
