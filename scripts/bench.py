#!/usr/bin/env python3
"""Wall-clock benchmarks of the main jobs (not a test: speed goes here).

    python scripts/bench.py [--repeat N] [--json PATH|-]

Times, in-process: the full `migrate-check kv_rms_norm_rope_cache` at the sample shape (both backends,
golden gate, UB plan, cycle model), the 26-kernel `migrate-check simd_vf_story`, and the calibration
table of scripts/calibrate.py.
"""
from __future__ import annotations

import contextlib
import io
import json
import statistics
import sys
import time

from toolkit.cli import ArgParser, BadUsage, guarded
from toolkit.cli import main as migrate_check
from toolkit.outputs import OutputPlan


def _time(fn, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        with contextlib.redirect_stdout(io.StringIO()):
            fn()
        out.append(time.perf_counter() - t0)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = ArgParser(prog="bench.py", description="wall-clock benchmarks")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", default=None, help="write the timings as JSON to PATH ('-' = stdout)")
    args = ap.parse_args(argv)
    if args.repeat <= 0:
        raise BadUsage(f"--repeat must be positive (got {args.repeat})")
    plan = OutputPlan({"json": args.json})
    sys.path.insert(0, "scripts")
    import calibrate  # noqa: E402

    jobs = {
        "migrate-check kv_rms_norm_rope_cache (sample shape)": lambda: migrate_check(["kv_rms_norm_rope_cache"]),
        "migrate-check kv_rms_norm_rope_cache --backend regbase": lambda: migrate_check(
            ["kv_rms_norm_rope_cache", "--backend", "regbase"]),
        "migrate-check simd_vf_story (26 kernels)": lambda: migrate_check(["simd_vf_story"]),
        "scripts/calibrate.py (table)": lambda: calibrate.main([]),
    }
    results = {}
    for name, fn in jobs.items():
        times = results[name] = _time(fn, args.repeat)
        if not plan.stdout_taken:
            print(f"{name:58s} median {statistics.median(times):6.2f} s  (min {min(times):.2f}, "
                  f"max {max(times):.2f}, n={len(times)})", flush=True)
    if "json" in plan:
        plan.commit({"json": json.dumps({name: {"median_s": statistics.median(t), "times_s": t}
                                         for name, t in results.items()}, indent=2)})
    return 0


if __name__ == "__main__":
    sys.exit(guarded("bench.py", main))
