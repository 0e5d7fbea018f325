"""Resources of one core that several pipes use, as :mod:`toolkit.timing.vf_units` holds the vector
core's: the core timeline (:mod:`toolkit.timing.core`) asks every unit of :data:`CORE_UNITS`, in order,
at the two places where a pipe's work takes shared hardware: a DMA (MTE2 writes what it copies into
UB, MTE3 reads what it copies out of UB) and a VF body (its loads read UB, its stores write it:
:attr:`toolkit.timing.vf_timing.VfTiming.ub_port_cycles`). A unit may stretch the work it grants.

Adding a shared resource: one :class:`CoreUnit` subclass (its numbers in the machine file with their
sources), added to :data:`CORE_UNITS`; the pipes need no change.
"""
from __future__ import annotations

from toolkit.machine import Machine

from .vf_timing import VfTiming


class CoreUnit:
    """A resource of the core shared between pipes; the defaults grant every request unchanged."""

    def __init__(self, machine: Machine) -> None:
        self.machine = machine

    def dma(self, pipe: str, start: int, latency: int, occupancy: int, nbytes: int) -> int:
        """A DMA of ``nbytes`` on ``pipe`` that could hold its pipe for ``occupancy`` cycles from
        ``start`` (its data arriving ``latency`` later): the occupancy granted."""
        return occupancy

    def vf(self, start: int, end: int, timing: VfTiming) -> int:
        """A VF body that could run from ``start`` to ``end`` (alone): the end granted."""
        return end


class SharedUbPorts(CoreUnit):
    """The UB read and write ports, shared by MTE2 (UB writes), MTE3 (UB reads) and the VFs' loads and
    stores. Model v2 grants every user the ports alone (no contention; the cycle figures of the
    calibrated model). The place for issue 22's contention rule: keep here the port use of the work
    granted so far (a step profile of reads and writes per cycle, as :class:`toolkit.timing.kernel.StepProfile`
    keeps GM load), and stretch a DMA (``dma``: ``nbytes`` on the UB side written by MTE2, read by MTE3)
    or a VF body (``vf``: ``timing.ub_port_cycles`` of reads and writes over its duration) by the port
    cycles the other users hold meanwhile, from the machine file's UB port and bank facts. (The VF's
    own ports within one VF body are :class:`toolkit.timing.vf_units.UbPorts`.)"""


#: the shared resources of a core, in the order the timeline asks them
CORE_UNITS: tuple[type[CoreUnit], ...] = (SharedUbPorts,)
