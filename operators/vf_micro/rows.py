"""The ten vf_micro rows: each a VF of ``vfs.py`` at a loop count and unroll, its UB plan and launch,
its host check, and their registration as calibration kernels (entry point ``vf_micro`` of the
``migrate_check.calibration`` group; the measured cycles are rows of
``toolkit/calibration/data/calibration.csv``).

A kernel reads ``len(inputs)`` fp32 arrays of ``I * 64`` elements into UB (one buffer each, plus one
output buffer), runs its VF once over the ``I`` VL chunks, and copies the result out. The VF is the
measured object (the vendor row is one VF instance from start to end, drain included: scope ``vf``).
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Callable

import numpy as np

from toolkit.ascendc.dma import DataCopy
from toolkit.ascendc.pipe import TPipe, TPosition, TQue
from toolkit.ascendc.regbase import VL_B32
from toolkit.ascendc.tensor import GlobalTensor, gm_cast
from toolkit.calibration.sources import VfSource
from toolkit.engine.launch import gm_alloc, launch
from toolkit.harness.golden import check_rel_sum
from toolkit.record.events import VfCall

from . import vfs

FAMILY = "vf_micro"
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


@dataclass(frozen=True)
class MicroRow:
    """One calibration row's kernel: ``vf`` over ``iters`` VL chunks, ``unroll`` per loop trip; inputs
    uniform in ``ranges`` (one (lo, hi) each); ``ref(*inputs)`` in float64; ``rtol`` 0 = bit-exact."""

    name: str
    group: str                  #: calibration group
    variant: str                #: calibration variant
    vf: object
    iters: int
    unroll: int
    ranges: tuple[tuple[float, float], ...]
    ref: Callable[..., np.ndarray]
    rtol: float

    @property
    def key(self) -> str:
        return f"{FAMILY}/{self.name}"

    @property
    def kernel(self) -> Callable:
        return make_kernel(self.vf, len(self.ranges))

    def inputs(self) -> dict[str, np.ndarray]:
        rng = np.random.default_rng(SEED)
        n = self.iters * VL_B32
        return {f"x{k}": rng.uniform(lo, hi, n).astype(np.float32) for k, (lo, hi) in enumerate(self.ranges)}

    def check(self, got: np.ndarray, inputs: dict[str, np.ndarray]) -> tuple[bool, float, str]:
        """(passed, worst absolute error, rule): rtol 0 = bit-exact against the reference (inf included),
        else |got-ref| <= rtol*(|ref|+1)."""
        ref = self.ref(*[v.astype(np.float64) for v in inputs.values()])
        if self.rtol == 0:
            ok = bool(np.array_equal(got, ref.astype(np.float32)))
            return ok, 0.0 if ok else float("inf"), "bit-exact (the same float32 chain)"
        passed = check_rel_sum(got, ref, self.rtol).passed
        g, f = np.asarray(got, np.float64).ravel(), np.asarray(ref, np.float64).ravel()
        worst = float(np.max(np.abs(g - f))) if g.size else 0.0
        return passed, worst if np.isfinite(worst) else float("inf"), f"|got-ref| <= {self.rtol:g}*(|ref|+1)"


@dataclass
class MicroRun:
    passed: bool            #: host check passed, the core did not abort, no error diagnostic
    max_error: float
    rule: str
    events: list            #: the core's event stream

    @property
    def vf_instrs(self) -> list:
        """The instruction records of the row's VF (its one VF call)."""
        return list(next(e for e in self.events if isinstance(e, VfCall)).instrs)


def run(row: MicroRow) -> MicroRun:
    """Launch the row's kernel on one core and check its output."""
    inputs = row.inputs()
    n = row.iters * VL_B32
    gm_in = [gm_alloc(k, np.ascontiguousarray(v, dtype=np.float32)) for k, v in inputs.items()]
    gm_out = gm_alloc("z", n * 4)
    res = launch(row.kernel, 1, [*gm_in, gm_out, MicroTiling(row.iters, row.unroll)], name=row.name)
    got = gm_out.buf.as_array(np.float32).reshape((n,)).copy()
    passed, worst, rule = row.check(got, inputs)
    return MicroRun(passed and not res.aborted and not res.diagnostics.errors(), worst, rule, res.cores[0].events)


def _add(iters: int) -> dict:
    return dict(vf=vfs.AddVF, iters=iters, unroll=1, ranges=((-1.0, 1.0), (-1.0, 1.0)), ref=np.add, rtol=1e-6)


def _div(iters: int) -> dict:
    return dict(vf=vfs.DivVF, iters=iters, unroll=1, ranges=((-1.0, 1.0), (0.5, 2.0)), ref=np.divide, rtol=1e-6)


def _gelu(iters: int, unroll: int) -> dict:
    return dict(vf=vfs.gelu_vf(unroll), iters=iters, unroll=unroll, ranges=((-4.0, 4.0),), ref=vfs.gelu_reference,
                rtol=1e-5)


def _chain(vf, ref, iters: int) -> dict:
    return dict(vf=vf, iters=iters, unroll=1, ranges=((-1.0, 1.0),), ref=ref, rtol=0.0)


ROWS: tuple[MicroRow, ...] = tuple(MicroRow(name, group, variant, **spec) for name, group, variant, spec in [
    # name                    calibration group      calibration variant
    ("add_i16",               "A=B+C (VADD)",        "I16", _add(16)),
    ("add_i96",               "A=B+C (VADD)",        "I96", _add(96)),
    ("div_i16",               "A=B/C (VDIV)",        "I16", _div(16)),
    ("div_i96",               "A=B/C (VDIV)",        "I96", _div(96)),
    ("gelu_poly_i16_u1",      "gelu_poly",           "I16_U1", _gelu(16, 1)),
    ("gelu_poly_i96_u1",      "gelu_poly",           "I96_U1", _gelu(96, 1)),
    ("gelu_poly_i96_u4",      "gelu_poly",           "I96_U4", _gelu(96, 4)),
    ("silu_i64_u1",           "silu",                "I64_U1",
     dict(vf=vfs.SiluVF, iters=64, unroll=1, ranges=((-6.0, 6.0),), ref=vfs.silu_reference, rtol=1e-6)),
    ("vadds_longchain_i16",   "vadds_longchain",     "I16 1 loop x 512 dependent VADDS",
     _chain(vfs.VaddsChainVF, vfs.vadds_chain_reference, 16)),
    ("vexp_longchain_i16",    "vexp_longchain",      "I16 1 loop x 512 dependent VEXP",
     _chain(vfs.VexpChainVF, vfs.vexp_chain_reference, 16)),
])


def _events(row: MicroRow) -> list:
    return run(row).events


def sources() -> list[VfSource]:
    return [VfSource(r.key, r.group, r.variant, "vf", functools.partial(_events, r)) for r in ROWS]
