"""The MemBase control registers of a core: the mask mode and mask register (掩码操作: ``SetMaskCount`` /
``SetMaskNorm`` choose the mode, ``SetVectorMask`` sets the mask, ``ResetMask`` restores all ones) and the
DEQSCALE register (``SetDeqScale``: the scale of the int32 -> half dequantisation, the scale / offset /
sign of CastDequant, or the UB address of its 16 per-block parameter groups).

* Normal mode (the default): a level-0 call's mask selects lanes of every repeat. With ``isSetMask =
  false`` the call ignores its mask argument (``MASK_PLACEHOLDER``) and uses the register.
* Counter mode: a level-0 call's mask (the register's low 64 bits with ``isSetMask = false``, else the
  continuous value or ``mask[0]``) is the number of elements of the whole call; repeatTime is ignored and
  the repeats are ceil(n / lanes), the last one partial, with the call's strides.
* The count form (``Add(dst, a, b, count)``) is not affected: on Ascend 950 its isSetMask is ignored.

The state is read where the core makes the call (:class:`MaskState`, a value) and handed to the API as
its ``mask_state`` argument, so a call is a plain function of its operands (cores batched in lock-step
group by it). ``SetVectorMask(len)`` in normal mode stores the first ``len`` lanes of ``T`` as bits.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Sequence

import numpy as np

from toolkit.ascendc.dtypes import np_dtype, scalar_value
from toolkit.engine.runtime import current

from .level0 import MASK64, VL

_ATTR = "_membase_mask_state"
MASK_PLACEHOLDER = 0        #: the mask argument of a call that takes the mask register (isSetMask = false)


class MaskMode(Enum):
    NORMAL = 0
    COUNTER = 1


@dataclass(frozen=True)
class MaskState:
    """Mask mode and the 128-bit mask register (``lo`` = bits 0..63, ``hi`` = bits 64..127), and DEQSCALE."""

    counter: bool = False
    lo: int = MASK64
    hi: int = MASK64
    deq_scale: float = 1.0       #: SetDeqScale(half) / the float scale of SetDeqScale(float, offset, sign)
    deq_offset: int = 0          #: 9-bit signed offset
    deq_signed: bool = True      #: signMode: a signed 8-bit result
    vdeq_addr: int = -1          #: UB byte address of the 16 packed parameter groups (-1: none)

    @property
    def words(self) -> list[int]:
        return [self.lo, self.hi]


DEFAULT = MaskState()


def state_of(ctx: Any) -> MaskState:
    """The mask state of core ``ctx`` (the default until a mask API changes it)."""
    return getattr(ctx, _ATTR, DEFAULT)


def _set(**changes: Any) -> None:
    ctx = current()
    old = state_of(ctx)
    new = MaskState(**{**old.__dict__, **changes})
    setattr(ctx, _ATTR, new)
    ctx.vector_mask = (new.hi, new.lo)        # what Reg::MoveMask reads (toolkit.ascendc.regbase.maskops)


def SetMaskCount() -> None:
    """Counter mode: a level-0 mask is the element count of the whole call."""
    _set(counter=True)


def SetMaskNorm() -> None:
    """Normal mode (the default): a level-0 mask selects lanes of each repeat."""
    _set(counter=False)


def ResetMask() -> None:
    """The mask register back to all ones."""
    _set(lo=MASK64, hi=MASK64)


def SetVectorMask(T: Any, mode: MaskMode = MaskMode.NORMAL, *args: Any) -> None:
    """``SetVectorMask<T, mode>(maskHigh, maskLow)`` or ``SetVectorMask<T, mode>(len)``.

    Normal mode: the two words are the lane bits; ``len`` sets the first ``len`` lanes of ``T`` (clamped to
    the lanes of one repeat). Counter mode: ``maskLow`` / ``len`` is the element count."""
    if isinstance(mode, (int, float)) and not isinstance(mode, MaskMode):   # SetVectorMask(T, len)
        args, mode = (mode, *args), MaskMode.NORMAL
    ctx = current()
    vals = [int(scalar_value(a)) & MASK64 for a in args]
    if len(vals) == 2:
        hi, lo = vals
    elif len(vals) == 1:
        n = int(scalar_value(args[0]))
        if n < 0:
            ctx.report("BAD_PARAMETER", f"SetVectorMask: len {n} is negative")
        n = max(n, 0)
        if mode == MaskMode.COUNTER:
            hi, lo = 0, n
        else:
            lanes = VL // np_dtype(T).itemsize
            bits = (1 << min(n, lanes, 128)) - 1
            hi, lo = bits >> 64, bits & MASK64
    else:
        raise TypeError("SetVectorMask takes (maskHigh, maskLow) or (len)")
    _set(lo=lo, hi=hi)


def _sext9(v: int) -> int:
    v &= 0x1FF
    return v - 0x200 if v & 0x100 else v


def pack_vdeq(scale: float, offset: int, signed: bool) -> int:
    """One 64-bit DEQSCALE group: float bits 0..31, offset bits 37..45, signMode bit 46."""
    bits = int(np.array(scale, np.float32).view(np.uint32))
    return bits | ((int(offset) & 0x1FF) << 37) | (int(bool(signed)) << 46)


def unpack_vdeq(word: int) -> tuple[float, int, bool]:
    w = int(word)
    return float(np.array(w & 0xFFFFFFFF, np.uint32).view(np.float32)), _sext9(w >> 37), bool((w >> 46) & 1)


def SetDeqScale(*args: Any) -> None:
    """``SetDeqScale(half scale)``, ``SetDeqScale(float scale, int16_t offset, bool signMode)`` or
    ``SetDeqScale(vdeq)`` / ``SetDeqScale(vdeq, VdeqInfo)`` (16 groups in UB; the C++ form with a VdeqInfo
    writes them with scalar stores, then hands the tensor over)."""
    from toolkit.ascendc.tensor import LocalTensor
    if args and isinstance(args[0], LocalTensor):
        vdeq = args[0]
        if len(args) > 1:
            info = args[1]
            for k in range(16):
                vdeq.SetValue(k, pack_vdeq(info.vdeqScale[k], info.vdeqOffset[k], info.vdeqSignMode[k]))
        _set(vdeq_addr=vdeq.addr)
        return
    if len(args) == 1:
        _set(deq_scale=float(np.float16(scalar_value(args[0]))))
    elif len(args) == 3:
        _set(deq_scale=float(np.float32(scalar_value(args[0]))), deq_offset=_sext9(int(scalar_value(args[1]))),
             deq_signed=bool(scalar_value(args[2])))
    else:
        raise TypeError("SetDeqScale takes (scale), (scale, offset, signMode) or (vdeq[, vdeqInfo])")


@dataclass
class VdeqInfo:
    """The 16 parameter groups of per-block dequantisation (SetDeqScale(vdeq, info))."""

    vdeqScale: Sequence[float] = field(default_factory=lambda: [0.0] * 16)
    vdeqOffset: Sequence[int] = field(default_factory=lambda: [0] * 16)
    vdeqSignMode: Sequence[bool] = field(default_factory=lambda: [False] * 16)
