"""The softmax variants as whole-kernel calibration rows (group ``softmax`` of
``toolkit/calibration/data/hw_whole_kernel.csv``): entry point ``softmax`` of the
``migrate_check.calibration`` group. Timing, scoring and fitting are toolkit.calibration's.
"""
from __future__ import annotations

from toolkit.calibration.sources import WholeKernelSource
from toolkit.machine import load_machine

from . import host

GROUP = "softmax"


def launches() -> dict[str, object]:
    """Every variant run once on the sample's data (functional run, all cores): variant -> its launch."""
    x, golden = host.gen_data()
    machine = load_machine()
    return {v: host.run_variant(v, x, golden, machine=machine).launch for v in host.VARIANTS}


def sources() -> list[WholeKernelSource]:
    return [WholeKernelSource(GROUP, launches)]
