"""The progress line: drawn on a terminal only, after the delay, with units, rate and time left, erased at
the end; fed by the launch loop per finished core (the KV command counts rows)."""
from __future__ import annotations

import contextlib
import io
import os
import pty
import sys
import tempfile
import time

import pytest

from toolkit.cli import main
from toolkit.console import progress
from toolkit.console.progress import ProgressLine, render


class Clock:
    def __init__(self):
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def terminal():
    """(writable text stream on a pty, function returning what reached the terminal so far)."""
    master, slave = pty.openpty()
    stream = os.fdopen(slave, "w")
    os.set_blocking(master, False)

    def read() -> str:
        out = b""
        with contextlib.suppress(BlockingIOError):
            while chunk := os.read(master, 65536):
                out += chunk
        return out.decode()

    yield stream, read
    stream.close()
    os.close(master)


def test_render_shows_units_rate_and_time_left():
    assert render(250, 1000, "rows", 5.0, "emulating") == \
        "emulating: 250/1,000 rows (25%), 50 rows/s, 15s left, 5s elapsed"
    assert render(0, 1000, "rows", 3.0) == "0/1,000 rows (0%), 3s elapsed"
    assert "1m40s left" in render(100, 1100, "cores", 10.0)


def test_line_appears_after_the_delay_on_a_terminal_and_is_erased(terminal):
    stream, read = terminal
    clock = Clock()
    line = ProgressLine(100, "rows", stream, clock)
    line.advance(10)
    clock.t += progress.DELAY_S - 0.1
    line.advance(10)
    assert read() == ""                                  # a run shorter than the delay prints nothing
    clock.t += 0.1
    line.advance(10)
    shown = read()
    assert shown.startswith("\r30/100 rows (30%)") and "rows/s" in shown and "left" in shown
    line.advance(10)                                     # within the redraw interval: not redrawn
    assert read() == ""
    clock.t += progress.INTERVAL_S
    line.advance(60)
    assert "100/100 rows (100%)" in read()
    line.close()
    erased = read()
    assert erased.startswith("\r ") and erased.endswith("\r") and erased.strip() == ""


def test_a_ticking_line_shows_while_nothing_reports(terminal, monkeypatch):
    """A launch that reports nothing for a while still shows the line (elapsed time) after the delay."""
    stream, read = terminal
    monkeypatch.setattr(progress, "DELAY_S", 0.05)
    monkeypatch.setattr(progress, "INTERVAL_S", 0.05)
    line = ProgressLine(8, "launches", stream)
    with line.ticking():
        time.sleep(0.3)
        assert read().startswith("\r0/8 launches (0%), 0s elapsed")
    tail = read()                                        # erased when the block ends
    assert tail.endswith("\r") and tail.rsplit("\r", 2)[-2].strip() == ""


def test_line_is_silent_when_the_stream_is_not_a_terminal():
    clock = Clock()
    buf = io.StringIO()
    line = ProgressLine(10, "rows", buf, clock)
    clock.t += 60
    line.advance(5)
    line.close()
    assert buf.getvalue() == ""


KV_SMALL = ["kv_rms_norm_rope_cache", "--batch", "1", "--seq", "64", "--cores", "4"]


def test_kv_command_counts_rows_on_a_terminal(terminal, monkeypatch):
    stream, read = terminal
    monkeypatch.setattr(progress, "DELAY_S", 0.0)
    monkeypatch.setattr(progress, "INTERVAL_S", 0.0)
    monkeypatch.setattr(sys, "stderr", stream)
    with contextlib.redirect_stdout(io.StringIO()) as out:
        assert main(KV_SMALL) == 0
    shown = read()
    assert "emulating: 16/128 rows" in shown            # 4 cores of 16 rows, 2 backends
    assert "emulating: 64/128 rows" in shown and "cycle model: 128/128 rows (100%)" in shown
    assert shown.endswith("\r") and shown.rsplit("\r", 2)[-2].strip() == ""   # erased before the report
    assert "PASS" in out.getvalue()


def test_kv_command_draws_nothing_when_stderr_is_a_file(monkeypatch):
    monkeypatch.setattr(progress, "DELAY_S", 0.0)
    with tempfile.TemporaryFile("w+") as err:
        monkeypatch.setattr(sys, "stderr", err)
        with contextlib.redirect_stdout(io.StringIO()):
            assert main(KV_SMALL) == 0
        err.seek(0)
        assert err.read() == ""
