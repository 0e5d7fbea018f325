"""Debugging: DumpTensor / DumpAccChkPoint (the tensor's elements as text, in the page's format), Trap and
a failed kernel assert (the core stops with ``KERNEL_TRAP`` / ``KERNEL_ASSERT``), and where device text
goes. Device prints (printf / PRINTF, formatted by the C++ side; DumpTensor; assert messages) are
collected per core and written when the launch ends, core after core (as the device runtime prints its
buffers after the kernel: a lock-step and a serial run print the same text); without a launch sink (the
Python route's kernels) they are written at once.
"""
from __future__ import annotations

import sys
from typing import Any, Callable

import numpy as np

from toolkit.engine.runtime import current, current_or_none

from .dtypes import BF16, scalar_value
from .tensor import GlobalTensor, LocalTensor, check_gm

#: where device text goes: ``sink(core, text)``; None: standard output at once (toolkit.asc.hooks sets it)
SINK: Callable[[int | None, str], None] | None = None

#: DumpTensor's names of the element types (the page shows float16 for half)
_TYPE_NAMES = {"float16": "float16", "float32": "float32", "bfloat16": "bfloat16", "int8": "int8",
               "uint8": "uint8", "int16": "int16", "uint16": "uint16", "int32": "int32", "uint32": "uint32",
               "int64": "int64", "uint64": "uint64", "bool": "bool"}


def device_print(text: str) -> None:
    """Text a kernel prints (collected per core when a launch sink is installed)."""
    ctx = current_or_none()
    if SINK is not None:
        SINK(ctx.core_id if ctx is not None else None, text)
    else:
        sys.stdout.write(text)
        sys.stdout.flush()


def _elements(tensor: Any, offset: int, count: int, what: str) -> tuple[np.ndarray, str, int]:
    """(values, position name, address) of ``count`` elements from ``offset`` of a Local/GlobalTensor."""
    ctx = current()
    dt = tensor.dtype
    if isinstance(tensor, LocalTensor):
        addr = tensor.addr + offset * dt.itemsize
        ctx.ub.check(addr, count * dt.itemsize, what)
        return ctx.ub.view(addr, count * dt.itemsize).view(dt).copy(), "UB", addr
    if isinstance(tensor, GlobalTensor):
        off = tensor.offset + offset * dt.itemsize
        check_gm(tensor.buf, off, count * dt.itemsize, what)
        return tensor.buf.data[off:off + count * dt.itemsize].view(dt).copy(), "GM", off
    raise TypeError(f"{what} takes a LocalTensor or a GlobalTensor")


def _text(v: Any, dt: np.dtype) -> str:
    if dt.kind == "f" or dt == BF16:
        return f"{float(v):f}"
    if dt.kind == "b":
        return "1" if v else "0"
    return str(int(v))


def _rows(values: np.ndarray, dt: np.dtype, shape: list[int]) -> str:
    """Nested brackets over ``shape``; missing elements (dumpSize short of the shape) print as ``-``."""
    flat = [_text(v, dt) for v in values]

    def nest(dims: list[int], start: int) -> tuple[str, int]:
        if len(dims) == 1:
            cells = [flat[k] if k < len(flat) else "-" for k in range(start, start + dims[0])]
            return "[" + ",".join(cells) + "]", start + dims[0]
        parts, k = [], start
        for _ in range(dims[0]):
            s, k = nest(dims[1:], k)
            parts.append(s)
        return "[" + ",\n".join(parts) + "]", k

    return nest(shape, 0)[0]


def _dump(tensor: Any, desc: Any, offset: int, size: Any, shape_info: Any, what: str) -> None:
    n = int(scalar_value(size))
    values, position, addr = _elements(tensor, offset, n, what)
    dt = tensor.dtype
    lines = [f"{what}: desc={int(scalar_value(desc))}, addr=0x{addr:x}, data_type={_TYPE_NAMES.get(dt.name, dt.name)}, "
             f"position={position}, dump_size={n}"]
    if shape_info is None:
        lines.append("[" + ", ".join(_text(v, dt) for v in values) + "]")
    else:
        shape = [int(s) for s in shape_info.shape[:int(shape_info.shapeDim)]]
        size_of = int(np.prod(shape)) if shape else 0
        if size_of < n:
            lines.append(f"shape is {shape}, dumpSize is {n}, dumpSize is greater than shapeSize.")
        elif size_of > n:
            lines.append(f"shape is {shape}, dumpSize is {n}, data is not enough.")
        lines.append(_rows(values[:size_of], dt, shape) if shape else "[]")
    device_print("\n".join(lines) + "\n")


def DumpTensor(tensor: Any, desc: Any, dump_size: Any, shape_info: Any = None) -> None:
    """Prints ``dumpSize`` elements of the tensor (with ``desc``), as a flat list or in ``shapeInfo``'s shape."""
    _dump(tensor, desc, 0, dump_size, shape_info, "DumpTensor")


def DumpAccChkPoint(tensor: Any, index: Any, count_off: Any, dump_size: Any) -> None:
    """DumpTensor of the tensor from element ``countOff`` on (``index``: the label)."""
    _dump(tensor, index, int(scalar_value(count_off)), dump_size, None, "DumpAccChkPoint")


def Trap() -> None:
    """Stops the core (on the NPU: an AI Core interrupt)."""
    current().report("KERNEL_TRAP", "Trap() stopped the core")


def kernel_assert(message: str) -> None:
    """A kernel assert whose condition is false: the message (printed already) and the core stops."""
    current().report("KERNEL_ASSERT", message.strip())


__all__ = ["DumpTensor", "DumpAccChkPoint", "Trap", "device_print", "kernel_assert"]
