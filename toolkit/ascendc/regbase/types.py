"""RegBase register types (RegTensor, MaskReg, UnalignReg*, AddrReg) and the API enums.

A register holds 256 raw bytes (``raw``) and an optional per-byte definedness shadow (``defined``;
None means fully defined). Every write gives the register a fresh value id (``id``), local to the VF
instance, so the recorded instruction stream is in SSA form: true dependencies only, as the hardware
renames registers.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

import numpy as np

from toolkit.ascendc.dtypes import np_dtype
from toolkit.ascendc.itervec import BATCH as _TLS
from toolkit.ascendc.itervec import NotBatchable
from toolkit.ascendc.memory import all_set
from toolkit.engine.runtime import current
from toolkit.machine import load_machine
from toolkit.record.diagnostics import VfRuleError

VL = load_machine().params["core"]["vl_bytes"]      #: bytes of one vector register (the machine file's vl_bytes)
_U8 = np.dtype(np.uint8)


class LoadDist(Enum):
    DIST_NORM = "NORM"
    DIST_BRC_B8 = "BRC_B8"
    DIST_BRC_B16 = "BRC_B16"
    DIST_BRC_B32 = "BRC_B32"
    DIST_US_B8 = "US_B8"
    DIST_US_B16 = "US_B16"
    DIST_DS_B8 = "DS_B8"
    DIST_DS_B16 = "DS_B16"
    DIST_UNPACK_B8 = "UNPACK_B8"
    DIST_UNPACK_B16 = "UNPACK_B16"
    DIST_UNPACK_B32 = "UNPACK_B32"
    DIST_UNPACK4_B8 = "UNPACK4_B8"
    DIST_BLK = "BLK"
    DIST_E2B_B16 = "E2B_B16"
    DIST_E2B_B32 = "E2B_B32"
    DIST_DINTLV_B8 = "DINTLV_B8"
    DIST_DINTLV_B16 = "DINTLV_B16"
    DIST_DINTLV_B32 = "DINTLV_B32"


class StoreDist(Enum):
    DIST_NORM = "NORM"
    DIST_NORM_B8 = "NORM_B8"
    DIST_NORM_B16 = "NORM_B16"
    DIST_NORM_B32 = "NORM_B32"
    DIST_FIRST_ELEMENT_B8 = "FIRST_B8"
    DIST_FIRST_ELEMENT_B16 = "FIRST_B16"
    DIST_FIRST_ELEMENT_B32 = "FIRST_B32"
    DIST_PACK_B16 = "PACK_B16"
    DIST_PACK_B32 = "PACK_B32"
    DIST_PACK_B64 = "PACK_B64"
    DIST_PACK4_B32 = "PACK4_B32"
    DIST_INTLV_B8 = "INTLV_B8"
    DIST_INTLV_B16 = "INTLV_B16"
    DIST_INTLV_B32 = "INTLV_B32"


class MaskPattern(Enum):
    ALL = 0
    VL1 = 1
    VL2 = 2
    VL3 = 3
    VL4 = 4
    VL8 = 5
    VL16 = 6
    VL32 = 7
    VL64 = 8
    VL128 = 9
    M3 = 10
    M4 = 11
    H = 12
    Q = 13
    ALLF = 15


class MaskMergeMode(Enum):
    UNKNOWN = 0
    MERGING = 1
    ZEROING = 2


class RegLayout(Enum):
    UNKNOWN = -1
    ZERO = 0
    ONE = 1
    TWO = 2
    THREE = 3


class SatMode(Enum):
    UNKNOWN = -1
    NO_SAT = 0
    SAT = 1


class RoundMode(Enum):
    CAST_NONE = 0
    CAST_RINT = 1
    CAST_FLOOR = 2
    CAST_CEIL = 3
    CAST_ROUND = 4
    CAST_TRUNC = 5
    CAST_ODD = 6
    CAST_HYBRID = 7
    UNKNOWN = 8           #: no mode given: the conversion's default (machine setting, see regbase/cast.py)


class HighLowPart(Enum):
    LOWEST = 0
    HIGHEST = 1


class ReduceType(Enum):
    SUM = "SUM"
    MAX = "MAX"
    MIN = "MIN"


class PostLiteral(Enum):
    POST_MODE_NORMAL = 0
    POST_MODE_UPDATE = 1


class DataCopyMode(Enum):
    DATA_BLOCK_COPY = 1


class MaskDist(Enum):
    """Distribution of a MaskReg load (NORM, US, DS) or store (NORM, PACK)."""
    DIST_NORM = "NORM"
    DIST_US = "US"
    DIST_DS = "DS"
    DIST_PACK = "PACK"


class IndexOrder(Enum):
    """Order of the index sequence ``Arange`` writes."""
    INCREASE_ORDER = 0
    DECREASE_ORDER = 1


class CMPMODE(Enum):
    """Comparison of ``Compare`` / ``CompareScalar`` (``Compares``)."""
    LT = 0
    GT = 1
    EQ = 2
    LE = 3
    GE = 4
    NE = 5


class MemType(Enum):
    VEC_STORE = "VST"
    VEC_LOAD = "VLD"
    SCALAR_STORE = "SST"
    SCALAR_LOAD = "SLD"
    VEC_ALL = "VALL"
    SCALAR_ALL = "SALL"


class GatherMaskMode(Enum):
    """Whether ``Squeeze`` also writes the byte count of the kept elements to the AR register."""
    NO_STORE_REG = 0
    STORE_REG = 1


class HistogramsBinType(Enum):
    """Which half of the uint8 range ``Histograms`` counts: BIN0 = [0, 127], BIN1 = [128, 255]."""
    BIN0 = 0
    BIN1 = 1


class HistogramsType(Enum):
    FREQUENCY = 0
    ACCUMULATE = 1


class PairReduce(Enum):
    SUM = 0


class SpecialPurposeReg(Enum):
    """Special registers ``ClearSpr`` clears (AR: the running byte offset of Squeeze + StoreUnAlign)."""
    AR = 0


@dataclass(frozen=True, eq=False)
class CastTrait:
    """``{layoutMode, satMode, mrgMode, roundMode}`` in the C++ aggregate order (every field UNKNOWN by
    default, as the vendor's ``castTrait``)."""

    layoutMode: RegLayout = RegLayout.UNKNOWN
    satMode: SatMode = SatMode.UNKNOWN
    mrgMode: MaskMergeMode = MaskMergeMode.UNKNOWN
    roundMode: RoundMode = RoundMode.UNKNOWN


def _recorder():
    rec = current().vf
    if rec is None:
        raise VfRuleError("RegBase registers and APIs exist only inside a __simd_vf__ function")
    return rec


def _batch():
    """The batched loop body running (regbase/loopbatch.py), or None."""
    return getattr(_TLS, "batch", None)


class RegTensor:
    """``RegTensor<T>``: one 256 B vector register. ``RegTensor[float]()`` or ``RegTensor(float)``.

    Its bytes carry a leading core axis: ``raw`` is (B, 256) for a VF running on B cores at once in
    lock-step (B = 1 for one core), so one numpy operation serves every core of the batch. In a batched
    hardware loop (regbase/loopbatch.py) the rows are (iteration, core) pairs: a register made before the
    loop reads as its value repeated for every iteration until the body writes it."""

    __slots__ = ("dtype", "_raw", "_defined", "id", "acc_lanes")

    def __class_getitem__(cls, t: Any):
        return lambda: cls(t)

    def __init__(self, t: Any = float):
        rec = _recorder()
        rec.declare("reg")
        self.dtype = np_dtype(t)
        self._raw = np.zeros((rec.batch, VL), dtype=np.uint8)
        self._defined = np.zeros((rec.batch, VL), dtype=bool)   # a fresh register holds no defined data
        self.id = rec.new_id()
        self.acc_lanes = None                     # lanes of the last accumulating update (ZEROING check)
        b = _TLS.batch
        if b is not None:
            b.made(self)

    @property
    def raw(self) -> np.ndarray:
        r = self._raw
        b = _TLS.batch
        if b is None or r.shape[0] == b.rows:
            return r
        return b.read(self, "raw", r)

    @property
    def defined(self) -> np.ndarray | None:
        d = self._defined
        b = _TLS.batch
        if b is None or d is None or self._raw.shape[0] == b.rows:
            return d
        return b.read(self, "defined", d)

    def view(self, dt: np.dtype) -> np.ndarray:
        return self.raw.view(dt)

    def lane_defined(self, width: int) -> np.ndarray | None:
        """Per-lane definedness at element width ``width``, (B, lanes) (None = all defined)."""
        d = self.defined
        if d is None:
            return None
        if width == 1:
            return d
        return d.reshape(d.shape[0], -1, width).all(axis=2)

    def set(self, values: np.ndarray, lane_def: np.ndarray | None, rec, width: int | None = None) -> None:
        """Write a new value ((B or 1, lanes) of any dtype, 256 B a row) and its per-lane definedness."""
        if type(values) is not np.ndarray:
            values = np.asarray(values)
        rows = rec.batch
        b = _TLS.batch
        if b is not None:
            if self._raw.shape[0] != rows:
                b.first_write(self)
            elif b.scanned:
                b.rewrite(self)
        if values.ndim != 2 or values.shape[0] != rows:
            values = np.broadcast_to(values.reshape(-1, values.shape[-1]), (rows, values.shape[-1]))
        if not values.flags.c_contiguous:
            values = np.ascontiguousarray(values)
        self._raw = values if values.dtype is _U8 else values.view(_U8)
        if lane_def is None or all_set(lane_def):
            self._defined = None
        else:
            lane_def = np.asarray(lane_def).reshape(-1, lane_def.shape[-1])
            w = width or (VL // lane_def.shape[-1])
            d = np.repeat(lane_def, w, axis=1) if w > 1 else lane_def
            self._defined = np.ascontiguousarray(np.broadcast_to(d, (rows, VL)))
        self.id = rec.new_id()

    # -- batched loops: state at loop entry, the last iteration's rows at loop exit ---------------------
    def snapshot(self) -> tuple:
        return self._raw, self._defined, self.id, self.acc_lanes

    def restore(self, state: tuple) -> None:
        self._raw, self._defined, self.id, self.acc_lanes = state

    def keep_last(self, rows: int, base: int, new_id: int) -> None:
        if self._raw.shape[0] == rows:
            self._raw = self._raw[rows - base:].copy()
            if self._defined is not None:
                self._defined = self._defined[rows - base:].copy()
        a = self.acc_lanes
        if a is not None and a.shape[0] == rows:
            self.acc_lanes = a[rows - base:].copy()
        self.id = new_id

    def to_numpy(self, t: Any = None) -> np.ndarray:
        """The register's elements (one core: 1-D; a batch: one row per core)."""
        out = self.raw.view(self.dtype if t is None else np_dtype(t)).copy()
        return out[0] if out.shape[0] == 1 else out

    def __repr__(self) -> str:
        return f"RegTensor<{self.dtype.name}>#{self.id}"


class MaskReg:
    """256-bit predicate; bit ``w*i`` selects element i of a ``w``-byte type. ``bits`` is (1, 256) when
    every core of the batch holds the same predicate (masks made from scalars), (B, 256) otherwise."""

    __slots__ = ("_bits", "id", "_lanes")

    def __init__(self, bits: np.ndarray | None = None, _id: int | None = None):
        rec = _recorder()
        if bits is None:
            rec.declare("mask")
        if bits is None:
            bits = np.zeros((1, VL), dtype=bool)
        elif type(bits) is not np.ndarray or bits.ndim != 2 or bits.shape[1] != VL:   # (PLT/PSET rows are)
            bits = np.asarray(bits).reshape(-1, VL)
        self._bits = bits
        self.id = rec.new_id() if _id is None else _id
        self._lanes: dict[int, tuple[np.ndarray, bool]] = {}
        b = _TLS.batch
        if b is not None:
            b.made(self)

    @property
    def bits(self) -> np.ndarray:
        r = self._bits
        b = _TLS.batch
        if b is None or r.shape[0] == 1 or r.shape[0] == b.rows:
            return r
        return b.read(self, "bits", r)

    def lanes(self, width: int) -> tuple[np.ndarray, bool]:
        """(active lanes at element width ``width``, (1 or B, lanes); all-active flag)."""
        b = _TLS.batch
        if b is not None and self._bits.shape[0] not in (1, b.rows):
            act = self.bits[:, ::width]
            return act, all_set(act)
        got = self._lanes.get(width)
        if got is None:
            act = self._bits[:, ::width]
            got = self._lanes[width] = (act, all_set(act))
        return got

    def set_bits(self, bits: np.ndarray, rec) -> None:
        b = _TLS.batch
        if b is not None:
            raise NotBatchable("a mask register rewritten in place", static=True)
        self._bits = np.asarray(bits).reshape(-1, VL)
        self._lanes = {}
        self.id = rec.new_id()

    def keep_last(self, rows: int, base: int, new_id: int) -> None:
        if self._bits.shape[0] == rows:
            self._bits = self._bits[rows - base:].copy()
            self._lanes = {}
        self.id = new_id

    def __repr__(self) -> str:
        return f"MaskReg#{self.id}({int(self.bits[0].sum())} bits)"


class UnalignRegForLoad:
    """32 B staging register of LoadUnAlignPre / LoadUnAlign (rows: cores of the batch)."""

    __slots__ = ("block_addr", "block", "block_def", "id")

    def __init__(self) -> None:
        rec = _recorder()
        rec.declare("unalign_load")
        self.block_addr: int | None = None
        self.block = np.zeros((rec.batch, 32), dtype=np.uint8)
        self.block_def = np.zeros((rec.batch, 32), dtype=bool)
        self.id = rec.new_id()


class UnalignRegForStore:
    """32 B staging register of StoreUnAlign / StoreUnAlignPost: bytes pending for UB (rows: cores)."""

    __slots__ = ("pending_addr", "pending", "pending_def", "id", "site", "ar_open")

    def __init__(self) -> None:
        rec = _recorder()
        rec.declare("unalign_store", self)
        self.ar_open = False          # an AR-form StoreUnAlign ran and no StoreUnAlignPost followed yet
        self.pending_addr: int | None = None
        self.pending = np.zeros((rec.batch, 0), dtype=np.uint8)
        self.pending_def = np.zeros((rec.batch, 0), dtype=bool)
        self.id = rec.new_id()
        self.site = ("?", 0)


class AddrReg:
    """Address offset register: ``CreateAddrReg<T>(i0, s0, ...)`` = sum of index*stride elements of T."""

    __slots__ = ("offset", "dtype")

    def __init__(self, offset: int = 0, dtype: Any = np.uint8):
        self.offset = int(offset)
        self.dtype = np_dtype(dtype)
