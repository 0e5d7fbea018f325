#!/usr/bin/env python3
"""Wall-clock and memory benchmarks of the main jobs (not a test: speed goes here).

    python scripts/bench.py [--repeat N] [--quick] [--no-jobs] [--json PATH|-]

Two tables, measured in one run on the same machine:

* **scaling** (KV operator at 1024, 8192 and 65536 rows; ``--quick``: 1024 and 8192 only). Per size:
  the numpy golden of the same operator on the same data (float32 RMSNorm + RoPE of the case's bf16
  inputs, outputs rounded to bf16; best of ``--repeat``), then in a fresh process per backend the
  emulation (``host.run_backend``: launch on every core, golden gate, UB plan) and the cycle model
  (``TimingModel.launch`` + the cycle summary), each per row and as a multiple of the golden, with the
  memory the run adds per row (resident set sampled during the run minus before it); then the headline
  command ``migrate-check kv_rms_norm_rope_cache --batch B --seq S`` as a user runs it (a fresh process,
  CLI start included): wall time, per row, multiple of the golden, peak resident set and its growth per
  row over the smallest size.
* **jobs** (``--no-jobs`` skips them): median wall time of ``migrate-check kv_rms_norm_rope_cache`` at the
  sample shape (both backends, and RegBase alone), the 26-kernel ``migrate-check simd_vf_story`` and the
  calibration table of ``scripts/calibrate.py``, in-process, ``--repeat`` times each.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

from toolkit.cli import ArgParser, BadUsage, guarded
from toolkit.console.outputs import OutputPlan

#: (batch, seq) of each size: rows = batch * seq (the sample is 8 x 128)
SIZES = {1024: (8, 128), 8192: (64, 128), 65536: (64, 1024)}
QUICK = (1024, 8192)
BACKENDS = ("membase", "regbase")
_PAGE = os.sysconf("SC_PAGE_SIZE")


# -- the numpy golden ------------------------------------------------------------------------------
def golden(case: dict, dv: int, epsilon: float) -> tuple:
    """The operator in numpy (float32) on the case's bf16 inputs, outputs rounded to bf16 bits."""
    from operators.kv_rms_norm_rope_cache.gen_data import (
        bf16_bits_to_fp32,
        fp32_to_bf16_bits,
        rms_norm,
        rope,
    )

    kv = bf16_bits_to_fp32(case["input/kv"])
    v = rms_norm(kv[..., :dv], bf16_bits_to_fp32(case["input/gamma"]), epsilon)
    k = rope(kv[..., dv:], bf16_bits_to_fp32(case["input/cos"]), bf16_bits_to_fp32(case["input/sin"]))
    return fp32_to_bf16_bits(v), fp32_to_bf16_bits(k)


def golden_seconds(batch: int, seq: int, repeat: int) -> float:
    from operators.kv_rms_norm_rope_cache.gen_data import generate
    from operators.kv_rms_norm_rope_cache.host import KvParams

    p = KvParams(batch=batch, seq=seq)
    case = generate(p.batch, p.seq, p.dv, p.dk, epsilon=p.epsilon, seed=p.seed)
    best = float("inf")
    for _ in range(max(repeat, 5)):            # cheap: best of at least 5 against noise
        t0 = time.perf_counter()
        golden(case, p.dv, p.epsilon)
        best = min(best, time.perf_counter() - t0)
    return best


# -- one backend in a fresh process (``--child``) ---------------------------------------------------
def _rss_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * _PAGE


class RssPeak:
    """Highest resident set seen while the block runs (sampled every ``interval`` s)."""

    def __init__(self, interval: float = 0.005):
        self.interval, self.peak, self._stop = interval, 0, threading.Event()

    def _sample(self) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, _rss_bytes())
            self._stop.wait(self.interval)

    def __enter__(self) -> "RssPeak":
        self.peak = _rss_bytes()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()
        self.peak = max(self.peak, _rss_bytes())


def child(backend: str, batch: int, seq: int) -> dict:
    """Emulate and time one backend on the case of (batch, seq); print what it cost as JSON."""
    from operators.kv_rms_norm_rope_cache import host
    from toolkit.machine import load_machine
    from toolkit.timing.model import TimingModel
    from toolkit.views.cycles import cycle_summary

    p = host.KvParams(batch=batch, seq=seq)
    machine = load_machine()
    case = host.load_case(p, None)
    before = _rss_bytes()
    with RssPeak() as mem:
        t0 = time.perf_counter()
        run = host.run_backend(backend, p, case, machine)
        t1 = time.perf_counter()
        summary = cycle_summary(TimingModel(machine).launch(run.launch), aborted=run.launch.aborted)
        t2 = time.perf_counter()
    return {"emulate_s": t1 - t0, "cycles_s": t2 - t1, "passed": run.passed,
            "kernel_cycles": summary.get("kernel_cycles"), "growth_bytes": mem.peak - before}


def spawn(cmd: list[str]) -> tuple[float, int, str]:
    """Run ``cmd`` in a fresh process: (wall seconds, its peak resident set in bytes, its stdout)."""
    with tempfile.TemporaryFile("w+") as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=err, stdin=subprocess.DEVNULL, text=True)
        out = proc.stdout.read()
        proc.stdout.close()
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode not in (0, 1):
            err.seek(0)
            raise RuntimeError(f"{' '.join(cmd)} exited {proc.returncode}: {err.read().strip()[-400:]}")
    return wall, usage.ru_maxrss * 1024, out


def _migrate_check() -> list[str]:
    exe = os.path.join(os.path.dirname(sys.executable), "migrate-check")
    if os.path.exists(exe):
        return [exe]
    found = shutil.which("migrate-check")
    return [found] if found else [sys.executable, "-c", "import sys; from toolkit.cli import main; main()"]


# -- the scaling table --------------------------------------------------------------------------------
def measure_size(rows: int, repeat: int) -> dict:
    """Golden, each backend (fresh process) and the headline command at one size."""
    batch, seq = SIZES[rows]
    out: dict = {"rows": rows, "batch": batch, "seq": seq}
    me = [sys.executable, os.path.abspath(__file__), "--repeat", str(repeat), "--child"]
    # every measurement in a fresh process: a child forked from a large parent would start its peak
    # resident set (which survives exec) at the parent's
    out["golden_s"] = json.loads(spawn(me + ["golden", str(batch), str(seq)])[2])["golden_s"]
    for backend in BACKENDS:
        out[backend] = json.loads(spawn(me + [backend, str(batch), str(seq)])[2])
    shape = [] if (batch, seq) == SIZES[1024] else ["--batch", str(batch), "--seq", str(seq)]
    wall, peak, _ = spawn(_migrate_check() + ["kv_rms_norm_rope_cache", *shape])
    out["command"] = {"wall_s": wall, "peak_rss_bytes": peak}
    return out


def derive(results: list[dict]) -> None:
    """Per-row figures, multiples of the golden and memory growth per row (in place)."""
    base = results[0] if results else None
    for r in results:
        rows, g = r["rows"], r["golden_s"]
        r["golden_us_per_row"] = g / rows * 1e6
        for backend in BACKENDS:
            b = r[backend]
            b["total_s"] = b["emulate_s"] + b["cycles_s"]
            for key in ("emulate", "cycles", "total"):
                b[f"{key}_ms_per_row"] = b[f"{key}_s"] / rows * 1e3
            b["x_golden"] = b["total_s"] / g
            b["growth_kb_per_row"] = b["growth_bytes"] / rows / 1024
        c = r["command"]
        c["ms_per_row"] = c["wall_s"] / rows * 1e3
        c["x_golden"] = c["wall_s"] / g
        c["growth_kb_per_row"] = ((c["peak_rss_bytes"] - base["command"]["peak_rss_bytes"])
                                  / (rows - base["rows"]) / 1024 if r is not base else None)


def scaling_table(results: list[dict]) -> str:
    lines = [f"{'rows':>6} {'what':9} {'emulate':>9} {'cycles':>9} {'total':>9} {'x golden':>9} "
             f"{'memory':>10}   (ms/row; memory: KB/row the run adds)"]
    for r in results:
        for backend in BACKENDS:
            b = r[backend]
            lines.append(f"{r['rows']:>6} {backend:9} {b['emulate_ms_per_row']:9.3f} {b['cycles_ms_per_row']:9.3f} "
                         f"{b['total_ms_per_row']:9.3f} {b['x_golden']:8.0f}x {b['growth_kb_per_row']:10.1f}")
        c = r["command"]
        growth = "-" if c["growth_kb_per_row"] is None else f"{c['growth_kb_per_row']:.1f} KB/row"
        lines.append(f"{r['rows']:>6} {'command':9} wall {c['wall_s']:.2f} s = {c['ms_per_row']:.3f} ms/row = "
                     f"{c['x_golden']:.0f}x golden ({r['golden_us_per_row']:.2f} us/row), peak RSS "
                     f"{c['peak_rss_bytes'] / 2**20:.0f} MB, growth {growth}")
    return "\n".join(lines)


# -- the jobs table -----------------------------------------------------------------------------------
def _time(fn, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        with contextlib.redirect_stdout(io.StringIO()):
            fn()
        out.append(time.perf_counter() - t0)
    return out


def run_jobs(repeat: int, say) -> dict:
    from toolkit.cli import main as migrate_check

    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
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
        times = results[name] = _time(fn, repeat)
        say(f"{name:58s} median {statistics.median(times):6.2f} s  (min {min(times):.2f}, "
            f"max {max(times):.2f}, n={len(times)})")
    return {name: {"median_s": statistics.median(t), "times_s": t} for name, t in results.items()}


def main(argv: list[str] | None = None) -> int:
    ap = ArgParser(prog="bench.py", description="wall-clock and memory benchmarks")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="scaling table at 1024 and 8192 rows only")
    ap.add_argument("--no-jobs", action="store_true", help="skip the in-process jobs table")
    ap.add_argument("--json", default=None, help="write the figures as JSON to PATH ('-' = stdout)")
    ap.add_argument("--child", nargs=3, metavar=("WHAT", "BATCH", "SEQ"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        what, batch, seq = args.child[0], int(args.child[1]), int(args.child[2])
        got = {"golden_s": golden_seconds(batch, seq, args.repeat)} if what == "golden" else child(what, batch, seq)
        print(json.dumps(got))
        return 0
    if args.repeat <= 0:
        raise BadUsage(f"--repeat must be positive (got {args.repeat})")
    plan = OutputPlan({"json": args.json})

    def say(text: str) -> None:
        if not plan.stdout_taken:
            print(text, flush=True)

    scaling = []
    for rows in (QUICK if args.quick else tuple(SIZES)):
        scaling.append(measure_size(rows, args.repeat))
    derive(scaling)
    say(scaling_table(scaling))
    jobs = {} if args.no_jobs else run_jobs(args.repeat, say)
    if "json" in plan:
        plan.commit({"json": json.dumps({"scaling": scaling, "jobs": jobs}, indent=2)})
    return 0


if __name__ == "__main__":
    sys.exit(guarded("bench.py", main))
