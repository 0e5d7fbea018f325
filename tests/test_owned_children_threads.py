"""Two threads of one process each run owned children (as the story tests build and run two programs at a
time): the end of one child's tree must never kill the other thread's child, however the starts and ends
interleave (the orphan sweep of kill_tree once took a just-started sibling for an unowned orphan)."""
from __future__ import annotations

import sys
from concurrent.futures import ThreadPoolExecutor

from toolkit.console.children import Deadline, run_tool

_SHORT = [sys.executable, "-c", "pass"]
_LONG = [sys.executable, "-c", "import time; time.sleep(0.3); print('done')"]


def _many_short(n: int) -> list[int]:
    return [run_tool(_SHORT, Deadline(30))[0] for _ in range(n)]


def _long(n: int) -> list[tuple[int, bytes]]:
    out = []
    for _ in range(n):
        code, stdout, _ = run_tool(_LONG, Deadline(30))
        out.append((code, stdout))
    return out


def test_a_thread_ending_its_children_never_kills_another_threads_child():
    with ThreadPoolExecutor(max_workers=3) as pool:
        shorts = [pool.submit(_many_short, 25) for _ in range(2)]
        longs = pool.submit(_long, 6)
        assert all(code == 0 for f in shorts for code in f.result())
        assert longs.result() == [(0, b"done\n")] * 6
