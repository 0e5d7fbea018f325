#!/usr/bin/env python3
"""Input and golden of the softmax story (numpy only): x[256, 2048] from the legacy global generator
(np.random.seed(seed), uniform(-3, 3) in float64, cast to float32); golden = float32 softmax over the last
axis (max with keepdims, exp(x - max), divided by the sum with keepdims). Raw little-endian float32 files
DIR/input/input_x.bin and DIR/output/golden.bin."""
import argparse
import os

import numpy as np

TOTAL_M, TOTAL_N = 256, 2048


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--output", default=".")
    p.add_argument("--seed", type=int, default=42)
    args = p.parse_args()
    np.random.seed(args.seed)
    x = np.random.uniform(-3, 3, [TOTAL_M, TOTAL_N]).astype(np.float32)
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    golden = (e / np.sum(e, axis=-1, keepdims=True)).astype(np.float32)
    for sub, name, arr in (("input", "input_x.bin", x), ("output", "golden.bin", golden)):
        os.makedirs(os.path.join(args.output, sub), exist_ok=True)
        arr.astype("<f4").tofile(os.path.join(args.output, sub, name))


if __name__ == "__main__":
    main()
