"""The timing of one VF instance, as the VF scheduler reports it."""
from __future__ import annotations

from dataclasses import dataclass, field

from .vf_units import Bound


@dataclass
class VfTiming:
    cycles: int                       #: PUSHQ slice of the VF (back to back): schedule + drain
    steady: int                       #: instruction schedule span (first dispatch to last completion)
    n_ex: int                         #: RVECEX instructions (IPC numerator)
    lane_events: dict[str, int]
    lane_sum_cycles: dict[str, int]
    op_count: dict[str, int]
    op_sum_cycles: dict[str, int]
    loop_entries: int
    bounds: dict[Bound, float]        #: every analytic bound (:class:`Bound` order)
    slices: list | None = field(default=None, repr=False)   # (lane, opcode, start, end) when detailed
    vf_time: int = 0                  #: one isolated VF from start to end: start + schedule + drain
    log_cycles: int = 0               #: the VF as the vendor's instruction log (camodel) times it
    stalls: dict = field(default_factory=dict, repr=False)  #: cycles without issue, by what held the oldest
    ub_port_cycles: tuple[int, int] = (0, 0)  #: UB read and write port cycles the VF's loads and stores hold

    @property
    def ipc(self) -> float:
        return self.n_ex / self.steady if self.steady else 0.0

    def bottleneck(self, tol: float = 0.02) -> str:
        """The bound within ``tol`` of the simulated steady cycles; else, when the VF stalls (no issue)
        for at least a quarter of its cycles, what held it (e.g. "dependency chain: 40% of the cycles
        waiting for RV_VCADD, RV_VDIV"); else 'mixed'."""
        best = max(self.bounds.items(), key=lambda kv: kv[1], default=("none", 0.0))
        if self.steady and best[1] >= (1 - tol) * self.steady:
            return best[0]
        waits = sorted(((c, r[5:]) for r, c in self.stalls.items() if r.startswith("wait ")), reverse=True)
        waited = sum(c for c, _ in waits)
        if self.steady and waited >= 0.25 * self.steady:
            top = [op for c, op in waits if c >= 0.1 * waited][:3]
            return f"dependency chain ({100 * waited / self.steady:.0f}% of the cycles waiting for {', '.join(top)})"
        return f"mixed (highest bound: {best[0]}, {100 * best[1] / self.steady:.0f}%)" if self.steady else "mixed"
