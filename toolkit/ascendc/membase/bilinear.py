"""MemBase ``BilinearInterpolation(dst, src0, src0Offset, src1, mask, hRepeat, repeatMode, dstBlkStride,
vROffset, vRepeat, sharedTmpBuffer)`` (half), the legacy gather-multiply-accumulate the page describes:

iteration i = v * hRepeat + h gathers 8 blocks of src0 at the byte offsets ``src0Offset[8i .. 8i + 7]``
(a Gatherb), multiplies each by a weight of src1 (repeatMode false: ``src1[i]`` for all 8 blocks; true:
``src1[8i + j]`` for block j) and the products of one vertical step are summed in order,
``((p_0 + p_1) + p_2) ...`` in half (assumed for hRepeat > 2; the page's example has two), into
``dst + v * vROffset`` elements, block b at ``b * dstBlkStride * 32 B``. Masked-off lanes keep dst. On
Ascend 950 no work buffer is needed (sharedTmpBuffer is not touched).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from toolkit.ascendc.dtypes import scalar_value
from toolkit.ascendc.tensor import LocalTensor
from toolkit.engine.runtime import current

from .elementwise import Level0, MemBaseApi, level0_mask, type_name
from .level0 import BLOCK
from .types import F16
from .vfstream import emit, gather_scatter_stream


def _bilinear(dst: LocalTensor, src0: LocalTensor, src0Offset: LocalTensor, src1: LocalTensor, mask: Any,
              hRepeat: Any, repeatMode: Any, dstBlkStride: Any, vROffset: Any, vRepeat: Any,
              sharedTmpBuffer: LocalTensor | None = None, isSetMask: bool = True, mask_state: Any = None) -> None:
    """See the module doc."""
    api = "BilinearInterpolation"
    ctx = current()
    if any(t.dtype != F16 for t in (dst, src0, src1)):
        ctx.report("BAD_PARAMETER", f"{api}: half operands only (got {type_name(dst.dtype)})")
    h, v = int(scalar_value(hRepeat)), int(scalar_value(vRepeat))
    blk, voff = int(scalar_value(dstBlkStride)), int(scalar_value(vROffset))
    if not (1 <= h <= 255 and 1 <= v <= 255) or not 128 <= voff < 65536 or (voff * 2) % 32:
        ctx.report("BAD_PARAMETER", f"{api}: hRepeat {h} / vRepeat {v} must be in [1, 255], vROffset {voff} in "
                   f"[128, 65535) with vROffset * 2 a multiple of 32")
    _, m = level0_mask(ctx, api, Level0(mask, 1, [(1, 8)], isSetMask, mask_state), 128)
    n_it = h * v
    ub = ctx.ub
    if ctx.dry_run:
        return
    ub.check(src0Offset.addr, n_it * 8 * 4, api, 32)
    ub.require_defined(src0Offset.addr, n_it * 8 * 4, f"{api} (src0Offset)")
    offs = np.asarray(ub.data[src0Offset.addr:src0Offset.addr + n_it * 8 * 4]).view(np.uint32).astype(np.int64)
    nw = n_it * 8 if bool(scalar_value(repeatMode)) else n_it
    ub.check(src1.addr, nw * 2, api, 32)
    weights = np.asarray(ub.data[src1.addr:src1.addr + nw * 2]).view(F16)
    ok = bool(ub.defined[src1.addr:src1.addr + nw * 2].all())
    for vi in range(v):
        acc, acc_def = None, ok
        for hi in range(h):
            it = vi * h + hi
            blocks = []
            for j in range(8):
                a = src0.addr + int(offs[it * 8 + j])
                ub.check(a, BLOCK, api, 32)
                blocks.append(np.asarray(ub.data[a:a + BLOCK]).view(F16))
                acc_def &= bool(ub.defined[a:a + BLOCK].all())
            g = np.stack(blocks)                                        # 8 x 16
            w = weights[it * 8:it * 8 + 8][:, None] if nw > n_it else weights[it]
            p = (g * w).astype(F16).ravel()
            acc = p if acc is None else (acc + p).astype(F16)
        _store(ctx, api, dst.addr + vi * voff * 2, blk, acc, m.active, acc_def)
    emit(ctx, api, 11, gather_scatter_stream("RV_VGATHERB", n_it, dst.addr),
         {"dtype": type_name(dst.dtype), "form": "level0", "repeat": n_it})


def _store(ctx, api: str, base: int, blk: int, values: np.ndarray, active: np.ndarray, defined: bool) -> None:
    for b in range(8):
        a = base + b * (blk or 1) * BLOCK
        ctx.ub.check(a, BLOCK, api, 32)
        lanes = active[b * 16:(b + 1) * 16]
        if not lanes.any():
            continue
        cur = np.asarray(ctx.ub.data[a:a + BLOCK]).view(F16).copy()
        cur[lanes] = values[b * 16:(b + 1) * 16][lanes]
        d = np.asarray(ctx.ub.defined[a:a + BLOCK]).reshape(16, 2).copy()
        d[lanes] = defined
        ctx.ub.write(a, cur.view(np.uint8), d.ravel())


BilinearInterpolation = MemBaseApi(_bilinear, "BilinearInterpolation", batchable=False)
