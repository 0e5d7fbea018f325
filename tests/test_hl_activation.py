"""The high-level activations and normalizations (issue 21): the Python route against numpy / float64
formulas of the reference pages, the temporary-buffer rules, the host helpers, and one .asc program per
family in the vendor's example style (host tiling, gen_data, its own CompareResult) that must print PASS."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.asc_support import build_and_run, needs_compiler
from toolkit.ascendc import membase as MB
from toolkit.ascendc.dma import DataCopyExtParams, DataCopyPad, DataCopyPadExtParams
from toolkit.ascendc.dtypes import uint32_t
from toolkit.ascendc.highlevel import activation as A
from toolkit.ascendc.highlevel import normalization as NM
from toolkit.ascendc.highlevel import softmax as S
from toolkit.ascendc.highlevel.shape import TensorShape
from toolkit.ascendc.pipe import TBuf, TPipe, TPosition
from toolkit.ascendc.tensor import GlobalTensor, gm_cast
from toolkit.engine.launch import gm_alloc, launch

HERE = Path(__file__).parent / "hl"
M, K = 8, 64
N = M * K


def run(body, x: np.ndarray, out_floats: int, tmp_bytes: int = 8192):
    """One core: x to UB (float), ``body(x, out, tmp)`` on LocalTensors, out back; (out array, diagnostics)."""
    def kernel(xg_addr, og_addr):
        pipe = TPipe()
        buf, tb = TBuf(TPosition.VECCALC), TBuf(TPosition.VECCALC)
        pipe.InitBuffer(buf, (N + out_floats) * 4)
        pipe.InitBuffer(tb, tmp_bytes)
        xg, og = GlobalTensor(float), GlobalTensor(float)
        xg.SetGlobalBuffer(gm_cast(float, xg_addr))
        og.SetGlobalBuffer(gm_cast(float, og_addr))
        w = buf.Get(float)
        DataCopyPad(w, xg, DataCopyExtParams(1, N * 4, 0, 0, 0), DataCopyPadExtParams(False, 0, 0, 0))
        MB.Duplicate(w[N], 0.0, out_floats)
        body(w, w[N], tb.Get(np.uint8))
        DataCopyPad(og, w[N], DataCopyExtParams(1, out_floats * 4, 0, 0, 0))
    gm = [gm_alloc("x", x.astype(np.float32).view(np.uint8)), gm_alloc("out", out_floats * 4)]
    res = launch(kernel, 1, gm)
    return gm[1].buf.data.view(np.float32).copy(), res


def _x(seed: int = 0) -> np.ndarray:
    return (np.random.default_rng(seed).standard_normal(N) * 3).astype(np.float32)


def _softmax(x: np.ndarray):
    x = x.astype(np.float64).reshape(M, K)
    mx = x.max(1, keepdims=True)
    e = np.exp(x - mx)
    return e / e.sum(1, keepdims=True), mx[:, 0], e.sum(1)


def test_softmax_float_with_statistics_and_shared_buffer():
    tiling = S.SoftMaxTilingFunc(TensorShape([M, K]), 4, 0)
    need = S.GetSoftMaxMinTmpSize(TensorShape([M, K]), 4, False)

    def body(x, out, tmp):
        S.SoftMax(out, out[N], out[N + 8 * M], x, tmp, tiling, S.SoftMaxShapeInfo(M, K, M, K))
    x = _x()
    y, res = run(body, x, N + 16 * M, need)
    assert not res.diagnostics.codes()
    ref, mx, sm = _softmax(x)
    np.testing.assert_allclose(y[:N].reshape(M, K), ref, rtol=1e-5, atol=1e-7)
    blocks = y[N:N + 8 * M].reshape(M, 8)
    assert (blocks == blocks[:, :1]).all()                                          # one value per 32 B block
    np.testing.assert_allclose(y[N:N + 8 * M:8], sm, rtol=1e-5)
    np.testing.assert_array_equal(y[N + 8 * M::8][:M], mx.astype(np.float32))


def test_softmax_half_framework_buffer_is_in_the_ub_plan():
    tiling = S.SoftMaxTilingFunc(TensorShape([M, K]), 2, 0)

    def body(x, out, tmp):
        xh, yh = out.ReinterpretCast(np.float16), out[N // 2].ReinterpretCast(np.float16)
        MB.Cast(xh, x, MB.RoundMode.CAST_RINT, N)
        S.SoftMax(yh, xh, tiling)
        MB.Cast(out[N], yh, MB.RoundMode.CAST_NONE, N)
    x = _x(1)
    y, res = run(body, x, 2 * N)
    assert not res.diagnostics.codes()
    ref, _, _ = _softmax(x.astype(np.float16))
    np.testing.assert_allclose(y[N:2 * N].reshape(M, K), ref, atol=1e-3)
    assert any(getattr(e, "name", "") == "SoftMax.tmp" for e in res.cores[0].events)


def test_shared_buffer_below_the_minimum_is_a_diagnostic():
    tiling = S.SoftMaxTilingFunc(TensorShape([M, K]), 4, 0)
    _, res = run(lambda x, out, tmp: S.SoftMax(out, x, _small(tmp), tiling), _x(), N)
    assert "BAD_PARAMETER" in res.diagnostics.codes()


def _small(tmp):
    from toolkit.ascendc.tensor import LocalTensor
    return LocalTensor(tmp.addr, np.uint8, 64, tmp.position)


def test_log_softmax_is_log10_and_grad_matches_the_page():
    tiling = S.SoftMaxTilingFunc(TensorShape([M, K]), 4, 0)

    def body(x, out, tmp):
        S.SoftMax(out, x, tmp, tiling)
        S.LogSoftMax(out[N], out[2 * N], out[2 * N + 64], x, tmp, S.LogSoftMaxTilingFunc(TensorShape([M, K]), 4, 0))
        S.SoftmaxGrad(out[3 * N], x, out, tmp, tiling, False)
        S.SoftmaxGradFront(out[4 * N], x, out, tmp, tiling)
    x = _x(2)
    y, res = run(body, x, 5 * N)
    assert not res.diagnostics.codes()
    ref, _, _ = _softmax(x)
    np.testing.assert_allclose(y[N:2 * N].reshape(M, K), np.log10(ref), rtol=1e-4, atol=1e-5)
    d = (x.reshape(M, K) * ref).sum(1, keepdims=True)
    np.testing.assert_allclose(y[3 * N:4 * N].reshape(M, K), (x.reshape(M, K) - d) * ref, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(y[4 * N:4 * N + 8 * M:8], d[:, 0], rtol=1e-4, atol=1e-5)


def _sig(v):
    return 1.0 / (1.0 + np.exp(-v))


def _gelu(v):
    return v / (1.0 + np.exp(-1.5957691216057308 * (v + 0.044715 * v ** 3)))


@pytest.mark.parametrize("dtype,tol", [(np.float32, 1e-5), (np.float16, 2e-3)])
def test_elementwise_activations(dtype, tol):
    def body(x, out, tmp):
        src = x if dtype == np.float32 else out[8 * N].ReinterpretCast(np.float16)
        if dtype != np.float32:
            MB.Cast(src, x, MB.RoundMode.CAST_RINT, N)
        outs = []
        for k in range(9):
            outs.append(out[k * N] if dtype == np.float32 else out[9 * N + k * N // 2].ReinterpretCast(np.float16))
        A.Gelu(outs[0], src, tmp, N)
        A.Silu(outs[1], src, N)
        A.Swish(outs[2], src, N, 0.75)
        A.Sigmoid(outs[3], src, tmp, N)
        A.SwiGLU(outs[4], src, src[64], 1.5, tmp, N - 64)
        A.GeGLU(outs[5], src, src[64], tmp, N - 64)
        A.ReGlu(outs[6], src, src[64], N - 64)
        A.FasterGelu(outs[7], src, tmp, N)
        A.FasterGeluV2(outs[8], src, tmp, N)
        if dtype != np.float32:
            for k in range(9):
                MB.Cast(out[k * N], outs[k], MB.RoundMode.CAST_NONE, N)
    x = _x(3)
    y, res = run(body, x, 14 * N, 16384)
    assert not res.diagnostics.codes()
    v = x.astype(dtype).astype(np.float64)
    v2 = v * (np.sign(v) * (-0.1444 * (np.minimum(np.abs(v) / np.sqrt(2), 1.769) - 1.769) ** 2 + 0.5) + 0.5)
    a, b = v[:N - 64], v[64:]
    want = [_gelu(v), v * _sig(v), v * _sig(0.75 * v), _sig(v), a * b * _sig(1.5 * b), a * _gelu(b),
            a * np.maximum(b, 0), v * _sig(1.702 * v), v2]
    for k, ref in enumerate(want):
        np.testing.assert_allclose(y[k * N:k * N + ref.size], ref, rtol=tol, atol=tol, err_msg=f"activation {k}")


def test_rms_and_layer_norm_python_route():
    tiling = NM.GetRmsNormTilingInfo(TensorShape([2, 4, K]), TensorShape([2, 4, K]), 0, 4)
    ln = NM.GetLayerNormNDTilingInfo(TensorShape([2, 4, K, K]), 0, 4, False)
    mx, mn = uint32_t(0), uint32_t(0)
    assert NM.GetRmsNormMaxMinTmpSize(TensorShape([2, 4, K]), 2, mx, mn) and mx.value == mn.value > 0

    def body(x, out, tmp):
        g = out[4 * N]
        MB.Duplicate(g, 1.25, K)
        NM.RmsNorm(out, x, g, tmp, 1e-5, tiling)
        NM.LayerNorm(out[N], out[2 * N], out[2 * N + 64], x, g, g, tmp, 1e-5, ln)
    x = _x(4)
    y, res = run(body, x, 4 * N + K)
    assert not res.diagnostics.codes()
    v = x.astype(np.float64).reshape(M, K)
    rms = v / np.sqrt((v * v).mean(1, keepdims=True) + 1e-5) * 1.25
    np.testing.assert_allclose(y[:N].reshape(M, K), rms, rtol=1e-5, atol=1e-6)
    mean, var = v.mean(1, keepdims=True), v.var(1, keepdims=True)
    np.testing.assert_allclose(y[N:2 * N].reshape(M, K), (v - mean) / np.sqrt(var + 1e-5) * 1.25 + 1.25,
                               rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(y[2 * N:2 * N + M], mean[:, 0], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(y[2 * N + 64:2 * N + 64 + M], var[:, 0], rtol=1e-5)


def test_host_helpers():
    shape = TensorShape([M, K])
    t = S.SoftMaxTilingFunc(shape, 2, 0)
    assert (t.srcM, t.srcK, t.outMaxK, t.srcSize) == (M, K, 16, N)
    assert S.IsBasicBlockInSoftMax(t, 4) and not S.IsBasicBlockInSoftMax(t, 2)     # half: k >= 128
    assert not S.IsBasicBlockInSoftMax(S.SoftMaxTilingFunc(TensorShape([3, K]), 4, 0), 4)
    mx, mn = uint32_t(0), uint32_t(0)
    A.GetGeluMaxMinTmpSize(TensorShape([N]), 2, mx, mn)
    assert (mx.value, mn.value) == (3 * N * 4, 3 * 256)          # half: x, result and one temporary in float
    A.GetGeluMaxMinTmpSize(TensorShape([N]), 4, mx, mn)
    assert (mx.value, mn.value) == (N * 4, 256)
    live, extra = uint32_t(0), uint32_t(0)
    A.GetSwiGLUTmpBufferFactorSize(2, live, extra)
    assert live.value * N * 2 + extra.value >= A.tmp_sizes(N, np.dtype(np.float16), 2, 2)[0]


@needs_compiler
@pytest.mark.parametrize("name", ["activation.asc", "normalization.asc"])
def test_vendor_style_program_passes(name, tmp_path):
    run_ = build_and_run(HERE / name, cache=tmp_path / "cache")
    assert run_.failure is None and run_.exit_status == 0, (run_.failure, run_.stdout, run_.stderr)
    assert "PASS" in run_.stdout


def _blocks(y: np.ndarray, start: int) -> np.ndarray:
    return y[start:start + 8 * M:8]


def test_softmax_flash_v1_v2_update_formulas():
    from toolkit.ascendc.highlevel import softmax_flash as F
    tiling = S.SoftMaxTilingFunc(TensorShape([M, K]), 4, 0)
    x = _x(5)
    inmax = np.linspace(-1.0, 9.0, M).astype(np.float32)
    insum = np.linspace(1.0, 3.0, M).astype(np.float32)

    def body(xl, out, tmp):
        im, isum = out[6 * N], out[6 * N + 64]
        for r in range(M):
            MB.Duplicate(im[8 * r], float(inmax[r]), 8)
            MB.Duplicate(isum[8 * r], float(insum[r]), 8)
        F.SoftmaxFlashV2(out, out[N], out[N + 64], xl, out[N + 128], isum, im, tmp, tiling, isUpdate=True)
        F.SoftmaxFlash(out[2 * N], out[3 * N], out[3 * N + 64], xl, out[3 * N + 128], isum, im, tmp, tiling, True)
        F.SoftmaxFlashV2(out[4 * N], out[5 * N], out[5 * N + 64], xl, out[5 * N + 128], isum, im, tmp, tiling)
    y, res = run(body, x, 6 * N + 128)
    assert not res.diagnostics.codes()
    v = x.astype(np.float64).reshape(M, K)
    xm = np.maximum(v.max(1), inmax)
    e = np.exp(v - xm[:, None])
    em = np.exp(inmax - xm)
    xs = em * insum + e.sum(1)
    np.testing.assert_allclose(y[:N].reshape(M, K), e, rtol=1e-5)                  # V2: not normalised
    np.testing.assert_allclose(_blocks(y, N), xs, rtol=1e-5)
    np.testing.assert_allclose(_blocks(y, N + 64), xm, rtol=1e-6)
    np.testing.assert_allclose(_blocks(y, N + 128), em, rtol=1e-5)
    np.testing.assert_allclose(y[2 * N:3 * N].reshape(M, K), e / xs[:, None], rtol=1e-5)   # V1: normalised
    np.testing.assert_allclose(_blocks(y, 3 * N + 128), em * insum / xs, rtol=1e-5)
    plain = np.exp(v - v.max(1, keepdims=True))
    np.testing.assert_allclose(y[4 * N:5 * N].reshape(M, K), plain, rtol=1e-5)       # no update
    np.testing.assert_allclose(_blocks(y, 5 * N), plain.sum(1), rtol=1e-5)


def test_adjust_softmax_res_rows_whose_max_matches():
    from toolkit.ascendc.highlevel import softmax_flash as F
    info = S.SoftMaxShapeInfo(M, K, M, K)
    hits = []

    def body(xl, out, tmp):
        MB.Adds(out, xl, 0.0, N)
        mx = out[N]
        for r in range(M):
            MB.Duplicate(mx[8 * r], 1.0 if r in (2, 5) else 0.5, 8)
        hits.append(F.AdjustSoftMaxRes(out, mx, 0x3F800000, -7.0, info))
        hits.append(F.AdjustSoftMaxRes(out, mx, 0x40000000, -9.0, info))
    x = _x(6)
    y, res = run(body, x, N + 64)
    assert hits == [True, False] and not res.diagnostics.codes()
    got = y[:N].reshape(M, K)
    assert (got[[2, 5]] == -7.0).all()
    np.testing.assert_array_equal(got[[0, 1, 3, 4, 6, 7]], x.reshape(M, K)[[0, 1, 3, 4, 6, 7]])


def test_softmax_flash_v3_update_with_segment_means():
    from toolkit.ascendc.highlevel import softmax_flash as F
    tiling = S.SoftMaxTilingFunc(TensorShape([M, K]), 4, 0)
    params = F.SoftMaxParams(M, K, M, K, 3, 4, 0.25)
    x = _x(7)
    inmean, inmax, insum = np.float32(0.1), np.float32(2.0), np.float32(1.5)

    def body(xl, out, tmp):
        xh, yh = out[4 * N].ReinterpretCast(np.float16), out[5 * N].ReinterpretCast(np.float16)
        MB.Cast(xh, xl, MB.RoundMode.CAST_RINT, N)
        stats = [out[N + 64 * k] for k in range(8)]
        for t, v in zip(stats[5:], (inmean, insum, inmax)):
            MB.Duplicate(t, float(v), 64)
        F.SoftmaxFlashV3(yh, stats[0], stats[1], stats[2], xh, out[6 * N].ReinterpretCast(np.float16),
                         stats[5], stats[6], stats[7], tmp, tiling, params, isUpdate=True)
        MB.Cast(out, yh, MB.RoundMode.CAST_NONE, N)
    y, res = run(body, x, 7 * N)
    assert not res.diagnostics.codes()
    v = x.astype(np.float16).astype(np.float64).reshape(M, K)
    scale = 0.25 / 0.75
    gm = v.mean(1, keepdims=True)
    seg = np.repeat(v.reshape(M, 4, K // 4).mean(2), K // 4, 1)
    src = v - (gm - seg) * scale
    mean = (gm + inmean * 2) / 3
    cur, prev = (gm - mean) * scale, (inmean - mean) * scale
    xmax = np.maximum(cur + src.max(1, keepdims=True), prev + inmax)
    e = np.exp(src - (xmax - cur))
    em = np.exp(inmax - xmax + prev)
    np.testing.assert_allclose(y[:N].reshape(M, K), e, rtol=2e-3, atol=1e-3)
    np.testing.assert_allclose(y[N:N + 64:8], mean[:, 0], rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(y[N + 64:N + 128:8], (em * insum + e.sum(1, keepdims=True))[:, 0], rtol=1e-3)
    np.testing.assert_allclose(y[N + 128:N + 192:8], xmax[:, 0], rtol=1e-4)


def test_lockstep_multicore_run_equals_the_serial_one():
    """Four cores, each a softmax + LayerNorm of its own rows, lock-step and serial: the same bytes and the
    same per-core event streams (the high-level calls park their MemBase calls as kernel code does)."""
    from toolkit.ascendc.system import GetBlockIdx
    tiling = S.SoftMaxTilingFunc(TensorShape([2, K]), 4, 0)
    ln = NM.GetLayerNormNDTilingInfo(TensorShape([1, 2, K, K]), 0, 4, False)

    def kernel(xg_addr, og_addr):
        pipe = TPipe()
        buf = TBuf(TPosition.VECCALC)
        pipe.InitBuffer(buf, 4 * 2 * K * 4)
        xg, og = GlobalTensor(float), GlobalTensor(float)
        core = int(GetBlockIdx())
        xg.SetGlobalBuffer(gm_cast(float, xg_addr) + core * 2 * K)
        og.SetGlobalBuffer(gm_cast(float, og_addr) + core * 4 * K)
        w = buf.Get(float)
        DataCopyPad(w, xg, DataCopyExtParams(1, 2 * K * 4, 0, 0, 0), DataCopyPadExtParams(False, 0, 0, 0))
        g = w[6 * K]
        MB.Duplicate(g, 1.0, K)
        S.SoftMax(w[2 * K], w, tiling)
        NM.LayerNorm(w[4 * K], w[7 * K], w[7 * K + 8], w, g, g, 1e-5, ln)
        DataCopyPad(og, w[2 * K], DataCopyExtParams(1, 4 * K * 4, 0, 0, 0))

    x = _x(8)
    outs = []
    for mode in ("lockstep", "serial"):
        gm = [gm_alloc("x", x.view(np.uint8)), gm_alloc("out", 4 * 4 * K * 4)]
        res = launch(kernel, 4, gm, mode=mode)
        assert not res.diagnostics.codes()
        outs.append((gm[1].buf.data.copy(), [len(c.events) for c in res.cores]))
    assert outs[0][0].tobytes() == outs[1][0].tobytes() and outs[0][1] == outs[1][1]
    ref, _, _ = _softmax(x)
    np.testing.assert_allclose(outs[0][0].view(np.float32).reshape(4, 4, K)[:, :2].reshape(M, K), ref, rtol=1e-5)


def test_bfloat16_reglu_and_layer_norm_ar():
    import ml_dtypes
    bf = np.dtype(ml_dtypes.bfloat16)
    para = NM.LayerNormPara(M, K, K)
    sep = NM.GetLayerNormNDTilingInfo(TensorShape([M, K]), 0, 2, False, True)

    def body(x, out, tmp):
        xb, yb = out[4 * N].ReinterpretCast(bf), out[5 * N].ReinterpretCast(bf)
        gb = out[6 * N].ReinterpretCast(bf)
        MB.Cast(xb, x, MB.RoundMode.CAST_RINT, N)
        MB.Duplicate(gb, 1.0, 2 * K)
        A.ReGlu(yb, xb, xb[N // 2], tmp, N // 2)
        MB.Cast(out, yb, MB.RoundMode.CAST_NONE, N // 2)
        NM.LayerNorm(yb, out[2 * N], out[2 * N + 64], xb, gb, gb[K], 1e-5, tmp, para, sep)
        MB.Cast(out[N], yb, MB.RoundMode.CAST_NONE, N)
    x = _x(9)
    y, res = run(body, x, 6 * N + 2 * K, 16384)
    assert not res.diagnostics.codes()
    v = x.astype(bf).astype(np.float64)
    np.testing.assert_allclose(y[:N // 2], v[:N // 2] * np.maximum(v[N // 2:], 0), rtol=8e-3, atol=8e-3)
    r = v.reshape(M, K)
    ln_ref = (r - r.mean(1, keepdims=True)) / np.sqrt(r.var(1, keepdims=True) + 1e-5) + 1.0
    np.testing.assert_allclose(y[N:2 * N].reshape(M, K), ln_ref, rtol=1e-2, atol=1e-2)
    np.testing.assert_allclose(y[2 * N + 64:2 * N + 64 + M], 1 / np.sqrt(r.var(1) + 1e-5), rtol=1e-5)


def test_softmax_without_a_shape_and_unaligned_rows_are_diagnostics():
    _, res = run(lambda x, out, tmp: S.SoftMax(out, x, tmp, S.SoftMaxTiling()), _x(), N)
    assert "BAD_PARAMETER" in res.diagnostics.codes()
    tiling = S.SoftMaxTilingFunc(TensorShape([M, 60]), 4, 0)        # 240 B rows: not 32 B aligned
    _, res = run(lambda x, out, tmp: S.SoftMax(out, x, tmp, tiling), _x(), N)
    assert "BAD_PARAMETER" in res.diagnostics.codes()


def test_half_data_with_float_statistics():
    """The mixed overloads: half src / dst, float sum / max (SoftMax, SimpleSoftMax, SoftmaxFlashV2)."""
    from toolkit.ascendc.highlevel import softmax_flash as F
    tiling = S.SoftMaxTilingFunc(TensorShape([M, K]), 4, 0)

    def body(x, out, tmp):
        xh, yh, zh, vh, eh = (out[k * N].ReinterpretCast(np.float16) for k in range(5))
        MB.Cast(xh, x, MB.RoundMode.CAST_RINT, N)
        sm, mx = out[5 * N], out[5 * N + 64]
        S.SoftMax[np.float16](yh, sm, mx, xh, tmp, tiling)
        S.SimpleSoftMax(zh, sm, mx, xh, tmp, tiling)
        F.SoftmaxFlashV2(vh, out[5 * N + 128], out[5 * N + 192], xh, eh, sm, mx, tmp, tiling, isUpdate=True)
        for k in (1, 2, 3):
            MB.Cast(out[6 * N + (k - 1) * N], out[k * N].ReinterpretCast(np.float16), MB.RoundMode.CAST_NONE, N)
    y, res = run(body, _x(11), 9 * N, 16384)
    assert not res.diagnostics.codes()
    xv = _x(11).astype(np.float16).astype(np.float64)
    ref, mx, sm = _softmax(xv)
    np.testing.assert_allclose(y[6 * N:7 * N].reshape(M, K), ref, atol=1e-3)
    np.testing.assert_allclose(y[7 * N:8 * N].reshape(M, K), ref, atol=1e-3)
    np.testing.assert_allclose(y[5 * N:5 * N + 64:8], sm, rtol=1e-5)                # float statistics
    np.testing.assert_array_equal(y[5 * N + 64:5 * N + 128:8], mx.astype(np.float32))
    e = np.exp(xv.reshape(M, K) - mx[:, None])                                      # update with the same max
    np.testing.assert_allclose(y[8 * N:9 * N].reshape(M, K), e, rtol=2e-3, atol=1e-3)
    np.testing.assert_allclose(y[5 * N + 128:5 * N + 192:8], 2 * sm, rtol=1e-5)


#: the pages' example input (SoftMax / LogSoftMax, 8 x 8 float) and some of their printed outputs
PAGE_X = np.array([[-100, -80, -60, -50, -30, -20, -15, -10], [-9, -8, -7, -6, -5, -4, -3, -2],
                   [-1.5, -1, -0.8, -0.6, -0.5, -0.45, -0.4, -0.35], [-0.3, -0.25, -0.2, -0.15, -0.1, -0.05, -0.01, -0.001],
                   [0, 0.001, 0.01, 0.05, 0.1, 0.15, 0.2, 0.25], [0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.8, 1],
                   [1.5, 2, 3, 4, 5, 6, 7, 8], [9, 10, 15, 20, 30, 50, 60, 80]], np.float32)
PAGE_SUM = [1.0067834, 1.5814459, 5.971886, 7.051223, 6.880514, 5.239974, 1.5820376, 1.0]
PAGE_DST_ROW1 = [0.00057661, 0.0015674, 0.00426062, 0.01158158, 0.03148199, 0.08557693, 0.23262219, 0.63233274]
PAGE_LOG_ROW1 = [-3.2391157, -2.8048213, -2.3705268, -1.9362322, -1.5019379, -1.0676433, -0.6333489, -0.19905435]


def test_the_pages_example():
    tiling = S.SoftMaxTilingFunc(TensorShape([8, 8]), 4, 0)
    log_tiling = S.LogSoftMaxTilingFunc(TensorShape([8, 8]), 4, 0)

    def body(x, out, tmp):
        S.SoftMax(out, out[64], out[128], x, tmp, tiling)
        S.LogSoftMax(out[192], out[256], out[320], x, tmp, log_tiling)
    x = np.zeros(N, np.float32)
    x[:64] = PAGE_X.ravel()
    y, res = run(body, x, 384)
    assert not res.diagnostics.codes()
    np.testing.assert_allclose(y[64:128:8], PAGE_SUM, rtol=1e-6)
    np.testing.assert_allclose(y[128:192:8], PAGE_X.max(1), rtol=0)
    np.testing.assert_allclose(y[8:16], PAGE_DST_ROW1, rtol=1e-5)
    np.testing.assert_allclose(y[192 + 8:192 + 16], PAGE_LOG_ROW1, rtol=1e-6)
    assert 0.0 <= y[0] < 1e-30 and y[63] == 1.0                  # exp(-90): (at most) a denormal; one-hot last row


def test_glu_pages_examples():
    """SwiGLU (beta 1, src1 = 0.5) and ReGlu (30 of 32 elements) on their pages' example inputs."""
    a = np.linspace(-4, 4, 32).astype(np.float32)
    swi_first = [-1.2449187, -1.1646013, -1.084284, -1.0039667]
    rel_src1 = (np.arange(32) * 0.1 - 1.6).astype(np.float32)

    def body(x, out, tmp):
        MB.Duplicate(out[64], 0.5, 32)
        MB.Duplicate(out[96], 2.0, 32)
        for k in range(32):
            out[128].SetValue(k, float(rel_src1[k]))
        A.SwiGLU(out, x, out[64], 1.0, tmp, 32)
        A.ReGlu(out[32], out[96], out[128], 30)
    x = np.zeros(N, np.float32)
    x[:32] = a
    y, res = run(body, x, 160)
    assert not res.diagnostics.codes()
    np.testing.assert_allclose(y[:4], swi_first, rtol=1e-6)
    np.testing.assert_allclose(y[:32], -y[:32][::-1], rtol=1e-6)                 # odd in src0
    np.testing.assert_allclose(y[32:62], 2 * np.maximum(rel_src1[:30], 0), rtol=1e-6)
    assert (y[62:64] == 0).all()                                                  # beyond calCount: untouched


def test_flash_v2_out_reduce_max_only_with_update_and_without_broadcast():
    from toolkit.ascendc.highlevel import softmax_flash as F
    tiling = S.SoftMaxTilingFunc(TensorShape([M, K]), 4, 0)
    x = _x(12)

    def body(xl, out, tmp):
        im, isum = out[6 * N], out[6 * N + 64]
        MB.Duplicate(im, 0.0, 8)
        MB.Duplicate(isum, 1.0, 8)
        MB.Duplicate(out[5 * N], -5.0, 8)
        F.SoftmaxFlashV2(out, out[5 * N], out[N], out[N + 64], xl, out[N + 128], isum, im, tmp, tiling,
                         isUpdate=True, config=1)                              # one value per row
        F.SoftmaxFlashV2(out[2 * N], out[5 * N + 8], out[3 * N], out[3 * N + 64], xl, out[3 * N + 128], isum, im,
                         tmp, tiling)
    y, res = run(body, x, 6 * N + 128)
    assert not res.diagnostics.codes()
    v = x.astype(np.float64).reshape(M, K)
    rmax = v.max(1)
    xm = np.maximum(rmax, 0.0)
    np.testing.assert_array_equal(y[5 * N:5 * N + M], rmax.astype(np.float32))     # the row max before the update
    np.testing.assert_allclose(y[N + 64:N + 64 + M], xm, rtol=1e-7)               # packed: one per row
    np.testing.assert_allclose(y[N:N + M], np.exp(0 - xm) * 1.0 + np.exp(v - xm[:, None]).sum(1), rtol=1e-5)
    assert (y[5 * N + 8:5 * N + 16] == 0).all()                                    # not written without isUpdate


def test_gelu_variants_pages_examples():
    """FasterGelu and FasterGeluV2 (half) on their pages' example inputs, against the printed outputs."""
    fg_x = [-1.83887, -3.60742, 3.12891, -0.620605, 2.0625, -2.77344, -0.04422, -3.54297]
    fg_y = [-0.0769653, -0.00775528, 3.11328, -0.160034, 2.00195, -0.0244446, -0.021286, -0.00849152]
    v2_x = [-1.251, 1.074, -6.137, 0.0841, 5.633, -3.059, -9.67, -0.5]
    v2_y = [-0.1411, 0.916, -0.0, 0.0486, 5.633, -0.0]

    def body(x, out, tmp):
        xh, yh = out.ReinterpretCast(np.float16), out[64].ReinterpretCast(np.float16)
        MB.Cast(xh, x, MB.RoundMode.CAST_RINT, 32)
        A.FasterGelu(yh, xh, tmp, 16)
        A.FasterGeluV2(yh[16], xh[16], tmp, 16)
        MB.Cast(out[128], yh, MB.RoundMode.CAST_NONE, 32)
    x = np.zeros(N, np.float32)
    x[:8], x[16:24] = fg_x, v2_x
    y, res = run(body, x, 160)
    assert not res.diagnostics.codes()
    np.testing.assert_allclose(y[128:136], fg_y, rtol=2e-3, atol=1e-4)
    np.testing.assert_allclose(y[144:150], v2_y, rtol=2e-3, atol=1e-4)


def test_sigmoid_and_silu_pages_examples_with_extremes():
    """The Sigmoid / Silu pages' example inputs (+-100 included) against their printed outputs."""
    xs = [-100, -50, -20, -10, -5, -4, -3, -2, -1, -0.5, -0.4, -0.3, -0.2, -0.1, -0.01, 0,
          0, 0.01, 0.1, 0.2, 0.3, 0.4, 0.5, 1, 2, 3, 4, 5, 10, 20, 50, 100]
    sig = [0, 0, 0, 0.0000454, 0.00669285, 0.01798621, 0.04742587, 0.11920292, 0.26894142, 0.37754067, 0.40131234,
           0.42555748, 0.450166, 0.47502081, 0.49750002, 0.5, 0.5, 0.50249998, 0.52497919, 0.549834, 0.57444252,
           0.59868766, 0.62245933, 0.73105858, 0.88079708, 0.95257413, 0.98201379, 0.99330715, 0.9999546, 1, 1, 1]

    def body(x, out, tmp):
        A.Sigmoid(out, x, tmp, 32)
        A.Silu(out[32], x, 32)
    x = np.zeros(N, np.float32)
    x[:32] = xs
    y, res = run(body, x, 64)
    assert not res.diagnostics.codes()
    np.testing.assert_allclose(y[:32], sig, rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(y[32:64], np.array(xs) * np.array(sig), rtol=1e-5, atol=1e-7)
    assert y[32] == 0.0 and np.signbit(y[32]) and y[63] == 100.0                  # -0 and 100, as printed


def test_softmax_grad_page_example():
    """SoftmaxGrad's example: grad = the SoftMax example input, src = 2: (grad - rowsum(grad * src)) * src."""
    tiling = S.SoftMaxGradTilingFunc(TensorShape([8, 8]), 4, 0)

    def body(x, out, tmp):
        MB.Duplicate(out[64], 2.0, 64)
        S.SoftmaxGrad(out, x, out[64], tmp, tiling, False)
    x = np.zeros(N, np.float32)
    x[:64] = PAGE_X.ravel()
    y, res = run(body, x, 128)
    assert not res.diagnostics.codes()
    np.testing.assert_allclose(y[0:8], [1260, 1300, 1340, 1360, 1400, 1420, 1430, 1440], rtol=1e-6)
    np.testing.assert_allclose(y[56:64], [-1078, -1076, -1066, -1056, -1036, -996, -976, -936], rtol=1e-6)
