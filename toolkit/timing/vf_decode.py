"""A VF's instruction stream as the scheduler's rows: costs from the machine file, dependencies as
producer row indices, UB banks of the loads and stores."""
from __future__ import annotations

from typing import NamedTuple

from toolkit.machine import Machine
from toolkit.record.events import ALIAS, BLOCK_STRIDED, ITER, PSEUDO_OPS, Instr

from .vf_units import UNIT_CLASS, VALUE_CLASSES, OpClass, ub_banks

LD, ST = OpClass.LOAD, OpClass.STORE
_row = tuple.__new__                 #: a Row from its fields without the Python-level constructor (hot)


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


def _bank(ins: Instr, machine: Machine, memo: dict) -> int:
    """Banks of a load/store from its recorded UB address (0: no address recorded); ``memo``: the masks
    found so far in this stream (a loop touches the same addresses again)."""
    if ins.ub_addr < 0 or not ins.ub_bytes:
        return 0
    strided = ins.dist == BLOCK_STRIDED
    key = (ins.ub_addr, ins.ub_bytes, ins.aux if strided else None)
    got = memo.get(key)
    if got is None:
        got = memo[key] = (ub_banks(machine, ins.ub_addr, 0, machine.params["core"]["blocks_per_repeat"],
                                    max(int(ins.aux), 1)) if strided else ub_banks(machine, ins.ub_addr, ins.ub_bytes))
    return got


def decode(instrs: list, machine: Machine) -> tuple[list[Row], list[int]]:
    """Real instructions as rows, and per row the row index of the last reader of its value (-1: none)."""
    store_extra = machine.params["timing"]["store_extra_latency"]
    banks_on = machine.params["timing"]["bank_conflicts"] != "none"
    producer: dict[int, int] = {}
    rows: list[Row] = []
    last_reader: list[int] = []
    iter_start = False
    costs: dict[str, tuple] = {}                  # opcode -> its row fields and flags, looked up once
    banks: dict = {}
    for raw in instrs:
        ins = raw if isinstance(raw, Instr) else Instr(*raw)
        op = ins.opcode
        if op in PSEUDO_OPS:
            if op == ALIAS and ins.srcs and ins.srcs[0] in producer:
                producer[ins.dst] = producer[ins.srcs[0]]
            iter_start = iter_start or op == ITER
            continue
        got = costs.get(op)
        if got is None:
            info = machine.instr(op)
            cls = UNIT_CLASS[info.unit]
            got = costs[op] = (cls, info.latency, info.duration, max(info.ii, 1), info.lane,
                               banks_on and (cls == LD or cls == ST), cls == ST, cls in VALUE_CLASSES)
        cls, lat, dur, span, lane, banked, store, value_cls = got
        idx = len(rows)
        deps = []
        for src in ins.srcs:
            p = producer.get(src)
            if p is not None:
                deps.append((p, store_extra if store and rows[p].lat > 1 else 0))
                last_reader[p] = idx
        dst = ins.dst
        if dst >= 0:
            producer[dst] = idx
        bank = _bank(ins, machine, banks) if banked else 0
        rows.append(_row(Row, (op, cls, lat, dur, span, tuple(deps), lane, bank, iter_start, dst >= 0 and value_cls)))
        last_reader.append(-1)
        iter_start = False
    return rows, last_reader
