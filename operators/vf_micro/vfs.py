"""The VFs of the vf_micro kernels, each over ``trips`` VL chunks of fp32, and their float64 references.

* A = B + C and A = B / C: per VL chunk two loads, one op, one store.
* Polynomial GeLU: gelu(x) = 0.5 * x * (1 + erf(x / sqrt 2)), erf(s) ~ s * P(s^2) / Q(s^2) on s clamped
  to [-3.92, 3.92] (P degree 5, Q monic degree 5; max error 1.4e-7 against erf). Per VL chunk: VLD,
  28 compute instructions (VMULS x3, VMINS, VMAXS, VMUL x11, VADDS x11, VDIV), VST. With unroll U each
  statement of the body is written U times (copy u on its own registers), as the vendor's hand-unrolled
  kernels are written (elemwise_axpy_unroll: the loads of all copies, then each op for every copy, then
  the stores); U > 1 was built without machine scheduling, so that order stays.
* SiLU: y = x / (1 + exp(-x)) as VLD, VMULS, VEXP, VADDS, VMULS, VADDS, VDIV, VMUL, VST per VL chunk
  (the ones vector is x * 0 + 1, as the vendor's instruction mix says).
* Long dependent chains: per VL chunk VLD, DEPTH dependent VADDS (x + 1/1024 each) or VEXP, VST. The
  VEXP chain overflows to +inf after a few links (as on hardware); its reference is the same chain
  evaluated in float32 by numpy, link by link.
"""
from __future__ import annotations

import math

import numpy as np

from toolkit.ascendc import regbase as Reg
from toolkit.ascendc.regbase import VL_B32


# -- A = B + C, A = B / C --------------------------------------------------------------------------
def _binary_vf(name: str, op):
    @Reg.__simd_vf__
    def vf(zAddr, bAddr, cAddr, trips):
        b = Reg.RegTensor[float]()
        c = Reg.RegTensor[float]()
        a = Reg.RegTensor[float]()
        mask = Reg.CreateMask[float, Reg.MaskPattern.ALL]()
        for i in Reg.VLOOP(trips):
            Reg.LoadAlign[float](b, bAddr + i * VL_B32)
            Reg.LoadAlign[float](c, cAddr + i * VL_B32)
            op(a, b, c, mask)
            Reg.StoreAlign[float](zAddr + i * VL_B32, a, mask)
    vf.name = vf.__name__ = name
    return vf


AddVF = _binary_vf("AddVF", Reg.Add)
DivVF = _binary_vf("DivVF", Reg.Div)


# -- polynomial GeLU -------------------------------------------------------------------------------
CLAMP = 3.92
P = (0.05098256928139001, 8.03359084103311, 120.07455187174517, 1451.1047847093696, 5485.783734898653,
     29659.016169872266)
Q = (35.82138240876043, 435.3894699024673, 3199.132994291027, 13623.044034102335, 26284.625290762877)
INV_SQRT2 = 1.0 / math.sqrt(2.0)


def _statements():
    """The body for one VL chunk as statements over one copy's registers r = (x, s, s2, p, q, y):
    gelu of the chunk in x into y."""
    out = [lambda r, m: Reg.Muls(r[1], r[0], INV_SQRT2, m),
           lambda r, m: Reg.Mins(r[1], r[1], CLAMP, m),
           lambda r, m: Reg.Maxs(r[1], r[1], -CLAMP, m),
           lambda r, m: Reg.Mul(r[2], r[1], r[1], m),
           lambda r, m: Reg.Muls(r[3], r[2], P[0], m),
           lambda r, m: Reg.Adds(r[3], r[3], P[1], m)]
    for c in P[2:]:
        out += [lambda r, m: Reg.Mul(r[3], r[3], r[2], m), lambda r, m, c=c: Reg.Adds(r[3], r[3], c, m)]
    out += [lambda r, m: Reg.Mul(r[3], r[3], r[1], m),
            lambda r, m: Reg.Adds(r[4], r[2], Q[0], m)]
    for c in Q[1:]:
        out += [lambda r, m: Reg.Mul(r[4], r[4], r[2], m), lambda r, m, c=c: Reg.Adds(r[4], r[4], c, m)]
    out += [lambda r, m: Reg.Div(r[5], r[3], r[4], m),
            lambda r, m: Reg.Adds(r[5], r[5], 1.0, m),
            lambda r, m: Reg.Mul(r[5], r[5], r[0], m),
            lambda r, m: Reg.Muls(r[5], r[5], 0.5, m)]
    return out


STATEMENTS = _statements()


def gelu_vf(unroll: int, order: str = "interleaved"):
    """The VF with each statement of the body written ``unroll`` times (copy u on its own registers).
    ``order``: "interleaved" (the loads of all copies, then each statement for every copy, then the
    stores) or "copy" (copy after copy: load, body, store of copy 0, then of copy 1 ..., as a compiler
    unrolling without machine scheduling emits them)."""
    if order not in ("interleaved", "copy"):
        raise ValueError(f"gelu_vf: order {order!r} is not 'interleaved' or 'copy'")

    @Reg.__simd_vf__
    def vf(zAddr, xAddr, trips):
        regs = [tuple(Reg.RegTensor[float]() for _ in range(6)) for _ in range(unroll)]
        mask = Reg.CreateMask[float, Reg.MaskPattern.ALL]()
        for i in Reg.VLOOP(trips):
            groups = [range(unroll)] if order == "interleaved" else [(u,) for u in range(unroll)]
            for copies in groups:
                for u in copies:
                    Reg.LoadAlign[float](regs[u][0], xAddr + (i * unroll + u) * VL_B32)
                for statement in STATEMENTS:
                    for u in copies:
                        statement(regs[u], mask)
                for u in copies:
                    Reg.StoreAlign[float](zAddr + (i * unroll + u) * VL_B32, regs[u][5], mask)
    vf.name = vf.__name__ = f"GeluPolyVF_U{unroll}" + ("" if order == "interleaved" else "_copy")
    return vf


def gelu_reference(x: np.ndarray) -> np.ndarray:
    erf = np.vectorize(math.erf)(np.clip(x * INV_SQRT2, -CLAMP, CLAMP))
    return 0.5 * x * (1.0 + erf)


# -- SiLU ------------------------------------------------------------------------------------------
@Reg.__simd_vf__
def SiluVF(zAddr, xAddr, trips):
    x = Reg.RegTensor[float]()
    e = Reg.RegTensor[float]()
    one = Reg.RegTensor[float]()
    y = Reg.RegTensor[float]()
    mask = Reg.CreateMask[float, Reg.MaskPattern.ALL]()
    for i in Reg.VLOOP(trips):
        Reg.LoadAlign[float](x, xAddr + i * VL_B32)
        Reg.Muls(e, x, -1.0, mask)
        Reg.Exp(e, e, mask)
        Reg.Adds(e, e, 1.0, mask)
        Reg.Muls(one, x, 0.0, mask)
        Reg.Adds(one, one, 1.0, mask)
        Reg.Div(y, one, e, mask)
        Reg.Mul(y, y, x, mask)
        Reg.StoreAlign[float](zAddr + i * VL_B32, y, mask)

def silu_reference(x: np.ndarray) -> np.ndarray:
    return x / (1.0 + np.exp(-x))


# -- long dependent chains -------------------------------------------------------------------------
DEPTH = 512
STEP = 1.0 / 1024


def _chain_vf(name: str, link, depth: int = DEPTH, loops: int = 1, barrier: bool = False):
    """``loops`` hardware loops over the ``trips`` VL chunks, each a load (x in the first loop, the previous
    loop's z after it), ``depth`` dependent ``link``s and a store to z; with ``barrier`` a
    ``LocalMemBar<VEC_STORE, VEC_LOAD>`` between the loops (each loop reads what the one before stored)."""
    @Reg.__simd_vf__
    def vf(zAddr, xAddr, trips):
        v = Reg.RegTensor[float]()
        mask = Reg.CreateMask[float, Reg.MaskPattern.ALL]()
        for k in range(loops):
            src = xAddr if k == 0 else zAddr
            for i in Reg.VLOOP(trips):
                Reg.LoadAlign[float](v, src + i * VL_B32)
                for _ in range(depth):
                    link(v, mask)
                Reg.StoreAlign[float](zAddr + i * VL_B32, v, mask)
            if barrier and k < loops - 1:
                Reg.LocalMemBar[Reg.MemType.VEC_STORE, Reg.MemType.VEC_LOAD]()
    vf.name = vf.__name__ = name
    return vf


def _vadds(v, m) -> None:
    Reg.Adds(v, v, STEP, m)


VaddsChainVF = _chain_vf("VaddsChainVF", _vadds)
VexpChainVF = _chain_vf("VexpChainVF", lambda v, m: Reg.Exp(v, v, m))


def multi_loop_chain_vf(loops: int, depth: int, barrier: bool):
    """The VADDS chain in ``loops`` loops of ``depth`` links each (see :func:`_chain_vf`)."""
    name = f"ChainLoops{loops}x{depth}VF" + ("_membar" if barrier else "")
    return _chain_vf(name, _vadds, depth, loops, barrier)


def _float32_chain(x: np.ndarray, fn, depth: int = DEPTH) -> np.ndarray:
    v = x.astype(np.float32)
    with np.errstate(over="ignore"):
        for _ in range(depth):
            v = fn(v).astype(np.float32)
    return v.astype(np.float64)


def vadds_links_reference(links: int):
    """The float32 chain of ``links`` VADDS of STEP, link by link."""
    return lambda x: _float32_chain(x, lambda v: v + np.float32(STEP), links)


def vadds_chain_reference(x: np.ndarray) -> np.ndarray:
    return vadds_links_reference(DEPTH)(x)


def vexp_chain_reference(x: np.ndarray) -> np.ndarray:
    return _float32_chain(x, np.exp)
