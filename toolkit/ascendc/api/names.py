"""Parameter structs (generated with their bridge encoding) and the public names that are not calls: handle
and value types, constants, macros (written by hand in the headers named)."""
from __future__ import annotations

from toolkit.ascendc import bufpool, dma, dma_nd, pipe, shape, sync, tensor
from toolkit.ascendc.membase import maskstate, params, relayout, sort
from toolkit.ascendc.regbase import types as rt

from .spec import Field, NameDef, StructDef


def _u(name: str, ctype: str, default: str) -> Field:
    return Field(name, ctype, default)


_MB = "基础API/Memory矢量计算"
STRUCTS = [
    StructDef("AscendC::DataCopyParams", dma.DataCopyParams,
              (_u("blockCount", "uint16_t", "1"), _u("blockLen", "uint16_t", "0"),
               Field("srcStride", "uint16_t", "0", aka=("srcGap",)), Field("dstStride", "uint16_t", "0", aka=("dstGap",))),
              doc=f"{_MB}/数据搬运/DataCopy（GM与UB切片数据搬运）.md"),
    StructDef("AscendC::DataCopyExtParams", dma.DataCopyExtParams,
              (_u("blockCount", "uint16_t", "1"), _u("blockLen", "uint32_t", "0"), _u("srcStride", "long long", "0"),
               _u("dstStride", "long long", "0"), _u("rsv", "uint32_t", "0")),
              doc=f"{_MB}/数据搬运/DataCopyPad（GMToUB非对齐数据搬运）.md", aliases=("DataCopyPadParams",), required=4),
    StructDef("AscendC::DataCopyPadExtParams", dma.DataCopyPadExtParams,
              (_u("isPad", "bool", "false"), _u("leftPadding", "uint8_t", "0"), _u("rightPadding", "uint8_t", "0"),
               _u("paddingValue", "T", "T(0)")), doc=f"{_MB}/数据搬运/DataCopyPad（GMToUB非对齐数据搬运）.md", template="T"),
    StructDef("AscendC::SliceInfo", dma_nd.SliceInfo,
              (_u("startIndex", "uint32_t", "0"), _u("endIndex", "uint32_t", "0"), _u("stride", "uint32_t", "0"),
               _u("burstLen", "uint32_t", "1"), _u("shapeValue", "uint32_t", "0")),
              doc=f"{_MB}/数据搬运/DataCopy（GM与UB切片数据搬运）.md"),
    StructDef("AscendC::BinaryRepeatParams", params.BinaryRepeatParams,
              tuple(_u(n, "uint8_t", d) for n, d in (("dstBlkStride", "1"), ("src0BlkStride", "1"),
                                                     ("src1BlkStride", "1"), ("dstRepStride", "8"),
                                                     ("src0RepStride", "8"), ("src1RepStride", "8"))),
              doc=f"{_MB}/基础算术/Add.md"),
    StructDef("AscendC::UnaryRepeatParams", params.UnaryRepeatParams,
              (_u("dstBlkStride", "uint16_t", "1"), _u("srcBlkStride", "uint16_t", "1"),
               _u("dstRepStride", "uint8_t", "8"), _u("srcRepStride", "uint8_t", "8")), doc=f"{_MB}/基础算术/Exp.md"),
    StructDef("AscendC::BrcbRepeatParams", params.BrcbRepeatParams,
              (_u("dstBlkStride", "uint16_t", "1"), _u("dstRepStride", "uint16_t", "8")), doc=f"{_MB}/数据填充/Brcb.md"),
    StructDef("AscendC::GatherMaskParams", params.GatherMaskParams,
              (_u("src0BlockStride", "uint8_t", "1"), _u("repeatTimes", "uint16_t", "1"),
               _u("src0RepeatStride", "uint16_t", "8"), _u("src1RepeatStride", "uint8_t", "0")),
              doc=f"{_MB}/比较与选择/GatherMask.md"),
    # ---- MemBase breadth (helper bmem)
    StructDef("AscendC::CopyRepeatParams", params.CopyRepeatParams,
              (_u("dstStride", "uint16_t", "1"), _u("srcStride", "uint16_t", "1"), _u("dstRepeatSize", "uint16_t", "8"),
               _u("srcRepeatSize", "uint16_t", "8")), doc=f"{_MB}/数据搬运/Copy（UBToUB掩码式高维数据搬运）.md"),
    StructDef("AscendC::GatherRepeatParams", params.GatherRepeatParams,
              (_u("dstBlkStride", "uint16_t", "1"), _u("dstRepStride", "uint16_t", "8")),
              doc=f"{_MB}/离散与聚合/Gatherb(ISASI).md"),
    StructDef("AscendC::TransDataTo5HDParams", relayout.TransDataTo5HDParams,
              (_u("dstHighHalf", "bool", "false"), _u("srcHighHalf", "bool", "false"), _u("repeatTimes", "uint8_t", "1"),
               _u("dstRepStride", "uint16_t", "0"), _u("srcRepStride", "uint16_t", "0")),
              doc=f"{_MB}/数据排布转换/TransDataTo5HD.md"),
]

STRUCTS.append(StructDef(      # helper capimisc: the loop mode of GM <-> UB copies
    "AscendC::LoopModeParams", dma.LoopModeParams,
    (_u("loop1Size", "uint32_t", "0"), _u("loop2Size", "uint32_t", "0"), _u("loop1SrcStride", "uint64_t", "0"),
     _u("loop1DstStride", "uint64_t", "0"), _u("loop2SrcStride", "uint64_t", "0"), _u("loop2DstStride", "uint64_t", "0")),
    doc=f"{_MB}/数据搬运辅助配置接口/SetLoopModePara.md"))

STRUCTS.append(StructDef(
    "AscendC::ShapeInfo", shape.ShapeInfo,
    (_u("shapeDim", "uint8_t", "0"), _u("originalShapeDim", "uint8_t", "0"),
     *(Field(f"shape{k}", "uint32_t", "0", f"shape[{k}]") for k in range(shape.K_MAX_DIM)),
     *(Field(f"originalShape{k}", "uint32_t", "0", f"originalShape[{k}]") for k in range(shape.K_MAX_DIM)),
     Field("dataFormat", "uint8_t", "0", "dataFormat")), doc="基础API/辅助数据结构/ShapeInfo.md",
    hand="tensor.h: the shapes are arrays (K_MAX_DIM) and the constructors take them"))

_REG = "基础API/Reg矢量计算/寄存器数据类型"
_NDDMA = "基础API/Memory矢量计算/数据搬运/DataCopy（GMToUB多维数据搬运NDDMA）.md"
_RES = "基础API/资源管理"
_T = "types.h"
_C = "constant of the vector core (types.h)"
NAMES = [
    NameDef("AscendC::Reg::RegTensor", "handle", "regtypes.h", rt.RegTensor, f"{_REG}/RegTensor.md"),
    NameDef("AscendC::Reg::MaskReg", "handle", "regtypes.h", rt.MaskReg, f"{_REG}/MaskReg.md"),
    NameDef("AscendC::Reg::UnalignRegForLoad", "handle", "regtypes.h", rt.UnalignRegForLoad,
            f"{_REG}/UnalignRegForLoad-UnalignRegForStore.md"),
    NameDef("AscendC::Reg::UnalignRegForStore", "handle", "regtypes.h", rt.UnalignRegForStore,
            f"{_REG}/UnalignRegForLoad-UnalignRegForStore.md"),
    NameDef("AscendC::Reg::UnalignReg", "handle", "regtypes.h: the older name, one register of each direction"),
    NameDef("AscendC::Reg::AddrReg", "handle", "regtypes.h", rt.AddrReg, f"{_REG}/AddrReg.md"),
    NameDef("AscendC::Reg::CastTrait", "type", "regtypes.h: a class-type template argument (packed by put_trait)",
            rt.CastTrait, "基础API/Reg矢量计算/类型转换/Cast.md"),
    NameDef("AscendC::Reg::RegTraitNumOne", "type", "regtypes.h", None, f"{_REG}/RegTensor.md"),
    # Reg breadth (issue 18)
    NameDef("AscendC::Reg::RegTrait", "type", "regtypes.h: the RegTensor trait (RegTraitNumTwo is refused at run time)",
            None, f"{_REG}/RegTensor.md"),
    NameDef("AscendC::Reg::castTrait", "constant", "regtypes.h: Cast's default trait (every field UNKNOWN)", None,
            "基础API/Reg矢量计算/类型转换/Cast.md"),
    NameDef("AscendC::Reg::RoundMode", "alias", "regtypes.h: AscendC::RoundMode, as the Reg pages spell it",
            None, "基础API/Reg矢量计算/辅助数据类型/RoundMode.md"),
    *(NameDef(f"AscendC::Reg::{op}SpecificMode", "type", "regmodes.h: an auto mode argument (its merge mode is sent)",
              None, f"基础API/Reg矢量计算/基础算术/{op}.md") for op in ("Div", "Sqrt", "Exp", "Ln", "Log", "Log2", "Log10")),
    NameDef("AscendC::Reg::RegTraitNumTwo", "type", "regtypes.h", None, f"{_REG}/RegTensor.md"),
    NameDef("AscendC::MicroAPI", "alias", "regtypes.h: namespace alias of AscendC::Reg"),
    NameDef("AscendC::Reg::MaskReg::adopt", "internal", "regtypes.h: wraps a handle the emulator returned"),
    NameDef("AscendC::Reg::AddrReg::adopt", "internal", "regtypes.h: wraps a handle the emulator returned"),
    NameDef("AscendC::Reg::is_reg", "internal", "regtypes.h: tells registers from scalars (overload selection)"),
    NameDef("AscendC::Reg::elem_t", "internal", "regtypes.h: an explicit element type, or the register's"),
    NameDef("AscendC::TPipe", "handle", "pipe.h", pipe.TPipe, f"{_RES}/TPipe/TPipe.md"),
    NameDef("AscendC::TQue", "handle", "pipe.h", pipe.TQue, f"{_RES}/TQue/TQue.md"),
    NameDef("AscendC::TQueBind", "handle", "pipe.h: a TQue between two positions", None,
            f"{_RES}/TQueBind/TQueBind.md"),
    # sys breadth (issue 18): resources, synchronisation, system
    NameDef("AscendC::TBufPool", "handle", "pipe.h", bufpool.TBufPool, f"{_RES}/TBufPool/TBufPool构造函数.md"),
    NameDef("AscendC::LocalMemAllocator", "handle", "pipe.h", bufpool.LocalMemAllocator,
            f"{_RES}/LocalMemAllocator/LocalMemAllocator构造函数.md"),
    NameDef("AscendC::TBufHandle", "alias", "pipe.h: a custom TBufPool's buffer (its index)"),
    NameDef("EXTERN_IMPL_BUFPOOL", "macro", "pipe.h", None, f"{_RES}/自定义TBufPool/EXTERN_IMPL_BUFPOOL宏.md"),
    NameDef("GM_ADDR", "macro", "types.h: a GM byte pointer (uint8_t*)"),
    NameDef("AscendC::TQueSync", "handle", "sync.h", sync.TQueSync, "基础API/同步控制/核内同步/TQueSync模板参数.md"),
    NameDef("AscendC::Mutex", "type", "sync.h: static Lock / Unlock", None, "基础API/同步控制/核内同步/Lock.md"),
    NameDef("AscendC::MutexID", "alias", "sync.h: uint8_t"),
    NameDef("AscendC::SyncAllConfig", "type", "sync.h", None, "基础API/同步控制/核间同步/SyncAll.md"),
    NameDef("AscendC::DEFAULT_SYNC_ALL_CONFIG", "constant", "sync.h"),
    NameDef("AscendC::NumericLimits", "type", "sysapi.h", None, "基础API/工具接口/NumericLimits工具类/简介.md"),
    NameDef("AscendC::NdDmaLoopInfo", "type", "dma.h: per-dimension arrays sized by dim", None, _NDDMA),
    NameDef("AscendC::NdDmaParams", "type", "dma.h", None, _NDDMA),
    NameDef("AscendC::NdDmaConfig", "type", "dma.h", None, _NDDMA),
    NameDef("AscendC::kDefaultNdDmaConfig", "constant", "dma.h", None, _NDDMA),
    NameDef("AscendC::K_MAX_DIM", "constant", "tensor.h: the dimensions a ShapeInfo holds", None,
            "基础API/辅助数据结构/ShapeInfo.md"),
    NameDef("AscendC::Std::Int", "alias", "layout.h: a compile-time size (std::integral_constant)", None,
            "基础API/辅助数据结构/Coordinate/Coordinate简介.md"),
    NameDef("float16_t", "alias", "types.h: half"),
    NameDef("float32_t", "alias", "types.h: float"),
    NameDef("AscendC::TTagType", "alias", "tensor.h: int32_t, a LocalTensor's user tag", None,
            "基础API/数据结构/LocalTensor/SetUserTag.md"),
    NameDef("AscendC::TBuf", "handle", "pipe.h", pipe.TBuf, f"{_RES}/TBuf/TBuf.md"),
    NameDef("AscendC::LocalTensor", "type", "tensor.h", tensor.LocalTensor, "基础API/数据结构/LocalTensor/LocalTensor.md"),
    NameDef("AscendC::GlobalTensor", "type", "tensor.h", tensor.GlobalTensor,
            "基础API/数据结构/GlobalTensor/GlobalTensor.md"),
    NameDef("AscendC::half", "type", _T, None, "基础API/数据结构/内置数据类型.md"),
    NameDef("AscendC::bfloat16_t", "type", _T, None, "基础API/数据结构/内置数据类型.md"),
    NameDef("AscendC::QuePosition", "alias", "enums.h: the older name of TPosition"),
    NameDef("AscendC::TEventID", "alias", "enums.h: an event id"),
    *(NameDef(f"AscendC::{c}", "constant", _C) for c in (
        "VECTOR_REG_WIDTH", "VECTOR_REG_WIDTH_2XVL", "ONE_BLOCK_SIZE", "DEFAULT_BLK_NUM", "MAX_REPEAT_TIMES",
        "ONE_REPEAT_BYTE_SIZE", "BLOCK_CUBE")),
    # ---- MemBase breadth (helper bmem): declared by hand in include/asc/membase.h
    *(NameDef(f"AscendC::{n}", "type", "membase.h", None, f"{_MB}/{d}") for n, d in (
        ("BinaryDefaultType", "基础算术/Adds（灵活标量位置）.md"), ("BinaryConfig", "基础算术/Adds（灵活标量位置）.md"),
        ("DivConfig", "基础算术/Div.md"), ("ExpConfig", "基础算术/Exp.md"),
        ("LnConfig", "基础算术/Ln.md"), ("SqrtConfig", "基础算术/Sqrt.md"), ("RsqrtConfig", "基础算术/Rsqrt.md"),
        ("ReciprocalConfig", "基础算术/Reciprocal.md"))),
    NameDef("AscendC::VdeqInfo", "type", "membase.h", maskstate.VdeqInfo, f"{_MB}/类型转换辅助配置接口/SetDeqScale.md"),
    NameDef("AscendC::MrgSortSrcList", "type", "membase.h", sort.MrgSortSrcList, f"{_MB}/排序组合（ISASI）/MrgSort.md"),
    NameDef("AscendC::MrgSort4Info", "type", "membase.h", sort.MrgSort4Info, f"{_MB}/排序组合（ISASI）/MrgSort.md"),
    NameDef("AscendC::TransposeParamsExt", "type", "membase.h", relayout.TransposeParamsExt,
            f"{_MB}/数据排布转换/Transpose.md"),
    NameDef("AscendC::ReduceType", "alias", "membase.h: the Reg::ReduceType enum, by its MemBase name"),
    *(NameDef(f"AscendC::{n}", "constant", "membase.h", None, f"{_MB}/{d}") for n, d in (
        ("MASK_PLACEHOLDER", "SIMD计算说明/掩码.md"), ("NCHW_CONV_ADDR_LIST_SIZE", "数据排布转换/TransDataTo5HD.md"),
        ("DEFAULT_BINARY_CONFIG", "基础算术/Adds（灵活标量位置）.md"), ("DEFAULT_DIV_CONFIG", "基础算术/Div.md"),
        ("DEFAULT_EXP_CONFIG", "基础算术/Exp.md"), ("DEFAULT_LN_CONFIG", "基础算术/Ln.md"),
        ("DEFAULT_SQRT_CONFIG", "基础算术/Sqrt.md"), ("DEFAULT_RSQRT_CONFIG", "基础算术/Rsqrt.md"),
        ("DEFAULT_RECIPROCAL_CONFIG", "基础算术/Reciprocal.md"), ("defaultGatherMaskMode", "比较与选择/GatherMask.md"))),
]

# ---- the C API's own types (helper capimisc): declared by hand in include/asc/capi.h
_CAPI = "capi.h"
NAMES += [
    *(NameDef(n, "type", _CAPI, None, f"C-API/struct/{n}.md") for n in (
        "asc_fill_value_config", "asc_l13d_fmatrix_config", "asc_load3d_v2_config", "asc_ndim_pad_count_config",
        "asc_store_atomic_config")),
    *(NameDef(n, "constant", _CAPI, None, f"C-API/struct/{p}.md") for n, p in (
        ("ASC_FILL_VALUE_DEFAULT_VALUE", "asc_fill_value_config"),
        ("ASC_DEFAULT_L13D_FMATRIX_CONFIG_VALUE", "asc_l13d_fmatrix_config"),
        ("ASC_DEFAULT_LOAD3D_V2_CONFIG_VALUE", "asc_load3d_v2_config"),
        ("ASC_DEFAULT_NDIM_PAD_COUNT_CONFIG_VALUE", "asc_ndim_pad_count_config"),
        ("ASC_STORE_ATOMIC_DEFAULT_VALUE", "asc_store_atomic_config"))),
    NameDef("asc_load_l2_cache_mode", "type", _CAPI, None, "C-API/enum/asc_load_l2_cache_mode.md"),
    NameDef("asc_store_l2_cache_mode", "type", _CAPI, None, "C-API/enum/asc_store_l2_cache_mode.md"),
    NameDef("ascMutexExecuteMode", "type", _CAPI, None, "C-API/sync/asc_lock.md"),
    NameDef("ASC_C_API_MRGSORT_ELEMENT_LEN", "constant", _CAPI, None, "C-API/vector_compute/asc_mrgsort4.md"),
]

# helper hlsort: the shape of the high-level byte-mask Select (高阶API/数据过滤), a form of the basic Select,
# so declared before membase_cmp.h
from toolkit.ascendc.highlevel import filter as _hl_filter  # noqa: E402

STRUCTS.append(StructDef(
    "AscendC::SelectWithBytesMaskShapeInfo", _hl_filter.SelectWithBytesMaskShapeInfo,
    (_u("firstAxis", "uint32_t", "0"), _u("srcLastAxis", "uint32_t", "0"), _u("maskLastAxis", "uint32_t", "0")),
    doc="高阶API/数据过滤/Select-95.md"))
