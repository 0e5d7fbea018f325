"""``AscendC::`` data movement: DataCopy / DataCopyPad between GM and UB (every documented form), UB to UB
(DataCopy, Copy). Synchronisation is in ``sync.py``, the system values in ``system.py``."""
from __future__ import annotations

from toolkit.ascendc import dma

from .spec import DEDUCED, Family, TParam, api, earg, form, glob, local, scalar, struct, tded, tenum, thidden

FAMILY = Family("datamove", "AscendC", "datamove.h", dma, doc_root="基础API/Memory矢量计算/数据搬运")

_T = tded("T")
_CONT = "DataCopy（GM与UB连续数据搬运）.md"
_SLICE = "基础API/Memory矢量计算/数据搬运/DataCopy（GM与UB切片数据搬运）.md"
_UB2UB = "基础API/Memory矢量计算/数据搬运/DataCopy（UBToUB连续数据搬运）.md"
_UB2UB_PARAMS = "基础API/Memory矢量计算/数据搬运/DataCopy（UBToUB高维切分数据搬运）.md"
_MODE = tenum("mode", "PaddingMode", "Normal")
_SLICES = (scalar("dstSliceInfo", "const SliceInfo*"), scalar("srcSliceInfo", "const SliceInfo*"),
           scalar("dimValue", "const uint32_t", default="1"))
_ND = "基础API/Memory矢量计算/数据搬运/DataCopy（GMToUB多维数据搬运NDDMA）.md"
_HAND_SLICE = "dma.h: the SliceInfo arrays go to a runtime hook (toolkit/ascendc/dma_nd.py slice_copy)"
_HAND_ND = "dma.h: NdDmaParams<T, dim> (arrays sized by dim) goes to a runtime hook (toolkit/ascendc/dma_nd.py)"
_CFG = "基础API/Memory矢量计算/数据搬运辅助配置接口"
_PAD_IN = "DataCopyPad（GMToUB非对齐数据搬运）.md"
_PAD_OUT = "基础API/Memory矢量计算/数据搬运/DataCopyPad（UBToGM非对齐数据搬运）.md"

APIS = [
    api(FAMILY, "DataCopy", dma.DataCopy,
        form(_T, local("dst"), glob("src"), scalar("count", "uint32_t")),
        form(_T, glob("dst"), local("src"), scalar("count", "uint32_t")),
        form(_T, local("dst"), glob("src"), struct("repeatParams", "DataCopyParams"), doc=_SLICE),
        form(_T, glob("dst"), local("src"), struct("repeatParams", "DataCopyParams"), doc=_SLICE),
        form(_T, local("dst"), local("src"), scalar("count", "uint32_t"), doc=_UB2UB),
        form(_T, local("dst"), local("src"), struct("repeatParams", "DataCopyParams"), doc=_UB2UB_PARAMS),
        form(_T, local("dst"), glob("src"), *_SLICES, hand=_HAND_SLICE, doc=_SLICE),
        form(_T, glob("dst"), local("src"), *_SLICES, hand=_HAND_SLICE, doc=_SLICE),
        form(_T, TParam(DEDUCED, "dim", "uint8_t"), thidden("config", "const NdDmaConfig&", "kDefaultNdDmaConfig"),
             local("dst"), glob("src"), scalar("params", "const NdDmaParams<T, dim>&"), hand=_HAND_ND, doc=_ND),
        doc=_CONT, dtypes=("int8_t", "uint8_t", "int16_t", "uint16_t", "half", "bfloat16_t", "int32_t", "uint32_t",
                           "float")),
    api(FAMILY, "DataCopyPad", dma.DataCopyPad,
        form(_T, _MODE, local("dst"), glob("src"), struct("dataCopyParams", "DataCopyExtParams"),
             struct("padParams", "DataCopyPadExtParams<T>")),
        form(_T, _MODE, glob("dst"), local("src"), struct("dataCopyParams", "DataCopyExtParams"), doc=_PAD_OUT),
        doc=_PAD_IN, dtypes=("int8_t", "uint8_t", "int16_t", "uint16_t", "half", "bfloat16_t", "int32_t", "uint32_t",
                             "float")),
    # the DMA registers (helper capimisc): toolkit/ascendc/dma_loop.py
    api(FAMILY, "SetLoopModePara", dma.SetLoopModePara,
        form(struct("loopParams", "LoopModeParams"), earg("type", "DataCopyMVType")), doc=f"{_CFG}/SetLoopModePara.md"),
    api(FAMILY, "ResetLoopModePara", dma.ResetLoopModePara, form(earg("type", "DataCopyMVType")),
        doc=f"{_CFG}/ResetLoopModePara.md"),
    api(FAMILY, "SetPadValue", dma.SetPadValue,
        form(tded("T"), thidden("pos", "auto", "0"), scalar("paddingValue", "T")),
        doc=f"{_CFG}/SetPadValue(ISASI).md", dtypes=("bool", "int8_t", "uint8_t", "int16_t", "uint16_t", "half",
                                                     "bfloat16_t", "int32_t", "uint32_t", "float", "int64_t",
                                                     "uint64_t", "double")),
    api(FAMILY, "NdDmaDci", None, form(native=""), doc=_ND,
        note="refreshes the NDDMA cache: the emulator has none (GM is always coherent)"),
]
