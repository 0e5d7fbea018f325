"""``AscendC::`` data movement: DataCopy / DataCopyPad between GM and UB (every documented form), UB to UB
(DataCopy, Copy). Synchronisation is in ``sync.py``, the system values in ``system.py``."""
from __future__ import annotations

from toolkit.ascendc import dma

from .spec import Family, api, form, glob, local, scalar, struct, tded, tenum

FAMILY = Family("datamove", "AscendC", "datamove.h", dma, doc_root="基础API/Memory矢量计算/数据搬运")

_T = tded("T")
_CONT = "DataCopy（GM与UB连续数据搬运）.md"
_SLICE = "基础API/Memory矢量计算/数据搬运/DataCopy（GM与UB切片数据搬运）.md"
_UB2UB = "基础API/Memory矢量计算/数据搬运/DataCopy（UBToUB连续数据搬运）.md"
_UB2UB_PARAMS = "基础API/Memory矢量计算/数据搬运/DataCopy（UBToUB高维切分数据搬运）.md"
_MODE = tenum("mode", "PaddingMode", "Normal")
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
        doc=_CONT, dtypes=("int8_t", "uint8_t", "int16_t", "uint16_t", "half", "bfloat16_t", "int32_t", "uint32_t",
                           "float")),
    api(FAMILY, "DataCopyPad", dma.DataCopyPad,
        form(_T, _MODE, local("dst"), glob("src"), struct("dataCopyParams", "DataCopyExtParams"),
             struct("padParams", "DataCopyPadExtParams<T>")),
        form(_T, _MODE, glob("dst"), local("src"), struct("dataCopyParams", "DataCopyExtParams"), doc=_PAD_OUT),
        doc=_PAD_IN, dtypes=("int8_t", "uint8_t", "int16_t", "uint16_t", "half", "bfloat16_t", "int32_t", "uint32_t",
                             "float")),
]
