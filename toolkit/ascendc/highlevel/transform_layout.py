"""``AscendC::`` tensor transforms of the high-level library (高阶API/张量变换), part 2: TransData (NCDHW <->
NDC1HWC0, NCDHW <-> FRACTAL_Z_3D), the high-level Transpose (TransposeType scenarios 1-7 and 13-16 with a
ConfusionTransposeTiling) and their host helpers. TransData runs as 16 x 16 TransDataTo5HD transposes;
Transpose scenario 7 by TransDataTo5HD (the page's steps), 1-6 (H/N a multiple of 16) by strided UB -> UB
DataCopy of whole fractal rows, the rest as element maps (:func:`.relayout.relayout`).

Layouts (the pages' shapes; C0 = N0 = 16, C1 = ceil(C / 16), N1 = ceil(N / 16)):

* NCDHW in UB: [N, C, D, HW'] with HW' = H * W rounded up to 32 B (the page: the caller pads the merged
  H * W axis of an input; an output's padding is written, with 0 here: the page calls it invalid data).
* NDC1HWC0: [N, D, C1, H, W, C0]; FRACTAL_Z_3D: [D, C1, H, W, N1, N0, C0]; lanes past C (or N) are 0
  (assumed: the page does not say what the padding holds).
* NZ (Transpose scenarios 1-6): a [R, C] matrix as [C / 16, R / 16, 16, 16] fractals (column blocks
  outer, 16 x 16 row-major inside); the scenario's origin shapes give R and C.
* Scenarios: 1 NZ [B, N, S, H/N] -> ND [B, S, N, H/N]; 2 -> NZ [B, S] x [N, H/N]; 3 NZ [B] x [S, H] ->
  NZ [B, N] x [S, H/N]; 4 -> ND [B, N, S, H/N'] (H/N' = H/N rounded up to 16, the page's row offset);
  5 NZ [B, N] x [S, H/N] -> ND [B, S, H]; 6 -> NZ [B] x [S, H]; 7 and 13 [H, W] -> [W, H] (13 also
  [N, H, W] -> [N, W, H]); 14 [N, H, W] -> [H, N, W]; 15 -> [W, H, N]; 16 ND [H, W] -> NZ [W/2, H/16, 16, 2].
"""
from __future__ import annotations

import math
from dataclasses import dataclass, fields
from enum import Enum
from typing import Any

import numpy as np

from toolkit.ascendc.dtypes import TemplateValue, scalar_value
from toolkit.ascendc.membase.elementwise import type_name
from toolkit.ascendc.membase.relayout import TransposeType
from toolkit.ascendc.sysenums import TENSOR_DATA_TYPE_BYTES, DataFormat, TensorDataType
from toolkit.ascendc.tensor import LocalTensor

from .relayout import check_disjoint, relayout, tmp_sizes
from .transform import _bad, _dims, host_args

F = DataFormat


def _up(n: int, k: int) -> int:
    return (int(n) + k - 1) // k * k


# -- TransData ------------------------------------------------------------------------------------------------
@dataclass
class TransDataConfig:
    """The conversion (DataFormat members or their values; 0 is ND)."""

    srcFormat: Any = 0
    dstFormat: Any = 0


@dataclass
class TransDataParams:
    """The source and destination layouts (anything with a shape: a Layout, a TensorShape, a list)."""

    srcLayout: Any = None
    dstLayout: Any = None


_TD_TYPES = ("int16_t", "uint16_t", "half", "bfloat16_t")
_SCENES = ((F.NCDHW, F.NDC1HWC0), (F.NDC1HWC0, F.NCDHW), (F.NCDHW, F.FRACTAL_Z_3D), (F.FRACTAL_Z_3D, F.NCDHW))


def _fmt(v: Any) -> DataFormat:
    return v if isinstance(v, DataFormat) else DataFormat(int(scalar_value(v)))


def _shape_of(v: Any) -> list[int]:
    if hasattr(v, "GetShape") and not hasattr(v, "GetDims"):
        v = v.GetShape()
    if hasattr(v, "GetDims"):
        return [int(x) for x in v.GetDims()]
    return [int(scalar_value(x)) for x in v]


def _ncdhw(sfmt: DataFormat, dfmt: DataFormat, src: list[int], dst: list[int]) -> tuple[int, ...]:
    """(N, C, D, H, W) of a conversion, its other shape checked against it."""
    nc = src if sfmt == F.NCDHW else dst
    if len(nc) != 5:
        _bad(f"TransData: the NCDHW shape {nc} does not have 5 dimensions")
    n, c, d, h, w = nc
    other = dst if sfmt == F.NCDHW else src
    fmt = dfmt if sfmt == F.NCDHW else sfmt
    want = [n, d, -(-c // 16), h, w, 16] if fmt == F.NDC1HWC0 else [d, -(-c // 16), h, w, -(-n // 16), 16, 16]
    if list(other) != want:
        _bad(f"TransData: the {fmt.name} shape {list(other)} does not match NCDHW {nc} (expected {want})")
    return n, c, d, h, w


def transdata_map(sfmt: Any, dfmt: Any, src_shape: list[int], dst_shape: list[int], itemsize: int = 2
                  ) -> tuple[np.ndarray, int]:
    """(the element map, the source element count) of a TransData conversion."""
    sfmt, dfmt = _fmt(sfmt), _fmt(dfmt)
    if (sfmt, dfmt) not in _SCENES:
        _bad(f"TransData: {sfmt.name} -> {dfmt.name} is not a supported conversion (NCDHW <-> NDC1HWC0, "
             f"NCDHW <-> FRACTAL_Z_3D)")
    n, c, d, h, w = _ncdhw(sfmt, dfmt, src_shape, dst_shape)
    hw, hwp, c1, n1 = h * w, _up(h * w, 32 // itemsize), -(-c // 16), -(-n // 16)
    if sfmt == F.NCDHW:
        nc_src = np.arange(n * c * d * hwp, dtype=np.int64).reshape(n, c, d, hwp)[..., :hw]
        if dfmt == F.NDC1HWC0:                         # out [n, d, c1, hw, c0]
            full = np.full((n, c1 * 16, d, hw), -1, np.int64)
            full[:, :c] = nc_src
            return full.reshape(n, c1, 16, d, hw).transpose(0, 3, 1, 4, 2).ravel(), n * c * d * hwp
        full = np.full((n1 * 16, c1 * 16, d, hw), -1, np.int64)   # out [d, c1, hw, n1, n0, c0]
        full[:n, :c] = nc_src
        return full.reshape(n1, 16, c1, 16, d, hw).transpose(4, 2, 5, 0, 1, 3).ravel(), n * c * d * hwp
    out = np.full((n, c, d, hwp), -1, np.int64)
    if sfmt == F.NDC1HWC0:                             # src [n, d, c1, hw, c0]
        s = np.arange(n * d * c1 * hw * 16, dtype=np.int64).reshape(n, d, c1, hw, 16)
        out[..., :hw] = s.transpose(0, 2, 4, 1, 3).reshape(n, c1 * 16, d, hw)[:, :c]
        return out.ravel(), s.size
    s = np.arange(d * c1 * hw * n1 * 256, dtype=np.int64).reshape(d, c1, hw, n1, 16, 16)   # FRACTAL_Z_3D
    out[..., :hw] = s.transpose(3, 4, 1, 5, 0, 2).reshape(n1 * 16, c1 * 16, d, hw)[:n, :c]
    return out.ravel(), s.size


TD_TMP = 64        #: TransData's temporary bytes: a zero block (padding sources) and a sink block (dropped rows)


def _by_5hd(dst: LocalTensor, src: LocalTensor, sfmt: DataFormat, dfmt: DataFormat, dims: tuple,
            tmp: LocalTensor | None) -> None:
    """The conversion as 16 x 16 transposes (TransDataTo5HD, one per 16 channels and 16 H * W positions): the
    NCDHW side's blocks are 16 H * W values of one channel, the other side's 16 C0 values of one position.
    Channels (or N) past the shape read a zero block; positions past H * W write to a sink block (assumed:
    the page states no algorithm)."""
    import toolkit.ascendc.membase as MB
    from .tmpbuf import tmp_buffer
    n, c, d, h, w = dims
    hw, c1, n1 = h * w, -(-c // 16), -(-n // 16)
    hwp = _up(hw, 16)
    buf = tmp_buffer("TransData", tmp, TD_TMP)
    zero, sink = LocalTensor(buf.addr, dst.dtype, 16, buf.position), LocalTensor(buf.addr + 32, dst.dtype, 16)
    MB.Duplicate(zero, 0, 16)
    fz = F.FRACTAL_Z_3D in (sfmt, dfmt)
    to_nc = dfmt == F.NCDHW
    nc_t, other_t = (dst, src) if to_nc else (src, dst)

    def nc(ni: int, ch: int, di: int, k: int) -> LocalTensor | None:
        return nc_t[((ni * c + ch) * d + di) * hwp + k * 16] if ni < n and ch < c else None

    def other(ni: int, ci: int, di: int, p: int) -> LocalTensor | None:
        if p >= hw:
            return None
        if fz:
            return other_t[((((di * c1 + ci) * hw + p) * n1 + ni // 16) * 16 + ni % 16) * 16]
        return other_t[(((ni * d + di) * c1 + ci) * hw + p) * 16]

    params = MB.TransDataTo5HDParams(False, False, 1, 0, 0)
    for ni in range(n1 * 16 if fz and not to_nc else n):
        for ci in range(c1):
            for di in range(d):
                for k in range(-(-hw // 16)):
                    ncs = [nc(ni, ci * 16 + i, di, k) for i in range(16)]
                    oth = [other(ni, ci, di, k * 16 + i) for i in range(16)]
                    if to_nc:
                        MB.TransDataTo5HD([t or sink for t in ncs], [t or zero for t in oth], params)
                    else:
                        MB.TransDataTo5HD([t or sink for t in oth], [t or zero for t in ncs], params)


def _transdata(dst: LocalTensor, src: LocalTensor, *args: Any, config: TransDataConfig | None = None,
               **_: Any) -> None:
    """``TransData<config>(dst, src[, sharedTmpBuffer], params)`` or the flattened form of the .asc route
    ``(dst, src[, sharedTmpBuffer], srcFormat, dstFormat, srcShape, dstShape)``."""
    rest = list(args)
    tmp = rest.pop(0) if rest and (rest[0] is None or isinstance(rest[0], LocalTensor)) else None
    if len(rest) == 4:
        sfmt, dfmt, ss, ds = _fmt(rest[0]), _fmt(rest[1]), _shape_of(rest[2]), _shape_of(rest[3])
    else:
        if config is None:
            _bad("TransData: the config template argument (a TransDataConfig) is missing")
        p = rest[0]
        sfmt, dfmt, ss, ds = _fmt(config.srcFormat), _fmt(config.dstFormat), _shape_of(p.srcLayout), \
            _shape_of(p.dstLayout)
    if type_name(dst.dtype) not in _TD_TYPES:
        _bad(f"TransData: element type {type_name(dst.dtype)} (supported: {', '.join(_TD_TYPES)})")
    idx, n_src = transdata_map(sfmt, dfmt, ss, ds, dst.dtype.itemsize)
    check_disjoint("TransData", dst, src, idx.size, n_src)
    _by_5hd(dst, src, sfmt, dfmt, tuple(ss if sfmt == F.NCDHW else ds), tmp)


class _TransDataApi:
    """TransData[config] binds the config (a TransDataConfig); the types are deduced."""

    __name__ = "TransData"
    __doc__ = _transdata.__doc__

    def __call__(self, *args: Any, **kw: Any) -> None:
        _transdata(*args, **kw)

    def __getitem__(self, targs: Any):
        cfg = next((a for a in (targs if isinstance(targs, tuple) else (targs,)) if isinstance(a, TransDataConfig)),
                   None)
        return lambda *args: _transdata(*args, config=cfg)


TransData = _TransDataApi()


def GetTransDataMaxMinTmpSize(*args: Any) -> bool:
    """``([platform,] srcShape, dstShape, dataType, config, maxValue, minValue)``."""
    srcShape, dstShape, dataType, config, maxValue, minValue = host_args(args, 6)
    dt = dataType if isinstance(dataType, TensorDataType) else TensorDataType(int(dataType))
    if dt not in (TensorDataType.DT_FLOAT16, TensorDataType.DT_FLOAT, TensorDataType.DT_UINT16,
                  TensorDataType.DT_INT16, TensorDataType.DT_BF16):
        return False
    try:
        idx, _ = transdata_map(config.srcFormat, config.dstFormat, _shape_of(srcShape), _shape_of(dstShape),
                               TENSOR_DATA_TYPE_BYTES[dt])
    except ValueError:
        return False
    maxValue.value = minValue.value = TD_TMP
    return True


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
    """Whether scenarios 1-6 move whole 16-element fractal rows (H/N a multiple of 16): strided DataCopy."""
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
    if kind == 7 or nz_rows_apply(kind, tiling.dims()):       # no temporary space
        check_disjoint("Transpose", dst, src, idx.size, n_src)
        if kind == 7:                                 # the page's TransDataTo5HD steps
            _nd2nd_only(dst, src, *tiling.dims())
        else:
            _nz_rows(kind, dst, src, tiling.dims())
        return
    relayout("Transpose", dst, src, idx, 0, tmp, n_src)


def _kind(v: Any) -> int:
    return v.value if isinstance(v, Enum) else int(scalar_value(v))


def GetTransposeMaxMinTmpSize(srcShape, typeSize, transposeTypeIn, maxValue, minValue) -> None:
    """Scenario 7 (TransDataTo5HD) and 1-6 with H/N a multiple of 16 (DataCopy): none; the others: the
    element map's sizes."""
    kind = _kind(transposeTypeIn)
    idx, _ = transpose_map(kind, _dims(srcShape))
    none = kind == 7 or nz_rows_apply(kind, _dims(srcShape))
    maxValue.value, minValue.value = (0, 0) if none else tmp_sizes(idx.size)


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
