"""A VF's instruction stream as the scheduler's rows: costs from the machine file, dependencies as
producer row indices, UB banks of the loads and stores."""
from __future__ import annotations

from typing import NamedTuple

from toolkit.machine import Machine
from toolkit.record.events import ALIAS, BLOCK_STRIDED, ITER, PSEUDO_OPS, Instr

from .vf_units import UNIT_CLASS, VALUE_CLASSES, OpClass, ub_banks

LD, ST = OpClass.LOAD, OpClass.STORE


class Row(NamedTuple):
    """A decoded instruction: costs from the machine file, dependencies as producer row indices."""

    op: str
    cls: OpClass
    lat: int
    dur: int
    span: int                 #: cycles its unit stays busy (ii)
    deps: tuple               #: ((producer row, extra latency), ...)
    lane: str
    bank: int                 #: UB bank bit mask of a load/store (0: none recorded or banks off)
    iter_start: bool          #: first instruction of a hardware-loop iteration
    value: bool               #: writes a vector register (needs a physical register)


def _bank(ins: Instr, machine: Machine) -> int:
    """Banks of a load/store from its recorded UB address (0: no address recorded)."""
    if ins.ub_addr < 0 or not ins.ub_bytes:
        return 0
    if ins.dist == BLOCK_STRIDED:
        return ub_banks(machine, ins.ub_addr, 0, machine.params["core"]["blocks_per_repeat"], max(int(ins.aux), 1))
    return ub_banks(machine, ins.ub_addr, ins.ub_bytes)


def decode(instrs: list, machine: Machine) -> tuple[list[Row], list[int]]:
    """Real instructions as rows, and per row the row index of the last reader of its value (-1: none)."""
    store_extra = machine.params["timing"]["store_extra_latency"]
    banks_on = machine.params["timing"]["bank_conflicts"] != "none"
    producer: dict[int, int] = {}
    rows: list[Row] = []
    last_reader: list[int] = []
    iter_start = False
    costs: dict[str, tuple] = {}                  # opcode -> (cost entry, class), looked up once
    for raw in instrs:
        ins = raw if isinstance(raw, Instr) else Instr(*raw)
        if ins.opcode in PSEUDO_OPS:
            if ins.opcode == ALIAS and ins.srcs and ins.srcs[0] in producer:
                producer[ins.dst] = producer[ins.srcs[0]]
            iter_start = iter_start or ins.opcode == ITER
            continue
        got = costs.get(ins.opcode)
        if got is None:
            info = machine.instr(ins.opcode)
            got = costs[ins.opcode] = (info, UNIT_CLASS[info.unit])
        info, cls = got
        idx = len(rows)
        deps = []
        for s in ins.srcs:
            p = producer.get(s)
            if p is not None:
                deps.append((p, store_extra if cls == ST and rows[p].lat > 1 else 0))
                last_reader[p] = idx
        if ins.dst >= 0:
            producer[ins.dst] = idx
        bank = _bank(ins, machine) if banks_on and (cls == LD or cls == ST) else 0
        rows.append(Row(ins.opcode, cls, info.latency, info.duration, max(info.ii, 1), tuple(deps), info.lane,
                        bank, iter_start, ins.dst >= 0 and cls in VALUE_CLASSES))
        last_reader.append(-1)
        iter_start = False
    return rows, last_reader
