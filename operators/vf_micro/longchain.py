"""Long dependent chains: per VL chunk VLD, DEPTH dependent VADDS (x + 1/1024 each) or VEXP, VST.

The VEXP chain overflows to +inf after a few links (as on hardware); the host compares with the
same chain evaluated in float32 by numpy, link by link.
"""
from __future__ import annotations

import numpy as np

from toolkit.ascendc import regbase as Reg
from toolkit.ascendc.regbase import VL_B32

from .kernel import MicroHost, make_kernel

DEPTH = 512
STEP = 1.0 / 1024


def _chain_vf(name: str, link):
    @Reg.__simd_vf__
    def vf(zAddr, xAddr, trips):
        v = Reg.RegTensor[float]()
        mask = Reg.CreateMask[float, Reg.MaskPattern.ALL]()
        for i in Reg.VLOOP(trips):
            Reg.LoadAlign[float](v, xAddr + i * VL_B32)
            for _ in range(DEPTH):
                link(v, mask)
            Reg.StoreAlign[float](zAddr + i * VL_B32, v, mask)
    vf.name = vf.__name__ = name
    return vf


VaddsChainVF = _chain_vf("VaddsChainVF", lambda v, m: Reg.Adds(v, v, STEP, m))
VexpChainVF = _chain_vf("VexpChainVF", lambda v, m: Reg.Exp(v, v, m))


def _float32_chain(x: np.ndarray, fn) -> np.ndarray:
    v = x.astype(np.float32)
    with np.errstate(over="ignore"):
        for _ in range(DEPTH):
            v = fn(v).astype(np.float32)
    return v.astype(np.float64)


def vadds_variant(iters: int):
    ref = lambda x: _float32_chain(x, lambda v: v + np.float32(STEP))  # noqa: E731
    return make_kernel(VaddsChainVF, 1), MicroHost(iters, 1, [(-1.0, 1.0)], ref, 0.0)


def vexp_variant(iters: int):
    ref = lambda x: _float32_chain(x, np.exp)  # noqa: E731
    return make_kernel(VexpChainVF, 1), MicroHost(iters, 1, [(-1.0, 1.0)], ref, 0.0)
