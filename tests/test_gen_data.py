"""operators.kv_rms_norm_rope_cache.gen_data: bf16 rounding, input draws, golden math, cache scatter, files and CLI."""
import os
import runpy
import sys

import ml_dtypes
import numpy as np
import pytest

from operators.kv_rms_norm_rope_cache import gen_data
from operators.kv_rms_norm_rope_cache.gen_data import (
    bf16_bits_to_fp32,
    fp32_to_bf16_bits,
    generate,
)

B, S, DV, DK = 2, 16, 512, 128
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _round(bits32):
    return int(fp32_to_bf16_bits(np.array([bits32], dtype=np.uint32).view(np.float32))[0])


@pytest.mark.parametrize("bits32, expected", [
    (0x3F800000, 0x3F80),  # 1.0 exact
    (0x00000000, 0x0000),  # +0 exact
    (0x80000000, 0x8000),  # -0 exact
    (0x3F808000, 0x3F80),  # tie, kept part even -> stays (rounds down)
    (0x3F818000, 0x3F82),  # tie, kept part odd -> rounds up to even
    (0x3F807FFF, 0x3F80),  # just below half -> down
    (0x3F808001, 0x3F81),  # just above half -> up
    (0x3FFF8000, 0x4000),  # tie on all-ones mantissa: carry into exponent (1.99.. -> 2.0)
    (0x3FFFFFFF, 0x4000),  # above half, carry into exponent
    (0xBF818000, 0xBF82),  # negative tie, odd -> up in magnitude
    (0xBF808000, 0xBF80),  # negative tie, even -> stays
    (0xC0490FDB, 0xC049),  # -pi -> -3.140625
    (0x7F7FFFFF, 0x7F80),  # largest float rounds to +inf
    (0x00008000, 0x0000),  # subnormal tie, even -> 0
    (0x00018000, 0x0002),  # subnormal tie, odd -> up
])
def test_bf16_rounding_hand_patterns(bits32, expected):
    assert _round(bits32) == expected


def test_bf16_rounding_matches_ml_dtypes_on_random_finite_values():
    rng = np.random.default_rng(7)
    bits = rng.integers(0, 2**32, size=200_000, dtype=np.uint64).astype(np.uint32)
    x = bits.view(np.float32)
    x = x[np.isfinite(x)]
    ref = x.astype(ml_dtypes.bfloat16).view(np.uint16)
    np.testing.assert_array_equal(fp32_to_bf16_bits(x), ref)
    y = rng.uniform(-3, 3, 10_000).astype(np.float32)
    ref = y.astype(ml_dtypes.bfloat16).view(np.uint16)
    np.testing.assert_array_equal(fp32_to_bf16_bits(y), ref)


def test_bf16_decode_is_shift_by_16():
    bits = np.array([0x3F80, 0xC049, 0x0000, 0x8000, 0x7F80], dtype=np.uint16)
    ref = bits.view(ml_dtypes.bfloat16).astype(np.float32)
    got = bf16_bits_to_fp32(bits)
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got.view(np.uint32), ref.view(np.uint32))


@pytest.fixture(scope="module")
def case():
    return generate(B, S, DV, DK)


def _bf16(x):
    return np.asarray(x, dtype=np.float32).astype(ml_dtypes.bfloat16).view(np.uint16)


def _dec(bits):
    return bits.view(ml_dtypes.bfloat16).astype(np.float32)


def test_keys_dtypes_shapes(case):
    expected = {
        "input/kv": (B, 1, S, DV + DK), "input/gamma": (DV,), "input/cos": (B, 1, S, DK),
        "input/sin": (B, 1, S, DK), "input/index": (B, S), "input/k_cache": (B, 1, S, DK),
        "input/v_cache": (B, 1, S, DV), "output/k_cache_golden": (B, 1, S, DK),
        "output/v_cache_golden": (B, 1, S, DV), "output/k_out_golden": (B, 1, S, DK),
        "output/v_out_golden": (B, 1, S, DV),
    }
    assert {k: v.shape for k, v in case.items()} == expected
    for key, arr in case.items():
        assert arr.dtype == (np.int64 if key == "input/index" else np.uint16), key


def test_inputs_rederived_from_rng(case):
    rng = np.random.default_rng(2026)
    kv = rng.uniform(-0.7, 0.7, (B, 1, S, DV + DK)).astype(np.float32)
    gamma = rng.uniform(0.4, 1.2, (DV,)).astype(np.float32)
    cos = rng.uniform(-1, 1, (B, 1, S, DK)).astype(np.float32)
    sin = rng.uniform(-1, 1, (B, 1, S, DK)).astype(np.float32)
    np.testing.assert_array_equal(case["input/kv"], _bf16(kv))
    np.testing.assert_array_equal(case["input/gamma"], _bf16(gamma))
    np.testing.assert_array_equal(case["input/cos"], _bf16(cos))
    np.testing.assert_array_equal(case["input/sin"], _bf16(sin))


def test_index_and_input_caches(case):
    expected = np.array([list(range(S))] * B, dtype=np.int64)
    np.testing.assert_array_equal(case["input/index"], expected)
    assert not case["input/k_cache"].any()
    assert not case["input/v_cache"].any()


@pytest.mark.parametrize("b, s", [(1, 5), (0, 0), (1, S - 1)])
def test_golden_token_recomputed(case, b, s):
    row = _dec(case["input/kv"][b, 0, s])
    gamma = _dec(case["input/gamma"])
    cos = _dec(case["input/cos"][b, 0, s])
    sin = _dec(case["input/sin"][b, 0, s])
    x = row[:DV]
    ms = np.mean(x * x)
    rms = np.sqrt(ms + np.float32(1e-5))
    v = (x / rms) * gamma
    r = row[DV:]
    h = DK // 2
    real, imag = r[0::2], r[1::2]
    first = real * cos[:h] - imag * sin[:h]
    second = imag * cos[h:] + real * sin[h:]
    k = np.concatenate([first, second])
    assert v.dtype == np.float32 and k.dtype == np.float32
    np.testing.assert_array_equal(case["output/v_out_golden"][b, 0, s], _bf16(v))
    np.testing.assert_array_equal(case["output/k_out_golden"][b, 0, s], _bf16(k))


def test_cache_golden_rows_follow_index(case):
    index = case["input/index"]
    for b in range(B):
        for s in range(S):
            idx = index[b, s]
            np.testing.assert_array_equal(case["output/k_cache_golden"][b, :, idx],
                                          case["output/k_out_golden"][b, :, s])
            np.testing.assert_array_equal(case["output/v_cache_golden"][b, :, idx],
                                          case["output/v_out_golden"][b, :, s])


def test_scatter_cache_permuted_and_negative_index():
    out = np.arange(2 * 1 * 4 * 3, dtype=np.uint16).reshape(2, 1, 4, 3) + 1
    index = np.array([[3, -1, 0, -5], [1, 1, 2, -1]], dtype=np.int64)
    cache = gen_data.scatter_cache(np.zeros_like(out), out, index)
    expected = np.zeros_like(out)
    expected[0, :, 3] = out[0, :, 0]
    expected[0, :, 0] = out[0, :, 2]
    expected[1, :, 1] = out[1, :, 1]  # later token wins
    expected[1, :, 2] = out[1, :, 2]
    np.testing.assert_array_equal(cache, expected)


def test_num_head_shapes_and_default_identity(case):
    again = generate(B, S, DV, DK, num_head=1)
    for key in case:
        np.testing.assert_array_equal(again[key], case[key])
    two = generate(1, 4, 64, 16, num_head=2)
    assert two["input/kv"].shape == (1, 2, 4, 80)
    assert two["output/k_cache_golden"].shape == (1, 2, 4, 16)
    np.testing.assert_array_equal(two["output/k_cache_golden"], two["output/k_out_golden"])


def test_seed_and_epsilon_change_data(case):
    other = generate(B, S, DV, DK, seed=1)
    assert not np.array_equal(other["input/kv"], case["input/kv"])
    eps = generate(B, S, DV, DK, epsilon=0.5)
    np.testing.assert_array_equal(eps["input/kv"], case["input/kv"])
    assert not np.array_equal(eps["output/v_out_golden"], case["output/v_out_golden"])


SIZES = {
    "input/kv.bin": B * S * (DV + DK) * 2, "input/gamma.bin": DV * 2,
    "input/cos.bin": B * S * DK * 2, "input/sin.bin": B * S * DK * 2,
    "input/index.bin": B * S * 8, "input/k_cache.bin": B * S * DK * 2,
    "input/v_cache.bin": B * S * DV * 2, "output/k_cache_golden.bin": B * S * DK * 2,
    "output/v_cache_golden.bin": B * S * DV * 2, "output/k_out_golden.bin": B * S * DK * 2,
    "output/v_out_golden.bin": B * S * DV * 2,
}


def _listing(root):
    found = {}
    for sub in ("input", "output"):
        for name in os.listdir(os.path.join(root, sub)):
            found[f"{sub}/{name}"] = os.path.getsize(os.path.join(root, sub, name))
    return found


def test_cli_writes_generate_bytes(case, tmp_path):
    argv = ["--batch", str(B), "--seq", str(S), "--dv", str(DV), "--dk", str(DK),
            "--output", str(tmp_path)]
    assert gen_data.main(argv) == 0
    assert _listing(tmp_path) == SIZES
    for key, arr in case.items():
        raw = (tmp_path / (key + ".bin")).read_bytes()
        assert raw == arr.astype(arr.dtype.newbyteorder("<")).tobytes(), key
    index = np.frombuffer((tmp_path / "input/index.bin").read_bytes(), dtype="<i8")
    np.testing.assert_array_equal(index, np.tile(np.arange(S), B))


def test_script_file_runs_in_process(case, tmp_path, monkeypatch):
    script = os.path.join(REPO, "scripts", "gen_data.py")
    monkeypatch.setattr(sys, "argv", [script, "--batch", str(B), "--seq", str(S), "--dv", str(DV),
                                      "--dk", str(DK), "--output", str(tmp_path)])
    with pytest.raises(SystemExit) as exc:
        runpy.run_path(script, run_name="__main__")
    assert exc.value.code == 0
    raw = (tmp_path / "output/v_out_golden.bin").read_bytes()
    assert raw == case["output/v_out_golden"].astype("<u2").tobytes()


def test_odd_dk_is_rejected(capsys, tmp_path):
    code = gen_data.main(["--batch", "2", "--seq", "16", "--dv", "512", "--dk", "127", "--output", str(tmp_path)])
    assert code == 2
    assert capsys.readouterr().err == "gen_data.py: error: --dk must be even (got 127)\n"
    assert not os.listdir(tmp_path)
    with pytest.raises(ValueError, match="dk must be even"):
        generate(1, 1, 8, 3)


@pytest.mark.parametrize("flag", ["--batch", "--seq", "--dv", "--dk"])
def test_non_positive_sizes_rejected(capsys, flag):
    argv = {"--batch": "2", "--seq": "16", "--dv": "512", "--dk": "128"}
    argv[flag] = "0"
    assert gen_data.main([x for kv in argv.items() for x in kv]) == 2
    assert capsys.readouterr().err == f"gen_data.py: error: {flag} must be positive (got 0)\n"


@pytest.mark.parametrize("chunk", [1, 5, 31])
def test_rows_drawn_and_computed_in_chunks_give_the_same_case(case, chunk):
    """The generator works a bounded number of rows at a time; the files do not depend on it."""
    got = generate(B, S, DV, DK, chunk_rows=chunk)
    assert got.keys() == case.keys()
    assert all(np.array_equal(got[k], case[k]) and got[k].shape == case[k].shape for k in case)
    heads = generate(3, 5, 64, 32, num_head=2, seed=9, chunk_rows=chunk)
    assert all(np.array_equal(a, heads[k]) for k, a in generate(3, 5, 64, 32, num_head=2, seed=9).items())
