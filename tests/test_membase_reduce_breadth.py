"""MemBase reductions beyond WholeReduceSum: ReduceRepeat (SUM / MAX / MIN, every ReduceOrder, the older
names), ReduceDataBlock, ReducePairElem, ReduceMax / ReduceMin / ReduceSum with every type, calIndex and
the level-0 forms, GetReduceRepeatSumSpr; references are adjacent-pair trees written here."""
import numpy as np
import pytest

from toolkit.ascendc import membase as AscendC
from toolkit.ascendc.membase import ReduceOrder
from toolkit.ascendc.pipe import TPipe
from toolkit.ascendc.regbase.types import ReduceType

from api_support import get, membase_vf, ops, put, T, tree_sum

F32, F16, I16, I32 = np.dtype(np.float32), np.dtype(np.float16), np.dtype(np.int16), np.dtype(np.int32)
SRC, DST, WORK = 0, 16384, 24576


def data(n, dt, seed):
    return np.random.default_rng(seed).uniform(-8, 8, n).astype(np.float32).astype(dt)


def test_reduce_repeat_max_value_index_orders(ctx):
    x = data(512, F16, 1)
    x[52] = 11
    x[128 + 100] = 12
    x[384 + 19] = 13
    put(ctx, SRC, x)
    AscendC.ReduceRepeat[ReduceType.MAX, np.float16](T(DST, F16), T(SRC, F16), 128, 4, 1, 1, 8)
    out = get(ctx, DST, F16, 8)
    rows = x.reshape(4, 128)
    np.testing.assert_array_equal(out[0::2], rows.max(axis=1))
    np.testing.assert_array_equal(out[1::2].view(np.uint16), rows.argmax(axis=1))     # the index's bits
    assert list(out[1::2].view(np.uint16)[[0, 1, 3]]) == [52, 100, 19]               # the page's example
    AscendC.ReduceRepeat[ReduceType.MAX, np.float16](T(DST, F16), T(SRC, F16), 128, 4, 1, 1, 8,
                                                     ReduceOrder.ORDER_INDEX_VALUE)
    np.testing.assert_array_equal(get(ctx, DST, F16, 8)[1::2], rows.max(axis=1))
    AscendC.ReduceRepeat[ReduceType.MAX, np.float16](T(DST, F16), T(SRC, F16), 128, 4, 1, 1, 8,
                                                     ReduceOrder.ORDER_ONLY_VALUE)
    np.testing.assert_array_equal(get(ctx, DST, F16, 4), rows.max(axis=1))
    AscendC.ReduceRepeat[ReduceType.MIN, np.float16](T(DST, F16), T(SRC, F16), 128, 4, 1, 1, 8,
                                                     ReduceOrder.ORDER_ONLY_INDEX)
    idx = get(ctx, DST, np.uint32, 4)                                     # a 32-bit index for half
    np.testing.assert_array_equal(idx, rows.argmin(axis=1))
    assert "RV_VCMIN" in ops(membase_vf(ctx))


def test_whole_reduce_max_min_with_a_partial_mask(ctx):
    x = data(128, F32, 2)
    put(ctx, SRC, x)
    AscendC.WholeReduceMax(T(DST, F32), T(SRC, F32), 10, 2, 1, 1, 8)
    out = get(ctx, DST, F32, 4)
    rows = x.reshape(2, 64)[:, :10]
    np.testing.assert_array_equal(out[0::2], rows.max(axis=1))
    np.testing.assert_array_equal(out[1::2].view(np.uint32), rows.argmax(axis=1))
    AscendC.WholeReduceMin(T(DST, F32), T(SRC, F32), 10, 2, 1, 1, 8, ReduceOrder.ORDER_ONLY_VALUE)
    np.testing.assert_array_equal(get(ctx, DST, F32, 2), rows.min(axis=1))


def test_reduce_repeat_sum_int16_to_int32(ctx):
    x = np.random.default_rng(3).integers(-30000, 30000, 256).astype(np.int16)
    put(ctx, SRC, x)
    AscendC.ReduceRepeat[ReduceType.SUM, np.int32](T(DST, I32), T(SRC, I16), 128, 2, 1, 1, 8)
    np.testing.assert_array_equal(get(ctx, DST, I32, 2), x.reshape(2, 128).astype(np.int64).sum(axis=1))


def test_reduce_data_block_and_the_empty_block_fill(ctx):
    x = data(128, F32, 4)
    put(ctx, SRC, x)
    AscendC.ReduceDataBlock[ReduceType.SUM, float](T(DST, F32), T(SRC, F32), 64, 2, 1, 1, 8)
    np.testing.assert_array_equal(get(ctx, DST, F32, 16), tree_sum(x.reshape(16, 8)))
    AscendC.BlockReduceMax(T(DST, F32), T(SRC, F32), 32, 1, 1, 1, 8)   # the page: mask 32 -> blocks 4..7 get -inf
    out = get(ctx, DST, F32, 8)
    np.testing.assert_array_equal(out[:4], x[:32].reshape(4, 8).max(axis=1))
    assert (out[4:] == -np.inf).all()


def test_reduce_pair_elem(ctx):
    x = data(128, F16, 5)
    put(ctx, SRC, x)
    mask = [0xFFFFFFFFFFFFFFFF, 0x0FFFFFFFFFFFFFFF]                        # the last 4 pairs fully masked
    AscendC.ReducePairElem[ReduceType.SUM, np.float16](T(DST, F16), T(SRC, F16), mask, 1, 1, 1, 8)
    out = get(ctx, DST, F16, 64)
    np.testing.assert_array_equal(out[:62], (x[0::2] + x[1::2])[:62])
    assert list(out[62:]) == [0, 0]
    AscendC.PairReduceSum(T(DST, F16), T(SRC, F16), 128, 1, 1, 1, 8)
    np.testing.assert_array_equal(get(ctx, DST, F16, 64), x[0::2] + x[1::2])


@pytest.mark.parametrize("dt", [F16, F32, I16, I32])
def test_reduce_max_min_count_form_with_index(ctx, dt):
    n = 1000
    x = data(n, dt, 6) if dt.kind == "f" else np.random.default_rng(6).integers(-1000, 1000, n).astype(dt)
    put(ctx, SRC, x)
    AscendC.ReduceMax(T(DST, dt), T(SRC, dt), T(WORK, dt), n, True)
    out = get(ctx, DST, dt, 2)
    assert out[0] == x.max() and int(out[1:2].view(f"u{dt.itemsize}")[0]) == int(np.argmax(x))
    AscendC.ReduceMin(T(DST, dt), T(SRC, dt), T(WORK, dt), n)
    assert get(ctx, DST, dt, 1)[0] == x.min()


def test_reduce_max_level0_and_ties_take_the_first_index(ctx):
    x = np.zeros(256, np.float32)
    x[70] = x[130] = 5.0
    put(ctx, SRC, x)
    AscendC.ReduceMax(T(DST, F32), T(SRC, F32), T(WORK, F32), 64, 4, 8, True)
    out = get(ctx, DST, F32, 2)
    assert out[0] == 5.0 and out[1:2].view(np.uint32)[0] == 70


def test_reduce_sum_counts_and_types_and_the_spr(ctx):
    TPipe()
    for n in (37, 64, 5000):
        x = data(n, F32, n)
        put(ctx, SRC, x)
        AscendC.ReduceSum(T(DST, F32), T(SRC, F32), T(WORK, F32), n)
        partial = tree_sum(np.concatenate([x, np.zeros(-n % 64, np.float32)]).reshape(-1, 64))
        while partial.size > 1:
            partial = tree_sum(np.concatenate([partial, np.zeros(-partial.size % 64, np.float32)]).reshape(-1, 64))
        assert get(ctx, DST, F32, 1)[0] == partial[0]
        assert AscendC.GetReduceRepeatSumSpr(np.float32) == float(partial[0])
    xi = np.arange(300, dtype=np.int32)
    put(ctx, SRC, xi)
    AscendC.ReduceSum(T(DST, I32), T(SRC, I32), T(WORK, I32), 300)
    assert get(ctx, DST, I32, 1)[0] == xi.sum()


def test_reduce_sum_level0(ctx):
    TPipe()
    x = data(256, F32, 7)
    put(ctx, SRC, x)
    AscendC.ReduceSum(T(DST, F32), T(SRC, F32), T(WORK, F32), 32, 4, 8)    # first 32 lanes of 4 repeats
    rows = np.concatenate([x.reshape(4, 64)[:, :32], np.zeros((4, 32), np.float32)], axis=1)
    parts = tree_sum(rows)
    want = tree_sum(np.concatenate([parts, np.zeros(60, np.float32)]))
    assert get(ctx, DST, F32, 1)[0] == want
