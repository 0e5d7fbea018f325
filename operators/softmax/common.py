"""What the three softmax variants share (sample ``include/sample_common.h`` and the kernel skeleton):
the compile-time shape, block -> rows (``InitGMOffsets``), the hand-made ping/pong flag protocol and the
DataCopyPad tile copies. A variant supplies its UB layout (``InitBuffers`` / ``PrepareTensors`` /
``TileTensors``) and ``Compute``.

The constants are template arguments of the kernel class in the sample; here they are the fields of
:class:`SoftmaxShape` (defaults = the sample), so a test can run a smaller shape through the same code.
"""
from __future__ import annotations

from dataclasses import dataclass

from toolkit.ascendc.dma import DataCopyExtParams, DataCopyPad, DataCopyPadExtParams
from toolkit.ascendc.pipe import TPosition
from toolkit.ascendc.sync import HardEvent, PipeBarrier, PipeType, SetFlag, WaitFlag
from toolkit.ascendc.tensor import GlobalTensor, LocalTensor, UbPtr, gm_cast
from toolkit.engine.runtime import GetBlockIdx

from .sample_shape import SINGLE_CORE_M, SINGLE_CORE_N, TOTAL_M, TOTAL_N

TILE_LEN = 2 * SINGLE_CORE_N
COMPARE_TOL = 1e-3
EVENT_ID0, EVENT_ID1 = 0, 1
FLT_LOWEST = -3.4028235e38


def CeilDivision(a: int, b: int) -> int:
    return (a + b - 1) // b


@dataclass(frozen=True)
class SoftmaxShape:
    """``(TOTAL_M, TOTAL_N, SINGLE_CORE_M, SINGLE_CORE_N, tileLen)``: the kernel class template arguments."""

    totalM: int = TOTAL_M
    totalN: int = TOTAL_N
    singleCoreM: int = SINGLE_CORE_M
    singleCoreN: int = SINGLE_CORE_N
    tileLen: int = TILE_LEN

    @property
    def blocks(self) -> int:
        """BLOCKS = ceil(TOTAL_M / SINGLE_CORE_M) * ceil(TOTAL_N / SINGLE_CORE_N)."""
        return CeilDivision(self.totalM, self.singleCoreM) * CeilDivision(self.totalN, self.singleCoreN)


def RawLocalTensor(pos: TPosition, byteAddr: int, length: int) -> LocalTensor:
    """``LocalTensor<float>(TPosition::VECCALC, byteAddr, len)``: a tensor on a fixed UB byte address."""
    return LocalTensor(byteAddr, float, length, pos.value)


def InitSocState() -> None:
    """``InitSocState()``: resets core control state; nothing the emulator models."""


def ReadUbFloat(ptr: UbPtr) -> float:
    """``*(__ubuf__ float*)addr``: a scalar-unit load of one float from UB (same event as GetValue)."""
    return LocalTensor(ptr.addr, float, 1).GetValue(0)


class SoftmaxKernelBase:
    """Init / InitGMOffsets / Process of the sample; ``Compute`` and the UB layout come from a variant."""

    def __init__(self, shape: SoftmaxShape):
        self.TOTAL_M, self.TOTAL_N = shape.totalM, shape.totalN
        self.SINGLE_CORE_M, self.SINGLE_CORE_N = shape.singleCoreM, shape.singleCoreN
        self.tileLen = shape.tileLen
        self.xGm = GlobalTensor(float)
        self.yGm = GlobalTensor(float)

    def Init(self, x, y) -> None:
        InitSocState()
        self.xGm.SetGlobalBuffer(gm_cast(float, x))
        self.yGm.SetGlobalBuffer(gm_cast(float, y))
        self.InitGMOffsets()
        self.InitBuffers()

    def InitGMOffsets(self) -> None:
        mIndex = CeilDivision(self.TOTAL_M, self.SINGLE_CORE_M)
        nIndex = CeilDivision(self.TOTAL_N, self.SINGLE_CORE_N)
        tailM = self.TOTAL_M - (mIndex - 1) * self.SINGLE_CORE_M
        tailN = self.TOTAL_N - (nIndex - 1) * self.SINGLE_CORE_N
        blockIdx = GetBlockIdx()
        mIdx = blockIdx % mIndex
        nIdx = blockIdx // mIndex
        self.actualM = tailM if mIdx == mIndex - 1 else self.SINGLE_CORE_M
        self.actualN = tailN if nIdx == nIndex - 1 else self.SINGLE_CORE_N
        offset = mIdx * self.SINGLE_CORE_M * self.TOTAL_N + nIdx * self.SINGLE_CORE_N
        self.xGm = self.xGm[offset]
        self.yGm = self.yGm[offset]

    # -- variant hooks ----------------------------------------------------------------------------
    def InitBuffers(self) -> None:
        """0_membase: the TPipe InitBuffer calls (3 and 7 have none)."""

    def PrepareTensors(self) -> None:
        """3 and 7: the raw-address LocalTensors built at the top of Process."""

    def TileTensors(self, t: int) -> tuple[LocalTensor, LocalTensor]:
        raise NotImplementedError

    def Compute(self, t: int, xLocal: LocalTensor, yLocal: LocalTensor, rows: int) -> None:
        raise NotImplementedError

    # -- shared data flow -------------------------------------------------------------------------
    def Process(self) -> None:
        self.PrepareTensors()
        SetFlag[HardEvent.V_MTE2](EVENT_ID0)
        SetFlag[HardEvent.V_MTE2](EVENT_ID1)
        SetFlag[HardEvent.MTE3_V](EVENT_ID0)
        SetFlag[HardEvent.MTE3_V](EVENT_ID1)
        tileRow = self.tileLen // self.SINGLE_CORE_N
        tiles = CeilDivision(self.actualM, tileRow)
        tailRow = self.actualM - (tiles - 1) * tileRow
        for t in range(tiles):
            ev = EVENT_ID1 if t & 1 else EVENT_ID0
            rows = tailRow if t == tiles - 1 else tileRow
            xLocal, yLocal = self.TileTensors(t)
            gmOffset = t * tileRow * self.TOTAL_N
            WaitFlag[HardEvent.V_MTE2](ev)
            cpIn = DataCopyExtParams(rows, self.actualN * 4, (self.TOTAL_N - self.actualN) * 4, 0, 0)
            pad = DataCopyPadExtParams(False, 0, 0, 0)
            DataCopyPad(xLocal, self.xGm[gmOffset], cpIn, pad)
            SetFlag[HardEvent.MTE2_V](ev)
            WaitFlag[HardEvent.MTE2_V](ev)
            WaitFlag[HardEvent.MTE3_V](ev)
            self.Compute(t, xLocal, yLocal, rows)
            SetFlag[HardEvent.V_MTE2](ev)
            SetFlag[HardEvent.V_MTE3](ev)
            WaitFlag[HardEvent.V_MTE3](ev)
            cpOut = DataCopyExtParams(rows, self.actualN * 4, 0, (self.TOTAL_N - self.actualN) * 4, 0)
            DataCopyPad(self.yGm[gmOffset], yLocal, cpOut)
            SetFlag[HardEvent.MTE3_V](ev)
        WaitFlag[HardEvent.V_MTE2](EVENT_ID0)
        WaitFlag[HardEvent.V_MTE2](EVENT_ID1)
        WaitFlag[HardEvent.MTE3_V](EVENT_ID0)
        WaitFlag[HardEvent.MTE3_V](EVENT_ID1)


class RawPingPongKernel(SoftmaxKernelBase):
    """3 and 7: no TPipe; at the top of Process, LocalTensors at fixed UB byte addresses (x ping, y ping,
    x pong, y pong [, the scalar buffer]); per row pair the row addresses are raw tensors on the tile."""

    SCALAR_BUF = False

    def PrepareTensors(self) -> None:
        tileBytes = self.tileLen * 4
        self.xPing = RawLocalTensor(TPosition.VECCALC, 0, self.tileLen)
        self.yPing = RawLocalTensor(TPosition.VECCALC, 2 * tileBytes, self.tileLen)
        self.xPong = RawLocalTensor(TPosition.VECCALC, tileBytes, self.tileLen)
        self.yPong = RawLocalTensor(TPosition.VECCALC, 3 * tileBytes, self.tileLen)
        if self.SCALAR_BUF:
            self.scalarBuf = RawLocalTensor(TPosition.VECCALC, 4 * tileBytes, 16)

    def TileTensors(self, t: int):
        return (self.xPong, self.yPong) if t & 1 else (self.xPing, self.yPing)

    def RowPairAddrs(self, xLocal: LocalTensor, yLocal: LocalTensor, row: int) -> tuple[UbPtr, ...]:
        """(xAddr0, xAddr1, yAddr0, yAddr1): ``(__ubuf__ float*)`` of rows ``row`` and ``row + 1``."""
        n = self.actualN
        return tuple(RawLocalTensor(TPosition.VECCALC, base.addr + r * n * 4, n).GetPhyAddr()
                     for base in (xLocal, yLocal) for r in (row, row + 1))


def make_entry(kernel_cls: type, shape: SoftmaxShape):
    """``softmax_regbase_kernel<<<blocks>>>(x, y)`` for one variant class and shape."""

    def softmax_regbase_kernel(x, y) -> None:
        op = kernel_cls(shape)
        op.Init(x, y)
        op.Process()
        PipeBarrier[PipeType.PIPE_ALL]()

    return softmax_regbase_kernel
