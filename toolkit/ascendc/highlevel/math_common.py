"""The shared shape of the element-wise high-level math APIs: template arguments, the temporary buffer,
the chunk loop and a small set of working operations over the MemBase API.

A call ``Api(dst, src..., [sharedTmpBuffer], [calCount])`` runs in chunks: the temporary UB (the caller's
``sharedTmpBuffer`` or the framework's, see :func:`acquire_tmp`) is cut into ``nodes`` float32 working
tensors of ``c`` elements (``c`` a multiple of 64: 256 B), and each chunk of the sources is processed by
the API's body through :class:`Work`, whose methods are single MemBase calls. Half and bfloat16 sources
are converted to float32 into a working tensor first and the float32 result is rounded (RINT) into dst;
float32 sources are read in place (so ``isReuseSource`` changes nothing: the source is never written).

Temporary size (one formula, also the host-side queries'): ``nodes(dtype)`` working tensors of 4 B per
element; the minimum is one 256 B block per node, the maximum covers ``calCount`` (rounded up to 64).
"""
from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from toolkit.ascendc import membase as MB
from toolkit.ascendc.dtypes import TemplateValue, scalar_value
from toolkit.ascendc.regbase.types import CMPMODE, RoundMode
from toolkit.ascendc.tensor import LocalTensor
from toolkit.engine.runtime import current
from toolkit.record.events import BufferInit

F32 = np.dtype(np.float32)
U8 = np.dtype(np.uint8)
BLOCK = 64                       #: float32 elements of one 256 B repeat: the chunk granule
NODE_BYTES = 4                   #: every working tensor holds float32
#: the UB plan row of the temporary space the framework gives APIs called without a sharedTmpBuffer
FRAMEWORK_TMP = "high-level API tmp (framework)"


def ceil_to(n: int, k: int) -> int:
    return -(-n // k) * k


@dataclass(frozen=True)
class TmpRule:
    """How much temporary UB an API needs: ``work`` float32 working tensors of the chunk length, plus one
    per non-float32 operand (its float32 copy) when ``convert`` (the element-wise float APIs)."""

    work: int
    convert: bool = True

    def nodes(self, type_size: int, operands: int) -> int:
        return self.work + (operands if self.convert and type_size != 4 else 0)

    def node_bytes(self, type_size: int) -> int:
        """Bytes per element of one working tensor: float32, or the element type when it is wider."""
        return NODE_BYTES if self.convert else max(NODE_BYTES, type_size)

    def max_min(self, elements: int, type_size: int, operands: int) -> tuple[int, int]:
        k = self.nodes(type_size, operands) * self.node_bytes(type_size)
        return k * ceil_to(max(elements, 1), BLOCK), k * BLOCK

    def factor(self, type_size: int, operands: int) -> tuple[int, int]:
        """(maxLiveNodeCount, extraBuffer): temporary bytes = maxLiveNodeCount * typeSize * elements."""
        return self.nodes(type_size, operands) * self.node_bytes(type_size) // type_size, 0

    def cpp_nodes(self, operands: int) -> str:
        """The C++ expression of nodes * node bytes (``typeSize`` in scope): the host queries' formula."""
        if self.convert:
            return f"({self.work}u + (typeSize != 4u ? {operands}u : 0u)) * 4u"
        return f"{self.work}u * (typeSize > 4u ? typeSize : 4u)"


class HighLevelApi:
    """A high-level API function. Template arguments (``Asin[half, False]``, the bridge's tuple) bind as
    keywords: a bool is ``isReuseSource``, a :class:`TemplateValue` its own name, a plain int the API's
    ``value`` parameter (``taylorExpandLevel``); element types come from the tensors, as C++ deduces them."""

    def __init__(self, fn: Callable, name: str, value: str | None = None):
        self.fn = fn
        self.__name__ = name
        self.__doc__ = fn.__doc__
        self.value = value

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.fn(*args, **kwargs)

    def __getitem__(self, targs: Any) -> Callable:
        kw: dict = {}
        for a in targs if isinstance(targs, tuple) else (targs,):
            if isinstance(a, TemplateValue):
                kw[a.name] = a.value
            elif isinstance(a, bool):
                kw["isReuseSource"] = a
            elif isinstance(a, int) and self.value:
                kw[self.value] = a
        return functools.partial(self.fn, **kw) if kw else self.fn

    def __repr__(self) -> str:
        return f"<high-level API {self.__name__}>"


def split_args(api: str, rest: Sequence[Any], default_count: int) -> tuple[LocalTensor | None, int]:
    """``([sharedTmpBuffer], [calCount])`` -> (tmp or None, count)."""
    tmp, count = None, None
    for a in rest:
        if isinstance(a, LocalTensor):
            tmp = a
        elif a is not None:
            count = int(scalar_value(a))
    ctx = current()
    if count is None:
        count = default_count
    if count < 0:
        ctx.report("BAD_PARAMETER", f"{api}: calCount {count} is negative")
    elif count > default_count:
        ctx.report("BAD_PARAMETER", f"{api}: calCount {count} is more than the tensors hold ({default_count})")
    return tmp, count


def check_disjoint(api: str, tmp: LocalTensor | None, used: int, tensors: Sequence[Any], count: int) -> None:
    """The part of sharedTmpBuffer the call uses must not overlap its source or destination operands."""
    if tmp is None:
        return
    lo, hi = tmp.addr, tmp.addr + used
    for t in tensors:
        if isinstance(t, LocalTensor) and t.addr < hi and lo < t.addr + count * t.dtype.itemsize:
            current().report("BAD_PARAMETER", f"{api}: sharedTmpBuffer [{lo}, {hi}) overlaps an operand at UB "
                             f"{t.addr} (the page forbids it)")


def acquire_tmp(api: str, tmp: LocalTensor | None, need: int) -> tuple[int, int]:
    """(UB address, bytes) of the temporary space: the caller's ``sharedTmpBuffer`` (at least ``need``
    bytes, the documented minimum) or, without one, the UB the kernel's pipes have not handed out up to
    the budget (the framework's reserve: the pages make the developer leave it free), recorded as one row
    of the UB plan (:data:`FRAMEWORK_TMP`, the same for every API and call)."""
    ctx = current()
    if tmp is not None:
        if tmp.dtype != U8:
            ctx.report("BAD_PARAMETER", f"{api}: sharedTmpBuffer must be a LocalTensor<uint8_t>")
        size = tmp.count * tmp.dtype.itemsize
        if size < need:
            ctx.report("BAD_PARAMETER", f"{api}: sharedTmpBuffer holds {size} B, the minimum temporary space is "
                       f"{need} B (Get{api}MaxMinTmpSize)")
        return tmp.addr, size
    if not ctx.pipes:
        ctx.report("BAD_PARAMETER", f"{api}: without a sharedTmpBuffer the temporary space is the UB a TPipe has "
                   "not handed out, and this kernel has no TPipe (pass a sharedTmpBuffer)")
    top = ceil_to(max((p.top for p in ctx.pipes), default=0), 32)
    size = ctx.machine.ub_budget_bytes - top
    if size < need:
        ctx.report("BAD_PARAMETER", f"{api}: the framework needs {need} B of temporary UB, {max(size, 0)} B are "
                   "left after the kernel's buffers (reserve it, or pass a sharedTmpBuffer)")
    if ctx.pipes and size > 0:              # one row for every API that uses it: the reserve is shared
        ctx.pipes[-1].record(BufferInit(FRAMEWORK_TMP, "TBuf", "VECCALC", 1, size, top))
    return top, size


class Work:
    """Working operations on one chunk: every method is one MemBase call over the chunk's ``n`` elements
    (Compare over ``p``, ``n`` rounded up to whole 256 B repeats, as it compares whole repeats only).
    Working tensors come from :meth:`node` and go back with :meth:`free`."""

    def __init__(self, nodes: list[LocalTensor], n: int):
        self.pool = list(nodes)
        self.n = n
        self.p = ceil_to(n, BLOCK)

    def node(self) -> LocalTensor:
        if not self.pool:
            raise AssertionError("high-level API: more working tensors than its TmpRule declares")
        return self.pool.pop()

    def free(self, *ts: LocalTensor) -> None:
        self.pool.extend(ts)

    # -- arithmetic (float32 tensors) --------------------------------------------------------------
    def add(self, d, a, b): MB.Add(d, a, b, self.n)
    def sub(self, d, a, b): MB.Sub(d, a, b, self.n)
    def mul(self, d, a, b): MB.Mul(d, a, b, self.n)
    def div(self, d, a, b): MB.Div(d, a, b, self.n)
    def max(self, d, a, b): MB.Max(d, a, b, self.n)
    def min(self, d, a, b): MB.Min(d, a, b, self.n)
    def adds(self, d, a, s): MB.Adds(d, a, np.float32(s).astype(d.dtype), self.n)
    def muls(self, d, a, s): MB.Muls(d, a, np.float32(s).astype(d.dtype), self.n)
    def maxs(self, d, a, s): MB.Maxs(d, a, np.asarray(s).astype(d.dtype)[()], self.n)
    def mins(self, d, a, s): MB.Mins(d, a, np.asarray(s).astype(d.dtype)[()], self.n)
    def exp(self, d, a): MB.Exp(d, a, self.n)
    def ln(self, d, a): MB.Ln(d, a, self.n)
    def sqrt(self, d, a): MB.Sqrt(d, a, self.n)
    def abs(self, d, a): MB.Abs(d, a, self.n)
    def rec(self, d, a): MB.Reciprocal(d, a, self.n)
    def copy(self, d, a): MB.Copy(d, a, self.n)
    def dup(self, d, s): MB.Duplicate(d, np.asarray(s).astype(d.dtype)[()], self.n)
    def fma(self, d, a, b): MB.MulAddDst(d, a, b, self.n)          # d = a * b + d, one rounding

    def rnd(self, d, a, mode: RoundMode) -> None:
        """An integral value in float32 (CAST_FLOOR / CEIL / ROUND / TRUNC / RINT)."""
        MB.Cast(d, a, mode, self.n)

    def horner(self, d, z, coeffs: Sequence[float]) -> None:
        """d = (((c0 * z + c1) * z + c2) ...): Muls then (Mul, Adds) per further coefficient."""
        self.muls(d, z, coeffs[0])
        self.adds(d, d, coeffs[1])
        for c in coeffs[2:]:
            self.mul(d, d, z)
            self.adds(d, d, c)

    # -- comparisons and selection ------------------------------------------------------------------
    def cmp(self, m: LocalTensor, a, b, mode: CMPMODE) -> LocalTensor:
        """Bit mask ``a <mode> b`` (b a tensor or a scalar) into working tensor ``m`` (as bytes)."""
        bits = m.ReinterpretCast(U8)
        if isinstance(b, LocalTensor):
            MB.Compare(bits, a, b, mode, self.p)
        else:
            MB.Compares(bits, a, np.asarray(b).astype(a.dtype)[()], mode, self.p)
        return bits

    def sel(self, d, bits, a, b) -> None:
        """d = bit ? a : b (b a tensor or a scalar)."""
        if isinstance(b, LocalTensor):
            MB.Select(d, bits, a, b, MB.SELMODE.VSEL_TENSOR_TENSOR_MODE, self.n)
        else:
            MB.Select(d, bits, a, np.asarray(b).astype(d.dtype)[()], MB.SELMODE.VSEL_TENSOR_SCALAR_MODE, self.n)

    def where(self, d, a, mode: CMPMODE, b, x, y) -> None:
        """d = (a <mode> b) ? x : y, with a working tensor for the mask."""
        m = self.node()
        self.sel(d, self.cmp(m, a, b, mode), x, y)
        self.free(m)


Body = Callable[..., None]


def run_elementwise(api: str, rule: TmpRule, dst: LocalTensor, srcs: Sequence[LocalTensor], rest: Sequence[Any],
                    body: Body, allowed: Sequence[np.dtype], *, scalars: Sequence[Any] = ()) -> None:
    """Run ``body(work, out, *xs, *scalars)`` over the chunks of ``calCount`` elements (float32 ``xs`` and
    ``out``; ``out`` is dst itself for a float32 dst)."""
    ctx = current()
    dt = dst.dtype
    for s in srcs:
        if s.dtype != dt:
            ctx.report("BAD_PARAMETER", f"{api}: source and destination types differ")
    if dt not in allowed:
        ctx.report("BAD_PARAMETER", f"{api}: {dt} is not a supported type on Ascend 950")
    tmp, count = split_args(api, rest, min(t.count for t in (dst, *srcs)))
    k = rule.nodes(dt.itemsize, len(srcs) + 1)
    if k == 0:                                   # float32 in place: no temporary space
        body(Work([], count), dst, *srcs, *scalars)
        return
    addr, size = acquire_tmp(api, tmp, k * NODE_BYTES * BLOCK)
    c = min(size // (k * NODE_BYTES) // BLOCK * BLOCK, ceil_to(max(count, 1), BLOCK))
    if c <= 0:
        return
    check_disjoint(api, tmp, k * NODE_BYTES * c, (dst, *srcs), count)
    for off in range(0, count, c):
        n = min(c, count - off)
        nodes = [LocalTensor(addr + i * c * NODE_BYTES, F32, c) for i in range(k)]
        w = Work(nodes, n)
        xs = []
        for s in srcs:
            if dt == F32:
                xs.append(s[off])
            else:
                x = w.node()
                MB.Cast(x, s[off], RoundMode.CAST_NONE, n)
                xs.append(x)
        out = dst[off] if dt == F32 else w.node()
        body(w, out, *xs, *scalars)
        if dt != F32:
            MB.Cast(dst[off], out, RoundMode.CAST_RINT, n)


def unary(api: str, rule: TmpRule, body: Body, allowed: Sequence[np.dtype], doc: str) -> HighLevelApi:
    def fn(dst: LocalTensor, src: LocalTensor, *rest: Any, isReuseSource: bool = False, **_config: Any) -> None:
        run_elementwise(api, rule, dst, (src,), rest, body, allowed)
    fn.__doc__ = doc
    return HighLevelApi(fn, api)


def binary(api: str, rule: TmpRule, body: Body, allowed: Sequence[np.dtype], doc: str) -> HighLevelApi:
    def fn(dst: LocalTensor, src0: LocalTensor, src1: LocalTensor, *rest: Any, isReuseSource: bool = False,
           **_config: Any) -> None:
        run_elementwise(api, rule, dst, (src0, src1), rest, body, allowed)
    fn.__doc__ = doc
    return HighLevelApi(fn, api)
