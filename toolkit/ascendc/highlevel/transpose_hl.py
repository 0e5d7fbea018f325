"""The high-level Transpose (高阶API/张量变换/Transpose-96.md): TransposeType scenarios 1-7 and 13-16 with a
ConfusionTransposeTiling, and its host helpers (Transpose Tiling). Layouts: see :mod:`.transform_layout`.

How each scenario runs, as the page describes it: 7 by TransDataTo5HD over address lists; 1-6 (16-bit, H/N
a multiple of 16) by two TransDataTo5HD steps through the temporary buffer (S x 16 elements); 13-16 by a
gather (the source addresses in sequence, the destination written contiguously): the element map of
:func:`.relayout.relayout` (an offset table, then Gather). Assumed: 1-6 for 32-bit types by strided UB -> UB
DataCopy of the same 16-element fractal rows; 3 / 4 with other H/N by the element map.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, fields
from enum import Enum
from typing import Any

import numpy as np

from toolkit.ascendc.dtypes import scalar_value
from toolkit.ascendc.membase.elementwise import type_name
from toolkit.ascendc.membase.relayout import TransposeType
from toolkit.ascendc.tensor import LocalTensor

from .relayout import check_disjoint, relayout, tmp_sizes
from .transform import _bad, _dims


def _up(n: int, k: int) -> int:
    return (int(n) + k - 1) // k * k


# -- the high-level Transpose ---------------------------------------------------------------------------------
@dataclass
class ConfusionTransposeTiling:
    """GetTransposeTilingInfo's result. The vendor's struct is param0..param17 (uint32); their meaning is
    not published. Here: param0 the TransposeType, param1 the number of dimensions, param2..param5 the
    source shape, param6 typeSize, param7 stackBufferSize; the rest 0."""

    param0: int = 0
    param1: int = 0
    param2: int = 0
    param3: int = 0
    param4: int = 0
    param5: int = 0
    param6: int = 0
    param7: int = 0
    param8: int = 0
    param9: int = 0
    param10: int = 0
    param11: int = 0
    param12: int = 0
    param13: int = 0
    param14: int = 0
    param15: int = 0
    param16: int = 0
    param17: int = 0

    def dims(self) -> list[int]:
        return [int(getattr(self, f"param{2 + k}")) for k in range(min(int(self.param1), 4))]


T = TransposeType
_B16_32 = ("int16_t", "uint16_t", "half", "int32_t", "uint32_t", "float")
_ND = ("int8_t", "uint8_t", "int16_t", "uint16_t", "half", "bfloat16_t", "int32_t", "uint32_t", "float")
_TYPES = {**{k: _B16_32 for k in range(1, 8)}, 13: _ND, 14: _ND, 15: _ND, 16: ("int8_t", "uint8_t")}


def _nz(rows: int, cols: int) -> np.ndarray:
    """Positions in an NZ buffer of a [rows, cols] matrix (rows a multiple of 16, cols padded to 16)."""
    r, c = np.indices((rows, cols), dtype=np.int64)
    return ((c // 16) * rows + r) * 16 + c % 16


def _need(cond: bool, kind: int, what: str) -> None:
    if not cond:
        _bad(f"Transpose: scenario {kind}: {what}")


def _bnsh(kind: int, dims: list[int]) -> tuple[np.ndarray, np.ndarray, int]:
    """Scenarios 1-6: (input positions, output positions) of the logical [B, N, S, H/N] elements, output size."""
    _need(len(dims) == 4, kind, f"the shape {dims} is [B, N, S, H/N]")
    b, n, s, hn = dims
    h = n * hn
    _need(s % 16 == 0, kind, f"S ({s}) is a multiple of 16")
    bi, ni, si, hi = np.indices((b, n, s, hn), dtype=np.int64)
    if kind in (1, 2, 5, 6):                           # input NZ [B, N] x [S, H/N]
        _need(hn % 16 == 0, kind, f"H/N ({hn}) is a multiple of 16")
        src = (bi * n + ni) * s * hn + _nz(s, hn)[si, hi]
    else:                                              # input NZ [B] x [S, H]
        _need(h % 16 == 0, kind, f"H ({h}) is a multiple of 16")
        src = bi * s * h + _nz(s, h)[si, ni * hn + hi]
    hnp = _up(hn, 16)
    if kind == 1:
        return src, ((bi * s + si) * n + ni) * hn + hi, b * s * n * hn
    if kind == 2:
        _need(n % 16 == 0, kind, f"N ({n}) is a multiple of 16")
        return src, (bi * s + si) * n * hn + _nz(n, hn)[ni, hi], b * s * n * hn
    if kind == 3:
        return src, (bi * n + ni) * s * hnp + _nz(s, hnp)[si, hi], b * n * s * hnp
    if kind == 4:
        return src, ((bi * n + ni) * s + si) * hnp + hi, b * n * s * hnp
    if kind == 5:
        return src, (bi * s + si) * h + ni * hn + hi, b * s * h
    return src, bi * s * h + _nz(s, h)[si, ni * hn + hi], b * s * h


def transpose_map(kind: int, dims: list[int]) -> tuple[np.ndarray, int]:
    """(the element map, the source element count) of a high-level Transpose scenario."""
    if kind not in _TYPES:
        _bad(f"Transpose: transposeType {kind} is not supported (1-7 and 13-16)")
    if kind <= 6:
        src, dst, size = _bnsh(kind, dims)
        idx = np.full(size, -1, np.int64)
        idx[dst.ravel()] = src.ravel()
        return idx, math.prod(dims) if kind in (1, 2, 5, 6) else math.prod(dims)
    n_src = math.prod(dims)
    a = np.arange(n_src, dtype=np.int64)
    if kind in (7, 16) or (kind == 13 and len(dims) == 2):
        _need(len(dims) == 2, kind, f"the shape {dims} is [H, W]")
        hh, ww = dims
        if kind == 7:
            _need(hh % 16 == 0 and ww % 16 == 0, kind, f"H ({hh}) and W ({ww}) are multiples of 16")
        if kind == 16:
            _need(hh % 16 == 0 and ww % 2 == 0, kind, f"H ({hh}) is a multiple of 16 and W ({ww}) of 2")
            return a.reshape(hh // 16, 16, ww // 2, 2).transpose(2, 0, 1, 3).ravel(), n_src
        return a.reshape(hh, ww).T.ravel(), n_src
    _need(len(dims) == 3, kind, f"the shape {dims} is [N, H, W]")
    perm = {13: (0, 2, 1), 14: (1, 0, 2), 15: (2, 1, 0)}[kind]
    return a.reshape(dims).transpose(perm).ravel(), n_src


def nz_rows_apply(kind: int, dims: list[int]) -> bool:
    """Whether scenarios 1-6 move whole 16-element fractal rows (H/N a multiple of 16)."""
    return 1 <= kind <= 6 and len(dims) == 4 and dims[3] % 16 == 0


def _nz_moves(kind: int, b: int, n: int, s: int, hn: int) -> list[tuple[int, int, int, int]]:
    """(dst offset, src offset, rows, dst row stride) in elements, one per (b, n, 16-column block): the rows of
    that column block (s = 0 .. S-1, 16 elements each, contiguous in the NZ source) and where they go."""
    h = n * hn
    out = []
    for bi in range(b):
        for ni in range(n):
            for h1 in range(hn // 16):
                if kind in (1, 2, 5, 6):               # source NZ [B, N] x [S, H/N]
                    src = (bi * n + ni) * s * hn + h1 * s * 16
                else:                                  # source NZ [B] x [S, H]: column block n * H/N / 16 + h1
                    src = bi * s * h + (ni * hn // 16 + h1) * s * 16
                out.append({1: ((bi * s * n + ni) * hn + h1 * 16, src, s, n * hn),
                            2: (bi * s * n * hn + (h1 * n + ni) * 16, src, s, n * hn),
                            3: ((bi * n + ni) * s * hn + h1 * s * 16, src, 1, 0),
                            4: ((bi * n + ni) * s * hn + h1 * 16, src, s, hn),
                            5: (bi * s * h + ni * hn + h1 * 16, src, s, h),
                            6: (bi * s * h + (ni * hn // 16 + h1) * s * 16, src, 1, 0)}[kind])
    return out


def _nz_rows(kind: int, dst: LocalTensor, src: LocalTensor, dims: list[int]) -> None:
    """Scenarios 1-6 with H/N a multiple of 16: the page's two TransDataTo5HD steps move whole 16-element
    fractal rows; here the rows of each column block move in one strided UB -> UB DataCopy (assumed)."""
    from toolkit.ascendc.dma import DataCopy, DataCopyParams
    b, n, s, hn = dims
    bl = 16 * dst.dtype.itemsize // 32              # blocks per fractal row
    for d, sr, rows, stride in _nz_moves(kind, b, n, s, hn):
        if rows == 1:                                  # whole fractals: S * 16 contiguous elements
            DataCopy(dst[d], src[sr], DataCopyParams(1, s * bl, 0, 0))
        else:
            DataCopy(dst[d], src[sr], DataCopyParams(rows, bl, 0, (stride - 16) * bl // 16))


def _two_5hd(kind: int, dst: LocalTensor, src: LocalTensor, dims: list[int], tmp: LocalTensor | None) -> None:
    """Scenarios 1-6 for 16-bit types as the page does them: per column block of 16, the S / 16 fractals
    transposed into the temporary buffer (TransDataTo5HD, one repeat per fractal), then transposed back
    into the destination with a destination address per row (the rows of the scenario's layout)."""
    import toolkit.ascendc.membase as MB
    from .tmpbuf import tmp_buffer
    b, n, s, hn = dims
    buf = tmp_buffer("Transpose", tmp, s * 32)
    temp = LocalTensor(buf.addr, dst.dtype, s * 16, buf.position)
    for d, sr, rows, stride in _nz_moves(kind, b, n, s, hn):
        stride = 16 if rows == 1 else stride          # whole fractals: their rows one after another
        for f0 in range(0, s // 16, 255):
            reps = min(255, s // 16 - f0)
            one = reps == 1                           # a single repeat: its strides apply once
            at = f0 * 256
            MB.TransDataTo5HD([temp[at + j * 16] for j in range(16)], [src[sr + at + i * 16] for i in range(16)],
                              MB.TransDataTo5HDParams(False, False, reps, 0 if one else 16, 0 if one else 16))
            MB.TransDataTo5HD([dst[d + (f0 * 16 + j) * stride] for j in range(16)],
                              [temp[at + i * 16] for i in range(16)],
                              MB.TransDataTo5HDParams(False, False, reps, 0 if one else stride, 0 if one else 16))


def _nd2nd_only(dst: LocalTensor, src: LocalTensor, h: int, w: int) -> None:
    """Scenario 7 as the page does it: TransDataTo5HD over address lists, one call per 16 source rows, a
    repeat per 16 (16-bit) or 8 (32-bit) source columns (16 x 16 or 16 x 8 tiles; dst [W, H])."""
    import toolkit.ascendc.membase as MB
    sz = dst.dtype.itemsize
    cols = 32 // sz                                   # source columns a tile covers (one 32 B block a row)
    tiles = w // cols
    for bi in range(h // 16):
        srcs = [src[(bi * 16 + i) * w] for i in range(16)]
        if sz == 2:                                   # dst block j: output row j, 16 rows of the input
            dsts = [dst[j * h + bi * 16] for j in range(16)]
        else:                                         # blocks 2j / 2j + 1: output row j, input rows 0-7 / 8-15
            dsts = [dst[(j // 2) * h + bi * 16 + 8 * (j % 2)] for j in range(16)]
        for r0 in range(0, tiles, 255):
            reps = min(255, tiles - r0)
            shift_s, shift_d = r0 * cols, r0 * cols * h
            one = reps == 1                           # a single repeat: its strides apply once (TransDataTo5HD)
            MB.TransDataTo5HD([t[shift_d] for t in dsts], [t[shift_s] for t in srcs],
                              MB.TransDataTo5HDParams(False, False, reps, 0 if one else cols * h * sz // 32,
                                                      0 if one else 1))


def direct_path(kind: int, dims: list[int], sz: int) -> bool:
    """Whether the scenario runs without the element map: 7, and 1-6 with H/N a multiple of 16. Scenarios
    13-16 are the page's gather (source addresses in sequence, the destination written contiguously)."""
    return kind == 7 or nz_rows_apply(kind, dims)


def _direct(kind: int, dst: LocalTensor, src: LocalTensor, dims: list[int], tmp: LocalTensor | None) -> None:
    if kind == 7:                                     # the page's TransDataTo5HD steps
        _nd2nd_only(dst, src, *dims)
    elif dst.dtype.itemsize == 2:                     # the page's two TransDataTo5HD steps
        _two_5hd(kind, dst, src, dims, tmp)
    else:
        _nz_rows(kind, dst, src, dims)


def hl_transpose(dst: LocalTensor, src: LocalTensor, *args: Any) -> None:
    """``Transpose(dst, src[, sharedTmpBuffer], transposeType, ConfusionTransposeTiling)``."""
    rest = list(args)
    tmp = rest.pop(0) if rest and (rest[0] is None or isinstance(rest[0], LocalTensor)) else None
    kind_v, tiling = rest
    kind = kind_v.value if isinstance(kind_v, Enum) else int(scalar_value(kind_v))
    allowed = _TYPES.get(kind, ())
    if allowed and type_name(dst.dtype) not in allowed:
        _bad(f"Transpose: scenario {kind} takes {', '.join(allowed)}, not {type_name(dst.dtype)}")
    if kind >= 13 and dst.addr == src.addr:
        _bad("Transpose: scenarios 13-16 do not allow dst and src to share their space")
    idx, n_src = transpose_map(kind, tiling.dims())
    if direct_path(kind, tiling.dims(), dst.dtype.itemsize):      # no temporary space
        check_disjoint("Transpose", dst, src, idx.size, n_src)
        _direct(kind, dst, src, tiling.dims(), tmp)
        return
    relayout("Transpose", dst, src, idx, 0, tmp, n_src)


def _kind(v: Any) -> int:
    return v.value if isinstance(v, Enum) else int(scalar_value(v))


def GetTransposeMaxMinTmpSize(srcShape, typeSize, transposeTypeIn, maxValue, minValue) -> None:
    """The scenarios that run without the element map (:func:`direct_path`): none; the others: the element
    map's sizes."""
    kind = _kind(transposeTypeIn)
    idx, _ = transpose_map(kind, _dims(srcShape))
    dims = _dims(srcShape)
    if direct_path(kind, dims, int(typeSize)):
        two = kind != 7 and int(typeSize) == 2        # the two TransDataTo5HD steps: S x 16 elements
        maxValue.value = minValue.value = dims[2] * 32 if two else 0
        return
    maxValue.value, minValue.value = tmp_sizes(idx.size)


GetConfusionTransposeMaxMinTmpSize = GetTransposeMaxMinTmpSize


def GetTransposeTilingInfo(srcShape, stackBufferSize, typeSize, transposeTypeIn,
                           tiling: ConfusionTransposeTiling | None = None) -> ConfusionTransposeTiling:
    kind, dims = _kind(transposeTypeIn), _dims(srcShape)
    transpose_map(kind, dims)                         # checks the shape
    if len(dims) > 4:
        _bad(f"GetTransposeTilingInfo: the shape {dims} has more than 4 dimensions")
    t = ConfusionTransposeTiling(kind, len(dims), *(dims + [0] * (4 - len(dims))), int(typeSize),
                                 int(stackBufferSize))
    if tiling is not None and isinstance(tiling, ConfusionTransposeTiling):
        for f in fields(t):
            setattr(tiling, f.name, getattr(t, f.name))
    return t


GetConfusionTransposeTilingInfo = GetTransposeTilingInfo


def GetConfusionTransposeOnlyTilingInfo(srcShape, stackBufferSize, typeSize,
                                        tiling: ConfusionTransposeTiling | None = None) -> ConfusionTransposeTiling:
    """The deprecated query without a transposeType: the [H, W] transpose (scenario 7, assumed)."""
    return GetTransposeTilingInfo(srcShape, stackBufferSize, typeSize, 7, tiling)


def is_hl_call(args: tuple) -> bool:
    """Whether a Transpose call's arguments are a high-level form (a ConfusionTransposeTiling last)."""
    return bool(args) and isinstance(args[-1], ConfusionTransposeTiling)
