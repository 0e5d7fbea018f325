"""The C API's data movement (C-API/vector_datamove) and a few element-wise calls, as compositions of the
C++ API they stand for: DataCopyPad (GM <-> UB, every block form), DataCopy (UB -> UB), the NDDMA of
toolkit/ascendc/dma_nd.py, the DMA registers of toolkit/ascendc/dma_loop.py (loop mode, padding value),
SetFlag / WaitFlag for the ``_sync`` forms, the MemBase count-form calls.

Conventions (the 3510 pages): ``size`` and ``len_burst`` are bytes; ``src_stride`` / ``dst_stride`` are bytes
from the head of one block to the head of the next, a UB stride 32 B aligned unless it equals
``len_burst`` (the blocks are then packed: DataCopyPad's Compact mode); the 2201 forms' ``src_gap`` /
``dst_gap`` are DataBlocks (32 B) from the end of one block to the start of the next. Assumptions where the
pages are silent: a ``_sync`` copy into UB waits for the copy before the vector pipe goes on (MTE2_V), one
out of UB waits for the vector pipe first (V_MTE3) and for the copy after (MTE3_S); the L2 cache modes
change nothing (the emulator has no cache); ``enable_constant_pad`` false pads with the first element of
the source; ``asc_init`` has no emulated effect.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from toolkit.engine.runtime import current

from . import dma, dma_loop, dma_nd, membase, sync
from .dma import DataCopyExtParams, DataCopyPadExtParams, DataCopyParams, PaddingMode
from .dma_loop import DataCopyMVType
from .dtypes import scalar_value
from .tensor import GlobalTensor, GmPtr, LocalTensor, UbPtr


def _local(p: UbPtr, nbytes: int, dtype: Any = None) -> LocalTensor:
    dt = p.dtype if dtype is None else np.dtype(dtype)
    return LocalTensor(p.addr, dt, max(int(nbytes) // dt.itemsize, 0))


def _global(p: GmPtr, dtype: Any = None) -> GlobalTensor:
    g = GlobalTensor(p.dtype if dtype is None else dtype)
    g.SetGlobalBuffer(GmPtr(p.buf, p.offset, g.dtype))      # the rest of the allocation from the pointer on
    return g


def _int(v: Any) -> int:
    return int(scalar_value(v))


def asc_init() -> None:
    return None


# -- GM -> UB ------------------------------------------------------------------------------------------------
def _ub_layout(api: str, n: int, length: int, ub_stride: int, padded: int) -> tuple[PaddingMode, int]:
    """DataCopyPad's mode and UB stride (in DataBlocks after the padded block) for a head-to-head UB stride."""
    if n <= 1:
        return PaddingMode.Normal, 0
    if ub_stride == length and length % 32:
        return PaddingMode.Compact, 0
    aligned = (padded + 31) // 32 * 32
    if ub_stride % 32 or ub_stride < aligned:
        current().report("BAD_PARAMETER", f"{api}: UB stride {ub_stride} B is not 32 B aligned or is below the "
                         f"{aligned} B a block takes")
    return PaddingMode.Normal, (ub_stride - aligned) // 32


def _to_ub(api: str, dst: LocalTensor, src: GlobalTensor, n: int, length: int, src_stride: int, dst_stride: int,
           pad: DataCopyPadExtParams | None = None) -> None:
    pad = pad or DataCopyPadExtParams()
    sz = dst.dtype.itemsize
    mode, ub_gap = _ub_layout(api, n, length, dst_stride, (int(pad.leftPadding) + int(pad.rightPadding)) * sz + length)
    gm_gap = src_stride - length if n > 1 else 0
    dma.DataCopyPad(mode, dst, src, DataCopyExtParams(n, length, gm_gap, ub_gap, 0), pad)


def asc_copy_gm2ub(dst: UbPtr, src: GmPtr, *args: Any) -> None:
    """``(dst, src, size)`` or ``(dst, src, n_burst, len_burst, src_stride, dst_stride)``: bytes."""
    if len(args) == 1:
        size = _int(args[0])
        return _to_ub("asc_copy_gm2ub", _local(dst, size, np.uint8), _global(src, np.uint8), 1, size, 0, 0)
    n, length, s_stride, d_stride = (_int(a) for a in args)
    _to_ub("asc_copy_gm2ub", _local(dst, (n - 1) * d_stride + length + 32, np.uint8), _global(src, np.uint8),
           n, length, s_stride, d_stride)


def _after_in() -> None:
    sync.SetFlag[sync.HardEvent.MTE2_V](0)
    sync.WaitFlag[sync.HardEvent.MTE2_V](0)


def asc_copy_gm2ub_sync(dst: UbPtr, src: GmPtr, size: Any) -> None:
    asc_copy_gm2ub(dst, src, size)
    _after_in()


def _pad_value(src: GlobalTensor, constant: bool) -> Any:
    if constant:
        reg = dma_loop.pad_register(current())
        return 0 if reg is None else reg
    return src.buf.data[src.offset:src.offset + src.dtype.itemsize].view(src.dtype)[0].item()


def asc_copy_gm2ub_align(dst: UbPtr, src: GmPtr, *args: Any) -> None:
    """``(size)``; 3510: ``(n_burst, len_burst, left, right, enable_constant_pad, l2_cache_mode, src_stride,
    dst_stride)``; 2201: ``(n_burst, len_burst, left, right, src_gap, dst_gap)`` (padding from
    asc_set_copy_pad_val when it was set)."""
    g = _global(src)
    if len(args) == 1:
        size = _int(args[0])
        return _to_ub("asc_copy_gm2ub_align", _local(dst, size), g, 1, size, 0, 0)
    n, length, left, right = (_int(a) for a in args[:4])
    if len(args) == 6:
        s_gap, d_gap = _int(args[4]), _int(args[5])
        pad = DataCopyPadExtParams(False, left, right, 0)
        return dma.DataCopyPad(_local(dst, 1 << 20), g, DataCopyExtParams(n, length, s_gap * 32, d_gap, 0), pad)
    constant, s_stride, d_stride = bool(args[4]), _int(args[6]), _int(args[7])
    pad = DataCopyPadExtParams(True, left, right, _pad_value(g, constant)) if left or right else None
    _to_ub("asc_copy_gm2ub_align", _local(dst, 1 << 20), g, n, length, s_stride, d_stride, pad)


def asc_copy_gm2ub_align_sync(dst: UbPtr, src: GmPtr, size: Any) -> None:
    asc_copy_gm2ub_align(dst, src, size)
    _after_in()


# -- UB -> GM ------------------------------------------------------------------------------------------------
def _to_gm(api: str, dst: GlobalTensor, src: LocalTensor, n: int, length: int, dst_stride: int,
           src_stride: int) -> None:
    mode, ub_gap = _ub_layout(api, n, length, src_stride, length)
    gm_gap = dst_stride - length if n > 1 else 0
    dma.DataCopyPad(mode, dst, src, DataCopyExtParams(n, length, ub_gap, gm_gap, 0))


def asc_copy_ub2gm(dst: GmPtr, src: UbPtr, *args: Any) -> None:
    """``(dst, src, size)`` or ``(dst, src, n_burst, len_burst, dst_stride, src_stride)``: bytes."""
    if len(args) == 1:
        size = _int(args[0])
        return _to_gm("asc_copy_ub2gm", _global(dst, np.uint8), _local(src, size, np.uint8), 1, size, 0, 0)
    n, length, d_stride, s_stride = (_int(a) for a in args)
    _to_gm("asc_copy_ub2gm", _global(dst, np.uint8), _local(src, (n - 1) * s_stride + length, np.uint8), n, length,
           d_stride, s_stride)


def _before_out() -> None:
    sync.SetFlag[sync.HardEvent.V_MTE3](0)
    sync.WaitFlag[sync.HardEvent.V_MTE3](0)


def _after_out() -> None:
    sync.SetFlag[sync.HardEvent.MTE3_S](0)
    sync.WaitFlag[sync.HardEvent.MTE3_S](0)


def asc_copy_ub2gm_sync(dst: GmPtr, src: UbPtr, size: Any) -> None:
    _before_out()
    asc_copy_ub2gm(dst, src, size)
    _after_out()


def asc_copy_ub2gm_align(dst: GmPtr, src: UbPtr, *args: Any) -> None:
    """``(size)``; 3510 ``(n_burst, len_burst, l2_cache_mode, dst_stride, src_stride)``; 2201 ``(n_burst,
    len_burst, left_padding_num, right_padding_num, src_gap, dst_gap)`` (gaps in DataBlocks; the padding
    counts do not change what reaches GM: assumed, the way out has nothing to pad)."""
    if len(args) == 1:
        size = _int(args[0])
        return _to_gm("asc_copy_ub2gm_align", _global(dst), _local(src, size), 1, size, 0, 0)
    if len(args) == 6:
        n, length, s_gap, d_gap = _int(args[0]), _int(args[1]), _int(args[4]), _int(args[5])
        return dma.DataCopyPad(_global(dst), _local(src, 1 << 20), DataCopyExtParams(n, length, s_gap, d_gap * 32, 0))
    n, length, d_stride, s_stride = _int(args[0]), _int(args[1]), _int(args[3]), _int(args[4])
    _to_gm("asc_copy_ub2gm_align", _global(dst), _local(src, (n - 1) * s_stride + length), n, length, d_stride,
           s_stride)


def asc_copy_ub2gm_align_sync(dst: GmPtr, src: UbPtr, size: Any) -> None:
    _before_out()
    asc_copy_ub2gm_align(dst, src, size)
    _after_out()


# -- UB -> UB, UB -> L1 ---------------------------------------------------------------------------------------
def asc_copy_ub2ub(dst: UbPtr, src: UbPtr, *args: Any) -> None:
    """``(size)`` bytes, or ``(n_burst, len_burst, src_gap, dst_gap)`` in DataBlocks: DataCopy UB -> UB."""
    if len(args) == 1:
        size = _int(args[0])
        return dma.DataCopy(_local(dst, size, np.uint8), _local(src, size, np.uint8), size)
    n, length, s_gap, d_gap = (_int(a) for a in args)
    span = n * (length + max(s_gap, d_gap)) * 32
    dma.DataCopy(_local(dst, span, np.uint8), _local(src, span, np.uint8), DataCopyParams(n, length, s_gap, d_gap))


def asc_copy_ub2ub_sync(dst: UbPtr, src: UbPtr, size: Any) -> None:
    _before_out()
    asc_copy_ub2ub(dst, src, size)
    sync.SetFlag[sync.HardEvent.MTE3_V](0)
    sync.WaitFlag[sync.HardEvent.MTE3_V](0)


def asc_copy_ub2l1(dst: Any, src: UbPtr, *args: Any) -> None:
    current().report("UNSUPPORTED_API", "asc_copy_ub2l1: the L1 buffer belongs to the cube core, which is not "
                     "emulated")


def asc_copy_ub2l1_sync(dst: Any, src: UbPtr, size: Any) -> None:
    asc_copy_ub2l1(dst, src, size)


# -- the DMA registers ---------------------------------------------------------------------------------------
def asc_set_copy_pad_val(pad_value: Any) -> None:
    """The padding of asc_copy_gm2ub_align (SetPadValue's register)."""
    dma.SetPadValue(pad_value)


def asc_set_gm2ub_pad(pad_val: Any) -> None:
    dma.SetPadValue(pad_val)


def _loop(direction: DataCopyMVType, fields: tuple[str, str], name: str):
    def run(a: Any, b: Any) -> None:
        dma_loop.set_loop_registers(direction, **{fields[0]: a, fields[1]: b})
    run.__name__ = run.__qualname__ = name
    run.__doc__ = f"The loop mode registers {fields[0]}, {fields[1]} of {direction.name} (SetLoopModePara's)."
    return run


_IN, _OUT = DataCopyMVType.OUT_TO_UB, DataCopyMVType.UB_TO_OUT
_SIZES, _L1, _L2 = ("loop1Size", "loop2Size"), ("loop1SrcStride", "loop1DstStride"), ("loop2SrcStride", "loop2DstStride")
asc_set_gm2ub_loop_size = _loop(_IN, _SIZES, "asc_set_gm2ub_loop_size")
asc_set_gm2ub_loop1_stride = _loop(_IN, _L1, "asc_set_gm2ub_loop1_stride")
asc_set_gm2ub_loop2_stride = _loop(_IN, _L2, "asc_set_gm2ub_loop2_stride")
asc_set_ub2gm_loop_size = _loop(_OUT, _SIZES, "asc_set_ub2gm_loop_size")
asc_set_ub2gm_loop1_stride = _loop(_OUT, _L1, "asc_set_ub2gm_loop1_stride")
asc_set_ub2gm_loop2_stride = _loop(_OUT, _L2, "asc_set_ub2gm_loop2_stride")


# -- NDDMA ---------------------------------------------------------------------------------------------------
def _ndim(ctx) -> dict:
    return ctx.state.setdefault("capi_ndim", {"strides": [(0, 0)] * 5, "pads": [(0, 0)] * 5, "value": 0})


def _ndim_stride(dim: int):
    def run(dst_stride: Any, src_stride: Any) -> None:
        _ndim(current())["strides"][dim] = (_int(dst_stride), _int(src_stride))
    run.__name__ = run.__qualname__ = f"asc_set_ndim_loop{dim}_stride"
    run.__doc__ = f"Dimension {dim}'s element strides of asc_ndim_copy_gm2ub (destination, source)."
    return run


asc_set_ndim_loop0_stride, asc_set_ndim_loop1_stride, asc_set_ndim_loop2_stride, asc_set_ndim_loop3_stride, \
    asc_set_ndim_loop4_stride = (_ndim_stride(d) for d in range(5))


def asc_set_ndim_pad_count(config: Any) -> None:
    """Dimensions 1-4's left / right padding counts: the bytes of asc_ndim_pad_count_config, low first."""
    bits = _int(config)
    pads = _ndim(current())["pads"]
    for d in range(1, 5):
        pads[d] = (bits >> (16 * (d - 1)) & 0xFF, bits >> (16 * (d - 1) + 8) & 0xFF)


def asc_set_ndim_pad_value(pad_value: Any) -> None:
    _ndim(current())["value"] = scalar_value(pad_value)


def asc_ndim_copy_gm2ub(dst: UbPtr, src: GmPtr, *args: Any) -> None:
    """``(loop0_size .. loop4_size, loop0_lp_count, loop0_rp_count, padding_mode, l2_cache_mode)``: the NDDMA
    (padding_mode true: the constant of asc_set_ndim_pad_value; false: the nearest element)."""
    ctx = current()
    regs = _ndim(ctx)
    sizes, lp0, rp0, constant = [_int(a) for a in args[:5]], _int(args[5]), _int(args[6]), bool(args[7])
    pads = [(lp0, rp0), *regs["pads"][1:]]
    loops = [(regs["strides"][d][1], regs["strides"][d][0], sizes[d], *pads[d]) for d in range(5)]
    dma_nd.nd_dma(_local(dst, 1 << 20), _global(src), not constant, dma_nd.UNSET_PAD, dma_nd.UNSET_PAD,
                  regs["value"], loops)


# -- element-wise (count form) -------------------------------------------------------------------------------
def _binary(api, name: str):
    def run(dst: UbPtr, src0: UbPtr, src1: UbPtr, count: int) -> None:
        n = int(count) * dst.dtype.itemsize
        api(_local(dst, n), _local(src0, n), _local(src1, n), int(count))
    run.__name__ = run.__qualname__ = name
    return run


asc_add_sync = _binary(membase.Add, "asc_add_sync")
asc_sub_sync = _binary(membase.Sub, "asc_sub_sync")
asc_mul_sync = _binary(membase.Mul, "asc_mul_sync")
asc_div_sync = _binary(membase.Div, "asc_div_sync")
