"""Run every point of a sweep, in parallel: on a local process pool (default) or a Dask cluster.

A *point* is a dict of parameters (picklable); a *row* is the dict the target's point function returns
for it (``series``, ``params``, ``status`` ok / refused / fail / crash, ``reason``, ``kernel_cycles``,
``ub_bytes``, ...). Every point gives a row: an exception inside the point function becomes a
``crash`` row with its one-line reason, and a worker process that dies is retried alone in a fresh
process, where dying again makes that point's ``crash`` row. Nothing a point does ends the sweep.

Points whose ``canonical`` key is equal describe the same run (e.g. a ubFactor above blockFactor is
capped to it): the run is made once and its row copied, with ``same_run_as`` naming the point that ran.
Rows come back in point order whatever the executor, so a local run and a Dask run of the same sweep
give equal rows (every point function is deterministic).
"""
from __future__ import annotations

import functools
import multiprocessing
import os
import signal
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Callable, Hashable, Sequence

from toolkit.console.children import (
    become_subreaper,
    children_of,
    kill_tree,
    proc_table,
    reap,
)
from toolkit.console.outputs import held_signals

PointFn = Callable[[dict], dict]


class SweepError(Exception):
    """The sweep cannot run at all (e.g. no Dask scheduler at the address): exit 2, one line."""


def crash_row(point: dict, reason: str) -> dict:
    return {"series": point.get("series", ""), "params": point.get("params", {}), "status": "crash",
            "passed": False, "reason": reason, "kernel_cycles": None, "ub_bytes": None}


def guarded(fn: PointFn, point: dict) -> dict:
    """``fn(point)``; an exception becomes the point's ``crash`` row (with the exception's one line)."""
    try:
        return fn(point)
    except Exception as err:                      # a point's failure is data, never the end of the sweep
        text = " ".join(str(err).split()) or "(no message)"
        return crash_row(point, f"crash: {type(err).__name__}: {text}"[:400])


#: seconds the workers have to unwind after SIGTERM before they (and what they started) are killed
STOP_GRACE_S = 3.0


def _stop(signum: int, frame: Any) -> None:
    raise SystemExit(128 + signum)


def _worker_init() -> None:
    """Pool workers leave Ctrl-C to the parent, which stops the pool with SIGTERM (a hangup too): that
    unwinds the point in progress (the children it owns are killed, its temp files removed), then the
    worker exits (:func:`_in_worker`): it never starts another point."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _stop)
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, _stop)


def _in_worker(fn: PointFn, point: dict) -> dict:
    """A point in a pool worker: its row; told to stop, the worker unwinds the point and exits at once
    (the pool would otherwise hand it the next point it has queued)."""
    try:
        return guarded(fn, point)
    except BaseException as stop:
        code = stop.code if isinstance(stop, SystemExit) and isinstance(stop.code, int) else 128 + signal.SIGTERM
        os._exit(code)


def _context():
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else methods[0])


def distinct(points: Sequence[dict], canonical: Callable[[dict], Hashable] | None) -> tuple[list[int], list[int]]:
    """(index of the point that runs for each point, indices of the points that run)."""
    first: dict[Hashable, int] = {}
    owner = []
    for k, p in enumerate(points):
        key = canonical(p) if canonical else k
        owner.append(first.setdefault(key, k))
    return owner, sorted(set(owner))


def run_points(fn: PointFn, points: Sequence[dict], *, canonical: Callable[[dict], Hashable] | None = None,
               jobs: int | None = None, dask: str | None = None, progress: Callable[[], None] | None = None
               ) -> list[dict]:
    """One row per point, in point order (see the module docstring); ``progress()`` is called as each
    distinct run finishes."""
    owner, unique = distinct(points, canonical)
    todo = [points[k] for k in unique]
    tick = progress or (lambda: None)
    if dask:
        done = _run_dask(fn, todo, dask, tick)
    else:
        done = _run_local(fn, todo, jobs or os.cpu_count() or 1, tick)
    by_index = dict(zip(unique, done))
    rows = []
    for k, p in enumerate(points):
        row = dict(by_index[owner[k]])
        if owner[k] != k:
            row["params"] = dict(p.get("params", {}))
            row["same_run_as"] = dict(points[owner[k]].get("params", {}))
        rows.append(row)
    return rows


def run_with_progress(fn: PointFn, points: Sequence[dict], note: str, **kw: Any) -> list[dict]:
    """:func:`run_points` with a progress line of the runs done on stderr (a terminal only)."""
    from toolkit.console.progress import ProgressLine
    line = ProgressLine(len(distinct(points, kw.get("canonical"))[1]), "runs")
    line.note = note
    try:
        return run_points(fn, points, progress=line.advance, **kw)
    finally:
        line.close()


def _run_local(fn: PointFn, points: list[dict], jobs: int, tick: Callable[[], None]) -> list[dict]:
    out: list[dict | None] = [None] * len(points)
    if jobs <= 1 or len(points) <= 1:
        for k, p in enumerate(points):
            out[k] = guarded(fn, p)
            tick()
        return out  # type: ignore[return-value]
    broken: list[int] = []
    become_subreaper()                             # a killed worker's children come to us, to be killed
    before = children_of(os.getpid(), proc_table() or {})
    with ProcessPoolExecutor(min(jobs, len(points)), mp_context=_context(), initializer=_worker_init) as pool:
        futures = {pool.submit(_in_worker, fn, p): k for k, p in enumerate(points)}
        try:
            for f in as_completed(futures):
                try:
                    out[futures[f]] = f.result()
                except BrokenProcessPool:
                    broken.append(futures[f])
                tick()
        except BaseException:                     # interrupted: stop the workers, do not wait for the points
            _terminate(pool, before)
            raise
    for k in sorted(broken):         # a worker died: run each affected point alone to find which one
        out[k] = _run_isolated(fn, points[k])
    return out  # type: ignore[return-value]


def _terminate(pool: ProcessPoolExecutor, spare: set[int] = frozenset()) -> None:
    """Stop every worker now: SIGTERM first (each unwinds its point and exits), then nothing new is
    queued; a worker still alive after :data:`STOP_GRACE_S` is killed with everything below it."""
    workers = list((getattr(pool, "_processes", None) or {}).values())
    with held_signals():
        for proc in workers:
            if proc.is_alive():
                proc.terminate()
        pool.shutdown(wait=False, cancel_futures=True)
        end = time.monotonic() + STOP_GRACE_S
        for proc in workers:
            proc.join(timeout=max(end - time.monotonic(), 0.0))
        pids = {p.pid for p in workers if p.pid is not None}
        killed = kill_tree(pids, spare=spare)
        for proc in workers:
            proc.join(timeout=1.0)
        reap(killed - pids)


def _run_isolated(fn: PointFn, point: dict) -> dict:
    with ProcessPoolExecutor(1, mp_context=_context(), initializer=_worker_init) as pool:
        try:
            return pool.submit(_in_worker, fn, point).result()
        except BrokenProcessPool:
            return crash_row(point, "crash: the worker process died (killed by a signal or os._exit)")


def _run_dask(fn: PointFn, points: list[dict], address: str, tick: Callable[[], None]) -> list[dict]:
    try:
        from dask.distributed import Client
    except ImportError:
        raise SweepError("--dask needs dask.distributed: pip install 'ascend-migrate-toolkit[dask]'") from None
    try:
        client = Client(address, timeout="20s", set_as_default=False)
    except (OSError, TimeoutError, ValueError) as err:
        raise SweepError(f"--dask {address}: cannot connect to a Dask scheduler ({err})") from None
    try:
        futures = client.map(functools.partial(guarded, fn), points, pure=False)
        rows = []
        for f, p in zip(futures, points):
            rows.append(_dask_result(f, p))
            tick()
        return rows
    finally:
        client.close()


def _dask_result(future: Any, point: dict) -> dict:
    try:
        return future.result()
    except Exception as err:                      # KilledWorker and friends: the point's row says so
        return crash_row(point, f"crash on the Dask cluster: {type(err).__name__}: {err}"[:400])
