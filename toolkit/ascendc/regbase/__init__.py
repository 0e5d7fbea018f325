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
from .cast import Cast
from .datamove import (
                    CreateAddrReg,
                    LoadAlign,
                    LoadUnAlign,
                    LoadUnAlignPre,
                    StoreAlign,
                    StoreUnAlign,
                    StoreUnAlignPost,
)
from .mask import CreateMask, UpdateMask
from .reduce import Reduce, ReduceMax, ReduceMin, ReduceSum
from .select import (
                    Arange,
                    Compare,
                    Compares,
                    CompareScalar,
                    Gather,
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
                    HighLowPart,
                    IndexOrder,
                    LoadDist,
                    MaskDist,
                    MaskMergeMode,
                    MaskPattern,
                    MaskReg,
                    MemType,
                    PostLiteral,
                    ReduceType,
                    RegLayout,
                    RegTensor,
                    RoundMode,
                    SatMode,
                    StoreDist,
                    UnalignRegForLoad,
                    UnalignRegForStore,
)
from .vf import VLOOP, __no_simd_vf_fusion__, __simd_callee__, __simd_vf__, asc_vf_call

VL_B32 = VL // 4
VL_B16 = VL // 2
VL_B8 = VL

__all__ = [n for n in dir() if not n.startswith("_") or n in ("__simd_vf__", "__simd_callee__",
                                                                "__no_simd_vf_fusion__")]
