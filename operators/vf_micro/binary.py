"""A = B + C and A = B / C: per VL chunk two loads, one op, one store (vendor micro-kernels)."""
from __future__ import annotations

from toolkit.ascendc import regbase as Reg
from toolkit.ascendc.regbase import VL_B32

from .kernel import MicroHost, make_kernel


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


def add_variant(iters: int):
    return make_kernel(AddVF, 2), MicroHost(iters, 1, [(-1.0, 1.0), (-1.0, 1.0)], lambda b, c: b + c, 1e-6)


def div_variant(iters: int):
    return make_kernel(DivVF, 2), MicroHost(iters, 1, [(-1.0, 1.0), (0.5, 2.0)], lambda b, c: b / c, 1e-6)
