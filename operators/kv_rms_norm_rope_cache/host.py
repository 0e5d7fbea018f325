"""Host side of KvRmsNormRopeCache (the sample's RunSample): data, tiling, GM, launch, CompareBf16, UB plan.

Both backends run under this one host side, so a difference between them can only come from the
kernels. Inputs come from the in-process generator (byte-identical to the vendor's gen_data.py) or from
a directory laid out as gen_data writes it (``--data-dir``, e.g. files from a hardware run).
"""
from __future__ import annotations

import importlib
import os
import stat
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from toolkit.ascendc.pipe import TPipe
from toolkit.engine.launch import LaunchResult, dry_run, gm_alloc, launch
from toolkit.harness import binio
from toolkit.harness.golden import CompareBf16, CompareResult
from toolkit.machine import Machine, load_machine
from toolkit.views.ub_report import UbReport, ub_report

from . import gen_data
from .tiling import BuildTiling, KvRmsNormRopeCacheTiling

OUTPUTS = ("k_cache", "v_cache", "k_out", "v_out")
BACKENDS = {"membase": "membase/full_load", "regbase": "regbase/full_load"}
TOLERANCE = 6e-2


class BadInput(ValueError):
    """A user mistake on the command line or in the data directory (exit 2, one line)."""


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
    try:
        return binio.load_case(data_dir, p.batch, p.num_head, p.seq, p.dv, p.dk)
    except binio.BadInput as err:
        raise BadInput(str(err)) from None


def check_data_dir(data_dir: str) -> None:
    """``--data-dir`` names a directory we may list and enter (BadInput otherwise, saying which)."""
    if data_dir == "":
        raise BadInput("--data-dir '': empty path")
    try:
        st = os.stat(data_dir)
    except FileNotFoundError:
        raise BadInput(f"--data-dir {data_dir}: does not exist") from None
    except OSError as err:
        raise BadInput(f"--data-dir {data_dir}: {(err.strerror or str(err)).lower()}") from None
    if not stat.S_ISDIR(st.st_mode):
        raise BadInput(f"--data-dir {data_dir}: not a directory")
    if not os.access(data_dir, os.R_OK | os.X_OK):
        raise BadInput(f"--data-dir {data_dir}: permission denied")


@dataclass
class BackendRun:
    backend: str
    label: str
    tiling: KvRmsNormRopeCacheTiling
    launch: LaunchResult
    compares: dict[str, CompareResult]
    ub: UbReport
    outputs: dict[str, np.ndarray] = field(repr=False, default_factory=dict)

    @property
    def passed(self) -> bool:
        fatal = any(d.fatal for d in self.launch.diagnostics)
        errors = any(d.severity == "error" for d in self.launch.diagnostics)
        return all(c.passed for c in self.compares.values()) and self.ub.fits and not fatal and not errors

    def header(self) -> str:
        t = self.tiling
        return f"Run {self.label}, blockNum {t.blockNum}, blockFactor {t.blockFactor}, ubFactor {t.ubFactor}"


def make_tiling(p: KvParams, machine: Machine, ub_factor: int | None = None) -> KvRmsNormRopeCacheTiling:
    cores = p.cores if p.cores is not None else machine.aiv_cores
    return BuildTiling(p.batch, p.num_head, p.seq, p.dv, p.dk, cores,
                       p.ub_factor if ub_factor is None else ub_factor, p.epsilon)


def plan_fits(kernel_cls: type, p: KvParams, machine: Machine, ub_factor: int) -> tuple[bool, list]:
    """Dry-run the kernel's Init with a forced ubFactor: does its InitBuffer plan fit the budget?"""
    t = make_tiling(p, machine)
    t = KvRmsNormRopeCacheTiling(**{**t.__dict__, "ubFactor": ub_factor})
    dummy = [gm_alloc(f"arg{k}", 64) for k in range(9)]

    def init() -> None:
        kernel_cls().Init(*dummy, t, TPipe())

    events, diags = dry_run(init, machine)
    return not any(d.code in ("UB_OVER_BUDGET", "TOO_MANY_BUFFERS") for d in diags), events


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


def run_backend(backend: str, p: KvParams, case: dict[str, np.ndarray], machine: Machine | None = None) -> BackendRun:
    machine = machine or load_machine()
    label = BACKENDS[backend]
    module = backend_module(backend)
    entry, kernel_cls = module.kv_rms_norm_rope_cache, module.KernelKvRmsNormRopeCache
    tiling = make_tiling(p, machine)
    inputs = {k: gm_alloc(k, case[f"input/{k}"], share=True) for k in ("kv", "gamma", "cos", "sin", "index")}
    gm = {
        **inputs,                                         # copied only if a kernel writes them
        "k_cache": gm_alloc("k_cache", case["input/k_cache"]), "v_cache": gm_alloc("v_cache", case["input/v_cache"]),
        "k_out": gm_alloc("k_out", case["output/k_out_golden"].nbytes, fill=0xFF),
        "v_out": gm_alloc("v_out", case["output/v_out_golden"].nbytes, fill=0xFF),
    }
    args = [gm[k] for k in ("kv", "gamma", "cos", "sin", "index", "k_cache", "v_cache", "k_out", "v_out")]
    result = launch(entry, tiling.blockNum, args + [tiling], machine, name=f"kv_rms_norm_rope_cache {label}")
    outputs = {name: gm[name].buf.as_array(np.uint16) for name in OUTPUTS}      # the launch is over: no copy
    compares = {name: CompareBf16(name, outputs[name], case[f"output/{name}_golden"].ravel(), TOLERANCE)
                for name in OUTPUTS}
    # the plan comes from a dry run of Init, which records every InitBuffer even past the budget
    # (the real run stops at the first over-budget InitBuffer, as a debug build asserts)
    plan = plan_fits(kernel_cls, p, machine, tiling.ubFactor)[1]
    ub = ub_report(plan, machine.ub_budget_bytes, max_ub_factor(kernel_cls, p, machine))
    return BackendRun(backend, label, tiling, result, compares, ub, outputs)


def backend_json(run: BackendRun) -> dict[str, Any]:
    return {
        "label": run.label,
        "passed": run.passed,
        "outputs": {name: c.to_json() for name, c in run.compares.items()},
        "ub": run.ub.to_json(),
        "diagnostics": [d.to_json() for d in run.launch.diagnostics],
    }
