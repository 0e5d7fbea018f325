"""``AscendC::`` MemBase (LocalTensor) vector API, as Ascend 950 runs it: every call is one small VF.

Kernel ports write ``from toolkit import membase as AscendC`` and call ``AscendC.Add(dst, src0, src1, n)``.
Each call updates UB (values and definedness shadow) and appends one ``VfCall(launch="membase")`` event.
"""
from .binary import Add, Adds, Div, Max, Maxs, Min, Mins, Mul, Muls, Sub
from .brcb import Brcb
from .cast import Cast
from .gather import GatherMask
from .params import (
           BinaryRepeatParams,
           BrcbRepeatParams,
           GatherMaskParams,
           RoundMode,
           UnaryRepeatParams,
)
from .reduce import WholeReduceSum
from .reduce_count import ReduceMax, ReduceSum
from .unary import Abs, Duplicate, Exp, Ln, Relu, Sqrt

__all__ = ["Abs", "Add", "Adds", "BinaryRepeatParams", "Brcb", "BrcbRepeatParams", "Cast", "Div", "Duplicate",
           "Exp", "GatherMask", "GatherMaskParams", "Ln", "Max", "Maxs", "Min", "Mins", "Mul", "Muls", "ReduceMax",
           "ReduceSum", "Relu", "RoundMode", "Sqrt", "Sub", "UnaryRepeatParams", "WholeReduceSum"]
