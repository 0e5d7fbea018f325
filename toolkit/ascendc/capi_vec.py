"""The C API's vector computation on Ascend 950 (C-API/vector_compute: the names the catalog keeps in scope),
as the MemBase calls they stand for: asc_bitsort is Sort32, asc_mrgsort4 MrgSort (four queues),
asc_transpose the 16 x 16 Transpose, asc_transto5hd_b8 / b16 / b32 TransDataTo5HD (its address form) over the address lists
of the VA registers that asc_set_va_reg fills (8 UB addresses each; a 16-address list is register n and
n + 1). The ``_sync`` forms then make the scalar unit wait for the vector pipe (SetFlag / WaitFlag V_S,
assumed: the pages say only that they synchronise).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from toolkit.engine.runtime import current

from . import membase, sync
from .dtypes import scalar_value
from .membase.relayout import TransDataTo5HDParams, trans_5hd_addresses
from .tensor import LocalTensor, UbPtr

#: the VA address registers
VA_REGS = 8


def _t(p: UbPtr, count: int) -> LocalTensor:
    return LocalTensor(p.addr, p.dtype, count)


def _done() -> None:
    sync.SetFlag[sync.HardEvent.V_S](0)
    sync.WaitFlag[sync.HardEvent.V_S](0)


def asc_bitsort(dst: UbPtr, src0: UbPtr, src1: UbPtr, repeat: Any) -> None:
    """Sort32: per repeat 32 (score, index) pairs sorted by descending score into dst."""
    n = int(scalar_value(repeat)) * 32
    membase.Sort32(_t(dst, 2 * n * 4 // dst.dtype.itemsize), _t(src0, n), _t(src1, n), repeat)


def asc_bitsort_sync(dst: UbPtr, src0: UbPtr, src1: UbPtr, repeat: Any) -> None:
    asc_bitsort(dst, src0, src1, repeat)
    _done()


def asc_mrgsort4(dst: UbPtr, src0: UbPtr, src1: UbPtr, src2: UbPtr, src3: UbPtr, repeat: Any, len0: Any, len1: Any,
                 len2: Any, len3: Any, if_exhausted_suspension: Any, valid_bit: Any) -> None:
    """MrgSort of four (score, index) queues (the array of the C form arrives as its four pointers)."""
    lens = [int(scalar_value(v)) for v in (len0, len1, len2, len3)]
    per = 8 // dst.dtype.itemsize
    queues = [_t(p, k * per) for p, k in zip((src0, src1, src2, src3), lens)]
    membase.MrgSort(_t(dst, sum(lens) * per * max(int(scalar_value(repeat)), 1)), *queues, *lens,
                    bool(if_exhausted_suspension), int(scalar_value(valid_bit)), int(scalar_value(repeat)))


def asc_mrgsort4_sync(*args: Any) -> None:
    asc_mrgsort4(*args)
    _done()


def asc_transpose(dst: UbPtr, src: UbPtr) -> None:
    """The 16 x 16 transpose of 16-bit elements (Transpose)."""
    membase.Transpose(_t(dst, 256), _t(src, 256))


def asc_transpose_sync(dst: UbPtr, src: UbPtr) -> None:
    asc_transpose(dst, src)
    _done()


def asc_set_va_reg(addr: Any, *src_array: UbPtr) -> None:
    """VA register ``addr`` holds these 8 UB addresses (the C form's array arrives as its 8 pointers)."""
    ctx = current()
    k = int(scalar_value(addr))
    if not 0 <= k < VA_REGS or len(src_array) != 8:
        ctx.report("BAD_PARAMETER", f"asc_set_va_reg: register VA{k} (VA0-VA7) takes 8 addresses")
    ctx.state.setdefault("va_regs", {})[k] = [p.addr for p in src_array]


def _list(ctx, reg: Any, api: str) -> list[int]:
    k = int(scalar_value(reg))
    regs = ctx.state.get("va_regs", {})
    if k + 1 >= VA_REGS or k not in regs or k + 1 not in regs:
        ctx.report("BAD_PARAMETER", f"{api}: VA{k} and VA{k + 1} must both be set by asc_set_va_reg first")
        return [0] * 16
    return regs[k] + regs[k + 1]


def _transto5hd(bits: int, sync_after: bool):
    name = f"asc_transto5hd_b{bits}" + ("_sync" if sync_after else "")
    dt = {8: np.uint8, 16: np.uint16, 32: np.uint32}[bits]

    def run(dst: Any, src: Any, repeat: Any, dst_stride: Any, src_stride: Any, dst_high_half: Any = False,
            src_high_half: Any = False) -> None:
        ctx = current()
        params = TransDataTo5HDParams(bool(dst_high_half), bool(src_high_half), int(scalar_value(repeat)),
                                      int(scalar_value(dst_stride)), int(scalar_value(src_stride)))
        trans_5hd_addresses(ctx, name, np.dtype(dt), _list(ctx, dst, name), _list(ctx, src, name), params)
        if sync_after:
            _done()
    run.__name__ = run.__qualname__ = name
    run.__doc__ = f"TransDataTo5HD<{bits}-bit> over the address lists of two VA register pairs."
    return run


asc_transto5hd_b8, asc_transto5hd_b16, asc_transto5hd_b32 = (_transto5hd(b, False) for b in (8, 16, 32))
asc_transto5hd_b8_sync, asc_transto5hd_b16_sync, asc_transto5hd_b32_sync = (_transto5hd(b, True) for b in (8, 16, 32))
