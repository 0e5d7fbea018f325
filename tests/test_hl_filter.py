"""The high-level data filtering (高阶API/数据过滤) on the Python route: DropOut in the byte and bit modes (with
and without dirty mask data, the shape-inferred mode), the byte-mask Select (both scalar sides, every mask
type, wider mask rows, isReuseMask) against numpy references and the pages' examples, and the host queries
against the kernels' temporary need. The .asc route: tests/hl/filter.asc (run here)."""
from __future__ import annotations

from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from tests.api_support import T, abort_code, get, put
from tests.asc_support import build_and_run, needs_compiler
from toolkit.ascendc import membase as MB
from toolkit.ascendc.dtypes import uint32_t
from toolkit.ascendc.highlevel import filter as F
from toolkit.ascendc.highlevel.shape import TensorShape

HERE = Path(__file__).parent / "hl"
BF16 = np.dtype(ml_dtypes.bfloat16)
A_SRC, A_MASK, A_DST, A_TMP = 0x0, 0x8000, 0x10000, 0x18000


def _dropout(ctx, x: np.ndarray, mask_bytes: np.ndarray, keep: float, info: F.DropOutShapeInfo, mode: int = 0,
             tmp: bool = True) -> np.ndarray:
    put(ctx, A_SRC, x)
    put(ctx, A_MASK, mask_bytes)
    dt = x.dtype
    tl = [T(A_TMP, np.uint8, F.GetDropOutMinTmpSize(TensorShape(list(x.shape)), dt.itemsize, False))] if tmp else []
    F.DropOut[dt, False, mode](T(A_DST, dt, x.size), T(A_SRC, dt, x.size), T(A_MASK, np.uint8), *tl, keep, info)
    return get(ctx, A_DST, dt, x.size).reshape(x.shape)


def _ref(x: np.ndarray, keep_mask: np.ndarray, keep: float) -> np.ndarray:
    factor = np.float64(np.array(1.0 / keep, np.float32).astype(x.dtype))        # Muls: the scalar in T
    scaled = (x.astype(np.float64) * factor).astype(np.float32).astype(x.dtype)
    return np.where(keep_mask, scaled, np.zeros_like(x))


def test_dropout_the_pages_example(ctx):
    x = np.arange(32, dtype=np.float32).reshape(1, 32)
    m = np.array([0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 1, 1, 1, 0, 1, 1, 0, 0, 1, 0, 0, 1, 1, 1, 1, 0, 1, 0, 1, 1, 1, 0],
                 np.uint8)
    y = _dropout(ctx, x, m, 0.5, F.DropOutShapeInfo(1, 32, 32))
    np.testing.assert_array_equal(y[0], np.where(m == 1, 2 * np.arange(32), 0).astype(np.float32))


@pytest.mark.parametrize("dt", [np.float16, BF16, np.float32], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("dirty", [False, True])
def test_dropout_byte_mode(ctx, dt, dirty):
    rng = np.random.default_rng(0)
    rows, width = 4, 48
    mw = 64 if dirty else width
    x = rng.standard_normal((rows, width)).astype(np.float32).astype(dt)
    m = rng.integers(0, 2, (rows, mw)).astype(np.uint8)
    if dirty:
        m[:, width:] = 7                                                    # dirty bytes must not matter
    y = _dropout(ctx, x, m, 0.7, F.DropOutShapeInfo(rows, width, mw), tmp=not dirty)
    np.testing.assert_array_equal(y.view(np.uint8), _ref(x, m[:, :width] != 0, 0.7).view(np.uint8))


@pytest.mark.parametrize("dt", [np.float16, np.float32])
@pytest.mark.parametrize("dirty", [False, True])
def test_dropout_bit_mode(ctx, dt, dirty):
    rng = np.random.default_rng(1)
    rows, width = 3, 128
    valid = width // 8
    mw = 32 if dirty else valid
    x = rng.standard_normal((rows, width)).astype(dt)
    m = rng.integers(0, 256, (rows, mw)).astype(np.uint8)
    y = _dropout(ctx, x, m, 0.25, F.DropOutShapeInfo(rows, width, mw))
    bits = np.unpackbits(m[:, :valid], axis=1, bitorder="little").astype(bool)      # bit i of byte j: 8j + i
    np.testing.assert_array_equal(y, _ref(x, bits, 0.25))


def test_dropout_explicit_mode_and_bad_parameters(ctx):
    x = np.ones((2, 32), np.float32)
    m = np.full((2, 32), 1, np.uint8)
    y = _dropout(ctx, x, m, 0.5, F.DropOutShapeInfo(2, 32, 32), mode=2)
    assert (y == 2).all()
    assert abort_code(lambda: _dropout(ctx, x, m, 1.5, F.DropOutShapeInfo(2, 32, 32))) == "BAD_PARAMETER"
    xi = np.ones((2, 32), np.int32)
    assert abort_code(lambda: _dropout(ctx, xi, m, 0.5, F.DropOutShapeInfo(2, 32, 32))) == "BAD_PARAMETER"


def _select(ctx, x, scalar, mask, info, tensor_first=True, reuse=True, tmp_bytes=None):
    put(ctx, A_SRC, x)
    put(ctx, A_MASK, mask)
    dt = x.dtype
    ms = TensorShape(list(mask.shape))
    need = tmp_bytes or F.GetSelectMinTmpSize(TensorShape(list(x.shape)), TensorShape([1]), dt.itemsize, ms,
                                              mask.dtype.itemsize, reuse)
    src, m, tmp = T(A_SRC, dt, x.size), T(A_MASK, mask.dtype, mask.size), T(A_TMP, np.uint8, need)
    pair = (src, dt.type(scalar)) if tensor_first else (dt.type(scalar), src)
    MB.Select(T(A_DST, dt, x.size), *pair, m, tmp, info, isReuseMask=reuse)
    return get(ctx, A_DST, dt, x.size).reshape(x.shape)


def test_select_the_pages_example_shape(ctx):
    rng = np.random.default_rng(2)
    x = (rng.uniform(-100, 100, (2, 16))).astype(np.float16)
    mask = rng.integers(0, 2, (2, 32)).astype(np.uint8)                    # bool, the rows padded to 32
    y = _select(ctx, x, 35.6, mask, F.SelectWithBytesMaskShapeInfo(2, 16, 32))
    np.testing.assert_array_equal(y, np.where(mask[:, :16] == 0, x, np.float16(35.6)))


@pytest.mark.parametrize("mdt", [np.uint8, np.int8, np.int16, np.uint16, np.int32, np.uint32],
                         ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("dt", [np.float16, np.float32])
@pytest.mark.parametrize("tensor_first", [True, False])
def test_select_mask_types_and_sides(ctx, mdt, dt, tensor_first):
    rng = np.random.default_rng(3)
    rows, width = 3, 64
    mw = 64 if np.dtype(mdt).itemsize > 1 else 96
    x = rng.standard_normal((rows, width)).astype(dt)
    mask = (rng.integers(0, 3, (rows, mw)) - (1 if np.dtype(mdt).kind == "i" else 0)).astype(mdt)
    y = _select(ctx, x, -2.5, mask, F.SelectWithBytesMaskShapeInfo(rows, width, mw), tensor_first)
    zero = mask[:, :width] == 0
    want = np.where(zero, x, dt(-2.5)) if tensor_first else np.where(zero, dt(-2.5), x)
    np.testing.assert_array_equal(y, want)


@pytest.mark.parametrize("reuse", [True, False])
def test_select_mask_reuse(ctx, reuse):
    rng = np.random.default_rng(4)
    x = rng.standard_normal((4, 32)).astype(np.float32)
    mask = rng.integers(0, 2, (4, 64)).astype(np.uint8)
    y = _select(ctx, x, 9.0, mask, F.SelectWithBytesMaskShapeInfo(4, 32, 64), reuse=reuse)
    np.testing.assert_array_equal(y, np.where(mask[:, :32] == 0, x, np.float32(9.0)))
    kept = get(ctx, A_MASK, np.uint8, mask.size).reshape(mask.shape)
    if not reuse:
        np.testing.assert_array_equal(kept, mask)                          # isReuseMask false: untouched


def test_select_bad_parameters(ctx):
    x = np.zeros((2, 16), np.float16)
    mask = np.zeros((2, 16), np.uint8)
    assert abort_code(lambda: _select(ctx, x, 1.0, mask, F.SelectWithBytesMaskShapeInfo(2, 16, 16))) == \
        "BAD_PARAMETER"                                                     # mask rows not 32 B
    mask = np.zeros((2, 32), np.uint8)
    assert abort_code(lambda: _select(ctx, x, 1.0, mask, F.SelectWithBytesMaskShapeInfo(2, 16, 32),
                                      tmp_bytes=32)) == "BAD_PARAMETER"     # sharedTmpBuffer too small


def test_host_queries():
    mx, mn = uint32_t(0), uint32_t(0)
    s, one, m = TensorShape([64, 128]), TensorShape([1]), TensorShape([64, 128])
    F.GetSelectMaxMinTmpSize(s, one, 2, m, 1, False, mx, mn)
    assert mx.value == mn.value == F.GetSelectMinTmpSize(s, one, 2, m, 1, False) == F.GetSelectMaxTmpSize(
        s, one, 2, m, 1, False) == F.select_needs(64 * 128, 64, 128, 128, 1, False)
    F.GetSelectWithBytesMaskMaxMinTmpSize(s, one, 2, TensorShape([64, 160]), 1, False, mx, mn)
    assert mn.value == F.select_needs(64 * 128, 64, 128, 160, 1, False) > F.GetSelectMinTmpSize(s, one, 2, m, 1, False)
    F.GetDropOutMaxMinTmpSize(TensorShape([16, 64]), 2, False, mx, mn)
    assert mx.value == mn.value == F.GetDropOutMaxTmpSize(TensorShape([16, 64]), 2, False) > 0


@needs_compiler
def test_vendor_style_filter_program_passes(tmp_path):
    run_ = build_and_run(HERE / "filter.asc", cache=tmp_path / "cache")
    assert run_.failure is None and run_.exit_status == 0, (run_.failure, run_.stdout, run_.stderr)
    assert "PASS" in run_.stdout
