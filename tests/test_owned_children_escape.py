"""Processes that try to outrun the tree kill of an owned child (``toolkit.console.children``): a daemon's
double fork made at the moment the program ends (a SIGSTOP is only pending while a fork is under way:
CI once found such a daemon alive after the run), and a chain that forks and exits every few
milliseconds, each step re-parented to us. Nothing may be left alive, and no zombie of ours either."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

from toolkit.console.children import proc_table

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


# the owner runs in a process of its own (a subreaper only of what it starts): the test process's own
# zombies and adopted orphans come from every test before it in this worker
_OWNER = r"""
import json, os, sys, time
from toolkit.console.children import Owned, children_of, proc_table
source, wait_s, tags = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
for tag in tags:
    with Owned([sys.executable, "-c", source, tag]) as child:
        if wait_s:
            time.sleep(wait_s)
        else:
            child.pump()                             # until the program itself has ended
table = proc_table() or {}
print(json.dumps([p for p in children_of(os.getpid(), table) if table[p][1] == "Z"]))
"""
_ROOT = str(Path(__file__).resolve().parents[1])


def _owner_zombies(source: str, tags: list[str], wait_s: float) -> list[int]:
    """Run ``source`` once per tag under an owner process, closing each at once (``wait_s`` 0: when the
    program itself ends); the owner's zombies when it is done."""
    env = {**os.environ, "PYTHONPATH": _ROOT + os.pathsep + os.environ.get("PYTHONPATH", "")}
    out = subprocess.run([sys.executable, "-c", _OWNER, source, str(wait_s), *tags], capture_output=True,
                         text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def _run_owned(source: str, kind: str, runs: int, wait_s: float) -> tuple[list[int], list[int]]:
    """``runs`` owned runs of ``source`` (see :func:`_owner_zombies`): (processes of theirs still alive
    afterwards, the owner's zombies). The survivors are killed, so a failing test leaves nothing behind."""
    tags = [f"{kind}-{uuid.uuid4().hex}" for _ in range(runs)]
    zombies = _owner_zombies(source, tags, wait_s)
    left = [p for tag in tags for p in _alive_with(tag)]
    for pid in left:
        os.kill(pid, 9)
    time.sleep(0.1)
    assert [p for tag in tags for p in _alive_with(tag)] == []
    return left, zombies


def test_a_daemon_forked_as_the_program_ends_dies_with_it():
    escaped, zombies = _run_owned(_DAEMON, "daemon", 12, 0)
    assert escaped == []
    assert zombies == []


def test_a_chain_that_forks_and_exits_every_few_ms_is_caught():
    left, zombies = _run_owned(_WALKER, "walker", 4, 0.1)
    assert left == [], "a step of the chain outlived the kill"
    assert zombies == [], "the chain's dead steps were left to pile up as the owner's zombies"
