"""Host tiling shared by both backends (the sample's BuildTiling)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

SAMPLE_UB_FACTOR = 8


@dataclass(frozen=True)
class KvRmsNormRopeCacheTiling:
    totalRows: int
    blockFactor: int
    blockNum: int
    ubFactor: int
    numHead: int
    seqLength: int
    cacheLength: int
    dv: int
    dk: int
    epsilon: float
    reciprocal: float     # 1/dv rounded to fp32


def CeilDiv(a: int, b: int) -> int:
    return (a + b - 1) // b


def BuildTiling(batch: int, num_head: int, seq: int, dv: int, dk: int, core_num: int,
                ub_factor: int = SAMPLE_UB_FACTOR, epsilon: float = 1e-5) -> KvRmsNormRopeCacheTiling:
    """blockFactor = ceil(rows / coreNum); blockNum = ceil(rows / blockFactor); ubFactor = min(ub, blockFactor)."""
    total = batch * num_head * seq
    block_factor = CeilDiv(total, core_num)
    block_num = CeilDiv(total, block_factor)
    return KvRmsNormRopeCacheTiling(
        totalRows=total, blockFactor=block_factor, blockNum=block_num, ubFactor=min(ub_factor, block_factor),
        numHead=num_head, seqLength=seq, cacheLength=seq, dv=dv, dk=dk,
        epsilon=float(np.float32(epsilon)), reciprocal=float(np.float32(1.0) / np.float32(dv)))
