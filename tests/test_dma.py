"""DataCopy / DataCopyPad between GM and UB (api-facts 12). Layouts are computed here from the documented
formulas (GM strides in bytes, UB strides in 32 B blocks, per-block 32 B padding)."""
from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from toolkit.ascendc.dma import (
    DataCopy,
    DataCopyExtParams,
    DataCopyPad,
    DataCopyPadExtParams,
    DataCopyParams,
)
from toolkit.ascendc.tensor import GlobalTensor, LocalTensor
from toolkit.engine.launch import gm_alloc
from toolkit.record.events import Dma

from api_support import abort_code

F32, U8, U16 = np.dtype(np.float32), np.dtype(np.uint8), np.dtype(np.uint16)
BF16 = np.dtype(ml_dtypes.bfloat16)
UB = 8192                       # UB byte address of the local tensors
SENT = 0xA5


def gm(arr, name="x", dt=None):
    g = GlobalTensor(dt or arr.dtype)
    g.SetGlobalBuffer(gm_alloc(name, arr))
    return g


def ub_bytes(ctx, n, addr=UB):
    return ctx.ub.view(addr, n).copy(), ctx.ub.defined[addr:addr + n].copy()


def dmas(ctx):
    return [e for e in ctx.events if isinstance(e, Dma)]


def align32(n):
    return -(-n // 32) * 32


# -- DataCopy ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("count", [64, 20, 7])
def test_datacopy_gm_to_ub_rounds_down_to_32_bytes(ctx, count):
    x = np.arange(100, dtype=F32)
    DataCopy(LocalTensor(UB, F32, 128), gm(x), count)
    moved = count * 4 // 32 * 32
    data, defined = ub_bytes(ctx, 512)
    np.testing.assert_array_equal(data[:moved].view(F32), x[:moved // 4])
    assert defined[:moved].all() and not defined[moved:].any()
    assert [(e.direction, e.nbytes, e.bursts) for e in dmas(ctx)] == ([("GM2UB", moved, 1)] if moved else [])


def test_datacopy_ub_to_gm_and_misaligned_ub(ctx):
    x = np.arange(24, dtype=F32)
    ctx.ub.write(UB, x.view(U8))
    out = gm(np.full(24, -1, F32), "out")
    DataCopy(out, LocalTensor(UB, F32, 24), 20)                 # 80 B -> 64 B
    np.testing.assert_array_equal(out.buf.as_array(F32), np.r_[x[:16], np.full(8, -1, F32)])
    e = dmas(ctx)[-1]
    assert (e.direction, e.api, e.gm, e.nbytes, e.bursts, e.burst_len, e.pipe) == \
        ("UB2GM", "DataCopy", "out", 64, 1, 64, "MTE3")
    assert abort_code(DataCopy, out, LocalTensor(UB + 16, F32, 8), 8) == "UB_MISALIGNED"
    assert abort_code(DataCopy, LocalTensor(UB + 4, F32, 8), gm(x), 8) == "UB_MISALIGNED"


def test_datacopy_block_params_in_32_byte_units(ctx):
    x = np.arange(256, dtype=F32)
    DataCopy(LocalTensor(UB, F32, 256), gm(x), DataCopyParams(3, 2, 1, 2))   # 3 x 64 B, gaps 32 B / 64 B
    data, defined = ub_bytes(ctx, 3 * 128)
    for k in range(3):
        np.testing.assert_array_equal(data[k * 128:k * 128 + 64].view(F32), x[k * 24:k * 24 + 16])
        assert defined[k * 128:k * 128 + 64].all() and not defined[k * 128 + 64:k * 128 + 128].any()
    assert (dmas(ctx)[-1].nbytes, dmas(ctx)[-1].bursts, dmas(ctx)[-1].burst_len) == (192, 3, 64)


# -- DataCopyPad GM -> UB ---------------------------------------------------------------------------
def ref_pad_gm_to_ub(gm_bytes, sz, n, blk, src_stride, dst_stride, left, right, fill):
    """Expected UB bytes/definedness from the api-facts 12 formulas; ``fill``: None = padding left
    undefined, 'first' = the block's first element, else the padding value bytes."""
    step = align32(dst_stride * 32 + (left + right) * sz + blk)
    padded = align32((left + right) * sz + blk)
    data = np.full(step * n, SENT, U8)
    defined = np.zeros(step * n, bool)
    for k in range(n):
        g, u = k * (blk + src_stride), k * step
        block = gm_bytes[g:g + blk]
        if fill is not None:
            data[u:u + padded] = np.resize(block[:sz] if isinstance(fill, str) else fill, padded)
            defined[u:u + padded] = True
        data[u + left * sz:u + left * sz + blk] = block
        defined[u + left * sz:u + left * sz + blk] = True
    return data, defined


@pytest.mark.parametrize("n,elems,src_gap,dst_stride", [(3, 20, 8, 1), (4, 16, 0, 0), (2, 5, 6, 2), (3, 33, 2, 0)])
def test_datacopy_pad_gm_to_ub_dummy_filler_is_first_element(ctx, n, elems, src_gap, dst_stride):
    x = (np.arange(400) * 3 + 1).astype(np.float32).astype(BF16)
    gm_bytes = x.view(U8)
    ctx.ub.write(UB, np.full(2048, SENT, U8), False)
    blk = elems * 2
    DataCopyPad(LocalTensor(UB, BF16, 1024), gm(x), DataCopyExtParams(n, blk, src_gap, dst_stride, 0),
                DataCopyPadExtParams(False, 0, 0, 0))
    exp_data, exp_def = ref_pad_gm_to_ub(gm_bytes, 2, n, blk, src_gap, dst_stride, 0, 0, "first")
    data, defined = ub_bytes(ctx, exp_data.size)
    np.testing.assert_array_equal(data, exp_data)
    np.testing.assert_array_equal(defined, exp_def)
    e = dmas(ctx)[-1]
    assert (e.direction, e.api, e.nbytes, e.bursts, e.burst_len) == ("GM2UB", "DataCopyPad", n * blk, n, blk)


@pytest.mark.parametrize("is_pad", [True, False])
@pytest.mark.parametrize("left,right", [(2, 3), (0, 5), (4, 0)])
def test_datacopy_pad_gm_to_ub_left_right_padding(ctx, is_pad, left, right):
    x = np.arange(1, 200, dtype=np.float32).astype(BF16)
    ctx.ub.write(UB, np.full(1024, SENT, U8), False)
    n, blk, pad_value = 3, 40, -7.0
    DataCopyPad(LocalTensor(UB, BF16, 512), gm(x), DataCopyExtParams(n, blk, 4, 1, 0),
                DataCopyPadExtParams(is_pad, left, right, pad_value))
    fill = np.array([pad_value], BF16).view(U8) if is_pad else None
    exp_data, exp_def = ref_pad_gm_to_ub(x.view(U8), 2, n, blk, 4, 1, left, right, fill)
    data, defined = ub_bytes(ctx, exp_data.size)
    np.testing.assert_array_equal(defined, exp_def)              # isPad=False: padding stays undefined
    np.testing.assert_array_equal(data[exp_def], exp_data[exp_def])


def test_datacopy_pad_float_rows_into_aligned_ub_rows(ctx):
    """[rows, 10] fp32 rows land 64 B apart in UB; elements 10..15 of each row repeat the row's first."""
    x = np.arange(50, dtype=F32).reshape(5, 10)
    DataCopyPad(LocalTensor(UB, F32, 80), gm(x.ravel()), DataCopyExtParams(5, 40, 0, 0, 0), DataCopyPadExtParams())
    got = ctx.ub.view(UB, 5 * 64).view(F32).reshape(5, 16)
    np.testing.assert_array_equal(got[:, :10], x)
    np.testing.assert_array_equal(got[:, 10:], np.repeat(x[:, :1], 6, axis=1))


def test_kv_rms_norm_rope_cache_split_pattern(ctx):
    """``DataCopyExtParams(rows, dv*2, dk*2, 0, 0)`` reads the dv part of [rows, dv+dk] bf16 densely; the
    rope part with ``(rows, dk*2, dv*2, 0, 0)`` from element dv."""
    rows, dv, dk = 4, 64, 32
    kv = np.random.default_rng(0).standard_normal((rows, dv + dk)).astype(np.float32).astype(BF16)
    g = gm(kv.ravel(), "kv")
    DataCopyPad(LocalTensor(UB, BF16, rows * dv), g, DataCopyExtParams(rows, dv * 2, dk * 2, 0, 0),
                DataCopyPadExtParams(False, 0, 0, 0))
    DataCopyPad(LocalTensor(UB + 4096, BF16, rows * dk), g[dv], DataCopyExtParams(rows, dk * 2, dv * 2, 0, 0),
                DataCopyPadExtParams(False, 0, 0, 0))
    v = ctx.ub.view(UB, rows * dv * 2).view(BF16).reshape(rows, dv)
    k = ctx.ub.view(UB + 4096, rows * dk * 2).view(BF16).reshape(rows, dk)
    np.testing.assert_array_equal(v.view(U16), kv[:, :dv].view(U16))
    np.testing.assert_array_equal(k.view(U16), kv[:, dv:].view(U16))
    assert [(e.gm_offset, e.nbytes, e.bursts) for e in dmas(ctx)] == [(0, rows * dv * 2, rows),
                                                                      (dv * 2, rows * dk * 2, rows)]


# -- DataCopyPad UB -> GM ---------------------------------------------------------------------------
@pytest.mark.parametrize("n,blk,src_stride,dst_gap", [(3, 40, 1, 4), (2, 64, 0, 0), (4, 6, 2, 10)])
def test_datacopy_pad_ub_to_gm(ctx, n, blk, src_stride, dst_gap):
    ubdata = (np.arange(2048) % 251).astype(U8)
    ctx.ub.write(UB, ubdata)
    out = gm(np.full(1024, SENT, U8), "out")
    DataCopyPad(out, LocalTensor(UB, U8, 2048), DataCopyExtParams(n, blk, src_stride, dst_gap, 0))
    expect = np.full(1024, SENT, U8)
    ub_step = align32(src_stride * 32 + blk)
    for k in range(n):
        expect[k * (blk + dst_gap):k * (blk + dst_gap) + blk] = ubdata[k * ub_step:k * ub_step + blk]
    np.testing.assert_array_equal(out.buf.data, expect)
    e = dmas(ctx)[-1]
    assert (e.direction, e.nbytes, e.bursts, e.burst_len, e.ub_addr) == ("UB2GM", n * blk, n, blk, UB)


def test_ub_to_gm_of_never_written_ub_is_undefined_read(ctx):
    ctx.ub.write(UB, np.ones(10, F32).view(U8))
    out = gm(np.zeros(16, F32), "out")
    DataCopyPad(out, LocalTensor(UB, F32, 16), DataCopyExtParams(1, 48, 0, 0, 0))
    d = [d for d in ctx.diag if d.code == "UNDEFINED_READ"]
    assert len(d) == 1 and not d[0].fatal and d[0].address == UB + 40 and d[0].size == 8
    DataCopy(out, LocalTensor(UB + 64, F32, 8), 8)
    assert len([d for d in ctx.diag if d.code == "UNDEFINED_READ"]) == 2


def test_pad_filler_left_undefined_is_caught_on_the_way_out(ctx):
    """isPad=False with padding requested: the filler is unspecified, so copying it to GM is a use."""
    x = np.arange(8, dtype=F32)
    DataCopyPad(LocalTensor(UB, F32, 16), gm(x), DataCopyExtParams(1, 32, 0, 0, 0), DataCopyPadExtParams(False, 0, 2, 0))
    out = gm(np.zeros(16, F32), "out")
    DataCopyPad(out, LocalTensor(UB, F32, 16), DataCopyExtParams(1, 32, 0, 0, 0))
    assert "UNDEFINED_READ" not in ctx.diag.codes()
    DataCopyPad(out, LocalTensor(UB, F32, 16), DataCopyExtParams(1, 40, 0, 0, 0))
    assert "UNDEFINED_READ" in ctx.diag.codes()


@pytest.mark.parametrize("direction", ["in", "out"])
def test_block_count_over_4095_is_bad_parameter(ctx, direction):
    ext = DataCopyExtParams(4096, 32, 0, 0, 0)
    local, g = LocalTensor(0, F32, 8), gm(np.zeros(8, F32))
    if direction == "in":
        assert abort_code(DataCopyPad, local, g, ext, DataCopyPadExtParams()) == "BAD_PARAMETER"
    else:
        assert abort_code(DataCopyPad, g, local, ext) == "BAD_PARAMETER"


def test_zero_block_count_or_length_is_a_nop(ctx):
    DataCopyPad(LocalTensor(UB, F32, 8), gm(np.ones(8, F32)), DataCopyExtParams(0, 32, 0, 0, 0))
    DataCopyPad(LocalTensor(UB, F32, 8), gm(np.ones(8, F32)), DataCopyExtParams(3, 0, 0, 0, 0))
    assert dmas(ctx) == [] and not ctx.ub.defined.any()


def test_gm_out_of_bounds_and_ub_misaligned_pad(ctx):
    g = gm(np.zeros(16, F32))
    assert abort_code(DataCopyPad, LocalTensor(UB, F32, 64), g, DataCopyExtParams(2, 40, 0, 0, 0),
                      DataCopyPadExtParams()) == "GM_OUT_OF_BOUNDS"
    assert abort_code(DataCopyPad, LocalTensor(UB + 8, F32, 64), g, DataCopyExtParams(1, 8, 0, 0, 0),
                      DataCopyPadExtParams()) == "UB_MISALIGNED"
    assert abort_code(DataCopyPad, LocalTensor(262144 - 32, F32, 64), g, DataCopyExtParams(2, 8, 0, 0, 0),
                      DataCopyPadExtParams()) == "UB_OUT_OF_BOUNDS"


def test_padding_past_the_ub_end_is_out_of_bounds(ctx):
    """The padded block (data + right padding + dummy up to 32 B) is the UB footprint that must fit."""
    g = gm(np.zeros(64, BF16))
    DataCopyPad(LocalTensor(262144 - 32, BF16, 16), g, DataCopyExtParams(1, 8, 0, 0, 0),
                DataCopyPadExtParams(True, 0, 4, 0))                          # 8 + 8 -> 32 B: fits
    assert abort_code(DataCopyPad, LocalTensor(262144 - 32, BF16, 16), g, DataCopyExtParams(1, 8, 0, 0, 0),
                      DataCopyPadExtParams(True, 0, 16, 0)) == "UB_OUT_OF_BOUNDS"   # 8 + 32 -> 64 B
