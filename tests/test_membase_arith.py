"""MemBase arithmetic breadth: logic, shifts, the scalar-position forms, unary math, fused ops, every element
width of the count form, and the mask state (isSetMask = false, counter mode), against numpy references
written from the pages' formulas."""
import numpy as np
import pytest

from toolkit.ascendc import membase as AscendC
from toolkit.ascendc.membase import BinaryRepeatParams, MaskMode, UnaryRepeatParams
from toolkit.record.diagnostics import KernelAbort

from api_support import get, membase_vf, ops, put, T

F32, F16, I8, U8 = np.dtype(np.float32), np.dtype(np.float16), np.dtype(np.int8), np.dtype(np.uint8)
I16, U16, I32, U32, I64, U64 = (np.dtype(t) for t in (np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64))
A, B, D = 0, 8192, 16384            # src0, src1, dst byte addresses


def ints(n, dt, seed):
    """Random integers over the whole range of ``dt`` (random bytes)."""
    return np.random.default_rng(seed).integers(0, 256, n * dt.itemsize, dtype=np.uint8).view(dt)


def floats(n, dt, seed, lo=-4.0, hi=4.0):
    return np.random.default_rng(seed).uniform(lo, hi, n).astype(np.float32).astype(dt)


@pytest.mark.parametrize("dt", [I8, U8, I16, U16, I32, U32, I64, U64])
@pytest.mark.parametrize("api,ref", [("Add", np.add), ("Sub", np.subtract), ("Max", np.maximum), ("Min", np.minimum),
                                     ("And", np.bitwise_and), ("Or", np.bitwise_or)])
def test_integer_count_forms_wrap_and_leave_the_tail(ctx, dt, api, ref):
    n = 300
    a, b = ints(n, dt, 1), ints(n, dt, 2)
    put(ctx, A, a)
    put(ctx, B, b)
    put(ctx, D, np.full(n + 40, 7, dt))
    getattr(AscendC, api)(T(D, dt), T(A, dt), T(B, dt), n)
    out = get(ctx, D, dt, n + 40)
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(out[:n], ref(a, b).astype(dt))
    assert (out[n:] == 7).all()
    assert membase_vf(ctx).meta["count"] == n


def test_mul_and_div_integers_truncate_toward_zero(ctx):
    a = np.array([7, -7, 7, -7, 5, 0, -2**31, 100], np.int32)
    b = np.array([2, 2, -2, -2, 0, 3, -1, 7], np.int32)
    put(ctx, A, a)
    put(ctx, B, b)
    AscendC.Div(T(D, I32), T(A, I32), T(B, I32), 8)
    assert list(get(ctx, D, I32, 8)) == [3, -3, -3, 3, 0, 0, -2**31, 14]     # x / 0 -> 0; INT_MIN / -1 wraps
    u = np.array([2**64 - 1, 10, 2**63 + 5, 9], np.uint64)
    v = np.array([3, 0, 2, 10], np.uint64)
    put(ctx, A, u)
    put(ctx, B, v)
    AscendC.Div(T(D, U64), T(A, U64), T(B, U64), 4)
    assert [int(x) for x in get(ctx, D, U64, 4)] == [(2**64 - 1) // 3, 0, (2**63 + 5) // 2, 0]


def test_unsupported_types_are_bad_parameters(ctx):
    with pytest.raises(KernelAbort):
        AscendC.And(T(D, F32), T(A, F32), T(B, F32), 64)          # And takes integers only
    with pytest.raises(KernelAbort):                            # int8 Add: count form only
        AscendC.Add(T(D, I8), T(A, I8), T(B, I8), 128, 1, BinaryRepeatParams())


def test_shifts_follow_the_pages(ctx):
    x = np.array([0b1010101010101010] * 4, np.uint16)
    put(ctx, A, x)
    AscendC.ShiftRight(T(D, U16), T(A, U16), 1, 4)
    assert get(ctx, D, U16, 1)[0] == 0b0101010101010101                      # logical
    s = x.view(np.int16)
    put(ctx, A, s)
    AscendC.ShiftRight(T(D, I16), T(A, I16), 3, 4)
    assert get(ctx, D, U16, 1)[0] == 0b1111010101010101                      # arithmetic (page example)
    AscendC.ShiftLeft(T(D, I16), T(A, I16), 1, 4)
    assert get(ctx, D, U16, 1)[0] == 0b1101010101010100                      # sign bit kept (page example)
    AscendC.ShiftLeft(T(D, I16), T(A, I16), 3, 4)
    assert get(ctx, D, U16, 1)[0] == 0b1101010101010000
    put(ctx, A, np.array([-5, 5, -5, 5], np.int32))
    AscendC.ShiftRight(T(D, I32), T(A, I32), 40, 4)                         # past the width: -1 / 0
    assert list(get(ctx, D, I32, 4)) == [-1, 0, -1, 0]
    with pytest.raises(KernelAbort):
        AscendC.ShiftRight(T(D, I32), T(A, I32), 1, 64, 1, UnaryRepeatParams(), True)   # roundEn on 950


def test_shift_by_a_tensor_of_counts(ctx):
    x = ints(64, U32, 3)
    n = np.arange(64, dtype=np.int32) % 40
    put(ctx, A, x)
    put(ctx, B, n)
    AscendC.ShiftLeft(T(D, U32), T(A, U32), T(B, I32), 64)
    ref = np.where(n < 32, (x.astype(np.uint64) << n.astype(np.uint64)) & 0xFFFFFFFF, 0).astype(np.uint32)
    np.testing.assert_array_equal(get(ctx, D, U32, 64), ref)
    assert "RV_VSHL" in ops(membase_vf(ctx))


def test_scalar_on_either_side_and_single_element_tensor(ctx):
    x = floats(100, F32, 4)
    put(ctx, A, x)
    put(ctx, B, np.array([2.5] + [99.0] * 7, np.float32))
    AscendC.Subs(T(D, F32), T(A, F32), 1.5, 100)                            # x - s
    np.testing.assert_array_equal(get(ctx, D, F32, 100), x - np.float32(1.5))
    AscendC.Subs(T(D, F32), 1.5, T(A, F32), 100)                            # s - x
    np.testing.assert_array_equal(get(ctx, D, F32, 100), np.float32(1.5) - x)
    AscendC.Divs(T(D, F32), T(A, F32), T(B, F32), 100)                      # src1[0] is the scalar
    np.testing.assert_array_equal(get(ctx, D, F32, 100), x / np.float32(2.5))
    AscendC.Divs(T(D, F32), T(B, F32), T(A, F32), 100, config=0)            # scalarTensorIndex 0: src0[0]
    np.testing.assert_array_equal(get(ctx, D, F32, 100), np.float32(2.5) / x)
    AscendC.Muls[float](T(D, F32), T(A, F32), 3.0, 100)
    np.testing.assert_array_equal(get(ctx, D, F32, 100), x * np.float32(3.0))


def test_ands_ors_and_leaky_relu(ctx):
    x = ints(64, I16, 5)
    put(ctx, A, x)
    AscendC.Ands(T(D, I16), T(A, I16), 0x0F0F, 64)
    np.testing.assert_array_equal(get(ctx, D, I16, 64), x & np.int16(0x0F0F))
    AscendC.Ors(T(D, I16), 0x00FF, T(A, I16), 64)
    np.testing.assert_array_equal(get(ctx, D, I16, 64), x | np.int16(0xFF))
    y = floats(64, F16, 6)
    put(ctx, B, y)
    AscendC.LeakyRelu(T(D, F16), T(B, F16), 0.1, 64)
    np.testing.assert_array_equal(get(ctx, D, F16, 64), np.where(y >= 0, y, y * np.float16(0.1)))


def test_unary_math_is_correctly_rounded(ctx):
    x = floats(128, F32, 7, 0.01, 50.0)
    put(ctx, A, x)
    AscendC.Rsqrt(T(D, F32), T(A, F32), 128)
    np.testing.assert_array_equal(get(ctx, D, F32, 128), (1.0 / np.sqrt(x.astype(np.float64))).astype(F32))
    AscendC.Reciprocal(T(D, F32), T(A, F32), 128)
    np.testing.assert_array_equal(get(ctx, D, F32, 128), (1.0 / x.astype(np.float64)).astype(F32))
    AscendC.Not(T(D, F32), T(A, F32), 128)
    np.testing.assert_array_equal(get(ctx, D, np.uint32, 128), ~x.view(np.uint32))
    AscendC.Neg(T(D, F32), T(A, F32), 128)
    np.testing.assert_array_equal(get(ctx, D, F32, 128), -x)
    with pytest.raises(KernelAbort):
        AscendC.Neg(T(D, F32), T(A, F32), 64, 1, UnaryRepeatParams())        # Neg: count form only


def fma_ref(a, b, c):
    """a * b + c rounded once to float32: the product is exact in float64, and for the test's operands (a few
    binades apart at most) so is the sum, hence one rounding."""
    exact = a.astype(np.float64) * b.astype(np.float64) + c.astype(np.float64)
    return exact.astype(np.float32)


def test_fused_ops(ctx, machine):
    a, b, c = floats(64, F32, 8), floats(64, F32, 9), floats(64, F32, 10)
    put(ctx, A, a)
    put(ctx, B, b)
    put(ctx, D, c)
    AscendC.FusedMulAdd(T(D, F32), T(A, F32), T(B, F32), 64)                # dst = src0 * dst + src1, fused
    np.testing.assert_array_equal(get(ctx, D, F32, 64), fma_ref(a, c, b))
    put(ctx, D, c)
    AscendC.MulAddRelu(T(D, F32), T(A, F32), T(B, F32), 64)
    np.testing.assert_array_equal(get(ctx, D, F32, 64), np.maximum(fma_ref(a, c, b), 0))
    put(ctx, D, c)
    AscendC.MulAddDst(T(D, F32), T(A, F32), T(B, F32), 64)                  # dst = src0 * src1 + dst, fused
    np.testing.assert_array_equal(get(ctx, D, F32, 64), fma_ref(a, b, c))
    h0, h1 = floats(64, F16, 11), floats(64, F16, 12)
    put(ctx, A, h0)
    put(ctx, B, h1)
    put(ctx, D, c)
    AscendC.MulAddDst(T(D, F32), T(A, F16), T(B, F16), 64)                  # half sources, float dst
    np.testing.assert_array_equal(get(ctx, D, F32, 64), fma_ref(h0, h1, c))
    put(ctx, A, a)
    put(ctx, D, c)
    assert machine.params["numerics"]["axpy_fused"] is True
    AscendC.Axpy(T(D, F32), T(A, F32), 0.3, 64)
    np.testing.assert_array_equal(get(ctx, D, F32, 64), fma_ref(np.full(64, 0.3, np.float32), a, c))
    put(ctx, B, b)
    AscendC.AddRelu(T(D, F32), T(A, F32), T(B, F32), 64)
    np.testing.assert_array_equal(get(ctx, D, F32, 64), np.maximum(a + b, 0))
    AscendC.AbsSub(T(D, F32), T(A, F32), T(B, F32), 64)
    np.testing.assert_array_equal(get(ctx, D, F32, 64), np.abs(a - b))
    AscendC.Prelu(T(D, F32), T(A, F32), T(B, F32), 64)
    np.testing.assert_array_equal(get(ctx, D, F32, 64), np.where(a >= 0, a, a * b))
    assert ops(membase_vf(ctx))["RV_VPRELU"] == 1


def test_mull_gives_both_halves_of_the_product(ctx):
    a, b = ints(64, I32, 13), ints(64, I32, 14)
    put(ctx, A, a)
    put(ctx, B, b)
    AscendC.Mull(T(D, I32), T(D + 1024, I32), T(A, I32), T(B, I32), 64)
    p = a.astype(np.int64) * b.astype(np.int64)
    np.testing.assert_array_equal(get(ctx, D, I32, 64), p.astype(I32))
    np.testing.assert_array_equal(get(ctx, D + 1024, I32, 64), (p >> 32).astype(I32))
    assert ops(membase_vf(ctx))["RV_VST"] == 2


def test_duplicate_tensor_source_and_create_vec_index(ctx):
    put(ctx, A, np.array([3.25] + [0.0] * 7, np.float32))
    AscendC.Duplicate(T(D, F32), T(A, F32), 70)
    np.testing.assert_array_equal(get(ctx, D, F32, 70), np.full(70, 3.25, np.float32))
    AscendC.CreateVecIndex(T(D, I16), 5, 200)
    np.testing.assert_array_equal(get(ctx, D, I16, 200), np.arange(5, 205, dtype=np.int16))
    put(ctx, D, np.full(256, -1, np.int16))
    AscendC.CreateVecIndex(T(D, I16), 0, 16, 2, 1, 8)                       # 16 lanes of 2 repeats
    out = get(ctx, D, I16, 256)
    assert list(out[:16]) == list(range(16)) and list(out[128:144]) == list(range(128, 144))
    assert (out[16:128] == -1).all()


# -- the mask state ---------------------------------------------------------------------------------
def test_isSetMask_false_takes_the_mask_register(ctx):
    x = floats(128, F16, 15)
    put(ctx, A, x)
    put(ctx, D, np.zeros(128, np.float16))
    AscendC.SetMaskNorm()
    AscendC.SetVectorMask(np.float16, MaskMode.NORMAL, 0, 0b1011)            # lanes 0, 1, 3
    AscendC.Adds[np.float16, False](T(D, F16), T(A, F16), 1.0, AscendC.MASK_PLACEHOLDER, 1, UnaryRepeatParams())
    out = get(ctx, D, F16, 8)
    want = np.zeros(8, np.float16)
    want[[0, 1, 3]] = x[[0, 1, 3]] + np.float16(1)
    np.testing.assert_array_equal(out, want)
    AscendC.ResetMask()
    AscendC.Adds[np.float16, False](T(D, F16), T(A, F16), 1.0, 0, 1, UnaryRepeatParams())
    np.testing.assert_array_equal(get(ctx, D, F16, 128), x + np.float16(1))        # all ones again


def test_counter_mode_counts_elements_across_repeats(ctx):
    x = floats(300, F16, 16)
    put(ctx, A, x)
    put(ctx, D, np.zeros(512, np.float16))
    AscendC.SetMaskCount()
    AscendC.Adds(T(D, F16), T(A, F16), 1.0, [130, 0], 1, UnaryRepeatParams(1, 1, 8, 8))   # 130 elements, 2 repeats
    AscendC.SetMaskNorm()
    out = get(ctx, D, F16, 512)
    np.testing.assert_array_equal(out[:130], x[:130] + np.float16(1))
    assert (out[130:] == 0).all()
    ev = membase_vf(ctx)
    assert ev.meta["mask"] == "counter" and ops(ev)["RV_PLT"] == 2
    AscendC.SetMaskCount()                                                      # register form: SetVectorMask(len)
    AscendC.SetVectorMask(np.float16, MaskMode.COUNTER, 200)
    AscendC.Muls[np.float16, False](T(D, F16), T(A, F16), 2.0, 0, 1, UnaryRepeatParams())
    AscendC.SetMaskNorm()
    np.testing.assert_array_equal(get(ctx, D, F16, 200), x[:200] * np.float16(2))


def test_mask_state_is_per_core_and_reset_by_default():
    from toolkit.engine.runtime import CoreContext, running
    from toolkit.ascendc.membase.maskstate import DEFAULT, state_of
    c = CoreContext()
    with running(c):
        assert state_of(c) == DEFAULT
        AscendC.SetMaskCount()
        assert state_of(c).counter
    assert state_of(CoreContext()) == DEFAULT
