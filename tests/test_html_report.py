"""``--html`` on kv_rms_norm_rope_cache, run, compare and simd_vf_story: the page's content checked against the
run's own JSON (parsed here, no browser needed), then rendered in a real headless browser (Debian's
chromium over the DevTools protocol): no console message, no log entry, no request but the file itself,
every section there with its pictures drawn."""
from __future__ import annotations

import json

import pytest

from tests.asc_support import needs_compiler
from tests.browser import needs_browser, render
from tests.report_support import Sections, cli, tiled_programs

KV = "kv_rms_norm_rope_cache"
SMALL = ("--batch", "1", "--seq", "64", "--cores", "4")
SECTIONS = ["verdict", "ub-map", "timeline", "vf-table", "diagnostics"]


@pytest.fixture(scope="module")
def kv(tmp_path_factory):
    d = tmp_path_factory.mktemp("kv")
    code, out, err = cli(KV, *SMALL, "--html", str(d / "r.html"), "--json", str(d / "r.json"))
    assert code == 0, err
    return d / "r.html", Sections((d / "r.html").read_text()), json.loads((d / "r.json").read_text())


def assert_offline(page: Sections) -> None:
    assert any(m.get("http-equiv") == "Content-Security-Policy" and "default-src 'none'" in m["content"]
               for m in page.meta)
    assert all(link.startswith(("#", "data:")) for link in page.links), page.links


def test_kv_page_sections_in_order_verdict_first(kv):
    _, page, _ = kv
    assert page.order == SECTIONS
    assert page.svgs == {"ub-map": 1, "timeline": 1}
    assert_offline(page)


def test_kv_verdict_lists_each_gate_and_output(kv):
    _, page, report = kv
    text = page.of("verdict")
    for b, r in report["backends"].items():
        for gate in ("golden (CompareBf16", "UB budget", "kernel diagnostics"):
            assert f"{b}: {gate}" in text
        for name, o in r["outputs"].items():
            assert f"{b}\n{name}\n{o['errors']}\n{o['max_diff']:.6g}" in text
    assert text.count("PASS") == 1 + 6        # overall + three gates per backend


def test_kv_ub_map_and_largest_ub_factor(kv):
    _, page, report = kv
    text = page.of("ub-map")
    assert "UB budget 248 KB" in text
    for b, r in report["backends"].items():
        ub = r["ub"]
        assert f"largest ubFactor {ub['max_ub_factor']}" in text
        assert f"{b}\n{ub['total_bytes']}\n{ub['percent_used']:.1f}%" in text
        for buf in ub["buffers"]:
            assert buf["name"] in text


def test_kv_timeline_names_lanes_vfs_and_slowest_core(kv):
    _, page, report = kv
    text = page.of("timeline")
    for lane in ("MTE2", "VECTOR", "MTE3", "SCALAR", "critical path"):
        assert lane in text
    for b, r in report["backends"].items():
        c = r["cycles"]
        assert f"{b}: core {c['slowest_core']}, {c['kernel_cycles']} cycles" in text
        top = max(c["vf_kinds"], key=lambda k: c["vf_kinds"][k]["cycles"])
        assert top in text                   # the legend names the VFs
        path = {p: v for p, v in c["critical_path"].items() if p != "wait" and v}
        lead = max(path, key=path.get)
        assert f"{lead} {100.0 * path[lead] / c['kernel_cycles']:.0f}%" in text


def test_kv_vf_table_matches_the_cycle_summary(kv):
    _, page, report = kv
    text = page.of("vf-table")
    for b, r in report["backends"].items():
        for kind, k in r["cycles"]["vf_kinds"].items():
            assert f"{b}\n{kind}\n{k['count']}\n{k['cycles']}\n{r['cycles']['ipc'][kind]:.2f}" in text


def test_failing_run_page_says_fail_with_the_mismatching_outputs(tmp_path):
    code, _, _ = cli(KV, "--batch", "1", "--seq", "16", "--cores", "1", "--ub-factor", "4", "--dk", "96", "--force",
                     "--backend", "membase", "--html", str(tmp_path / "f.html"))
    assert code == 1
    text = Sections((tmp_path / "f.html").read_text()).of("verdict")
    assert "Overall:\nFAIL" in text
    assert "mismatches in k_cache, k_out" in text


def test_story_page_cycles_beside_the_vendor(tmp_path):
    code, _, _ = cli("simd_vf_story/elemwise", "--html", str(tmp_path / "s.html"), "--json", str(tmp_path / "s.json"))
    assert code == 0
    page = Sections((tmp_path / "s.html").read_text())
    assert page.order == ["verdict", "story-cycles", "ub-map", "timeline", "vf-table", "diagnostics"]
    text = page.of("story-cycles")
    for k in json.loads((tmp_path / "s.json").read_text())["kernels"]:
        cmp = k["extra"]["cycles"]["vs_vendor"]["pushq_vf_cycles"]
        assert f"{k['variant']}\n{cmp['ours']}\n{cmp['vendor']}" in text
    assert "ours (model)" in text and "vendor (measured)" in text
    assert_offline(page)


@pytest.fixture(scope="module")
def tiled(tmp_path_factory):
    return tiled_programs(tmp_path_factory.mktemp("tiled"))


@needs_compiler
def test_run_and_compare_pages(tiled, tmp_path):
    a, b = tiled
    code, _, err = cli("run", str(a), "--html", str(tmp_path / "run.html"), "--json", str(tmp_path / "run.json"))
    assert code == 0, err
    run = Sections((tmp_path / "run.html").read_text())
    assert run.order == SECTIONS + ["program-output"]
    assert "timeline" not in (tmp_path / "run.json").read_text()          # the page's data stays out of --json
    assert "tiled_scale: core 0" in run.of("timeline") and "ScaleVF" in run.of("vf-table")
    code, _, err = cli("compare", str(a), str(b), "--html", str(tmp_path / "cmp.html"))
    assert code == 0, err
    cmp = Sections((tmp_path / "cmp.html").read_text())
    assert cmp.order == SECTIONS + ["program-output"]
    assert "launch 0 outputs a vs b" in cmp.of("verdict") and "a: tiled_scale" in cmp.of("ub-map")
    assert "a: tiled_scale: core 0" in cmp.of("timeline") and "b: tiled_scale: core 0" in cmp.of("timeline")


# -- in a real browser ---------------------------------------------------------------------------------
def assert_renders_cleanly(path) -> dict:
    r = render(path)
    assert r.console == [] and r.log == [], (r.console, r.log)
    assert r.requests == [path.resolve().as_uri()]              # nothing fetched but the page itself
    for s in r.dom["sections"]:
        assert all(w > 200 and h > 150 for w, h in s["svgs"]), (s["id"], s["svgs"])
    return r


@needs_browser
def test_kv_page_in_a_browser(kv):
    path, _, report = kv
    r = assert_renders_cleanly(path)
    assert [s["id"] for s in r.dom["sections"]] == SECTIONS
    assert [s["heading"] for s in r.dom["sections"]][:2] == ["Verdict", "UB map"]
    assert "Overall: PASS" in r.section("verdict")["text"]
    assert len(r.section("ub-map")["svgs"]) == 1 and len(r.section("timeline")["svgs"]) == 1
    assert "RmsNormVF" in r.section("timeline")["svg_text"]
    assert f"largest ubFactor {report['backends']['regbase']['ub']['max_ub_factor']}" in r.section("ub-map")["svg_text"]
    assert "RmsNormVF" in r.section("vf-table")["text"]


@needs_browser
@needs_compiler
def test_compare_page_in_a_browser(tiled, tmp_path):
    a, b = tiled
    code, _, err = cli("compare", str(a), str(b), "--html", str(tmp_path / "cmp.html"))
    assert code == 0, err
    r = assert_renders_cleanly(tmp_path / "cmp.html")
    assert r.dom["sections"][0]["id"] == "verdict" and "Overall: PASS" in r.dom["sections"][0]["text"]
    assert "ScaleVF" in r.section("timeline")["svg_text"]
