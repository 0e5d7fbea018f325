"""Golden data for KvRmsNormRopeCache, byte-compatible with the sample's ``scripts/gen_data.py``.

Inputs are drawn from ``numpy.random.default_rng(seed)`` in the order kv, gamma, cos, sin, each cast
to float32 right after drawing, then rounded to bf16 with the sample's integer trick. The golden
math runs in float32 on the bf16-decoded inputs; outputs use the same rounding. With
``num_head == 1`` the files equal the vendor generator's byte for byte; other head counts put N
where the vendor shapes have 1.
"""
from __future__ import annotations

import argparse
import os
from typing import Sequence

import numpy as np

from host.binio import case_layout, write_bin

_ROUND_BIAS = np.uint32(0x7FFF)


def fp32_to_bf16_bits(x: np.ndarray) -> np.ndarray:
    """bf16 bits (uint16) of float32 values: add ``0x7FFF + lsb`` to the bits, keep the high half.

    Round-half-to-even on finite values; no NaN special case (as in the sample).
    """
    bits = np.asarray(x, dtype=np.float32).view(np.uint32)
    lsb = (bits >> np.uint32(16)) & np.uint32(1)
    return ((bits + _ROUND_BIAS + lsb) >> np.uint32(16)).astype(np.uint16)


def bf16_bits_to_fp32(bits: np.ndarray) -> np.ndarray:
    """float32 values of bf16 bit patterns (``bits << 16``)."""
    wide = np.asarray(bits, dtype=np.uint16).astype(np.uint32) << np.uint32(16)
    return wide.view(np.float32)


def rms_norm(x: np.ndarray, gamma: np.ndarray, epsilon: float) -> np.ndarray:
    """``x / sqrt(mean(x*x, -1) + eps) * gamma`` in float32."""
    ms = np.mean(x * x, axis=-1, keepdims=True)
    rms = np.sqrt(ms + np.float32(epsilon))
    return x / rms * gamma


def rope(r: np.ndarray, cos: np.ndarray, sin: np.ndarray) -> np.ndarray:
    """``concat(real, imag)*cos + concat(-imag, real)*sin`` with real/imag the even/odd elements."""
    real = r[..., 0::2]
    imag = r[..., 1::2]
    part1 = np.concatenate((real, imag), axis=-1)
    part2 = np.concatenate((-imag, real), axis=-1)
    return part1 * cos + part2 * sin


def scatter_cache(cache: np.ndarray, out: np.ndarray, index: np.ndarray) -> np.ndarray:
    """In place: ``cache[b, :, index[b, s], :] = out[b, :, s, :]`` for every (b, s) with index >= 0."""
    batch, seq = index.shape
    for b in range(batch):
        for s in range(seq):
            idx = int(index[b, s])
            if idx >= 0:
                cache[b, :, idx, :] = out[b, :, s, :]
    return cache


def generate(batch: int, seq: int, dv: int, dk: int, epsilon: float = 1e-5, seed: int = 2026,
             num_head: int = 1) -> dict[str, np.ndarray]:
    """Every input and golden array of a case (uint16 bf16 bits, int64 index), keyed as the files."""
    if dk % 2:
        raise ValueError("dk must be even")
    for name, value in (("batch", batch), ("seq", seq), ("dv", dv), ("dk", dk),
                        ("num_head", num_head)):
        if value <= 0:
            raise ValueError(f"{name} must be positive")
    n = num_head
    rng = np.random.default_rng(seed)
    kv = rng.uniform(-0.7, 0.7, (batch, n, seq, dv + dk)).astype(np.float32)
    gamma = rng.uniform(0.4, 1.2, (dv,)).astype(np.float32)
    cos = rng.uniform(-1.0, 1.0, (batch, n, seq, dk)).astype(np.float32)
    sin = rng.uniform(-1.0, 1.0, (batch, n, seq, dk)).astype(np.float32)
    index = np.tile(np.arange(seq), batch).astype(np.int64).reshape(batch, seq)

    kv_bits = fp32_to_bf16_bits(kv)
    gamma_bits = fp32_to_bf16_bits(gamma)
    cos_bits = fp32_to_bf16_bits(cos)
    sin_bits = fp32_to_bf16_bits(sin)

    kv_f = bf16_bits_to_fp32(kv_bits)
    v_out = rms_norm(kv_f[..., :dv], bf16_bits_to_fp32(gamma_bits), epsilon)
    k_out = rope(kv_f[..., dv:], bf16_bits_to_fp32(cos_bits), bf16_bits_to_fp32(sin_bits))
    k_out_bits = fp32_to_bf16_bits(k_out)
    v_out_bits = fp32_to_bf16_bits(v_out)

    k_cache = np.zeros((batch, n, seq, dk), dtype=np.uint16)
    v_cache = np.zeros((batch, n, seq, dv), dtype=np.uint16)
    arrays = {
        "input/kv": kv_bits,
        "input/gamma": gamma_bits,
        "input/cos": cos_bits,
        "input/sin": sin_bits,
        "input/index": index,
        "input/k_cache": k_cache.copy(),
        "input/v_cache": v_cache.copy(),
        "output/k_cache_golden": scatter_cache(k_cache, k_out_bits, index),
        "output/v_cache_golden": scatter_cache(v_cache, v_out_bits, index),
        "output/k_out_golden": k_out_bits,
        "output/v_out_golden": v_out_bits,
    }
    layout = case_layout(batch, n, seq, dv, dk)
    for key, arr in arrays.items():
        assert (arr.dtype, arr.shape) == layout[key], key
    return arrays


def write(output_dir: str | os.PathLike, arrays: dict[str, np.ndarray]) -> None:
    """Write ``arrays`` as ``output_dir/<key>.bin`` (creates ``input/`` and ``output/``)."""
    for sub in ("input", "output"):
        os.makedirs(os.path.join(output_dir, sub), exist_ok=True)
    for key, arr in arrays.items():
        write_bin(os.path.join(output_dir, key + ".bin"), arr)


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description="KvRmsNormRopeCache inputs and golden outputs.")
    p.add_argument("--batch", type=int, required=True)
    p.add_argument("--seq", type=int, required=True)
    p.add_argument("--dv", type=int, required=True)
    p.add_argument("--dk", type=int, required=True)
    p.add_argument("--epsilon", type=float, default=1e-5)
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--output", default=".", metavar="DIR")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """CLI: parse, validate (exit code 2 on bad sizes), generate and write; returns 0."""
    parser = _parser()
    args = parser.parse_args(argv)
    for name in ("batch", "seq", "dv", "dk"):
        if getattr(args, name) <= 0:
            parser.error(f"{name} must be positive")
    if args.dk % 2:
        parser.error("dk must be even")
    arrays = generate(args.batch, args.seq, args.dv, args.dk, epsilon=args.epsilon, seed=args.seed)
    write(args.output, arrays)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
