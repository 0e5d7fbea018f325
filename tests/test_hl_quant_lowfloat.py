"""The quantization family with the 8- / 4-bit float types (Python route): fp8 / hifloat8 / fp4 outputs of
Quantize / AscendQuant, fp8 / hifloat8 sources of AntiQuantize / AscendAntiQuant, against numpy references of
the pages' formulas (float32 arithmetic, then one rounding: ml_dtypes for fp8, the lowfloat tables for
hifloat8 / fp4), plus the .asc program tests/hl/lowfloat.asc (casts and quantizes, checks itself)."""
from __future__ import annotations

from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from tests.asc_support import build_and_run, needs_compiler
from tests.test_hl_quant import _cfg, expand, msgs, run
from toolkit.ascendc import lowfloat as L
from toolkit.ascendc.highlevel import quant as QN
from toolkit.ascendc.highlevel import quant_common as QC
from toolkit.ascendc.membase.params import RoundMode

HERE = Path(__file__).parent / "hl"
BF16 = np.dtype(ml_dtypes.bfloat16)
F16, F32 = np.dtype(np.float16), np.dtype(np.float32)
R = RoundMode


def _affine(x, s, o):
    t = x.astype(F32) * s.astype(F32)
    return (t + o.astype(F32)).astype(F32) if o is not None else t


@pytest.mark.parametrize("dst", [L.FP8_E4M3FN, L.FP8_E5M2, L.HIF8])
@pytest.mark.parametrize("policy,kdim", [(QC.CHANNEL, 1), (QC.TOKEN, 1), (QC.GROUP, 0), (QC.GROUP, 1)])
def test_quantize_b8_float_outputs(dst, policy, kdim):
    rng = np.random.default_rng(11)
    m, n, g = 4, 64, 32
    x = (rng.standard_normal(m * n) * 100).astype(F16)
    x[:4] = [1e4, -1e4, 0.0, -0.0]                                # overflow (Inf / NaN mode) and zeros
    shape = {QC.CHANNEL: (n,), QC.TOKEN: (m,), QC.GROUP: ((-(-m // g), n) if kdim == 0 else (m, -(-n // g)))}[policy]
    s = rng.uniform(0.5, 4, shape).astype(F32)
    b = rng.uniform(-2, 2, shape).astype(F32)
    mode = R.CAST_HYBRID if dst == L.HIF8 else R.CAST_FLOOR          # fp8: FLOOR falls back to RINT
    cfg = _cfg(policy, True, mode, kdim)
    y, res = run(lambda a, sc, of, o, t: QN.Quantize(o, a, sc, of, QC.QuantizeParams(m, n, g), config=cfg),
                 [x, s.ravel(), b.ravel()], dst, m * n)
    assert not msgs(res)
    v = _affine(x.reshape(m, n), expand(s, policy, m, n, g, kdim), expand(b, policy, m, n, g, kdim))
    want = L.hif8_hybrid(v) if dst == L.HIF8 else L.encode(v, dst, "RINT")
    np.testing.assert_array_equal(y.view(np.uint8).reshape(m, n), want)
    if dst == L.FP8_E4M3FN:
        ml = v.astype(ml_dtypes.float8_e4m3fn).view(np.uint8)         # independent: ml_dtypes
        np.testing.assert_array_equal(y.view(np.uint8).reshape(m, n), ml)


@pytest.mark.parametrize("dst", [L.FP4X2_E2M1, L.FP4X2_E1M2])
@pytest.mark.parametrize("mode", ["RINT", "FLOOR", "TRUNC"])
def test_ascend_quant_per_group_fp4(dst, mode):
    rng = np.random.default_rng(12)
    m, n, g = 3, 64, 32
    x = (rng.standard_normal(m * n) * 3).astype(BF16)
    s = rng.uniform(0.2, 1.5, (m, n // g)).astype(BF16)
    b = rng.uniform(-0.5, 0.5, (m, n // g)).astype(BF16)
    para = QC.AscendQuantParam(m, n, m * n, g)
    cfg = _cfg(0, True, getattr(R, "CAST_" + mode), 1)
    y, res = run(lambda a, sc, of, o, t: QN.AscendQuant(o, a, sc, of, para, config=cfg, policy=QC.GROUP),
                 [x, s.ravel(), b.ravel()], dst, m * n // 2)
    assert not msgs(res)
    v = _affine(x.reshape(m, n), expand(s, QC.GROUP, m, n, g, 1), expand(b, QC.GROUP, m, n, g, 1))
    bf = v.astype(BF16).astype(np.float64) if mode == "RINT" else v.astype(np.float64)
    want = L.pack4(L.encode(bf, dst, mode).reshape(m, n))
    np.testing.assert_array_equal(y.view(np.uint8).reshape(m, n // 2), want)


def test_ascend_quant_per_tensor_fp8_and_hifloat8_half_path():
    x = np.linspace(-60, 60, 256).astype(F16)
    for dst in (L.FP8_E5M2, L.HIF8):
        y, res = run(lambda a, o, t: QN.AscendQuant(o, a, t, 2.0, 0.5, 256), [x], dst, 256)
        assert not msgs(res)
        h = ((x * np.float16(2.0)).astype(F16) + np.float16(0.5)).astype(F16)       # the page's half steps
        want = (h.astype(F32).astype(ml_dtypes.float8_e5m2).view(np.uint8) if dst == L.FP8_E5M2
                else L.encode(h.astype(np.float64), L.HIF8, "ROUND"))
        np.testing.assert_array_equal(y.view(np.uint8), want)


def test_fp4_refused_outside_per_group():
    x = np.ones(64, F16)
    s = np.ones(64, F16)
    y, res = run(lambda a, sc, o, t: QN.Quantize(o, a, sc, 0.0, QC.QuantizeParams(1, 64),
                                                 config=_cfg(QC.CHANNEL, False)), [x, s], L.FP4X2_E2M1, 32)
    assert "BAD_PARAMETER" in res.diagnostics.codes()


@pytest.mark.parametrize("src", [L.FP8_E4M3FN, L.FP8_E5M2, L.HIF8])
def test_antiquant_fp8_and_hifloat8_sources(src):
    rng = np.random.default_rng(13)
    m, n = 4, 64
    codes = rng.integers(0, 256, m * n).astype(np.uint8)
    t = L.table(src)[codes]
    codes = np.where(np.isfinite(t), codes, 0).astype(np.uint8)        # finite sources
    x = codes.view(src)
    s = rng.uniform(-0.5, 0.5, n).astype(F16)
    b = rng.uniform(-2, 2, n).astype(F16)
    params = QC.AntiQuantizeParams(m, n, 0)
    y, res = run(lambda a, sc, of, o, t_: QN.AntiQuantize(o, a, sc, of, params, config=_cfg(QC.CHANNEL, True)),
                 [x, s, b], F16, m * n)
    assert not msgs(res)
    v = (L.table(src)[codes].reshape(m, n).astype(F32) + b.astype(F32)) * s.astype(F32)
    np.testing.assert_array_equal(y.reshape(m, n), v.astype(F32).astype(F16))
    info = QC.AntiQuantShapeInfo(1, n, 1, n)
    y, res = run(lambda a, of, sc, o, t_: QN.AscendAntiQuant(o, a, of, sc, t_, m, info, isTranspose=False),
                 [x, b, s], F16, m * n)
    assert not msgs(res)
    if src == L.HIF8:                                                  # the page's half steps
        h = L.table(src)[codes].reshape(m, n).astype(F16)
        want = ((h + b).astype(F16) * s).astype(F16)
    else:
        want = v.astype(F16)
    np.testing.assert_array_equal(y.reshape(m, n), want)


@needs_compiler
def test_lowfloat_asc_program_passes(tmp_path):
    run_ = build_and_run(HERE / "lowfloat.asc", cache=tmp_path / "cache")
    assert run_.failure is None and run_.exit_status == 0, (run_.failure, run_.stdout, run_.stderr)
    assert "PASS" in run_.stdout


def _fp4_case(rng, rows, n, dst):
    codes = rng.integers(0, 16, rows * n).astype(np.uint8)
    src = L.pack4(codes).view(L.FP4X2_E2M1)
    return codes, src


@pytest.mark.parametrize("transpose", [False, True])
@pytest.mark.parametrize("dst", [F16, BF16])
def test_ascend_antiquant_float4_e8m0_scale(transpose, dst):
    rng = np.random.default_rng(14)
    rows, n = 64, 64
    codes, src = _fp4_case(rng, rows, n, dst)
    shape = (rows, n // 32) if transpose else (rows // 32, n)
    e = rng.integers(120, 135, shape).astype(np.uint8)
    k = n if transpose else rows
    y, res = run(lambda a, s, o, t: QN.AscendAntiQuant(o, a, s, t, k, isTranspose=transpose),
                 [src, e.view(L.FP8_E8M0).ravel()], dst, rows * n)
    assert not msgs(res)
    i, j = np.meshgrid(np.arange(rows), np.arange(n), indexing="ij")
    sc = 2.0 ** (e.astype(np.float64) - 127)
    sc = sc[i, j // 32] if transpose else sc[i // 32, j]
    want = (L.table(L.FP4X2_E2M1)[codes].reshape(rows, n) * sc).astype(F32).astype(dst)
    np.testing.assert_array_equal(y.reshape(rows, n).astype(F32), want.astype(F32))


def test_antiquantize_per_group_float4():
    rng = np.random.default_rng(15)
    m, n, g = 4, 128, 64
    codes = rng.integers(0, 16, m * n).astype(np.uint8)
    src = L.pack4(codes).view(L.FP4X2_E1M2)
    e = rng.integers(125, 131, (m, n // g)).astype(np.uint8)
    cfg = _cfg(QC.GROUP, False, R.CAST_RINT, 1)
    y, res = run(lambda a, s, of, o, t: QN.AntiQuantize(o, a, s, of, QC.AntiQuantizeParams(m, n, g), config=cfg),
                 [src, e.view(L.FP8_E8M0).ravel(), e.view(L.FP8_E8M0).ravel()], BF16, m * n)
    assert not msgs(res)
    sc = 2.0 ** (e.astype(np.float64) - 127)
    want = L.table(L.FP4X2_E1M2)[codes].reshape(m, n) * np.repeat(sc, g, axis=1)
    np.testing.assert_array_equal(y.reshape(m, n).astype(np.float64), want.astype(F32).astype(BF16).astype(np.float64))
