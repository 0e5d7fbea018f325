"""MemBase ``Brcb(dst, src, repeatTime, BrcbRepeatParams)`` (api-facts 14).

For repeat i and block j < 8, the 32 B block at ``dst + (i*dstRepStride + j*dstBlkStride)*32 B`` is
filled with ``src[8*i + j]``. dstBlkStride 0 is treated as 1 (3510 implementation). On 950: an E2B load
(DIST_E2B_B32 / B16) and a block-strided store per repeat.
"""
from __future__ import annotations

import functools
from typing import Any

import numpy as np

from toolkit.ascendc.dtypes import scalar_value
from toolkit.ascendc.tensor import LocalTensor
from toolkit.engine.runtime import current

from .elementwise import MemBaseApi, type_name
from .executor import Operand, apply
from .level0 import BLOCK, VL, Access, check_u8, from_arrays, make_mask, strided
from .params import BrcbRepeatParams
from .vfstream import brcb_stream, emit


@functools.lru_cache(maxsize=256)
def _src_access(width: int, repeat: int) -> Access:
    """Lane e of repeat i reads src[8*i + e // (32/width)]."""
    lanes, epb = VL // width, BLOCK // width
    idx = (np.arange(repeat, dtype=np.int64)[:, None] * 8 + (np.arange(lanes) // epb)[None, :]).ravel()
    step = np.repeat(np.arange(repeat, dtype=np.int64), lanes)
    return from_arrays(("brcb", width, repeat), idx, step, repeat, repeat * 8 * width)


def _brcb(dst: LocalTensor, src: LocalTensor, repeatTime: Any, params: BrcbRepeatParams) -> None:
    """``Brcb(dst, src, repeatTime, BrcbRepeatParams(dstBlkStride, dstRepStride))``."""
    api = "Brcb"
    ctx = current()
    dt = dst.dtype
    w = dt.itemsize
    if src.dtype != dt or w not in (1, 2, 4, 8):
        ctx.report("BAD_PARAMETER", f"{api}: needs equal 8-, 16-, 32- or 64-bit types, got {type_name(dt)} / "
                   f"{type_name(src.dtype)}")
    repeat = int(scalar_value(repeatTime))
    blk, rep = int(params.dstBlkStride) or 1, int(params.dstRepStride)
    check_u8(ctx, api, repeatTime=repeat, dstBlkStride=blk, dstRepStride=rep)
    lanes = VL // w
    if repeat:
        dacc = strided(w, blk, rep, repeat, make_mask("count", lanes, lanes))
        apply(ctx, api, Operand(dst.addr, dt, dacc), [Operand(src.addr, dt, _src_access(w, repeat))],
              lambda v: v[0].copy())
    emit(ctx, api, 5, brcb_stream(repeat, w, ((dst.addr, blk, rep), src.addr)), {"dtype": type_name(dt), "form": "level0", "repeat": repeat})


Brcb = MemBaseApi(_brcb, "Brcb")
