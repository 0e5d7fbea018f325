"""The opcodes the Reg breadth added are registered, costed on a unit of their kind with a source note, and
the ones whose figures are assumptions are listed as such (isa.assumed, printed by calibrate.py)."""
from __future__ import annotations

from toolkit.ascendc import api
from toolkit.machine import isa, load_machine

NEW = ("RV_VNEG", "RV_VAND", "RV_VSHL", "RV_VADDC", "RV_VMULL", "RV_VAXPY", "RV_VEXPSUB", "RV_VDINTLV", "RV_VPACK",
       "RV_VCGADD", "RV_VCPADD", "RV_VHIST", "RV_PSEL", "RV_PINTLV", "RV_VMOVVP", "RV_VGATHERB", "RV_VSCATTER")


def test_new_opcodes_are_costed_and_recorded_by_a_definition():
    m = load_machine()
    named = {op for d in api.DEFINITIONS.values() for op in d.opcodes}
    for op in NEW:
        cost = m.instructions[op]
        assert cost.unit in isa.KIND_UNITS[isa.REGISTRY[op]] and cost.source and op in named, op


def test_assumed_costs_are_listed_and_documented_ones_are_not():
    m = load_machine()
    listed = isa.assumed(m)
    assert {"RV_VAND", "RV_VAXPY", "RV_VHIST", "RV_VGATHERB"} <= set(listed)
    assert "RV_VADD" not in listed and "RV_VMUL" not in listed            # trace-measured figures
    assert all("assum" in m.instructions[op].source.lower() for op in listed)
