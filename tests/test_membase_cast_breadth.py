"""MemBase Cast over the Ascend 950 type-pair table, Truncate, and the fused conversions (AddReluCast,
SubReluCast, MulCast, MulsCast, AddDeqRelu, CastDequant with SetDeqScale, ExpSub), against numpy
references of the precision-conversion rules (RINT on inexact conversions, saturation)."""
import numpy as np
import pytest

from toolkit.ascendc import membase as AscendC
from toolkit.ascendc.membase import RoundMode, UnaryRepeatParams
from toolkit.record.diagnostics import KernelAbort

from api_support import get, membase_vf, put, T

F32, F16, F64 = np.dtype(np.float32), np.dtype(np.float16), np.dtype(np.float64)
I8, U8, I16, I32, I64 = (np.dtype(t) for t in (np.int8, np.uint8, np.int16, np.int32, np.int64))
U16, U32 = np.dtype(np.uint16), np.dtype(np.uint32)
A, B, D = 0, 8192, 16384
R = RoundMode


def test_float_to_int_modes_and_saturation(ctx):
    x = np.array([1.5, 2.5, -1.5, -2.5, 6e4, -6e4, np.nan, 0.49], np.float16)
    put(ctx, A, x)
    for mode, f in ((R.CAST_RINT, np.rint), (R.CAST_FLOOR, np.floor), (R.CAST_CEIL, np.ceil),
                    (R.CAST_TRUNC, np.trunc), (R.CAST_ROUND, lambda v: np.sign(v) * np.floor(np.abs(v) + 0.5))):
        AscendC.Cast(T(D, I8), T(A, F16), mode, 8)
        want = np.clip(np.nan_to_num(f(x.astype(np.float64)), nan=0), -128, 127).astype(np.int8)
        np.testing.assert_array_equal(get(ctx, D, I8, 8), want)
    assert membase_vf(ctx).instrs[3].dist == "NORM"


def test_integer_narrowing_saturates_and_widening_is_exact(ctx):
    x = np.array([2**31 - 1, -2**31, 70000, -70000, 5], np.int32)
    put(ctx, A, x)
    AscendC.Cast(T(D, I16), T(A, I32), R.CAST_NONE, 5)
    assert list(get(ctx, D, I16, 5)) == [32767, -32768, 32767, -32768, 5]
    AscendC.Cast(T(D, U8), T(A, I32), R.CAST_NONE, 5)
    assert list(get(ctx, D, U8, 5)) == [255, 0, 255, 0, 5]
    s = np.array([-3, 100, -128, 127], np.int8)
    put(ctx, A, s)
    AscendC.Cast(T(D, I32), T(A, I8), R.CAST_NONE, 4)
    assert list(get(ctx, D, I32, 4)) == [-3, 100, -128, 127]
    assert {i.dist for i in membase_vf(ctx).instrs if i[0] == "RV_VLD"} == {"UNPACK4_B8"}
    h = np.array([-5, 7], np.int16)
    put(ctx, A, h)
    AscendC.Cast(T(D, U32), T(A, I16), R.CAST_NONE, 2)
    assert list(get(ctx, D, U32, 2)) == [0, 7]                              # negative -> 0 (the page)


def test_float_to_float_rounds_to_integral_and_64_bit_pairs(ctx):
    x = np.array([0.5, 1.5, -0.5, 2.7], np.float32)
    put(ctx, A, x)
    AscendC.Cast(T(D, F32), T(A, F32), R.CAST_RINT, 4)
    assert list(get(ctx, D, F32, 4)) == [0.0, 2.0, -0.0, 3.0]
    AscendC.Cast(T(D, I64), T(A, F32), R.CAST_FLOOR, 4)
    assert list(get(ctx, D, I64, 4)) == [0, 1, -1, 2]
    big = np.array([2**61 + 2**9 + 2**8, -3], np.int64)                       # the page's int64 -> double example
    put(ctx, A, big)
    AscendC.Cast(T(D, F64), T(A, I64), R.CAST_RINT, 2)
    assert get(ctx, D, F64, 1)[0] == float(2**61 + 2**10)                    # ties to even
    AscendC.Cast(T(D, F32), T(A, I64), R.CAST_FLOOR, 2)
    assert get(ctx, D, F32, 1)[0] == np.float32(2**61)
    with pytest.raises(KernelAbort):
        AscendC.Cast(T(D, F64), T(A, I64), R.CAST_RINT, 64, 1, UnaryRepeatParams())   # double: count form only


def test_half_bf16_and_int16_half(ctx):
    import ml_dtypes
    bf = np.dtype(ml_dtypes.bfloat16)
    x = np.array([1.75, 1.0 + 2**-9, 3.0, -1.0 - 2**-9], np.float16)
    put(ctx, A, x)
    AscendC.Cast(T(D, bf), T(A, F16), R.CAST_TRUNC, 4)
    assert [float(v) for v in get(ctx, D, bf, 4)] == [1.75, 1.0, 3.0, -1.0]
    i = np.array([2**12 + 2, 2**12 + 1, -(2**12 + 1)], np.int16)
    put(ctx, A, i)
    AscendC.Cast(T(D, F16), T(A, I16), R.CAST_CEIL, 3)
    assert [float(v) for v in get(ctx, D, F16, 3)] == [4100.0, 4100.0, -4096.0]     # half steps by 4 here
    with pytest.raises(KernelAbort):
        AscendC.Cast(T(D, F16), T(A, I16), R.CAST_NONE, 3)                  # int16 -> half needs a mode


def test_int32_to_half_dequantises_with_set_deq_scale(ctx):
    x = np.array([100, -300, 2**17, 7], np.int32)
    put(ctx, A, x)
    AscendC.SetDeqScale(0.25)
    AscendC.Cast(T(D, F16), T(A, I32), R.CAST_NONE, 4)
    want = (x.astype(np.float32) * np.float32(2**-17) * np.float32(0.25) * np.float32(2**17)).astype(np.float16)
    np.testing.assert_array_equal(get(ctx, D, F16, 4), want)


def test_truncate(ctx):
    x = np.array([1.5, -1.5, 2.5, 0.7], np.float32)
    put(ctx, A, x)
    AscendC.Truncate[float, R.CAST_FLOOR](T(D, F32), T(A, F32), 4)
    assert list(get(ctx, D, F32, 4)) == [1.0, -2.0, 2.0, 0.0]
    AscendC.Truncate[float, R.CAST_RINT](T(D, F32), T(A, F32), 4)
    assert list(get(ctx, D, F32, 4)) == [2.0, -2.0, 2.0, 1.0]


def test_fused_conversions(ctx):
    a = np.array([1, 1, 3, 200, -9], np.float16)
    b = np.array([0, 0.5, -4, 100, 1], np.float16)
    put(ctx, A, a)
    put(ctx, B, b)
    AscendC.AddReluCast(T(D, I8), T(A, F16), T(B, F16), 5)
    assert list(get(ctx, D, I8, 5)) == [1, 2, 0, 127, 0]                  # rint(1.5) = 2, saturated 300
    AscendC.SubReluCast(T(D, I8), T(A, F16), T(B, F16), 5)
    assert list(get(ctx, D, I8, 5)) == [1, 0, 7, 100, 0]                  # rint(0.5) = 0
    AscendC.MulCast(T(D, U8), T(A, F16), T(B, F16), 5)
    assert list(get(ctx, D, U8, 5)) == [0, 0, 0, 255, 0]                  # rint(0.5) = 0, -12 -> 0
    f = np.array([1.0, 70000.0, -2.5, 3.0], np.float32)
    put(ctx, A, f)
    AscendC.MulsCast(T(D, F16), T(A, F32), 2.0, 4)
    assert [float(v) for v in get(ctx, D, F16, 4)] == [2.0, 65504.0, -5.0, 6.0]     # saturating
    e0, e1 = np.array([1.0, 2.0], np.float16), np.array([0.5, 3.0], np.float16)
    put(ctx, A, e0)
    put(ctx, B, e1)
    AscendC.ExpSub(T(D, F32), T(A, F16), T(B, F16), 2)
    np.testing.assert_array_equal(get(ctx, D, F32, 2), np.exp(e0.astype(np.float64) - e1.astype(np.float64)).astype(F32))


def test_add_deq_relu_and_cast_dequant(ctx):
    a, b = np.array([100, -500, 40, 0], np.int32), np.array([20, 100, -50, 8], np.int32)
    put(ctx, A, a)
    put(ctx, B, b)
    AscendC.SetDeqScale(0.5)
    AscendC.AddDeqRelu(T(D, F16), T(A, I32), T(B, I32), 4)
    assert [float(v) for v in get(ctx, D, F16, 4)] == [60.0, 0.0, 0.0, 4.0]
    s = np.arange(-100, 156, dtype=np.int16)[:32] * 3
    put(ctx, A, s)
    put(ctx, D, np.zeros(64, np.uint8))
    AscendC.SetDeqScale(0.5, 4, True)
    AscendC.CastDequant(T(D, I8), T(A, I16), 32, isVecDeq=False, halfBlock=True)
    out = get(ctx, D, I8, 64).reshape(2, 32)
    want = np.clip(np.rint(s.astype(np.float32) * 0.5 + 4), -128, 127).astype(np.int8).reshape(2, 16)
    np.testing.assert_array_equal(out[:, 16:], want)                      # results in the upper half
    assert (out[:, :16] == 0).all()
    info = AscendC.VdeqInfo([1.0] * 8 + [2.0] * 8, [0] * 16, [True] * 16)
    AscendC.SetDeqScale(T(B, np.dtype(np.uint64)), info)
    AscendC.CastDequant(T(D, I8), T(A, I16), 16, isVecDeq=True, halfBlock=False)
    k = np.arange(16)
    np.testing.assert_array_equal(get(ctx, D, I8, 16),
                                  np.clip(np.rint(s[:16] * np.where(k < 8, 1.0, 2.0)), -128, 127).astype(np.int8))
