"""The variants of a lineup side by side: each variant past the first runs and is timed in a forked
worker process while this process runs the first, so a command that runs two backends takes about the
time of the slower one on a machine with two free cores.

The results are the ones a run here gives: the worker runs the same code on the same data (inherited
by the fork, not copied), with this process's settings (launch mode, loop batching, the machine). It
sends back the run without its events, its cycle summary and the views asked for (a timing is tens
of MB of small objects: pickling it would cost more than the run saves). The worker's finished cores
reach this process's progress listener.

A worker is owned as every child of the tool is (``toolkit.console.children``): it ignores Ctrl-C (the
terminal sends it to both; this process decides), and when this process stops early (an interrupt, an
error) the worker is terminated, waited for and killed with anything below it. An exception in the
worker is raised here; a worker that dies without a result (killed, out of memory) has its variant run
again here, which gives the same result or fails here as it would have.

Why by hand: ``concurrent.futures`` pickles a job's arguments (the case data, hundreds of MB) and
reports nothing while a job runs; a fork shares the data and a pipe carries the progress.
"""
from __future__ import annotations

import dataclasses
import multiprocessing
import os
import signal
import sys
import threading
from contextlib import ExitStack
from typing import Any, Callable, Mapping

from toolkit.console.children import die_with_parent, kill_tree, reap
from toolkit.console.outputs import held_signals
from toolkit.engine.listeners import current_listener, listening
from toolkit.machine import Machine
from toolkit.timing.model import TimingModel

from .lineup import Lineup, Timed, time_run
from .run import Run

#: seconds a terminated worker has to exit before it is killed
STOP_GRACE_S = 2.0


def can_fork() -> bool:
    return "fork" in multiprocessing.get_all_start_methods()


class WorkerDied(Exception):
    """The worker ended without sending a result."""


class Forked:
    """``fn()`` in a forked worker; :meth:`result` is its return value or raises its exception."""

    def __init__(self, fn: Callable[[], Any]):
        ctx = multiprocessing.get_context("fork")
        self._recv, send = ctx.Pipe(duplex=False)
        self._msg: tuple | None = None
        listener = current_listener()
        with held_signals():                     # an interrupt now would leave a worker nobody stops
            self.proc = ctx.Process(target=_worker, args=(fn, send, os.getpid()), daemon=True)
            self.proc.start()
        send.close()
        self._reader = threading.Thread(target=self._read, args=(listener,), name="worker-pipe", daemon=True)
        self._reader.start()

    def _read(self, listener) -> None:
        try:
            while True:
                msg = self._recv.recv()
                if msg[0] != "core":
                    self._msg = msg
                    return
                if listener is not None:
                    listener(msg[1], msg[2])
        except (EOFError, OSError):
            return

    def result(self) -> Any:
        self._reader.join()
        self.proc.join()
        if self._msg is None:
            raise WorkerDied(f"the worker process ended without a result (exit code {self.proc.exitcode})")
        kind, value = self._msg
        if kind == "error":
            raise value
        return value

    def close(self) -> None:
        """Stop the worker if it still runs (terminate, wait, kill its tree), close the pipe."""
        with held_signals():
            if self.proc.is_alive():
                self.proc.terminate()
                self.proc.join(STOP_GRACE_S)
            if self.proc.is_alive():
                killed = kill_tree({self.proc.pid})
                self.proc.join(1.0)
                reap(killed - {self.proc.pid})
            self._reader.join(1.0)                # the worker's end of the pipe is closed: end of file
            self._recv.close()

    def __enter__(self) -> "Forked":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _worker(fn: Callable[[], Any], conn, parent: int) -> None:
    """The worker's body: Ctrl-C is the parent's, SIGTERM ends it at once, so does its parent's end (even
    a SIGKILL); its finished cores and its result (or exception) go through the pipe; it never returns
    into the parent's code."""
    code = 0
    try:
        die_with_parent(parent)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        for name in ("SIGTERM", "SIGHUP"):
            if hasattr(signal, name):
                signal.signal(getattr(signal, name), signal.SIG_DFL)
        # a parent thread may have held stderr's lock at the fork (the progress line): write through a new one
        sys.stderr = os.fdopen(os.dup(2), "w", buffering=1)
        with listening(lambda core, block_num: conn.send(("core", core, block_num))):
            msg: tuple = ("result", fn())
    except BaseException as err:                 # the parent raises it
        msg = ("error", err)
    try:
        conn.send(msg)
    except Exception as err:                     # e.g. an exception that does not pickle
        try:
            conn.send(("error", RuntimeError(f"the worker's {msg[0]} could not be sent: {err}")))
        except Exception:
            code = 1
    finally:
        os._exit(code)


def _start(stack: ExitStack, jobs: dict) -> dict:
    """key -> the :class:`Forked` worker of ``jobs[key]`` (closed with ``stack``); a job whose worker
    cannot start (EAGAIN, ENOMEM; a daemonic process cannot fork) is left out: it runs here."""
    started = {}
    for key, fn in jobs.items():
        try:
            started[key] = stack.enter_context(Forked(fn))
        except (OSError, AssertionError):
            pass
    return started


def _away(n: int, workers: int) -> range:
    """The jobs (by place) that go to workers: those after the first, up to ``workers - 1`` of them."""
    return range(1, min(max(workers, 1), n)) if can_fork() else range(0)


def _collect(started: dict, here: Callable[[Any], Any]) -> dict:
    """key -> the result of each started worker; one that died without a result: ``here(key)``."""
    out = {}
    for key, worker in started.items():
        try:
            out[key] = worker.result()
        except WorkerDied:
            out[key] = here(key)
    return out


def forked_map(jobs: list[Callable[[], Any]], workers: int = 1) -> list[Any]:
    """Each job's result, in order: with ``workers`` > 1 the jobs after the first (up to ``workers - 1``
    of them) each in a worker (their results must pickle: keep them small), the rest here. A worker that
    cannot start or dies without a result has its job run here."""
    out: list[Any] = [None] * len(jobs)
    with ExitStack() as stack:
        started = _start(stack, {k: jobs[k] for k in _away(len(jobs), workers)})
        for k, job in enumerate(jobs):
            if k not in started:
                out[k] = job()
        for k, got in _collect(started, lambda k: jobs[k]()).items():
            out[k] = got
    return out


def slim(timed: Timed) -> Timed:
    """The record a worker sends: the run without its events and machine (the parent has the machine)."""
    launch = timed.run.launch
    cores = [dataclasses.replace(c, events=[]) for c in launch.cores]
    run = dataclasses.replace(timed.run, launch=dataclasses.replace(launch, cores=cores, machine=None))
    return dataclasses.replace(timed, run=run)


def _restore(timed: Timed, machine: Machine) -> Timed:
    timed.run.launch.machine = machine
    return timed


def run_lineup(variants: Mapping[str, Callable[[], Run]], machine: Machine, *, workers: int = 1,
               views: tuple[str, ...] = (), stage: Callable[[str], None] = lambda _: None) -> Lineup:
    """The :class:`Lineup` of ``variants`` (name -> a function that runs it): with ``workers`` > 1 the
    variants after the first (up to ``workers - 1`` of them) each run in a worker, the rest here (all
    run, then all timed: ``stage("cycle model")`` between); ``views``: what the workers make of their
    timings (``trace``, ``timeline``), all the report needs."""
    names = list(variants)
    model = TimingModel(machine)
    timed: dict[str, Timed] = {}
    timings = {}

    def job(name: str) -> Timed:
        return slim(time_run(variants[name](), names.index(name), model, views)[1])

    def time_here(name: str, run: Run) -> Timed:
        timings[name], timed[name] = time_run(run, names.index(name), model)
        return timed[name]

    with ExitStack() as stack:
        started = _start(stack, {names[k]: (lambda n=names[k]: job(n)) for k in _away(len(names), workers)})
        here = {n: variants[n]() for n in names if n not in started}
        stage("cycle model")
        for n, run in here.items():
            time_here(n, run)
        del here
        got = _collect(started, lambda n: time_here(n, variants[n]()))
        timed.update((n, _restore(t, machine)) for n, t in got.items())
    return Lineup({n: timed[n].run for n in names}, machine, timed, timings, model)
