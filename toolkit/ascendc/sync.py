"""Cross-pipe synchronisation: SetFlag / WaitFlag (HardEvent) and PipeBarrier.

Execution is sequential in the emulator, so these only record the edge for the timing views.
"""
from __future__ import annotations

from enum import Enum
from typing import Any

from toolkit.ascendc.regbase.template import TArgs, template
from toolkit.engine.runtime import current
from toolkit.record.events import PIPE_MTE2, PIPE_MTE3, PIPE_S, PIPE_V, Sync, shared
from toolkit.record.events import PipeBarrier as PipeBarrierEvent

from .dtypes import scalar_value

_PIPES = {"MTE2": PIPE_MTE2, "MTE3": PIPE_MTE3, "V": PIPE_V, "S": PIPE_S}


class HardEvent(Enum):
    MTE2_V = ("MTE2", "V")
    V_MTE2 = ("V", "MTE2")
    V_MTE3 = ("V", "MTE3")
    MTE3_V = ("MTE3", "V")
    S_MTE3 = ("S", "MTE3")
    MTE3_S = ("MTE3", "S")
    S_MTE2 = ("S", "MTE2")
    MTE2_S = ("MTE2", "S")
    S_V = ("S", "V")
    V_S = ("V", "S")
    MTE2_MTE3 = ("MTE2", "MTE3")
    MTE3_MTE2 = ("MTE3", "MTE2")


class PipeType(Enum):
    PIPE_MTE2 = PIPE_MTE2
    PIPE_MTE3 = PIPE_MTE3
    PIPE_V = PIPE_V
    PIPE_S = PIPE_S
    PIPE_ALL = "ALL"



def _flag(t: TArgs, event_id: Any, kind: str, api: str) -> None:
    ev = t.enum(HardEvent)
    if ev is None:
        raise TypeError(f"{api} needs a HardEvent template argument")
    src, dst = ev.value
    current().emit(shared(Sync, _PIPES[src], _PIPES[dst], int(scalar_value(event_id)), kind))


@template
def SetFlag(t: TArgs, event_id: Any = 0) -> None:
    """``SetFlag<HardEvent::X_Y>(eventId)``: pipe X signals event (X_Y, id) once its earlier work is done."""
    _flag(t, event_id, "set", "SetFlag")


@template
def WaitFlag(t: TArgs, event_id: Any = 0) -> None:
    """``WaitFlag<HardEvent::X_Y>(eventId)``: pipe Y waits for (and consumes) the matching SetFlag."""
    _flag(t, event_id, "wait", "WaitFlag")


@template
def PipeBarrier(t: TArgs) -> None:
    """``PipeBarrier<PIPE_X>()``: later instructions of that pipe wait for earlier ones."""
    pipe = t.enum(PipeType)
    current().emit(shared(PipeBarrierEvent, pipe.value if pipe else PIPE_V))
