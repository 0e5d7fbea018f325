"""Host side of the softmax story (the sample's ``RunSample``) on the operator harness (``toolkit.harness``):
the variant table, data, envelope, the checks, the UB plan and what the report says of each variant.

All variants run under this one host side on the sample's data (``scripts/gen_data.py``: the legacy
numpy generator, ``np.random.seed(42)``, ``uniform(-3, 3)`` in float64 cast to float32) and are judged
by the sample's gate (``CompareFloat``, absolute 1e-3, its printout and verdict line) and by a float64
softmax of the same input with the same tolerance.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from toolkit.ascendc.tensor import LocalTensor
from toolkit.engine.launch import gm_alloc
from toolkit.harness import binio
from toolkit.harness.case import Case
from toolkit.harness.data import BadInput
from toolkit.harness.golden import CheckResult, CompareFloat, CompareResult, check_abs
from toolkit.harness.plan import init_plan
from toolkit.harness.run import Run, run_case
from toolkit.machine import Machine, load_machine
from toolkit.views.ub_report import UbReport

from .common import COMPARE_TOL, TILE_LEN, SoftmaxShape, make_entry

#: variant name -> (module, kernel class, tileLen factor): the sample's executables, in step order
VARIANTS = {
    "0_membase": ("membase", "KernelSoftmaxMemBase", 1),
    "3_multi_row": ("multi_row", "KernelSoftmaxMultiRow", 1),
    "7_merged_vf_direct": ("merged_vf_direct", "KernelSoftmaxMergedVfDirect", 2),
}
SEED = 42


def gen_data(shape: SoftmaxShape = SoftmaxShape(), seed: int = SEED) -> tuple[np.ndarray, np.ndarray]:
    """(x, golden) as the sample's gen_data.py makes them (float32, row-major)."""
    np.random.seed(seed)
    x = np.random.uniform(-3, 3, [shape.totalM, shape.totalN]).astype(np.float32)
    m = np.max(x, axis=-1, keepdims=True)
    e = np.exp(x - m)
    return x, (e / np.sum(e, axis=-1, keepdims=True)).astype(np.float32)


def softmax64(x: np.ndarray) -> np.ndarray:
    """The float64 softmax of ``x`` over its last axis (independent reference)."""
    v = np.asarray(x, np.float64)
    e = np.exp(v - v.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def read_case(directory: str, shape: SoftmaxShape) -> tuple[np.ndarray, np.ndarray]:
    """The sample's input and golden files from ``directory`` (e.g. a hardware run's), read as every
    ``--data-dir`` file is (``toolkit.harness.binio.read_bin``: a missing, unreadable, non-regular or wrong-size
    file is BadInput naming it; a FIFO is never waited on)."""
    xy = (np.float32, (shape.totalM, shape.totalN))
    files = binio.read_files(directory, {"input/input_x": xy, "output/golden": xy})
    return files["input/input_x"], files["output/golden"]


def variant_module(variant: str):
    """The variant's kernel module (its ``STEP`` and kernel class)."""
    return importlib.import_module(f"{__package__}.{VARIANTS[variant][0]}")


def kernel_class(variant: str) -> type:
    return getattr(variant_module(variant), VARIANTS[variant][1])


def variant_shape(variant: str, base: SoftmaxShape = SoftmaxShape()) -> SoftmaxShape:
    """The template arguments the sample instantiates the variant with (7 doubles tileLen)."""
    return replace(base, tileLen=base.tileLen * VARIANTS[variant][2])


def envelope_violations(shape: SoftmaxShape) -> list[str]:
    """Shape assumptions every variant hard-wires (softmax spec 2, envelope)."""
    out = []
    if shape.singleCoreN != shape.totalN:
        out.append("SINGLE_CORE_N must equal TOTAL_N (a column split would softmax partial rows)")
    if shape.tileLen % shape.singleCoreN:
        out.append("tileLen must be a multiple of SINGLE_CORE_N")
    elif (shape.tileLen // shape.singleCoreN) % 2 or shape.singleCoreM % 2 or shape.totalM % shape.singleCoreM % 2:
        out.append("3 and 7 walk rows two at a time: rows per tile and per block must be even")
    if shape.totalN % 64 or not 4 * 64 < shape.totalN <= 64 * 64:
        out.append("TOTAL_N must be a multiple of 64 in (256, 4096] (one-VF library ReduceSum, whole VL chunks)")
    return out


def ub_plan(variant: str, shape: SoftmaxShape, machine: Machine) -> UbReport:
    """The variant's UB plan: InitBuffer (0) or the raw-address LocalTensors built in Process (3, 7)."""
    cls = kernel_class(variant)
    holder: dict[str, Any] = {}

    def init() -> None:
        op = cls(shape)
        op.Init(gm_alloc("x", 64), gm_alloc("y", 64))
        op.PrepareTensors()
        holder["op"] = op

    rep, _ = init_plan(init, machine)
    if rep.buffers:
        return rep
    op = holder["op"]
    rows = [{"name": k, "position": v.position, "num": 1, "bytes_each": v.count * 4, "bytes": v.count * 4,
             "addr": v.addr} for k, v in vars(op).items() if isinstance(v, LocalTensor)]
    return UbReport(rows, max(r["addr"] + r["bytes"] for r in rows), machine.ub_budget_bytes)


@dataclass
class VariantRun(Run):
    """One variant's run (:class:`toolkit.harness.run.Run`): checks ``output`` (the sample's CompareFloat)
    and ``float64`` (the float64 softmax of the input, same tolerance)."""

    step: int = 0
    shape: SoftmaxShape | None = None

    @property
    def compare(self) -> CompareResult:
        return self.checks["output"]

    @property
    def check64(self) -> CheckResult:
        return self.checks["float64"]

    @property
    def output(self) -> np.ndarray:
        return self.outputs["y"]

    def verdict(self) -> str:
        return f"[{self.variant}] step {self.step} {'PASSED' if self.compare.passed else 'FAILED'}"

    def header(self) -> str:
        return f"Run {self.variant}, blocks {self.shape.blocks}, tileLen {self.shape.tileLen}"

    def text_lines(self) -> list[str]:
        c = self.check64
        return [self.header(), *self.compare.lines, self.verdict(),
                f"float64 softmax: max abs error {c.worst_error:.3g} at {c.worst_index}, {c.failures} over 1e-3",
                *self.gate_lines()]

    def json_head(self) -> dict[str, Any]:
        return {"step": self.step}

    def json_checks(self) -> dict[str, Any]:
        c = self.check64
        return {"tile_len": self.shape.tileLen, "compare": self.compare.to_json(),
                "float64_check": {"tolerance": COMPARE_TOL, "passed": c.passed, "failures": c.failures,
                                  "max_abs_error": c.worst_error, "index": c.worst_index}}


def run_variant(variant: str, x: np.ndarray, golden: np.ndarray, base: SoftmaxShape = SoftmaxShape(),
                machine: Machine | None = None) -> VariantRun:
    machine = machine or load_machine()
    shape = variant_shape(variant, base)
    case = Case({"x": np.ascontiguousarray(x, np.float32)}, {"y": x.shape}, golden={"y": golden})

    def check(outputs: dict) -> dict:
        return {"output": CompareFloat("output", outputs["y"], golden, COMPARE_TOL),
                "float64": check_abs(outputs["y"], softmax64(x), COMPARE_TOL)}

    return run_case(make_entry(kernel_class(variant), shape), shape.blocks, case, check, variant=variant,
                    ub=lambda: ub_plan(variant, shape, machine), machine=machine, name=f"softmax {variant}",
                    record=VariantRun, step=variant_module(variant).STEP, shape=shape)


__all__ = ["TILE_LEN", "VARIANTS", "BadInput", "CompareFloat", "gen_data", "run_variant", "softmax64"]
