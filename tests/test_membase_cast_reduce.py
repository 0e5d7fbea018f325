"""MemBase Cast (count and level-0) and WholeReduceSum, against references written here."""
from collections import Counter

import ml_dtypes
import numpy as np
import pytest

from toolkit.ascendc import membase as AscendC
from toolkit.ascendc.membase import RoundMode, UnaryRepeatParams
from toolkit.record.diagnostics import KernelAbort

from api_support import get, membase_vf, ops, put, T, tree_sum

F32, F16, I32 = np.dtype(np.float32), np.dtype(np.float16), np.dtype(np.int32)
BF16 = np.dtype(ml_dtypes.bfloat16)


# -- Cast ------------------------------------------------------------------------------------------
def test_cast_bf16_to_fp32_exact_with_tail(ctx):
    bits = np.random.default_rng(1).integers(0, 0x7F00, 1000).astype(np.uint16)
    bits[::7] |= 0x8000
    put(ctx, 0, bits)
    put(ctx, 4096, np.full(1024, 9.0, np.float32))
    AscendC.Cast(T(4096, F32), T(0, BF16), RoundMode.CAST_NONE, 1000)
    out = get(ctx, 4096, F32, 1024)
    np.testing.assert_array_equal(out[:1000].view(np.uint32), bits.astype(np.uint32) << 16)
    assert (out[1000:] == 9.0).all()
    ev = membase_vf(ctx)
    assert ops(ev) == Counter({"RV_VLOOP": 1, "ITER": 16, "RV_PLT": 16, "RV_VLD": 16, "RV_VCVT_F2F": 16,
                               "RV_VST": 16})
    assert {i.dist for i in ev.instrs if i[0] == "RV_VLD"} == {"UNPACK_B16"}


TIE_BITS = np.array([0x3F808000, 0x3F818000, 0x3F808001, 0x3F807FFF, 0xBF808000, 0xBF818000, 0xBF807FFF,
                     0x40490FDB, 0xC0490FDB, 0x7F7F8000, 0x3F800000, 0x00000000, 0x80000000], dtype=np.uint32)


def test_cast_fp32_to_bf16_rint_ties_to_even(ctx):
    put(ctx, 0, TIE_BITS)
    put(ctx, 1024, np.full(64, 0x1234, np.uint16))
    AscendC.Cast(T(1024, BF16), T(0, F32), RoundMode.CAST_RINT, TIE_BITS.size)
    ref = ((TIE_BITS.astype(np.uint64) + 0x7FFF + ((TIE_BITS >> 16) & 1)) >> 16).astype(np.uint16)
    out = get(ctx, 1024, np.uint16, 64)
    np.testing.assert_array_equal(out[:TIE_BITS.size], ref)
    assert out[0] == 0x3F80 and out[1] == 0x3F82 and out[9] == 0x7F80          # ties to even; overflow -> inf
    assert (out[TIE_BITS.size:] == 0x1234).all()
    assert {i.dist for i in membase_vf(ctx).instrs if i[0] == "RV_VST"} == {"PACK_B32"}


@pytest.mark.parametrize("mode", ["CAST_TRUNC", "CAST_FLOOR", "CAST_CEIL", "CAST_ROUND"])
def test_cast_fp32_to_bf16_directed(ctx, mode):
    b = TIE_BITS[:9]
    put(ctx, 0, b)
    AscendC.Cast(T(1024, BF16), T(0, F32), RoundMode[mode], b.size)
    top, low, neg = b >> 16, b & 0xFFFF, (b >> 31).astype(bool)
    ref = {"CAST_TRUNC": top, "CAST_FLOOR": top + ((low != 0) & neg), "CAST_CEIL": top + ((low != 0) & ~neg),
           "CAST_ROUND": (b + 0x8000) >> 16}[mode].astype(np.uint16)
    np.testing.assert_array_equal(get(ctx, 1024, np.uint16, b.size), ref)


def test_cast_round_mode_checks(ctx):
    with pytest.raises(KernelAbort) as e:
        AscendC.Cast(T(1024, BF16), T(0, F32), RoundMode.CAST_NONE, 64)
    assert e.value.diag.code == "BAD_PARAMETER"
    with pytest.raises(KernelAbort) as e:
        AscendC.Cast(T(1024, F32), T(0, BF16), RoundMode.CAST_RINT, 64)
    assert e.value.diag.code == "BAD_PARAMETER"
    with pytest.raises(KernelAbort):
        AscendC.Cast(T(1024, I32), T(0, F32), RoundMode.CAST_NONE, 64)


def test_cast_half_fp32_int32(ctx):
    h = np.array([1.0, -2.5, 65504.0, 6.1e-5, 3.14159], dtype=np.float16)
    put(ctx, 0, h)
    AscendC.Cast(T(1024, F32), T(0, F16), RoundMode.CAST_NONE, h.size)
    np.testing.assert_array_equal(get(ctx, 1024, F32, h.size), h.astype(np.float64).astype(F32))
    f = np.array([1 + 2 ** -11, 1 + 3 * 2 ** -11, 1.0, 1 + 2 ** -10, 70000.0], dtype=np.float32)
    put(ctx, 2048, f)
    AscendC.Cast(T(3072, F16), T(2048, F32), RoundMode.CAST_RINT, f.size)
    np.testing.assert_array_equal(get(ctx, 3072, np.uint16, 4), [0x3C00, 0x3C02, 0x3C00, 0x3C01])
    assert np.isinf(get(ctx, 3072, F16, 5)[4])
    AscendC.Cast(T(3072, F16), T(2048, F32), RoundMode.CAST_ODD, 4)
    np.testing.assert_array_equal(get(ctx, 3072, np.uint16, 4), [0x3C01, 0x3C01, 0x3C00, 0x3C01])
    v = np.array([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 3.7, -3.7], dtype=np.float32)
    put(ctx, 4096, v)
    expect = {"CAST_RINT": [0, 2, 2, 0, -2, -2, 4, -4], "CAST_TRUNC": [0, 1, 2, 0, -1, -2, 3, -3],
              "CAST_FLOOR": [0, 1, 2, -1, -2, -3, 3, -4], "CAST_CEIL": [1, 2, 3, 0, -1, -2, 4, -3],
              "CAST_ROUND": [1, 2, 3, -1, -2, -3, 4, -4]}
    for mode, ref in expect.items():
        AscendC.Cast(T(5120, I32), T(4096, F32), RoundMode[mode], v.size)
        np.testing.assert_array_equal(get(ctx, 5120, I32, v.size), ref, err_msg=mode)
    assert membase_vf(ctx).instrs[4][0] == "RV_VCVT_F2I"
    i = np.array([16777217, 16777219, -16777217, 7], dtype=np.int32)
    put(ctx, 6144, i)
    AscendC.Cast(T(7168, F32), T(6144, I32), RoundMode.CAST_NONE, 4)
    np.testing.assert_array_equal(get(ctx, 7168, F32, 4), [16777216, 16777220, -16777216, 7])
    AscendC.Cast(T(7168, F32), T(6144, I32), RoundMode.CAST_CEIL, 4)
    np.testing.assert_array_equal(get(ctx, 7168, F32, 4), [16777218, 16777220, -16777216, 7])


def test_cast_level0_masks_by_wider_type(ctx):
    src = np.random.default_rng(2).standard_normal(256).astype(BF16)
    put(ctx, 0, src)
    put(ctx, 1024, np.full(256, -7.0, np.float32))
    m0 = 0x8000_0001_FFFF_0F0F
    AscendC.Cast(T(1024, F32), T(0, BF16), RoundMode.CAST_NONE, [m0, 0], 2, UnaryRepeatParams(1, 1, 8, 4))
    out = get(ctx, 1024, F32, 256)
    ref = np.full(256, -7.0, np.float32)
    for r in range(2):
        for e in range(64):
            if (m0 >> e) & 1:
                ref[r * 64 + e] = np.float32(src[r * 64 + e])      # src rep 4 blocks = 64 bf16
    np.testing.assert_array_equal(out, ref)
    ev = membase_vf(ctx)
    assert ev.instrs[0][0] == "RV_PMOV" and ops(ev)["RV_VCVT_F2F"] == 2 and ops(ev)["RV_VSLDB"] == 2


# -- WholeReduceSum --------------------------------------------------------------------------------
def test_whole_reduce_sum_tree_order_differs_from_sequential(ctx):
    row = np.ones(64, np.float32)
    row[0] = 2.0 ** 24
    put(ctx, 0, row)
    AscendC.WholeReduceSum(T(1024, F32), T(0, F32), 64, 1, 1, 1, 8)
    seq = np.float32(0)
    for x in row:
        seq = np.float32(seq + x)
    got = get(ctx, 1024, F32, 1)[0]
    assert got == tree_sum(row) == np.float32(2 ** 24 + 62) and got != seq


def test_whole_reduce_sum_sample_rows_and_masked_leaves(ctx):
    rows = 8
    sq = np.random.default_rng(3).uniform(0, 1, (rows, 64)).astype(np.float32)
    put(ctx, 0, sq)
    AscendC.WholeReduceSum(T(4096, F32), T(0, F32), 64, rows, 1, 1, 8)
    np.testing.assert_array_equal(get(ctx, 4096, F32, rows), tree_sum(sq))
    row = np.zeros(64, np.float32)
    row[:4] = [2.0 ** 24, 5.0, 1.0, 1.0]                     # lane 1 masked off: enters as 0 at its leaf
    put(ctx, 8192, row)
    AscendC.WholeReduceSum(T(8448, F32), T(8192, F32), [ALL64 & ~2, 0], 1, 1, 1, 8)
    assert get(ctx, 8448, F32, 1)[0] == np.float32(2 ** 24 + 2)


ALL64 = (1 << 64) - 1


def test_whole_reduce_sum_strides_and_dst_rep_stride(ctx):
    x = np.random.default_rng(4).uniform(-1, 1, 2048).astype(np.float32)
    put(ctx, 0, x)
    put(ctx, 16384, np.full(16, 42.0, np.float32))
    AscendC.WholeReduceSum(T(16384, F32), T(0, F32), 40, 3, 2, 2, 16)
    out = get(ctx, 16384, F32, 16)
    for r in range(3):
        lanes = np.zeros(64, np.float32)
        for e in range(40):
            lanes[e] = x[(r * 16 * 32 + (e // 8) * 2 * 32) // 4 + e % 8]
        assert out[2 * r] == tree_sum(lanes)
        assert out[2 * r + 1] == 42.0
    put(ctx, 16384, np.full(16, 42.0, np.float32))
    AscendC.WholeReduceSum(T(16384, F32), T(0, F32), 64, 3, 0, 1, 8)    # only the last repeat, to dst[0]
    out = get(ctx, 16384, F32, 16)
    assert out[0] == tree_sum(x[128:192]) and (out[1:] == 42.0).all()
    assert ops(membase_vf(ctx))["RV_VCADD"] == 1


def test_whole_reduce_sum_half_and_unaligned_dst(ctx):
    x = np.random.default_rng(5).uniform(0, 4, (2, 128)).astype(np.float16)
    put(ctx, 0, x)
    AscendC.WholeReduceSum(T(1026, F16), T(0, F16), 128, 2, 1, 1, 8)   # dst needs element alignment only
    np.testing.assert_array_equal(get(ctx, 1026, F16, 2), tree_sum(x))


def test_whole_reduce_sum_definedness_and_stream(ctx):
    x = np.ones((4, 64), np.float32)
    put(ctx, 0, x)
    ctx.ub.defined[5 * 4] = False                  # row 0 lane 5 (active)
    ctx.ub.defined[(64 + 63) * 4] = False          # row 1 lane 63 (masked off by mask 63)
    AscendC.WholeReduceSum(T(2048, F32), T(0, F32), 63, 4, 1, 1, 8)
    d = ctx.ub.defined[2048:2048 + 16].reshape(4, 4).all(axis=1)
    assert list(d) == [False, True, True, True]
    ev = membase_vf(ctx)
    assert ev.name == "WholeReduceSum" and ev.instrs[0][:4] == ("RV_PLT", 1, (), 63)
    assert ev.instrs[1][:4] == ("RV_VLOOP", -1, (), 4)
    assert [i[:4] for i in ev.instrs[2:6]] == [("ITER", -1, (), 1), ("RV_VSLDB", 3, (1,), 1),
                                               ("RV_VCADD", 4, (3, 1), None), ("RV_VSTUI", 5, (4, 2), 4)]
    assert [i.ub_addr for i in ev.instrs if i.opcode == "RV_VSTUI"] == [2048, 2052, 2056, 2060]
    assert ops(ev) == Counter({"RV_PLT": 1, "RV_VLOOP": 1, "ITER": 4, "RV_VSLDB": 4, "RV_VCADD": 4,
                               "RV_VSTUI": 4, "RV_VSTAS": 1})
    assert ev.instrs[-1][0] == "RV_VSTAS"


def test_spec_rms_scalar_chain(ctx):
    rows, dv = 8, 512
    s = np.random.default_rng(6).uniform(10, 300, rows).astype(np.float32)
    put(ctx, 0, s)
    rs = T(0, F32, rows)
    AscendC.Muls(rs, rs, np.float32(1.0 / dv), rows)
    AscendC.Adds(rs, rs, np.float32(1e-5), rows)
    AscendC.Sqrt(rs, rs, rows)
    ref = np.sqrt((s * np.float32(1.0 / dv) + np.float32(1e-5)).astype(np.float64)).astype(np.float32)
    np.testing.assert_array_equal(get(ctx, 0, F32, rows), ref)
