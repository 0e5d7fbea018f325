"""The pipe timeline of a launch's slowest core, as plain data (for the HTML report's timeline chart).

``slowest_core_timeline(kt)`` -> ``{"core", "end", "slices": [[pipe, name, start, end, critical], ...],
"path": [[pipe, start, end], ...]}``: every slice of the core's MTE2 / VECTOR / MTE3 / SCALAR pipes
(VECTOR slices are named after their VF), ``critical`` true for the slices on the core's critical path
(from the last-ending slice back through the slice that bound each start, the links
:func:`toolkit.timing.core.critical_path` follows); ``path`` the time each of them holds the path
(segments that do not overlap; their lengths per pipe are ``critical_path``'s figures).
JSON- and pickle-ready, so the ``.asc`` child can send it with its launch record.
"""
from __future__ import annotations

from toolkit.timing.core import CoreTiming

from .cycles import PIPE_NAMES


def critical_segments(core: CoreTiming) -> list[tuple[int, int, int]]:
    """(slice index, start, end) of the critical path, latest first: each slice holds the path from its
    start until the (earlier) start of the slice it bound."""
    if not core.slices:
        return []
    k = max(range(len(core.slices)), key=lambda j: core.slices[j].end)
    cur, out, seen = core.end, [], set()
    while k >= 0 and k not in seen:
        seen.add(k)
        s = core.slices[k]
        end = min(cur, s.end)
        if end > s.start:
            out.append((k, int(s.start), int(end)))
        cur = min(cur, s.start)
        k = s.cause
    return out


def core_timeline(core: CoreTiming) -> dict:
    segments = critical_segments(core)
    crit = {k for k, _, _ in segments}
    slices = [[PIPE_NAMES.get(s.pipe, s.pipe), s.name, int(s.start), int(s.end), k in crit]
              for k, s in enumerate(core.slices)]
    path = [[PIPE_NAMES.get(core.slices[k].pipe, core.slices[k].pipe), a, b] for k, a, b in reversed(segments)]
    return {"core": core.core, "end": int(core.end), "slices": slices, "path": path}


def slowest_core_timeline(kt) -> dict | None:
    """Timeline of the slowest core of a :class:`~toolkit.timing.model.KernelTiming` (None: no core)."""
    return core_timeline(kt.slowest) if kt.cores else None
