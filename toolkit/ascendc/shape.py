"""ShapeInfo (辅助数据结构): the shape a Local/GlobalTensor carries for DumpTensor and the shape-aware APIs,
and GetShapeSize. The bridge sends its fields flat (up to K_MAX_DIM dimensions of each shape)."""
from __future__ import annotations

from dataclasses import dataclass, fields

#: dimensions a ShapeInfo holds (the page's K_MAX_DIM)
K_MAX_DIM = 8


@dataclass
class ShapeInfo:
    """``ShapeInfo``: ``shapeDim`` dimensions ``shape0..7``, the original shape, the data format."""

    shapeDim: int = 0
    originalShapeDim: int = 0
    shape0: int = 0
    shape1: int = 0
    shape2: int = 0
    shape3: int = 0
    shape4: int = 0
    shape5: int = 0
    shape6: int = 0
    shape7: int = 0
    originalShape0: int = 0
    originalShape1: int = 0
    originalShape2: int = 0
    originalShape3: int = 0
    originalShape4: int = 0
    originalShape5: int = 0
    originalShape6: int = 0
    originalShape7: int = 0
    dataFormat: int = 0

    @property
    def shape(self) -> list[int]:
        return [getattr(self, f"shape{k}") for k in range(K_MAX_DIM)]

    @classmethod
    def of(cls, dims: list[int], data_format: int = 0) -> "ShapeInfo":
        """A ShapeInfo of ``dims`` (the original shape the same), as the 2-argument constructor makes it."""
        vals = list(dims) + [0] * (K_MAX_DIM - len(dims))
        return cls(len(dims), len(dims), *vals, *vals, data_format)


def GetShapeSize(info: ShapeInfo) -> int:
    """The product of the shape's dimensions."""
    n = 1
    for k in range(int(info.shapeDim)):
        n *= info.shape[k]
    return n


FIELDS = tuple(f.name for f in fields(ShapeInfo))
