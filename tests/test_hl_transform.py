"""The high-level tensor transforms (高阶API/张量变换): Broadcast, Pad, UnPad, Fill, TransData and the high-level
Transpose through the Python route, bit-exact against numpy layouts written from the pages (np.broadcast_to,
np.pad, reshapes / transposes of the pages' shapes), with unaligned widths, tails and the pages' examples;
the temporary-buffer rules, the host helpers, and the .asc program tests/hl/transform.asc (PASS)."""
from __future__ import annotations

from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from tests.asc_support import build_and_run, needs_compiler
from toolkit.ascendc import membase as MB
from toolkit.ascendc.dma import DataCopyExtParams, DataCopyPad, DataCopyPadExtParams
from toolkit.ascendc.dtypes import uint32_t
from toolkit.ascendc.highlevel import transform as TR
from toolkit.ascendc.highlevel import transform_layout as TL
from toolkit.ascendc.highlevel.shape import TensorShape
from toolkit.ascendc.pipe import TBuf, TPipe, TPosition
from toolkit.ascendc.sysenums import DataFormat, TensorDataType
from toolkit.ascendc.tensor import GlobalTensor, gm_cast
from toolkit.engine.launch import gm_alloc, launch

HERE = Path(__file__).parent / "hl"
BF16 = np.dtype(ml_dtypes.bfloat16)


def _up(n: int, k: int) -> int:
    return (n + k - 1) // k * k


def run(body, src: np.ndarray, n_out: int, tmp_bytes: int | None = 16384, fill=0):
    """One core: src to UB, ``body(dst, src, tmp)`` (tmp None when ``tmp_bytes`` is None: the framework's
    space), dst back to GM; (dst array, launch result). dst starts as ``fill`` so untouched cells show."""
    dt = src.dtype
    sz = dt.itemsize
    n_in = src.size

    def kernel(xg_addr, og_addr):
        pipe = TPipe()
        bi, bo = TBuf(TPosition.VECCALC), TBuf(TPosition.VECCALC)
        pipe.InitBuffer(bi, _up(n_in * sz, 32))
        pipe.InitBuffer(bo, _up(n_out * sz, 32))
        tb = None
        if tmp_bytes is not None:
            tb = TBuf(TPosition.VECCALC)
            pipe.InitBuffer(tb, tmp_bytes)
        xg, og = GlobalTensor(dt), GlobalTensor(dt)
        xg.SetGlobalBuffer(gm_cast(dt, xg_addr))
        og.SetGlobalBuffer(gm_cast(dt, og_addr))
        x, y = bi.Get(dt), bo.Get(dt)
        DataCopyPad(x, xg, DataCopyExtParams(1, n_in * sz, 0, 0, 0), DataCopyPadExtParams(False, 0, 0, 0))
        MB.Duplicate(y, fill, _up(n_out * sz, 32) // sz)
        body(y, x, tb.Get(np.uint8) if tb is not None else None)
        DataCopyPad(og, y, DataCopyExtParams(1, n_out * sz, 0, 0, 0))
    gm = [gm_alloc("x", np.ascontiguousarray(src).view(np.uint8).ravel()), gm_alloc("out", n_out * sz)]
    res = launch(kernel, 1, gm)
    return gm[1].buf.data.view(dt)[:n_out].copy(), res


def _data(shape, dt, seed=0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    dt = np.dtype(dt)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        return rng.integers(max(info.min, -30000), min(info.max, 30000), size=shape, endpoint=True).astype(dt)
    return (rng.standard_normal(shape) * 100).astype(dt)


def _bits(a: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(a).view(np.dtype(f"u{a.dtype.itemsize}"))


def _codes(res) -> list[str]:
    return [d.code for d in res.diagnostics]


# -- Broadcast ------------------------------------------------------------------------------------------------
def test_broadcast_page_example_16x1_to_16x16():
    src = np.arange(1, 17, dtype=np.float32).reshape(16, 1)
    out, res = run(lambda y, x, t: TR.Broadcast[np.float32, 2, 1](y, x, [16, 16], [16, 1], t), src, 256)
    assert not _codes(res)
    np.testing.assert_array_equal(out.reshape(16, 16), np.broadcast_to(src, (16, 16)))


@pytest.mark.parametrize("dt", [np.int8, np.uint8, np.int16, np.uint16, np.float16, BF16, np.int32, np.uint32,
                                np.float32, np.int64, np.uint64])
def test_broadcast_axis1_unaligned_width_every_type(dt):
    m, k = 5, 19                                     # k not 32 B aligned for any type: a tail in every row
    src = _data((m, 1), dt, 1)
    out, res = run(lambda y, x, t: TR.Broadcast[dt, 2, 1](y, x, [m, k], [m, 1], t), src, m * k)
    assert not _codes(res)
    np.testing.assert_array_equal(_bits(out.reshape(m, k)), _bits(np.broadcast_to(src, (m, k))))


@pytest.mark.parametrize("dt", [np.int8, np.float16, np.float32, np.int64])
def test_broadcast_axis0_and_dim1(dt):
    n = 64 // np.dtype(dt).itemsize                  # srcShape[1] 32 B aligned (the page's rule for axis 0)
    src = _data((1, n), dt, 2)
    out, res = run(lambda y, x, t: TR.Broadcast[dt, 2, 0](y, x, [7, n], [1, n], t), src, 7 * n)
    assert not _codes(res)
    np.testing.assert_array_equal(_bits(out.reshape(7, n)), _bits(np.broadcast_to(src, (7, n))))
    one = _data((1,), dt, 3)
    out, res = run(lambda y, x, t: TR.Broadcast[dt, 1, 0](y, x, [45], [1]), one, 45)   # framework space
    assert not _codes(res)
    np.testing.assert_array_equal(_bits(out), _bits(np.broadcast_to(one, (45,))))


def test_broadcast_axis0_needs_an_aligned_row():
    src = _data((1, 5), np.float32)
    _, res = run(lambda y, x, t: TR.Broadcast[np.float32, 2, 0](y, x, [4, 5], [1, 5], t), src, 20)
    assert "BAD_PARAMETER" in _codes(res)


@pytest.mark.parametrize("dshape,sshape", [([3, 4, 5], [3, 1, 5]), ([2, 3, 4, 7], [1, 3, 1, 1]),
                                           ([2, 1, 3, 2, 2, 1, 2, 3, 5], [1, 1, 3, 1, 2, 1, 1, 3, 1]),
                                           ([33], [1]), ([4, 6], [4, 6])])
def test_broadcast_rank_1_to_9_with_tiling(dshape, sshape):
    src = _data(sshape, np.float16, 4)
    n = int(np.prod(dshape))

    def body(y, x, t):
        tiling = TR.BroadcastTiling()
        TR.GetBroadcastTilingInfo(len(dshape), dshape, sshape, False, tiling)
        TR.Broadcast(y, x, dshape, sshape, tiling)
    out, res = run(body, src, n)
    assert not _codes(res)
    np.testing.assert_array_equal(_bits(out), _bits(np.broadcast_to(src, dshape).ravel()))


def test_broadcast_bad_shapes_and_small_buffer():
    src = _data((4, 2), np.float32)
    _, res = run(lambda y, x, t: TR.Broadcast(y, x, [4, 6], [4, 2], TR.GetBroadcastTilingInfo(2, [4, 6], [4, 2])),
                 src, 24)
    assert "BAD_PARAMETER" in _codes(res)
    src = _data((8, 1), np.float32)
    _, res = run(lambda y, x, t: TR.Broadcast[np.float32, 2, 1](y, x, [8, 8], [8, 1], t), src, 64, tmp_bytes=64)
    assert "BAD_PARAMETER" in _codes(res)


def test_shapes_beyond_the_tensors_are_bad_parameters():
    src = _data((8, 1), np.float32)
    _, res = run(lambda y, x, t: TR.Broadcast[np.float32, 2, 1](y, x, [8, 64], [8, 1], t), src, 96)
    assert "BAD_PARAMETER" in _codes(res)
    tiling = TR.UnPadTilingFunc(TensorShape([32, 16]), 0, 2)           # 512 source elements, 256 there
    _, res = run(lambda y, x, t: TR.UnPad(y, x, TR.UnPadParams(0, 1), t, tiling), _data((16, 16), np.float16), 480)
    assert "BAD_PARAMETER" in _codes(res)


def test_broadcast_map_chunks_follow_the_buffer_size():
    """An axis-0 broadcast (the element map) with a buffer between min and max: several Gathers, same result."""
    m, k = 37, 40
    src = _data((1, k), np.int32, 5)
    mx, mn = uint32_t(0), uint32_t(0)
    TR.GetBroadCastMaxMinTmpSize(None, TensorShape([1, k]), TensorShape([m, k]), 4, False, mx, mn)
    assert mn.value < mx.value == 32 + 4 * _up(m * k, 32)
    out, res = run(lambda y, x, t: TR.Broadcast[np.int32, 2, 0](y, x, [m, k], [1, k], t), src, m * k,
                   tmp_bytes=mn.value)
    assert not _codes(res)
    np.testing.assert_array_equal(out.reshape(m, k), np.broadcast_to(src, (m, k)))


@pytest.mark.parametrize("dt,m,k", [(np.float16, 300, 45), (np.float32, 10, 301), (np.int8, 3, 100),
                                    (np.uint32, 260, 16), (np.int16, 1, 7)])
def test_broadcast_page_algorithm_rows_and_tails(dt, m, k):
    """[m, 1] -> [m, k] by Brcb / Copy / GatherMask: more than 255 rows, more than 8 blocks a row, tails."""
    src = _data((m, 1), dt, 6)
    mx, mn = uint32_t(0), uint32_t(0)
    sz = np.dtype(dt).itemsize
    TR.GetBroadCastMaxMinTmpSize(None, TensorShape([m, 1]), TensorShape([m, k]), sz, False, mx, mn)
    kp = _up(k, 32 // sz)
    rows = 0 if kp == k else _up(m * kp * sz, 32) + _up(-(-kp // 8), 32)
    assert mx.value == mn.value == _up(m, 8) * 32 + rows
    out, res = run(lambda y, x, t: TR.Broadcast[dt, 2, 1](y, x, [m, k], [m, 1], t), src, m * k,
                   tmp_bytes=mn.value)
    assert not _codes(res)
    np.testing.assert_array_equal(_bits(out.reshape(m, k)), _bits(np.broadcast_to(src, (m, k))))
    names = {getattr(e, "name", None) for e in res.cores[0].events}
    assert {"Brcb", "Copy"} <= names and ("GatherMask" in names) == (kp != k) and "Gather" not in names


# -- Pad / UnPad ----------------------------------------------------------------------------------------------
def _pad_ref(src: np.ndarray, left: int, right: int, value) -> np.ndarray:
    return np.pad(src, ((0, 0), (left, right)), constant_values=value)


def test_pad_page_example_16x15_half():
    src = np.arange(240, dtype=np.float16).reshape(16, 15)
    tiling = TR.PadTilingFunc(TensorShape([16, 15]), TensorShape([16, 15]), 0, 2)
    out, res = run(lambda y, x, t: TR.Pad(y, x, TR.PadParams(0, 1, 321), tiling), src, 256)
    assert not _codes(res)
    np.testing.assert_array_equal(out.reshape(16, 16), _pad_ref(src, 0, 1, 321))


@pytest.mark.parametrize("dt,h,w,left,right", [(np.int16, 16, 13, 1, 2), (np.uint16, 32, 7, 3, 6),
                                               (np.float32, 8, 5, 2, 1), (np.int32, 16, 6, 0, 2),
                                               (np.uint32, 24, 3, 1, 4), (np.float16, 16, 31, 1, 0)])
def test_pad_scenario1_left_and_right(dt, h, w, left, right):
    src = _data((h, w), dt, 6)
    wd = left + w + right
    mx, mn = uint32_t(0), uint32_t(0)
    TR.GetPadMaxMinTmpSize(TensorShape([h, w]), np.dtype(dt).itemsize, mx, mn)
    tiling = TR.PadTilingFunc(TensorShape([h, w]), TensorShape([h, w]), mn.value, np.dtype(dt).itemsize)
    out, res = run(lambda y, x, t: TR.Pad(y, x, TR.PadParams(left, right, -7), t, tiling), src, h * wd,
                   tmp_bytes=mn.value)
    assert not _codes(res)
    np.testing.assert_array_equal(_bits(out.reshape(h, wd)), _bits(_pad_ref(src, left, right, np.array(-7).astype(dt))))


def test_pad_scenario2_redundant_columns_on_the_right():
    h, w, ow = 16, 16, 13                            # half rows of 16 (32 B), 13 valid: 2 padded, 1 kept
    src = _data((h, w), np.float16, 7)
    tiling = TR.PadTilingFunc(TensorShape([h, w]), TensorShape([h, ow]), 0, 2)
    out, res = run(lambda y, x, t: TR.Pad(y, x, TR.PadParams(0, 2, 5), tiling), src, h * w, tmp_bytes=None)
    assert not _codes(res)
    want = src.copy()
    want[:, ow:ow + 2] = 5
    np.testing.assert_array_equal(out.reshape(h, w), want)


@pytest.mark.parametrize("args", [dict(h=16, w=15, ow=15, left=1, right=1),     # past the aligned width
                                  dict(h=16, w=16, ow=16, left=0, right=1),     # aligned and all valid
                                  dict(h=16, w=16, ow=12, left=1, right=1),     # aligned: right only
                                  dict(h=3, w=15, ow=15, left=0, right=1)])     # source not 32 B
def test_pad_bad_parameters(args):
    h, w = args["h"], args["w"]
    src = _data((h, w), np.float16)
    tiling = TR.PadTilingFunc(TensorShape([h, w]), TensorShape([h, args["ow"]]), 0, 2)
    _, res = run(lambda y, x, t: TR.Pad(y, x, TR.PadParams(args["left"], args["right"], 0), t, tiling), src,
                 h * _up(w, 16))
    assert "BAD_PARAMETER" in _codes(res)


@pytest.mark.parametrize("dt,h,w,right", [(np.float16, 16, 16, 1), (np.int16, 5, 32, 15), (np.float32, 9, 8, 3),
                                          (np.int32, 16, 16, 7), (np.uint32, 3, 24, 1), (np.uint16, 7, 48, 9)])
def test_unpad(dt, h, w, right):
    src = _data((h, w), dt, 8)
    sz = np.dtype(dt).itemsize
    mx, mn = uint32_t(0), uint32_t(0)
    TR.GetUnPadMaxMinTmpSize(None, TensorShape([h, w]), sz, mx, mn)
    tiling = TR.UnPadTilingFunc(TensorShape([h, w]), mn.value, sz)
    out, res = run(lambda y, x, t: TR.UnPad(y, x, TR.UnPadParams(0, right), t, tiling), src, h * (w - right),
                   tmp_bytes=mn.value)
    assert not _codes(res)
    np.testing.assert_array_equal(_bits(out.reshape(h, w - right)), _bits(src[:, :w - right]))


@pytest.mark.parametrize("dt,h,w,ow,right", [(np.float16, 260, 160, 20, 130), (np.int32, 4, 16, 9, 7),
                                             (np.uint16, 2, 4096, 4000, 96)])
def test_pad_scenario2_wide_rows_and_many_rows(dt, h, w, ow, right):
    """Scenario 2 by Copy and a masked Duplicate: pad columns across a repeat's lanes, rows past 255, a row
    stride past 255 blocks; no temporary space."""
    src = _data((h, w), dt, 16)
    mx, mn = uint32_t(1), uint32_t(1)
    TR.GetPadMaxMinTmpSize(TensorShape([h, w]), np.dtype(dt).itemsize, mx, mn)
    assert mx.value == mn.value == 0
    tiling = TR.PadTilingFunc(TensorShape([h, w]), TensorShape([h, ow]), 0, np.dtype(dt).itemsize)
    out, res = run(lambda y, x, t: TR.Pad(y, x, TR.PadParams(0, right, 3), tiling), src, h * w, tmp_bytes=None)
    assert not _codes(res)
    want = src.copy()
    want[:, ow:ow + right] = 3
    np.testing.assert_array_equal(out.reshape(h, w), want)
    assert "Gather" not in {getattr(e, "name", None) for e in res.cores[0].events}


def test_unpad_many_rows_by_gather_mask():
    h, w, right = 600, 32, 5
    src = _data((h, w), np.float16, 17)
    mx, mn = uint32_t(0), uint32_t(0)
    TR.GetUnPadMaxMinTmpSize(None, TensorShape([h, w]), 2, mx, mn)
    assert mx.value == mn.value == 32
    tiling = TR.UnPadTilingFunc(TensorShape([h, w]), mn.value, 2)
    out, res = run(lambda y, x, t: TR.UnPad(y, x, TR.UnPadParams(0, right), tiling), src, h * (w - right),
                   tmp_bytes=None)
    assert not _codes(res)
    np.testing.assert_array_equal(out.reshape(h, w - right), src[:, :w - right])
    assert "GatherMask" in {getattr(e, "name", None) for e in res.cores[0].events}


def test_unpad_bad_parameters():
    tiling = TR.UnPadTilingFunc(TensorShape([16, 16]), 0, 2)
    src = _data((16, 16), np.float16)
    for right in (0, 16):
        _, res = run(lambda y, x, t: TR.UnPad(y, x, TR.UnPadParams(0, right), tiling), src, 256)
        assert "BAD_PARAMETER" in _codes(res)
    tiling = TR.UnPadTilingFunc(TensorShape([16, 15]), 0, 2)
    _, res = run(lambda y, x, t: TR.UnPad(y, x, TR.UnPadParams(0, 1), tiling), _data((16, 15), np.float16), 224)
    assert "BAD_PARAMETER" in _codes(res)


# -- Fill (Global Memory) -------------------------------------------------------------------------------------
@pytest.mark.parametrize("dt,value", [(np.float32, 3.5), (np.int8, -3), (np.uint64, 2**40 + 1), (np.float16, -0.25),
                                      (BF16, 1.5), (np.int16, 1234)])
def test_fill_global_memory_with_a_tail(dt, value):
    n = 5000 + 3                                     # more than one UB block and not 32 B aligned
    dt = np.dtype(dt)

    def kernel(z_addr):
        g = GlobalTensor(dt)
        g.SetGlobalBuffer(gm_cast(dt, z_addr) + 0)
        TR.Fill(g[1], n, value)
    buf = np.full(n + 8, 7, dt)
    gm = [gm_alloc("z", buf.view(np.uint8))]
    res = launch(kernel, 1, gm)
    assert not _codes(res)
    got = gm[0].buf.data.view(dt)
    np.testing.assert_array_equal(_bits(got[1:n + 1]), _bits(np.full(n, value, dt)))
    assert _bits(got[:1]).tolist() == _bits(np.array([7], dt)).tolist()
    assert _bits(got[n + 1:]).tolist() == _bits(np.full(7, 7, dt)).tolist()


# -- TransData ------------------------------------------------------------------------------------------------
def _ncdhw_pad(x: np.ndarray, dt) -> np.ndarray:
    n, c, d, h, w = x.shape
    hwp = _up(h * w, 32 // np.dtype(dt).itemsize)
    out = np.zeros((n, c, d, hwp), dt)
    out[..., :h * w] = x.reshape(n, c, d, h * w)
    return out


def _ndc1hwc0(x: np.ndarray) -> np.ndarray:
    n, c, d, h, w = x.shape
    c1 = -(-c // 16)
    full = np.zeros((n, c1 * 16, d, h, w), x.dtype)
    full[:, :c] = x
    return full.reshape(n, c1, 16, d, h, w).transpose(0, 3, 1, 4, 5, 2)


def _fz3d(x: np.ndarray) -> np.ndarray:
    n, c, d, h, w = x.shape
    c1, n1 = -(-c // 16), -(-n // 16)
    full = np.zeros((n1 * 16, c1 * 16, d, h, w), x.dtype)
    full[:n, :c] = x
    return full.reshape(n1, 16, c1, 16, d, h, w).transpose(4, 2, 5, 6, 0, 1, 3)


def _td(sfmt, dfmt, ss, ds):
    cfg = TL.TransDataConfig(sfmt, dfmt)
    return lambda y, x, t: TL.TransData[cfg](y, x, t, TL.TransDataParams(ss, ds))


def test_transdata_page_example_ncdhw_to_ndc1hwc0():
    x = np.arange(512, dtype=np.float16).reshape(1, 32, 1, 2, 8)
    out, res = run(_td(DataFormat.NCDHW, DataFormat.NDC1HWC0, [1, 32, 1, 2, 8], [1, 1, 2, 2, 8, 16]), x, 512)
    assert not _codes(res)
    got = out.reshape(1, 1, 2, 16, 16)
    assert got[0, 0, 0, 0].tolist() == list(range(0, 256, 16))
    assert got[0, 0, 1, 0].tolist() == list(range(256, 512, 16))
    np.testing.assert_array_equal(out, _ndc1hwc0(x).ravel())
    names = [getattr(e, "name", None) for e in res.cores[0].events]
    assert names.count("TransDataTo5HD") == 2 and "Gather" not in names    # 2 x 16 channels, 16 positions


@pytest.mark.parametrize("dt", [np.float16, BF16, np.int16, np.uint16])
@pytest.mark.parametrize("shape", [(2, 20, 2, 3, 5), (1, 16, 1, 4, 4), (3, 7, 2, 1, 3)])
def test_transdata_ncdhw_ndc1hwc0_both_ways(dt, shape):
    n, c, d, h, w = shape
    x = _data(shape, dt, 9)
    ss, c1 = list(shape), -(-c // 16)
    ds = [n, d, c1, h, w, 16]
    padded = _ncdhw_pad(x, dt)
    out, res = run(_td(DataFormat.NCDHW, DataFormat.NDC1HWC0, ss, ds), padded, n * d * c1 * h * w * 16)
    assert not _codes(res)
    np.testing.assert_array_equal(_bits(out), _bits(_ndc1hwc0(x).ravel()))
    back, res = run(_td(DataFormat.NDC1HWC0, DataFormat.NCDHW, ds, ss), out.reshape(ds), padded.size, fill=3)
    assert not _codes(res)
    np.testing.assert_array_equal(_bits(back), _bits(padded.ravel()))


@pytest.mark.parametrize("shape", [(17, 20, 2, 2, 3), (16, 16, 1, 2, 8), (3, 5, 1, 1, 1)])
def test_transdata_ncdhw_fractal_z_3d_both_ways(shape):
    n, c, d, h, w = shape
    x = _data(shape, np.float16, 10)
    ss = list(shape)
    ds = [d, -(-c // 16), h, w, -(-n // 16), 16, 16]
    padded = _ncdhw_pad(x, np.float16)
    mx, mn = uint32_t(0), uint32_t(0)
    ok = TL.GetTransDataMaxMinTmpSize(None, TensorShape(ss), TensorShape(ds), TensorDataType.DT_FLOAT16,
                                      TL.TransDataConfig(DataFormat.NCDHW, DataFormat.FRACTAL_Z_3D), mx, mn)
    assert ok and mn.value == mx.value == 64                # a zero block and a sink block
    out, res = run(_td(DataFormat.NCDHW, DataFormat.FRACTAL_Z_3D, ss, ds), padded, int(np.prod(ds)),
                   tmp_bytes=mn.value)
    assert not _codes(res)
    np.testing.assert_array_equal(out, _fz3d(x).ravel())
    back, res = run(_td(DataFormat.FRACTAL_Z_3D, DataFormat.NCDHW, ds, ss), out, padded.size, tmp_bytes=None)
    assert not _codes(res)
    np.testing.assert_array_equal(back, padded.ravel())


def test_transdata_rejects_other_conversions_types_and_shapes():
    x = _data((1, 16, 1, 2, 8), np.float16)
    _, res = run(_td(DataFormat.NCHW, DataFormat.NC1HWC0, [1, 16, 2, 8], [1, 1, 2, 8, 16]), x, 256)
    assert "BAD_PARAMETER" in _codes(res)
    _, res = run(_td(DataFormat.NCDHW, DataFormat.NDC1HWC0, [1, 16, 1, 2, 8], [1, 1, 2, 2, 8, 16]), x, 256)
    assert "BAD_PARAMETER" in _codes(res)
    _, res = run(_td(DataFormat.NCDHW, DataFormat.NDC1HWC0, [1, 8, 1, 2, 8], [1, 1, 1, 2, 8, 16]),
                 _data((1, 8, 1, 2, 8), np.float32), 256)
    assert "BAD_PARAMETER" in _codes(res)
    assert not TL.GetTransDataMaxMinTmpSize(None, TensorShape([1, 16, 1, 2, 8]), TensorShape([1, 1, 1, 2, 8, 16]),
                                            TensorDataType.DT_INT8,
                                            TL.TransDataConfig(DataFormat.NCDHW, DataFormat.NDC1HWC0),
                                            uint32_t(0), uint32_t(0))


# -- the high-level Transpose ---------------------------------------------------------------------------------
TT = MB.TransposeType


def _to_nz(m: np.ndarray) -> np.ndarray:
    """A [R, C] matrix (R a multiple of 16) in NZ: [C / 16, R / 16, 16, 16] (C padded to 16 with 0)."""
    r, c = m.shape
    full = np.zeros((r, _up(c, 16)), m.dtype)
    full[:, :c] = m
    return full.reshape(r // 16, 16, -1, 16).transpose(2, 0, 1, 3).ravel()


def _nz_batch(x: np.ndarray) -> np.ndarray:
    """NZ of the last two axes of every leading index."""
    lead = x.shape[:-2]
    return np.concatenate([_to_nz(x[i]) for i in np.ndindex(*lead)]) if lead else _to_nz(x)


def _bnsh_case(kind: int, b: int, n: int, s: int, hn: int, dt):
    """(source buffer, expected destination) of scenarios 1-6 from the logical [B, N, S, H/N] tensor."""
    x = _data((b, n, s, hn), dt, 11)
    bsh = x.transpose(0, 2, 1, 3).reshape(b, s, n * hn)            # [B, S, H]
    src = _nz_batch(x) if kind in (1, 2, 5, 6) else _nz_batch(bsh)
    bsnh = x.transpose(0, 2, 1, 3)                                  # [B, S, N, H/N]
    if kind == 1:
        want = bsnh.ravel()
    elif kind == 2:
        want = _nz_batch(bsnh)
    elif kind == 3:
        want = _nz_batch(x)
    elif kind == 4:
        hp = _up(hn, 16)
        full = np.zeros((b, n, s, hp), dt)
        full[..., :hn] = x
        want = full.ravel()
    elif kind == 5:
        want = bsh.ravel()
    else:
        want = _nz_batch(bsh)
    return src, want


def _transpose(kind: int, shape: list[int], with_tmp: bool = True):
    mx, mn = uint32_t(0), uint32_t(0)
    TL.GetTransposeMaxMinTmpSize(TensorShape(shape), 2, kind, mx, mn)
    tiling = TL.ConfusionTransposeTiling()
    TL.GetTransposeTilingInfo(TensorShape(shape), mn.value, 2, kind, tiling)
    if with_tmp:
        return (lambda y, x, t: MB.Transpose(y, x, t, TT(kind), tiling)), mn.value
    return (lambda y, x, t: MB.Transpose(y, x, TT(kind), tiling)), None


@pytest.mark.parametrize("kind", [1, 2, 3, 4, 5, 6])
@pytest.mark.parametrize("dt", [np.float16, np.int32])
def test_transpose_nz_scenarios(kind, dt):
    b, n, s, hn = (2, 16, 32, 16) if kind == 2 else (1, 2, 64, 32) if kind in (1, 5, 6) else (2, 3, 32, 16)
    src, want = _bnsh_case(kind, b, n, s, hn, dt)
    sz = np.dtype(dt).itemsize
    mx, mn = uint32_t(1), uint32_t(1)
    TL.GetTransposeMaxMinTmpSize(TensorShape([b, n, s, hn]), sz, kind, mx, mn)
    assert mx.value == mn.value == (s * 32 if sz == 2 else 0)     # 16-bit: the page's two TransDataTo5HD steps
    tiling = TL.GetTransposeTilingInfo(TensorShape([b, n, s, hn]), mn.value, sz, kind)
    for with_tmp in (True, False):
        body = (lambda y, x, t: MB.Transpose(y, x, t, TT(kind), tiling)) if with_tmp else \
            (lambda y, x, t: MB.Transpose(y, x, TT(kind), tiling))
        out, res = run(body, src, want.size, tmp_bytes=max(mn.value, 32), fill=9)
        assert not _codes(res)
        np.testing.assert_array_equal(out, want)
        evs = res.cores[0].events
        names = {getattr(e, "name", None) for e in evs}
        assert "Gather" not in names
        assert ("TransDataTo5HD" in names) if sz == 2 else any(getattr(e, "direction", "") == "UB2UB" for e in evs)


def test_transpose_with_n_unaligned_head_width():
    """Scenarios 3 and 4 with H/N = 24 (H = 48): the destination rows are padded to 32 columns with 0 (the
    element map, in the framework's space)."""
    for kind in (3, 4):
        src, want = _bnsh_case(kind, 1, 2, 16, 24, np.float16)
        body, tmp = _transpose(kind, [1, 2, 16, 24], with_tmp=False)
        out, res = run(body, src, want.size, tmp_bytes=None, fill=9)
        assert not _codes(res)
        np.testing.assert_array_equal(out, want)


@pytest.mark.parametrize("dt,h,w", [(np.float16, 32, 48), (np.float32, 32, 48), (np.uint16, 16, 16),
                                    (np.int32, 16, 16), (np.uint32, 48, 32), (np.int16, 64, 16)])
def test_transpose_nd2nd_only_by_transdatato5hd(dt, h, w):
    x = _data((h, w), dt, 12)
    body, tmp = _transpose(7, [h, w])
    assert tmp == 0
    out, res = run(body, x, x.size, tmp_bytes=None)
    assert not _codes(res)
    np.testing.assert_array_equal(out.reshape(w, h), x.T)
    names = {getattr(e, "name", None) for e in res.cores[0].events}
    assert "TransDataTo5HD" in names and "Gather" not in names


@pytest.mark.parametrize("kind,shape,perm", [(13, [5, 7], (1, 0)), (13, [3, 5, 9], (0, 2, 1)),
                                             (14, [3, 5, 9], (1, 0, 2)), (15, [3, 5, 9], (2, 1, 0))])
@pytest.mark.parametrize("dt", [np.int8, np.uint8, np.int16, BF16, np.float16, np.int32, np.uint32, np.float32])
def test_transpose_nd_scenarios_13_to_15(kind, shape, perm, dt):
    x = _data(shape, dt, 13)
    body, tmp = _transpose(kind, shape)
    out, res = run(body, x, x.size, tmp_bytes=tmp)
    assert not _codes(res)
    np.testing.assert_array_equal(_bits(out), _bits(x.transpose(perm).ravel()))


@pytest.mark.parametrize("kind,shape,dt", [(13, [2, 32, 16], np.float16), (14, [4, 3, 8], np.int32),
                                           (16, [32, 64], np.int8)])
def test_transpose_13_to_16_are_the_pages_gather(kind, shape, dt):
    """Scenarios 13-16, aligned or not: the page's gather (an offset table in the temporary buffer, Gather)."""
    x = _data(shape, dt, 18)
    mx, mn = uint32_t(0), uint32_t(0)
    TL.GetTransposeMaxMinTmpSize(TensorShape(shape), np.dtype(dt).itemsize, kind, mx, mn)
    assert 0 < mn.value <= mx.value
    tiling = TL.GetTransposeTilingInfo(TensorShape(shape), mn.value, np.dtype(dt).itemsize, kind)
    out, res = run(lambda y, xx, t: MB.Transpose(y, xx, t, TT(kind), tiling), x, x.size, tmp_bytes=mn.value)
    assert not _codes(res)
    if kind == 16:
        h, w = shape
        want = x.reshape(h // 16, 16, w // 2, 2).transpose(2, 0, 1, 3)
    else:
        want = x.transpose({13: (0, 2, 1), 14: (1, 0, 2)}[kind])
    np.testing.assert_array_equal(_bits(out), _bits(want.ravel()))
    assert "Gather" in {getattr(e, "name", None) for e in res.cores[0].events}


@pytest.mark.parametrize("dt", [np.int8, np.uint8])
def test_transpose_nd2nz_with_interleave(dt):
    h, w = 32, 6
    x = _data((h, w), dt, 14)
    body, tmp = _transpose(16, [h, w])
    out, res = run(body, x, x.size, tmp_bytes=tmp)
    assert not _codes(res)
    want = x.reshape(h // 16, 16, w // 2, 2).transpose(2, 0, 1, 3)        # [W1, H1, H0, W0]
    np.testing.assert_array_equal(out, want.ravel())


def test_transpose_bad_types_shapes_and_unsupported_scenarios():
    x = _data((32, 32), np.int8)
    body, tmp = _transpose(7, [32, 32])
    _, res = run(body, x, x.size, tmp_bytes=tmp)                           # scenario 7: no 8-bit types
    assert "BAD_PARAMETER" in _codes(res)
    body, tmp = _transpose(16, [32, 32])
    _, res = run(body, _data((32, 32), np.float16), 1024, tmp_bytes=tmp)   # scenario 16: 8-bit only
    assert "BAD_PARAMETER" in _codes(res)
    with pytest.raises(ValueError):
        TL.GetTransposeTilingInfo(TensorShape([30, 32]), 0, 2, 7)          # H not a multiple of 16
    with pytest.raises(ValueError):
        TL.GetTransposeMaxMinTmpSize(TensorShape([2, 3, 4]), 2, 11, uint32_t(0), uint32_t(0))
    tiling = TL.GetConfusionTransposeOnlyTilingInfo(TensorShape([16, 32]), 0, 2)
    assert (tiling.param0, tiling.param1, tiling.param2, tiling.param3) == (7, 2, 16, 32)


def test_transpose_basic_forms_still_run():
    x = _data((16, 16), np.float16, 15)
    out, res = run(lambda y, xx, t: MB.Transpose(y, xx), x, 256)
    assert not _codes(res)
    np.testing.assert_array_equal(out.reshape(16, 16), x.T)


# -- the .asc route ---------------------------------------------------------------------------------------------
@needs_compiler
def test_vendor_style_program_passes(tmp_path):
    run_ = build_and_run(HERE / "transform.asc", cache=tmp_path / "cache")
    assert run_.failure is None and run_.exit_status == 0, (run_.failure, run_.stdout, run_.stderr)
    assert "PASS" in run_.stdout
