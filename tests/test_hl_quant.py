"""The high-level quantization family (高阶API/量化操作): the Python route against numpy references written
from the pages' formulas (exact for integer outputs; float outputs exact too, as the reference runs the same
float32 / half operations in the same order), the pages' examples, tails and per-channel / token / group
forms, the temporary-buffer rules, the host queries, and the vendor-style .asc program (tests/hl/quant.asc)."""
from __future__ import annotations

from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from tests.asc_support import build_and_run, needs_compiler
from toolkit.ascendc.dma import DataCopyExtParams, DataCopyPad, DataCopyPadExtParams
from toolkit.ascendc.dtypes import uint32_t
from toolkit.ascendc.highlevel import quant as QN
from toolkit.ascendc.highlevel import quant_common as QC
from toolkit.ascendc.highlevel.shape import TensorShape
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
        assert not res.diagnostics.codes()
        ref = ref_ascend_quant_half(xin[:1022], 0.02, 0.9)
        np.testing.assert_array_equal(y[:1022], ref)
        assert list(y[:3]) == [-9, -9, -9] and y[1021] == 11
        assert (y[1022:] == 0).all()                               # past calCount: untouched


@pytest.mark.parametrize("dt", [F16, F32])
def test_ascend_quant_per_channel_tensor_and_scalar_offset(dt):
    rng = np.random.default_rng(1)
    sc, rows = 64, 16
    x = (rng.standard_normal(sc * rows) * 300).astype(dt)
    scale = np.full(sc, 0.02, dt)
    offset = (1.01 + 0.01 * np.arange(sc)).astype(dt)
    cal = sc * (rows - 1)
    y, res = run(lambda a, s, b, o, t: QN.AscendQuant(o, a, t, s, b, sc, sc, cal), [x, scale, offset], I8, x.size)
    assert not res.diagnostics.codes()
    ref = ref_ascend_quant_half(x[:cal], np.tile(scale, rows - 1), np.tile(offset, rows - 1))
    np.testing.assert_array_equal(y[:cal], ref)
    assert (y[cal:] == 0).all()
    y2, res = run(lambda a, s, o, t: QN.AscendQuant(o, a, s, dt.type(0.5)), [x, scale], I8, x.size)
    assert not res.diagnostics.codes()
    np.testing.assert_array_equal(y2, ref_ascend_quant_half(x, np.tile(scale, rows), 0.5))


def test_ascend_quant_saturates_and_rounds_half_to_even():
    x = np.array([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 300, -300, 127.5, -128.5, np.inf, -np.inf] + [0] * 4, F16)
    y, res = run(lambda s, o, t: QN.AscendQuant(o, s, t, 1.0, 0.0), [x], I8, x.size)
    assert not res.diagnostics.codes()
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
    assert not res.diagnostics.codes()
    ref = ref_float_quant(x.astype(F32).reshape(m, n), expand(s, policy, m, n, g, kdim),
                          expand(b, policy, m, n, g, kdim))
    np.testing.assert_array_equal(y.reshape(m, n), ref)
