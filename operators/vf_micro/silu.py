"""SiLU: y = x / (1 + exp(-x)) as VLD, VMULS, VEXP, VADDS, VMULS, VADDS, VDIV, VMUL, VST per VL chunk
(the ones vector is x * 0 + 1, as the vendor's instruction mix says)."""
from __future__ import annotations

import numpy as np

from toolkit.ascendc import regbase as Reg
from toolkit.ascendc.regbase import VL_B32

from .kernel import MicroHost, make_kernel


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


def variant(iters: int):
    return make_kernel(SiluVF, 1), MicroHost(iters, 1, [(-6.0, 6.0)], lambda x: x / (1.0 + np.exp(-x)), 1e-6)
