"""What each MemBase vector API means, as the port reads it: its argument layout per form and the RegBase
operation that computes the same element function on registers.

Forms (the Ascend C reference, 基础API): the count form ``(dst, src..., count)`` works on elements
0..count-1; the level-0 form ``(dst, src..., mask, repeatTime, repeatParams)`` on the active lanes of
``repeatTime`` repeats of one VL with per-operand block and repeat strides (units of 32 B blocks).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Rule:
    name: str
    kind: str          #: binary | scalar | unary | dup | cast | wreduce | brcb | gather | creduce
    reg: str           #: the Reg:: operation (register form)
    reduce: str = ""   #: sum | max | min for the reductions (and the folds a binary op can be)


_RULES = [Rule(n, "binary", n, {"Add": "sum", "Max": "max", "Min": "min"}.get(n, ""))
          for n in ("Add", "Sub", "Mul", "Div", "Max", "Min")]
_RULES += [Rule(n, "scalar", n) for n in ("Adds", "Muls", "Maxs", "Mins")]
_RULES += [Rule(n, "unary", n) for n in ("Exp", "Sqrt", "Abs", "Ln", "Relu")]
_RULES += [Rule("Duplicate", "dup", "Duplicate"), Rule("Cast", "cast", "Cast"),
           Rule("WholeReduceSum", "wreduce", "ReduceSum", "sum"), Rule("Brcb", "brcb", "Duplicate"),
           Rule("GatherMask", "gather", "Cast"),
           Rule("ReduceSum", "creduce", "ReduceSum", "sum"), Rule("ReduceMax", "creduce", "ReduceMax", "max"),
           Rule("ReduceMin", "creduce", "ReduceMin", "min")]
RULES = {r.name: r for r in _RULES}

#: the scalar-operand Reg form of a binary op (register op with a broadcast scalar otherwise)
SCALAR_FORM = {"Add": "Adds", "Mul": "Muls", "Max": "Maxs", "Min": "Mins"}
#: Reg ops that run on the special-function pipes (recomputing them costs more than a reload)
SFU_OPS = {"Exp", "Sqrt", "Ln", "Div"}

#: calls a region may hold besides the vector APIs: dropped (PIPE_V ordering is the register chain's)
BARRIERS = {"PipeBarrier"}

#: default repeat parameters (Ascend C: every block stride 1, every repeat stride 8 blocks)
DEFAULT_PARAMS = {"BinaryRepeatParams": (1, 1, 1, 8, 8, 8), "UnaryRepeatParams": (1, 1, 8, 8),
                  "BrcbRepeatParams": (1, 8), "GatherMaskParams": (1, 1, 8, 0)}

#: element types the port handles on registers, with their C++ name and width in bytes
DTYPES = {"float": 4, "half": 2, "bfloat16_t": 2, "int32_t": 4, "uint32_t": 4, "int16_t": 2, "uint16_t": 2}
FLOATS = {"float", "half", "bfloat16_t"}

#: MemBase RoundMode -> the round mode a Reg::Cast takes (the same enumerator)
ROUND_MODES = {"CAST_NONE", "CAST_RINT", "CAST_FLOOR", "CAST_CEIL", "CAST_ROUND", "CAST_TRUNC", "CAST_ODD"}

VL_BYTES = 256
BLOCK_BYTES = 32


def lanes(dtype: str) -> int:
    return VL_BYTES // DTYPES[dtype]


def block_elems(dtype: str) -> int:
    return BLOCK_BYTES // DTYPES[dtype]
