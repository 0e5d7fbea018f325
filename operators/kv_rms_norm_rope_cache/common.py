"""The outer data flow both full_load kernels share (the migration keeps it untouched): GM binding,
the streaming queues, CopyRopeAndX, cos/sin copy-in, CopyOutK / CopyOutV with the cache scatter, and
the tile loop. Subclasses provide the UB plan of gamma/workspace, gamma loading, Rope and RmsNorm.
"""
from __future__ import annotations

from toolkit.ascendc.dma import (
    DataCopy,
    DataCopyExtParams,
    DataCopyPad,
    DataCopyPadExtParams,
)
from toolkit.ascendc.dtypes import bfloat16_t, int64_t
from toolkit.ascendc.pipe import TPipe, TPosition, TQue
from toolkit.ascendc.sync import HardEvent, SetFlag, WaitFlag
from toolkit.ascendc.tensor import GlobalTensor, gm_cast
from toolkit.engine.runtime import GetBlockIdx

BUFFER_NUM = 2
EVENT_ID0 = 0


def Align(n: int, nbytes: int) -> int:
    """Bytes of n elements of nbytes each, rounded up to 32 B."""
    return (n * nbytes + 31) // 32 * 32


class KvRmsNormRopeCacheBase:
    """Init / Process / ProcessTile / CopyRopeAndX / CopyOutK / CopyOutV of the sample."""

    def Init(self, kv, gamma, cos, sin, index, kCache, vCache, kOut, vOut, tiling, pipe: TPipe):
        self.tiling = tiling
        self.pipe = pipe
        self.dv, self.dk = tiling.dv, tiling.dk
        self.ubFactor = tiling.ubFactor
        self.blockIdx = GetBlockIdx()
        self.rowOffset = self.blockIdx * tiling.blockFactor
        self.blockRows = min(tiling.blockFactor, tiling.totalRows - self.rowOffset)
        dv, dk = self.dv, self.dk
        self.kvGm = GlobalTensor(bfloat16_t)
        self.kvGm.SetGlobalBuffer(gm_cast(bfloat16_t, kv) + self.rowOffset * (dv + dk))
        self.gammaGm = GlobalTensor(bfloat16_t)
        self.gammaGm.SetGlobalBuffer(gm_cast(bfloat16_t, gamma))
        self.cosGm = GlobalTensor(bfloat16_t)
        self.cosGm.SetGlobalBuffer(gm_cast(bfloat16_t, cos) + self.rowOffset * dk)
        self.sinGm = GlobalTensor(bfloat16_t)
        self.sinGm.SetGlobalBuffer(gm_cast(bfloat16_t, sin) + self.rowOffset * dk)
        self.indexGm = GlobalTensor(int64_t)
        self.indexGm.SetGlobalBuffer(gm_cast(int64_t, index))
        self.kCacheGm = GlobalTensor(bfloat16_t)
        self.kCacheGm.SetGlobalBuffer(gm_cast(bfloat16_t, kCache))
        self.vCacheGm = GlobalTensor(bfloat16_t)
        self.vCacheGm.SetGlobalBuffer(gm_cast(bfloat16_t, vCache))
        self.kOutGm = GlobalTensor(bfloat16_t)
        self.kOutGm.SetGlobalBuffer(gm_cast(bfloat16_t, kOut) + self.rowOffset * dk)
        self.vOutGm = GlobalTensor(bfloat16_t)
        self.vOutGm.SetGlobalBuffer(gm_cast(bfloat16_t, vOut) + self.rowOffset * dv)

        self.gammaQueue = TQue(TPosition.VECIN, 1)
        self.inQueue = TQue(TPosition.VECIN, 1)
        self.cosSinQueue = TQue(TPosition.VECIN, 1)
        self.outQueue = TQue(TPosition.VECOUT, 1)
        pipe.InitBuffer(self.gammaQueue, 1, self.GammaBufferBytes())
        pipe.InitBuffer(self.inQueue, BUFFER_NUM, self.ubFactor * Align(dv + dk, 2))
        pipe.InitBuffer(self.cosSinQueue, BUFFER_NUM, self.ubFactor * Align(2 * dk, 2))
        pipe.InitBuffer(self.outQueue, BUFFER_NUM, self.ubFactor * Align(dv, 2))
        self.InitWorkspace(pipe)

    # -- backend hooks ---------------------------------------------------------------------------
    def GammaBufferBytes(self) -> int:
        raise NotImplementedError

    def InitWorkspace(self, pipe: TPipe) -> None:
        pass

    def CopyInGamma(self):
        raise NotImplementedError

    def Rope(self, outLocal, ropeLocal, cosSinLocal, rows: int) -> None:
        raise NotImplementedError

    def RmsNorm(self, outLocal, xLocal, gammaLocal, rows: int) -> None:
        raise NotImplementedError

    # -- shared data flow ------------------------------------------------------------------------
    def Process(self):
        gammaLocal = self.CopyInGamma()
        ubLoop = (self.blockRows + self.ubFactor - 1) // self.ubFactor
        for loopIdx in range(ubLoop):
            rows = self.ubFactor if loopIdx < ubLoop - 1 else self.blockRows - loopIdx * self.ubFactor
            self.ProcessTile(loopIdx, rows, gammaLocal)
        self.gammaQueue.FreeTensor(gammaLocal)

    def ProcessTile(self, loopIdx: int, rows: int, gammaLocal):
        dk = self.dk
        inLocal = self.inQueue.AllocTensor(bfloat16_t)
        self.CopyRopeAndX(inLocal, loopIdx, rows)
        self.inQueue.EnQue(inLocal)
        inLocal = self.inQueue.DeQue(bfloat16_t)
        ropeLocal = inLocal
        xLocal = inLocal[rows * dk]

        cosSinLocal = self.cosSinQueue.AllocTensor(bfloat16_t)
        DataCopy(cosSinLocal, self.cosGm[loopIdx * self.ubFactor * dk], rows * dk)
        DataCopy(cosSinLocal[rows * dk], self.sinGm[loopIdx * self.ubFactor * dk], rows * dk)
        self.cosSinQueue.EnQue(cosSinLocal)
        cosSinLocal = self.cosSinQueue.DeQue(bfloat16_t)

        outLocal = self.outQueue.AllocTensor(bfloat16_t)
        self.Rope(outLocal, ropeLocal, cosSinLocal, rows)
        self.outQueue.EnQue(outLocal)
        outLocal = self.outQueue.DeQue(bfloat16_t)
        self.CopyOutK(outLocal, loopIdx, rows)
        self.outQueue.FreeTensor(outLocal)
        self.cosSinQueue.FreeTensor(cosSinLocal)

        outLocal = self.outQueue.AllocTensor(bfloat16_t)
        self.RmsNorm(outLocal, xLocal, gammaLocal, rows)
        self.outQueue.EnQue(outLocal)
        outLocal = self.outQueue.DeQue(bfloat16_t)
        self.CopyOutV(outLocal, loopIdx, rows)
        self.outQueue.FreeTensor(outLocal)
        self.inQueue.FreeTensor(inLocal)

    def CopyRopeAndX(self, inLocal, loopIdx: int, rows: int):
        dv, dk = self.dv, self.dk
        gmOffset = loopIdx * self.ubFactor * (dv + dk)
        padParams = DataCopyPadExtParams(False, 0, 0, 0)
        xParams = DataCopyExtParams(rows, dv * 2, dk * 2, 0, 0)
        DataCopyPad(inLocal[rows * dk], self.kvGm[gmOffset], xParams, padParams)
        ropeParams = DataCopyExtParams(rows, dk * 2, dv * 2, 0, 0)
        DataCopyPad(inLocal, self.kvGm[gmOffset + dv], ropeParams, padParams)

    def CopyOutK(self, outLocal, loopIdx: int, rows: int):
        self._CopyOut(outLocal, loopIdx, rows, self.dk, self.kCacheGm, self.kOutGm)

    def CopyOutV(self, outLocal, loopIdx: int, rows: int):
        self._CopyOut(outLocal, loopIdx, rows, self.dv, self.vCacheGm, self.vOutGm)

    def _CopyOut(self, outLocal, loopIdx: int, rows: int, d: int, cacheGm, outGm):
        copyParams = DataCopyExtParams(1, d * 2, 0, 0, 0)
        for i in range(rows):
            tileRow = loopIdx * self.ubFactor + i
            token = self.rowOffset + tileRow
            cacheOffset = self.indexGm.GetValue(token)
            SetFlag[HardEvent.S_MTE3](EVENT_ID0)
            WaitFlag[HardEvent.S_MTE3](EVENT_ID0)
            if cacheOffset >= 0:
                batch = token // self.tiling.seqLength
                DataCopyPad(cacheGm[(batch * self.tiling.cacheLength + cacheOffset) * d], outLocal[i * d], copyParams)
            DataCopyPad(outGm[tileRow * d], outLocal[i * d], copyParams)
