"""Parameter structs of the MemBase level-0 API, in C++ constructor argument order (api-facts 13, 14)."""
from __future__ import annotations

from dataclasses import dataclass

from toolkit.ascendc.regbase.types import RoundMode

__all__ = ["BinaryRepeatParams", "UnaryRepeatParams", "BrcbRepeatParams", "CopyRepeatParams", "GatherMaskParams",
           "GatherRepeatParams", "RoundMode"]


@dataclass
class BinaryRepeatParams:
    """Block strides and repeat strides (units of 32 B blocks) of dst, src0, src1."""

    dstBlkStride: int = 1
    src0BlkStride: int = 1
    src1BlkStride: int = 1
    dstRepStride: int = 8
    src0RepStride: int = 8
    src1RepStride: int = 8

    def strides(self) -> list[tuple[int, int]]:
        """(blkStride, repStride) of dst, src0, src1."""
        return [(self.dstBlkStride, self.dstRepStride), (self.src0BlkStride, self.src0RepStride),
                (self.src1BlkStride, self.src1RepStride)]


@dataclass
class UnaryRepeatParams:
    """Block strides and repeat strides (units of 32 B blocks) of dst and src."""

    dstBlkStride: int = 1
    srcBlkStride: int = 1
    dstRepStride: int = 8
    srcRepStride: int = 8

    def strides(self) -> list[tuple[int, int]]:
        """(blkStride, repStride) of dst, src."""
        return [(self.dstBlkStride, self.dstRepStride), (self.srcBlkStride, self.srcRepStride)]


@dataclass
class BrcbRepeatParams:
    """Brcb destination strides (32 B blocks)."""

    dstBlkStride: int = 1
    dstRepStride: int = 8


@dataclass
class GatherMaskParams:
    """GatherMask source addressing (32 B blocks) and repeat count."""

    src0BlockStride: int = 1
    repeatTimes: int = 1
    src0RepeatStride: int = 8
    src1RepeatStride: int = 0


@dataclass
class GatherRepeatParams:
    """Gatherb destination strides (32 B blocks; dstBlkStride 0 counts as 1)."""

    dstBlkStride: int = 1
    dstRepStride: int = 8


@dataclass
class CopyRepeatParams:
    """Copy block strides (DataBlocks, up to 65535) and repeat strides (DataBlocks, up to 4095) of dst and src."""

    dstStride: int = 1
    srcStride: int = 1
    dstRepeatSize: int = 8
    srcRepeatSize: int = 8

    def strides(self) -> list[tuple[int, int]]:
        return [(self.dstStride, self.dstRepeatSize), (self.srcStride, self.srcRepeatSize)]
