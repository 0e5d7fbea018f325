"""What every hardware unit of the vector core shares: the row classes, the typed bounds, the per-class
figures of a stream that analytic bounds are computed from, and the :class:`Unit` protocol."""
from __future__ import annotations

from collections.abc import Mapping
from enum import IntEnum, StrEnum
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:                                          # pragma: no cover
    from ..vf_decode import Row
    from ..vf_sched import VectorCore


class OpClass(IntEnum):
    """The class of a decoded instruction: the machine file's ``unit`` of its opcode."""

    ALU = 0          #: "alu": either execute unit
    ALU0 = 1         #: "alu0": the single-issue class, EXU0 only
    SFU = 2          #: "sfu": an execute unit for one cycle, a special-function pipe for its ii
    PRED = 3         #: "pred": the mask unit
    LOAD = 4         #: "load": a UB read port
    STORE = 5        #: "store": the UB write port and a store-queue entry
    LOOP = 6         #: "loop": a hardware-loop entry (executes in the front end)
    MEMBAR = 7       #: "membar": a memory barrier

    @property
    def unit_name(self) -> str:
        """The machine file's name of the class (stall reasons say "unit <name>")."""
        return self.name.lower()


#: machine file ``unit`` -> class
UNIT_CLASS = {c.unit_name: c for c in OpClass}


class Bound(StrEnum):
    """An analytic bound of a VF schedule, reported next to the simulated cycles (the value is the name
    reports and JSON show). Reports list the bounds in the order they are defined here."""

    EXECUTE_UNITS = "execute units"
    SINGLE_ISSUE = "single-issue unit"
    SPECIAL_FUNCTION = "special-function pipes"
    UB_PORTS = "UB ports"
    STORE_QUEUE = "store queue"
    DISPATCH = "dispatch"
    MASK_UNIT = "mask unit"
    DEPENDENCY_CHAIN = "dependency chain"
    LOOP_ENTRIES = "loop entries"


class StreamStats:
    """Per row class of one stream: how many rows, their summed ``ii`` (``span``) and durations, the
    shortest duration; and over every row: the count and the shortest duration. Bounds read only these."""

    __slots__ = ("dur", "n", "rows", "shortest", "shortest_any", "span")

    def __init__(self, rows: list[Row]) -> None:
        count: dict[str, int] = {}
        kind: dict[str, Row] = {}
        for r in rows:
            count[r.op] = count.get(r.op, 0) + 1
            kind.setdefault(r.op, r)
        self._fill(count, kind, len(rows))

    @classmethod
    def of_opcodes(cls, count: dict[str, int], kind: dict[str, Row], rows: int) -> StreamStats:
        """From the rows per opcode (``count``) and one row of each (``kind``: an opcode's rows cost alike)."""
        self = cls.__new__(cls)
        self._fill(count, kind, rows)
        return self

    def _fill(self, count: dict[str, int], kind: dict[str, Row], rows: int) -> None:
        k = len(OpClass)
        n, span, dur, shortest = [0] * k, [0] * k, [0] * k, [None] * k
        for op, m in count.items():
            r = kind[op]
            c = r.cls
            n[c] += m
            span[c] += m * r.span
            dur[c] += m * r.dur
            if shortest[c] is None or r.dur < shortest[c]:
                shortest[c] = r.dur
        self.n, self.span, self.dur, self.shortest = n, span, dur, shortest
        self.rows = rows
        self.shortest_any = min((s for s in shortest if s is not None), default=None)

    def shortest_of(self, *classes: OpClass) -> int | None:
        """The shortest duration among rows of ``classes`` (None: no such row)."""
        got = [self.shortest[c] for c in classes if self.shortest[c] is not None]
        return min(got) if got else None


def throughput(busy: float, shortest: int | None, d2i: int) -> float:
    """A throughput bound: ``busy`` cycles of the resource, plus the fill (dispatch to first issue) and
    drain (the shortest duration after the last issue) no stream can avoid, so that a stream limited by
    that resource alone meets its bound exactly; 0 for an unused resource."""
    return busy + (d2i + shortest - 1) if busy else 0.0


class Unit:
    """One hardware resource of the vector core (as llvm-mca's hardware units): what it reserves when an
    instruction dispatches or issues, when it is next free, and its analytic bound. A subclass overrides
    only the hooks it needs; the scheduler (:class:`toolkit.timing.vf_sched.VectorCore`) calls each hook
    of the units that define it, in the order of :data:`toolkit.timing.vf_units.UNITS`.

    * Front end, for each row in program order whose class is in ``dispatch_classes``: ``can_dispatch``
      (False: dispatch stops for this cycle), then, once dispatched, ``dispatched`` (True: the unit
      executed the row itself, e.g. a loop entry: it takes no issue-queue entry and ends the group).
    * Issue, for a ready row whose class is in ``serves``: the row issues only if every serving unit's
      ``can_issue`` agrees (checks have no effect), then each ``reserve`` commits; ``issued`` is called
      for every row that issues (e.g. to release the registers its sources held).
    * ``next_free(t)``: the cycles at which something the unit holds frees; when nothing happened in a
      cycle the scheduler jumps to the earliest of them after ``t``.
    * ``bounds(stats, p)``: the unit's analytic bounds (:class:`Bound`) from the stream's per-class
      figures and the ``[timing]`` parameters only, never from the schedule.

    A unit may switch a hook off for its parameters by setting it to None on the instance (e.g. no
    iteration cost: nothing to check at dispatch).
    """

    #: row classes that need this unit to issue
    serves: ClassVar[frozenset[OpClass]] = frozenset()
    #: row classes whose dispatch the unit looks at (``can_dispatch``, ``dispatched``); None: every row
    dispatch_classes: ClassVar[frozenset[OpClass] | None] = None

    def __init__(self, p: Mapping[str, Any], core: VectorCore) -> None:
        self.core = core

    def can_dispatch(self, i: int, row: Row, t: int, slot: int) -> bool:
        return True

    def dispatched(self, i: int, row: Row, t: int) -> bool:
        return False

    def can_issue(self, i: int, row: Row, t: int) -> bool:
        return True

    def reserve(self, i: int, row: Row, t: int) -> None:
        return None

    def try_reserve(self, i: int, row: Row, t: int) -> bool:
        """``can_issue`` then ``reserve`` (a unit may do both in one pass)."""
        if self.can_issue(i, row, t):
            self.reserve(i, row, t)
            return True
        return False

    def issued(self, i: int, row: Row, t: int) -> None:
        return None

    def next_free(self, t: int) -> list[int]:
        return []

    @classmethod
    def bounds(cls, stats: StreamStats, p: Mapping[str, Any]) -> dict[Bound, float]:
        return {}


def hook(unit: Unit, name: str):
    """``unit``'s hook ``name`` if the unit takes part in it (the scheduler calls only those): None when
    the hook is :class:`Unit`'s default or the unit switched it off (set it to None) for its parameters."""
    f = getattr(unit, name)
    if f is None or getattr(f, "__func__", None) is getattr(Unit, name):
        return None
    return f
