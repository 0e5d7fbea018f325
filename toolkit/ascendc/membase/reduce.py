"""MemBase ``WholeReduceSum(dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride)`` (api-facts 14).

Per repeat i: block-strided masked load of 8 blocks from ``src + i*srcRepStride*32 B`` (block stride
``srcBlkStride``), adjacent-pair tree sum over all VL lanes (masked lanes enter as 0, toolkit.ascendc.numerics
tree_reduce), result stored unaligned to ``dst[i*dstRepStride]``. ``dstRepStride == 0``: only the last
repeat is computed, written to ``dst[0]``. Types: half -> half, float -> float, int16/int32 -> int32,
uint16/uint32 -> uint32.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from toolkit.ascendc.dtypes import scalar_value
from toolkit.ascendc.numerics import elementwise, tree_reduce
from toolkit.ascendc.tensor import LocalTensor
from toolkit.engine.runtime import current

from .elementwise import MemBaseApi, type_name
from .executor import Operand, apply
from .level0 import BLOCK, VL, check_u8, parse_mask, per_step, strided
from .vfstream import emit, reduce_stream

_SUM_TYPE = {np.dtype(t): np.dtype(u) for t, u in [(np.float32, np.float32), (np.float16, np.float16),
                                                    (np.int16, np.int32), (np.int32, np.int32),
                                                    (np.uint16, np.uint32), (np.uint32, np.uint32)]}


def _whole_reduce_sum(dst: LocalTensor, src: LocalTensor, mask: Any, repeatTime: Any, dstRepStride: Any,
                      srcBlkStride: Any, srcRepStride: Any) -> None:
    """``WholeReduceSum(dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride)`` (VCADD)."""
    api = "WholeReduceSum"
    ctx = current()
    sdt = src.dtype
    out_dt = _SUM_TYPE.get(sdt)
    if out_dt is None or dst.dtype != out_dt:
        ctx.report("BAD_PARAMETER", f"{api}: {type_name(sdt)} -> {type_name(dst.dtype)} is not a supported "
                   f"type pair")
    repeat, drep = int(scalar_value(repeatTime)), int(scalar_value(dstRepStride))
    sblk, srep = int(scalar_value(srcBlkStride)), int(scalar_value(srcRepStride))
    check_u8(ctx, api, repeatTime=repeat, srcBlkStride=sblk, srcRepStride=srep)
    if drep < 0:
        ctx.report("BAD_PARAMETER", f"{api}: dstRepStride {drep} is negative")
    lanes = VL // sdt.itemsize
    m = parse_mask(ctx, api, mask, lanes)
    steps = repeat if drep else min(repeat, 1)
    src_addr = src.addr if drep or repeat == 0 else src.addr + (repeat - 1) * srep * BLOCK
    if steps and not m.empty:
        act, nact = m.act, m.act.size
        add = elementwise("add", out_dt)

        def fn(v: list) -> np.ndarray:
            x = v[0].reshape(v[0].shape[0], -1, nact).astype(out_dt)       # (rows, steps, lanes)
            full = np.zeros((*x.shape[:2], lanes), dtype=out_dt)
            full[:, :, act] = x
            return tree_reduce(full, add)

        apply(ctx, api, Operand(dst.addr, dst.dtype, per_step(steps, drep, out_dt.itemsize), out_dt.itemsize),
              [Operand(src_addr, sdt, strided(sdt.itemsize, sblk, srep, steps, m))], fn,
              lambda d: d[0].reshape(d[0].shape[0], -1, nact).all(axis=2))
    emit(ctx, api, 6 + (m.kind == "count"), reduce_stream(steps, m.kind, m.value, out_dt.itemsize,
                                                             ((dst.addr, drep), (src_addr, sblk, srep))),
         {"dtype": type_name(sdt), "form": "level0", "repeat": steps, "mask": m.kind})


WholeReduceSum = MemBaseApi(_whole_reduce_sum, "WholeReduceSum")
