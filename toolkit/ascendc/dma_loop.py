"""The DMA registers that shape later GM <-> UB copies: the loop mode (SetLoopModePara / ResetLoopModePara,
the C API's asc_set_gm2ub_loop_* / asc_set_ub2gm_loop_*) and the padding value (SetPadValue, the C API's
asc_set_copy_pad_val).

Loop mode: per direction (GM -> UB, UB -> GM) two loops around a DataCopy / DataCopyPad: the call moves its
blocks ``loop2Size * loop1Size`` times, iteration (i2, i1) with the source ``i2 * loop2SrcStride + i1 *
loop1SrcStride`` bytes further on and the destination by the Dst strides (bytes), inner loop fastest. The
registers keep their values until set again (ResetLoopModePara: sizes 1, strides 0). A loop size of 0 runs
once, as 1 does (assumed: the pages give [0, 2^21) as the range, and the C API resets the size to 1).

Padding value: the value DataCopyPad GM -> UB writes into the left / right padding when its own
DataCopyPadExtParams say isPad = false (the SetPadValue page); None until set (the padding then stays
undefined, as before). It is kept as the number given and converted to each copy's element type.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from toolkit.engine.runtime import current

from .dtypes import scalar_value
from .tensor import GlobalTensor, LocalTensor


class DataCopyMVType(Enum):
    UB_TO_OUT = 0
    OUT_TO_UB = 1


@dataclass
class LoopModeParams:
    loop1Size: int = 0
    loop2Size: int = 0
    loop1SrcStride: int = 0
    loop1DstStride: int = 0
    loop2SrcStride: int = 0
    loop2DstStride: int = 0


_FIELDS = ("loop1Size", "loop2Size", "loop1SrcStride", "loop1DstStride", "loop2SrcStride", "loop2DstStride")
_RESET = {"loop1Size": 1, "loop2Size": 1, "loop1SrcStride": 0, "loop1DstStride": 0, "loop2SrcStride": 0,
          "loop2DstStride": 0}


def _registers(ctx, direction: DataCopyMVType) -> dict[str, int]:
    regs = ctx.state.setdefault("dma_loop", {})
    return regs.setdefault(direction, dict(_RESET))


def set_loop_registers(direction: DataCopyMVType, **fields: Any) -> None:
    """Set some of one direction's loop registers (the C API sets them in pairs)."""
    ctx = current()
    regs = _registers(ctx, direction)
    for name, value in fields.items():
        v = int(scalar_value(value))
        limit = 1 << (21 if name.endswith("Size") else 40)
        if not 0 <= v < limit:
            ctx.report("BAD_PARAMETER", f"loop mode {name} {v} outside [0, {limit})")
        regs[name] = v


def SetLoopModePara(params: LoopModeParams, direction: DataCopyMVType) -> None:
    """Enable the loop mode of one direction with these sizes and strides (bytes)."""
    set_loop_registers(direction, **{f: getattr(params, f) for f in _FIELDS})


def ResetLoopModePara(direction: DataCopyMVType) -> None:
    """Back to one iteration, no strides."""
    set_loop_registers(direction, **_RESET)


def _shift(t: Any, nbytes: int) -> Any:
    if isinstance(t, LocalTensor):
        return LocalTensor(t.addr + nbytes, t.dtype, max(t.count - nbytes // t.dtype.itemsize, 0), t.position,
                           t.slot)
    g = GlobalTensor.__new__(GlobalTensor)
    g.dtype, g.buf, g.offset = t.dtype, t.buf, t.offset + nbytes
    g.count = max(t.count - nbytes // t.dtype.itemsize, 0)
    return g


def loop_pairs(dst: Any, src: Any) -> list[tuple[Any, Any]]:
    """The (dst, src) of each iteration of the current loop mode of the copy's direction (one pair when the
    loop mode is off)."""
    ctx = current()
    if isinstance(dst, LocalTensor) and isinstance(src, GlobalTensor):
        direction = DataCopyMVType.OUT_TO_UB
    elif isinstance(dst, GlobalTensor) and isinstance(src, LocalTensor):
        direction = DataCopyMVType.UB_TO_OUT
    else:
        return [(dst, src)]
    r = ctx.state.get("dma_loop", {}).get(direction)
    if r is None or (r["loop1Size"] <= 1 and r["loop2Size"] <= 1):
        return [(dst, src)]
    out = []
    for i2 in range(max(r["loop2Size"], 1)):
        for i1 in range(max(r["loop1Size"], 1)):
            out.append((_shift(dst, i2 * r["loop2DstStride"] + i1 * r["loop1DstStride"]),
                        _shift(src, i2 * r["loop2SrcStride"] + i1 * r["loop1SrcStride"])))
    return out


def SetPadValue(padding_value: Any) -> None:
    """``SetPadValue<T[, pos]>(value)``: the padding DataCopyPad GM -> UB writes when isPad is false."""
    current().state["dma_pad_value"] = scalar_value(padding_value)


def pad_register(ctx) -> Any:
    """The value SetPadValue set on this core, or None."""
    return ctx.state.get("dma_pad_value")
