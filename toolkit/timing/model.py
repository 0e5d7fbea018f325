"""The timing view of a launch: every core's pipes, VF timings memoised by instruction stream."""
from __future__ import annotations

from dataclasses import dataclass

from ..events import VfCall
from ..machine import Machine
from .core import CoreTiming, simulate_core
from .vf_sched import VfTiming, schedule


class TimingModel:
    """Holds the machine and a memo of VF timings (a VF's timing depends only on its stream)."""

    def __init__(self, machine: Machine):
        self.machine = machine
        self._memo: dict[tuple, VfTiming] = {}

    def vf(self, call: VfCall) -> VfTiming:
        key = tuple(call.instrs)
        got = self._memo.get(key)
        if got is None:
            got = self._memo[key] = schedule(call.instrs, self.machine)
        return got

    def vf_detail(self, call: VfCall) -> VfTiming:
        """Timing with per-instruction slices (for traces; not memoised)."""
        return schedule(call.instrs, self.machine, detail=True)

    def core(self, core: int, events: list) -> CoreTiming:
        return simulate_core(core, events, self.machine, self.vf)

    def launch(self, result) -> "KernelTiming":
        cores = [self.core(c.core, c.events) for c in result.cores]
        return KernelTiming(cores)


@dataclass
class KernelTiming:
    cores: list[CoreTiming]

    @property
    def slowest(self) -> CoreTiming:
        return max(self.cores, key=lambda c: c.end)

    @property
    def kernel_cycles(self) -> int:
        return self.slowest.end if self.cores else 0
