"""The opcode registry: every vector opcode the emulator can record, with what it does to UB.

This is the one list of opcode names. Their costs, lanes and execution units live in the machine
file (``ascend950.toml``); :func:`check` compares the two (``migrate-check machine`` prints it):
every recorded opcode needs a cost entry on a unit that fits its kind, and an entry no API records
is a number nothing reads. A new Reg/MemBase API that records a new opcode adds it here and in the
machine file.
"""
from __future__ import annotations

from types import MappingProxyType

#: opcode -> kind: "load"/"store" move data between UB and registers, "compute" runs on the execute
#: units (or the special-function pipes), "mask" on the mask unit, "loop" a hardware-loop entry,
#: "membar" a memory barrier
REGISTRY = MappingProxyType({
    **dict.fromkeys(("RV_VLD", "RV_VSLDB", "RV_VLDUS", "RV_VLDAS", "RV_VGATHER"), "load"),
    **dict.fromkeys(("RV_VST", "RV_VSSTB", "RV_VSTUI", "RV_VSTAS"), "store"),
    **dict.fromkeys(("RV_VADD", "RV_VSUB", "RV_VMUL", "RV_VDIV", "RV_VMAX", "RV_VMIN", "RV_VADDS", "RV_VMULS",
                     "RV_VMAXS", "RV_VMINS", "RV_VSQRT", "RV_VEXP", "RV_VABS", "RV_VLN", "RV_VRELU", "RV_VDUP",
                     "RV_VSEL", "RV_VCMP", "RV_VCADD", "RV_VCMAX", "RV_VCMIN", "RV_VCVT_F2F", "RV_VCVT_F2I",
                     "RV_VCVT_I2F", "RV_VCVT_I2I", "RV_VSQZ", "RV_VINTLV", "RV_VMULA", "RV_VCI", "RV_VSELR"),
                    "compute"),
    **dict.fromkeys(("RV_PLT", "RV_PSET", "RV_PMOV", "RV_PLOGIC"), "mask"),
    # Reg breadth (issue 18)
    **dict.fromkeys(("RV_VNEG", "RV_VAND", "RV_VOR", "RV_VXOR", "RV_VNOT", "RV_VSHL", "RV_VSHR", "RV_VSHLS",
                     "RV_VSHRS", "RV_VADDC", "RV_VSUBC", "RV_VMULL", "RV_VABSDIF", "RV_VAXPY", "RV_VMADD",
                     "RV_VEXPSUB", "RV_VMULSCVT", "RV_VLRELU", "RV_VPRELU", "RV_VTRC", "RV_VDINTLV", "RV_VPACK",
                     "RV_VUNPACK", "RV_VUSQZ", "RV_VMOV", "RV_VCGADD", "RV_VCGMAX", "RV_VCGMIN", "RV_VCPADD",
                     "RV_VHIST", "RV_SPRCLR"), "compute"),
    **dict.fromkeys(("RV_PSEL", "RV_PPACK", "RV_PUNPACK", "RV_PINTLV", "RV_PDINTLV", "RV_PMOVMSK", "RV_VMOVVP"),
                    "mask"),
    "RV_VGATHERB": "load",
    "RV_VSCATTER": "store",
    "RV_VLOOP": "loop",
    "RV_MEMBAR": "membar",
    # ---- MemBase breadth (helper bmem): opcodes of the MemBase APIs added for issue 18 (the others are the Reg ones)
    **dict.fromkeys(("RV_VRSQRT", "RV_VREC", "RV_VTRANS", "RV_VSORT32", "RV_VMRGSORT"), "compute"),
    # ---- end MemBase breadth
})

#: units of the machine file each kind may run on
KIND_UNITS = MappingProxyType({"load": ("load",), "store": ("store",), "compute": ("alu", "alu0", "sfu"),
                               "mask": ("pred",), "loop": ("loop",), "membar": ("membar",)})

#: instructions a dead-code pass must keep although nothing reads their register: they write UB,
#: enter a loop, order memory, or (PLT) also update the scalar count
SIDE_EFFECTS = frozenset(op for op, kind in REGISTRY.items() if kind in ("store", "loop", "membar")) | {"RV_PLT"}


def check(machine) -> tuple[list[str], list[str]]:
    """(missing: recorded opcodes without a fitting cost entry, unused: entries no API records)."""
    missing = []
    for op, kind in REGISTRY.items():
        cost = machine.instructions.get(op)
        if cost is None:
            missing.append(f"{op}: no cost entry")
        elif cost.unit not in KIND_UNITS[kind]:
            missing.append(f"{op}: a {kind} opcode on unit {cost.unit}")
    unused = [op for op in machine.instructions if op not in REGISTRY]
    return missing, unused


def assumed(machine) -> list[str]:
    """Opcodes whose cost entry is a stated assumption ("assumed like ..."), not a measured or documented
    figure: what calibrate.py lists so that they are not mistaken for calibrated numbers."""
    return sorted(op for op, cost in machine.instructions.items() if "assum" in cost.source.lower())
