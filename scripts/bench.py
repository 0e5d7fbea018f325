#!/usr/bin/env python3
"""Wall-clock benchmarks of the main jobs (not a test: speed goes here).

    python scripts/bench.py [--repeat N]

Times, in-process: the full `migrate-check kv_rms_norm_rope_cache` at the sample shape (both backends,
golden gate, UB plan, cycle model), the 26-kernel `migrate-check simd_vf_story`, and the calibration
table of scripts/calibrate.py.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import statistics
import sys
import time

from toolkit.cli import main as migrate_check


def _time(fn, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        with contextlib.redirect_stdout(io.StringIO()):
            fn()
        out.append(time.perf_counter() - t0)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="wall-clock benchmarks")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    sys.path.insert(0, "scripts")
    import calibrate  # noqa: E402

    jobs = {
        "migrate-check kv_rms_norm_rope_cache (sample shape)": lambda: migrate_check(["kv_rms_norm_rope_cache"]),
        "migrate-check kv_rms_norm_rope_cache --backend regbase": lambda: migrate_check(
            ["kv_rms_norm_rope_cache", "--backend", "regbase"]),
        "migrate-check simd_vf_story (26 kernels)": lambda: migrate_check(["simd_vf_story"]),
        "scripts/calibrate.py (table)": lambda: calibrate.main([]),
    }
    for name, fn in jobs.items():
        times = _time(fn, args.repeat)
        print(f"{name:58s} median {statistics.median(times):6.2f} s  (min {min(times):.2f}, max {max(times):.2f}, "
              f"n={len(times)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
