"""operators.simd_vf_story.report: selectors, errors, JSON shape, text tables."""
from __future__ import annotations

import functools
import json

import pytest

from operators.simd_vf_story.registry import VARIANTS
from operators.simd_vf_story.report import (
    Column,
    SelectorError,
    group_columns,
    run_selector,
    select,
)


@functools.lru_cache(maxsize=None)
def report(selector: str):
    return run_selector(selector)


@pytest.mark.parametrize("selector,count", [("simd_vf_story", 26), ("simd_vf_story/broadcast", 10),
                                            ("simd_vf_story/elemwise", 3), ("simd_vf_story/reduce", 13),
                                            ("simd_vf_story/reduce/reduce_sum_ar_binary", 1),
                                            ("simd_vf_story/broadcast/mid_axis_4_vfloop_mbn/", 1)])
def test_selectors(selector, count):
    assert len(select(selector)) == count


@pytest.mark.parametrize("selector,hint", [("kv_rms_norm_rope_cache", "simd_vf_story/<family>"),
                                           ("simd_vf_story/nope", "broadcast, elemwise, reduce"),
                                           ("simd_vf_story/reduce/nope", "reduce_sum_ar_binary"),
                                           ("simd_vf_story/reduce/reduce_sum_ar_binary/x", "simd_vf_story"),
                                           ("", "simd_vf_story")])
def test_bad_selector(selector, hint):
    with pytest.raises(SelectorError) as err:
        run_selector(selector)
    assert isinstance(err.value, ValueError)
    msg = str(err.value)
    assert "\n" not in msg and hint in msg


def test_full_run_passes_and_matches_the_vendor():
    r = report("simd_vf_story")
    assert r.passed and r.calibration_ok
    assert [k.variant.key for k in r.kernels] == list(VARIANTS)


def test_json_shape():
    doc = report("simd_vf_story").to_json()
    json.dumps(doc)                                   # plain JSON types only
    assert len(doc["kernels"]) == 26
    for k in doc["kernels"]:
        assert {"group", "variant", "passed", "vf_count", "per_vf", "total", "measured"} <= set(k)
        for scope in ("per_vf", "total"):
            assert {"rvecex_events", "loop_entries"} <= set(k[scope])
            assert any(key.startswith("RV_") for key in k[scope])
            assert "RV_VLOOP" not in k[scope]
    binary = next(k for k in doc["kernels"] if k["key"] == "reduce/reduce_sum_ar_binary")
    assert binary["group"] == "reduce_sum_ar" and binary["variant"] == "binary"
    assert binary["per_vf"]["rvecex_events"] == 392 and binary["total"]["rvecex_events"] == 5 * 392
    assert binary["measured"]["RV_VADD"] == 234 and binary["measured_sum_cycles"]["RV_VADD"] == 1638
    assert all(c["ok"] for c in binary["calibration"])


def test_text_tables():
    text = report("simd_vf_story").to_text()
    for group in ("broadcast_tail", "broadcast_head", "broadcast_mid", "elemwise_axpy", "reduce_max_ra",
                  "reduce_max_ar", "reduce_sum_ar", "reduce_sum_ra"):
        assert f"== {group}:" in text
    rows = [line for line in text.splitlines() if " PASS " in line]
    assert len(rows) == 26 and "FAIL" not in text
    assert "392 (vendor 392)" in text and "234 (vendor 234)" in text
    assert "97 (vendor 97)" in text and "17 (vendor 17)" in text
    assert ") !" not in text          # no cell flagged as a mismatch


def test_single_variant_text():
    text = report("simd_vf_story/elemwise/elemwise_axpy_baseline").to_text()
    row = next(line for line in text.splitlines() if line.startswith("baseline"))
    assert "PASS" in row and "915 (vendor 915)" in row and "610 (vendor 610)" in row


def test_columns_are_extensible():
    r = report("simd_vf_story/reduce/reduce_max_ra_baseline")
    k = r.kernels[0]
    k.extra["vf_cycles"] = 500
    cols = group_columns("reduce", "reduce_max_ra", r.kernels) + [Column("VF cycles", lambda k: k.extra["vf_cycles"])]
    assert cols[-1].cell(k) == "500"
    assert cols[0].cell(k) == "baseline" and cols[1].cell(k) == "PASS"
