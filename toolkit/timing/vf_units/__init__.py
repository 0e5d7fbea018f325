"""The hardware units of the vector core, one class per resource (:class:`~.base.Unit`).

Adding a resource: write its class (what it reserves, when it frees, its bound; its numbers in the
machine file's ``[timing]`` section, each with its source), add a :class:`~.base.Bound` member if it
reports a bound, and add the class to :data:`UNITS`. The scheduler (:mod:`toolkit.timing.vf_sched`) and
the bounds (:mod:`toolkit.timing.vf_bounds`) need no change.

The order of :data:`UNITS` is the order in which the scheduler asks the units at dispatch (a unit may
look up a unit listed before it with ``core.find``); the reported bounds follow :class:`Bound`'s order.
"""
from __future__ import annotations

from .base import UNIT_CLASS, Bound, OpClass, StreamStats, Unit, hook, throughput
from .execute import ExecuteUnits, MaskUnit, SpecialFunctionPipes
from .front_end import VALUE_CLASSES, FrontEnd, LoopEntry, LoopIterations, RegisterFile
from .issue_queue import IssueQueue
from .memory import MemoryOrder, StoreQueue, UbPorts, ub_banks

#: the units of one vector core, in dispatch order: the issue queue's window is checked before an
#: iteration start (which notes its dispatch cycle), then the registers
UNITS: tuple[type[Unit], ...] = (FrontEnd, IssueQueue, LoopEntry, LoopIterations, RegisterFile, ExecuteUnits,
                                 SpecialFunctionPipes, MaskUnit, MemoryOrder, StoreQueue, UbPorts)

__all__ = ["UNITS", "UNIT_CLASS", "VALUE_CLASSES", "Bound", "ExecuteUnits", "FrontEnd", "IssueQueue", "LoopEntry",
           "LoopIterations", "MaskUnit", "MemoryOrder", "OpClass", "RegisterFile", "SpecialFunctionPipes", "StoreQueue",
           "StreamStats", "UbPorts", "Unit", "hook", "throughput", "ub_banks"]
