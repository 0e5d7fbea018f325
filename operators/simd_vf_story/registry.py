"""The simd_vf_story variants: ``family/variant`` -> calibration group, calibration variant, module.

A new variant is one kernel file (defining ``KERNEL`` and ``HOST``) plus one line in ``_ROWS``.
"""
from __future__ import annotations

from dataclasses import dataclass

PACKAGE = "operators.simd_vf_story"


@dataclass(frozen=True)
class Variant:
    key: str            # "family/file name", e.g. "reduce/reduce_sum_ar_binary"
    group: str          # calibration.csv ``kernel`` column
    cal_variant: str    # calibration.csv ``variant`` column

    @property
    def family(self) -> str:
        return self.key.split("/", 1)[0]

    @property
    def name(self) -> str:
        return self.key.split("/", 1)[1]

    @property
    def module(self) -> str:
        return f"{PACKAGE}.{self.key.replace('/', '.')}"


_ROWS = [
    # key                                         calibration group   calibration variant
    ("broadcast/tail_axis_1_naive_getvalue",       "broadcast_tail",   "tail_axis_1_naive_getvalue"),
    ("broadcast/tail_axis_2_distbrc",              "broadcast_tail",   "tail_axis_2_distbrc"),
    ("broadcast/head_axis_1_naive",                "broadcast_head",   "head_axis_1_naive"),
    ("broadcast/head_axis_2_vfloop_nm",            "broadcast_head",   "head_axis_2_vfloop_nm"),
    ("broadcast/head_axis_3_vfloop_mn",            "broadcast_head",   "head_axis_3_vfloop_mn"),
    ("broadcast/mid_axis_1_naive",                 "broadcast_mid",    "mid_axis_1_naive"),
    ("broadcast/mid_axis_2_vfloop_nb",             "broadcast_mid",    "mid_axis_2_vfloop_nb"),
    ("broadcast/mid_axis_3_vfloop_bn",             "broadcast_mid",    "mid_axis_3_vfloop_bn"),
    ("broadcast/mid_axis_4_vfloop_mbn",            "broadcast_mid",    "mid_axis_4_vfloop_mbn"),
    ("broadcast/mid_axis_5_vfloop_mnb",            "broadcast_mid",    "mid_axis_5_vfloop_mnb"),
    ("elemwise/elemwise_axpy_baseline",            "elemwise_axpy",    "baseline"),
    ("elemwise/elemwise_axpy_unroll",              "elemwise_axpy",    "unroll"),
    ("elemwise/elemwise_axpy_pragma",              "elemwise_axpy",    "pragma"),
    ("reduce/reduce_max_ra_baseline",              "reduce_max_ra",    "baseline"),
    ("reduce/reduce_max_ra_unroll",                "reduce_max_ra",    "unroll"),
    ("reduce/reduce_max_ra_pragma",                "reduce_max_ra",    "pragma"),
    ("reduce/reduce_max_ar_baseline",              "reduce_max_ar",    "baseline"),
    ("reduce/reduce_max_ar_unroll",                "reduce_max_ar",    "unroll"),
    ("reduce/reduce_max_ar_pragma",                "reduce_max_ar",    "pragma"),
    ("reduce/reduce_sum_ar_baseline",              "reduce_sum_ar",    "baseline"),
    ("reduce/reduce_sum_ar_unroll",                "reduce_sum_ar",    "unroll"),
    ("reduce/reduce_sum_ar_pragma",                "reduce_sum_ar",    "pragma"),
    ("reduce/reduce_sum_ar_binary",                "reduce_sum_ar",    "binary"),
    ("reduce/reduce_sum_ra_baseline",              "reduce_sum_ra",    "baseline"),
    ("reduce/reduce_sum_ra_unroll",                "reduce_sum_ra",    "unroll"),
    ("reduce/reduce_sum_ra_pragma",                "reduce_sum_ra",    "pragma"),
]

#: how the vendor measured each family: "run" = sums over the VF launches (broadcast), "vf" = one VF
#: instance of the VF_REPEAT loop (the steady state the elemwise and reduce tables report)
MEASUREMENT_SCOPE = {"broadcast": "run", "elemwise": "vf", "reduce": "vf"}

VARIANTS: dict[str, Variant] = {key: Variant(key, group, cal) for key, group, cal in _ROWS}
FAMILIES: tuple[str, ...] = tuple(dict.fromkeys(v.family for v in VARIANTS.values()))


def family_variants(family: str) -> list[Variant]:
    return [v for v in VARIANTS.values() if v.family == family]
