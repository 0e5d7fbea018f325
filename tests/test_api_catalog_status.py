"""What the toolkit implements against the catalog: the header scan (on C++ written here, and on our real
headers through the preprocessor), the provisional status, the coverage report and ``migrate-check api``."""
from __future__ import annotations

import json
import shutil

import pytest

from toolkit.asc.build import INCLUDE
from toolkit.ascendc.catalog import coverage, headers, status
from toolkit.cli import main

PREPROCESSED = r'''
namespace AscendC {
enum class HardEvent : int { V_S = 0 };
using TEventID = int8_t;
class __Handle { public: long long h_ = 0; };
template <class T> class LocalTensor {
public:
    LocalTensor() = default;
    T GetValue(uint32_t i) const;
};
template <class T> T LocalTensor<T>::GetValue(uint32_t i) const { static int x = ::__asc::api("LocalTensor." "GetValue"); return T{}; }
class TPipe : public __Handle {
public:
    template <HardEvent e> TEventID FetchEventID(int k = int{}) { static auto f = ::__asc::api(".FetchEventID"); return 0; }
    void Destroy() { if (h_) { ::__asc::api(".Destroy"); } }
};
template <int pos, int depth = 1> class TQue : public __Handle {
public:
    template <class T> LocalTensor<T> AllocTensor() { ::__asc::api(".AllocTensor"); return {}; }
};
template <int src, int dst> class TQueBind : public TQue<src, 1> {};
namespace Reg {
template <class T = void, class R> void Add(R& d, R& a, R& b) { ::__asc::api("Reg." "Add"); }
template <class T = void, class R> void Histograms(R& d, R& a) { ::__asc::api("Reg." "Histograms"); }
}
namespace MicroAPI = Reg;
}
extern "C" { inline void asc_init() { ::__asc::api("CAPI.asc_init"); } }
'''


def scan():
    return headers.scan_text(PREPROCESSED)


def test_scan_finds_namespaces_classes_members_and_bridge_names():
    s = scan()
    found = {d.qualified: d for d in s.decls}
    assert found["AscendC::Reg::Add"].bridge == ["Reg.Add"]              # adjacent literals joined
    assert found["AscendC::LocalTensor::GetValue"].bridge == ["LocalTensor.GetValue"]   # defined outside its class
    assert found["AscendC::TPipe::FetchEventID"].bridge == [".FetchEventID"]   # T{} default is no scope
    assert found["AscendC::TPipe::Destroy"].bridge == [".Destroy"]        # nested blocks stay in the body
    assert found["AscendC::HardEvent"].kind == "type" and found["AscendC::TEventID"].kind == "type"
    assert found["asc_init"].bridge == ["CAPI.asc_init"]                  # extern "C" is transparent
    assert s.bases["AscendC::TQueBind"] == ["TQue"] and s.aliases == {"MicroAPI": "Reg"}


def test_header_names_inherit_members_and_drop_unresolvable_forms():
    out = status.header_names(scan(), resolve=lambda name: name != "Reg.Histograms")
    assert "AscendC::TQueBind::AllocTensor" in out and "AscendC::TQue::AllocTensor" in out
    assert "AscendC::Reg::Add" in out and "AscendC::Reg::Histograms" not in out
    assert "AscendC::LocalTensor" in out                                  # its constructor
    assert not any("__Handle" in n for n in out)
    assert all(f.startswith("asc: ") for forms in out.values() for f in forms)


def test_python_names_are_the_kernel_api():
    py = status.python_names()
    assert py["AscendC::Reg::Add"] == ["python: toolkit.ascendc.regbase.Add"]
    assert "AscendC::Add" in py and "AscendC::DataCopyPad" in py and "AscendC::TPipe::InitBuffer" in py
    assert "asc_vf_call" in py                                           # a C-style name stays global


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++ to preprocess the headers")
def test_the_real_headers_through_the_preprocessor():
    s = headers.scan_headers(INCLUDE, ["g++"])
    found = {d.qualified for d in s.decls}
    assert {"AscendC::Reg::Add", "AscendC::Add", "AscendC::TPipe::InitBuffer", "asc_init"} <= found
    assert "asc_vf_call" in s.macros                                     # a macro of ours
    assert "__GNUC__" not in s.macros and "errno" not in s.macros        # system headers' macros are not ours


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


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++ to preprocess the headers")
def test_api_command_json_and_missing_list(tmp_path, capsys):
    out = tmp_path / "api.json"
    assert main(["api", "--json", str(out)]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert {"in_scope", "implemented", "families"} <= set(data)
    assert data["in_scope"] > 1000 and 0 < data["implemented"] < data["in_scope"]
    fams = {f["family"]: f for f in data["families"]}
    reg = fams["基础API/Reg矢量计算"]
    assert {"family", "in_scope", "implemented", "missing"} <= set(reg)
    assert reg["in_scope"] == reg["implemented"] + len(reg["missing"])
    assert "AscendC::Reg::Histograms" in reg["missing"]
    add = next(a for a in reg["implemented_apis"] if a["name"] == "AscendC::Reg::Add")
    assert any(f.startswith("asc: ") for f in add["forms"]) and any(f.startswith("python: ") for f in add["forms"])
    assert sum(f["implemented"] for f in data["families"]) == data["implemented"]
    capsys.readouterr()
    assert main(["api", "--missing", "--family", "Reg矢量计算"]) == 0
    text = capsys.readouterr().out
    assert "基础API/Reg矢量计算: missing" in text and "AscendC::Reg::Histograms" in text
    assert "C-API" not in text


def test_api_command_bad_family_is_bad_input(capsys):
    assert main(["api", "--family", "no such family"]) == 2
    assert "no catalog family" in capsys.readouterr().err
