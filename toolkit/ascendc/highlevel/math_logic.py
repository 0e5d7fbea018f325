"""Bitwise, logical, classification and selection high-level APIs, on the operands' own element types:
BitwiseAnd / Or / Xor / Not, Xor, LogicalAnd / Or / Xor / Not / Ands / Ors, IsNan / IsInf / IsFinite,
Where and Clamp.

Algorithms (assumed; the pages give the truth tables only): a logical operand is true when it compares
not equal to 0 (Compares, NaN is true); the bit masks of two operands combine with And / Or / Not on
their uint16 words and become a bool (0 / 1) or 0 / 1 of the destination type through Select. Xor is
(a | b) & ~(a & b). IsNan is x != x, IsInf |x| == inf, IsFinite x - x == 0. Clamp is Max then Min
(min > max gives max everywhere, as the page says; NaN stays NaN).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from toolkit.ascendc import membase as MB
from toolkit.ascendc.dtypes import scalar_value
from toolkit.ascendc.regbase.types import CMPMODE
from toolkit.ascendc.tensor import LocalTensor
from toolkit.engine.runtime import current

from .math_common import (
    BLOCK,
    U8,
    HighLevelApi,
    TmpRule,
    acquire_tmp,
    ceil_to,
    check_disjoint,
    split_args,
)

NE, EQ = CMPMODE.NE, CMPMODE.EQ
U16 = np.dtype(np.uint16)
REPEAT = 256                          #: Compare works on whole 256 B repeats


class Chunk:
    """One chunk of a native-type API: ``n`` elements from ``off``; untyped working regions of ``c``
    elements of ``width`` bytes (:meth:`node` gives one viewed as ``dtype``)."""

    def __init__(self, addr: int, c: int, width: int, nodes: int, off: int, n: int):
        self.addr, self.c, self.width, self.free_nodes = addr, c, width, list(range(nodes))
        self.off, self.n = off, n

    def node(self, dtype: np.dtype) -> LocalTensor:
        k = self.free_nodes.pop(0)
        return LocalTensor(self.addr + k * self.c * self.width, dtype, self.c * self.width // dtype.itemsize)

    def padded(self, dtype: np.dtype) -> int:
        """n rounded up to whole 256 B repeats of ``dtype``."""
        return ceil_to(self.n, REPEAT // dtype.itemsize)


def run_native(api: str, rule: TmpRule, dst: LocalTensor, tensors: Sequence[LocalTensor], rest: Sequence[Any],
               body: Callable[[Chunk], None], allowed: Sequence[np.dtype] = ()) -> None:
    ctx = current()
    dt = max((t.dtype for t in tensors), key=lambda d: d.itemsize, default=dst.dtype)
    if allowed and any(t.dtype not in allowed for t in tensors):
        ctx.report("BAD_PARAMETER", f"{api}: source type not supported on Ascend 950")
    tmp, count = split_args(api, rest, min(t.count for t in (dst, *tensors)))
    width = rule.node_bytes(max(dt.itemsize, dst.dtype.itemsize))
    k = rule.work
    addr, size = acquire_tmp(api, tmp, k * width * BLOCK)
    c = min(size // (k * width) // BLOCK * BLOCK, ceil_to(max(count, 1), BLOCK))
    if c <= 0 or count == 0:
        return
    check_disjoint(api, tmp, k * width * c, (dst, *tensors), count)
    for off in range(0, count, c):
        body(Chunk(addr, c, width, k, off, min(c, count - off)))


def nonzero(ch: Chunk, src: LocalTensor | Any, into: LocalTensor, mode: CMPMODE = NE) -> LocalTensor:
    """Bits (src != 0) of the chunk into working region ``into`` (uint8)."""
    bits = into.ReinterpretCast(U8)
    x = src[ch.off]
    MB.Compares(bits, x, np.zeros((), x.dtype)[()], mode, ch.padded(x.dtype))
    return bits


def bits_to(ch: Chunk, dst: LocalTensor, bits: LocalTensor) -> None:
    """dst = bit ? 1 : 0 in dst's type (bool is uint8)."""
    ones = ch.node(dst.dtype)
    MB.Duplicate(ones, np.ones((), dst.dtype)[()], ch.n)
    MB.Select(dst[ch.off], bits, ones, np.zeros((), dst.dtype)[()], MB.SELMODE.VSEL_TENSOR_SCALAR_MODE, ch.n)


def _words(bits: LocalTensor, n: int) -> tuple[LocalTensor, int]:
    return bits.ReinterpretCast(U16), ceil_to(n, 16) // 16


def _logical2(api: str, combine: str):
    def fn(dst: LocalTensor, src0: LocalTensor, src1: LocalTensor, count: Any = None, **_config: Any) -> None:
        def body(ch: Chunk) -> None:
            a = nonzero(ch, src0, ch.node(U8))
            b = nonzero(ch, src1, ch.node(U8))
            (wa, nw), (wb, _) = _words(a, ch.n), _words(b, ch.n)
            _combine(combine, wa, wb, nw, ch)
            bits_to(ch, dst, a)
        run_native(api, TmpRule(4, False), dst, (src0, src1), (count,), body)
    fn.__doc__ = f"``{api}(dst, src0, src1, count)``: dst = bool(src0) {combine} bool(src1)."
    return HighLevelApi(fn, api)


def _combine(op: str, wa: LocalTensor, wb: LocalTensor, nw: int, ch: Chunk) -> None:
    """wa = wa <op> wb on bit words."""
    if op == "and":
        MB.And(wa, wa, wb, nw)
    elif op == "or":
        MB.Or(wa, wa, wb, nw)
    else:
        t = ch.node(U16)
        MB.And(t, wa, wb, nw)
        MB.Not(t, t, nw)
        MB.Or(wa, wa, wb, nw)
        MB.And(wa, wa, t, nw)


LogicalAnd = _logical2("LogicalAnd", "and")
LogicalOr = _logical2("LogicalOr", "or")
LogicalXor = _logical2("LogicalXor", "xor")


def _logical_not(dst: LocalTensor, src: LocalTensor, count: Any = None, **_config: Any) -> None:
    """``LogicalNot(dst, src, count)``: dst = (src == 0)."""
    def body(ch: Chunk) -> None:
        bits_to(ch, dst, nonzero(ch, src, ch.node(U8), EQ))
    run_native("LogicalNot", TmpRule(2, False), dst, (src,), (count,), body)


LogicalNot = HighLevelApi(_logical_not, "LogicalNot")


def _truth(v: Any) -> bool:
    return bool(scalar_value(v))


def _logical_s(api: str, combine: str):
    """``dst = src0 <op> src1`` where one side is a scalar: the scalar's truth decides."""
    def fn(dst: LocalTensor, src0: Any, src1: Any, count: Any = None, config: int = 1, **_config: Any) -> None:
        if isinstance(src0, LocalTensor) and isinstance(src1, LocalTensor):
            # a single-element tensor as the scalar: scalarTensorIndex says which side (0: src0, 1: src1)
            t, point = (src1, src0) if int(config) == 0 else (src0, src1)
            s = point.GetValue(0)
        else:
            t, s = (src0, src1) if isinstance(src0, LocalTensor) else (src1, src0)
        truth = _truth(s)

        def body(ch: Chunk) -> None:
            if combine == "and" and not truth or combine == "or" and truth:
                MB.Duplicate(dst[ch.off], np.asarray(truth).astype(dst.dtype)[()], ch.n)
                return
            bits_to(ch, dst, nonzero(ch, t, ch.node(U8)))
        run_native(api, TmpRule(2, False), dst, (t,), (count,), body)
    fn.__doc__ = f"``{api}(dst, src0, src1, count)``, one of src0 / src1 a scalar."
    return HighLevelApi(fn, api)


LogicalAnds = _logical_s("LogicalAnds", "and")
LogicalOrs = _logical_s("LogicalOrs", "or")


def _bitwise2(api: str, op: str):
    def fn(dst: LocalTensor, src0: LocalTensor, src1: LocalTensor, *rest: Any, isReuseSource: bool = False,
           **_config: Any) -> None:
        def body(ch: Chunk) -> None:
            d, a, b = dst[ch.off], src0[ch.off], src1[ch.off]
            if op == "and":
                MB.And(d, a, b, ch.n)
            elif op == "or":
                MB.Or(d, a, b, ch.n)
            else:
                t = ch.node(dst.dtype)
                MB.And(t, a, b, ch.n)
                MB.Not(t, t, ch.n)
                MB.Or(d, a, b, ch.n)
                MB.And(d, d, t, ch.n)
        run_native(api, TmpRule(1, False), dst, (src0, src1), rest, body)
    fn.__doc__ = f"``{api}(dst, src0, src1, [sharedTmpBuffer], count)``: bitwise {op}."
    return HighLevelApi(fn, api)


BitwiseAnd = _bitwise2("BitwiseAnd", "and")
BitwiseOr = _bitwise2("BitwiseOr", "or")
BitwiseXor = _bitwise2("BitwiseXor", "xor")
Xor = _bitwise2("Xor", "xor")


def _bitwise_not(dst: LocalTensor, src: LocalTensor, count: Any = None, **_config: Any) -> None:
    """``BitwiseNot(dst, src, count)``."""
    def body(ch: Chunk) -> None:
        MB.Not(dst[ch.off], src[ch.off], ch.n)
    run_native("BitwiseNot", TmpRule(1, False), dst, (src,), (count,), body)


BitwiseNot = HighLevelApi(_bitwise_not, "BitwiseNot")


def _classify(api: str, test: str):
    def fn(dst: LocalTensor, src: LocalTensor, *rest: Any, **_config: Any) -> None:
        def body(ch: Chunk) -> None:
            x = src[ch.off]
            p = ch.padded(x.dtype)
            bits = ch.node(U8)
            if test == "nan":
                MB.Compare(bits, x, x, NE, p)
            else:
                t = ch.node(x.dtype)
                if test == "inf":
                    MB.Abs(t, x, ch.n)
                    MB.Compares(bits, t, np.asarray(np.inf, x.dtype)[()], EQ, p)
                else:
                    MB.Sub(t, x, x, ch.n)
                    MB.Compares(bits, t, np.zeros((), x.dtype)[()], EQ, p)
            bits_to(ch, dst, bits)
        run_native(api, TmpRule(3, False), dst, (src,), rest, body)
    fn.__doc__ = f"``{api}(dst, src, [sharedTmpBuffer], count)``: 1 (true) where src is {test}."
    return HighLevelApi(fn, api)


IsNan = _classify("IsNan", "nan")
IsInf = _classify("IsInf", "inf")
IsFinite = _classify("IsFinite", "finite")


def _where(dst: LocalTensor, src0: Any, src1: Any, condition: LocalTensor, count: Any = None) -> None:
    """``Where(dst, src0, src1, condition, count)``: dst = condition ? src0 : src1 (each a tensor or a scalar)."""
    def body(ch: Chunk) -> None:
        bits = nonzero(ch, condition, ch.node(U8))
        a = src0[ch.off] if isinstance(src0, LocalTensor) else None
        b = src1[ch.off] if isinstance(src1, LocalTensor) else None
        if a is None:
            a = ch.node(dst.dtype)
            MB.Duplicate(a, np.asarray(scalar_value(src0)).astype(dst.dtype)[()], ch.n)
        if b is None:
            MB.Select(dst[ch.off], bits, a, np.asarray(scalar_value(src1)).astype(dst.dtype)[()],
                      MB.SELMODE.VSEL_TENSOR_SCALAR_MODE, ch.n)
        else:
            MB.Select(dst[ch.off], bits, a, b, MB.SELMODE.VSEL_TENSOR_TENSOR_MODE, ch.n)
    tensors = [t for t in (src0, src1) if isinstance(t, LocalTensor)] or [dst]
    run_native("Where", TmpRule(2, False), dst, (*tensors, condition), (count,), body)


Where = HighLevelApi(_where, "Where")


def _clamp(dst: LocalTensor, src: LocalTensor, lo: Any, hi: Any, count: Any = None, **_config: Any) -> None:
    """``Clamp(dst, src, min, max, count)``: min / max a scalar or a tensor."""
    def body(ch: Chunk) -> None:
        d = dst[ch.off]
        for k, (bound, op) in enumerate(((lo, MB.Max), (hi, MB.Min))):
            if isinstance(bound, LocalTensor):
                t = bound[ch.off]
            else:
                t = ch.node(dst.dtype)
                MB.Duplicate(t, np.asarray(scalar_value(bound)).astype(dst.dtype)[()], ch.n)
            op(d, src[ch.off] if k == 0 else d, t, ch.n)
    run_native("Clamp", TmpRule(2, False), dst, (src,), (count,), body)


Clamp = HighLevelApi(_clamp, "Clamp")


def sign_int64(dst: LocalTensor, src: LocalTensor, rest: Sequence[Any]) -> None:
    """Sign of int64_t in its own type: 1 where src > 0, -1 where src < 0, else 0 (Compares, Select)."""
    i64 = np.dtype(np.int64)

    def body(ch: Chunk) -> None:
        x, d = src[ch.off], dst[ch.off]
        bits, ones = ch.node(U8), ch.node(i64)
        p = ch.padded(i64)
        MB.Duplicate(ones, np.int64(1), ch.n)
        MB.Compares(bits, x, np.int64(0), CMPMODE.GT, p)
        MB.Select(d, bits, ones, np.int64(0), MB.SELMODE.VSEL_TENSOR_SCALAR_MODE, ch.n)
        MB.Duplicate(ones, np.int64(-1), ch.n)
        MB.Compares(bits, x, np.int64(0), CMPMODE.LT, p)
        MB.Select(d, bits, ones, d, MB.SELMODE.VSEL_TENSOR_TENSOR_MODE, ch.n)
    run_native("Sign", TmpRule(2, False), dst, (src,), rest, body, (i64,))
