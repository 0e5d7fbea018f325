"""``AscendC::TensorShape``: the shape the host-side helpers (Get*TmpSize, Get*Tiling) take.

Built from a list of dimensions, as the C++ class from a ``std::vector<int64_t>``: ``TensorShape([320, 64])``.
Its fields (``dimNum`` and up to eight dimensions) are what the ``.asc`` bridge sends."""
from __future__ import annotations

import math
from dataclasses import dataclass

MAX_DIMS = 8


@dataclass
class TensorShape:
    dimNum: int = 0
    d0: int = 0
    d1: int = 0
    d2: int = 0
    d3: int = 0
    d4: int = 0
    d5: int = 0
    d6: int = 0
    d7: int = 0

    def __post_init__(self) -> None:
        if isinstance(self.dimNum, (list, tuple)):
            dims = [int(d) for d in self.dimNum]
            if len(dims) > MAX_DIMS:
                raise ValueError(f"TensorShape: {len(dims)} dimensions, at most {MAX_DIMS}")
            self.dimNum = len(dims)
            for k in range(MAX_DIMS):
                setattr(self, f"d{k}", dims[k] if k < len(dims) else 0)

    def GetDims(self) -> list[int]:
        return [int(getattr(self, f"d{k}")) for k in range(int(self.dimNum))]

    def GetDimNum(self) -> int:
        return int(self.dimNum)

    def GetDim(self, idx: int) -> int:
        return self.GetDims()[idx]

    def GetShapeSize(self) -> int:
        return math.prod(self.GetDims()) if self.dimNum else 0


def rows_cols(shape: TensorShape) -> tuple[int, int]:
    """(product of the non-last dimensions, the last dimension): the [m, k] view of the row-wise APIs."""
    dims = shape.GetDims()
    if not dims:
        return 0, 0
    return math.prod(dims[:-1]), dims[-1]
