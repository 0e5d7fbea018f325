"""A case: the data of one launch (GM inputs, GM outputs, the tiling argument), and launching it.

Every operator host does the same with its data: each input becomes a GM buffer, each output a GM
buffer the kernel writes, the kernel runs as ``kernel(*inputs, *outputs[, tiling])`` and the outputs are
read back once the launch is over. A :class:`Case` says what those buffers hold; :func:`launch_case`
does the rest.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from toolkit.engine.launch import LaunchResult, gm_alloc, launch
from toolkit.machine import Machine


@dataclass(frozen=True)
class Output:
    """A GM output: its shape and element type as read back; the bytes the kernel finds there: a copy of
    ``init`` (an output updated in place, e.g. a cache) or ``fill`` in every byte."""

    shape: tuple[int, ...]
    dtype: Any = np.float32
    init: np.ndarray | None = None
    fill: int = 0

    @property
    def nbytes(self) -> int:
        return int(np.prod(self.shape)) * np.dtype(self.dtype).itemsize


@dataclass
class Case:
    """GM inputs in kernel-argument order, the GM outputs after them (a shape stands for zeroed float32),
    the tiling argument last (``None``: the kernel takes none) and the expected outputs when the data
    came with them."""

    inputs: dict[str, np.ndarray]
    outputs: dict[str, tuple[int, ...] | Output]
    tiling: Any = None
    golden: dict[str, np.ndarray] = field(default_factory=dict)

    def output(self, name: str) -> Output:
        spec = self.outputs[name]
        return spec if isinstance(spec, Output) else Output(tuple(spec))


def launch_case(entry: Callable[..., None], blocks: int, case: Case, machine: Machine | None = None,
                name: str | None = None) -> tuple[LaunchResult, dict[str, np.ndarray]]:
    """Run ``entry`` on ``blocks`` cores over the case's GM buffers: (the launch, each output as read back).

    Inputs are shared with the caller's arrays (copied only if the kernel writes them); the outputs are
    views of the GM buffers, which nothing else holds once the launch is over."""
    gm_in = [gm_alloc(k, v, share=True) for k, v in case.inputs.items()]
    specs = {k: case.output(k) for k in case.outputs}
    gm_out = [gm_alloc(k, s.init, share=True) if s.init is not None else gm_alloc(k, s.nbytes, fill=s.fill)
              for k, s in specs.items()]
    args = [*gm_in, *gm_out] + ([] if case.tiling is None else [case.tiling])
    result = launch(entry, blocks, args, machine, name=name)
    outputs = {k: p.buf.as_array(s.dtype).reshape(s.shape) for (k, s), p in zip(specs.items(), gm_out)}
    return result, outputs
