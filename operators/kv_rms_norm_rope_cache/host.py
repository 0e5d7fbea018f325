"""Host side of KvRmsNormRopeCache (the sample's RunSample) on the operator harness (``toolkit.harness``):
its options and envelope, its data, tiling and GM case, the CompareBf16 checks and the UB plan at any ubFactor.

Both backends run under this one host side, so a difference between them can only come from the
kernels. Inputs come from the in-process generator (byte-identical to the vendor's gen_data.py) or from
a directory laid out as gen_data writes it (``--data-dir``, e.g. files from a hardware run).
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass

import numpy as np

from toolkit.ascendc.pipe import TPipe
from toolkit.engine.launch import gm_alloc
from toolkit.harness import binio
from toolkit.harness.case import Case, Output
from toolkit.harness.data import BadInput, check_data_dir
from toolkit.harness.golden import CompareBf16
from toolkit.harness.plan import init_plan, plan_refused
from toolkit.harness.run import Run, run_case
from toolkit.machine import Machine, load_machine
from toolkit.views.ub_report import UbReport

from . import gen_data
from .tiling import BuildTiling, KvRmsNormRopeCacheTiling

INPUTS = ("kv", "gamma", "cos", "sin", "index")
OUTPUTS = ("k_cache", "v_cache", "k_out", "v_out")
BACKENDS = {"membase": "membase/full_load", "regbase": "regbase/full_load"}
TOLERANCE = 6e-2
GOLDEN = f"golden (CompareBf16, tolerance {TOLERANCE:g})"
__all__ = ["BadInput", "KvParams", "BackendRun", "envelope_violations", "load_case", "make_tiling", "plan_fits",
           "max_ub_factor", "backend_module", "run_backend"]


@dataclass(frozen=True)
class KvParams:
    batch: int = 8
    num_head: int = 1
    seq: int = 128
    dv: int = 512
    dk: int = 128
    ub_factor: int = 8
    cores: int | None = None
    seed: int = 2026
    epsilon: float = 1e-5

    def validate(self) -> None:
        """Refuse bad options (BadInput, one line naming the option); the shape checks are the
        generator's own (``operators.kv_rms_norm_rope_cache.gen_data.check_params``), so scripts/gen_data.py says the same."""
        for name in ("ub_factor", "cores"):
            value = getattr(self, name)
            if value is not None and value <= 0:
                raise BadInput(f"--{name.replace('_', '-')} must be positive (got {value})")
        try:
            gen_data.check_params(self.batch, self.seq, self.dv, self.dk, num_head=self.num_head,
                                  epsilon=self.epsilon, seed=self.seed)
        except ValueError as err:
            raise BadInput(str(err)) from None


def envelope_violations(backend: str, p: KvParams) -> list[str]:
    """Shape assumptions the vendor sample hard-wires (kv spec 7b); a faithful port inherits them."""
    out = []
    if p.num_head != 1:
        out.append(f"num_head = {p.num_head}: the sample's index lookup and cache offset assume N = 1")
    if backend == "membase":
        if p.dv != 512:
            out.append(f"dv = {p.dv}: the MemBase folds hard-wire dv = 512 (8 chunks of 64 -> 1)")
        if p.dk != 128:
            out.append(f"dk = {p.dk}: the MemBase RoPE level-0 repeat strides hard-wire dk = 128")
    else:
        if p.dk // 2 > 64:
            out.append(f"dk = {p.dk}: RopeVF handles at most 64 lanes per half (dk/2 <= 64)")
        elif p.dk % 32:
            out.append(f"dk = {p.dk}: RopeVF loads rows at row*dk and row*dk + dk/2 with aligned loads, "
                       f"which needs dk % 32 == 0")
        if p.dv % 64:
            out.append(f"dv = {p.dv}: RmsNormVF accumulates with ZEROING and drops the lanes of a partial "
                       f"last chunk (dv % 64 != 0)")
    return out


def load_case(p: KvParams, data_dir: str | None) -> dict[str, np.ndarray]:
    if data_dir is None:
        try:
            return gen_data.generate(p.batch, p.seq, p.dv, p.dk, epsilon=p.epsilon, seed=p.seed,
                                     num_head=p.num_head)
        except (ValueError, MemoryError, OverflowError) as err:   # e.g. a shape too large to allocate
            raise BadInput(f"cannot generate data for batch {p.batch}, num_head {p.num_head}, seq {p.seq}, "
                           f"dv {p.dv}, dk {p.dk}: {err}") from None
    check_data_dir(data_dir)
    return binio.load_case(data_dir, p.batch, p.num_head, p.seq, p.dv, p.dk)


def make_tiling(p: KvParams, machine: Machine, ub_factor: int | None = None) -> KvRmsNormRopeCacheTiling:
    cores = p.cores if p.cores is not None else machine.aiv_cores
    return BuildTiling(p.batch, p.num_head, p.seq, p.dv, p.dk, cores,
                       p.ub_factor if ub_factor is None else ub_factor, p.epsilon)


def plan_fits(kernel_cls: type, p: KvParams, machine: Machine, ub_factor: int,
              max_ub: int | None = None) -> tuple[bool, UbReport]:
    """Dry-run the kernel's Init with a forced ubFactor: does its InitBuffer plan fit the budget, and the
    plan (``max_ub``: the largest ubFactor that fits, when known)."""
    t = make_tiling(p, machine)
    t = KvRmsNormRopeCacheTiling(**{**t.__dict__, "ubFactor": ub_factor})
    dummy = [gm_alloc(f"arg{k}", 64) for k in range(9)]

    def init() -> None:
        kernel_cls().Init(*dummy, t, TPipe())

    ub, diags = init_plan(init, machine, max_ub)
    return not plan_refused(diags), ub


def max_ub_factor(kernel_cls: type, p: KvParams, machine: Machine, limit: int = 1 << 16) -> int:
    """Largest ubFactor whose plan fits the UB budget (ignoring the blockFactor cap); 0 if none."""
    lo, hi = 0, limit
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if plan_fits(kernel_cls, p, machine, mid)[0]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def backend_module(backend: str):
    """The backend's kernel module (its entry ``kv_rms_norm_rope_cache`` and ``KernelKvRmsNormRopeCache``)."""
    return importlib.import_module(f"{__package__}.{backend}")


@dataclass
class BackendRun(Run):
    """One backend's run (:class:`toolkit.harness.run.Run`) and the tiling it ran with."""

    tiling: KvRmsNormRopeCacheTiling | None = None

    def header(self) -> str:
        t = self.tiling
        return f"Run {self.label}, blockNum {t.blockNum}, blockFactor {t.blockFactor}, ubFactor {t.ubFactor}"


def kv_case(data: dict[str, np.ndarray], tiling: KvRmsNormRopeCacheTiling) -> Case:
    """The launch of the generated (or read) data: the inputs shared, the caches updated in place, the
    outputs filled with 0xFF (the sample's uninitialised device memory), golden = the expected outputs."""
    def out(k: str, **how) -> Output:
        return Output((data[f"output/{k}_golden"].size,), np.uint16, **how)

    outputs = {k: out(k, init=data[f"input/{k}"]) for k in ("k_cache", "v_cache")}
    outputs.update({k: out(k, fill=0xFF) for k in ("k_out", "v_out")})
    return Case({k: data[f"input/{k}"] for k in INPUTS}, outputs, tiling,
                {k: data[f"output/{k}_golden"] for k in OUTPUTS})


def run_backend(backend: str, p: KvParams, data: dict[str, np.ndarray],
                machine: Machine | None = None) -> BackendRun:
    """Launch one backend on the data, CompareBf16 each output; the UB plan comes from a dry run of Init."""
    machine = machine or load_machine()
    label = BACKENDS[backend]
    module = backend_module(backend)
    tiling = make_tiling(p, machine)
    case = kv_case(data, tiling)
    cls = module.KernelKvRmsNormRopeCache

    def check(outputs: dict) -> dict:
        return {n: CompareBf16(n, outputs[n], case.golden[n].ravel(), TOLERANCE) for n in OUTPUTS}

    def ub() -> UbReport:
        return plan_fits(cls, p, machine, tiling.ubFactor, max_ub_factor(cls, p, machine))[1]

    return run_case(module.kv_rms_norm_rope_cache, tiling.blockNum, case, check, variant=backend, label=label,
                    ub=ub, machine=machine, name=f"kv_rms_norm_rope_cache {label}", record=BackendRun,
                    tiling=tiling)
