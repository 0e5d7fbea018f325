"""The timing view of a launch: every core's pipes, VF timings memoised by instruction stream."""
from __future__ import annotations

from dataclasses import dataclass

from toolkit.machine import Machine
from toolkit.record.events import VfCall

from .core import Concurrency, CoreTiming, core_signature, simulate_core
from .kernel import simulate_launch
from .vf_sched import VfTiming, schedule


class TimingModel:
    """Holds the machine and a memo of VF timings (a VF's timing depends only on its stream)."""

    def __init__(self, machine: Machine):
        self.machine = machine
        self._memo: dict[tuple, VfTiming] = {}
        self._by_id: dict[int, tuple] = {}

    def vf(self, call: VfCall) -> VfTiming:
        instrs = call.instrs
        hit = self._by_id.get(id(instrs))         # interned streams: one lookup without hashing the stream
        if hit is not None and hit[0] is instrs:
            return hit[1]
        key = instrs if isinstance(instrs, tuple) else tuple(instrs)
        got = self._memo.get(key)
        if got is None:
            got = self._memo[key] = schedule(instrs, self.machine)
        self._by_id[id(instrs)] = (instrs, got)
        return got

    def vf_detail(self, call: VfCall) -> VfTiming:
        """Timing with per-instruction slices (for traces; not memoised)."""
        return schedule(call.instrs, self.machine, detail=True)

    def core(self, core: int, events: list, concurrency: Concurrency | None = None,
             detail: bool = True) -> CoreTiming:
        return simulate_core(core, events, self.machine, self.vf, concurrency, detail)

    def launch(self, result) -> "KernelTiming":
        """Every core of a launch, sharing GM bandwidth (toolkit.timing.kernel), plus launch and tail;
        cores with equal event signatures are simulated once."""
        streams: dict[int, int] = {}
        line = self.machine.params["timing"]["dcache_line_bytes"]
        cores = simulate_launch(self.core, [(c.core, c.events) for c in result.cores], self.machine,
                                key=lambda events: core_signature(events, streams, line))
        lp = self.machine.params["launch"]
        return KernelTiming(cores, lp["launch_cycles"], lp["tail_cycles"], self.machine.clock_mhz)


@dataclass
class KernelTiming:
    cores: list[CoreTiming]
    launch_cycles: int = 0          #: task start until the cores run ([launch])
    tail_cycles: int = 0            #: last core done until the task completes
    clock_mhz: float = 0.0          #: core clock ([core] clock_mhz), cycles -> microseconds

    @property
    def slowest(self) -> CoreTiming:
        return max(self.cores, key=lambda c: c.end)

    @property
    def kernel_cycles(self) -> int:
        return self.slowest.end if self.cores else 0

    @property
    def task_cycles(self) -> int:
        """What a profiler's task time covers: launch + the slowest core + tail."""
        return self.launch_cycles + self.kernel_cycles + self.tail_cycles

    def us(self, cycles: float) -> float:
        return cycles / self.clock_mhz if self.clock_mhz else 0.0
