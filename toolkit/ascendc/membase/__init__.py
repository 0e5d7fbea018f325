"""``AscendC::`` MemBase (LocalTensor) vector API, as Ascend 950 runs it: every call is one small VF.

Kernel ports write ``from toolkit import membase as AscendC`` and call ``AscendC.Add(dst, src0, src1, n)``.
Each call updates UB (values and definedness shadow) and appends one ``VfCall(launch="membase")`` event.
The mask mode, mask register and DEQSCALE live in :mod:`.maskstate`; the CmpMask register and the
reduce result register in reserved UB (machine file ``[membase]``).
"""
from .bilinear import BilinearInterpolation
from .binary import (Add, AbsSub, AddRelu, And, Div, FusedMulAdd, Max, Min, Mul, MulAddDst, MulAddRelu, Mull,
                     Or, Prelu, Sub, SubRelu)
from .brcb import Brcb
from .cast import Cast, Truncate
from .compare import Compare, Compares, GetCmpMask, SetCmpMask
from .fused_cast import AddDeqRelu, AddReluCast, CastDequant, ExpSub, MulCast, MulsCast, SubReluCast
from .gather import GatherMask
from .maskstate import (MASK_PLACEHOLDER, MaskMode, ResetMask, SetDeqScale, SetMaskCount, SetMaskNorm, SetVectorMask, VdeqInfo)
from .params import (
           BinaryRepeatParams,
           BrcbRepeatParams,
           CopyRepeatParams,
           GatherMaskParams,
           GatherRepeatParams,
           RoundMode,
           UnaryRepeatParams,
)
from .reduce import (BlockReduceMax, BlockReduceMin, BlockReduceSum, PairReduceSum, ReduceDataBlock, ReduceOrder,
                     ReducePairElem, ReduceRepeat, WholeReduceMax, WholeReduceMin, WholeReduceSum)
from .reduce_count import GetReduceRepeatSumSpr, ReduceMax, ReduceMin, ReduceSum
from .relayout import (DeInterleave, Interleave, TransDataTo5HD, TransDataTo5HDParams, Transpose,
                       TransposeParamsExt, TransposeType)
from .scalar import Adds, Ands, Axpy, Divs, LeakyRelu, Maxs, Mins, Muls, Ors, ShiftLeft, ShiftRight, Subs
from .scatter import Gather, Gatherb, Scatter
from .select import SELMODE, Select
from .sort import GetMrgSortResult, MrgSort, MrgSort4Info, MrgSortSrcList, Sort32
from .unary import Abs, Copy, CreateVecIndex, Duplicate, Exp, Ln, Neg, Not, Reciprocal, Relu, Rsqrt, Sqrt

__all__ = ["Abs", "AbsSub", "BilinearInterpolation", "Add", "AddDeqRelu", "AddRelu", "AddReluCast", "Adds", "And", "Ands", "Axpy",
           "BinaryRepeatParams", "BlockReduceMax", "BlockReduceMin", "BlockReduceSum", "Brcb", "BrcbRepeatParams",
           "Cast", "CastDequant", "Compare", "Copy", "CopyRepeatParams", "Compares", "CreateVecIndex", "DeInterleave", "Div", "Divs", "Duplicate",
           "Exp", "ExpSub", "FusedMulAdd", "Gather", "GatherMask", "GatherMaskParams", "GatherRepeatParams", "Gatherb",
           "GetCmpMask", "GetMrgSortResult", "GetReduceRepeatSumSpr", "Interleave", "LeakyRelu", "Ln", "MASK_PLACEHOLDER", "MaskMode",
           "Max", "Maxs", "Min", "Mins", "MrgSort", "MrgSort4Info", "MrgSortSrcList", "Mul", "MulAddDst",
           "MulAddRelu", "MulCast", "Mull", "Muls", "MulsCast", "Neg", "Not", "Or", "Ors", "PairReduceSum", "Prelu",
           "Reciprocal", "ReduceDataBlock", "ReduceMax", "ReduceMin", "ReduceOrder", "ReducePairElem",
           "ReduceRepeat", "ReduceSum", "Relu", "ResetMask", "RoundMode", "Rsqrt", "SELMODE", "Scatter", "Select",
           "SetCmpMask", "SetDeqScale", "SetMaskCount", "SetMaskNorm", "SetVectorMask", "ShiftLeft", "ShiftRight",
           "Sort32", "Sqrt", "Sub", "SubRelu", "SubReluCast", "Subs", "TransDataTo5HD", "TransDataTo5HDParams",
           "Transpose", "TransposeParamsExt", "TransposeType", "Truncate", "UnaryRepeatParams", "VdeqInfo",
           "WholeReduceMax", "WholeReduceMin", "WholeReduceSum"]
