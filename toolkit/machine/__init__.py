"""The machine model as data: load, validate and freeze ``ascend950.toml``.

Every numeric leaf of the file is ``{value = ..., source = "..."}``; a leaf without a source note,
an instruction entry without all its fields, or an unknown lane/issue class is a load error.
Instruction costs are looked up through :meth:`Machine.instr`, which raises for an opcode that has
no entry (never a silent zero).
"""
from __future__ import annotations

import functools
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from types import MappingProxyType
from typing import Any, Mapping

LANES = ("RVECEX", "RVECLD", "RVECST", "RVECLP", "MEMBAR")
ISSUE_CLASSES = ("dual", "single")
#: execution resources of the VF scheduler: "alu" either execute unit (EXU0/EXU1), "alu0" EXU0 only
#: (single-issue class), "sfu" the special-function pipes (issue slot on an EXU, occupancy on an SFU),
#: "pred" the mask unit, "load"/"store" the UB ports, "loop" the hardware-loop unit, "membar" a barrier
UNITS = ("alu", "alu0", "sfu", "pred", "load", "store", "loop", "membar")
_INSTR_FIELDS = ("lane", "issue", "duration", "latency", "ii", "source")
_LANE_UNIT = {"RVECLD": "load", "RVECST": "store", "RVECLP": "loop", "MEMBAR": "membar"}


def default_unit(lane: str, issue: str) -> str:
    """The unit of an entry without ``unit``: from its lane, and for RVECEX its issue class."""
    return _LANE_UNIT.get(lane) or ("alu0" if issue == "single" else "alu")


class MachineError(ValueError):
    """The machine file is malformed or an opcode has no cost entry."""


@dataclass(frozen=True)
class InstrCost:
    """Cost entry of one vector opcode."""

    opcode: str
    lane: str          #: trace lane: RVECEX / RVECLD / RVECST / RVECLP / MEMBAR
    issue: str         #: "dual" (either execute port) or "single" (port 0 only)
    duration: int      #: trace event length (issue -> complete) as cannsim draws it
    latency: int       #: forwarding latency to a dependent instruction
    ii: int            #: initiation interval on its unit
    source: str
    unit: str = "alu"  #: execution resource (see UNITS)


@dataclass(frozen=True)
class Machine:
    """Frozen view of the machine file. ``params[section][key]`` gives a value; ``sources`` its note."""

    name: str
    version: str
    params: Mapping[str, Mapping[str, Any]]
    sources: Mapping[str, Mapping[str, str]]
    instructions: Mapping[str, InstrCost] = field(repr=False)

    def __getattr__(self, item: str) -> Any:
        # Convenience: machine.vl_bytes looks the key up in [core], then [registers], [dma], [timing].
        for section in ("core", "registers", "dma", "timing", "numerics"):
            sec = self.params.get(section, {})
            if item in sec:
                return sec[item]
        raise AttributeError(item)

    def get(self, section: str, key: str) -> Any:
        try:
            return self.params[section][key]
        except KeyError:
            raise MachineError(f"machine model {self.name} has no [{section}] {key}") from None

    def instr(self, opcode: str) -> InstrCost:
        try:
            return self.instructions[opcode]
        except KeyError:
            raise MachineError(f"opcode {opcode} has no cost entry in machine model {self.name}") from None


def _leaf(section: str, key: str, raw: Any) -> tuple[Any, str]:
    if not isinstance(raw, dict) or set(raw) != {"value", "source"}:
        raise MachineError(f"[{section}] {key}: every parameter must be {{value = ..., source = \"...\"}}")
    if not str(raw["source"]).strip():
        raise MachineError(f"[{section}] {key}: empty source note")
    return raw["value"], raw["source"]


def parse_machine(doc: Mapping[str, Any]) -> Machine:
    meta = doc.get("meta", {})
    params: dict[str, dict[str, Any]] = {}
    sources: dict[str, dict[str, str]] = {}
    for section, body in doc.items():
        if section in ("meta", "instructions"):
            continue
        params[section], sources[section] = {}, {}
        for key, raw in body.items():
            params[section][key], sources[section][key] = _leaf(section, key, raw)
    instrs: dict[str, InstrCost] = {}
    for op, body in doc.get("instructions", {}).items():
        missing = [f for f in _INSTR_FIELDS if f not in body]
        if missing:
            raise MachineError(f"[instructions.{op}] missing {', '.join(missing)}")
        unit = body.get("unit", default_unit(body["lane"], body["issue"]))
        if body["lane"] not in LANES or body["issue"] not in ISSUE_CLASSES or unit not in UNITS:
            raise MachineError(f"[instructions.{op}] unknown lane, issue class or unit")
        instrs[op] = InstrCost(op, body["lane"], body["issue"], int(body["duration"]),
                               int(body["latency"]), int(body["ii"]), body["source"], unit)
    return Machine(
        name=meta.get("name", "?"), version=str(meta.get("version", "?")),
        params=MappingProxyType({k: MappingProxyType(v) for k, v in params.items()}),
        sources=MappingProxyType({k: MappingProxyType(v) for k, v in sources.items()}),
        instructions=MappingProxyType(instrs),
    )


def with_overrides(machine: Machine, section: str, **values: Any) -> Machine:
    """A copy of ``machine`` with some parameters of one section replaced (for fitting and what-ifs)."""
    params = {k: dict(v) for k, v in machine.params.items()}
    for key, value in values.items():
        if key not in params.get(section, {}):
            raise MachineError(f"machine model {machine.name} has no [{section}] {key}")
        params[section][key] = value
    return Machine(machine.name, machine.version + "+overrides",
                   MappingProxyType({k: MappingProxyType(v) for k, v in params.items()}), machine.sources,
                   machine.instructions)


def with_instr(machine: Machine, opcode: str, **fields: Any) -> Machine:
    """A copy of ``machine`` with some fields of one opcode's cost entry replaced."""
    instrs = dict(machine.instructions)
    old = machine.instr(opcode)
    instrs[opcode] = InstrCost(**{**old.__dict__, **fields})
    return Machine(machine.name, machine.version + "+overrides", machine.params, machine.sources,
                   MappingProxyType(instrs))


@functools.lru_cache(maxsize=None)
def load_machine(name: str = "ascend950") -> Machine:
    text = resources.files(__package__).joinpath(f"{name}.toml").read_text(encoding="utf-8")
    return parse_machine(tomllib.loads(text))
