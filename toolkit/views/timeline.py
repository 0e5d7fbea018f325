"""The pipe timeline of a launch's slowest core, as plain data (for the HTML report's timeline chart).

``slowest_core_timeline(kt)`` -> ``{"core", "end", "slices": [[pipe, name, start, end, critical], ...]}``:
every slice of the core's MTE2 / VECTOR / MTE3 / SCALAR pipes (VECTOR slices are named after their VF),
``critical`` true for the slices on the core's critical path (from the last-ending slice back through
the slice that bound each start, the links :func:`toolkit.timing.core.critical_path` follows).
JSON- and pickle-ready, so the ``.asc`` child can send it with its launch record.
"""
from __future__ import annotations

from ..timing.core import CoreTiming
from .cycles import PIPE_NAMES


def critical_slices(core: CoreTiming) -> set[int]:
    """Indices of the slices on the core's critical path."""
    if not core.slices:
        return set()
    k = max(range(len(core.slices)), key=lambda j: core.slices[j].end)
    on_path: set[int] = set()
    while k >= 0 and k not in on_path:
        on_path.add(k)
        k = core.slices[k].cause
    return on_path


def core_timeline(core: CoreTiming) -> dict:
    crit = critical_slices(core)
    slices = [[PIPE_NAMES.get(s.pipe, s.pipe), s.name, int(s.start), int(s.end), k in crit]
              for k, s in enumerate(core.slices)]
    return {"core": core.core, "end": int(core.end), "slices": slices}


def slowest_core_timeline(kt) -> dict | None:
    """Timeline of the slowest core of a :class:`~toolkit.timing.model.KernelTiming` (None: no core)."""
    return core_timeline(kt.slowest) if kt.cores else None
