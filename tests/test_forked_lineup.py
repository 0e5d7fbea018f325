"""toolkit.harness.forked: the variants of a lineup side by side in forked workers give the report a run
in this process gives (JSON, text, trace, timelines), their cores reach the progress listener, an error
in a worker is raised here, a worker that dies has its variant run here, and an interrupted command
leaves no worker behind."""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time

import pytest
from _hostile import KV, MAIN, interrupt_when, invoke
from test_harness import add_one, case, check, plan_of
from tests.asc_hostile_support import alive

from operators.kv_rms_norm_rope_cache import host
from operators.kv_rms_norm_rope_cache.envelope import kv_envelope
from toolkit.console.children import children_of, proc_table
from toolkit.engine.listeners import listening
from toolkit.harness.forked import can_fork, forked_map, run_lineup
from toolkit.harness.run import run_case
from toolkit.machine import load_machine

pytestmark = pytest.mark.skipif(not can_fork(), reason="needs the fork start method")


@pytest.fixture(scope="module")
def machine():
    return load_machine()


def _variants(machine, blocks=(2, 3, 1)):
    def make(v, n):
        c = case(n)
        return lambda: run_case(add_one, n, c, check(c), variant=v, label=f"{v}/label", ub=plan_of(machine),
                                machine=machine)
    return {f"v{k}": make(f"v{k}", n) for k, n in enumerate(blocks)}


def _report(lineup) -> tuple:
    return (lineup.to_json({}, "variants"), lineup.text("UB plan (bytes)"), lineup.trace(),
            {k: lineup.view("timeline", k) for k in lineup.runs})


def test_side_by_side_gives_the_report_of_one_process(machine):
    here = run_lineup(_variants(machine), machine, workers=1)
    away = run_lineup(_variants(machine), machine, workers=3, views=("trace", "timeline"))
    assert not away.timings.keys() & {"v1", "v2"} and "v0" in away.timings     # v1, v2 were timed in workers
    assert _report(away) == _report(here)
    assert away.runs["v1"].launch.machine is machine and away.runs["v1"].events == []   # sent without events
    assert all(r.passed for r in away.runs.values())


def test_a_view_not_asked_of_a_worker_is_refused(machine):
    lineup = run_lineup(_variants(machine, (2, 2)), machine, workers=2)
    lineup.view("trace", "v0")                                              # timed here: made when asked
    with pytest.raises(LookupError, match="v1: the worker that timed it was not asked for its trace"):
        lineup.view("trace", "v1")


def test_the_cores_of_every_worker_reach_the_listener(machine):
    seen: dict[int, list] = {1: [], 3: []}
    for workers, got in seen.items():
        with listening(lambda core, block_num: got.append((core, block_num))):
            run_lineup(_variants(machine), machine, workers=workers)
    assert sorted(seen[3]) == sorted(seen[1]) == [(0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]


def test_an_error_in_a_worker_is_raised_here(machine):
    def broken():
        raise ValueError(f"no such tile in process {os.getpid()}")

    variants = {**_variants(machine, (2,)), "bad": broken}
    with pytest.raises(ValueError, match="no such tile in process") as err:
        run_lineup(variants, machine, workers=2)
    assert str(os.getpid()) not in str(err.value)                           # it was raised in the worker


def test_a_worker_that_dies_has_its_variant_run_here(machine):
    parent, ran = os.getpid(), []
    good = _variants(machine, (2, 3))

    def dies_away():
        if os.getpid() != parent:
            os.kill(os.getpid(), signal.SIGKILL)
        ran.append(os.getpid())
        return good["v1"]()

    lineup = run_lineup({"v0": good["v0"], "v1": dies_away}, machine, workers=2)
    assert ran == [parent] and "v1" in lineup.timings
    assert _report(lineup) == _report(run_lineup(good, machine, workers=1))


def test_forked_map_keeps_the_order_and_runs_a_dead_workers_job_here():
    parent = os.getpid()

    def dies_away():
        if os.getpid() != parent:
            os.kill(os.getpid(), signal.SIGKILL)
        return "here"

    jobs = [lambda: os.getpid() == parent, lambda: os.getpid() != parent, dies_away, lambda: os.getpid() == parent]
    assert forked_map(jobs, workers=3) == [True, True, "here", True]       # the 4th: past the workers, here
    assert forked_map(jobs[:1] + jobs[3:], workers=1) == [True, True]


def test_the_kv_envelope_side_by_side_equals_one_process():
    p = host.KvParams(batch=1, seq=16)
    data, machine = host.load_case(p, None), load_machine()
    one = kv_envelope(p, data, machine, ["membase", "regbase"], seeds=1, workers=1)
    assert kv_envelope(p, data, machine, ["membase", "regbase"], seeds=1, workers=2) == one
    assert list(one["groups"]) == ["membase", "regbase"]


def test_kv_backends_side_by_side_give_the_same_outputs(tmp_path):
    files = {}
    for jobs in ("1", "2"):
        out = tmp_path / jobs
        out.mkdir()
        code, _, err = invoke(KV, "--batch", "2", "--seq", "32", "--jobs", jobs, "--json", str(out / "r.json"),
                              "--trace", str(out / "t.json"), "--html", str(out / "p.html"))
        assert code == 0, err
        files[jobs] = {p.name: p.read_bytes() for p in out.iterdir()}
    for got in files.values():          # the SVG ids count the charts this process drew (toolkit.views.charts)
        got["p.html"] = re.sub(rb"\b[a-z][0-9a-f]{10}\b", b"id", got["p.html"])
    assert files["1"] == files["2"] and json.loads(files["2"]["r.json"])["passed"]


def _start_with_worker(tmp_path, sig: int) -> tuple[subprocess.Popen, set[int]]:
    """The KV command side by side, sent ``sig`` once its worker runs: (the process, its workers)."""
    if not os.path.exists("/proc/self/stat"):
        pytest.skip("needs /proc to find the worker")
    proc = subprocess.Popen([sys.executable, "-c", MAIN["migrate-check"], KV, "--batch", "32", "--jobs", "2",
                             "--json", "r.json"], cwd=tmp_path, text=True, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    workers: set[int] = set()

    def running() -> bool:
        workers.update(children_of(proc.pid, proc_table() or {}))
        return bool(workers)

    interrupt_when(proc, running, sig)
    return proc, workers


def _gone(workers: set[int], within: float = 5.0) -> bool:
    end = time.monotonic() + within
    while any(alive(w) for w in workers) and time.monotonic() < end:
        time.sleep(0.05)
    return not any(alive(w) for w in workers)


@pytest.mark.parametrize("sig, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_an_interrupted_side_by_side_run_leaves_no_worker(tmp_path, sig, code):
    proc, workers = _start_with_worker(tmp_path, sig)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == code and err == "migrate-check: interrupted\n" and out == ""
    assert os.listdir(tmp_path) == [] and _gone(workers)


SLEEPER = """
import time
from toolkit.harness.forked import Forked
worker = Forked(lambda: time.sleep(60))
print(worker.proc.pid, flush=True)
worker.result()
"""


def test_the_worker_dies_with_a_killed_parent():
    """A parent killed outright (no handler runs) takes its worker with it, even one that sends nothing."""
    proc = subprocess.Popen([sys.executable, "-c", SLEEPER], stdout=subprocess.PIPE, text=True)
    worker = int(proc.stdout.readline())
    assert alive(worker)
    proc.kill()
    proc.communicate(timeout=60)
    assert _gone({worker})
