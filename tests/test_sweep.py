"""``migrate-check sweep``: 44 ubFactors x 2 backends on the local pool and on a Dask LocalCluster with equal
rows, the Pareto front, refused / failed / crashed points as rows with their reasons, capped ubFactors run
once, the picture and the page, .asc programs over -D value lists."""
from __future__ import annotations

import csv
import io
import json
import os

import pytest

from tests.asc_support import needs_compiler
from tests.report_support import Sections, cli, cli_json, tiled_programs
from toolkit.sweep.engine import run_points

SWEEP_KV = ("sweep", "kv_rms_norm_rope_cache")
TINY = ("--batch", "1", "--seq", "44", "--cores", "1")        # blockFactor 44: every ubFactor 1..44 differs
ALL_UB = (*TINY, "--ub-factor", "1..44", "--backend", "both")


@pytest.fixture(scope="module")
def local(tmp_path_factory):
    d = tmp_path_factory.mktemp("sweep")
    paths = {k: d / f"s.{k}" for k in ("json", "csv", "html")}
    paths["plot"] = d / "s.svg"
    code, out, err = cli(*SWEEP_KV, *ALL_UB, "--jobs", "2", *[a for k, p in paths.items() for a in (f"--{k}", str(p))])
    assert code == 0, err
    return json.loads(paths["json"].read_text()), paths, out


def test_every_point_is_a_row(local):
    doc, _, out = local
    rows = doc["rows"]
    assert doc["points"] == len(rows) == 88 and doc["runs"] == 88
    assert [(r["series"], r["params"]["ub_factor"]) for r in rows] == \
        [(b, u) for b in ("membase", "regbase") for u in range(1, 45)]
    mem = {r["params"]["ub_factor"]: r for r in rows if r["series"] == "membase"}
    top = mem[1]["max_ub_factor"]
    assert top == 15
    for u, r in mem.items():
        assert r["status"] == ("ok" if u <= top else "refused")
        if u > top:
            assert r["ub_bytes"] > r["ub_budget"] and "over the budget" in r["reason"] and r["kernel_cycles"] is None
    assert all(r["status"] == "ok" and r["kernel_cycles"] for r in rows if r["series"] == "regbase")
    assert out.splitlines()[-1].startswith("88 points (88 runs, local pool): 59 ok, 29 refused")


def test_pareto_front_is_the_set_nothing_beats(local):
    doc, _, _ = local
    for s in ("membase", "regbase"):
        ok = [r for r in doc["rows"] if r["series"] == s and r["status"] == "ok"]
        for r in ok:
            beaten = any(o["ub_bytes"] <= r["ub_bytes"] and o["kernel_cycles"] <= r["kernel_cycles"]
                         and (o["ub_bytes"], o["kernel_cycles"]) != (r["ub_bytes"], r["kernel_cycles"]) for o in ok)
            assert r["pareto"] is not beaten
        assert sum(r["pareto"] for r in ok) >= 2
        best = min(ok, key=lambda r: r["kernel_cycles"])
        assert best["pareto"] and doc["rows"][doc["best"][s]] == best


def test_a_row_is_what_the_report_says_for_that_configuration(local):
    doc, _, _ = local
    row = next(r for r in doc["rows"] if r["series"] == "regbase" and r["params"]["ub_factor"] == 12)
    code, report = cli_json("kv_rms_norm_rope_cache", *TINY, "--ub-factor", "12", "--backend", "regbase")
    assert code == 0
    rb = report["backends"]["regbase"]
    assert row["kernel_cycles"] == rb["cycles"]["kernel_cycles"] and row["ub_bytes"] == rb["ub"]["total_bytes"]
    assert row["pipes"] == rb["cycles"]["pipes"]


def test_csv_plot_and_page(local):
    doc, paths, _ = local
    rows = list(csv.DictReader(io.StringIO(paths["csv"].read_text())))
    assert len(rows) == 88 and rows[20]["series"] == "membase" and rows[20]["status"] == "refused"
    assert [r["pareto"] for r in rows] == [str(r["pareto"]) for r in doc["rows"]]
    svg = paths["plot"].read_text()
    assert svg.startswith("<svg") and "regbase Pareto front" in svg and "membase refused (over budget)" in svg
    page = Sections(paths["html"].read_text())
    assert page.order == ["summary", "sweep-plot", "sweep-table"] and page.svgs == {"sweep-plot": 1}
    assert "UB budget" in page.of("sweep-plot") and "over the budget" in page.of("sweep-table")


def test_dask_local_cluster_gives_the_same_rows(local, tmp_path):
    distributed = pytest.importorskip("dask.distributed", reason="dask.distributed is not installed (extra 'dask')")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as lc:
        code, out, err = cli(*SWEEP_KV, *ALL_UB, "--dask", lc.scheduler_address, "--json", str(tmp_path / "d.json"))
    assert code == 0, err
    doc = json.loads((tmp_path / "d.json").read_text())
    assert doc["executor"] == f"dask {lc.scheduler_address}"
    assert doc["rows"] == local[0]["rows"]


def test_ub_factors_capped_by_block_factor_are_one_run():
    code, doc = cli_json(*SWEEP_KV, "--batch", "1", "--seq", "16", "--cores", "2", "--ub-factor", "4,8,12",
                         "--backend", "regbase")
    assert code == 0 and doc["points"] == 3 and doc["runs"] == 2
    r8, r12 = doc["rows"][1:]
    assert r12["same_run_as"] == {**r12["params"], "ub_factor": 8} and r12["ub_factor_used"] == 8
    assert (r12["kernel_cycles"], r12["ub_bytes"]) == (r8["kernel_cycles"], r8["ub_bytes"])


def test_failing_points_are_rows_with_their_reasons():
    shape = ("--batch", "1", "--seq", "16", "--cores", "1", "--ub-factor", "4", "--backend", "membase")
    code, doc = cli_json(*SWEEP_KV, *shape, "--dk", "96,128", "--force")
    assert code == 1
    fail, ok = doc["rows"]
    assert fail["status"] == "fail" and fail["reason"].startswith("golden FAIL: k_cache"), fail["reason"]
    assert fail["kernel_cycles"] and ok["status"] == "ok"
    code, doc = cli_json(*SWEEP_KV, *shape, "--dk", "96,128")
    assert code == 0 and doc["rows"][0]["status"] == "refused"
    assert "outside the sample's envelope" in doc["rows"][0]["reason"]


def _point(p: dict) -> dict:
    if p["params"]["k"] == 1:
        raise ValueError("bad\nthing")
    if p["params"]["k"] == 2:
        os._exit(3)                              # a worker that dies
    return {"series": p["series"], "params": p["params"], "status": "ok", "kernel_cycles": 10, "ub_bytes": 1}


def test_a_crash_or_a_dead_worker_is_a_row():
    points = [{"series": "s", "params": {"k": k}} for k in range(4)]
    rows = run_points(_point, points, jobs=2)
    assert [r["status"] for r in rows] == ["ok", "crash", "crash", "ok"]
    assert rows[1]["reason"] == "crash: ValueError: bad thing"
    assert "worker process died" in rows[2]["reason"]


@pytest.mark.parametrize("args,needle", [
    (("--ub-factor", "5..1"), "FIRST <= LAST"), (("--batch", "8,x"), "'x' is not an integer"),
    (("--plot", "p.pdf"), "must end in .svg or .png")])
def test_bad_sweep_options(args, needle):
    code, out, err = cli(*SWEEP_KV, *args)
    assert code == 2 and out == "" and needle in err and err.count("\n") == 1


@needs_compiler
def test_asc_programs_over_define_lists(tmp_path):
    a, _ = tiled_programs(tmp_path)
    code, doc = cli_json("sweep", str(a), "-D", "TILE=64,1024,65536,oops", "-D", "N=2048", "--jobs", "2")
    assert code == 1                                # the point that does not build crashed (and the rest ran)
    assert doc["series"] == ["a/tiled"] and doc["points"] == 4
    by = {(r["series"], r["params"]["TILE"]): r for r in doc["rows"]}
    for s in doc["series"]:
        assert by[(s, "64")]["status"] == by[(s, "1024")]["status"] == "ok"
        assert by[(s, "64")]["kernel_cycles"] > by[(s, "1024")]["kernel_cycles"]
        assert by[(s, "64")]["ub_bytes"] == 4 * 64 * 4
        assert by[(s, "65536")]["status"] == "refused" and "over the budget" in by[(s, "65536")]["reason"]
        assert by[(s, "oops")]["status"] == "crash" and by[(s, "oops")]["reason"].startswith("build:")
