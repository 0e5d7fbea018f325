"""GM write conflicts of a lock-step launch, judged as a core-by-core run judges them.

In a core-by-core run core ``c`` starts after cores ``0..c-1`` finished, so a write of core ``c`` conflicts
with every byte a lower core wrote at any time, and the report names core ``c`` at that write. Cores in
lock-step interleave: when core ``c`` writes, lower cores may not have written yet, and a higher core may
already have. So during a lock-step launch each GM write is logged (core, bytes, where, the core's report
position) and judged when the launch ends: the log is replayed core by core, each core in its own
program order, against the bytes the replay has seen written; a conflict is reported for the writing core
at the source line and report position it had, as the serial run reports it. (The bytes themselves are
already serial-equal: toolkit.ascendc.tensor.gm_write keeps bytes a higher core wrote first.) A conflicting pair of
writes meets, whatever the interleaving, when the second one is made: a launch where that never happened
has no conflict and is not replayed.
"""
from __future__ import annotations

from typing import Iterable

from toolkit.ascendc.memory import GmBuffer
from toolkit.ascendc.tensor import report_conflict
from toolkit.record.diagnostics import Diagnostics

from .gm_writers import GmWriters


def start(bufs: Iterable[GmBuffer]) -> list[GmBuffer]:
    """Log the writes to ``bufs`` from now on (a lock-step launch begins)."""
    bufs = list({id(b): b for b in bufs}.values())
    for b in bufs:
        b.race_log, b.race_seen = [], False
    return bufs


def finish(bufs: list[GmBuffer], diag: Diagnostics) -> None:
    """Judge the logged writes (the launch ended) and stop logging."""
    for b in bufs:
        log, b.race_log = b.race_log, None
        if b.race_seen:             # two cores' writes met (else no write of the launch conflicts)
            _replay(b, log, diag)


def settle(bufs: list[GmBuffer], diag: Diagnostics) -> None:
    """A cross-core synchronisation released the cores: the writes so far are judged (lock-step: the log
    up to here) and settled (:data:`~toolkit.engine.gm_writers.SETTLED`): writes after the
    synchronisation conflict with none of them."""
    for b in bufs:
        if b.race_log is not None:
            if b.race_seen:
                _replay(b, b.race_log, diag)
            b.race_log, b.race_seen = [], False
        b.writer.settle()


def _replay(buf: GmBuffer, log: list, diag: Diagnostics) -> None:
    seen = GmWriters(buf.size)
    for core, lo, hi, order, where in sorted(log, key=lambda e: e[0]):     # stable: program order per core
        hit = seen.others(lo, hi, core)
        if hit is not None:
            report_conflict(diag, buf, hit, core, where=where, order=order)
        seen.record(lo, hi, core)
