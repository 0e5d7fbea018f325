"""Helpers of the Reg API tests: run a VF body on registers loaded from UB and read the stored results back.
Plain numpy around the API under test (the loads and stores are LoadAlign / StoreAlign DIST_NORM)."""
from __future__ import annotations

import numpy as np

from tests.api_support import get, put
from toolkit.ascendc import regbase as Reg
from toolkit.ascendc.tensor import UbPtr

SRC, DST = 4096, 32768


def lanes(dt) -> int:
    return 256 // np.dtype(dt).itemsize


def run(ctx, body, inputs, dts, outs):
    """Load each input (one VL of its dtype in ``dts``) into a register, call ``body(regs, out_regs)`` and
    store every output register whole; ``outs`` lists the output dtypes. Returns the stored arrays."""
    dts = [np.dtype(d) for d in dts]
    outs = [np.dtype(d) for d in outs]
    for k, (a, dt) in enumerate(zip(inputs, dts)):
        put(ctx, SRC + 256 * k, np.asarray(a, dt))

    @Reg.__simd_vf__
    def vf():
        regs = []
        for k, dt in enumerate(dts):
            r = Reg.RegTensor[dt]()
            Reg.LoadAlign[dt](r, UbPtr(SRC + 256 * k, dt))
            regs.append(r)
        out_regs = [Reg.RegTensor[dt]() for dt in outs]
        for r in out_regs:
            Reg.Duplicate(r, 0)
        body(regs, out_regs)
        for k, (r, dt) in enumerate(zip(out_regs, outs)):
            Reg.StoreAlign[dt](UbPtr(DST + 256 * k, dt), r, Reg.CreateMask[np.uint8]())

    vf()
    return [get(ctx, DST + 256 * k, dt, lanes(dt)) for k, dt in enumerate(outs)]


def mask_bits(m) -> np.ndarray:
    return np.asarray(m.bits[0], bool)


def ops(ctx) -> list[str]:
    from tests.api_support import last_vf
    return [i[0] for i in last_vf(ctx).instrs]
