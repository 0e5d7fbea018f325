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

from dataclasses import dataclass
from typing import Any

import numpy as np

from toolkit.ascendc.dtypes import scalar_value
from toolkit.ascendc.membase.elementwise import type_name
from toolkit.ascendc.sysenums import TENSOR_DATA_TYPE_BYTES, DataFormat, TensorDataType
from toolkit.ascendc.tensor import LocalTensor

from .relayout import check_disjoint
from .transform import _bad, host_args

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


from .transpose_hl import (  # noqa: E402,F401  (the Transpose half of this family, re-exported)
    ConfusionTransposeTiling,
    GetConfusionTransposeMaxMinTmpSize,
    GetConfusionTransposeOnlyTilingInfo,
    GetConfusionTransposeTilingInfo,
    GetTransposeMaxMinTmpSize,
    GetTransposeTilingInfo,
    hl_transpose,
    is_hl_call,
    transpose_map,
)
