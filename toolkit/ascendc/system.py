"""System values a kernel reads and the registers it sets (the emulated ones; the compile-time values
and the no-op cache controls are C++ only, see toolkit/ascendc/api/system.py): GetSystemCycle, the
special purpose registers (GetSpr / ClearSpr, the CTRL register of Get/Set/ResetCtrlSpr), and the GM
scalar accesses that bypass the data cache.
"""
from __future__ import annotations

from typing import Any

from toolkit.engine.runtime import GetBlockIdx, GetBlockNum, current

from .atomic import CTRL_RESET, ctrl, set_ctrl
from .tensor import GlobalTensor, GmPtr
from .regbase.types import SpecialPurposeReg
from .tvalues import value_template


__all__ = ["GetBlockIdx", "GetBlockNum", "GetSystemCycle", "GetSpr", "ClearSpr", "GetCtrlSpr", "SetCtrlSpr",
           "ResetCtrlSpr", "ReadGmByPassDCache", "WriteGmByPassDCache", "SpecialPurposeReg"]


def GetSystemCycle() -> int:
    """The system counter. The functional run has no clock (cycles come from the cycle model, after the
    run): the value is a stand-in that grows with the work recorded so far: the number of the core's
    events plus the reads of the counter so far (assumed; strictly increasing, deterministic, equal in
    lock-step and serial runs)."""
    ctx = current()
    reads = ctx.state["cycle_reads"] = ctx.state.get("cycle_reads", 0) + 1
    return len(ctx.events) + reads


@value_template
def GetSpr(targs: tuple) -> int:
    spr = next((a for a in targs if isinstance(a, SpecialPurposeReg)), SpecialPurposeReg.AR)
    return int(current().state.get(spr.name, 0))


@value_template
def ClearSpr(targs: tuple) -> None:
    spr = next((a for a in targs if isinstance(a, SpecialPurposeReg)), SpecialPurposeReg.AR)
    current().state[spr.name] = 0


def _bits(targs: tuple, api: str) -> tuple[int, int]:
    if len(targs) != 2:
        raise TypeError(f"{api}<startBit, endBit> takes two bit indices")
    lo, hi = int(targs[0]), int(targs[1])
    if not 0 <= lo <= hi < 64:
        current().report("BAD_PARAMETER", f"{api}<{lo}, {hi}>: bits outside 0-63 or reversed")
    return lo, hi


@value_template
def GetCtrlSpr(targs: tuple) -> int:
    """CTRL[endBit:startBit] as a number."""
    lo, hi = _bits(targs, "GetCtrlSpr")
    return ctrl(current()) >> lo & ((1 << (hi - lo + 1)) - 1)


@value_template
def SetCtrlSpr(targs: tuple, value: Any) -> None:
    """CTRL[endBit:startBit] = value (the atomic mode bits 10:6 are the DMA atomics of toolkit.ascendc.atomic)."""
    ctx = current()
    lo, hi = _bits(targs, "SetCtrlSpr")
    width = (1 << (hi - lo + 1)) - 1
    v = int(value)
    if v < 0 or v > width:
        ctx.report("BAD_PARAMETER", f"SetCtrlSpr<{lo}, {hi}>({v}): the value does not fit {hi - lo + 1} bit(s)")
    set_ctrl(ctx, ctrl(ctx) & ~(width << lo) | (v & width) << lo)


@value_template
def ResetCtrlSpr(targs: tuple) -> None:
    """CTRL[endBit:startBit] back to the reset value (bit 60 set, the others clear)."""
    ctx = current()
    lo, hi = _bits(targs, "ResetCtrlSpr")
    width = (1 << (hi - lo + 1)) - 1
    set_ctrl(ctx, ctrl(ctx) & ~(width << lo) | CTRL_RESET & (width << lo))


def _element(ptr: GmPtr) -> GlobalTensor:
    g = GlobalTensor(ptr.dtype)
    g.SetGlobalBuffer(ptr)
    return g


def ReadGmByPassDCache(ptr: GmPtr) -> Any:
    """A scalar GM read that skips the data cache (the emulator has none: a GM scalar read)."""
    return _element(ptr).GetValue(0)


def WriteGmByPassDCache(ptr: GmPtr, value: Any) -> None:
    """A scalar GM write that goes straight to GM (recorded as any GM scalar write)."""
    _element(ptr).SetValue(0, value)
