#!/usr/bin/env python3
"""Inputs and goldens of the KvRmsNormRopeCache sample (numpy only): kv [B,1,S,dv+dk], gamma [dv], cos/sin
[B,1,S,dk] drawn from default_rng(seed) in that order as float32, rounded to bf16 (add 0x7FFF + lsb, keep
the high half); golden RMSNorm + RoPE in float32 on the bf16-decoded inputs; caches filled by index."""
import argparse
import os

import numpy as np


def to_bf16(x):
    bits = np.asarray(x, dtype=np.float32).view(np.uint32)
    return ((bits + np.uint32(0x7FFF) + ((bits >> np.uint32(16)) & np.uint32(1))) >> np.uint32(16)).astype(np.uint16)


def from_bf16(bits):
    return (np.asarray(bits, dtype=np.uint16).astype(np.uint32) << np.uint32(16)).view(np.float32)


def build_golden(kv, gamma, cos, sin, dv, epsilon):
    x, r = kv[..., :dv], kv[..., dv:]
    v_out = x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + np.float32(epsilon)) * gamma
    real, imag = r[..., 0::2], r[..., 1::2]
    k_out = np.concatenate((real, imag), axis=-1) * cos + np.concatenate((-imag, real), axis=-1) * sin
    return k_out, v_out


def main():
    p = argparse.ArgumentParser()
    for name in ("batch", "seq", "dv", "dk"):
        p.add_argument(f"--{name}", type=int, required=True)
    p.add_argument("--epsilon", type=float, default=1e-5)
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--output", default=".")
    a = p.parse_args()
    if a.dk % 2:
        p.error("dk must be even")
    rng = np.random.default_rng(a.seed)
    kv = rng.uniform(-0.7, 0.7, (a.batch, 1, a.seq, a.dv + a.dk)).astype(np.float32)
    gamma = rng.uniform(0.4, 1.2, (a.dv,)).astype(np.float32)
    cos = rng.uniform(-1.0, 1.0, (a.batch, 1, a.seq, a.dk)).astype(np.float32)
    sin = rng.uniform(-1.0, 1.0, (a.batch, 1, a.seq, a.dk)).astype(np.float32)
    index = np.tile(np.arange(a.seq), a.batch).astype(np.int64)
    kv_b, gamma_b, cos_b, sin_b = to_bf16(kv), to_bf16(gamma), to_bf16(cos), to_bf16(sin)
    k_out, v_out = build_golden(from_bf16(kv_b), from_bf16(gamma_b), from_bf16(cos_b), from_bf16(sin_b), a.dv,
                                a.epsilon)
    k_out_b, v_out_b = to_bf16(k_out), to_bf16(v_out)
    k_cache = np.zeros((a.batch, 1, a.seq, a.dk), dtype=np.uint16)
    v_cache = np.zeros((a.batch, 1, a.seq, a.dv), dtype=np.uint16)
    files = {"input/kv": kv_b, "input/gamma": gamma_b, "input/cos": cos_b, "input/sin": sin_b,
             "input/index": index, "input/k_cache": k_cache.copy(), "input/v_cache": v_cache.copy()}
    for b in range(a.batch):
        for s in range(a.seq):
            idx = int(index[b * a.seq + s])
            if idx >= 0:
                k_cache[b, :, idx, :] = k_out_b[b, :, s, :]
                v_cache[b, :, idx, :] = v_out_b[b, :, s, :]
    files.update({"output/k_cache_golden": k_cache, "output/v_cache_golden": v_cache,
                  "output/k_out_golden": k_out_b, "output/v_out_golden": v_out_b})
    for name, arr in files.items():
        path = os.path.join(a.output, name + ".bin")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        arr.tofile(path)


if __name__ == "__main__":
    main()
