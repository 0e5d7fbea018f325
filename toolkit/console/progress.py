"""A progress line on stderr for long runs: units done (rows, cores, launches), rate and time left.

Shown only when the stream is a terminal and the run has lasted :data:`DELAY_S` seconds: a short run,
or a run whose stderr is a file or a pipe, prints nothing. The line is redrawn in place (carriage
return) at most every :data:`INTERVAL_S` seconds and erased when the run ends, so whatever follows
(the report, an error line) starts on a clean line.

Launch loops say when a core finished with :func:`core_done` (a no-op unless a command listens), so
each command turns cores into its own unit: ``migrate-check kv_rms_norm_rope_cache`` counts the rows
of each finished core (:func:`progress_line` with a weight per core), a generic command may count
cores or launches.
"""
from __future__ import annotations

import sys
import threading
import time
from contextlib import contextmanager
from typing import Callable, Iterator, TextIO

from toolkit.engine.listeners import core_done, listening  # noqa: F401  (core_done: re-exported)

#: seconds a run lasts before the line appears, and between two redraws
DELAY_S = 2.0
INTERVAL_S = 0.25

def _duration(seconds: float) -> str:
    s = int(round(seconds))
    return f"{s // 3600}h{s // 60 % 60:02d}m" if s >= 3600 else f"{s // 60}m{s % 60:02d}s" if s >= 60 else f"{s}s"


def render(done: float, total: float | None, unit: str, elapsed: float, note: str = "") -> str:
    """``note: done/total unit (pct%), rate unit/s, time left`` (rate and time left once known);
    ``total`` None (not known ahead, e.g. the launches of a program): ``note: done unit done``."""
    if total is None:
        return f"{note + ': ' if note else ''}{done:,.0f} {unit} done, {_duration(elapsed)} elapsed"
    pct = 100.0 * done / total if total else 100.0
    text = f"{note + ': ' if note else ''}{done:,.0f}/{total:,.0f} {unit} ({pct:.0f}%)"
    if done > 0 and elapsed > 0:
        rate = done / elapsed
        text += f", {rate:,.0f} {unit}/s, {_duration(max(total - done, 0) / rate)} left"
    return text + f", {_duration(elapsed)} elapsed"


class ProgressLine:
    """One redrawn line on ``stream`` (default: stderr), only if it is a terminal (module docstring).
    :meth:`ticking` also redraws it from a background thread, so the elapsed time (and the line
    itself) shows while a long launch reports nothing."""

    def __init__(self, total: float | None, unit: str, stream: TextIO | None = None,
                 clock: Callable[[], float] = time.monotonic):
        self.total, self.unit = total, unit
        self.stream = stream if stream is not None else sys.stderr
        self.clock = clock
        self.start = clock()
        self.done = 0.0
        self.note = ""
        self._last = float("-inf")
        self._width = 0                        # characters on screen (0: nothing shown)
        self._lock = threading.RLock()
        try:
            self.enabled = bool(self.stream.isatty())
        except (AttributeError, ValueError, OSError):
            self.enabled = False

    def advance(self, units: float = 1.0, note: str | None = None) -> None:
        with self._lock:                       # a lineup's worker reports from a thread of its own
            self.update(self.done + units, note)

    def update(self, done: float, note: str | None = None) -> None:
        self.done = done
        if note is not None:
            self.note = note
        self.draw()

    def draw(self) -> None:
        """Redraw now if the delay passed and the last redraw is older than the interval."""
        if not self.enabled:
            return
        with self._lock:
            now = self.clock()
            if now - self.start < DELAY_S or now - self._last < INTERVAL_S:
                return
            self._last = now
            text = render(self.done, self.total, self.unit, now - self.start, self.note)
            self._write("\r" + text + " " * max(self._width - len(text), 0))
            self._width = len(text)

    @contextmanager
    def ticking(self) -> Iterator["ProgressLine"]:
        """Redraw every :data:`INTERVAL_S` from a daemon thread while the block runs; erase at the end."""
        stop = threading.Event()

        def tick() -> None:
            while not stop.wait(max(INTERVAL_S, 0.05)):
                self.draw()

        thread = threading.Thread(target=tick, name="progress", daemon=True) if self.enabled else None
        if thread is not None:
            thread.start()
        try:
            yield self
        finally:
            stop.set()
            if thread is not None:
                thread.join()
            self.close()

    def close(self) -> None:
        """Erase the line (if it was ever shown)."""
        with self._lock:
            if self._width:
                self._write("\r" + " " * self._width + "\r")
                self._width = 0

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):          # a closed or broken terminal: stop drawing
            self.enabled = False


@contextmanager
def progress_line(total: float, unit: str, weight: Callable[[int, int], float] | None = None,
                  note: str = "") -> Iterator[ProgressLine]:
    """A ticking :class:`ProgressLine` advanced by every finished core of the launches inside the
    block (``weight(core, block_num)`` units each, default 1), erased at the end."""
    line = ProgressLine(total, unit)
    line.note = note

    def on_core(core: int, block_num: int) -> None:
        line.advance(weight(core, block_num) if weight is not None else 1.0)

    with line.ticking(), listening(on_core):
        yield line
