"""``AscendC::Reg`` (alias ``MicroAPI``): the RegBase vector-function API.

Kernel ports write ``from toolkit import regbase as Reg`` and call ``Reg.LoadAlign[float](...)``.
"""
from .arith import (
                    Abs,
                    Add,
                    Adds,
                    Div,
                    Duplicate,
                    Exp,
                    Ln,
                    LocalMemBar,
                    Max,
                    Maxs,
                    Min,
                    Mins,
                    Mul,
                    Mula,
                    Muls,
                    Relu,
                    Select,
                    Sqrt,
                    Sub,
)
from .bitwise import And, Not, Or, ShiftLeft, ShiftLefts, ShiftRight, ShiftRights, Xor
from .carry import AddC, Mull, SubC
from .cast import Cast
from .datamove import CreateAddrReg, LoadAlign, StoreAlign
from .discrete import Gather, GatherB, Scatter
from .fused import AbsSub, Axpy, ExpSub, MulAddDst, MulDstAdd, MulsCast
from .histogram import Histograms
from .mask import CreateMask, UpdateMask
from .maskops import MaskGenWithRegTensor, MoveMask
from .reduce import PairReduceElem, Reduce, ReduceDataBlock, ReduceMax, ReduceMin, ReduceSum
from .relayout import DeInterleave, Interleave, Pack, Squeeze, UnPack, Unsqueeze
from .select import (
                    Arange,
                    Compare,
                    Compares,
                    CompareScalar,
                    MaskAnd,
                    MaskNot,
                    MaskOr,
                    MaskXor,
                    Move,
)
from .types import (
                    CMPMODE,
                    VL,
                    AddrReg,
                    CastTrait,
                    DataCopyMode,
                    GatherMaskMode,
                    HighLowPart,
                    HistogramsBinType,
                    HistogramsType,
                    IndexOrder,
                    LoadDist,
                    MaskDist,
                    MaskMergeMode,
                    MaskPattern,
                    MaskReg,
                    MemType,
                    PairReduce,
                    PostLiteral,
                    ReduceType,
                    RegLayout,
                    RegTensor,
                    RoundMode,
                    SatMode,
                    SpecialPurposeReg,
                    StoreDist,
                    UnalignRegForLoad,
                    UnalignRegForStore,
)
from .unaligned import ClearSpr, Load, LoadUnAlign, LoadUnAlignPre, Store, StoreUnAlign, StoreUnAlignPost
from .unary import LeakyRelu, Log, Log2, Log10, Neg, Prelu, Truncate
from .vf import VLOOP, __no_simd_vf_fusion__, __simd_callee__, __simd_vf__, asc_vf_call

VL_B32 = VL // 4
VL_B16 = VL // 2
VL_B8 = VL

__all__ = [n for n in dir() if not n.startswith("_") or n in ("__simd_vf__", "__simd_callee__",
                                                                "__no_simd_vf_fusion__")]
