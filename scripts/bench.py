#!/usr/bin/env python3
"""Wall-clock and memory benchmarks of the main jobs (not a test: speed goes here).

    python scripts/bench.py [--repeat N] [--quick] [--no-jobs] [--json PATH|-]
                            [--elementwise-rows N] [--elementwise-only] [--profile]

Three tables, measured in one run on the same machine:

* **scaling** (KV operator at 1024, 8192 and 65536 rows; ``--quick``: 1024 and 8192 only). Per size:
  the numpy golden of the same operator on the same data (float32 RMSNorm + RoPE of the case's bf16
  inputs, outputs rounded to bf16; best of ``--repeat``), then in a fresh process per backend the
  emulation (``host.run_backend``: launch on every core, golden gate, UB plan) and the cycle model
  (``TimingModel.launch`` + the cycle summary), each per row and as a multiple of the golden, with the
  memory the run adds per row (resident set sampled during the run minus before it); then the headline
  command ``migrate-check kv_rms_norm_rope_cache --batch B --seq S`` as a user runs it (a fresh process,
  CLI start included): wall time, per row, multiple of the golden, peak resident set and its growth per
  row over the smallest size; and, as the command runs its backends side by side from 4096 rows (a
  forked worker: ``toolkit.harness.forked``), the peak proportional set size of it and its worker
  (``/proc/PID/smaps_rollup``, sampled; shared pages counted once) and its growth per row.
* **elementwise** (``--elementwise-only``: this row alone): our GeLU kernel (operators/elementwise/gelu_tanh.py:
  13 vector ops per element, one VF per row, 128 hardware-loop iterations per VF) on x[8192, 8192] fp32 over
  64 cores (``--elementwise-rows N``: N rows; ``--quick``: 1024). In a fresh process: the emulation (GM
  buffers and the launch; data generation not counted) and its peak resident set as a multiple of the
  input + output bytes; in another, the numpy golden of the same op chain on the same data (best of
  ``--repeat``, at least 3) and its peak; their ratio; whether the output is bit-identical to the golden.
  ``--profile``: the emulation runs under cProfile and the top entries are printed (times inflated).
* **jobs** (``--no-jobs`` skips them): median wall time of ``migrate-check kv_rms_norm_rope_cache`` at the
  sample shape (both backends, and RegBase alone), the 26-kernel ``migrate-check simd_vf_story`` and the
  calibration table of ``scripts/calibrate.py``, in-process, ``--repeat`` times each; and the start-up:
  ``migrate-check --help`` in a fresh process (median of 10, wall and CPU time).
"""
from __future__ import annotations

import argparse
import contextlib
import hashlib
import cProfile
import io
import json
import os
import pstats
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from typing import Callable

from toolkit.cli import ArgParser, BadUsage, guarded
from toolkit.console.children import descendants, proc_table
from toolkit.console.outputs import OutputPlan

#: (batch, seq) of each size: rows = batch * seq (the sample is 8 x 128)
SIZES = {1024: (8, 128), 8192: (64, 128), 65536: (64, 1024)}
QUICK = (1024, 8192)
BACKENDS = ("membase", "regbase")
#: the elementwise row: x[rows, cols] fp32 on 64 cores (cols 8192 = 128 VL chunks: the VF's iterations)
ELEMENTWISE = {"rows": 8192, "cols": 8192, "cores": 64}
ELEMENTWISE_QUICK_ROWS = 1024
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
    """Highest resident set seen while the block runs (sampled every ``interval`` s); ``measure``: what
    is sampled (default this process's resident set)."""

    def __init__(self, interval: float = 0.005, measure: Callable[[], int] | None = None):
        self.interval, self.peak, self._stop = interval, 0, threading.Event()
        self.measure = measure or _rss_bytes

    def _sample(self) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, self.measure())
            self._stop.wait(self.interval)

    def __enter__(self) -> "RssPeak":
        self.peak = self.measure()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()
        self.peak = max(self.peak, self.measure())


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


def _tree_pss_bytes(pid: int) -> int:
    """Proportional set size of ``pid`` and every process below it (shared pages counted once in all: a
    forked worker's pages it shares with the parent are not counted twice); 0 once it is gone."""
    total = 0
    for p in descendants([pid], proc_table() or {}):
        try:
            with open(f"/proc/{p}/smaps_rollup") as f:
                total += next(int(line.split()[1]) for line in f if line.startswith("Pss:")) * 1024
        except (OSError, StopIteration, ValueError):
            continue
    return total


def spawn(cmd: list[str], env: dict | None = None) -> tuple[float, int, str, int]:
    """Run ``cmd`` in a fresh process (``env``: variables added): (wall seconds, its peak resident set in
    bytes, its stdout, the peak PSS of it and its workers in bytes: 0 where /proc cannot tell)."""
    with tempfile.TemporaryFile("w+") as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=err, stdin=subprocess.DEVNULL, text=True,
                                env={**os.environ, **env} if env else None)
        with RssPeak(0.02, lambda: _tree_pss_bytes(proc.pid)) as tree:
            out = proc.stdout.read()
            proc.stdout.close()
            _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode not in (0, 1):
            err.seek(0)
            raise RuntimeError(f"{' '.join(cmd)} exited {proc.returncode}: {err.read().strip()[-400:]}")
    return wall, usage.ru_maxrss * 1024, out, tree.peak


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
    wall, peak, _, tree = spawn(_migrate_check() + ["kv_rms_norm_rope_cache", *shape])
    out["command"] = {"wall_s": wall, "peak_rss_bytes": peak, "peak_tree_pss_bytes": tree}
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
        tree, tree0 = c.get("peak_tree_pss_bytes"), base["command"].get("peak_tree_pss_bytes")
        c["tree_growth_kb_per_row"] = ((tree - tree0) / (rows - base["rows"]) / 1024
                                       if r is not base and tree and tree0 else None)


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
        tree = "-" if c["tree_growth_kb_per_row"] is None else f"{c['tree_growth_kb_per_row']:.1f} KB/row"
        lines.append(f"{r['rows']:>6} {'command':9} wall {c['wall_s']:.2f} s = {c['ms_per_row']:.3f} ms/row = "
                     f"{c['x_golden']:.0f}x golden ({r['golden_us_per_row']:.2f} us/row), peak RSS "
                     f"{c['peak_rss_bytes'] / 2**20:.0f} MB, growth {growth}; with its worker (PSS) "
                     f"{c['peak_tree_pss_bytes'] / 2**20:.0f} MB, growth {tree}")
    return "\n".join(lines)


# -- the elementwise row ------------------------------------------------------------------------------
def elementwise_child(rows: int, cols: int, profile: bool, repeat: int) -> dict:
    """Emulate the GeLU kernel on x[rows, cols] (fresh process) ``max(repeat, 2)`` times: the first run
    (cold: the process's first touch of its GM and UB pages) and the best of the rest (warm, as the
    golden's best-of is), peak memory, bit-exactness. ``profile``: the last run under cProfile."""
    import numpy as np

    from operators.elementwise import gelu_tanh as G

    t0 = time.perf_counter()
    x = G.gen_x(rows, cols)
    gen_s = time.perf_counter() - t0
    tiling = G.make_tiling(rows, cols, ELEMENTWISE["cores"])
    before = _rss_bytes()
    n = max(repeat, 2)
    with RssPeak() as mem:
        runs = [_emulate_once(G, x, tiling, profile and k == n - 1) for k in range(n)]
    best = min(runs[1:], key=lambda r: r["emulate_s"])
    out = {"gen_s": gen_s, "cold_s": runs[0]["emulate_s"],
           "emulate_s": best["emulate_s"], "emulate_cpu_s": best["emulate_cpu_s"], "runs": len(runs),
           "peak_rss_bytes": mem.peak, "growth_bytes": mem.peak - before, "io_bytes": 2 * x.nbytes,
           "split_s": best["split_s"], "loop_batching": best["loop_batching"]}
    want = hashlib.blake2b(np.ascontiguousarray(G.golden(x)).view(np.uint8)).hexdigest()
    out["bit_exact"] = all(r["y_hash"] == want for r in runs)
    out["passed"] = out["bit_exact"] and all(r["clean"] for r in runs)
    if "profile" in runs[-1]:
        out["profile"] = runs[-1]["profile"]
    return out


def _emulate_once(G, x, tiling, profile: bool) -> dict:
    """One emulation of the GeLU kernel: GM buffers and the launch (data generation not counted)."""
    from toolkit.engine.launch import gm_alloc, launch

    prof = cProfile.Profile() if profile else None
    with _TimeSplit() as split:
        t0, c0 = time.perf_counter(), time.process_time()
        gx, gy = gm_alloc("x", x, share=True), gm_alloc("y", x.nbytes)
        if prof:
            prof.enable()
        run = launch(G.gelu_tanh, G.block_num(tiling), [gx, gy, tiling])
        if prof:
            prof.disable()
        out = {"emulate_s": time.perf_counter() - t0, "emulate_cpu_s": time.process_time() - c0}
    out.update(split_s=split.seconds, loop_batching=run.meta.get("loop_batching", {}),
               clean=not run.aborted and not run.diagnostics.errors(),
               y_hash=hashlib.blake2b(gy.buf.data).hexdigest())       # not the array: peak memory stays one run's
    if prof:
        text = io.StringIO()
        stats = pstats.Stats(prof, stream=text)
        stats.sort_stats("tottime").print_stats(20)
        stats.sort_stats("cumulative").print_stats(25)
        out["profile"] = text.getvalue()
    return out


class _TimeSplit:
    """Where an emulation's time goes: inside VF instances (lock-step batches of them), inside DMA copies
    parked in lock-step, and the rest (the cores' own Python: queues, scalar code, the lock-step engine)."""

    def __enter__(self) -> "_TimeSplit":
        from toolkit.ascendc import dma
        from toolkit.ascendc.regbase import vf
        self.seconds = {"vf": 0.0, "dma": 0.0}
        self._undo = [self._wrap(vf, "execute_vf", "vf"), self._wrap(dma.DmaRequest, "run_globs", "dma")]
        return self

    def _wrap(self, owner, name: str, bucket: str):
        fn = getattr(owner, name)

        def timed(*a, **kw):
            t0 = time.perf_counter()
            try:
                return fn(*a, **kw)
            finally:
                self.seconds[bucket] += time.perf_counter() - t0
        setattr(owner, name, timed)
        return lambda: setattr(owner, name, fn)

    def __exit__(self, *exc) -> None:
        for undo in self._undo:
            undo()


def elementwise_golden_child(rows: int, cols: int, repeat: int) -> dict:
    """The numpy golden of the same op chain on the same data (fresh process): its first run (cold), the
    best of the rest (warm) and peak memory."""
    from operators.elementwise import gelu_tanh as G

    x = G.gen_x(rows, cols)
    wall, cpu = [], []
    with RssPeak() as mem:
        for _ in range(max(repeat, 2) + 1):
            t0, c0 = time.perf_counter(), time.process_time()
            G.golden(x)
            wall.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
    return {"cold_s": wall[0], "golden_s": min(wall[1:]), "golden_cpu_s": min(cpu[1:]), "peak_rss_bytes": mem.peak}


def measure_elementwise(rows: int, repeat: int, profile: bool) -> dict:
    cols = ELEMENTWISE["cols"]
    me = [sys.executable, os.path.abspath(__file__), "--repeat", str(repeat), *(["--profile"] if profile else []),
          "--child"]
    out = {"rows": rows, "cols": cols, "cores": ELEMENTWISE["cores"], "iterations_per_vf": cols // 64,
           "profiled": profile}
    out["golden"] = json.loads(spawn(me + ["elementwise-golden", str(rows), str(cols)])[2])
    out["emulation"] = json.loads(spawn(me + ["elementwise", str(rows), str(cols)])[2])
    small = str(min(rows, ELEMENTWISE_QUICK_ROWS))          # what batching the hardware loops buys, one shape
    out["unbatched"] = {"rows": int(small), "batched_s": json.loads(spawn(
        me + ["elementwise", small, str(cols)])[2])["emulate_s"], "unbatched_s": json.loads(spawn(
            me + ["elementwise", small, str(cols)], {"MIGRATE_CHECK_LOOP_BATCH": "0"})[2])["emulate_s"]}
    e, g = out["emulation"], out["golden"]
    out["x_golden"] = e["emulate_s"] / g["golden_s"]
    out["cold_x_golden"] = e["cold_s"] / g["cold_s"]
    out["cpu_x_golden"] = e["emulate_cpu_s"] / g["golden_cpu_s"]
    e["x_io"] = e["peak_rss_bytes"] / e["io_bytes"]
    g["x_io"] = g["peak_rss_bytes"] / e["io_bytes"]
    return out


def elementwise_table(r: dict) -> str:
    e, g = r["emulation"], r["golden"]
    mb = 2 ** 20
    note = " (under cProfile: times inflated)" if r["profiled"] else ""
    head = (f"elementwise x[{r['rows']}, {r['cols']}] fp32 on {r['cores']} cores, {r['iterations_per_vf']} "
            f"iterations per VF, 13 ops/element (operators/elementwise/gelu_tanh.py){note}")
    times = (f"  emulate {e['emulate_s']:.2f} s (best of {e['runs'] - 1} after the first; data generation "
             f"{e['gen_s']:.2f} s, not counted) = {r['x_golden']:.1f}x the numpy golden ({g['golden_s']:.3f} s, best "
             f"of its runs after the first); output bit-identical to the golden: "
             f"{'yes' if e['bit_exact'] else 'NO'}\n"
             f"  first runs (the process's first touch of its pages): emulate {e['cold_s']:.2f} s, golden "
             f"{g['cold_s']:.3f} s = {r['cold_x_golden']:.1f}x\n"
             f"  CPU time: emulate {e['emulate_cpu_s']:.2f} s = {r['cpu_x_golden']:.1f}x the golden's "
             f"{g['golden_cpu_s']:.3f} s (the wall-time ratio drifts when other jobs load the machine)")
    memory = (f"  peak RSS {e['peak_rss_bytes'] / mb:.0f} MB = {e['x_io']:.2f}x input + output "
              f"({e['io_bytes'] / mb:.0f} MB; the run added {e['growth_bytes'] / mb:.0f} MB); golden peak "
              f"{g['peak_rss_bytes'] / mb:.0f} MB = {g['x_io']:.2f}x")
    sp, total = e["split_s"], e["emulate_s"]
    where = (f"  where the time goes: VF instances {sp['vf']:.2f} s ({100 * sp['vf'] / total:.0f}%), lock-step DMA "
             f"{sp['dma']:.2f} s ({100 * sp['dma'] / total:.0f}%), the rest (the cores' Python: queues, scalar "
             f"code, lock-step engine, buffers) {total - sp['vf'] - sp['dma']:.2f} s; hardware loops: "
             + ", ".join(f"{k} {v}" for k, v in sorted(e["loop_batching"].items())))
    u = r["unbatched"]
    batching = (f"  loop batching at x[{u['rows']}, {r['cols']}]: {u['unbatched_s']:.2f} s unbatched "
                f"(MIGRATE_CHECK_LOOP_BATCH=0) -> {u['batched_s']:.2f} s = {u['unbatched_s'] / u['batched_s']:.1f}x")
    return "\n".join([head, times, memory, where, batching])


# -- the jobs table -----------------------------------------------------------------------------------
def _time(fn, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        with contextlib.redirect_stdout(io.StringIO()):
            fn()
        out.append(time.perf_counter() - t0)
    return out


def startup(n: int = 10) -> dict:
    """``migrate-check --help`` in a fresh process ``n`` times: median wall and CPU (user + system) seconds."""
    walls, cpus = [], []
    for _ in range(n):
        t0 = time.perf_counter()
        proc = subprocess.Popen(_migrate_check() + ["--help"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                stdin=subprocess.DEVNULL)
        _, _, usage = os.wait4(proc.pid, 0)
        walls.append(time.perf_counter() - t0)
        cpus.append(usage.ru_utime + usage.ru_stime)
    return {"median_s": statistics.median(walls), "cpu_median_s": statistics.median(cpus), "times_s": walls}


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
    out = {name: {"median_s": statistics.median(t), "times_s": t} for name, t in results.items()}
    s = out["migrate-check --help (fresh process)"] = startup()
    say(f"{'migrate-check --help (fresh process)':58s} median {s['median_s']:6.2f} s  (CPU {s['cpu_median_s']:.2f} s, "
        f"n={len(s['times_s'])})")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = ArgParser(prog="bench.py", description="wall-clock and memory benchmarks")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="scaling table at 1024 and 8192 rows only")
    ap.add_argument("--no-jobs", action="store_true", help="skip the in-process jobs table")
    ap.add_argument("--elementwise-rows", type=int, default=None,
                    help=f"rows of the elementwise row's x (default {ELEMENTWISE['rows']}; --quick: "
                         f"{ELEMENTWISE_QUICK_ROWS})")
    ap.add_argument("--elementwise-only", action="store_true", help="run the elementwise row alone")
    ap.add_argument("--profile", action="store_true", help="profile the elementwise emulation (cProfile top entries)")
    ap.add_argument("--json", default=None, help="write the figures as JSON to PATH ('-' = stdout)")
    ap.add_argument("--child", nargs=3, metavar=("WHAT", "N1", "N2"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        print(json.dumps(run_child(args.child[0], int(args.child[1]), int(args.child[2]), args)))
        return 0
    if args.repeat <= 0:
        raise BadUsage(f"--repeat must be positive (got {args.repeat})")
    rows = args.elementwise_rows or (ELEMENTWISE_QUICK_ROWS if args.quick else ELEMENTWISE["rows"])
    if rows <= 0:
        raise BadUsage(f"--elementwise-rows must be positive (got {rows})")
    plan = OutputPlan({"json": args.json})

    def say(text: str) -> None:
        if not plan.stdout_taken:
            print(text, flush=True)

    scaling: list[dict] = []
    for size in (() if args.elementwise_only else QUICK if args.quick else tuple(SIZES)):
        scaling.append(measure_size(size, args.repeat))
    derive(scaling)
    if scaling:
        say(scaling_table(scaling))
    elementwise = measure_elementwise(rows, args.repeat, args.profile)
    say(elementwise_table(elementwise))
    if args.profile:
        say(elementwise["emulation"]["profile"])
    jobs = {} if args.no_jobs or args.elementwise_only else run_jobs(args.repeat, say)
    if "json" in plan:
        plan.commit({"json": json.dumps({"scaling": scaling, "elementwise": elementwise, "jobs": jobs}, indent=2)})
    return 0


def run_child(what: str, n1: int, n2: int, args: argparse.Namespace) -> dict:
    """One measurement of a fresh process (``--child WHAT N1 N2``; N1, N2: batch, seq or rows, cols)."""
    if what == "golden":
        return {"golden_s": golden_seconds(n1, n2, args.repeat)}
    if what == "elementwise":
        return elementwise_child(n1, n2, args.profile, args.repeat)
    if what == "elementwise-golden":
        return elementwise_golden_child(n1, n2, args.repeat)
    return child(what, n1, n2)


if __name__ == "__main__":
    sys.exit(guarded("bench.py", main))
