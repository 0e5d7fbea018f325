"""Shared driver of the element-wise MemBase APIs (binary, scalar, unary, Duplicate, Cast, the fused ones).

Two argument forms (api-facts 13): the count form ``(..., count)`` processes elements 0..count-1 in
VL chunks; the level-0 form ``(..., mask, repeatTime, repeatParams)`` processes the active lanes of
``repeatTime`` repeats with per-operand block and repeat strides. The level-0 form follows the core's
mask state (:mod:`.maskstate`): ``isSetMask = false`` takes the mask register instead of the argument,
counter mode makes the mask the element count of the whole call.

Element widths: the count form runs 8-, 16-, 32- and 64-bit types (256 / 128 / 64 / 32 lanes per VL);
the level-0 form 16-, 32- and 64-bit ones (the pages allow 8-bit and 64-bit types in the count form only
for most APIs; a 64-bit level-0 mask uses 32 bits of ``mask[0]``).
"""
from __future__ import annotations

import functools
import inspect
from typing import Any, Callable, Sequence

import numpy as np

from toolkit.ascendc.dtypes import TemplateValue, scalar_value
from toolkit.ascendc.dtypes import type_name as _type_name
from toolkit.ascendc.tensor import LocalTensor
from toolkit.engine.runtime import current
from toolkit.record.diagnostics import kernel_frame

from .executor import Operand, apply
from .level0 import MASK64, VL, Access, check_u8, contiguous, counter_strided, from_arrays, parse_mask, strided
from .maskstate import DEFAULT, MaskState, state_of
from .vfstream import count_stream, counter_stream, emit, level0_stream

type_name = functools.lru_cache(maxsize=64)(_type_name)


class Level0:
    """Parsed level-0 arguments: mask argument, repeat count, (blkStride, repStride) per operand, and the
    mask state the call runs under (``isSetMask``: whether the mask argument counts)."""

    __slots__ = ("mask", "repeat", "strides", "isSetMask", "state")

    def __init__(self, mask: Any, repeat: Any, strides: Sequence[tuple[int, int]], isSetMask: bool = True,
                 state: MaskState = DEFAULT):
        self.mask = mask
        self.repeat = int(scalar_value(repeat))
        self.strides = [(int(scalar_value(b)), int(scalar_value(r))) for b, r in strides]
        self.isSetMask = bool(isSetMask)
        self.state = state or DEFAULT


@functools.lru_cache(maxsize=1024)
def broadcast(acc: Access, width: int) -> Access:
    """Element 0 for every entry of ``acc`` (a single-element source of ``width`` bytes), in the same steps."""
    return from_arrays(("b", acc.key, width), np.zeros(acc.idx.size, np.int64), acc.step, acc.nsteps,
                       width if acc.idx.size else 0)


def operands(srcs: Sequence[LocalTensor], accs: Sequence[Access], point: Sequence[int]) -> list[Operand]:
    """Source operands; a single-element source needs only element alignment."""
    return [Operand(s.addr, s.dtype, broadcast(a, s.dtype.itemsize), s.dtype.itemsize) if k in point
            else Operand(s.addr, s.dtype, a) for k, (s, a) in enumerate(zip(srcs, accs))]


def parse_form(ctx, api: str, args: tuple, params_type: type, isSetMask: bool = True,
               mask_state: MaskState | None = None) -> int | Level0:
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
        return Level0(args[0], args[1], params.strides(), isSetMask, mask_state)
    raise TypeError(f"{api}: expected (..., count) or (..., mask, repeatTime, {params_type.__name__})")


def check_same_type(ctx, api: str, dst: LocalTensor, *srcs: LocalTensor) -> None:
    for s in srcs:
        if s.dtype != dst.dtype:
            ctx.report("BAD_PARAMETER", f"{api}: operand types differ ({type_name(dst.dtype)} dst, "
                       f"{type_name(s.dtype)} src)")


def check_dtype(ctx, api: str, dt: np.dtype, allowed: Sequence[np.dtype], form: Any = None,
                count_only: Sequence[np.dtype] = ()) -> None:
    """BAD_PARAMETER for a type the page does not list for Ascend 950 (``count_only``: listed for the
    count form only)."""
    if dt not in allowed:
        ctx.report("BAD_PARAMETER", f"{api}: {type_name(dt)} is not a supported type on Ascend 950 "
                   f"(supported: {', '.join(type_name(t) for t in allowed)})")
    elif isinstance(form, Level0) and dt in count_only:
        ctx.report("BAD_PARAMETER", f"{api}: {type_name(dt)} is supported by the count form only")


def level0_mask(ctx, api: str, form: Level0, lanes: int):
    """The effective mask of a level-0 call: ``("counter", n)`` in counter mode, else ``("normal", Mask)``."""
    st = form.state
    if st.counter:
        m = form.mask if form.isSetMask else st.lo
        if isinstance(m, (list, tuple, np.ndarray)):
            m = m[0]
        n = int(scalar_value(m)) & MASK64
        if n == 0:
            ctx.report("MASK_ZERO", f"{api}: the counter-mode count is 0; modelled as leaving dst unchanged")
        return "counter", n
    return "normal", parse_mask(ctx, api, form.mask if form.isSetMask else st.words, lanes)


def run(ctx, api: str, opcode: str | tuple, dst: LocalTensor, srcs: Sequence[LocalTensor],
        fn: Callable[[list], np.ndarray], form: int | Level0, nscalar: int = 0, load: str = "NORM",
        store: str = "NORM", dfn: Callable | None = None, point: Sequence[int] = (),
        limits: tuple[int, int] = (255, 255)) -> None:
    """Execute one element-wise call and record its VF.

    ``fn`` maps the list of gathered source arrays to the destination values (``dfn``: their definedness,
    default: all sources of an element defined). Lanes per repeat / VL chunk follow the widest operand
    type (Cast masks by the larger element size). ``opcode``: the op, or a chain of ops, of one step.
    ``point``: indices of sources that are a single element (a "LocalTensor 单点元素" scalar: element 0,
    broadcast to every lane by its load). ``limits``: the largest block and repeat strides of the form.
    """
    widths = [dst.dtype.itemsize] + [s.dtype.itemsize for k, s in enumerate(srcs) if k not in point]
    lanes = VL // max(widths)
    nsrc = len(srcs)
    meta = {"dtype": type_name(dst.dtype)}
    if not isinstance(form, Level0):
        count = form
        dacc = contiguous(widths[0], count, lanes)
        ops = operands(srcs, [dacc if k in point else contiguous(s.dtype.itemsize, count, lanes)
                               for k, s in enumerate(srcs)], point)
        apply(ctx, api, Operand(dst.addr, dst.dtype, dacc), ops, fn, dfn)
        addrs = tuple((t.addr, 0 if k - 1 in point else t.dtype.itemsize) for k, t in enumerate((dst, *srcs)))
        instrs = count_stream(opcode, count, lanes, addrs, load, store)
        nparams = 1 + nsrc + nscalar + 1
        meta.update(form="count", count=count)
        emit(ctx, api, nparams, instrs, meta)
        return
    if not 2 <= max(widths) <= 8:                  # 8-bit operands only beside a wider one (a conversion)
        ctx.report("BAD_PARAMETER", f"{api}: the level-0 form takes 16-, 32- and 64-bit types")
    if len(form.strides) != 1 + nsrc:
        ctx.report("BAD_PARAMETER", f"{api}: {len(form.strides)} stride pairs for {1 + nsrc} operands")
    check_u8(ctx, api, repeatTime=form.repeat)
    for k, (b, r) in enumerate(form.strides):
        if not (0 <= b <= limits[0] and 0 <= r <= limits[1]):
            ctx.report("BAD_PARAMETER", f"{api}: operand {k} strides ({b}, {r}) are outside [0, {limits[0]}] / "
                       f"[0, {limits[1]}]")
    kind, mask = level0_mask(ctx, api, form, lanes)
    tensors = (dst, *srcs)
    addrs = tuple((t.addr, b, r) for t, (b, r) in zip(tensors, form.strides))
    if kind == "counter":
        acc = [counter_strided(t.dtype.itemsize, b, r, mask, lanes) for t, (b, r) in zip(tensors, form.strides)]
        instrs = counter_stream(opcode, mask, lanes, addrs)
        meta.update(form="level0", repeat=-(-mask // lanes), mask="counter")
    else:
        acc = [strided(t.dtype.itemsize, b, r, form.repeat, mask) for t, (b, r) in zip(tensors, form.strides)] \
            if not mask.empty else None
        instrs = level0_stream(opcode, form.repeat, mask.kind, mask.value, addrs)
        meta.update(form="level0", repeat=form.repeat, mask=mask.kind)
    if acc is not None and acc[0].idx.size:
        apply(ctx, api, Operand(dst.addr, dst.dtype, acc[0]),
              operands(srcs, [acc[0] if k in point else a for k, a in enumerate(acc[1:])], point), fn, dfn)
    nparams = 1 + nsrc + nscalar + 1 + 2 * (1 + nsrc) + (kind == "counter" or mask.kind == "count")
    emit(ctx, api, nparams, instrs, meta)


def run_count(ctx, api: str, opcode: str | tuple, dsts: Sequence[tuple[LocalTensor, Callable]],
              srcs: Sequence[LocalTensor], count: int, nscalar: int = 0) -> None:
    """A count-form call with several destinations (``(tensor, fn)`` each, ``fn`` as for :func:`run`):
    one VF whose step loads the sources once, runs the op and stores every destination."""
    widths = [d.dtype.itemsize for d, _ in dsts] + [s.dtype.itemsize for s in srcs]
    lanes = VL // max(widths)
    ops = [Operand(s.addr, s.dtype, contiguous(s.dtype.itemsize, count, lanes)) for s in srcs]
    for d, fn in dsts:
        apply(ctx, api, Operand(d.addr, d.dtype, contiguous(d.dtype.itemsize, count, lanes)), ops, fn)
    addrs = tuple((t.addr, t.dtype.itemsize) for t in (*(d for d, _ in dsts), *srcs))
    emit(ctx, api, len(dsts) + len(srcs) + nscalar + 1, count_stream(opcode, count, lanes, addrs, ndst=len(dsts)),
         {"dtype": type_name(dsts[0][0].dtype), "form": "count", "count": count})


def template_kwargs(targs: Any, accepts: frozenset) -> dict:
    """Keyword arguments from C++-style template arguments (``Add[float, False]``, the bridge's tuple):
    a bool is ``isSetMask``, a :class:`TemplateValue` its own name; element types and enum values go to
    ``targs`` (a :class:`~toolkit.ascendc.regbase.template.TArgs`) when the function takes it."""
    from toolkit.ascendc.regbase.template import parse_targs
    key = targs if isinstance(targs, tuple) else (targs,)
    kw: dict = {}
    rest = []
    for a in key:
        if isinstance(a, TemplateValue):
            kw[a.name] = a.value
        elif isinstance(a, bool):
            kw["isSetMask"] = a
        else:
            rest.append(a)
    if "targs" in accepts:
        kw["targs"] = parse_targs(tuple(rest))
    return {k: v for k, v in kw.items() if k in accepts or "kwargs" in accepts}


class MemBaseApi:
    """A MemBase API function. Explicit template arguments (``Add[float](...)``, ``Cast[float, half]``,
    ``Add[half, False]`` for isSetMask = false) bind as :func:`template_kwargs` says; element types the
    function does not ask for come from the tensors, as C++ deduces them. A function with a
    ``mask_state`` parameter gets the calling core's :class:`MaskState`."""

    def __init__(self, fn: Callable, name: str | None = None, batchable: bool = True):
        self.fn = fn
        self.__name__ = name or fn.__name__
        self.__doc__ = fn.__doc__
        self.batchable = batchable      # runs once for every core parked at it in lock-step (rows of UB)
        params = inspect.signature(fn).parameters
        self.accepts = frozenset(params) | ({"kwargs"} if any(p.kind == p.VAR_KEYWORD for p in params.values())
                                            else frozenset())
        self.cache: dict = {}

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        ctx = current()
        if "mask_state" in self.accepts and "mask_state" not in kwargs:
            kwargs["mask_state"] = state_of(ctx)
        batch = self.batchable(args) if callable(self.batchable) else self.batchable
        if batch and ctx.scheduler is not None and ctx.vf is None:
            from toolkit.engine.lockstep import CallRequest
            return ctx.scheduler.park(CallRequest(self.fn, args, kwargs, kernel_frame()))
        return self.fn(*args, **kwargs)

    def __getitem__(self, targs: Any) -> Callable:
        try:
            kw = self.cache.get(targs)
        except TypeError:
            kw = None
        if kw is None:
            kw = template_kwargs(targs, self.accepts)
            try:
                self.cache[targs] = kw
            except TypeError:
                pass
        return functools.partial(self.__call__, **kw) if kw else self.__call__

    def __repr__(self) -> str:
        return f"<MemBase API {self.__name__}>"
