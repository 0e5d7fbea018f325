"""The advisor line of the KV and compare reports: its claim (the change, the UB it uses, the cycles it saves,
the pipe that then bounds) is reproduced by running the suggested configuration."""
from __future__ import annotations

import json

import pytest

from tests.asc_support import needs_compiler
from tests.report_support import Sections, cli, cli_json, tiled_programs
from toolkit.sweep.advisor import advise
from toolkit.sweep.rows import critical_bound

KV = "kv_rms_norm_rope_cache"
SMALL = ("--batch", "1", "--seq", "64", "--cores", "4")       # blockFactor 16


@pytest.fixture(scope="module")
def kv(tmp_path_factory):
    d = tmp_path_factory.mktemp("advise")
    code, out, err = cli(KV, *SMALL, "--advise", "--json", str(d / "r.json"), "--html", str(d / "r.html"))
    assert code == 0, err
    return json.loads((d / "r.json").read_text()), out, Sections((d / "r.html").read_text())


@pytest.mark.parametrize("backend", ["membase", "regbase"])
def test_kv_claim_reproduced_by_running_the_suggestion(kv, backend):
    report, out, page = kv
    advice = report["advisor"][backend]
    c = advice["change"]
    if c is None:                       # the model may find 8 best for a backend: then the line says so
        assert backend == "membase" and advice["line"].startswith(f"{backend}: no single ubFactor change")
        return
    assert c["param"] == "ub_factor" and c["from"] == 8 and c["to"] != 8
    base = report["backends"][backend]
    assert c["kernel_cycles_from"] == base["cycles"]["kernel_cycles"] and c["ub_bytes_from"] == base["ub"]["total_bytes"]
    code, again = cli_json(KV, *SMALL, "--backend", backend, "--ub-factor", str(c["to"]))
    assert code == 0
    run = again["backends"][backend]
    assert run["cycles"]["kernel_cycles"] == c["kernel_cycles_to"] < c["kernel_cycles_from"]
    assert run["ub"]["total_bytes"] == c["ub_bytes_to"] <= run["ub"]["budget_bytes"]
    assert critical_bound(run["cycles"])[0] == c["bound_to"]
    saving = 100.0 * (c["kernel_cycles_from"] - c["kernel_cycles_to"]) / c["kernel_cycles_from"]
    assert c["saving_pct"] == round(saving, 1)
    line = advice["line"]
    assert line.startswith(f"{backend}: ubFactor 8 -> {c['to']} uses {c['ub_bytes_to'] / 1024:.0f} KB")
    assert f"({c['kernel_cycles_from']} -> {c['kernel_cycles_to']})" in line and c["bound_to"] in line
    assert line in out and f"Advisor: {line}" in page.of("verdict")


def test_kv_advice_covers_every_ub_factor_that_fits(kv):
    report, _, _ = kv
    assert report["advisor"]["membase"]["swept"]["ub_factor"] == list(range(1, 16))    # the budget stops at 15
    assert report["advisor"]["regbase"]["swept"]["ub_factor"] == list(range(1, 17))    # blockFactor 16


def _row(ub_factor: int, cycles: int, ub: int, bound: str) -> dict:
    return {"series": "s", "params": {"u": ub_factor}, "status": "ok", "kernel_cycles": cycles, "ub_bytes": ub,
            "bound": bound, "bound_share": 50.0}


def test_no_better_change_says_so_with_the_bound():
    base = _row(4, 100, 1024, "MTE2")
    result = advise(base, [_row(2, 120, 512, "SCALAR"), _row(8, 101, 2048, "MTE2")], {"u": "U"})
    assert result["change"] is None
    assert result["line"] == "s: no single U change in 2..8 saves cycles; 4 is the best (100 cycles, 1 KB); " \
                             "the bound is MTE2 (50% of the critical path)"


@needs_compiler
def test_compare_claim_reproduced_by_running_the_suggestion(tmp_path):
    a, b = tiled_programs(tmp_path)
    code, doc = cli_json("compare", str(a), str(b), "-D", "N=2048", "-D", "TILE=256", "--advise", "TILE=64,1024")
    assert code == 0
    advice = doc["advisor"]["b/tiled"]
    c = advice["change"]
    assert c["from"] == 256 and c["to"] == 1024
    assert c["kernel_cycles_from"] == doc["launches"][0]["cycles_b"]
    code, run = cli_json("run", str(b), "-D", "N=2048", "-D", f"TILE={c['to']}")
    assert code == 0
    (lr,) = run["launches"]
    assert lr["cycles"]["kernel_cycles"] == c["kernel_cycles_to"] and lr["ub"]["total_bytes"] == c["ub_bytes_to"]
    assert critical_bound(lr["cycles"])[0] == c["bound_to"]
    assert advice["line"].startswith(f"b/tiled: TILE 256 -> {c['to']} uses")
