"""0_membase: one row at a time with MemBase level-2 (count) calls, each a library VF (softmax spec 5.0).

TPipe + six TBuf<VECCALC>: x/y ping/pong, the reduce work tensor and a 32 B reduce result. Per row:
ReduceMax -> scalar read of the max -> Adds(-max) in place in x -> Exp into y -> ReduceSum (library V_S
pair and scalar read inside) -> scalar read of the sum, r = 1/sum on the scalar unit -> Muls(y, r).
The max read has no V->S flag before it, as in the sample (softmax spec open question 1).
"""
from __future__ import annotations

import numpy as np

from toolkit.ascendc.membase import Adds, Exp, Muls, ReduceMax, ReduceSum
from toolkit.ascendc.pipe import TBuf, TPipe, TPosition
from toolkit.ascendc.sync import PipeBarrier, PipeType

from .common import ReadUbFloat, SoftmaxKernelBase

STEP = 0


class KernelSoftmaxMemBase(SoftmaxKernelBase):
    def __init__(self, shape):
        super().__init__(shape)
        self.pipe = TPipe()
        self.xPingBuf = TBuf(TPosition.VECCALC)
        self.xPongBuf = TBuf(TPosition.VECCALC)
        self.yPingBuf = TBuf(TPosition.VECCALC)
        self.yPongBuf = TBuf(TPosition.VECCALC)
        self.workBuf = TBuf(TPosition.VECCALC)
        self.reduceBuf = TBuf(TPosition.VECCALC)

    def InitBuffers(self) -> None:
        self.pipe.InitBuffer(self.xPingBuf, self.tileLen * 4)
        self.pipe.InitBuffer(self.xPongBuf, self.tileLen * 4)
        self.pipe.InitBuffer(self.yPingBuf, self.tileLen * 4)
        self.pipe.InitBuffer(self.yPongBuf, self.tileLen * 4)
        self.pipe.InitBuffer(self.workBuf, self.SINGLE_CORE_N * 4)
        self.pipe.InitBuffer(self.reduceBuf, 32)

    def TileTensors(self, t: int):
        xLocal = (self.xPongBuf if t & 1 else self.xPingBuf).Get(float)
        yLocal = (self.yPongBuf if t & 1 else self.yPingBuf).Get(float)
        return xLocal, yLocal

    def Compute(self, t: int, xLocal, yLocal, rows: int) -> None:
        for row in range(rows):
            self.ComputeMemBase(xLocal[row * self.actualN], yLocal[row * self.actualN], self.actualN)

    def ComputeMemBase(self, xRow, yRow, n: int) -> None:
        work = self.workBuf.Get(float)
        reduce = self.reduceBuf.Get(float)
        ReduceMax(reduce, xRow, work, n)
        PipeBarrier[PipeType.PIPE_V]()
        maxS = ReadUbFloat(reduce.GetPhyAddr())
        Adds(xRow, xRow, -maxS, n)
        PipeBarrier[PipeType.PIPE_V]()
        Exp(yRow, xRow, n)
        PipeBarrier[PipeType.PIPE_V]()
        ReduceSum(reduce, yRow, work, n)
        PipeBarrier[PipeType.PIPE_V]()
        sumS = ReadUbFloat(reduce.GetPhyAddr())
        r = np.float32(1.0) / np.float32(sumS)            # fp32 scalar divide
        Muls(yRow, yRow, r, n)
