"""Processes that try to outrun the tree kill of an owned child (``toolkit.console.children``): a daemon's
double fork made at the moment the program ends (a SIGSTOP is only pending while a fork is under way:
CI once found such a daemon alive after the run), and a chain that forks and exits every few
milliseconds, each step re-parented to us. Nothing may be left alive, and no zombie of ours either."""
from __future__ import annotations

import os
import sys
import time
import uuid

from toolkit.console.children import Owned, children_of, proc_table

# the program forks a daemon (new session, double fork) and ends at once
_DAEMON = """
import os, sys, time
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        time.sleep(30)
    os._exit(0)
"""
# a chain: every step forks its successor and exits (retrying a refused fork); it gives up by itself
# after a few seconds, so a failing test cannot leave it running on the machine
_WALKER = """
import os, sys, time
end = time.time() + 4
while time.time() < end:
    try:
        pid = os.fork()
    except OSError:
        time.sleep(0.01)
        continue
    if pid:
        os._exit(0)
    os.setsid()
    time.sleep(0.002)
"""


def _alive_with(tag: str) -> list[int]:
    out = []
    for pid, (_, state) in (proc_table() or {}).items():
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                hit = tag.encode() in fh.read()
        except OSError:
            continue
        if hit and state not in "ZX":
            out.append(pid)
    return out


def _our_zombies() -> list[int]:
    table = proc_table() or {}
    return [p for p in children_of(os.getpid(), table) if table[p][1] == "Z"]


def _run_and_close(source: str, tag: str, wait_s: float) -> None:
    with Owned([sys.executable, "-c", source, tag]) as child:
        if wait_s:
            time.sleep(wait_s)
        else:
            child.pump()                             # until the program itself has ended


def _assert_nothing_left(tag: str) -> None:
    for pid in _alive_with(tag):                   # never leave them to the next test
        os.kill(pid, 9)
    time.sleep(0.1)
    assert _alive_with(tag) == []


def test_a_daemon_forked_as_the_program_ends_dies_with_it():
    tags = [f"daemon-{uuid.uuid4().hex}" for _ in range(12)]
    escaped = []
    for tag in tags:
        _run_and_close(_DAEMON, tag, 0)
        escaped += _alive_with(tag)
        _assert_nothing_left(tag)
    assert escaped == []
    assert _our_zombies() == []


def test_a_chain_that_forks_and_exits_every_few_ms_is_caught():
    for _ in range(4):
        tag = f"walker-{uuid.uuid4().hex}"
        _run_and_close(_WALKER, tag, 0.1)
        left = _alive_with(tag)
        _assert_nothing_left(tag)
        assert left == [], "a step of the chain outlived the kill"
        assert _our_zombies() == [], "the chain's dead steps were left to pile up as our zombies"
