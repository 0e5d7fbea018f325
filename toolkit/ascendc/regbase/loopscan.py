"""An accumulator in a batched hardware loop: the one chain that keeps the iteration order.

``Add(acc, acc, x, mask)`` (or Max, Min, Mul ..., ``acc`` on either side) where ``acc`` was made before
the loop and the body has not read it yet is a loop-carried register: iteration k needs iteration k-1's
value. Everything else in the body still runs once over all iterations (``x`` is already one row per
(iteration, core)); this update alone runs iteration by iteration, one numpy operation on the cores' rows
per iteration, in the serial order, so the rounding is the serial run's. The mask of each iteration
applies as the op's mode says (ZEROING zeroes masked-off lanes, MERGING keeps them), and the
ZEROING-accumulator check runs per iteration: a warning the serial run would give refuses the batch.

The register must be written by this update only in the body (a second write refuses the batch: its
value would need the chain too); reads after it see each iteration's value. Its instruction record reads
the previous iteration's result: :class:`~toolkit.ascendc.regbase.loopbatch.IdPlan` maps the pre-loop
value id to it from iteration 1 on.
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from toolkit.ascendc.itervec import NotBatchable

from .types import MaskMergeMode

ZEROING, MERGING = MaskMergeMode.ZEROING, MaskMergeMode.MERGING


def carried(batch, dst, src0, src1) -> bool:
    """Whether this update of ``dst`` is a loop-carried accumulation the batch runs as a chain."""
    return ((dst is src0) != (dst is src1) and dst._raw.shape[0] != batch.rows
            and id(dst) not in batch.reads)


def chain(batch, fn: Callable, dt: np.dtype, dst, src0, src1, mask, mode: MaskMergeMode) -> tuple[Any, Any]:
    """Run the update iteration by iteration; returns (every iteration's value: rows per (iteration,
    core), the last iteration's accumulated lanes)."""
    n, b = batch.n, batch.base
    other = src1 if dst is src0 else src0
    if dst._defined is not None or other.defined is not None:
        raise NotBatchable("an accumulator with undefined lanes", static=False)
    w = dt.itemsize
    acc = dst._raw.view(dt)                                   # (B, lanes): the value before the loop
    x = other.raw.view(dt).reshape(n, -1, acc.shape[-1])      # (n, B, lanes)
    active, _ = mask.lanes(w)                                 # (1 or n * B, lanes)
    act = active[None] if active.shape[0] == 1 else active.reshape(n, b, -1)
    lanes = dst.acc_lanes
    out = np.empty((n, acc.shape[0], acc.shape[-1]), dtype=dt)
    for k in range(n):
        a = act[k] if act.shape[0] == n else act[0]
        full = bool(a.all())
        if mode is ZEROING and not full and lanes is not None and (lanes & ~a).any():
            raise NotBatchable("an accumulator zeroed in ZEROING mode (a diagnostic)", static=False)
        lanes = a.copy() if mode is ZEROING or lanes is None else (lanes | a)
        r = fn(acc, x[k]) if dst is src0 else fn(x[k], acc)
        if not full:
            r = np.where(a, r, acc if mode is MERGING else dt.type(0))
        out[k] = r
        acc = out[k]
    return out.reshape(n * acc.shape[0], -1), lanes
