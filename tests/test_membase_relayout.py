"""MemBase indexed moves and relayout: Gather / Gatherb / Scatter, GatherMask with a user pattern and 8-bit
data, Transpose (16 x 16 and NCHW <-> NHWC), TransDataTo5HD, Interleave / DeInterleave, Sort32, MrgSort
with GetMrgSortResult, Copy, Brcb of 8- and 64-bit types, BilinearInterpolation (the page's example)."""
import numpy as np
import pytest

from toolkit.ascendc import membase as AscendC
from toolkit.ascendc.dtypes import uint16_t, uint64_t
from toolkit.ascendc.membase import (BrcbRepeatParams, CopyRepeatParams, GatherMaskParams, GatherRepeatParams,
                                     MrgSort4Info, MrgSortSrcList, TransDataTo5HDParams, TransposeParamsExt,
                                     TransposeType)
from toolkit.record.diagnostics import KernelAbort

from api_support import get, membase_vf, ops, put, T

F32, F16, U8, I8 = np.dtype(np.float32), np.dtype(np.float16), np.dtype(np.uint8), np.dtype(np.int8)
U16, U32, I64, U64 = np.dtype(np.uint16), np.dtype(np.uint32), np.dtype(np.int64), np.dtype(np.uint64)
A, B, D, O = 0, 8192, 16384, 32768


def test_gather_by_byte_offsets_and_its_level0_form(ctx):
    src = np.arange(100, 164, dtype=np.float32)
    idx = np.random.default_rng(1).integers(0, 60, 128)
    put(ctx, A, src)
    put(ctx, O, (idx * 4).astype(np.uint32))
    AscendC.Gather(T(D, F32), T(A, F32), T(O, U32), 0, 64)
    np.testing.assert_array_equal(get(ctx, D, F32, 64), src[idx[:64]])
    put(ctx, D, np.zeros(128, np.float32))
    AscendC.Gather(T(D, F32), T(A, F32), T(O, U32), 16, 8, 2, 8)        # base +16 B, 8 lanes, dst repeat 8 blocks
    out = get(ctx, D, F32, 128)
    np.testing.assert_array_equal(out[:8], src[idx[:8] + 4])
    np.testing.assert_array_equal(out[64:72], src[idx[64:72] + 4])          # repeat 1 takes offsets 64..71
    assert (out[8:64] == 0).all()
    assert ops(membase_vf(ctx))["RV_VGATHER"] == 2


def test_scatter_and_gatherb(ctx):
    src = np.arange(32, dtype=np.float32) + 1
    perm = np.random.default_rng(2).permutation(32)
    put(ctx, A, src)
    put(ctx, O, (perm * 4).astype(np.uint32))
    AscendC.Scatter(T(D, F32), T(A, F32), T(O, U32), 0, 32)
    out = get(ctx, D, F32, 32)
    np.testing.assert_array_equal(out[perm], src)
    blocks = np.arange(16 * 8, dtype=np.float32)                               # 16 blocks of 8 floats
    put(ctx, A, blocks)
    order = np.array([3, 0, 7, 1, 15, 2, 9, 4], np.uint32)
    put(ctx, O, order * 32)
    AscendC.Gatherb(T(D, F32), T(A, F32), T(O, U32), 1, GatherRepeatParams(2, 8))
    got = get(ctx, D, F32, 128).reshape(16, 8)
    np.testing.assert_array_equal(got[0::2], blocks.reshape(16, 8)[order])    # dstBlkStride 2


def test_gather_rejects_misaligned_offsets(ctx):
    put(ctx, O, np.array([2], np.uint32))
    with pytest.raises(KernelAbort):
        AscendC.Gather(T(D, F32), T(A, F32), T(O, U32), 0, 1)


def test_gather_mask_user_pattern_and_int8(ctx):
    x = np.arange(64, dtype=np.float32)
    put(ctx, A, x)
    put(ctx, B, np.full(2, 0x99999999, np.uint32))                            # the page: elements 0 and 3 of 4
    cnt = uint64_t(0)
    AscendC.GatherMask(T(D, F32), T(A, F32), T(B, U32), False, 0, GatherMaskParams(1, 1, 8, 0), cnt)
    keep = np.array([(0x99999999 >> (i % 32)) & 1 for i in range(64)], bool)
    assert cnt.value == keep.sum()
    np.testing.assert_array_equal(get(ctx, D, F32, int(keep.sum())), x[keep])
    b = np.arange(256, dtype=np.uint8)
    put(ctx, A, b)
    AscendC.GatherMask(T(D, U8), T(A, U8), 2, False, 0, GatherMaskParams(1, 1, 8, 0), cnt)   # odd bytes
    assert cnt.value == 128
    np.testing.assert_array_equal(get(ctx, D, U8, 128), b[1::2])


def test_transpose_16x16_and_nchw(ctx):
    m = np.arange(256, dtype=np.float16)
    put(ctx, A, m)
    AscendC.Transpose(T(D, F16), T(A, F16))
    np.testing.assert_array_equal(get(ctx, D, F16, 256).reshape(16, 16), m.reshape(16, 16).T)
    n, c, h, w = 2, 3, 2, 8
    x = np.arange(n * c * h * w, dtype=np.float16)
    put(ctx, A, x)
    tmp = T(O, U8, (c + 2) * 16 * 16 * 2)
    AscendC.Transpose(T(D, F16), T(A, F16), tmp, TransposeParamsExt(n, c, h, w, TransposeType.TRANSPOSE_NCHW2NHWC))
    np.testing.assert_array_equal(get(ctx, D, F16, x.size), x.reshape(n, c, h, w).transpose(0, 2, 3, 1).ravel())
    with pytest.raises(KernelAbort):                                            # the work buffer is too small
        AscendC.Transpose(T(D, F16), T(A, F16), T(O, U8, 64),
                          TransposeParamsExt(n, c, h, w, TransposeType.TRANSPOSE_NHWC2NCHW))


def test_trans_data_to_5hd_b16_and_b32(ctx):
    src_blocks = [A + 32 * i for i in range(16)]
    dst_blocks = [D + 32 * i for i in range(16)]
    m = np.arange(256, dtype=np.int16)
    put(ctx, A, m)
    AscendC.TransDataTo5HD[np.int16](dst_blocks, src_blocks, TransDataTo5HDParams(False, False, 1, 0, 0))
    np.testing.assert_array_equal(get(ctx, D, np.int16, 256).reshape(16, 16), m.reshape(16, 16).T)
    f = np.arange(128, dtype=np.float32)
    put(ctx, A, f)
    lists = T(O, U64, 32)
    put(ctx, O, np.array(dst_blocks + src_blocks, np.uint64))
    AscendC.TransDataTo5HD[float](T(O, U64, 16), T(O + 128, U64, 16), TransDataTo5HDParams(False, False, 1, 0, 0))
    out = get(ctx, D, F32, 128).reshape(16, 8)
    s = f.reshape(16, 8)
    np.testing.assert_array_equal(out[0], s[:8, 0])
    np.testing.assert_array_equal(out[1], s[8:, 0])
    np.testing.assert_array_equal(out[2 * 7 + 1], s[8:, 7])
    assert lists.count == 32


def test_interleave_and_deinterleave_page_examples(ctx):
    s0, s1 = np.arange(1, 513, dtype=np.float32), np.arange(513, 1025, dtype=np.float32)
    put(ctx, A, s0)
    put(ctx, A + 2048, s1)
    AscendC.Interleave(T(D, F32), T(D + 2048, F32), T(A, F32), T(A + 2048, F32), 512)
    d0, d1 = get(ctx, D, F32, 512), get(ctx, D + 2048, F32, 512)
    assert list(d0[:3]) == [1, 513, 2] and d0[-1] == 768 and d1[0] == 257 and d1[-1] == 1024
    AscendC.DeInterleave(T(B, F32), T(B + 2048, F32), T(A, F32), T(A + 2048, F32), 512)
    e0, e1 = get(ctx, B, F32, 512), get(ctx, B + 2048, F32, 512)
    assert list(e0[:3]) == [1, 3, 5] and e0[-1] == 1023 and list(e1[:2]) == [2, 4] and e1[-1] == 1024
    AscendC.DeInterleave(T(B, F32), T(B + 2048, F32), T(A, F32), 512)        # one input
    assert get(ctx, B, F32, 256)[-1] == 511 and get(ctx, B + 2048, F32, 256)[-1] == 512


def _entries(raw, dt):
    e = raw.reshape(-1, 8)
    return e[:, :dt.itemsize].copy().view(dt).ravel(), e[:, 4:].copy().view(np.uint32).ravel()


def test_sort32_and_mrgsort(ctx):
    rng = np.random.default_rng(3)
    score = rng.permutation(128).astype(np.float32)
    score[5] = score[6]                                                       # a tie: the earlier first
    put(ctx, A, score)
    put(ctx, B, np.arange(128, dtype=np.uint32))
    AscendC.Sort32(T(D, F32), T(A, F32), T(B, U32), 4)
    s, i = _entries(get(ctx, D, U8, 1024), F32)
    for r in range(4):
        order = np.argsort(-score[32 * r:32 * r + 32], kind="stable") + 32 * r
        np.testing.assert_array_equal(i[32 * r:32 * r + 32], order)
        np.testing.assert_array_equal(s[32 * r:32 * r + 32], score[order])
    out = 20480
    lists = MrgSortSrcList(T(D, F32), T(D + 256, F32), T(D + 512, F32), T(D + 768, F32))
    AscendC.MrgSort(T(out, F32), lists, MrgSort4Info([32, 32, 32, 32], False, 15, 1))
    ms, mi = _entries(get(ctx, out, U8, 1024), F32)
    np.testing.assert_array_equal(ms, np.sort(score)[::-1])
    assert set(mi.tolist()) == set(range(128))
    AscendC.MrgSort(T(out, F32), lists, MrgSort4Info([32, 32, 32, 32], True, 15, 1))
    counts = [uint16_t(0) for _ in range(4)]
    AscendC.GetMrgSortResult(*counts)
    assert 32 in [c.value for c in counts] and sum(c.value for c in counts) < 128


def test_copy_count_and_level0(ctx):
    x = np.arange(300, dtype=np.int64)
    put(ctx, A, x)
    AscendC.Copy(T(D, I64), T(A, I64), 300)
    np.testing.assert_array_equal(get(ctx, D, I64, 300), x)
    f = np.arange(128, dtype=np.float32)
    put(ctx, A, f)
    put(ctx, D, np.zeros(256, np.float32))
    AscendC.Copy(T(D, F32), T(A, F32), 64, 2, CopyRepeatParams(1, 1, 16, 8))    # dst repeats 512 B apart
    out = get(ctx, D, F32, 256)
    np.testing.assert_array_equal(out[:64], f[:64])
    np.testing.assert_array_equal(out[128:192], f[64:])
    assert (out[64:128] == 0).all()


def test_brcb_8_and_64_bit(ctx):
    put(ctx, A, np.arange(8, dtype=np.int64))
    AscendC.Brcb(T(D, I64), T(A, I64), 1, BrcbRepeatParams(1, 8))
    np.testing.assert_array_equal(get(ctx, D, I64, 32), np.repeat(np.arange(8), 4))
    put(ctx, A, np.arange(8, dtype=np.int8))
    AscendC.Brcb(T(D, I8), T(A, I8), 1, BrcbRepeatParams(1, 8))
    np.testing.assert_array_equal(get(ctx, D, I8, 256), np.repeat(np.arange(8), 32).astype(np.int8))


def test_bilinear_interpolation_page_example(ctx):
    src0 = np.arange(1, 513, dtype=np.float16)
    put(ctx, A, src0)
    put(ctx, O, (np.arange(32) * 32).astype(np.uint32))
    src1 = np.arange(2, 34, dtype=np.float16)
    put(ctx, B, src1)
    AscendC.BilinearInterpolation(T(D, F16), T(A, F16), T(O, U32), T(B, F16), 128, 2, False, 1, 128, 2, T(O + 4096, U8))
    out = get(ctx, D, F16, 256)
    p = [src0[128 * k:128 * (k + 1)] * src1[k] for k in range(4)]            # repeatMode false: one weight
    np.testing.assert_array_equal(out[:128], (p[0] + p[1]).astype(np.float16))
    np.testing.assert_array_equal(out[128:], (p[2] + p[3]).astype(np.float16))
