"""Shared driver of the element-wise MemBase APIs (binary, scalar, unary, Duplicate, Cast).

Two argument forms (api-facts 13): the count form ``(..., count)`` processes elements 0..count-1 in
VL chunks; the level-0 form ``(..., mask, repeatTime, repeatParams)`` processes the active lanes of
``repeatTime`` repeats with per-operand block and repeat strides.
"""
from __future__ import annotations

import functools
from typing import Any, Callable, Sequence

import numpy as np

from toolkit.ascendc.dtypes import scalar_value
from toolkit.ascendc.dtypes import type_name as _type_name
from toolkit.ascendc.tensor import LocalTensor
from toolkit.engine.runtime import current
from toolkit.record.diagnostics import kernel_frame

from .executor import Operand, apply
from .level0 import VL, check_u8, contiguous, parse_mask, strided
from .vfstream import count_stream, emit, level0_stream

type_name = functools.lru_cache(maxsize=64)(_type_name)


class Level0:
    """Parsed level-0 arguments: mask argument, repeat count, (blkStride, repStride) per operand."""

    __slots__ = ("mask", "repeat", "strides")

    def __init__(self, mask: Any, repeat: Any, strides: Sequence[tuple[int, int]]):
        self.mask = mask
        self.repeat = int(scalar_value(repeat))
        self.strides = [(int(scalar_value(b)), int(scalar_value(r))) for b, r in strides]


def parse_form(ctx, api: str, args: tuple, params_type: type) -> int | Level0:
    """``(count,)`` -> count; ``(mask, repeatTime, params)`` -> :class:`Level0`."""
    if len(args) == 1:
        count = int(scalar_value(args[0]))
        if count < 0:
            ctx.report("BAD_PARAMETER", f"{api}: count {count} is negative")
        return count
    if len(args) == 3:
        params = args[2]
        if not isinstance(params, params_type):
            ctx.report("BAD_PARAMETER", f"{api}: level-0 form needs {params_type.__name__}, got "
                       f"{type(params).__name__}")
        return Level0(args[0], args[1], params.strides())
    raise TypeError(f"{api}: expected (..., count) or (..., mask, repeatTime, {params_type.__name__})")


def check_same_type(ctx, api: str, dst: LocalTensor, *srcs: LocalTensor) -> None:
    for s in srcs:
        if s.dtype != dst.dtype:
            ctx.report("BAD_PARAMETER", f"{api}: operand types differ ({type_name(dst.dtype)} dst, "
                       f"{type_name(s.dtype)} src)")


def run(ctx, api: str, opcode: str, dst: LocalTensor, srcs: Sequence[LocalTensor], fn: Callable[[list], np.ndarray],
        form: int | Level0, nscalar: int = 0, load: str = "NORM", store: str = "NORM") -> None:
    """Execute one element-wise call and record its VF.

    ``fn`` maps the list of gathered source arrays to the destination values. Lanes per repeat / VL
    chunk follow the widest operand type (Cast masks by the larger element size).
    """
    widths = [dst.dtype.itemsize] + [s.dtype.itemsize for s in srcs]
    lanes = VL // max(widths)
    nsrc = len(srcs)
    meta = {"dtype": type_name(dst.dtype)}
    if not isinstance(form, Level0):
        count = form
        ops = [Operand(s.addr, s.dtype, contiguous(s.dtype.itemsize, count, lanes)) for s in srcs]
        apply(ctx, api, Operand(dst.addr, dst.dtype, contiguous(widths[0], count, lanes)), ops, fn)
        addrs = tuple((t.addr, t.dtype.itemsize) for t in (dst, *srcs))
        instrs = count_stream(opcode, count, lanes, addrs, load, store)
        nparams = 1 + nsrc + nscalar + 1
        meta.update(form="count", count=count)
    else:
        if max(widths) > 4 or min(widths) < 2:
            ctx.report("BAD_PARAMETER", f"{api}: level-0 form supports 16- and 32-bit types only here")
        if len(form.strides) != 1 + nsrc:
            ctx.report("BAD_PARAMETER", f"{api}: {len(form.strides)} stride pairs for {1 + nsrc} operands")
        check_u8(ctx, api, repeatTime=form.repeat)
        for k, (b, r) in enumerate(form.strides):
            check_u8(ctx, api, **{f"blkStride[{k}]": b, f"repStride[{k}]": r})
        mask = parse_mask(ctx, api, form.mask, lanes)
        if not mask.empty:
            tensors = [dst, *srcs]
            acc = [strided(t.dtype.itemsize, b, r, form.repeat, mask) for t, (b, r) in zip(tensors, form.strides)]
            apply(ctx, api, Operand(dst.addr, dst.dtype, acc[0]),
                  [Operand(t.addr, t.dtype, a) for t, a in zip(srcs, acc[1:])], fn)
        addrs = tuple((t.addr, b, r) for t, (b, r) in zip((dst, *srcs), form.strides))
        instrs = level0_stream(opcode, form.repeat, mask.kind, mask.value, addrs)
        nparams = 1 + nsrc + nscalar + 1 + 2 * (1 + nsrc) + (mask.kind == "count")
        meta.update(form="level0", repeat=form.repeat, mask=mask.kind)
    emit(ctx, api, nparams, instrs, meta)


class MemBaseApi:
    """A MemBase API function. Explicit template arguments (``Add[float](...)``, ``Cast[float, half]``)
    are accepted and ignored: the element types come from the tensors, as C++ deduces them."""

    def __init__(self, fn: Callable, name: str | None = None, batchable: bool = True):
        self.fn = fn
        self.__name__ = name or fn.__name__
        self.__doc__ = fn.__doc__
        self.batchable = batchable      # runs once for every core parked at it in lock-step (rows of UB)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        ctx = current()
        if self.batchable and ctx.scheduler is not None and ctx.vf is None:
            from toolkit.engine.lockstep import CallRequest
            return ctx.scheduler.park(CallRequest(self.fn, args, kwargs, kernel_frame()))
        return self.fn(*args, **kwargs)

    def __getitem__(self, targs: Any) -> Callable:
        return self.fn

    def __repr__(self) -> str:
        return f"<MemBase API {self.__name__}>"
