"""Golden data for KvRmsNormRopeCache, byte-compatible with the sample's ``scripts/gen_data.py``.

Inputs are drawn from ``numpy.random.default_rng(seed)`` in the order kv, gamma, cos, sin, each cast
to float32 right after drawing, then rounded to bf16 with the sample's integer trick. The golden
math runs in float32 on the bf16-decoded inputs; outputs use the same rounding. With
``num_head == 1`` the files equal the vendor generator's byte for byte; other head counts put N
where the vendor shapes have 1.
"""
from __future__ import annotations

import os
from typing import Sequence

import numpy as np

from toolkit.harness.binio import case_layout, file_bytes

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


#: peak bytes the generator holds per byte of the case's files (float64 draws, float32 copies)
_GEN_BYTES_PER_FILE_BYTE = 12


def case_bytes(batch: int, num_head: int, seq: int, dv: int, dk: int) -> int:
    """Total size of the case's files (inputs and goldens), in bytes."""
    return sum(dt.itemsize * int(np.prod(shape, dtype=object))
               for dt, shape in case_layout(batch, num_head, seq, dv, dk).values())


def _memory_bytes() -> int | None:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, OSError, ValueError):
        return None


def check_params(batch: int, seq: int, dv: int, dk: int, *, num_head: int = 1, epsilon: float = 1e-5,
                 seed: int = 2026) -> None:
    """Refuse a case the generator cannot make (ValueError, one line naming the option). Shared by
    ``migrate-check kv_rms_norm_rope_cache`` and ``scripts/gen_data.py``, so both say the same."""
    for name, value in (("batch", batch), ("num-head", num_head), ("seq", seq), ("dv", dv), ("dk", dk)):
        if value <= 0:
            raise ValueError(f"--{name} must be positive (got {value})")
    if dk % 2:
        raise ValueError(f"--dk must be even (got {dk})")
    if not 0 <= epsilon <= float(np.finfo(np.float32).max):
        raise ValueError(f"--epsilon must be >= 0 and finite in fp32 (got {epsilon})")
    if seed < 0:
        raise ValueError(f"--seed must be >= 0 (got {seed})")
    need, have = _GEN_BYTES_PER_FILE_BYTE * case_bytes(batch, num_head, seq, dv, dk), _memory_bytes()
    if have is not None and need > have:
        raise ValueError(f"cannot generate data for batch {batch}, num_head {num_head}, seq {seq}, dv {dv}, "
                         f"dk {dk}: it needs about {need / 2**30:.3g} GiB of memory, this machine has "
                         f"{have / 2**30:.3g} GiB")


#: rows drawn and computed at a time: the float64 draws and float32 temporaries stay bounded (the
#: values do not depend on it: the generator fills arrays element by element, the math is per row)
CHUNK_ROWS = 1 << 12


def _draw_bits(rng: np.random.Generator, low: float, high: float, rows: int, width: int,
               chunk: int) -> np.ndarray:
    """bf16 bits of ``rng.uniform(low, high, (rows, width))`` cast to float32, drawn ``chunk`` rows at
    a time (the same draws as one call)."""
    out = np.empty((rows, width), dtype=np.uint16)
    for lo in range(0, rows, chunk):
        hi = min(lo + chunk, rows)
        out[lo:hi] = fp32_to_bf16_bits(rng.uniform(low, high, (hi - lo, width)).astype(np.float32))
    return out


def _golden_rows(kv_bits: np.ndarray, gamma_bits: np.ndarray, cos_bits: np.ndarray, sin_bits: np.ndarray,
                 dv: int, epsilon: float, chunk: int) -> tuple[np.ndarray, np.ndarray]:
    """(k_out, v_out) bits of (rows, dk) / (rows, dv) inputs: RoPE and RMSNorm, ``chunk`` rows at a time."""
    rows, dk = cos_bits.shape
    k_out = np.empty((rows, dk), dtype=np.uint16)
    v_out = np.empty((rows, dv), dtype=np.uint16)
    gamma = bf16_bits_to_fp32(gamma_bits)
    for lo in range(0, rows, chunk):
        hi = min(lo + chunk, rows)
        kv_f = bf16_bits_to_fp32(kv_bits[lo:hi])
        v_out[lo:hi] = fp32_to_bf16_bits(rms_norm(kv_f[:, :dv], gamma, epsilon))
        k_out[lo:hi] = fp32_to_bf16_bits(rope(kv_f[:, dv:], bf16_bits_to_fp32(cos_bits[lo:hi]),
                                              bf16_bits_to_fp32(sin_bits[lo:hi])))
    return k_out, v_out


def generate(batch: int, seq: int, dv: int, dk: int, epsilon: float = 1e-5, seed: int = 2026,
             num_head: int = 1, chunk_rows: int = CHUNK_ROWS) -> dict[str, np.ndarray]:
    """Every input and golden array of a case (uint16 bf16 bits, int64 index), keyed as the files."""
    check_params(batch, seq, dv, dk, num_head=num_head, epsilon=epsilon, seed=seed)
    n = num_head
    rows, chunk = batch * n * seq, max(int(chunk_rows), 1)
    rng = np.random.default_rng(seed)
    kv_bits = _draw_bits(rng, -0.7, 0.7, rows, dv + dk, chunk)
    gamma_bits = fp32_to_bf16_bits(rng.uniform(0.4, 1.2, (dv,)).astype(np.float32))
    cos_bits = _draw_bits(rng, -1.0, 1.0, rows, dk, chunk)
    sin_bits = _draw_bits(rng, -1.0, 1.0, rows, dk, chunk)
    index = np.tile(np.arange(seq), batch).astype(np.int64).reshape(batch, seq)
    k_out_bits, v_out_bits = _golden_rows(kv_bits, gamma_bits, cos_bits, sin_bits, dv, epsilon, chunk)
    shape = (batch, n, seq)
    kv_bits, cos_bits, sin_bits = (a.reshape(*shape, -1) for a in (kv_bits, cos_bits, sin_bits))
    k_out_bits, v_out_bits = k_out_bits.reshape(*shape, dk), v_out_bits.reshape(*shape, dv)

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


def output_plan(output_dir: str, batch: int, num_head: int, seq: int, dv: int, dk: int):
    """The OutputPlan of a case directory: ``DIR/input/*.bin`` and ``DIR/output/*_golden.bin``,
    checked now, created (directories included) all together at commit."""
    from toolkit.console.outputs import OutputError, OutputPlan, shown

    if output_dir == "":
        raise OutputError("cannot write --output '': empty path")
    if os.path.exists(output_dir) and not os.path.isdir(output_dir):
        raise OutputError(f"cannot write --output {shown(output_dir)}: not a directory")
    keys = case_layout(batch, num_head, seq, dv, dk)
    return OutputPlan({key: os.path.join(output_dir, key + ".bin") for key in keys},
                      labels={key: "--output" for key in keys}, make_dirs=True)


def write(output_dir: str | os.PathLike, arrays: dict[str, np.ndarray]) -> None:
    """Write ``arrays`` as ``output_dir/<key>.bin``: every file, or none (see toolkit.console.outputs)."""
    from toolkit.console.outputs import OutputPlan

    plan = OutputPlan({key: os.path.join(output_dir, key + ".bin") for key in arrays}, make_dirs=True)
    plan.commit({key: file_bytes(arr) for key, arr in arrays.items()})


def _parser():
    from toolkit.cli import ArgParser

    p = ArgParser(prog="gen_data.py", description="KvRmsNormRopeCache inputs and golden outputs.")
    p.add_argument("--batch", type=int, required=True)
    p.add_argument("--seq", type=int, required=True)
    p.add_argument("--dv", type=int, required=True)
    p.add_argument("--dk", type=int, required=True)
    p.add_argument("--epsilon", type=float, default=1e-5)
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--output", default=".", metavar="DIR")
    return p


def _run(argv: Sequence[str] | None) -> int:
    from toolkit.console.outputs import BadUsage

    args = _parser().parse_args(argv)
    try:
        check_params(args.batch, args.seq, args.dv, args.dk, epsilon=args.epsilon, seed=args.seed)
    except ValueError as err:
        raise BadUsage(str(err)) from None
    plan = output_plan(args.output, args.batch, 1, args.seq, args.dv, args.dk)
    arrays = generate(args.batch, args.seq, args.dv, args.dk, epsilon=args.epsilon, seed=args.seed)
    plan.commit({key: file_bytes(arr) for key, arr in arrays.items()})
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """CLI: parse, validate (exit 2, one line, on bad options or an unusable --output), generate, and
    write the whole directory or nothing. Returns the exit code (see toolkit.cli)."""
    from toolkit.cli import guarded

    return guarded("gen_data.py", lambda: _run(argv))


if __name__ == "__main__":
    raise SystemExit(main())
