"""The vendor-measured calibration table (cannsim on Ascend950), shipped with the package.

Rows: ``kernel`` (group), ``variant``, ``metric``, ``value``, ``note``. A value like ``305/2440`` is
``count/sum_cycles`` of one opcode (per VF).
"""
from __future__ import annotations

import csv
import functools
import io
from dataclasses import dataclass
from importlib import resources


@dataclass(frozen=True)
class CalRow:
    kernel: str
    variant: str
    metric: str
    value: str
    note: str

    @property
    def number(self) -> float:
        """The first number of the cell (count for ``count/sum_cycles`` cells)."""
        return float(self.value.split("/")[0])

    @property
    def second(self) -> float | None:
        parts = self.value.split("/")
        return float(parts[1]) if len(parts) > 1 else None


@functools.lru_cache(maxsize=None)
def load_calibration() -> tuple[CalRow, ...]:
    text = resources.files(__package__).joinpath("data/calibration.csv").read_text(encoding="utf-8")
    return tuple(CalRow(r["kernel"], r["variant"], r["metric"], r["value"], r.get("note") or "")
                 for r in csv.DictReader(io.StringIO(text)))


def rows_for(kernel: str, variant: str) -> list[CalRow]:
    return [r for r in load_calibration() if r.kernel == kernel and r.variant == variant]
