"""MemBase Compare / Compares (bit results, the CmpMask register), Select in its three modes and forms,
against numpy references: bit i of the result bytes (little-endian) is element i."""
import numpy as np
import pytest

from toolkit.ascendc import membase as AscendC
from toolkit.ascendc.membase import SELMODE, BinaryRepeatParams, UnaryRepeatParams
from toolkit.ascendc.regbase.types import CMPMODE

from api_support import get, membase_vf, put, T

F32, F16, U8, I32 = np.dtype(np.float32), np.dtype(np.float16), np.dtype(np.uint8), np.dtype(np.int32)
A, B, D, S = 0, 4096, 8192, 12288
OPS = {CMPMODE.LT: np.less, CMPMODE.GT: np.greater, CMPMODE.EQ: np.equal, CMPMODE.LE: np.less_equal,
       CMPMODE.GE: np.greater_equal, CMPMODE.NE: np.not_equal}
# the page's example data (64 floats: 2 3 5 7 11 13 17 19 against 2 4 6 8 10 12 14 16, each 8 times)
SRC0 = np.repeat(np.array([2, 3, 5, 7, 11, 13, 17, 19], np.float32), 8)
SRC1 = np.repeat(np.array([2, 4, 6, 8, 10, 12, 14, 16], np.float32), 8)


def bits(hits):
    return np.packbits(np.asarray(hits, np.uint8), bitorder="little")


@pytest.mark.parametrize("mode", list(CMPMODE))
def test_compare_count_form_packs_bits(ctx, mode):
    a, b = np.tile(np.array([2, 3, 5, 7, 11, 13, 17, 19], np.float32), 32), np.tile(
        np.array([2, 4, 6, 8, 10, 12, 14, 16], np.float32), 32)
    put(ctx, A, a)
    put(ctx, B, b)
    AscendC.Compare(T(D, U8), T(A, F32), T(B, F32), mode, 256)
    np.testing.assert_array_equal(get(ctx, D, U8, 32), bits(OPS[mode](a, b)))
    # the page's per-byte figures: GT 0b11110000, GE 0b11110001, LE 0b00001111, EQ 1, NE 0b11111110
    assert get(ctx, D, U8, 1)[0] == {CMPMODE.GT: 240, CMPMODE.GE: 241, CMPMODE.LE: 15, CMPMODE.EQ: 1,
                                     CMPMODE.NE: 254, CMPMODE.LT: 14}[mode]


def test_compare_count_tail_is_not_compared(ctx):
    put(ctx, A, np.zeros(128, np.float32))
    put(ctx, B, np.ones(128, np.float32))
    put(ctx, D, np.full(16, 0x5A, np.uint8))
    AscendC.Compare(T(D, U8), T(A, F32), T(B, F32), CMPMODE.LT, 100)     # 100 floats: one whole repeat
    assert list(get(ctx, D, U8, 16)) == [255] * 8 + [0x5A] * 8
    assert "COUNT_TRUNCATED" in ctx.diag.codes()


def test_compare_level0_bit_mask_gives_zero_bits_outside_the_mask(ctx):
    put(ctx, A, SRC0)
    put(ctx, B, SRC1)
    AscendC.Compare(T(D, U8), T(A, F32), T(B, F32), CMPMODE.LE, [0x33333333, 0], 1, BinaryRepeatParams(1, 1, 1, 1, 8, 8))
    assert list(get(ctx, D, U8, 8)) == [51, 51, 51, 51, 0, 0, 0, 0]       # the page's LE example
    AscendC.Compare(T(D, U8), T(A, F32), T(B, F32), CMPMODE.LE, 28, 1, BinaryRepeatParams(1, 1, 1, 1, 8, 8))
    assert list(get(ctx, D, U8, 8)) == [255, 255, 255, 15, 0, 0, 0, 0]


def test_compares_scalar_on_either_side_and_register_compare(ctx):
    x = np.random.default_rng(1).uniform(-2, 2, 128).astype(np.float32)
    put(ctx, A, x)
    AscendC.Compares(T(D, U8), T(A, F32), 0.5, CMPMODE.GT, 128)
    np.testing.assert_array_equal(get(ctx, D, U8, 16), bits(x > 0.5))
    AscendC.Compares(T(D, U8), 0.5, T(A, F32), CMPMODE.GT, 128)            # scalar first: 0.5 > x
    np.testing.assert_array_equal(get(ctx, D, U8, 16), bits(np.float32(0.5) > x))
    AscendC.Compares(T(D, U8), T(A, F32), 0.5, CMPMODE.LT, 64, 2, UnaryRepeatParams())
    np.testing.assert_array_equal(get(ctx, D, U8, 16), bits(x < 0.5))
    put(ctx, B, np.zeros(64, np.float32))
    AscendC.Compare(T(A, F32), T(B, F32), CMPMODE.GT, 64, BinaryRepeatParams())   # to the CmpMask register
    AscendC.GetCmpMask(T(S, U8))
    np.testing.assert_array_equal(get(ctx, S, U8, 8), bits(x[:64] > 0))


def _sel_bits(n, seed):
    return np.random.default_rng(seed).integers(0, 2, n).astype(bool)


def test_select_modes_in_the_count_and_level0_forms(ctx):
    a, b = np.arange(128, dtype=np.float32), -np.arange(128, dtype=np.float32)
    sel = _sel_bits(128, 2)
    put(ctx, A, a)
    put(ctx, B, b)
    put(ctx, S, bits(sel))
    AscendC.Select(T(D, F32), T(S, U8), T(A, F32), T(B, F32), SELMODE.VSEL_TENSOR_TENSOR_MODE, 128)
    np.testing.assert_array_equal(get(ctx, D, F32, 128), np.where(sel, a, b))
    AscendC.Select(T(D, F32), T(S, U8), T(A, F32), 9.0, SELMODE.VSEL_TENSOR_SCALAR_MODE, 128)
    np.testing.assert_array_equal(get(ctx, D, F32, 128), np.where(sel, a, np.float32(9)))
    AscendC.Select(T(D, F32), T(S, U8), T(A, F32), T(B, F32), SELMODE.VSEL_CMPMASK_SPR, 128)   # mode 0: bits 0..63 again
    np.testing.assert_array_equal(get(ctx, D, F32, 128), np.where(np.tile(sel[:64], 2), a, b))
    put(ctx, D, np.full(128, 5.0, np.float32))
    AscendC.Select(T(D, F32), T(S, U8), T(A, F32), T(B, F32), SELMODE.VSEL_TENSOR_TENSOR_MODE, 32, 2,
                   BinaryRepeatParams())
    want = np.full(128, 5.0, np.float32)
    lanes = np.concatenate([np.arange(32), 64 + np.arange(32)])
    want[lanes] = np.where(sel[lanes], a[lanes], b[lanes])                  # masked-off lanes keep dst
    np.testing.assert_array_equal(get(ctx, D, F32, 128), want)


def test_select_without_a_mask_uses_the_registers(ctx):
    a, b = np.arange(64, dtype=np.float32), -np.arange(64, dtype=np.float32) - 1
    sel = _sel_bits(64, 3)
    put(ctx, A, a)
    put(ctx, B, b)
    put(ctx, S, bits(sel))
    AscendC.SetCmpMask(T(S, U8))                                            # mode 0: the bits in the CmpMask
    AscendC.SetVectorMask(np.float32, AscendC.MaskMode.NORMAL, 64)
    AscendC.Select[float, SELMODE.VSEL_CMPMASK_SPR](T(D, F32), T(A, F32), T(B, F32), 1, BinaryRepeatParams())
    np.testing.assert_array_equal(get(ctx, D, F32, 64), np.where(sel, a, b))
    put(ctx, S + 256, np.array([7.0] * 8, np.float32))                       # mode 1: the scalar in the CmpMask
    AscendC.SetCmpMask(T(S + 256, F32))
    AscendC.Select(T(D, F32), T(S, U8), T(A, F32), 1, BinaryRepeatParams())
    np.testing.assert_array_equal(get(ctx, D, F32, 64), np.where(sel, a, np.float32(7)))
    put(ctx, S + 512, np.array([S, 0, 0, 0], np.uint32))                      # mode 2: the selMask address
    AscendC.SetCmpMask(T(S + 512, np.dtype(np.uint32)))
    AscendC.Select[float, SELMODE.VSEL_TENSOR_TENSOR_MODE](T(D, F32), T(B, F32), T(A, F32), 1, BinaryRepeatParams())
    np.testing.assert_array_equal(get(ctx, D, F32, 64), np.where(sel, b, a))
    AscendC.ResetMask()


def test_select_vf_and_int_types(ctx):
    a, b = np.arange(64, dtype=np.int32), np.full(64, -1, np.int32)
    sel = _sel_bits(64, 4)
    put(ctx, A, a)
    put(ctx, B, b)
    put(ctx, S, bits(sel))
    AscendC.Select(T(D, I32), T(S, U8), T(A, I32), T(B, I32), SELMODE.VSEL_TENSOR_TENSOR_MODE, 64)
    np.testing.assert_array_equal(get(ctx, D, I32, 64), np.where(sel, a, b))
    assert membase_vf(ctx).meta["form"] == "count"
