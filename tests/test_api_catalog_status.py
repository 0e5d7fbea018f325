"""What the toolkit implements against the catalog: the coverage report and ``migrate-check api``, whose
implemented names come from the API definition table (toolkit.ascendc.api)."""
from __future__ import annotations

import json

from toolkit.ascendc import api
from toolkit.ascendc.catalog import coverage
from toolkit.cli import main

def entry(name: str, family: str, kind: str = "function", forms=("f",), scope: str | None = None, aliases=()):
    return {"name": name, "family": family, "kind": kind, "forms": list(forms), "in_scope": scope is None,
            "out_of_scope": scope, "aliases": list(aliases), "supported_950": "yes"}


def test_coverage_counts_per_family():
    entries = [entry("AscendC::Reg::Add", "F/a", forms=("f1", "f2")), entry("AscendC::Reg::Histograms", "F/a"),
               entry("AscendC::Mmad", "F/b", kind="listed", forms=(), scope="cube"),
               entry("AscendC::tiling::XTiling", "F/b", kind="struct", forms=(), aliases=["optiling::XTiling"])]
    implemented = {"AscendC::MicroAPI::Add": ["asc: void Add(R&)"], "AscendC::Reg::Add": ["python: m.Add"],
                   "optiling::XTiling": ["asc: struct XTiling"], "AscendC::Reg::Mula": ["asc: void Mula()"],
                   "ASC_API": ["asc: #define ASC_API"]}
    rep = coverage.coverage(entries, implemented)
    assert (rep["in_scope"], rep["implemented"], rep["missing"], rep["out_of_scope"]) == (3, 2, 1, 1)
    a, b = rep["families"]
    assert a["family"] == "F/a" and a["missing"] == ["AscendC::Reg::Histograms"]
    assert a["implemented_apis"] == [{"name": "AscendC::Reg::Add", "kind": "function", "documented_forms": 2,
                                      "forms": ["asc: void Add(R&)", "python: m.Add"]}]
    assert b["out_of_scope_reasons"] == {"cube": 1} and b["implemented"] == 1
    assert rep["not_catalogued"] == ["AscendC::Reg::Mula"]               # machinery (ASC_API) left out


def test_a_name_two_families_document_is_credited_to_the_basic_api():
    entries = [entry("AscendC::Exp", "基础API/Memory矢量计算"), entry("AscendC::Exp", "高阶API/数学计算")]
    rep = coverage.coverage(entries, {"AscendC::Exp": ["asc: void Exp(dst, src, n)"]})
    basic, high = rep["families"][0], rep["families"][1]
    assert (basic["family"], basic["implemented"], high["implemented"]) == ("基础API/Memory矢量计算", 1, 0)
    assert high["missing"] == ["AscendC::Exp"]


def test_forms_whose_page_is_another_familys_are_credited_to_that_family():
    mem = {**entry("AscendC::Cast", "基础API/Memory矢量计算"), "pages": ["基础API/Memory矢量计算/Cast.md"]}
    scalar = {**entry("AscendC::Cast", "基础API/标量计算"), "pages": ["基础API/标量计算/Cast（float转bfloat16_t）.md"]}
    vec, sca = "asc: void Cast(dst, src, mode, n)", "hand: bfloat16_t Cast(const float&)"
    pages = {"AscendC::Cast": {vec: "基础API/Memory矢量计算/Cast.md", sca: "基础API/标量计算/Cast（float转bfloat16_t）.md"}}
    rep = coverage.coverage([mem, scalar], {"AscendC::Cast": [vec, sca]}, pages=pages)
    got = {f["family"]: [a["forms"] for a in f["implemented_apis"]] for f in rep["families"]}
    assert got == {"基础API/Memory矢量计算": [[vec]], "基础API/标量计算": [[sca]]}
    rep = coverage.coverage([mem, scalar], {"AscendC::Cast": [vec]}, pages={"AscendC::Cast": {vec: None}})
    assert [f["implemented"] for f in rep["families"]] == [1, 0]      # no page: the preferred entry


def test_the_c_api_families_and_the_basic_gaps_are_implemented(tmp_path):
    out = tmp_path / "api.json"
    assert main(["api", "--json", str(out)]) == 0
    fams = {f["family"]: f for f in json.loads(out.read_text(encoding="utf-8"))["families"]}
    for fam in ("C-API/reg", "C-API/vector_compute", "C-API/vector_datamove", "C-API/sync", "C-API/sys_var", "C-API/scalar_compute",
                "C-API/simd_atomic", "C-API/struct", "C-API/enum", "C-API/misc", "基础API/Memory矢量计算",
                "基础API/辅助数据结构", "基础API/标量计算", "高阶API/数学计算", "高阶API/激活函数", "高阶API/归一化操作",
                "高阶API/归约操作", "高阶API/索引计算", "高阶API/随机函数",
                "高阶API/排序操作", "高阶API/数据过滤", "高阶API/量化操作",
                "高阶API/张量变换"):
        assert fams[fam]["missing"] == [] and fams[fam]["implemented"] == fams[fam]["in_scope"] > 0, fam
    # a name of two families (asc_float2int32_rn: register forms and a scalar form) is credited to each by its forms
    reg, scalar = ({a["name"]: a["forms"] for a in fams[f]["implemented_apis"]}["asc_float2int32_rn"]
                   for f in ("C-API/reg", "C-API/scalar_compute"))
    assert "vector_int32_t" in reg[0] and scalar == ["emulated: int32_t asc_float2int32_rn(float value)"]


def test_api_command_json_and_missing_list(tmp_path, capsys):
    out = tmp_path / "api.json"
    assert main(["api", "--json", str(out)]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert {"in_scope", "implemented", "families"} <= set(data)
    assert data["in_scope"] > 1000 and 0 < data["implemented"] <= data["in_scope"]
    fams = {f["family"]: f for f in data["families"]}
    reg = fams["基础API/Reg矢量计算"]
    assert {"family", "in_scope", "implemented", "missing"} <= set(reg)
    assert reg["in_scope"] == reg["implemented"] + len(reg["missing"])
    add = next(a for a in reg["implemented_apis"] if a["name"] == "AscendC::Reg::Add")
    assert add["forms"] == [f"{f['runs']}: {f['signature']}" for f in api.implemented()["AscendC::Reg::Add"]["forms"]]
    assert sum(f["implemented"] for f in data["families"]) == data["implemented"]
    # a name two families document is credited to one of them (the basic API), so check within one family
    assert not any(api.is_implemented(n) for n in reg["missing"])
    capsys.readouterr()
    assert main(["api", "--missing", "--family", "Reg矢量计算"]) == 0
    text = capsys.readouterr().out
    assert "C-API" not in text
    if reg["missing"]:
        assert "基础API/Reg矢量计算: missing" in text and reg["missing"][0] in text


def test_api_command_bad_family_is_bad_input(capsys):
    assert main(["api", "--family", "no such family"]) == 2
    assert "no catalog family" in capsys.readouterr().err


def test_api_json_without_a_path_goes_to_stdout(capsys):
    assert main(["api", "--json", "--missing"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["in_scope"] == data["implemented"] + data["missing"]


def test_every_form_of_a_catalogued_name_names_a_catalog_page():
    """A definition's doc page (the API's or a form's) is a page of the catalog, so the coverage credits it
    (a misspelt page, e.g. ``Xor接口/Xor.md`` for ``Xor-82.md``, silently credited nothing)."""
    from toolkit.ascendc.catalog import names, store
    from toolkit.cli.api_command import form_pages
    entries = store.load()
    pages = {p for e in entries for p in e["pages"]}
    known = {names.key(e["name"]) for e in entries}
    bad = sorted({(n, d) for n, fp in form_pages().items() if names.key(n) in known
                  for d in fp.values() if d not in pages})
    assert not bad, bad
