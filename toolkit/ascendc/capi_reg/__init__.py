"""The C API of the register family (``C-API/reg``: ``asc_add``, ``asc_loadalign``, ``asc_float2half_rn`` ...),
the functions ``__simd_vf__`` code calls on ``vector_*`` registers: each is the Reg API semantic of the same
operation (``toolkit/ascendc/regbase``), reached with the template arguments the C name fixes, so the C
names and the Reg API run one implementation. Python kernels may call them too (``capi_reg.asc_add(dst,
a, b, mask)`` on ``Reg.RegTensor`` / ``Reg.MaskReg`` objects)."""
from __future__ import annotations

from . import compute, convert, move
from .compute import *
from .convert import *
from .move import *

__all__ = [*compute.__all__, *convert.__all__, *move.__all__]  # noqa: PLE0604 (built from the tables)
