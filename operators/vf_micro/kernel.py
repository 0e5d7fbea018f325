"""UB plan, copy-in/out and launch shared by the vf_micro kernels, and their host side.

A kernel reads ``len(inputs)`` fp32 arrays of ``I * 64`` elements into UB (one buffer each, plus one
output buffer), runs its VF once over the ``I`` VL chunks, and copies the result out. The VF is the
measured object (the vendor row is one VF instance from start to end, drain included).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from operators.simd_vf_story.hostlib import Case, Check, rel_check
from toolkit.ascendc.dma import DataCopy
from toolkit.ascendc.pipe import TPipe, TPosition, TQue
from toolkit.ascendc.regbase import VL_B32
from toolkit.ascendc.tensor import GlobalTensor, gm_cast

SEED = 0


@dataclass(frozen=True)
class MicroTiling:
    iters: int          #: VL chunks processed by the VF (``I``)
    unroll: int = 1     #: VL chunks per loop trip (``U``): the body is written U times


class MicroKernel:
    """Init / CopyIn / one VF call / CopyOut for a VF ``vf(z, *inputs, trips)``."""

    def __init__(self, vf, n_inputs: int):
        self.vf = vf
        self.n_inputs = n_inputs
        self.pipe = TPipe()
        self.inQueues = [TQue(TPosition.VECIN, 1) for _ in range(n_inputs)]
        self.outQueue = TQue(TPosition.VECOUT, 1)

    def run(self, gms: list, tiling: MicroTiling) -> None:
        n = tiling.iters * VL_B32
        ins = [GlobalTensor(float) for _ in range(self.n_inputs)]
        out = GlobalTensor(float)
        for g, raw in zip(ins, gms[:-1]):
            g.SetGlobalBuffer(gm_cast(float, raw), n)
        out.SetGlobalBuffer(gm_cast(float, gms[-1]), n)
        for q in (*self.inQueues, self.outQueue):
            self.pipe.InitBuffer(q, 1, n * 4)
        locals_ = []
        for q, g in zip(self.inQueues, ins):
            t = q.AllocTensor(float)
            DataCopy(t, g, n)
            q.EnQue(t)
            locals_.append(q.DeQue(float))
        z = self.outQueue.AllocTensor(float)
        self.vf(z.GetPhyAddr(), *[t.GetPhyAddr() for t in locals_], tiling.iters // tiling.unroll)
        self.outQueue.EnQue(z)
        for q, t in zip(self.inQueues, locals_):
            q.FreeTensor(t)
        z = self.outQueue.DeQue(float)
        DataCopy(out, z, n)
        self.outQueue.FreeTensor(z)


def make_kernel(vf, n_inputs: int) -> Callable:
    """The kernel entry ``kernel(*input_gm, output_gm, tiling)`` of a VF."""
    def kernel(*args):
        MicroKernel(vf, n_inputs).run(list(args[:-1]), args[-1])
    kernel.__name__ = vf.name
    return kernel


class MicroHost:
    """Inputs uniform in ``ranges`` (one (lo, hi) per input), reference ``ref(*inputs)`` in float64."""

    def __init__(self, iters: int, unroll: int, ranges: list[tuple[float, float]],
                 ref: Callable[..., np.ndarray], rtol: float):
        self.tiling = MicroTiling(iters, unroll)
        self.ranges, self.ref, self.rtol = ranges, ref, rtol

    def case(self) -> Case:
        rng = np.random.default_rng(SEED)
        n = self.tiling.iters * VL_B32
        inputs = {f"x{k}": rng.uniform(lo, hi, n).astype(np.float32) for k, (lo, hi) in enumerate(self.ranges)}
        return Case(inputs, {"z": (n,)}, self.tiling)

    def check(self, got: dict[str, np.ndarray], inputs: dict[str, np.ndarray]) -> Check:
        """rtol 0: bit-exact against the reference (inf included); else |got-ref| <= rtol*(|ref|+1)."""
        ref = self.ref(*[v.astype(np.float64) for v in inputs.values()])
        if self.rtol == 0:
            ok = bool(np.array_equal(got["z"], ref.astype(np.float32)))
            return Check(ok, 0.0 if ok else float("inf"), "bit-exact (the same float32 chain)")
        return rel_check(got["z"], ref, self.rtol)
