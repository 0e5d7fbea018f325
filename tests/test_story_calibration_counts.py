"""Our counters equal the vendor's cannsim figures: every exact calibration row (vf_count, RV_* counts
per VF, rveclp_sum_cycles = loop entries per run) and RVECEX events per VF within 1 %."""
from __future__ import annotations

import functools

import pytest

from operators.simd_vf_story.hostlib import run_module
from operators.simd_vf_story.registry import VARIANTS
from operators.simd_vf_story.report import build_kernel_report
from toolkit.calibration.vendor_rows import load_calibration

BY_CAL = {(v.group, v.cal_variant): v for v in VARIANTS.values()}
EXACT = [r for r in load_calibration()
         if r.metric in ("vf_count", "rveclp_sum_cycles") or r.metric.startswith("RV_")]
RVECEX = [r for r in load_calibration() if r.metric == "rvecex_events"]


@functools.lru_cache(maxsize=None)
def kernel_json(group: str, variant: str) -> dict:
    v = BY_CAL[(group, variant)]
    return build_kernel_report(v, run_module(v.module, v.name)).to_json()


def ours(row) -> int:
    k = kernel_json(row.kernel, row.variant)
    if row.metric == "vf_count":
        return k["vf_count"]
    if row.metric == "rveclp_sum_cycles":
        return k["total"]["loop_entries"]
    if row.metric == "rvecex_events":
        return k["per_vf"]["rvecex_events"]
    return k["per_vf"].get(row.metric, 0)


def test_the_exact_rows_are_all_there():
    assert len(EXACT) == 53 and len(RVECEX) == 10   # 12 vf_count + 5 rveclp + 36 RV_*


@pytest.mark.parametrize("row", EXACT, ids=lambda r: f"{r.kernel}/{r.variant}/{r.metric}")
def test_exact_row(row):
    assert ours(row) == int(row.number), row


@pytest.mark.parametrize("row", RVECEX, ids=lambda r: f"{r.kernel}/{r.variant}")
def test_rvecex_events_within_1_percent(row):
    assert abs(ours(row) - row.number) <= 0.01 * row.number, (ours(row), row.number)


# The worked decompositions (per VF instance) behind the totals above.
DECOMPOSITIONS = {
    ("elemwise_axpy", "baseline"): {"RV_PLT": 305, "RV_VMULS": 305, "RV_VADD": 305, "rvecex_events": 915},
    ("reduce_max_ra", "baseline"): {"RV_PLT": 4, "RV_VDUP": 4, "RV_VMAX": 312, "RV_PSET": 1},
    ("reduce_max_ar", "baseline"): {"RV_VDUP": 78, "RV_PLT": 312, "RV_VMAX": 312, "RV_VSEL": 312,
                                    "RV_VCMAX": 78, "RV_PSET": 2},
    ("reduce_sum_ar", "binary"): {"RV_PLT": 1, "RV_VADD": 234, "RV_VSEL": 78, "RV_VCADD": 78, "RV_PSET": 1},
    ("reduce_sum_ar", "unroll"): {"RV_VDUP": 78, "RV_PLT": 84, "RV_VSEL": 312, "RV_PSET": 2},
    ("reduce_sum_ra", "unroll"): {"RV_PLT": 4, "RV_VDUP": 16, "RV_VADD": 324, "RV_PSET": 1},
}


@pytest.mark.parametrize("cal", list(DECOMPOSITIONS), ids="/".join)
def test_rvecex_decomposition(cal):
    per_vf = kernel_json(*cal)["per_vf"]
    assert {k: per_vf.get(k, 0) for k in DECOMPOSITIONS[cal]} == DECOMPOSITIONS[cal]


@pytest.mark.parametrize("cal,entries", [(("broadcast_mid", "mid_axis_4_vfloop_mbn"), 1 + 8 + 24),
                                         (("broadcast_mid", "mid_axis_5_vfloop_mnb"), 1 + 8 + 8 * 11),
                                         (("broadcast_mid", "mid_axis_2_vfloop_nb"), 8 * (1 + 11)),
                                         (("broadcast_head", "head_axis_2_vfloop_nm"), 1 + 11)],
                         ids=lambda c: c[1] if isinstance(c, tuple) else str(c))
def test_loop_entries(cal, entries):
    assert kernel_json(*cal)["total"]["loop_entries"] == entries


def test_report_comparisons_agree():
    kernels = sorted({(r.kernel, r.variant) for r in EXACT + RVECEX})
    assert len(kernels) >= 12                      # every kernel with an exact or RVECEX row (12 have vf_count)
    for group, variant in kernels:
        k = kernel_json(group, variant)
        compared = {c["metric"] for c in k["calibration"]}
        rows = {r.metric for r in EXACT + RVECEX if (r.kernel, r.variant) == (group, variant)}
        assert rows <= compared, (group, variant, rows - compared)     # each of its rows was compared
        assert k["calibration_ok"], [c for c in k["calibration"] if not c["ok"]]
