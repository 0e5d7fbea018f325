"""The API definitions (toolkit/ascendc/api) agree with everything they describe: the generated C++
headers are current, every public name of our headers has a definition (and every definition is in a
header), every semantic function is exported and takes its forms' arguments, every opcode is registered
and costed, the parameter structs match their Python classes, and the bridge resolves every name through
the table."""
from __future__ import annotations

import re

import pytest

from toolkit.asc import apigen, bridge, enums
from toolkit.asc.headers import INCLUDE, public_names
from toolkit.ascendc import api, dma, membase, regbase, sync
from toolkit.ascendc.api import checks, spec
from toolkit.machine import load_machine


def test_generated_headers_are_current():
    stale = apigen.stale()
    assert not stale, f"run `python -m toolkit.asc.apigen`: {[str(p) for p in stale]}"


def test_every_public_header_name_has_a_definition_and_every_definition_is_declared():
    declared = public_names()
    assert len(declared) > 150                        # the scan sees the whole surface
    undefined = {n: w for n, w in declared.items() if not api.is_implemented(n)}
    assert not undefined, f"public names without a definition: {undefined}"
    defined = set(api.DEFINITIONS) | set(api.STRUCT_NAMES) | set(api.NAMES)
    assert not defined - set(declared), f"defined but in no header: {sorted(defined - set(declared))}"


def test_the_header_scan_finds_functions_methods_types_and_the_c_api():
    declared = public_names()
    for name in ("AscendC::Reg::LoadAlign", "AscendC::TPipe::InitBuffer", "AscendC::LocalTensor::operator[]",
                 "AscendC::DataCopyPadParams", "AscendC::MicroAPI", "AscendC::VECTOR_REG_WIDTH", "asc_vf_call",
                 "asc_add_sync", "AscendC::GetVecLen", "AscendC::TQueBind"):
        assert name in declared, name
    assert not [n for n in declared if "__" in n.split("::")[-1][:2] or n.endswith("_")]


def test_semantic_functions_are_exported_and_take_every_form():
    assert checks.python_problems() == []


def test_the_signature_check_catches_a_python_function_that_lost_an_argument():
    d = api.lookup("AscendC::Reg::Adds")
    broken = spec.ApiDef(d.name, d.family, regbase.Exp, d.forms)          # Exp takes one source, no scalar
    assert checks._form_problems(broken, 0, broken.forms[0])


def test_python_api_namespaces_export_no_undefined_api():
    enum_classes = frozenset(cls for _, _, _, cls, _ in enums.ENUMS) | {sync.PipeType}
    python_only = frozenset({regbase.VLOOP})        # the Python spelling of a VF hardware loop (a for loop in C++)
    for module in (regbase, membase, dma, sync):
        assert checks.namespace_exports(module, enum_classes | python_only) == [], module.__name__


def test_opcodes_are_registered_costed_and_claimed():
    assert checks.opcode_problems() == []


def test_structs_match_their_python_classes():
    assert checks.struct_problems() == []
    assert checks.name_problems() == []
    assert set(bridge.STRUCTS.values()) == {s.py for s in api.STRUCTS.values()}


def test_stable_ids_are_unique_and_the_headers_send_them():
    assert checks.id_problems() == []
    assert spec.stable_id("AscendC::Reg::Add") == spec.stable_id("AscendC::Reg::Add") != spec.stable_id("AscendC::Add")
    text = (INCLUDE / "asc" / "gen" / "reg_compute.h").read_text()
    add = api.lookup("AscendC::Reg::Add")
    assert f'ASC_CALL({add.id}, "AscendC::Reg::Add")' in text


def test_enum_types_named_by_definitions_exist():
    known = {name for _, _, name, _, _ in enums.ENUMS} | {"pipe_t"}
    for d in api.DEFINITIONS.values():
        for f in d.forms:
            for p in f.tparams:
                if p.kind == spec.ENUM:
                    assert (p.of if p.ctype == "auto" else p.ctype) in known, (d.name, p.ctype)
            for a in f.args:
                if a.kind == spec.EARG:
                    assert a.ctype in known, (d.name, a.ctype)


def test_the_bridge_resolves_every_emulated_name_through_the_table():
    for d in api.DEFINITIONS.values():
        if not any(f.emulated and not f.via for f in d.forms):
            continue
        resolved = bridge.resolve(d.name)
        assert resolved.id == d.id
        if d.name in bridge_adapters():
            assert resolved.fn is bridge_adapters()[d.name]
        elif d.family.member:
            assert resolved.method == d.py.__name__
        else:
            assert resolved.fn is d.py, d.name
    assert bridge.resolve("AscendC::NoSuchApi").id == 0


def bridge_adapters():
    from toolkit.asc import hooks
    assert set(hooks.ADAPTERS) <= set(api.DEFINITIONS)
    return hooks.ADAPTERS


def test_implemented_lists_forms_and_how_each_runs():
    info = api.implemented()
    load = info["AscendC::Reg::LoadAlign"]
    assert load["family"] == "reg.datamove" and len(load["forms"]) == 11
    assert all(f["runs"] == "emulated" for f in load["forms"])
    assert load["forms"][3]["signature"].startswith("template <class T, PostLiteral post, LoadDist dist")
    assert "AscendC::Reg::LoadAlign(R& dstReg, U*& srcAddr, int32_t postUpdateStride)" in load["forms"][3]["signature"]
    assert {f["runs"] for f in info["AscendC::Reg::DataCopy"]["forms"]} == {"via AscendC::Reg::LoadAlign",
                                                                             "via AscendC::Reg::StoreAlign"}
    assert info["AscendC::GetSubBlockIdx"]["forms"][0]["runs"] == "native"
    assert info["AscendC::GetVecLen"]["forms"][0]["runs"] == "hand"


def test_every_page_is_relative_to_the_reference_root():
    for d in api.DEFINITIONS.values():
        assert not d.doc or (d.doc.startswith(("基础API/", "高阶API/", "C-API/")) and d.doc.endswith(".md")), d.name
        for f in d.forms:
            assert f.doc is None or f.doc.startswith(("基础API/", "高阶API/", "C-API/")), d.name


@pytest.mark.parametrize("text, key", [("types.h", "VECTOR_REG_WIDTH"), ("types.h", "ONE_REPEAT_BYTE_SIZE")])
def test_vector_width_constants_are_the_machine_files(text, key):
    m = re.search(rf"{key} = (\d+);", (INCLUDE / "asc" / text).read_text())
    assert int(m.group(1)) == load_machine().params["core"]["vl_bytes"] == regbase.VL


def test_enum_ids_are_stable_ids_and_unique():
    ids = [eid for eid, *_ in enums.ENUMS] + [enums.PIPE_ENUM_ID]
    assert len(set(ids)) == len(ids)
    assert all(eid == spec.stable_id(f"{ns}::{name}") for eid, ns, name, _, _ in enums.ENUMS)
