"""Device-side constants and helpers shared by the simd_vf_story kernels (the sample's common header).

``VL_B32`` float lanes per register, ``VF_REPEAT`` back-to-back VF calls of the elemwise and reduce
kernels (the profile takes the steady state), ``VFLoopNumForB32(n)`` = ceil(n / 64) as a uint16 value.

VF scalar parameters travel by value (PB), so ``static_cast<uint16_t>(v)`` at a launch site is
``static_cast_u16(v)``: the plain 16-bit value, usable in the VF's address arithmetic.
"""
from __future__ import annotations

from toolkit.ascendc.dtypes import scalar_value
from toolkit.ascendc.regbase import VL_B32

SIZEOF_FLOAT = 4
BLOCK_BYTES = 32
VF_REPEAT = 5
NEG_INF = -3.4028235e38     # about -FLT_MAX: init value of the max accumulators

__all__ = ["VL_B32", "SIZEOF_FLOAT", "BLOCK_BYTES", "VF_REPEAT", "NEG_INF", "VFLoopNumForB32", "AlignUp",
           "static_cast_u16"]


def static_cast_u16(value) -> int:
    """``static_cast<uint16_t>(value)``."""
    return int(scalar_value(value)) & 0xFFFF


def VFLoopNumForB32(n) -> int:
    """Number of 64-lane fp32 chunks covering ``n`` elements (VF loop trip count, uint16)."""
    return static_cast_u16((int(scalar_value(n)) + VL_B32 - 1) // VL_B32)


def AlignUp(value: int, align: int) -> int:
    return (int(value) + align - 1) // align * align
