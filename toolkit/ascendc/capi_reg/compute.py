"""The C API register compute functions (``asc_add``, ``asc_eq``, ``asc_pack_to_low`` ...): each is the Reg
API function of the same semantic (``toolkit/ascendc/regbase``), with the template arguments its name fixes.
Every one zeroes the lanes the mask leaves out (the Reg default, MaskMergeMode::ZEROING); the mask forms
(``vector_bool`` operands) run the Reg MaskReg forms, which the Reg functions select by operand type."""
from __future__ import annotations

import numpy as np

from toolkit.ascendc import regbase as Reg
from toolkit.ascendc.regbase.types import (
    CMPMODE,
    GatherMaskMode,
    HighLowPart,
    HistogramsBinType,
    HistogramsType,
    IndexOrder,
    PairReduce,
    ReduceType,
    RegLayout,
    SpecialPurposeReg,
)

from ._bind import export

_LOW, _HIGH = HighLowPart.LOWEST, HighLowPart.HIGHEST
_HIST = [(f"asc_{kind}_histogram_bin{b}", Reg.Histograms, getattr(HistogramsBinType, f"BIN{b}"), t)
         for kind, t in (("frequency", HistogramsType.FREQUENCY), ("cumulative", HistogramsType.ACCUMULATE))
         for b in (0, 1)]
_CMP = [(f"asc_{m.name.lower()}{suffix}", api, m) for m in CMPMODE
        for suffix, api in (("", Reg.Compare), ("_scalar", Reg.CompareScalar))]

TABLE: list[tuple] = [
    # arithmetic_compute
    ("asc_abs", Reg.Abs), ("asc_add", Reg.Add), ("asc_add_scalar", Reg.Adds), ("asc_addc", Reg.AddC),
    ("asc_div", Reg.Div), ("asc_exp", Reg.Exp), ("asc_leakyrelu", Reg.LeakyRelu), ("asc_ln", Reg.Ln),
    ("asc_max", Reg.Max), ("asc_max_scalar", Reg.Maxs), ("asc_min", Reg.Min), ("asc_min_scalar", Reg.Mins),
    ("asc_mul", Reg.Mul), ("asc_mul_scalar", Reg.Muls), ("asc_mull", Reg.Mull), ("asc_neg", Reg.Neg),
    ("asc_prelu", Reg.Prelu), ("asc_relu", Reg.Relu), ("asc_sqrt", Reg.Sqrt), ("asc_sub", Reg.Sub),
    ("asc_subc", Reg.SubC),
    ("asc_muls", Reg.MulsCast, RegLayout.ZERO), ("asc_muls_v2", Reg.MulsCast, RegLayout.ONE),
    # compound_compute
    ("asc_abs_sub", Reg.AbsSub), ("asc_axpy", Reg.Axpy), ("asc_madd", Reg.MulDstAdd),
    ("asc_exp_sub", Reg.ExpSub, RegLayout.ZERO), ("asc_exp_sub_v2", Reg.ExpSub, RegLayout.ONE),
    # logic_compute
    ("asc_and", Reg.And), ("asc_or", Reg.Or), ("asc_xor", Reg.Xor), ("asc_not", Reg.Not),
    ("asc_shiftleft", Reg.ShiftLeft), ("asc_shiftleft_scalar", Reg.ShiftLefts),
    ("asc_shiftright", Reg.ShiftRight), ("asc_shiftright_scalar", Reg.ShiftRights),
    # compare_and_select
    *_CMP, ("asc_select", Reg.Select),
    ("asc_squeeze", Reg.Squeeze, GatherMaskMode.NO_STORE_REG),
    ("asc_squeeze_with_status", Reg.Squeeze, GatherMaskMode.STORE_REG),
    ("asc_squeeze_v2", Reg.Squeeze, GatherMaskMode.STORE_REG),
    # data_compress
    ("asc_pack_to_low", Reg.Pack, _LOW), ("asc_pack_to_high", Reg.Pack, _HIGH),
    ("asc_pack", Reg.Pack, _LOW), ("asc_pack_v2", Reg.Pack, _HIGH),
    ("asc_unpack_lower", Reg.UnPack, _LOW), ("asc_unpack_upper", Reg.UnPack, _HIGH),
    ("asc_unsqueeze", Reg.Unsqueeze),
    # data_fill
    ("asc_duplicate", Reg.Duplicate, _LOW), ("asc_duplicate_scalar", Reg.Duplicate),
    # data_rearrange (the _b8/_b16/_b32 names: the MaskReg forms at that element width)
    ("asc_intlv", Reg.Interleave), ("asc_deintlv", Reg.DeInterleave),
    *[(f"asc_{n}_b{8 * w}", api, t) for n, api in (("intlv", Reg.Interleave), ("deintlv", Reg.DeInterleave))
      for w, t in ((1, np.uint8), (2, np.uint16), (4, np.uint32))],
    # histogram_compute
    *_HIST,
    # index_operate
    ("asc_arange", Reg.Arange, IndexOrder.INCREASE_ORDER), ("asc_arange_descend", Reg.Arange, IndexOrder.DECREASE_ORDER),
    # reduce_compute
    ("asc_reduce_sum", Reg.Reduce, ReduceType.SUM), ("asc_reduce_max", Reg.Reduce, ReduceType.MAX),
    ("asc_reduce_min", Reg.Reduce, ReduceType.MIN),
    ("asc_reduce_sum_datablock", Reg.ReduceDataBlock, ReduceType.SUM),
    ("asc_reduce_max_datablock", Reg.ReduceDataBlock, ReduceType.MAX),
    ("asc_reduce_min_datablock", Reg.ReduceDataBlock, ReduceType.MIN),
    ("asc_pair_reduce_sum", Reg.PairReduceElem, PairReduce.SUM),
    # system_variables_access
    ("asc_clear_ar_spr", Reg.ClearSpr, SpecialPurposeReg.AR),
]

__all__ = export(globals(), TABLE)  # noqa: PLE0605 (the names of the table)
