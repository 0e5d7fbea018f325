"""Power of the integer types (uint8 ... uint32): fast exponentiation by squaring in the element type, as
the page's INTRINSIC algorithm for integers says (results wrap modulo 2**bits, as the integer Mul does).

One pass per exponent bit (16 or 32): the low bit (e - ((e >> 1) << 1)) selects r * b or r, then b = b * b,
e = e >> 1. 8-bit types run in 16 bits (their low byte is the same) and convert back. A negative exponent
(signed types) gives 1 for a base of 1, +-1 for -1 (by its parity) and 0 otherwise (assumed: the integer
value of 1 / a**|e| truncated; the page does not say).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from toolkit.ascendc import membase as MB
from toolkit.ascendc.dtypes import scalar_value
from toolkit.ascendc.regbase.types import CMPMODE, RoundMode
from toolkit.ascendc.tensor import LocalTensor

from .math_common import U8, TmpRule
from .math_logic import Chunk, run_native

I8, U8_, I16, U16 = (np.dtype(t) for t in (np.int8, np.uint8, np.int16, np.uint16))
WIDE = {I8: I16, U8_: U16}
SEL_TT, SEL_TS = MB.SELMODE.VSEL_TENSOR_TENSOR_MODE, MB.SELMODE.VSEL_TENSOR_SCALAR_MODE
RULE = TmpRule(8, False)


def _operand(ch: Chunk, side: Any, wt: np.dtype, into: LocalTensor) -> LocalTensor:
    """The chunk of a base / exponent in the working type ``wt`` (a scalar duplicated)."""
    if not isinstance(side, LocalTensor):
        MB.Duplicate(into, np.asarray(scalar_value(side)).astype(wt)[()], ch.n)
    elif side.dtype != wt:
        MB.Cast(into, side[ch.off], RoundMode.CAST_NONE, ch.n)
    else:
        MB.Copy(into, side[ch.off], ch.n)
    return into


def _low_bit(ch: Chunk, t: LocalTensor, e: LocalTensor) -> None:
    MB.ShiftRight(t, e, np.asarray(1, e.dtype)[()], ch.n)
    MB.ShiftLeft(t, t, np.asarray(1, e.dtype)[()], ch.n)
    MB.Sub(t, e, t, ch.n)


def _negative_exponent(ch: Chunk, r, a, e, t, p, m, wt: np.dtype) -> None:
    """r = e < 0 ? (a == 1 ? 1 : a == -1 ? (-1)**e : 0) : r."""
    one, zero = np.asarray(1, wt)[()], np.asarray(0, wt)[()]
    pad = ch.padded(wt)
    MB.Duplicate(p, one, ch.n)
    MB.Compares(m, a, one, CMPMODE.EQ, pad)
    MB.Select(p, m, p, zero, SEL_TS, ch.n)                   # 1 where a == 1, else 0
    _low_bit(ch, t, e)                                       # exponent parity
    MB.Muls(t, t, np.asarray(-2, wt)[()], ch.n)
    MB.Adds(t, t, one, ch.n)                                 # (-1)**e
    MB.Compares(m, a, np.asarray(-1, wt)[()], CMPMODE.EQ, pad)
    MB.Select(p, m, t, p, SEL_TT, ch.n)
    MB.Compares(m, e, zero, CMPMODE.LT, pad)
    MB.Select(r, m, p, r, SEL_TT, ch.n)


def int_power(dst: LocalTensor, src0: Any, src1: Any, rest: tuple) -> None:
    """``Power(dst, base, exponent, [sharedTmpBuffer], [calCount])`` for integer dst (either side a scalar)."""
    dt = dst.dtype
    wt = WIDE.get(dt, dt)
    signed = wt.kind == "i"

    def body(ch: Chunk) -> None:
        r, b, e, t, p, m, a, e0 = (ch.node(wt) for _ in range(8))
        bits = m.ReinterpretCast(U8)
        _operand(ch, src0, wt, a)
        _operand(ch, src1, wt, e0)
        MB.Copy(b, a, ch.n)
        MB.Copy(e, e0, ch.n)
        MB.Duplicate(r, np.asarray(1, wt)[()], ch.n)
        for _ in range(wt.itemsize * 8):
            _low_bit(ch, t, e)
            MB.Compares(bits, t, np.asarray(1, wt)[()], CMPMODE.EQ, ch.padded(wt))
            MB.Mul(p, r, b, ch.n)
            MB.Select(r, bits, p, r, SEL_TT, ch.n)
            MB.Mul(b, b, b, ch.n)
            MB.ShiftRight(e, e, np.asarray(1, wt)[()], ch.n)
        if signed:
            _negative_exponent(ch, r, a, e0, t, p, bits, wt)
        _store(ch, dst, r, t, bits)
    tensors = [s for s in (src0, src1) if isinstance(s, LocalTensor)]
    run_native("Power", RULE, dst, tensors, rest, body)


def _store(ch: Chunk, dst: LocalTensor, r: LocalTensor, t: LocalTensor, bits: LocalTensor) -> None:
    """dst chunk = r, from 16 bits back to 8 (the low byte, signed for int8) where dst is 8-bit."""
    d = dst[ch.off]
    if dst.dtype not in WIDE:
        MB.Copy(d, r, ch.n)
        return
    wt = r.dtype
    if wt == U16:
        MB.Ands(r, r, np.uint16(0xFF), ch.n)
        MB.Cast(d, r, RoundMode.CAST_NONE, ch.n)
        return
    MB.Ands(r, r, np.int16(0xFF), ch.n)
    MB.Adds(t, r, np.int16(-256), ch.n)
    MB.Compares(bits, r, np.int16(127), CMPMODE.GT, ch.padded(wt))
    MB.Select(r, bits, t, r, SEL_TT, ch.n)                   # the signed value of the low byte
    h = t.ReinterpretCast(np.dtype(np.float16))
    MB.Cast(h, r, RoundMode.CAST_RINT, ch.n)
    MB.Cast(d, h, RoundMode.CAST_RINT, ch.n)
