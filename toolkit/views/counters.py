"""Instruction counters of a run, computed from its event stream only (the vendor's trace figures).

Per VF instance (one :class:`~toolkit.record.events.VfCall`) and summed over a core's run:

* ``vf_count``: VF instances (VfCall events) -- the trace's "VF count";
* ``loop_entries``: hardware-loop entries (``RV_VLOOP`` records), the trace's RVECLP figure;
* ``rvecex_events`` / ``rvecld_events`` / ``rvecst_events``: instructions on each trace lane (lane
  from the machine table; mask generation PLT/PSET is RVECEX);
* ``RV_*``: per-opcode counts under the vendor names (pseudo-ops such as ITER/ALIAS are skipped).

An opcode with no machine-table entry raises :class:`~toolkit.machine.MachineError`: a counter is
never silently dropped.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Iterable

from toolkit.machine import Machine, load_machine
from toolkit.record.events import PSEUDO_OPS, VLOOP, VfCall

#: lane name in the machine table -> counter key
LANE_KEYS = {"RVECEX": "rvecex_events", "RVECLD": "rvecld_events", "RVECST": "rvecst_events"}
SUMMARY_KEYS = ("loop_entries", "rvecex_events", "rvecld_events", "rvecst_events")


def opcode_counts(vf: VfCall) -> Counter:
    """Executed instructions of one VF instance by opcode (pseudo-ops skipped)."""
    counts: Counter = Counter()
    for ins in vf.instrs:
        op = ins[0]
        if op not in PSEUDO_OPS:
            counts[op] += 1
    return counts


def vf_counters(vf: VfCall, machine: Machine | None = None) -> dict[str, int]:
    """Counters of one VF instance: the summary keys, then every opcode's count (sorted)."""
    machine = machine or load_machine()
    ops = opcode_counts(vf)
    out = dict.fromkeys(SUMMARY_KEYS, 0)
    out["loop_entries"] = ops.get(VLOOP, 0)
    for op, n in ops.items():
        key = LANE_KEYS.get(machine.instr(op).lane)
        if key is not None:
            out[key] += n
    out.update(sorted(ops.items()))
    return out


def vf_events(events: Iterable[Any]) -> list[VfCall]:
    """The VfCall events of an event stream, in order."""
    return [e for e in events if isinstance(e, VfCall)]


def add_counters(total: dict[str, int], part: dict[str, int]) -> dict[str, int]:
    """``total += part`` key by key (in place; returns ``total``)."""
    for k, v in part.items():
        total[k] = total.get(k, 0) + v
    return total


def run_counters(events: Iterable[Any], machine: Machine | None = None) -> dict[str, int]:
    """Counters summed over every VF instance of a core's run, plus ``vf_count``."""
    machine = machine or load_machine()
    vfs = vf_events(events)
    total: dict[str, int] = {"vf_count": len(vfs), **dict.fromkeys(SUMMARY_KEYS, 0)}
    for vf in vfs:
        add_counters(total, vf_counters(vf, machine))
    summary = {k: total.pop(k) for k in ("vf_count", *SUMMARY_KEYS)}
    return summary | dict(sorted(total.items()))


def counters_by_vf(events: Iterable[Any], machine: Machine | None = None) -> dict[str, dict[str, Any]]:
    """Per VF function name: ``instances``, ``first`` (counters of its first instance), ``total``."""
    machine = machine or load_machine()
    out: dict[str, dict[str, Any]] = {}
    for vf in vf_events(events):
        c = vf_counters(vf, machine)
        entry = out.get(vf.name)
        if entry is None:
            out[vf.name] = {"instances": 1, "first": c, "total": dict(c)}
        else:
            entry["instances"] += 1
            add_counters(entry["total"], c)
    return out
