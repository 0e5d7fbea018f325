"""``migrate-check port`` (issue 23): per pattern a small MemBase kernel (tests/port_cases/*.asc, host check
included) is ported and proved, and the port has the properties the pattern implies (the RegBase
constructs in its VF, the stages, the temporaries gone, the region that stays MemBase and why); the two
shipped MemBase samples port with their hard-wired sizes stated; everything outside the regions stays
byte for byte."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from asc_support import needs_compiler
from toolkit.cli import main
from toolkit.port.port import port_source

pytest.importorskip("clang.cindex")

CASES = Path(__file__).with_name("port_cases")
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def cases(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("port_cases")
    shutil.copytree(CASES, d, dirs_exist_ok=True)
    return d


def _port(cases: Path, name: str, *extra: str) -> tuple[int, dict, str]:
    src, out, js = cases / f"{name}.asc", cases / f"{name}.port.asc", cases / f"{name}.port.json"
    code = main(["port", str(src), "-o", str(out), "--json", str(js), *extra])
    return code, json.loads(js.read_text()), out.read_text()


def _vf(text: str, name: str) -> str:
    m = re.search(rf"__simd_vf__ inline void {name}\(.*?\n}}\n", text, re.S)
    assert m, f"no VF {name} in the port"
    return m.group(0)


def _outside_kept(original: str, ported: str, report: dict) -> None:
    """Every line outside the ported regions and the removed InitBuffers is in the port, in order."""
    drop = set()
    for r in report["regions"]:
        if r["status"] == "ported":
            drop |= set(range(r["line"], r["end_line"] + 1))
    lines = [ln for k, ln in enumerate(original.splitlines(), 1) if k not in drop
             and not any(f"InitBuffer({b}" in ln for b in report["removed_buffers"])]
    it = iter(ported.splitlines())
    for ln in lines:
        assert any(ln == p for p in it), f"line changed or lost: {ln!r}"


def _proved(report: dict) -> None:
    assert report["passed"], report.get("port_error")
    assert report["runs"]["port"]["exit_status"] == 0          # the program's own host check
    for pair in report["compare"]["launches"]:
        assert all(o["mismatches"] == 0 for o in pair["outputs"])
    errors = [d for lr in report["runs"]["port"]["launches"] for d in lr["diagnostics"] if d["severity"] == "error"]
    assert not errors
    assert not report["warnings"]


@needs_compiler
def test_elementwise_chain_with_tail(cases):
    code, rep, text = _port(cases, "elementwise", "--report")
    assert code == 0
    page = (cases / "elementwise.port.html").read_text()
    assert all(f"<h2>{h}</h2>" in page for h in ("Verdict", "Regions", "UB map", "Generated VFs"))
    _proved(rep)
    (r,) = rep["regions"]
    assert r["status"] == "ported" and r["stages"] == 1 and r["rows"] == "1"
    assert rep["removed_buffers"] == ["tmpBuf_"] and "InitBuffer(tmpBuf_" not in text
    vf = _vf(text, r["vf"])
    assert "UpdateMask<float>(count)" in vf and "for (uint16_t i = 0; i < loopNum; ++i)" in vf
    assert "Reg::Relu(" in vf and "Reg::Exp(" in vf and "LocalMemBar" not in vf
    assert "uint16_t loopNum" in vf and "static_cast<uint16_t>((tiling_.inElems + 63) / 64)" in text
    assert rep["totals"]["ub_before"] - rep["totals"]["ub_after"] == 4096
    fig = r["figures"]
    assert fig["vf_count_before"] == 5 and fig["vf_count_after"] == 1
    assert fig["vf_cycles_after"] < fig["vf_cycles_before"]
    _outside_kept((cases / "elementwise.asc").read_text(), text, rep)


@needs_compiler
def test_row_reduction_then_broadcast(cases):
    code, rep, text = _port(cases, "reduce_broadcast")
    assert code == 0
    _proved(rep)
    (r,) = rep["regions"]
    assert r["stages"] == 2 and r["rows"] == "tiling_.rows" and not r["assumptions"]
    vf = _vf(text, r["vf"])
    assert vf.count("Reg::ReduceSum(") == 1                   # the folds and WholeReduceSum: one row sum
    assert "Reg::MaskMergeMode::MERGING" in vf and "Reg::Duplicate(rowSum3Brc, rowSum3, fullMask)" in vf
    assert "oneMask" in vf and "Reg::Sqrt(" in vf and "Reg::Div(" in vf
    assert "for (uint16_t r = 0; r < rows; ++r)" in vf
    assert rep["removed_buffers"] == ["work_"]


@needs_compiler
def test_reductions_read_back_as_scalars(cases):
    code, rep, text = _port(cases, "reduce_scalar")
    assert code == 0
    _proved(rep)
    (r,) = rep["regions"]
    assert r["stages"] == 3
    vf = _vf(text, r["vf"])
    assert re.search(r"float a, float b\)", vf)                 # tiling_.a / tiling_.b as scalar parameters
    assert "Reg::Div(inv, one, " in vf                        # 1.0f / sqrt(var + b) in lane 0
    assert "GetValue" not in text.split("asc_vf_call")[1]
    assert sorted(rep["removed_buffers"]) == ["centred_", "result_", "work_"]


@needs_compiler
def test_casts_use_the_register_layout(cases):
    code, rep, text = _port(cases, "cast")
    assert code == 0
    _proved(rep)
    vf = _vf(text, rep["regions"][0]["vf"])
    assert "Reg::LoadDist::DIST_UNPACK_B16" in vf and "Reg::StoreDist::DIST_PACK_B32" in vf
    assert "Reg::Cast<float, bfloat16_t, portCastZeroNone>" in vf
    assert "Reg::Cast<bfloat16_t, float, portCastZeroRint>" in vf
    assert "RoundMode::CAST_RINT" in text


@needs_compiler
def test_masks_and_tails(cases):
    code, rep, text = _port(cases, "masks")
    assert code == 0
    _proved(rep)
    vf = _vf(text, rep["regions"][0]["vf"])
    assert "= 40;" in vf and "= 20;" in vf and vf.count("Reg::Select(") == 2
    assert "Reg::Muls(" in vf and "Reg::Adds(" in vf


@needs_compiler
def test_gathermask_interleave(cases):
    code, rep, text = _port(cases, "gather")
    assert code == 0
    _proved(rep)
    vf = _vf(text, rep["regions"][0]["vf"])
    assert "Reg::LoadDist::DIST_DINTLV_B32" in vf and "GatherMask" not in text.split("asc_vf_call")[1]


@needs_compiler
def test_region_that_stays_membase(cases):
    code, rep, text = _port(cases, "stays_membase")
    assert code == 0
    _proved(rep)
    first, second = rep["regions"]
    assert first["status"] == "membase" and "pattern 3" in first["reason"] and first["at"] == "GatherMask@16"
    assert second["status"] == "ported" and second["function"] == "Scale"
    assert "InitBuffer(quarter_" in text and "GatherMask(q, x, 3" in text
    assert rep["removed_buffers"] == []


def test_a_temporary_read_by_a_membase_region_is_stored(tmp_path):
    """A temporary one region writes and another (not portable) reads keeps its UB: the first
    region's VF stores into it (no build: the port alone)."""
    src = tmp_path / "flow.asc"
    src.write_text((CASES / "stays_membase.asc").read_text().replace(
        "#include \"port_case.h\"", "#include \"" + str(CASES / "include" / "port_case.h") + "\"").replace(
        "        GatherMask(q, x, 3, true, 4 * n, GatherMaskParams(1, 1, 8, 0), kept);\n"
        "        PipeBarrier<PIPE_V>();\n"
        "        Muls(q, q, tiling_.a, n);\n"
        "        Add(z, q, y, n);\n",
        "        Muls(q, y, tiling_.a, n);\n"
        "        Scale(z, n);\n"
        "        GatherMask(z, q, 3, true, n, GatherMaskParams(1, 1, 8, 0), kept);\n"))
    res = port_source(src)
    ported = {r.function: r for r in res.regions}
    assert [r.status for r in res.regions] == ["ported", "membase", "ported"]
    assert "pattern 3" in res.regions[1].reason
    assert res.removed_buffers == [] and "InitBuffer(quarter_" in res.text
    assert "quarter_.Get<float>().GetPhyAddr()" in res.text          # the VF writes the temporary
    assert ported["Scale"].status == "ported"


def test_samples_port_with_their_hard_wired_sizes():
    kv = port_source(ROOT / "operators/kv_rms_norm_rope_cache/asc/membase/full_load.asc")
    assert [r.status for r in kv.regions] == ["ported"] * 3
    assert kv.removed_buffers == ["wsBuffer_"]
    by = {r.function: r for r in kv.regions}
    assert any(a.startswith("dv_ == 512") for a in by["RmsNorm"].assumptions)
    assert any(a.startswith("dk_ == 128") for a in by["Rope"].assumptions)
    rope = kv.vf_code["RopeVF"]
    assert "portCastOneNone" in rope and "portCastZeroNone" in rope       # real / imag by RegLayout
    assert "GatherMask" not in rope and rope.count("DIST_PACK_B32") == 2
    sm = port_source(ROOT / "operators/softmax/asc/src/0_membase.asc")
    (r,) = sm.regions
    assert r.status == "ported" and r.stages == 3
    assert sorted(sm.removed_buffers) == ["reduceBuf_", "workBuf_"]
    vf = sm.vf_code[r.vf]
    assert vf.count("LocalMemBar<Reg::MemType::VEC_STORE, Reg::MemType::VEC_LOAD>") == 1
    assert "Reg::ReduceMax(" in vf and "Reg::ReduceSum(" in vf and "maxAcc1" in vf


def test_bad_input_is_exit_2(tmp_path, capsys):
    assert main(["port", str(tmp_path / "missing.asc"), "-o", str(tmp_path / "o.asc")]) == 2
    bad = tmp_path / "bad.asc"
    bad.write_text("this is not C++ {\n")
    assert main(["port", str(bad), "-o", str(tmp_path / "o.asc"), "--no-prove"]) == 2
    assert not (tmp_path / "o.asc").exists()
    assert "error" in capsys.readouterr().err


@needs_compiler
def test_register_budget(cases):
    code, rep, text = _port(cases, "register_budget")
    assert code == 0
    _proved(rep)
    (r,) = rep["regions"]
    assert r["status"] == "ported" and r["registers"] <= 32
    assert any("reused" in n for n in r["notes"])
    assert _vf(text, r["vf"]).count("Reg::RegTensor<float>") <= 32
