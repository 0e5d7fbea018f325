"""Helpers of the kernel-API tests (the ``ctx`` fixture, one current emulated core, is in conftest.py):
UB bytes in and out, LocalTensor views, the VFs a call recorded, reference sums, diagnostics, line numbers.
Plain numpy on the UB arrays: nothing here goes through the API under test."""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from toolkit.ascendc.tensor import LocalTensor
from toolkit.record.diagnostics import KernelAbort
from toolkit.record.events import VfCall


def put(ctx, addr: int, arr) -> None:
    """Write ``arr``'s bytes to UB at ``addr`` (and mark them defined)."""
    ctx.ub.write(addr, np.ascontiguousarray(arr).reshape(-1).view(np.uint8))


def get(ctx, addr: int, dt, n: int) -> np.ndarray:
    """A copy of ``n`` elements of type ``dt`` from UB at ``addr``."""
    dt = np.dtype(dt)
    return ctx.ub.data[addr:addr + n * dt.itemsize].view(dt).copy()


def T(addr: int, dt, n: int = 4096) -> LocalTensor:
    return LocalTensor(addr, dt, n)


def membase_vf(ctx) -> VfCall:
    """The library VF the last MemBase call recorded (it must be the last event)."""
    ev = ctx.events[-1]
    assert isinstance(ev, VfCall) and ev.launch == "membase"
    return ev


def last_vf(ctx) -> VfCall:
    return [e for e in ctx.events if isinstance(e, VfCall)][-1]


def ops(ev: VfCall) -> Counter:
    """Opcode -> count over a VF's recorded instructions."""
    return Counter(i[0] for i in ev.instrs)


def tree_sum(v, dtype=None):
    """Adjacent-pair tree over the last axis (a power of two long), level by level, every addition
    rounded to ``dtype`` (default: the array's type)."""
    v = np.asarray(v, dtype)
    while v.shape[-1] > 1:
        v = (v[..., 0::2] + v[..., 1::2]).astype(v.dtype)
    return v[..., 0]


def abort_code(fn, *args) -> str:
    """The diagnostic code of the KernelAbort ``fn(*args)`` raises."""
    with pytest.raises(KernelAbort) as ei:
        fn(*args)
    return ei.value.diag.code


def line_of(path: str, marker: str) -> int:
    """The line of ``path`` (a test's ``__file__``) that holds ``marker``, not counting the lookup itself."""
    with open(path, encoding="utf-8") as f:
        return next(n for n, text in enumerate(f, 1) if marker in text and "line_of(" not in text)
