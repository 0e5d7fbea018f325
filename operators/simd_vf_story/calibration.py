"""The simd_vf_story variants as calibration kernels (rows of ``toolkit/calibration/data/calibration.csv``):
entry point ``simd_vf_story`` of the ``migrate_check.calibration`` group. Each variant's rows are its
calibration group and variant (registry.py), measured as its family's scope says; timing, scoring and
fitting are toolkit.calibration's.
"""
from __future__ import annotations

import functools

from toolkit.calibration.sources import VfSource

from .hostlib import run_module
from .registry import MEASUREMENT_SCOPE, VARIANTS, Variant


def events(variant: Variant) -> list:
    """The functional run of one variant: its core's event stream."""
    return run_module(variant.module, variant.name).events


def sources() -> list[VfSource]:
    return [VfSource(v.key, v.group, v.cal_variant, MEASUREMENT_SCOPE[v.family], functools.partial(events, v))
            for v in VARIANTS.values()]
