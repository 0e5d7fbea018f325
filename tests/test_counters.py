"""toolkit.views.counters on hand-built event streams (no emulator run)."""
from __future__ import annotations

import pytest

from toolkit.machine import MachineError, load_machine
from toolkit.record.events import ALIAS, ITER, Dma, QueueOp, VfCall
from toolkit.views.counters import (
    counters_by_vf,
    opcode_counts,
    run_counters,
    vf_counters,
)

MACHINE = load_machine()


def loop_vf(name: str, trips: int) -> VfCall:
    """PSET; VLOOP(trips) { PLT, VLD, VLD(dual: ALIAS), VADD, VSEL, VST }; VSTAS."""
    instrs = [("RV_PSET", 1, (), 4), ("RV_VLOOP", -1, (), trips)]
    for i in range(trips):
        base = 10 * (i + 1)
        instrs += [(ITER, -1, (), 1), ("RV_PLT", base, (), 64), ("RV_VLD", base + 1, (), "NORM"),
                   ("RV_VLD", base + 2, (), "DINTLV_B32"), (ALIAS, base + 3, (base + 2,), None),
                   ("RV_VADD", base + 4, (base + 1, base + 2, base), None),
                   ("RV_VSEL", base + 5, (base + 4, base + 1, base), None),
                   ("RV_VST", -1, (base + 5, base), "NORM")]
    instrs.append(("RV_VSTAS", -1, (9,), None))
    return VfCall(name, "asc_vf_call", 3, instrs)


def test_vf_counters_per_instance():
    c = vf_counters(loop_vf("F", 3), MACHINE)
    assert c["loop_entries"] == 1
    assert c["rvecex_events"] == 1 + 3 * 3          # PSET + (PLT, VADD, VSEL) per trip
    assert c["rvecld_events"] == 6
    assert c["rvecst_events"] == 3 + 1
    assert c["RV_VLD"] == 6 and c["RV_VADD"] == 3 and c["RV_PLT"] == 3 and c["RV_PSET"] == 1
    assert c["RV_VLOOP"] == 1
    assert ITER not in c and ALIAS not in c


def test_opcode_counts_skip_pseudo_ops():
    counts = opcode_counts(loop_vf("F", 2))
    assert set(counts) == {"RV_PSET", "RV_VLOOP", "RV_PLT", "RV_VLD", "RV_VADD", "RV_VSEL", "RV_VST", "RV_VSTAS"}


def test_run_counters_sum_over_vfs_and_ignore_other_events():
    events = [QueueOp("alloc", "q", "VECIN", 0),
              Dma("GM2UB", "DataCopyPad", 0, "x", 0, 256, 1, 256),
              loop_vf("F", 2), loop_vf("F", 2), loop_vf("G", 5),
              Dma("UB2GM", "DataCopyPad", 0, "z", 0, 256, 1, 256)]
    total = run_counters(events, MACHINE)
    assert total["vf_count"] == 3
    assert total["loop_entries"] == 3
    assert total["rvecex_events"] == 3 * 1 + 3 * (2 + 2 + 5)
    assert total["RV_VST"] == 9 and total["RV_VSTAS"] == 3
    assert list(total)[:5] == ["vf_count", "loop_entries", "rvecex_events", "rvecld_events", "rvecst_events"]


def test_counters_by_vf_name():
    by = counters_by_vf([loop_vf("F", 2), loop_vf("G", 1), loop_vf("F", 4)], MACHINE)
    assert by["F"]["instances"] == 2 and by["G"]["instances"] == 1
    assert by["F"]["first"]["RV_VADD"] == 2 and by["F"]["total"]["RV_VADD"] == 6


def test_empty_stream():
    assert run_counters([], MACHINE) == {"vf_count": 0, "loop_entries": 0, "rvecex_events": 0,
                                         "rvecld_events": 0, "rvecst_events": 0}


def test_unknown_opcode_is_an_error():
    vf = VfCall("F", "asc_vf_call", 0, [("RV_NOT_AN_OPCODE", 1, (), None)])
    with pytest.raises(MachineError):
        vf_counters(vf, MACHINE)
