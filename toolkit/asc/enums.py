"""The API enums of both routes come from one place: the Python enums. This module lists them with the
C++ scope each lives in, generates ``include/asc/enums.h`` from them (``python -m toolkit.asc.enums``
rewrites the file; a test checks it is current) and decodes the bridge's ``(enum id, value)`` words.

A C++ enumerator's value is the Python member's value when that is an int (so ``static_cast<int>`` of
``RegLayout::ZERO`` is 0 as in the vendor headers), else its position in the enum.
"""
from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path

from toolkit.ascendc import sysenums as se
from toolkit.ascendc import membase as mb
from toolkit.ascendc.api.spec import stable_id
from toolkit.ascendc.atomic import AtomicDtype, AtomicOp
from toolkit.ascendc.dma import DataCopyMVType, PaddingMode
from toolkit.ascendc.highlevel import sort as hl_sort
from toolkit.ascendc.highlevel import topk as hl_topk
from toolkit.ascendc.highlevel import quant_common as qc
from toolkit.ascendc.pipe import TPosition
from toolkit.ascendc.regbase import types as rt
from toolkit.ascendc.sync import HardEvent, MemDsbT, PipeType

#: (C++ namespace, C++ name, Python enum, underlying C++ type), in header order
_DECLARED: list[tuple[str, str, type[Enum], str]] = [
    ("AscendC::Reg", "LoadDist", rt.LoadDist, "int"),
    ("AscendC::Reg", "StoreDist", rt.StoreDist, "int"),
    ("AscendC::Reg", "MaskPattern", rt.MaskPattern, "int"),
    ("AscendC::Reg", "MaskMergeMode", rt.MaskMergeMode, "int"),
    ("AscendC::Reg", "RegLayout", rt.RegLayout, "int"),
    ("AscendC::Reg", "SatMode", rt.SatMode, "int"),
    ("AscendC", "RoundMode", rt.RoundMode, "int"),
    ("AscendC::Reg", "HighLowPart", rt.HighLowPart, "int"),
    ("AscendC::Reg", "ReduceType", rt.ReduceType, "int"),
    ("AscendC::Reg", "PostLiteral", rt.PostLiteral, "int"),
    ("AscendC::Reg", "DataCopyMode", rt.DataCopyMode, "int"),
    ("AscendC::Reg", "MemType", rt.MemType, "int"),
    ("AscendC::Reg", "MaskDist", rt.MaskDist, "int"),
    ("AscendC::Reg", "IndexOrder", rt.IndexOrder, "int"),
    ("AscendC", "CMPMODE", rt.CMPMODE, "int"),
    # Reg breadth
    ("AscendC::Reg", "GatherMaskMode", rt.GatherMaskMode, "int"),
    ("AscendC::Reg", "HistogramsBinType", rt.HistogramsBinType, "int"),
    ("AscendC::Reg", "HistogramsType", rt.HistogramsType, "int"),
    ("AscendC::Reg", "PairReduce", rt.PairReduce, "int"),
    ("AscendC", "SpecialPurposeReg", rt.SpecialPurposeReg, "int"),
    ("AscendC", "TPosition", TPosition, "uint8_t"),
    ("AscendC", "HardEvent", HardEvent, "int"),
    # sys breadth (issue 18): synchronisation, atomics, system
    ("AscendC", "MemDsbT", MemDsbT, "int"),
    ("AscendC", "AtomicDtype", AtomicDtype, "int"),
    ("AscendC", "AtomicOp", AtomicOp, "int"),
    ("AscendC", "Hardware", se.Hardware, "uint8_t"),
    ("AscendC", "CacheLine", se.CacheLine, "int"),
    ("AscendC", "DcciDst", se.DcciDst, "int"),
    ("AscendC", "CacheMode", se.CacheMode, "uint8_t"),
    ("AscendC", "CacheRwMode", se.CacheRwMode, "int"),
    ("AscendC", "EngineType", se.EngineType, "int"),
    ("AscendC", "KernelMode", se.KernelMode, "int"),
    ("AscendC", "DataFormat", se.DataFormat, "uint8_t"),
    ("AscendC", "TensorDataType", se.TensorDataType, "int"),   # high-level host queries (ge::DataType values)
    ("AscendC", "ReducePattern", se.ReducePattern, "uint32_t"),   # high-level reductions (hlreduce)
    ("AscendC", "PaddingMode", PaddingMode, "uint8_t"),
    ("AscendC", "DataCopyMVType", DataCopyMVType, "uint8_t"),      # helper capimisc: SetLoopModePara
    # ---- MemBase breadth (helper bmem)
    ("AscendC", "MaskMode", mb.MaskMode, "uint8_t"),
    ("AscendC", "SELMODE", mb.SELMODE, "uint8_t"),
    ("AscendC", "ReduceOrder", mb.ReduceOrder, "int"),
    ("AscendC", "TransposeType", mb.TransposeType, "uint8_t"),
    # ---- high-level sorting (helper hlsort)
    ("AscendC", "SortType", hl_sort.SortType, "int"),
    ("AscendC", "TopKMode", hl_topk.TopKMode, "int"),
    ("AscendC", "TopKAlgo", hl_topk.TopKAlgo, "int"),
    ("AscendC", "TopKOrder", hl_topk.TopKOrder, "int"),
    # ---- high-level quantization (helper hlquant)
    *(("AscendC", e.__name__, e, "int32_t") for e in (
        qc.QuantizePolicy, qc.DequantizePolicy, qc.AntiQuantizePolicy, qc.AscendQuantPolicy, qc.AscendDeQuantPolicy,
        qc.AscendAntiQuantPolicy, qc.DeQuantMode)),
]
#: (enum id, C++ namespace, C++ name, Python enum, underlying C++ type); the id is the stable id of the
#: qualified name (toolkit.ascendc.api.spec.stable_id), so enums added in parallel never renumber
ENUMS: list[tuple[int, str, str, type[Enum], str]] = [(stable_id(f"{ns}::{name}"), ns, name, cls, base)
                                                   for ns, name, cls, base in _DECLARED]
#: unscoped global enum ``pipe_t`` (PIPE_V, PIPE_ALL ...), as in the CANN headers
PIPE_ENUM_ID = stable_id("pipe_t")


def cpp_value(member: Enum, index: int) -> int:
    return member.value if isinstance(member.value, int) and not isinstance(member.value, bool) else index


def _decode_table() -> dict[int, dict[int, Enum]]:
    table = {}
    for eid, _, _, cls, _ in ENUMS:
        table[eid] = {cpp_value(m, k): m for k, m in enumerate(cls)}
    table[PIPE_ENUM_ID] = {k: m for k, m in enumerate(PipeType)}
    return table


DECODE = _decode_table()
ENUM_ID = {cls: eid for eid, _, _, cls, _ in ENUMS} | {PipeType: PIPE_ENUM_ID}


def generate() -> str:
    out = ["// GENERATED by `python -m toolkit.asc.enums` from the Python API enums: do not edit.",
           "#pragma once", "#include <cstdint>",
           "namespace __asc { template <class E> struct enum_id { static constexpr int value = 0; }; }"]
    for eid, ns, name, cls, base in ENUMS:
        index = {m: k for k, m in enumerate(cls)}
        # aliases (TPosition::LCM = VECCALC) are enumerators of the canonical member's value
        body = ", ".join(f"{n} = {cpp_value(m, index[m])}" for n, m in cls.__members__.items())
        out.append(f"namespace {ns} {{ enum class {name} : {base} {{ {body} }}; }}")
        out.append(f"namespace __asc {{ template <> struct enum_id<{ns}::{name}> "
                   f"{{ static constexpr int value = {eid}; }}; }}")
    pipes = ", ".join(f"{m.name} = {k}" for k, m in enumerate(PipeType))
    out.append(f"enum pipe_t : int {{ {pipes} }};")
    out.append(f"namespace __asc {{ template <> struct enum_id<pipe_t> {{ static constexpr int value = "
               f"{PIPE_ENUM_ID}; }}; }}")
    out.append("enum event_t : int { " + ", ".join(f"EVENT_ID{k} = {k}" for k in range(8)) + " };")
    out.append("namespace AscendC { using QuePosition = TPosition; using TEventID = int8_t; }")
    return "\n".join(out) + "\n"


HEADER = Path(__file__).with_name("include") / "asc" / "enums.h"

if __name__ == "__main__":
    HEADER.write_text(generate())
    sys.stdout.write(f"wrote {HEADER}\n")
