"""The high-level normalizations beyond RmsNorm / LayerNorm (issue 21) on the Python route: BatchNorm,
DeepNorm, GroupNorm, Normalize, LayerNormGrad, LayerNormGradBeta, WelfordUpdate / WelfordFinalize against
float64 formulas (the pages' formulas; Welford against numpy's mean / variance of the whole axis)."""
from __future__ import annotations

import numpy as np

from tests.test_hl_activation import run
from toolkit.ascendc import membase as MB
from toolkit.ascendc.dtypes import uint32_t
from toolkit.ascendc.highlevel import norm_grad as NG
from toolkit.ascendc.highlevel import norm_variants as NV
from toolkit.ascendc.highlevel.shape import TensorShape

N = 512
EPS = 1e-5


def _x(seed: int) -> np.ndarray:
    return (np.random.default_rng(seed).standard_normal(N) * 2 + 0.5).astype(np.float32)


def _fill(t, values) -> None:
    for k, v in enumerate(values):
        t.SetValue(k, float(v))


def test_batch_norm_over_the_batch_axis():
    b, s, h = 4, 2, 64
    tiling = NV.GetBatchNormNDTilingInfo(TensorShape([b, s, h]), TensorShape([b, s, h]), 0, 4, False)
    mx, mn = uint32_t(0), uint32_t(0)
    assert NV.GetBatchNormMaxMinTmpSize(TensorShape([b, s, h]), TensorShape([b, s, h]), 4, False, mx, mn)
    gamma, beta = np.array([0.5, 1.0, 1.5, 2.0]), np.array([0.0, -1.0, 1.0, 0.25])

    def body(x, out, tmp):
        g, bt = out[2048], out[2056]
        _fill(g, gamma)
        _fill(bt, beta)
        NV.BatchNorm(out, out[N], out[N + 128], x, g, bt, tmp, EPS, tiling)
    y, res = run(body, _x(0), 2064, mn.value)
    assert not res.diagnostics.codes()
    v = _x(0).astype(np.float64).reshape(b, s * h)
    mean, var = v.mean(0), v.var(0)
    ref = (v - mean) / np.sqrt(var + EPS) * gamma[:, None] + beta[:, None]
    np.testing.assert_allclose(y[:N].reshape(b, s * h), ref, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(y[N:N + 128], mean, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(y[N + 128:N + 256], var, rtol=1e-5)


def test_deep_norm_and_normalize():
    rows, h = 8, 64
    tiling = NV.GetDeepNormTilingInfo(TensorShape([2, 4, h]), TensorShape([2, 4, h]), 0, 4, False, False)
    para = NV.NormalizePara(rows, h, h)
    alpha = 1.75

    def body(x, out, tmp):
        gx, gamma, beta = out[4 * N], out[5 * N], out[5 * N + 64]
        MB.Muls(gx, x, -0.5, N)
        MB.Adds(gx, gx, 0.25, N)
        MB.Duplicate(gamma, 1.5, h)
        MB.Duplicate(beta, -0.5, h)
        NV.DeepNorm(out, out[N], out[N + 64], x, gx, beta, gamma, tmp, alpha, EPS, tiling)
        mean, var = out[N + 128], out[N + 192]
        for r in range(rows):
            mean.SetValue(r, 0.25 * r)
            var.SetValue(r, 1.0 + r)
        NV.Normalize(out[2 * N], out[N + 256], mean, var, x, gamma, beta, tmp, EPS, para)
    y, res = run(body, _x(1), 5 * N + 128)
    assert not res.diagnostics.codes()
    v = _x(1).astype(np.float64).reshape(rows, h)
    z = alpha * v + (v * -0.5 + 0.25)
    m, var_z = z.mean(1, keepdims=True), z.var(1, keepdims=True)
    np.testing.assert_allclose(y[:N].reshape(rows, h), (z - m) / np.sqrt(var_z + EPS) * 1.5 - 0.5, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(y[N + 64:N + 64 + rows], 1 / np.sqrt(var_z[:, 0] + EPS), rtol=1e-5)
    mean = 0.25 * np.arange(rows)[:, None]
    rstd = 1 / np.sqrt(1.0 + np.arange(rows)[:, None] + EPS)
    np.testing.assert_allclose(y[2 * N:3 * N].reshape(rows, h), (v - mean) * rstd * 1.5 - 0.5, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(y[N + 256:N + 256 + rows], rstd[:, 0], rtol=1e-6)


def test_group_norm_groups_of_channels():
    n, c, hw, g = 2, 4, 64, 2
    tiling = NV.GetGroupNormNDTilingInfo(TensorShape([n, c, 8, 8]), 0, 4, False, g)
    gamma, beta = np.array([1.0, 2.0, 0.5, -1.0]), np.array([0.0, 0.5, -0.5, 1.0])

    def body(x, out, tmp):
        gm, bt = out[N + 64], out[N + 72]
        _fill(gm, gamma)
        _fill(bt, beta)
        NV.GroupNorm(out, out[N], out[N + 32], x, gm, bt, tmp, EPS, tiling)
    y, res = run(body, _x(2), N + 80)
    assert not res.diagnostics.codes()
    v = _x(2).astype(np.float64).reshape(n, g, (c // g) * hw)
    mean, var = v.mean(2, keepdims=True), v.var(2, keepdims=True)
    norm = ((v - mean) / np.sqrt(var + EPS)).reshape(n, c, hw)
    np.testing.assert_allclose(y[:N].reshape(n, c, hw), norm * gamma[None, :, None] + beta[None, :, None], rtol=1e-5,
                               atol=1e-5)
    np.testing.assert_allclose(y[N:N + n * g], mean.ravel(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(y[N + 32:N + 32 + n * g], var.ravel(), rtol=1e-5)


def test_layer_norm_grad_and_beta_follow_the_page_formulas():
    b, s, h = 2, 4, 64
    rows = b * s
    t = NG.GetLayerNormGradNDTilingInfo(TensorShape([b, s, h]), 0, 4, False)
    tb = NG.GetLayerNormGradBetaNDTilingInfo(TensorShape([b, s, h]), 0, 4, False)
    dy = (np.random.default_rng(9).standard_normal(N)).astype(np.float32)

    def body(x, out, tmp):
        dyl, gamma, mean, var = out[4 * N], out[5 * N], out[5 * N + 64], out[5 * N + 72]
        for k, v in enumerate(dy):
            dyl.SetValue(k, float(v))
        MB.Duplicate(gamma, 0.75, h)
        xv = _x(3).reshape(rows, h)
        _fill(mean, xv.mean(1))
        _fill(var, xv.var(1))
        NG.LayerNormGrad(out, out[N], dyl, x, var, mean, gamma, tmp, EPS, t)
        NG.LayerNormGradBeta(out[2 * N], out[2 * N + 64], out[N], dyl, tmp, tb)
    y, res = run(body, _x(3), 5 * N + 80, 16384)
    assert not res.diagnostics.codes()
    x = _x(3).astype(np.float64).reshape(rows, h)
    d = dy.astype(np.float64).reshape(rows, h)
    mean, var = x.mean(1, keepdims=True).astype(np.float32), x.var(1, keepdims=True).astype(np.float32)
    pd_xl = d * 0.75
    p = (var + EPS) ** -0.5
    pd_var = np.sum(-0.5 * pd_xl * (x - mean) * (var + EPS) ** -1.5, 1, keepdims=True)
    pd_mean = np.sum(-pd_xl * p, 1, keepdims=True) + pd_var / h * np.sum(-2 * (x - mean), 1, keepdims=True)
    pd_x = pd_xl * p + pd_var * 2 / h * (x - mean) + pd_mean / h
    res_g = (x - mean) * p
    np.testing.assert_allclose(y[:N].reshape(rows, h), pd_x, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(y[N:2 * N].reshape(rows, h), res_g, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(y[2 * N:2 * N + h], (res_g * d).sum(0), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(y[2 * N + 64:2 * N + 64 + h], d.sum(0), rtol=1e-4, atol=1e-4)


def test_welford_update_then_finalize_is_the_mean_and_variance():
    ab, chunks = 64, 8                      # the reduce axis of 512 cut into 8 chunks of 64

    def body(x, out, tmp):
        mean, m2 = out[0], out[64]
        MB.Duplicate(out, 0.0, 128)
        for i in range(chunks):
            NG.WelfordUpdate(mean, m2, mean, m2, x[i * ab], tmp, NG.WelfordUpdateParam(1, ab, ab, 1.0 / (i + 1)))
        para = NG.WelfordFinalizePara(chunks, ab, chunks, ab, 0, 0, 1.0 / ab, 1.0 / N, 1.0 / (N - 1))
        NG.WelfordFinalize(out[128], out[136], mean, m2, tmp, para)
        NG.WelfordFinalize(out[144], out[152], mean, m2, tmp, para, config=1)     # isCorrection
    y, res = run(body, _x(4), 160)
    assert not res.diagnostics.codes()
    v = _x(4).astype(np.float64)
    np.testing.assert_allclose(y[128], v.mean(), rtol=1e-5)
    np.testing.assert_allclose(y[136], v.var(), rtol=1e-4)
    np.testing.assert_allclose(y[152], v.var(ddof=1), rtol=1e-4)


def test_layer_norm_ar_binary_sum_with_a_tail_and_padding():
    """R = 200 (head 128 + tail 72) and R = 60 padded to 64: the [A, R] form's binary accumulation."""
    from toolkit.ascendc.highlevel import normalization as NM
    rows = 2
    for r_len, pad in ((200, 200), (60, 64)):
        sep = NM.GetLayerNormNDTilingInfo(TensorShape([rows, pad]), 0, 4, False, True)

        def body(x, out, tmp, r_len=r_len, pad=pad, sep=sep):
            g = out[4 * pad]
            MB.Duplicate(g, 1.0, pad)
            NM.LayerNorm(out, out[2 * pad], out[2 * pad + 8], x, g, g, 1e-5, tmp, NM.LayerNormPara(rows, r_len, pad), sep)
        y, res = run(body, _x(10 + r_len), 5 * pad, 16384)
        assert not res.diagnostics.codes()
        v = _x(10 + r_len).astype(np.float64)[:rows * pad].reshape(rows, pad)[:, :r_len]
        ref = (v - v.mean(1, keepdims=True)) / np.sqrt(v.var(1, keepdims=True) + EPS) + 1.0
        np.testing.assert_allclose(y[:rows * pad].reshape(rows, pad)[:, :r_len], ref, rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(y[2 * pad:2 * pad + rows], v.mean(1), rtol=1e-5, atol=1e-6)


def test_group_norm_page_example():
    """The GroupNorm page's example: x = 0..127 as [2, 8, 4, 2], gamma = beta = 0..7, 4 groups."""
    tiling = NV.GetGroupNormNDTilingInfo(TensorShape([2, 8, 4, 2]), 0, 4, False, 4)

    def body(x, out, tmp):
        g, b = out[256], out[264]
        _fill(g, range(8))
        _fill(b, range(8))
        NV.GroupNorm(out, out[128], out[136], x, g, b, tmp, 1e-5, tiling)
    x = np.zeros(N, np.float32)
    x[:128] = np.arange(128)
    y, res = run(body, x, 272)
    assert not res.diagnostics.codes()
    np.testing.assert_allclose(y[128:136], [7.5, 23.5, 39.5, 55.5, 71.5, 87.5, 103.5, 119.5], rtol=1e-7)
    np.testing.assert_allclose(y[136:144], [21.25] * 8, rtol=1e-6)
    np.testing.assert_array_equal(y[0:8], 0.0)
    np.testing.assert_allclose(y[8:16], [1.1084652, 1.3253956, 1.542326, 1.7592564, 1.9761869, 2.1931171, 2.4100475,
                                         2.6269782], rtol=1e-6)
    np.testing.assert_allclose(y[120:128], [7.7592564, 9.277769, 10.796282, 12.314795, 13.833308, 15.351821,
                                            16.870335, 18.388847], rtol=1e-6)


def test_welford_finalize_page_example():
    """The WelfordFinalize page's example: means = M2s = 0..31, counts 4, rRec = 1/4096: mean 0.484375,
    variance 9.831062 (the count-weighted formula reproduces both)."""
    def body(x, out, tmp):
        counts = out[64].ReinterpretCast(np.int32)
        MB.Duplicate(counts, 4, 32)
        para = NG.WelfordFinalizePara(1, 32, 0, 0, 0, 0, 1.0 / 32, 1.0 / 4096, 1.0 / 4095)
        NG.WelfordFinalize(out[96], out[104], x, x, counts, tmp, para)
    x = np.zeros(N, np.float32)
    x[:32] = np.arange(32)
    y, res = run(body, x, 112)
    assert not res.diagnostics.codes()
    assert y[96] == np.float32(0.484375)
    np.testing.assert_allclose(y[104], 9.831062, rtol=1e-6)


def test_welford_update_page_example():
    """The WelfordUpdate page's example: x = 1, mean = M2 = 0..63, nRec 1/8, abComputeLength 35, isInplace:
    the first 35 elements updated, the rest the inputs."""
    def body(x, out, tmp):
        MB.Duplicate(out, 1.0, 64)
        NG.WelfordUpdate(out[128], out[192], x, x, out, tmp, NG.WelfordUpdateParam(1, 64, 35, 0.125), config=1)
    x = np.zeros(N, np.float32)
    x[:64] = np.arange(64)
    y, res = run(body, x, 256)
    assert not res.diagnostics.codes()
    mean, m2 = y[128:192], y[192:256]
    np.testing.assert_array_equal(mean[:4], [0.125, 1.0, 1.875, 2.75])
    np.testing.assert_array_equal(mean[34:37], [29.875, 35.0, 36.0])
    np.testing.assert_array_equal(m2[:4], [0.875, 1.0, 2.875, 6.5])
    np.testing.assert_array_equal(m2[34:37], [986.875, 35.0, 36.0])


def test_batch_norm_page_example():
    """The BatchNorm page's example: x = 0..63 as [8, 4, 2], gamma = beta = 0..7 (per batch index); its printed
    outputs are those of epsilon = 0.01 (the example does not show it)."""
    tiling = NV.GetBatchNormNDTilingInfo(TensorShape([8, 4, 2]), TensorShape([8, 4, 2]), 0, 4, False)

    def body(x, out, tmp):
        g, b = out[128], out[136]
        _fill(g, range(8))
        _fill(b, range(8))
        NV.BatchNorm(out, out[64], out[72], x, g, b, tmp, 0.01, tiling)
    x = np.zeros(N, np.float32)
    x[:64] = np.arange(64)
    y, res = run(body, x, 144)
    assert not res.diagnostics.codes()
    np.testing.assert_array_equal(y[64:72], np.arange(28, 36))
    np.testing.assert_allclose(y[72:80], 336.0, rtol=1e-7)
    rows = [0.0, -0.091073155, 0.6907122, 2.345356, 4.8728585, 8.27322, 12.546439, 17.692516]
    np.testing.assert_allclose(y[:64].reshape(8, 8), np.repeat(np.array(rows)[:, None], 8, 1), rtol=1e-6, atol=1e-7)


def test_rms_norm_and_normalize_pages_examples():
    """RmsNorm's example (x = gamma = 0..15, eps 1e-5) and Normalize's (x = 0..63 as [8, 8], mean = variance =
    0..7, gamma = beta = 1; its outputs are those of epsilon = 0.001)."""
    from toolkit.ascendc.highlevel import normalization as NM
    rms = NM.GetRmsNormTilingInfo(TensorShape([1, 1, 16]), TensorShape([1, 1, 16]), 0, 4)

    def body(x, out, tmp):
        g = out[64]
        _fill(g, range(16))
        NM.RmsNorm(out, x, g, tmp, 1e-5, rms)
        mean, var, ones = out[96], out[104], out[112]
        _fill(mean, range(8))
        _fill(var, range(8))
        MB.Duplicate(ones, 1.0, 8)
        NV.Normalize(out[128], out[192], mean, var, x[64], ones, ones, tmp, 0.001, NV.NormalizePara(8, 8, 8))
    x = np.zeros(N, np.float32)
    x[:16] = np.arange(16)
    x[64:128] = np.arange(64)
    y, res = run(body, x, 200)
    assert not res.diagnostics.codes()
    np.testing.assert_allclose(y[:16], [0.0, 0.11359233, 0.4543693, 1.022331, 1.8174772, 2.8398082, 4.089324, 5.566024,
                                        7.269909, 9.200979, 11.359233, 13.744672, 16.357296, 19.197104, 22.264095,
                                        25.558275], rtol=1e-6)
    np.testing.assert_allclose(y[128:136], [1.0, 32.622772, 64.245544, 95.868324, 127.4911, 159.11388, 190.73665,
                                            222.35942], rtol=1e-6)


def test_layer_norm_page_example():
    """LayerNorm's [B, S, H] example: x = 0..63 as [1, 8, 8], gamma = beta = 0..7 (outputs of epsilon 1e-4)."""
    from toolkit.ascendc.highlevel import normalization as NM
    ln = NM.GetLayerNormNDTilingInfo(TensorShape([1, 8, 8, 8]), 0, 4, False)

    def body(x, out, tmp):
        g = out[128]
        _fill(g, range(8))
        NM.LayerNorm(out, out[64], out[72], x, g, g, tmp, 1e-4, ln)
    x = np.zeros(N, np.float32)
    x[:64] = np.arange(64)
    y, res = run(body, x, 136)
    assert not res.diagnostics.codes()
    row = [0.0, -0.09107912, 0.69070506, 2.3453526, 4.8728633, 8.273237, 12.546474, 17.692575]
    np.testing.assert_allclose(y[:64].reshape(8, 8), np.repeat(np.array(row)[None], 8, 0), rtol=2e-6, atol=1e-7)
    np.testing.assert_allclose(y[64:72], np.arange(8) * 8 + 3.5, rtol=1e-7)
    np.testing.assert_allclose(y[72:80], 5.25, rtol=1e-6)
