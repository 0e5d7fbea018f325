"""Atomics: the DMA atomic mode (SetAtomicAdd / SetAtomicMax / SetAtomicMin / SetAtomicType,
SetStoreAtomicConfig, DisableDmaAtomic / SetAtomicNone) that makes every later UB -> GM copy combine with
the GM bytes instead of overwriting them, and the scalar GM atomics (AtomicAdd, AtomicMax, AtomicMin,
AtomicExch, AtomicCas) that return the old value.

The mode is the core's CTRL register (bits 8:6 the type, 10:9 the operation, as SetCtrlSpr documents
it; ``ctx.state["ctrl"]``), so SetCtrlSpr / GetCtrlSpr see the same bits. The combine is computed in the
atomic type the mode names (not the tensor's), on whole elements: floating types exactly in float64, then
rounded once to the type (round to nearest even; double rounding through float64 is exact for half, bf16
and float); integer sums wrap in two's complement and max / min of floats propagate NaN (both assumed: the
pages do not say). GM bytes written atomically conflict with no other core's writes (GM_WRITE_CONFLICT
is for plain overwrites): they are recorded as settled.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

import numpy as np

from toolkit.engine.gm_writers import SETTLED
from toolkit.engine.runtime import current
from toolkit.record.diagnostics import kernel_frame
from toolkit.record.events import ScalarOp

from .dtypes import BF16, np_dtype, scalar_value
from .memory import GmBuffer
from .tensor import GmPtr, check_gm

#: the element types of the DMA atomic mode (SetAtomicAdd page, Ascend 950)
DMA_ATOMIC_TYPES = tuple(np.dtype(t) for t in (np.int8, np.int16, np.float16, BF16, np.int32, np.float32))


class AtomicDtype(Enum):
    """SetStoreAtomicConfig's type (the value GetStoreAtomicConfig reads back)."""

    ATOMIC_NONE = 0
    ATOMIC_F32 = 1
    ATOMIC_F16 = 2
    ATOMIC_S16 = 3
    ATOMIC_S32 = 4
    ATOMIC_S8 = 5
    ATOMIC_BF16 = 6


class AtomicOp(Enum):
    ATOMIC_SUM = 0


_CONFIG_TYPES = {AtomicDtype.ATOMIC_F32: np.float32, AtomicDtype.ATOMIC_F16: np.float16,
                 AtomicDtype.ATOMIC_S16: np.int16, AtomicDtype.ATOMIC_S32: np.int32, AtomicDtype.ATOMIC_S8: np.int8,
                 AtomicDtype.ATOMIC_BF16: BF16}


@dataclass(frozen=True)
class AtomicMode:
    op: str                    #: "add", "max" or "min"
    dtype: np.dtype


#: the CTRL register (SetCtrlSpr page, Ascend 950): bits 8:6 the atomic type (0: off), bits 10:9 the
#: operation (0 add, 1 max, 2 min); bit 60 (global saturation) is set at reset
CTRL_RESET = 1 << 60
_TYPE_SHIFT, _OP_SHIFT = 6, 9
_TYPE_CODES = {np.dtype(v): k.value for k, v in _CONFIG_TYPES.items()}
_OPS = ("add", "max", "min")


def ctrl(ctx) -> int:
    return ctx.state.get("ctrl", CTRL_RESET)


def set_ctrl(ctx, value: int) -> None:
    ctx.state["ctrl"] = value & ((1 << 64) - 1)


def _set(op: str | None, t: Any, api: str) -> None:
    ctx = current()
    if t is None:
        raise TypeError(f"{api} needs the atomic element type as its template argument")
    dt = np_dtype(t)
    if dt not in DMA_ATOMIC_TYPES:
        raise TypeError(f"{api}<{dt.name}>: the DMA atomics take int8, int16, half, bfloat16, int32 or float")
    value = ctrl(ctx) & ~(0x7 << _TYPE_SHIFT) | _TYPE_CODES[dt] << _TYPE_SHIFT
    if op is not None:                   # SetAtomicType sets the type bits alone (keeping the operation)
        value = value & ~(0x3 << _OP_SHIFT) | _OPS.index(op) << _OP_SHIFT
    set_ctrl(ctx, value)


def SetAtomicAdd(t: Any = None) -> None:
    """Later UB -> GM copies add to GM (in type T)."""
    _set("add", t, "SetAtomicAdd")


def SetAtomicMax(t: Any = None) -> None:
    """Later UB -> GM copies keep the larger of GM and the data (in type T)."""
    _set("max", t, "SetAtomicMax")


def SetAtomicMin(t: Any = None) -> None:
    _set("min", t, "SetAtomicMin")


def SetAtomicType(t: Any = None) -> None:
    """The atomic element type (CTRL[8:6]); the operation stays what CTRL[10:9] says (add after reset)."""
    _set(None, t, "SetAtomicType")


def DisableDmaAtomic() -> None:
    """Later UB -> GM copies overwrite GM again (CTRL[10:6] cleared)."""
    ctx = current()
    set_ctrl(ctx, ctrl(ctx) & ~(0x1F << _TYPE_SHIFT))


SetAtomicNone = DisableDmaAtomic


def SetStoreAtomicConfig(dtype: AtomicDtype, op: AtomicOp = AtomicOp.ATOMIC_SUM) -> None:
    """``SetStoreAtomicConfig<AtomicDtype, AtomicOp>()``: CTRL[8:6] and the sum; ATOMIC_NONE: off."""
    ctx = current()
    value = ctrl(ctx) & ~(0x1F << _TYPE_SHIFT)
    set_ctrl(ctx, value | dtype.value << _TYPE_SHIFT | op.value << _OP_SHIFT)


def GetStoreAtomicConfig(atomic_type: Any, atomic_op: Any) -> None:
    """Reads CTRL[8:6] and CTRL[10:9] back (SetStoreAtomicConfig's numbers)."""
    value = ctrl(current())
    atomic_type.value = value >> _TYPE_SHIFT & 0x7
    atomic_op.value = value >> _OP_SHIFT & 0x3


def any_dma_mode(cores: list) -> bool:
    """Whether some of ``cores`` has a DMA atomic mode set (each distinct CTRL value decoded once)."""
    return any(_decode(v) is not None for v in {m.state.get("ctrl", CTRL_RESET) for m in cores})


def dma_mode(ctx) -> AtomicMode | None:
    """The core's DMA atomic mode (from its CTRL register), or None."""
    return _decode(ctx.state.get("ctrl", CTRL_RESET))


def _decode(value: int) -> AtomicMode | None:
    """The DMA atomic mode a CTRL value selects (CTRL[8:6] type, CTRL[10:9] op), or None."""
    code = value >> _TYPE_SHIFT & 0x7
    if not 0 < code <= len(_CONFIG_TYPES):
        return None
    op = value >> _OP_SHIFT & 0x3
    return AtomicMode(_OPS[op] if op < 3 else "add", np.dtype(_CONFIG_TYPES[AtomicDtype(code)]))


def _combine(op: str, old: np.ndarray, new: np.ndarray) -> np.ndarray:
    dt = old.dtype
    if op == "max":
        return np.maximum(old, new)
    if op == "min":
        return np.minimum(old, new)
    if dt.kind == "f" or dt == BF16:
        return (old.astype(np.float64) + new.astype(np.float64)).astype(dt)
    return (old.astype(np.int64) + new.astype(np.int64)).astype(dt)        # wraps (assumed)


def gm_combine(buf: GmBuffer, offset: int, raw: np.ndarray, mode: AtomicMode) -> None:
    """A UB -> GM copy under the DMA atomic mode: GM = op(GM, data) element-wise in the mode's type."""
    w = mode.dtype.itemsize
    n = raw.size // w * w
    if n:
        old = buf.data[offset:offset + n].view(mode.dtype)
        out = _combine(mode.op, old, np.ascontiguousarray(raw[:n]).view(mode.dtype))
        buf.span(offset, offset + n)[:] = out.view(np.uint8)
    if raw.size > n:                     # a tail shorter than one element: written as is (assumed)
        buf.span(offset + n, offset + raw.size)[:] = raw[n:]
    buf.writer.record(offset, offset + raw.size, SETTLED)


# -- scalar GM atomics ----------------------------------------------------------------------------------
_SCALAR_TYPES = {"AtomicAdd": ("int32", "uint32", "float32", "int64", "uint64"),
                 "AtomicMax": ("int32", "uint32", "float32", "int64", "uint64"),
                 "AtomicMin": ("int32", "uint32", "float32", "int64", "uint64"),
                 "AtomicExch": ("uint32", "uint64"), "AtomicCas": ("uint32", "uint64")}


def _value(v: Any, dt: np.dtype) -> Any:
    return np.asarray(scalar_value(v)).astype(dt)


def _bitwise(fn):
    def run(old, v):
        u = np.dtype(f"u{old.dtype.itemsize}")
        return np.asarray(fn(np.asarray(old).view(u), _value(v, old.dtype).view(u))).astype(u).view(old.dtype)
    return run


#: the read-modify-write of each scalar atomic: ``new = fn(old, *values)`` (values converted to old's type)
SCALAR_OPS = {
    "add": lambda old, v: _combine("add", np.asarray([old]), _value([v], old.dtype))[0],
    "sub": lambda old, v: (np.asarray(old, np.float64) - _value(v, np.float64)).astype(old.dtype)
    if old.dtype.kind == "f" else (np.asarray(old).astype(np.int64) - int(scalar_value(v))).astype(old.dtype),
    "max": lambda old, v: np.maximum(old, _value(v, old.dtype)),
    "min": lambda old, v: np.minimum(old, _value(v, old.dtype)),
    "exch": lambda old, v: _value(v, old.dtype),
    "cas": lambda old, e, v: _value(v, old.dtype) if old == _value(e, old.dtype) else old,
    "and": _bitwise(np.bitwise_and), "or": _bitwise(np.bitwise_or), "xor": _bitwise(np.bitwise_xor),
    "inc": lambda old, v: np.asarray(0 if old >= _value(v, old.dtype) else int(old) + 1).astype(old.dtype),
    "dec": lambda old, v: _value(v, old.dtype) if old == 0 or old > _value(v, old.dtype)
    else np.asarray(int(old) - 1).astype(old.dtype),
}


def scalar_atomic(api: str, types: tuple[str, ...], op: str, ptr: GmPtr, *values: Any) -> Any:
    """One scalar atomic on the GM element at ``ptr``: ``SCALAR_OPS[op]`` of the old value (integers wrap,
    assumed); returns the old value. ``types``: the element types the calling API's page lists."""
    ctx = current()
    dt = ptr.dtype
    if dt.name not in types:
        raise TypeError(f"{api}<{dt.name}>: the page lists {', '.join(types)}")
    check_gm(ptr.buf, ptr.offset, dt.itemsize, api)
    old = ptr.buf.data[ptr.offset:ptr.offset + dt.itemsize].view(dt)[0]
    new = np.asarray(SCALAR_OPS[op](old, *values), dtype=dt)
    ptr.buf.span(ptr.offset, ptr.offset + dt.itemsize)[:] = new.reshape(1).view(np.uint8)
    ptr.buf.writer.record(ptr.offset, ptr.offset + dt.itemsize, SETTLED)
    where = kernel_frame()
    ctx.emit(ScalarOp("gm_read", dt.itemsize, where, ptr.buf.name, ptr.offset))
    ctx.emit(ScalarOp("gm_write", dt.itemsize, where))
    return old.item()


def AtomicAdd(ptr: GmPtr, value: Any) -> Any:
    """``*address += value`` atomically; returns the old value (integers wrap)."""
    return scalar_atomic("AtomicAdd", _SCALAR_TYPES["AtomicAdd"], "add", ptr, value)


def AtomicMax(ptr: GmPtr, value: Any) -> Any:
    return scalar_atomic("AtomicMax", _SCALAR_TYPES["AtomicMax"], "max", ptr, value)


def AtomicMin(ptr: GmPtr, value: Any) -> Any:
    return scalar_atomic("AtomicMin", _SCALAR_TYPES["AtomicMin"], "min", ptr, value)


def AtomicExch(ptr: GmPtr, value: Any) -> Any:
    return scalar_atomic("AtomicExch", _SCALAR_TYPES["AtomicExch"], "exch", ptr, value)


def AtomicCas(ptr: GmPtr, expected: Any, value: Any) -> Any:
    """Writes ``value`` when the old value equals ``expected``; returns the old value."""
    return scalar_atomic("AtomicCas", _SCALAR_TYPES["AtomicCas"], "cas", ptr, expected, value)


__all__ = ["AtomicDtype", "AtomicOp", "SetAtomicAdd", "SetAtomicMax", "SetAtomicMin", "SetAtomicType",
           "DisableDmaAtomic", "SetAtomicNone", "SetStoreAtomicConfig", "GetStoreAtomicConfig", "AtomicAdd",
           "AtomicMax", "AtomicMin", "AtomicExch", "AtomicCas"]
