"""The high-level math library (高阶API/数学计算, issue 21): every API against a float64 reference written
from its page's formula (Python's math module, numpy), special values, the overloads (sharedTmpBuffer or the
framework's space, calCount or the whole tensor, template arguments), the temporary-space rule shared with
the host queries, and the vendor-style .asc program on the .asc route."""
from __future__ import annotations

import json
import math
import re
from pathlib import Path

import numpy as np
import pytest
from api_support import get, put

from toolkit.ascendc.dtypes import BF16
from toolkit.ascendc.highlevel import math as HL
from toolkit.ascendc.highlevel.math_common import FRAMEWORK_TMP
from toolkit.ascendc.pipe import TBuf, TPipe
from toolkit.ascendc.tensor import LocalTensor as LT
from toolkit.cli import main
from toolkit.record.diagnostics import KernelAbort
from toolkit.record.events import BufferInit, VfCall

F32, F16, U8, I32, I64 = (np.dtype(t) for t in (np.float32, np.float16, np.uint8, np.int32, np.int64))
X, Y, Z, D, TMP = 0, 8192, 16384, 24576, 32768      # UB byte addresses (a TPipe below holds the first 64 KB)
N = 300
PROGRAM = Path(__file__).parent / "fixtures" / "hl_math" / "hl_math.asc"


@pytest.fixture
def core(ctx):
    pipe = TPipe()
    pipe.InitBuffer(TBuf(), 65536)
    return ctx


def _digamma(v: float) -> float:
    if v <= 0 and v == int(v):
        return math.nan
    if v < 0.5:
        return _digamma(1 - v) - math.pi / math.tan(math.pi * v)
    r = 0.0
    while v < 20:
        r -= 1 / v
        v += 1
    return r + math.log(v) - 1 / (2 * v) - 1 / (12 * v * v) + 1 / (120 * v ** 4) - 1 / (252 * v ** 6)


def vec(f):
    return np.vectorize(f, otypes=[np.float64])


UNARY = {
    "Sin": (np.sin, -20, 20), "Cos": (np.cos, -20, 20), "Tan": (np.tan, -1.5, 1.5), "Asin": (np.arcsin, -1, 1),
    "Acos": (np.arccos, -1, 1), "Atan": (np.arctan, -50, 50), "Sinh": (np.sinh, -10, 10), "Cosh": (np.cosh, -10, 10),
    "Tanh": (np.tanh, -6, 6), "Asinh": (np.arcsinh, -100, 100), "Acosh": (np.arccosh, 1, 100),
    "Atanh": (np.arctanh, -0.99, 0.99), "Log": (np.log, 1e-3, 1e3), "Log2": (np.log2, 1e-3, 1e3),
    "Log10": (np.log10, 1e-3, 1e3), "Erf": (vec(math.erf), -4, 4), "Erfc": (vec(math.erfc), -3, 6),
    "Lgamma": (vec(math.lgamma), 0.1, 30), "Digamma": (vec(_digamma), 0.1, 30), "Floor": (np.floor, -50, 50),
    "Ceil": (np.ceil, -50, 50), "Trunc": (np.trunc, -50, 50), "Rint": (np.rint, -50, 50),
    "Round": (lambda v: np.sign(v) * np.floor(np.abs(v) + 0.5), -50, 50), "Frac": (lambda v: v - np.trunc(v), -50, 50),
    "Sign": (np.sign, -2, 2),
}


def run1(core, name, x, dt, n=None, tmp=TMP, tmp_bytes=32768):
    n = len(x) if n is None else n
    put(core, X, x.astype(dt))
    args = (LT(D, dt, n), LT(X, dt, n)) + ((LT(tmp, U8, tmp_bytes),) if tmp is not None else ()) + (n,)
    getattr(HL, name)(*args)
    return get(core, D, dt, n).astype(np.float64)


def close(got, ref, rtol, atol):
    with np.errstate(invalid="ignore"):
        bad = ~(np.abs(got - ref) <= atol + rtol * np.abs(ref)) & ~(np.isnan(got) & np.isnan(ref)) & (got != ref)
    assert not bad.any(), list(zip(got[bad][:5], ref[bad][:5]))


@pytest.mark.parametrize("name", sorted(UNARY))
@pytest.mark.parametrize("dt", [F32, F16])
def test_unary_apis_match_the_float64_formula(core, name, dt):
    ref, lo, hi = UNARY[name]
    x = np.random.default_rng(7).uniform(lo, hi, N).astype(dt)
    got = run1(core, name, x, dt)
    want = ref(x.astype(np.float64))
    if dt == F32:      # float32 working precision: a few ulp; lgamma / digamma absolute near their roots
        close(got, want, 2e-6, 2e-6 if name in ("Lgamma", "Digamma") else 1e-30)
    else:              # half: one rounding of the float32 result (2**-11) plus the working error
        close(got, want, 1.5e-3, 1e-4)


SPECIAL = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -3.0, 5.0], np.float32)
SPECIAL_WANT = {
    "Sin": [np.nan, np.nan, np.nan, 0, 0, math.sin(1), math.sin(-3), math.sin(5)],
    "Cos": [np.nan, np.nan, np.nan, 1, 1, math.cos(1), math.cos(-3), math.cos(5)],
    "Tanh": [np.nan, 1, -1, 0, 0, math.tanh(1), math.tanh(-3), math.tanh(5)],
    "Atan": [np.nan, math.pi / 2, -math.pi / 2, 0, 0, math.pi / 4, math.atan(-3), math.atan(5)],
    "Erf": [np.nan, 1, -1, 0, 0, math.erf(1), math.erf(-3), math.erf(5)],
    "Erfc": [np.nan, 0, 2, 1, 1, math.erfc(1), math.erfc(-3), math.erfc(5)],
    "Log": [np.nan, np.inf, np.nan, -np.inf, -np.inf, 0, np.nan, math.log(5)],
    "Asin": [np.nan, np.nan, np.nan, 0, 0, math.pi / 2, np.nan, np.nan],
    "Sinh": [np.nan, np.inf, -np.inf, 0, 0, math.sinh(1), math.sinh(-3), math.sinh(5)],
    "Cosh": [np.nan, np.inf, np.inf, 1, 1, math.cosh(1), math.cosh(-3), math.cosh(5)],
    "Lgamma": [np.nan, np.inf, np.nan, np.inf, np.inf, 0, np.inf, math.lgamma(5)],
    "Floor": [np.nan, np.inf, -np.inf, 0, 0, 1, -3, 5],
    "Sign": [0, 1, -1, 0, 0, 1, -1, 1],                 # Sign(NaN) = 0 (assumed: the page defines the 3 signs)
}


@pytest.mark.parametrize("name", sorted(SPECIAL_WANT))
def test_special_values(core, name):
    got = run1(core, name, SPECIAL, F32)
    close(got, np.array(SPECIAL_WANT[name], np.float64), 1e-6, 1e-6)


@pytest.mark.parametrize("name,want", [("Round", [1, 2, 3, -1, -2, -3]), ("Rint", [0, 2, 2, 0, -2, -2]),
                                       ("Trunc", [0, 1, 2, 0, -1, -2]), ("Ceil", [1, 2, 3, 0, -1, -2]),
                                       ("Floor", [0, 1, 2, -1, -2, -3])])
def test_rounding_at_halves(core, name, want):
    x = np.array([0.5, 1.5, 2.5, -0.5, -1.5, -2.5], np.float32)
    for dt in (F32, F16):
        assert list(run1(core, name, x, dt)) == want


def test_exp_taylor_levels(core):
    x = np.linspace(-5, 5, 64).astype(np.float32)
    put(core, X, x)
    for level, rtol in ((0, 2.5e-7), (10, 1e-6), (15, 1e-6), (3, 2e-2)):
        HL.HLExp[F32, level, False](LT(D, F32, 64), LT(X, F32, 64), LT(TMP, U8, 4096), 64)
        close(get(core, D, F32, 64).astype(np.float64), np.exp(x.astype(np.float64)), rtol, 0)
    HL.HLExp[F16, 12, False](LT(D, F16, 64), LT(X, F32, 64).ReinterpretCast(F16), 64)   # framework tmp


def test_exp_and_axpy_share_the_basic_names(core):
    """The bridge reaches the high-level Exp through the basic MemBase Exp's name when taylorExpandLevel is a
    template argument; the high-level Axpy form takes a sharedTmpBuffer before calCount."""
    from toolkit.ascendc import membase as MB
    from toolkit.ascendc.dtypes import TemplateValue
    x = np.linspace(-3, 3, 64).astype(np.float32)
    put(core, X, x)
    MB.Exp[(TemplateValue("taylorExpandLevel", 14), TemplateValue("isReuseSource", 0))](
        LT(D, F32, 64), LT(X, F32, 64), LT(TMP, U8, 4096), 64)
    close(get(core, D, F32, 64).astype(np.float64), np.exp(x.astype(np.float64)), 1e-6, 0)
    put(core, D, np.ones(64, np.float32))
    MB.Axpy(LT(D, F32, 64), LT(X, F32, 64), 2.0, LT(TMP, U8, 32), 64)
    np.testing.assert_array_equal(get(core, D, F32, 64), (1 + 2 * x.astype(np.float64)).astype(np.float32))


BINARY = {"Fmod": (np.fmod, (-9, 9), (0.5, 4)), "Hypot": (np.hypot, (-1e3, 1e3), (-1e3, 1e3)),
          "Power": (np.power, (0.1, 8), (-4, 4))}


@pytest.mark.parametrize("name", sorted(BINARY))
@pytest.mark.parametrize("dt", [F32, F16, BF16])
def test_two_operand_apis(core, name, dt):
    if dt == BF16 and name == "Fmod":
        pytest.skip("Fmod lists half and float")
    ref, (a0, a1), (b0, b1) = BINARY[name]
    rng = np.random.default_rng(3)
    a, b = rng.uniform(a0, a1, N).astype(np.float32).astype(dt), rng.uniform(b0, b1, N).astype(np.float32).astype(dt)
    put(core, X, a)
    put(core, Y, b)
    getattr(HL, name)(LT(D, dt, N), LT(X, dt, N), LT(Y, dt, N), LT(TMP, U8, 32768), N)
    got = get(core, D, dt, N).astype(np.float32).astype(np.float64)
    want = ref(a.astype(np.float64), b.astype(np.float64))
    tol = {F32: 3e-6 if name == "Power" else 2e-7, F16: 1.5e-3, BF16: 1e-2}[dt]
    close(got, want, tol, 1e-6 * (name == "Fmod"))


def test_power_forms_and_special_exponents(core):
    a = np.array([-2, -2, -8, 0, 0, 2, -1.5, 3], np.float32)
    b = np.array([3, 2, 1 / 3, 0, -1, 0.5, 2, 0], np.float32)
    put(core, X, a)
    put(core, Y, b)
    HL.Power(LT(D, F32, 8), LT(X, F32, 8), LT(Y, F32, 8), 8)
    close(get(core, D, F32, 8).astype(np.float64), np.array([-8, 4, np.nan, 1, np.inf, math.sqrt(2), 2.25, 1]),
          1e-6, 0)
    HL.Power(LT(D, F32, 8), LT(X, F32, 8), 2.0, LT(TMP, U8, 8192), 8)
    close(get(core, D, F32, 8).astype(np.float64), a.astype(np.float64) ** 2, 1e-6, 0)
    HL.Power(LT(D, F32, 8), 2.0, LT(Y, F32, 8), 8)
    close(get(core, D, F32, 8).astype(np.float64), 2.0 ** b.astype(np.float64), 1e-6, 0)


def test_fma_sincos_and_clamps(core):
    a, b, c = (np.random.default_rng(k).uniform(-3, 3, 64).astype(np.float32) for k in (1, 2, 3))
    put(core, X, a)
    put(core, Y, b)
    put(core, Z, c)
    HL.Fma(LT(D, F32, 64), LT(X, F32, 64), LT(Y, F32, 64), LT(Z, F32, 64), 64)
    want = (a.astype(np.float64) * b + c).astype(np.float32)            # one rounding
    np.testing.assert_array_equal(get(core, D, F32, 64), want)
    HL.SinCos(LT(D, F32, 64), LT(D + 512, F32, 64), LT(X, F32, 64), LT(TMP, U8, 16384), 64)
    close(get(core, D, F32, 64).astype(np.float64), np.sin(a.astype(np.float64)), 2e-7, 1e-7)
    close(get(core, D + 512, F32, 64).astype(np.float64), np.cos(a.astype(np.float64)), 2e-7, 1e-7)
    HL.ClampMax(LT(D, F32, 64), LT(X, F32, 64), LT(TMP, U8, 4096), 0.5, 64)
    np.testing.assert_array_equal(get(core, D, F32, 64), np.minimum(a, 0.5))
    HL.ClampMin[F16, False](LT(D, F16, 64), LT(X, F16, 64), 0.25, 64)
    np.testing.assert_array_equal(get(core, D, F16, 64), np.maximum(get(core, X, F16, 64), np.float16(0.25)))


@pytest.mark.parametrize("dt", [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64])
def test_bitwise_apis_every_integer_type(core, dt):
    dt = np.dtype(dt)
    rng = np.random.default_rng(5)
    a, b = (rng.integers(0, 256, 100 * dt.itemsize, dtype=np.uint8).view(dt) for _ in range(2))
    put(core, X, a)
    put(core, Y, b)
    for name, ref in (("BitwiseAnd", a & b), ("BitwiseOr", a | b), ("BitwiseXor", a ^ b)):
        getattr(HL, name)(LT(D, dt, 100), LT(X, dt, 100), LT(Y, dt, 100), 100)
        np.testing.assert_array_equal(get(core, D, dt, 100), ref, name)
    HL.BitwiseNot(LT(D, dt, 100), LT(X, dt, 100), 100)
    np.testing.assert_array_equal(get(core, D, dt, 100), ~a)
    if dt in (np.dtype(np.int16), np.dtype(np.uint16)):
        HL.Xor(LT(D, dt, 100), LT(X, dt, 100), LT(Y, dt, 100), LT(TMP, U8, 4096), 100)
        np.testing.assert_array_equal(get(core, D, dt, 100), a ^ b)


@pytest.mark.parametrize("dt", [U8, np.dtype(np.int8), np.dtype(np.int16), I32, I64, F16, BF16, F32])
def test_logical_apis(core, dt):
    a = np.array([1, 0, 3, 0, 5, 0, -7, 0] * 9, np.float32).astype(dt)
    b = np.array([1, 1, 0, 0, 2, 2, 0, 0] * 9, np.float32).astype(dt)
    n = a.size
    put(core, X, a)
    put(core, Y, b)
    ta, tb = a.astype(np.float32) != 0, b.astype(np.float32) != 0
    for name, ref in (("LogicalAnd", ta & tb), ("LogicalOr", ta | tb), ("LogicalXor", ta ^ tb)):
        getattr(HL, name)(LT(D, U8, n), LT(X, dt, n), LT(Y, dt, n), n)
        np.testing.assert_array_equal(get(core, D, U8, n), ref.astype(np.uint8), name)
    HL.LogicalNot(LT(D, U8, n), LT(X, dt, n), n)
    np.testing.assert_array_equal(get(core, D, U8, n), (~ta).astype(np.uint8))
    HL.LogicalAnds(LT(D, U8, n), LT(X, dt, n), 0, n)
    assert not get(core, D, U8, n).any()
    HL.LogicalOrs(LT(D, U8, n), 0, LT(X, dt, n), n)
    np.testing.assert_array_equal(get(core, D, U8, n), ta.astype(np.uint8))
    HL.LogicalAnds(LT(D, U8, n), LT(X, dt, n), LT(Y + 2 * dt.itemsize, dt, 1), n)    # src1[0] = 0: all false
    assert not get(core, D, U8, n).any()
    HL.LogicalAnds(LT(D, U8, n), LT(Y, dt, 1), LT(X, dt, n), n, config=0)           # src0[0] = 1 is the scalar
    np.testing.assert_array_equal(get(core, D, U8, n), ta.astype(np.uint8))


@pytest.mark.parametrize("dst", [U8, F16, F32])
@pytest.mark.parametrize("src", [F16, F32])
def test_classification(core, dst, src):
    x = np.tile(SPECIAL, 5).astype(src)
    put(core, X, x)
    for name, ref in (("IsNan", np.isnan(x)), ("IsInf", np.isinf(x)), ("IsFinite", np.isfinite(x))):
        getattr(HL, name)(LT(D, dst, x.size), LT(X, src, x.size), x.size)
        np.testing.assert_array_equal(get(core, D, dst, x.size), ref.astype(dst), name)


def test_where_and_clamp_every_operand_kind(core):
    a = np.arange(70, dtype=np.int32) - 30
    b = -a
    cond = (np.arange(70) % 3 == 0).astype(np.uint8)
    put(core, X, a)
    put(core, Y, b)
    put(core, Z, cond)
    tA, tB, tC, d = LT(X, I32, 70), LT(Y, I32, 70), LT(Z, U8, 70), LT(D, I32, 70)
    for s0, s1, ref in ((tA, tB, np.where(cond, a, b)), (tA, 9, np.where(cond, a, 9)), (-4, tB, np.where(cond, -4, b)),
                        (1, 2, np.where(cond, 1, 2))):
        HL.Where(d, s0, s1, tC, 70)
        np.testing.assert_array_equal(get(core, D, I32, 70), ref)
    put(core, Z, np.full(70, 5, np.int32))
    for lo, hi, ref in ((-3, 4, np.clip(a, -3, 4)), (LT(Z, I32, 70), 20, np.clip(a, 5, 20)), (10, 3, np.full(70, 3))):
        HL.Clamp(d, tA, lo, hi, 70)
        np.testing.assert_array_equal(get(core, D, I32, 70), ref)
    put(core, X, np.array([np.nan, -9, 9, 0.5], np.float32))
    HL.Clamp(LT(D, F32, 4), LT(X, F32, 4), -1.0, 1.0, 4)
    close(get(core, D, F32, 4).astype(np.float64), np.array([np.nan, -1, 1, 0.5]), 0, 0)


def test_int64_sign(core):
    x = np.array([5, -3, 0, 2**62, -2**62, 1, -1, 0], np.int64)
    put(core, X, x)
    HL.Sign(LT(D, I64, 8), LT(X, I64, 8), 8)
    np.testing.assert_array_equal(get(core, D, I64, 8), np.sign(x))


# -- the shape: temporary space, chunks, overloads, records --------------------------------------------------
def test_a_minimum_size_buffer_runs_in_chunks_to_the_same_result(core):
    x = np.random.default_rng(2).uniform(-1, 1, 1000).astype(np.float32)
    _, small = HL.max_min_tmp_size("Asin", 1000, 4)
    full = run1(core, "Asin", x, F32)
    calls = len([e for e in core.events if isinstance(e, VfCall)])
    chunked = run1(core, "Asin", x, F32, tmp_bytes=small)
    np.testing.assert_array_equal(chunked, full)
    assert len([e for e in core.events if isinstance(e, VfCall)]) - calls > calls   # 16 chunks of 64


def test_a_buffer_below_the_minimum_is_a_bad_parameter(core):
    _, small = HL.max_min_tmp_size("Asin", N, 4)
    with pytest.raises(KernelAbort, match="BAD_PARAMETER"):
        run1(core, "Asin", np.zeros(N, np.float32), F32, tmp_bytes=small - 32)


def test_without_a_buffer_the_framework_space_is_one_ub_plan_row(core):
    x = np.linspace(-1, 1, N).astype(np.float32)
    a = run1(core, "Atan", x, F32, tmp=None)
    b = run1(core, "Tanh", x, F32, tmp=None)
    rows = [e for e in core.events if isinstance(e, BufferInit) and e.name == FRAMEWORK_TMP]
    assert len(rows) == 1 and rows[0].addr == 65536
    close(a, np.arctan(x.astype(np.float64)), 2e-7, 0)
    close(b, np.tanh(x.astype(np.float64)), 2e-7, 0)


def test_a_kernel_without_a_tpipe_must_pass_a_buffer(ctx):
    put(ctx, X, np.zeros(64, np.float32))
    with pytest.raises(KernelAbort, match="no TPipe"):
        HL.Atan(LT(D, F32, 64), LT(X, F32, 64), 64)


def test_without_calcount_the_whole_tensor_and_the_tail_is_kept(core):
    put(core, D, np.full(80, 7, np.float32))
    put(core, X, np.linspace(0, 1, 64).astype(np.float32))
    HL.Erf[F32, True](LT(D, F32, 64), LT(X, F32, 64), LT(TMP, U8, 8192))
    out = get(core, D, F32, 80)
    close(out[:64].astype(np.float64), vec(math.erf)(np.linspace(0, 1, 64).astype(np.float32)), 2e-7, 1e-8)
    assert (out[64:] == 7).all()


def test_each_call_is_a_kernel_over_membase_vfs(core):
    run1(core, "Lgamma", np.linspace(0.5, 9, 64).astype(np.float32), F32)
    vfs = [e for e in core.events if isinstance(e, VfCall)]
    assert len(vfs) > 30 and {v.launch for v in vfs} == {"membase"}
    names = {v.name for v in vfs}
    assert {"Ln", "Mul", "Select", "Compares"} <= names


def test_host_queries_follow_the_rule():
    assert HL.max_min_tmp_size("Sin", 256, 4) == (7 * 4 * 256, 7 * 4 * 64)
    assert HL.max_min_tmp_size("Sin", 256, 2) == (9 * 4 * 256, 9 * 4 * 64)        # + the float copies
    assert HL.max_min_tmp_size("Floor", 1000, 4) == (0, 0)
    live, extra = HL.tmp_buffer_factor_size("Erf", 2)
    assert (live, extra) == (HL.RULES["Erf"].nodes(2, 2) * 4 // 2, 0)
    for name in HL.RULES:                # the factor gives a chunk that fits: currBuff / live / typeSize elements
        for ts in (2, 4):
            live, _ = HL.tmp_buffer_factor_size(name, ts)
            mx, _ = HL.max_min_tmp_size(name, 1024, ts)
            assert live * ts * 1024 == mx


# -- the .asc route and the CLI --------------------------------------------------------------------------------
@pytest.mark.usefixtures("needs_cc")
def test_vendor_style_program_passes_and_its_host_queries_agree(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("MIGRATE_CHECK_CACHE", str(tmp_path / "cache"))
    code = main(["run", str(PROGRAM)])
    out = capsys.readouterr().out
    assert code == 0 and "\nPASS\n" in out, out[-3000:]
    figures = {m[0]: (int(m[1]), int(m[2])) for m in re.findall(r"tmp (\w+ \w+) max (\d+) min (\d+)", out)}
    assert figures["Sin float"] == HL.max_min_tmp_size("Sin", 256, 4)
    assert figures["Lgamma float"] == HL.max_min_tmp_size("Lgamma", 256, 4)
    assert figures["Power float"] == HL.max_min_tmp_size("Power", 256, 4)
    assert figures["Sin half"] == HL.max_min_tmp_size("Sin", 256, 2)
    from toolkit.ascendc.highlevel.math_cumsum import tmp_bytes
    assert figures["CumSum float"] == (tmp_bytes(8, 32, 4, True),) * 2
    assert re.search(r"factor Erf half (\d+) (\d+)", out).groups() == tuple(map(str, HL.tmp_buffer_factor_size("Erf", 2)))
    assert FRAMEWORK_TMP in out


@pytest.fixture
def needs_cc():
    from tests.asc_support import HAVE_COMPILER
    if not HAVE_COMPILER:
        pytest.skip("no C++ compiler")


def test_api_command_shows_the_algorithm_notes(tmp_path, capsys):
    assert main(["api", "--family", "数学计算"]) == 0
    text = capsys.readouterr().out
    assert re.search(r"AscendC::Asin: 4 forms \(emulated 4; documented 4\) -- algorithm: assumed \(Cephes", text)
    out = tmp_path / "api.json"
    assert main(["api", "--family", "数学计算", "--json", str(out)]) == 0
    fam = json.loads(out.read_text(encoding="utf-8"))["families"][0]
    notes = {a["name"]: a["note"] for a in fam["implemented_apis"]}
    assert notes["AscendC::Erf"].startswith("algorithm: assumed") and notes["AscendC::Floor"]
    assert fam["implemented"] >= 140


@pytest.mark.parametrize("dt", [F32, F16])
@pytest.mark.parametrize("shape", [(3, 16), (13, 48), (1, 32)])
@pytest.mark.parametrize("config", [0, 1, 2, 3])         # bit 0 isLastAxis, bit 1 outputLastRow
def test_cumsum_both_axes_and_the_last_row(core, dt, shape, config):
    from toolkit.ascendc.highlevel.math_cumsum import tmp_bytes
    o, i = shape
    x = np.random.default_rng(1).uniform(-2, 2, shape).astype(dt)
    put(core, X, x)
    put(core, Z, np.full(i, 5, dt))
    need = tmp_bytes(o, i, dt.itemsize, bool(config & 1))
    HL.CumSum(LT(D, dt, o * i), LT(Z, dt, i), LT(X, dt, o * i), LT(TMP, U8, max(need, 32)), HL.CumSumInfo(o, i),
              config=config)
    want = np.cumsum(x.astype(np.float64), axis=1 if config & 1 else 0)
    got = get(core, D, dt, o * i).reshape(shape).astype(np.float64)
    close(got, want, 2e-6 if dt == F32 else 2e-3, 1e-5 if dt == F32 else 4e-3)
    last = get(core, Z, dt, i).astype(np.float64)
    if config & 2:
        np.testing.assert_array_equal(last, got[-1])
    else:
        assert (last == 5).all()
    if need:
        with pytest.raises(KernelAbort, match="BAD_PARAMETER"):
            HL.CumSum(LT(D, dt, o * i), LT(Z, dt, i), LT(X, dt, o * i), LT(TMP, U8, need - 32), HL.CumSumInfo(o, i),
                      config=config)


@pytest.mark.parametrize("dt", [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32])
def test_integer_power_wraps_like_the_type(core, dt):
    dt = np.dtype(dt)
    rng = np.random.default_rng(0)
    a = rng.integers(-5 if dt.kind == "i" else 0, 9, 100).astype(dt)
    e = rng.integers(-2 if dt.kind == "i" else 0, 13, 100).astype(dt)
    put(core, X, a)
    put(core, Y, e)
    HL.Power(LT(D, dt, 100), LT(X, dt, 100), LT(Y, dt, 100), 100)
    want = []
    for x, k in zip(a.tolist(), e.tolist()):
        v = (1 if x == 1 else (-1) ** k if x == -1 else 0) if k < 0 else x ** k
        want.append(v % (1 << (8 * dt.itemsize)))
    np.testing.assert_array_equal(get(core, D, dt, 100), np.array(want, np.uint64).astype(dt))
    HL.Power(LT(D, dt, 100), LT(X, dt, 100), 3, 100)                      # a scalar exponent
    np.testing.assert_array_equal(get(core, D, dt, 100),
                                  np.array([x ** 3 % (1 << (8 * dt.itemsize)) for x in a.tolist()], np.uint64).astype(dt))


def test_a_form_that_names_its_page_is_credited_to_that_pages_family():
    from toolkit.ascendc.catalog import coverage
    entries = [{"name": "AscendC::Exp", "family": fam, "kind": "function", "forms": ["f"], "in_scope": True,
                "out_of_scope": None, "aliases": [], "supported_950": "yes"}
               for fam in ("基础API/Memory矢量计算", "高阶API/数学计算")]
    basic_only = coverage.coverage(entries, {"AscendC::Exp": ["emulated: void Exp(dst, src, n)"]})
    assert [f["implemented"] for f in basic_only["families"]] == [1, 0]
    high_form = "emulated: void Exp<T, 15>(dst, src, tmp, n)"
    entries[0]["pages"], entries[1]["pages"] = ["基础API/Memory矢量计算/Exp.md"], ["高阶API/数学计算/Exp接口/Exp-81.md"]
    both = coverage.coverage(entries, {"AscendC::Exp": ["emulated: void Exp(dst, src, n)", high_form]}, entries,
                             {"AscendC::Exp": {"emulated: void Exp(dst, src, n)": "基础API/Memory矢量计算/Exp.md",
                                               high_form: "高阶API/数学计算/Exp接口/Exp-81.md"}})
    basic, high = both["families"]
    assert basic["implemented"] == high["implemented"] == 1
    assert high["implemented_apis"][0]["forms"] == [high_form]
    assert len(basic["implemented_apis"][0]["forms"]) == 1


def test_a_tmp_buffer_over_an_operand_or_a_count_beyond_the_tensors_is_a_bad_parameter(core):
    put(core, X, np.zeros(64, np.float32))
    with pytest.raises(KernelAbort, match="overlaps"):
        HL.Asin(LT(D, F32, 64), LT(X, F32, 64), LT(X, U8, 8192), 64)
    with pytest.raises(KernelAbort, match="more than the tensors hold"):
        HL.Asin(LT(D, F32, 64), LT(X, F32, 64), LT(TMP, U8, 8192), 65)
