"""The high-level quantization family (高阶API/量化操作): the Python route against numpy references written
from the pages' formulas (exact for integer outputs; float outputs exact too, as the reference runs the same
float32 / half operations in the same order), the pages' examples, tails and per-channel / token / group
forms, and the vendor-style .asc program (tests/hl/quant.asc); the buffer / parameter checks and the host
queries are tests/test_hl_quant_checks.py."""
from __future__ import annotations

from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from tests.asc_support import build_and_run, needs_compiler
from toolkit.ascendc.dma import DataCopyExtParams, DataCopyPad, DataCopyPadExtParams
from toolkit.ascendc.highlevel import quant as QN
from toolkit.ascendc.highlevel import quant_common as QC
from toolkit.ascendc.membase.params import RoundMode
from toolkit.ascendc.pipe import TBuf, TPipe, TPosition
from toolkit.ascendc.tensor import GlobalTensor, gm_cast
from toolkit.engine.launch import gm_alloc, launch

HERE = Path(__file__).parent / "hl"
BF16 = np.dtype(ml_dtypes.bfloat16)
F16, F32, I8, I32 = np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.int8), np.dtype(np.int32)


def _pad(nbytes: int) -> int:
    return (nbytes + 31) // 32 * 32


def run(body, ins: list[np.ndarray], out_dtype, out_count: int, tmp_bytes: int = 16384):
    """One core: each input to UB, ``body(*in_tensors, out, tmp)``, out back; (out array, launch result)."""
    out_dtype = np.dtype(out_dtype)
    sizes = [_pad(a.nbytes) for a in ins]
    out_bytes = _pad(out_count * out_dtype.itemsize)

    def kernel(*addrs):
        pipe = TPipe()
        buf, tb = TBuf(TPosition.VECCALC), TBuf(TPosition.VECCALC)
        pipe.InitBuffer(buf, sum(sizes) + out_bytes)
        pipe.InitBuffer(tb, tmp_bytes)
        w = buf.Get(np.uint8)
        tensors, off = [], 0
        for a, addr, size in zip(ins, addrs, sizes):
            g = GlobalTensor(np.uint8)
            g.SetGlobalBuffer(gm_cast(np.uint8, addr))
            DataCopyPad(w[off], g, DataCopyExtParams(1, a.nbytes, 0, 0, 0), DataCopyPadExtParams(False, 0, 0, 0))
            tensors.append(w[off].ReinterpretCast(a.dtype))
            tensors[-1].count = a.size
            off += size
        out = w[off].ReinterpretCast(out_dtype)
        out.count = out_count
        from toolkit.ascendc import membase as MB
        MB.Duplicate(w[off].ReinterpretCast(np.uint16), 0, out_bytes // 2)
        body(*tensors, out, tb.Get(np.uint8))
        og = GlobalTensor(np.uint8)
        og.SetGlobalBuffer(gm_cast(np.uint8, addrs[-1]))
        DataCopyPad(og, w[off], DataCopyExtParams(1, out_count * out_dtype.itemsize, 0, 0, 0))
    gm = [gm_alloc(f"in{k}", np.ascontiguousarray(a).view(np.uint8).ravel()) for k, a in enumerate(ins)]
    gm.append(gm_alloc("out", out_count * out_dtype.itemsize))
    res = launch(kernel, 1, gm)
    return gm[-1].buf.data.view(out_dtype)[:out_count].copy(), res


def msgs(res) -> list[str]:
    return [d.one_line() for d in res.diagnostics]


def _codes(res) -> list[str]:
    return res.diagnostics.codes()


# -- references (the pages' formulas) ------------------------------------------------------------------------
def round_int8(v: np.ndarray, mode: str = "RINT") -> np.ndarray:
    v = v.astype(np.float64)
    r = {"RINT": np.rint, "FLOOR": np.floor, "CEIL": np.ceil, "TRUNC": np.trunc,
         "ROUND": lambda a: np.sign(a) * np.floor(np.abs(a) + 0.5)}[mode](v)
    r = np.where(np.isnan(r), 0, r)
    return np.clip(r, -128, 127).astype(np.int8)


def ref_ascend_quant_half(x, scale, offset):
    """The page's half steps: to half, * scale, + offset (half arithmetic), round half to even to int8."""
    h = x.astype(F16)
    t = (h * np.asarray(scale).astype(F16)).astype(F16)
    t = (t + np.asarray(offset).astype(F16)).astype(F16)
    return round_int8(t, "RINT")


def ref_float_quant(x, s, o, mode="RINT"):
    t = x.astype(F32) * s.astype(F32)
    if o is not None:
        t = (t + o.astype(F32)).astype(F32)
    return round_int8(t, mode)


def expand(p: np.ndarray, policy: int, m: int, n: int, g: int = 1, kdim: int = 1) -> np.ndarray:
    """The [m, n] array of a scale / offset under a policy (the pages' index formulas)."""
    i, j = np.meshgrid(np.arange(m), np.arange(n), indexing="ij")
    p = np.asarray(p)
    if policy == QC.TENSOR:
        return np.broadcast_to(p.reshape(-1)[0], (m, n))
    if policy == QC.CHANNEL:
        return p.reshape(-1)[j]
    if policy == QC.TOKEN:
        return p.reshape(-1)[i]
    if kdim == 0:
        return p.reshape(-1, n)[i // g, j]
    ng = -(-n // g)
    return p.reshape(m, ng)[i, j // g]


SRC = {"half": F16, "bfloat16_t": BF16, "float": F32}


# -- AscendQuant ----------------------------------------------------------------------------------------------
def test_ascend_quant_per_tensor_page_example_with_tail():
    x = np.arange(-512, 512).astype(np.float32)
    for dt in (F16, F32):
        xin = x.astype(dt)
        y, res = run(lambda s, o, t: QN.AscendQuant(o, s, t, 0.02, 0.9, 1022), [xin], I8, 1024)
        assert not msgs(res)
        ref = ref_ascend_quant_half(xin[:1022], 0.02, 0.9)
        np.testing.assert_array_equal(y[:1022], ref)
        assert list(y[:3]) == [-9, -9, -9] and y[1021] == 11
        assert (y[1022:] == 0).all()                               # past calCount: untouched


@pytest.mark.parametrize("dt", [F16, F32, BF16])
def test_ascend_quant_per_channel_tensor_and_scalar_offset(dt):
    rng = np.random.default_rng(1)
    sc, rows = 64, 16
    x = (rng.standard_normal(sc * rows) * 300).astype(dt)
    scale = np.full(sc, 0.02, dt)
    offset = (1.01 + 0.01 * np.arange(sc)).astype(dt)
    cal = sc * (rows - 1)
    y, res = run(lambda a, s, b, o, t: QN.AscendQuant(o, a, t, s, b, sc, sc, cal), [x, scale, offset], I8, x.size)
    assert not msgs(res)
    ref = ref_ascend_quant_half(x[:cal], np.tile(scale, rows - 1), np.tile(offset, rows - 1))
    np.testing.assert_array_equal(y[:cal], ref)
    assert (y[cal:] == 0).all()
    y2, res = run(lambda a, s, o, t: QN.AscendQuant(o, a, s, dt.type(0.5)), [x, scale], I8, x.size)
    assert not msgs(res)
    np.testing.assert_array_equal(y2, ref_ascend_quant_half(x, np.tile(scale, rows), 0.5))


def test_ascend_quant_saturates_and_rounds_half_to_even():
    x = np.array([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 300, -300, 127.5, -128.5, np.inf, -np.inf] + [0] * 4, F16)
    y, res = run(lambda s, o, t: QN.AscendQuant(o, s, t, 1.0, 0.0), [x], I8, x.size)
    assert not msgs(res)
    assert list(y[:12]) == [0, 2, 2, 0, -2, -2, 127, -128, 127, -128, 127, -128]


def _cfg(policy, has_offset=True, mode=RoundMode.CAST_RINT, kdim=1, transpose=False):
    return QC.QuantCfg(policy, has_offset, transpose, mode, kdim).pack()


@pytest.mark.parametrize("src,scl", [("half", "half"), ("bfloat16_t", "float"), ("float", "float"),
                                     ("half", "float"), ("bfloat16_t", "bfloat16_t")])
@pytest.mark.parametrize("policy,kdim", [(QC.TOKEN, 1), (QC.GROUP, 0), (QC.GROUP, 1)])
def test_ascend_quant_per_token_and_group(src, scl, policy, kdim):
    rng = np.random.default_rng(2)
    m, n, g = 6, 96, 64
    x = (rng.standard_normal(m * n) * 40).astype(SRC[src])
    shape = {QC.TOKEN: (m,), QC.GROUP: ((-(-m // g), n) if kdim == 0 else (m, -(-n // g)))}[policy]
    s = (rng.uniform(0.5, 2, shape)).astype(SRC[scl])
    b = (rng.uniform(-3, 3, shape)).astype(SRC[scl])
    para = QC.AscendQuantParam(m, n, m * n, g)
    cfg = _cfg(0, True, RoundMode.CAST_RINT, kdim)
    y, res = run(lambda a, sc, of, o, t: QN.AscendQuant(o, a, t, sc, of, para, config=cfg, policy=policy),
                 [x, s.ravel(), b.ravel()], I8, m * n)
    assert not msgs(res)
    ref = ref_float_quant(x.astype(F32).reshape(m, n), expand(s, policy, m, n, g, kdim),
                          expand(b, policy, m, n, g, kdim))
    np.testing.assert_array_equal(y.reshape(m, n), ref)


# -- Quantize --------------------------------------------------------------------------------------------------
MODES = {"RINT": RoundMode.CAST_RINT, "ROUND": RoundMode.CAST_ROUND, "FLOOR": RoundMode.CAST_FLOOR,
         "CEIL": RoundMode.CAST_CEIL, "TRUNC": RoundMode.CAST_TRUNC}


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("policy,kdim", [(QC.TENSOR, 1), (QC.CHANNEL, 1), (QC.TOKEN, 1), (QC.GROUP, 0),
                                         (QC.GROUP, 1)])
def test_quantize_policies_and_round_modes(mode, policy, kdim):
    rng = np.random.default_rng(3)
    m, n, g = 5, 96, 64
    x = (rng.standard_normal(m * n) * 30).astype(F16)
    x[:8] = [0.5, 1.5, -0.5, -1.5, 2.5, -2.5, 126.7, -200]        # ties and saturation
    shape = {QC.TENSOR: (1,), QC.CHANNEL: (n,), QC.TOKEN: (m,),
             QC.GROUP: ((-(-m // g), n) if kdim == 0 else (m, -(-n // g)))}[policy]
    s = rng.uniform(0.5, 2, shape).astype(F16)
    b = rng.uniform(-2, 2, shape).astype(F16)
    if policy == QC.TENSOR:
        s[:], b[:] = 1.0, 0.0
    cfg = _cfg(policy, True, MODES[mode], kdim)
    params = QC.QuantizeParams(m, n, g)
    if policy == QC.TENSOR:
        body = lambda a, o, t: QN.Quantize(o, a, t, np.float16(s[0]), np.float16(b[0]), params, config=cfg)
        ins = [x]
    else:
        body = lambda a, sc, of, o, t: QN.Quantize(o, a, sc, of, params, config=cfg)    # framework buffer
        ins = [x, s.ravel(), b.ravel()]
    y, res = run(body, ins, I8, m * n)
    assert not msgs(res)
    ref = ref_float_quant(x.astype(F32).reshape(m, n), expand(s, policy, m, n, g, kdim),
                          expand(b, policy, m, n, g, kdim), mode)
    np.testing.assert_array_equal(y.reshape(m, n), ref)


def test_quantize_scalar_offset_without_offset_and_unsupported_mode_fallback():
    rng = np.random.default_rng(4)
    m, n = 4, 64
    x = (rng.standard_normal(m * n) * 50).astype(F32)
    s = rng.uniform(0.5, 2, n).astype(F32)
    params = QC.QuantizeParams(m, n)
    cfg = _cfg(QC.CHANNEL, True, RoundMode.CAST_ROUND)
    y, res = run(lambda a, sc, o, t: QN.Quantize(o, a, t, sc, 1.25, params, config=cfg), [x, s], I8, m * n)
    assert not msgs(res)
    np.testing.assert_array_equal(y.reshape(m, n), ref_float_quant(x.reshape(m, n), np.tile(s, (m, 1)),
                                                                   np.float32(1.25), "ROUND"))
    cfg = _cfg(QC.CHANNEL, False, RoundMode.CAST_HYBRID)                  # int8 has no HYBRID: back to RINT
    y, res = run(lambda a, sc, o, t: QN.Quantize(o, a, t, sc, 1.25, params, config=cfg), [x, s], I8, m * n)
    assert not msgs(res)
    np.testing.assert_array_equal(y.reshape(m, n), ref_float_quant(x.reshape(m, n), np.tile(s, (m, 1)), None))


def test_quantize_page_example():
    x = np.array([-4.4, 2.5, -2.9, -3.1, -1.4, -4.8, 1.8, 3.5, 4.5, 1.1, -2.7, 0.5] + [1.6] * 20, F16)
    cfg = _cfg(QC.TENSOR, True, RoundMode.CAST_ROUND)
    y, res = run(lambda a, o, t: QN.Quantize(o, a, 1.0, 0.0, QC.QuantizeParams(1, 32), config=cfg), [x], I8, 32)
    assert not msgs(res)
    assert list(y[:12]) == [-4, 3, -3, -3, -1, -5, 2, 4, 5, 1, -3, 1] and y[-1] == 2


# -- AscendDequant / Dequantize ---------------------------------------------------------------------------------
def test_ascend_dequant_page_example():
    src = np.arange(-16, 16, dtype=np.int32)
    scale = np.array([2.2, -2.2, 2.2, -2.2, 2.2, -2.2, 0, 0], F32)
    y, res = run(lambda a, s, o, t: QN.AscendDequant(o, a, s, t, QC.DequantParams(4, 8, 6)), [src, scale], F32, 32)
    assert not msgs(res)
    want = np.array([[-35.2, 33., -30.8, 28.6, -26.4, 24.2, -10., -9.], [-17.6, 15.4, -13.2, 11., -8.8, 6.6, -2., -1.],
                     [0., -2.2, 4.4, -6.6, 8.8, -11., 6., 7.], [17.6, -19.8, 22., -24.2, 26.4, -28.6, 14., 15.]])
    np.testing.assert_allclose(y.reshape(4, 8), want, rtol=1e-6)
    ref = src.reshape(4, 8)[:, :6].astype(F32) * scale[:6]
    np.testing.assert_array_equal(y.reshape(4, 8)[:, :6], ref)


@pytest.mark.parametrize("dst,scl", [("bfloat16_t", "bfloat16_t"), ("bfloat16_t", "float"), ("float", "bfloat16_t"),
                                     ("half", "uint64_t")])
def test_ascend_dequant_padded_rows_and_scale_types(dst, scl):
    rng = np.random.default_rng(5)
    m, n, cal = 3, 8, 5
    src = rng.integers(-1000, 1000, m * n).astype(np.int32)
    sf = rng.uniform(-2, 2, 8).astype(F32)
    if scl == "uint64_t":
        s = (sf.view(np.uint32).astype(np.uint64) | (np.uint64(0xABCD) << np.uint64(32)))
        sval = sf
    else:
        s = sf.astype(SRC[scl])
        sval = s.astype(F32)
    dt = {"half": F16, "bfloat16_t": BF16, "float": F32}[dst]
    nd = _pad(n * dt.itemsize) // dt.itemsize
    y, res = run(lambda a, sc, o, t: QN.AscendDequant(o, a, sc, QC.DequantParams(m, n, cal)), [src, s], dt, m * nd)
    assert not msgs(res)
    ref = (src.reshape(m, n)[:, :cal].astype(F32) * sval[:cal]).astype(dt)
    np.testing.assert_array_equal(y.reshape(m, nd)[:, :cal].view(np.uint16 if dt.itemsize == 2 else np.uint32),
                                  ref.view(np.uint16 if dt.itemsize == 2 else np.uint32))


def test_ascend_dequant_single_row_mode_scalar_and_deprecated_forms():
    src = np.arange(16, dtype=np.int32) - 5
    scale = np.linspace(-1, 1, 8).astype(F32)
    single, res = run(lambda a, s, o, t: QN.AscendDequant(o, a, s, QC.DequantParams(1, 16, 8)), [src, scale], F32, 16)
    assert not msgs(res)
    np.testing.assert_array_equal(single, src.astype(F32) * np.tile(scale, 2))
    multi, _ = run(lambda a, s, o, t: QN.AscendDequant(o, a, s, QC.DequantParams(1, 16, 8), mode=1), [src, scale],
                   F32, 16)
    np.testing.assert_array_equal(multi[:8], src[:8].astype(F32) * scale)
    np.testing.assert_array_equal(multi[8:], src[8:].astype(F32))                # past calCount: the source
    sc, _ = run(lambda a, o, t: QN.AscendDequant(o, a, np.float32(2.2), t, QC.DequantParams(2, 8, 8)), [src], F32, 16)
    np.testing.assert_array_equal(sc, src.astype(F32) * np.float32(2.2))
    dep, _ = run(lambda a, s, o, t: QN.AscendDequant(o, a, s, t, 16), [src, scale], F32, 16)
    np.testing.assert_array_equal(dep, src.astype(F32) * np.tile(scale, 2))


@pytest.mark.parametrize("src_t,scl,dst", [("int32_t", "float", "half"), ("int32_t", "half", "half"),
                                           ("float", "bfloat16_t", "bfloat16_t"), ("float", "float", "float")])
@pytest.mark.parametrize("policy,kdim", [(QC.TOKEN, 1), (QC.GROUP, 0), (QC.GROUP, 1)])
def test_per_token_group_dequant_and_dequantize(src_t, scl, dst, policy, kdim):
    rng = np.random.default_rng(6)
    m, n, g = 4, 64, 32
    sdt = I32 if src_t == "int32_t" else F32
    x = (rng.integers(-3000, 3000, m * n)).astype(sdt)
    shape = {QC.TOKEN: (m,), QC.GROUP: ((-(-m // g), n) if kdim == 0 else (m, -(-n // g)))}[policy]
    s = rng.uniform(-0.1, 0.1, shape).astype(SRC[scl])
    ddt = SRC[dst]
    ref = (x.astype(F32).reshape(m, n) * expand(s.astype(F32), policy, m, n, g, kdim)).astype(ddt)
    cfg = _cfg(0, False, RoundMode.CAST_RINT, kdim)
    para = QC.AscendDeQuantParam(m, n, m * n, g)
    y, res = run(lambda a, sc, o, t: QN.AscendDequant(o, a, sc, sc, t, para, config=cfg, policy=policy),
                 [x, s.ravel()], ddt, m * n)
    assert not msgs(res)
    np.testing.assert_array_equal(y.reshape(m, n).astype(F32), ref.astype(F32))
    cfg = _cfg(policy, False, RoundMode.CAST_RINT, kdim)
    y, res = run(lambda a, sc, o, t: QN.Dequantize(o, a, sc, sc, QC.DequantizeParams(m, n, g), config=cfg),
                 [x, s.ravel()], ddt, m * n)
    assert not msgs(res)
    np.testing.assert_array_equal(y.reshape(m, n).astype(F32), ref.astype(F32))


def test_dequantize_per_tensor_and_channel():
    rng = np.random.default_rng(7)
    m, n = 3, 64
    x = rng.integers(-5000, 5000, m * n).astype(np.int32)
    cfg = _cfg(QC.TENSOR, False)
    y, res = run(lambda a, o, t: QN.Dequantize(o, a, np.float32(0.37), np.float32(0), t, QC.DequantizeParams(m, n),
                                               config=cfg), [x], BF16, m * n)
    assert not msgs(res)
    np.testing.assert_array_equal(y.astype(F32), (x.astype(F32) * np.float32(0.37)).astype(BF16).astype(F32))
    sf = rng.uniform(-1, 1, n).astype(F32)
    s64 = sf.view(np.uint32).astype(np.uint64)
    cfg = _cfg(QC.CHANNEL, False)
    y, res = run(lambda a, s, o, t: QN.Dequantize(o, a, s, s, QC.DequantizeParams(m, n), config=cfg), [x, s64], F16,
                 m * n)
    assert not msgs(res)
    np.testing.assert_array_equal(y, (x.reshape(m, n).astype(F32) * sf).astype(F16).ravel())


# -- AscendAntiQuant / AntiQuantize -----------------------------------------------------------------------------
def test_ascend_antiquant_page_example():
    src = np.ones(128, np.int8)
    off, sc = np.full(64, 2, F16), np.full(64, 3, F16)
    info = QC.AntiQuantShapeInfo(1, 64, 1, 64)
    y, res = run(lambda a, b, s, o, t: QN.AscendAntiQuant(o, a, b, s, t, 2, info, isTranspose=False),
                 [src, off, sc], F16, 128)
    assert not msgs(res)
    assert (y == 9).all()


def ref_anti_half(x, off, sc):
    h = x.astype(F16)
    if off is not None:
        h = (h + off.astype(F16)).astype(F16)
    return (h * sc.astype(F16)).astype(F16)


def ref_anti_float(x, off, sc, dt):
    v = x.astype(F32)
    if off is not None:
        v = (v + off.astype(F32)).astype(F32)
    return (v * sc.astype(F32)).astype(dt)


@pytest.mark.parametrize("dt", [F16, BF16])
@pytest.mark.parametrize("transpose", [False, True])
def test_ascend_antiquant_per_channel_groups(dt, transpose):
    rng = np.random.default_rng(8)
    k, nn, g = 64, 64, 32
    x = rng.integers(-128, 128, k * nn).astype(np.int8)
    pshape = (nn, k // g) if transpose else (k // g, nn)      # src [N, K] transposed, else [K, N]
    off = rng.uniform(-3, 3, pshape).astype(dt)
    sc = rng.uniform(-0.5, 0.5, pshape).astype(dt)
    info = QC.AntiQuantShapeInfo(*pshape, *pshape)
    y, res = run(lambda a, b, s, o, t: QN.AscendAntiQuant(o, a, b, s, t, k, info, isTranspose=transpose),
                 [x, off.ravel(), sc.ravel()], dt, k * nn)
    assert not msgs(res)
    m = nn if transpose else k
    xx = x.reshape(m, -1)
    pol = QC.GROUP
    eo = expand(off, pol, m, xx.shape[1], g, 1 if transpose else 0)
    es = expand(sc, pol, m, xx.shape[1], g, 1 if transpose else 0)
    ref = ref_anti_half(xx, eo, es) if dt == F16 else ref_anti_float(xx, eo, es, dt)
    np.testing.assert_array_equal(y.reshape(m, -1).astype(F32), ref.astype(F32))


def test_ascend_antiquant_per_tensor_and_without_offset():
    x = np.arange(-64, 64).astype(np.int8)
    y, res = run(lambda a, o, t: QN.AscendAntiQuant(o, a, np.float16(1.5), np.float16(0.25), t, 2,
                                                    QC.AntiQuantShapeInfo(), isTranspose=False), [x], F16, 128)
    assert not msgs(res)
    np.testing.assert_array_equal(y, ref_anti_half(x, np.float16(1.5), np.float16(0.25)))
    sc = np.linspace(-1, 1, 64).astype(BF16)
    y, res = run(lambda a, s, o, t: QN.AscendAntiQuant(o, a, s, t, 2, QC.AntiQuantShapeInfo(), isTranspose=False),
                 [x, sc], BF16, 128)
    assert not msgs(res)
    np.testing.assert_array_equal(y.astype(F32), ref_anti_float(x.reshape(2, 64), None, np.tile(sc, (2, 1)),
                                                                BF16).astype(F32).ravel())


@pytest.mark.parametrize("scl,dst", [("half", "half"), ("float", "bfloat16_t"), ("float", "float"),
                                     ("bfloat16_t", "bfloat16_t")])
@pytest.mark.parametrize("policy,kdim", [(QC.TENSOR, 1), (QC.CHANNEL, 1), (QC.TOKEN, 1), (QC.GROUP, 0),
                                         (QC.GROUP, 1)])
def test_antiquantize_and_per_token_group_antiquant(scl, dst, policy, kdim):
    rng = np.random.default_rng(9)
    m, n, g = 5, 64, 32
    x = rng.integers(-128, 128, m * n).astype(np.int8)
    shape = {QC.TENSOR: (1,), QC.CHANNEL: (n,), QC.TOKEN: (m,),
             QC.GROUP: ((-(-m // g), n) if kdim == 0 else (m, -(-n // g)))}[policy]
    s = rng.uniform(-0.2, 0.2, shape).astype(SRC[scl])
    b = rng.uniform(-4, 4, shape).astype(SRC[scl])
    ddt = SRC[dst]
    ref = ref_anti_float(x.reshape(m, n), expand(b, policy, m, n, g, kdim), expand(s, policy, m, n, g, kdim), ddt)
    cfg = _cfg(policy, True, RoundMode.CAST_RINT, kdim)
    params = QC.AntiQuantizeParams(m, n, g)
    if policy == QC.TENSOR:
        y, res = run(lambda a, o, t: QN.AntiQuantize(o, a, SRC[scl].type(s[0]), SRC[scl].type(b[0]), t, params,
                                                     config=cfg), [x], ddt, m * n)
    else:
        y, res = run(lambda a, sc, of, o, t: QN.AntiQuantize(o, a, sc, of, params, config=cfg),
                     [x, s.ravel(), b.ravel()], ddt, m * n)
    valid = dst != "float" and (policy == QC.TENSOR or scl == dst)    # table 3 (a scalar has no type here)
    if policy in (QC.TENSOR, QC.CHANNEL) and not valid:
        assert "BAD_PARAMETER" in _codes(res)          # table 3: half / bf16 dst, scale / offset of its type
        return
    assert not msgs(res)
    np.testing.assert_array_equal(y.reshape(m, n).astype(F32), ref.astype(F32))
    if policy in (QC.TOKEN, QC.GROUP):
        para = QC.AscendAntiQuantParam(m, n, m * n, g)
        y, res = run(lambda a, sc, of, o, t: QN.AscendAntiQuant(o, a, sc, of, t, para, config=_cfg(0, True, kdim=kdim),
                                                                policy=policy), [x, s.ravel(), b.ravel()], ddt, m * n)
        assert not msgs(res)
        np.testing.assert_array_equal(y.reshape(m, n).astype(F32), ref.astype(F32))


# -- the .asc route ---------------------------------------------------------------------------------------------
@needs_compiler
def test_vendor_style_program_passes(tmp_path):
    run_ = build_and_run(HERE / "quant.asc", cache=tmp_path / "cache")
    assert run_.failure is None and run_.exit_status == 0, (run_.failure, run_.stdout, run_.stderr)
    assert "PASS" in run_.stdout


def test_python_route_configs_as_objects_and_transposed_antiquant_groups():
    rng = np.random.default_rng(10)
    m, n, g = 4, 64, 32
    x = rng.integers(-128, 128, m * n).astype(np.int8)
    s = rng.uniform(-0.3, 0.3, (m, n // g)).astype(F32)
    b = rng.uniform(-3, 3, (m, n // g)).astype(F32)
    # kDim 0 with isTranspose: the groups run along the columns (the page: k is the j axis)
    cfg = QC.QuantCfg(policy=QC.AscendAntiQuantPolicy.PER_GROUP, hasOffset=True, isTranspose=True, kDim=0)
    para = QC.AscendAntiQuantParam(m, n, m * n, g)
    y, res = run(lambda a, sc, of, o, t: QN.AscendAntiQuant(o, a, sc, of, para, config=cfg,
                                                            policy=QC.AscendAntiQuantPolicy.PER_GROUP),
                 [x, s.ravel(), b.ravel()], F32, m * n)
    assert not msgs(res)
    ref = ref_anti_float(x.reshape(m, n), expand(b, QC.GROUP, m, n, g, 1), expand(s, QC.GROUP, m, n, g, 1), F32)
    np.testing.assert_array_equal(y.reshape(m, n), ref)
    qcfg = QC.QuantCfg(policy=QC.QuantizePolicy.PER_TOKEN, hasOffset=False, roundMode=RoundMode.CAST_TRUNC)
    xf = rng.standard_normal(m * n).astype(F32) * 20
    tok = rng.uniform(0.5, 3, m).astype(F32)
    y, res = run(lambda a, sc, o, t: QN.Quantize(o, a, sc, 0.0, QC.QuantizeParams(m, n), config=qcfg),
                 [xf, tok], I8, m * n)
    assert not msgs(res)
    np.testing.assert_array_equal(y.reshape(m, n), ref_float_quant(xf.reshape(m, n), tok[:, None], None, "TRUNC"))


def test_dequant_keeps_negative_zero_and_reads_only_calcount_scales():
    src = np.array([0, 1, -1, 0] * 16, np.int32)
    scale = np.full(6, -2.0, F32)                              # only calCount scales: nothing read past them
    y, res = run(lambda a, s, o, t: QN.AscendDequant(o, a, s, t, QC.DequantParams(8, 8, 6)), [src, scale], F32, 64)
    assert not msgs(res)
    ref = src.reshape(8, 8).astype(F32)
    ref[:, :6] *= np.float32(-2.0)
    np.testing.assert_array_equal(y.view(np.uint32), ref.ravel().view(np.uint32))
    assert np.signbit(y[0]) and y[0] == 0


@pytest.mark.parametrize("mode", list(MODES))
def test_float_values_next_to_ties_round_once(mode):
    """Float values one float ulp off a tie (k + 0.5) or an integer: one rounding of the float value (a plain
    float -> half -> int8 chain would round 2.5000002 to 2.5 and then to 2)."""
    ks = np.arange(-130, 130, dtype=np.float32)
    base = np.concatenate([ks + np.float32(0.5), ks])
    vals = np.concatenate([np.nextafter(base, np.float32(np.inf)), np.nextafter(base, np.float32(-np.inf)), base])
    vals = vals[: len(vals) // 32 * 32].astype(F32)
    m, n = len(vals) // 32, 32
    cfg = _cfg(QC.TENSOR, False, MODES[mode])
    y, res = run(lambda a, o, t: QN.Quantize(o, a, t, 1.0, 0.0, QC.QuantizeParams(m, n), config=cfg), [vals], I8,
                 vals.size)
    assert not msgs(res)
    np.testing.assert_array_equal(y, round_int8(vals, mode))
