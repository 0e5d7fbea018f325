"""``migrate-check machine``: the model prints, validates, and covers every opcode the emulator emits."""
import json
import pathlib
import re

from toolkit.cli import main
from toolkit.cli.machine_command import RECORDED_OPCODES
from toolkit.machine import load_machine

ROOT = pathlib.Path(__file__).resolve().parents[1] / "toolkit"


def test_machine_command_text_and_json(capsys, tmp_path):
    assert main(["machine"]) == 0
    out = capsys.readouterr().out
    assert "machine ascend950" in out and "missing or misplaced cost entries: none" in out
    assert "entries no API records: none" in out
    assert "ub_budget_bytes = 253952" in out
    path = tmp_path / "m.json"
    assert main(["machine", "--json", str(path)]) == 0
    data = json.loads(path.read_text())
    assert data["params"]["core"]["aiv_cores"]["value"] == 56
    assert all(p["source"] for sec in data["params"].values() for p in sec.values())
    assert data["missing_opcodes"] == [] and data["unused_opcodes"] == []


def test_registry_check_finds_missing_misplaced_and_unused_entries():
    from toolkit.machine import with_instr
    from toolkit.machine.isa import check
    m = load_machine()
    assert check(m) == ([], [])
    moved = with_instr(m, "RV_VLD", unit="alu")                       # a load on an execute unit
    assert check(moved)[0] == ["RV_VLD: a load opcode on unit alu"]
    instrs = dict(m.instructions)
    instrs["RV_VNOTHING"] = instrs.pop("RV_VEXP")
    stray = type(m)(m.name, m.version, m.params, m.sources, instrs)
    assert check(stray) == (["RV_VEXP: no cost entry"], ["RV_VNOTHING"])


def test_every_opcode_literal_in_the_emulator_has_a_cost_entry():
    found = set()
    for path in (ROOT / "ascendc").rglob("*.py"):
        found |= set(re.findall(r'"(RV_[A-Z0-9_]+)"', path.read_text()))
    assert len(found) > 30, "the scan found too few opcode literals: has the kernel API moved?"
    found |= {"RV_VCVT_F2F", "RV_VCVT_F2I", "RV_VCVT_I2F", "RV_VCVT_I2I"}   # built as "RV_VCVT_" + kind
    found.discard("RV_VCVT_")
    machine = load_machine()
    assert found <= set(RECORDED_OPCODES)
    for op in found:
        machine.instr(op)
